"""The folders opened last, kept in the settings (File › Open Recent, the welcome page)."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMenu

from .places import home_relative

MAX_RECENT = 10


class RecentFolders:
    """The recent folders, newest first, at most MAX_RECENT."""

    def __init__(self, settings: QSettings) -> None:
        self.settings = settings

    def folders(self) -> list[str]:
        stored = self.settings.value("recent", [], list)
        return [p for p in stored if isinstance(p, str)] if isinstance(stored, list) else []

    def remember(self, folder: str) -> None:
        recent = [p for p in self.folders() if p != folder]
        self.settings.setValue("recent", [folder, *recent][:MAX_RECENT])

    def clear(self) -> None:
        self.settings.setValue("recent", [])

    def fill_menu(self, menu: QMenu, open_folder: Callable[[str], object]) -> None:
        """`menu` lists those that still exist (numbered), then Clear List."""
        menu.clear()
        folders = [p for p in self.folders() if os.path.isdir(p)]
        for number, folder in enumerate(folders, 1):
            shown = home_relative(folder).replace("&", "&&")
            label = f"&{number} {shown}" if number < 10 else shown
            action = menu.addAction(label)
            action.triggered.connect(lambda _checked=False, f=folder: open_folder(f))
        if not folders:
            menu.addAction("No recent folders").setEnabled(False)
        else:
            menu.addSeparator()
            menu.addAction("Clear List", self.clear)
