"""The tabs kept per folder between runs: their files and views remembered when the
folder closes, opened again when it is opened (unsaved text is the recovery's)."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtWidgets import QTabWidget

from ..infra.settings_store import AppSettings


def tab_paths(tabs: QTabWidget) -> tuple[list[str], str]:
    """The files open in `tabs` (each tab's tooltip is its path), and the current one."""
    paths = [tabs.tabToolTip(number) for number in range(tabs.count())]
    current = tabs.currentIndex()
    return [p for p in paths if p], (paths[current] if 0 <= current < len(paths) else "")


def remember_tabs(store: AppSettings, folder: str, tabs: QTabWidget) -> None:
    """Keep the tabs open in `folder` for the next time it is opened (unsaved text is
    the recovery's: only the paths are kept here)."""
    if folder:
        paths, current = tab_paths(tabs)
        views = []
        for number in range(tabs.count()):
            if tabs.tabToolTip(number):
                inner = getattr(tabs.widget(number), "views", None)
                views.append(inner.tabText(inner.currentIndex()) if inner is not None else "")
        store.set_open_tabs(folder, paths, views)
        store.settings.setValue("open_tabs_current", current)


def restore_tabs(store: AppSettings, folder: str, open_file: Callable[[str], object]) -> int:
    """Open the tabs kept for `folder` that are still files inside it; how many opened."""
    base = os.path.realpath(folder)
    current = store.settings.value("open_tabs_current", "")
    views = store.open_tab_views(folder)
    opened = 0
    for path in store.open_tabs(folder):
        real = os.path.realpath(path)
        inside = os.path.commonpath([base, real]) == base and os.path.isfile(real)
        tab = open_file(path) if inside else None
        if tab is not None:
            opened += 1
            show_view(tab, views.get(path) or "Form")
    if isinstance(current, str) and current in store.open_tabs(folder):
        open_file(current)
    return opened


def show_view(tab: object, name: str) -> None:
    """A skill's tab on the view called `name` (the Form when there is none so called):
    each restored tab opens on the view it was left on, whatever opening it did."""
    inner = getattr(tab, "views", None)
    if not isinstance(inner, QTabWidget):
        return
    names = [inner.tabText(number) for number in range(inner.count())]
    inner.setCurrentIndex(names.index(name) if name in names else 0)


class KeptTabs:
    """The window's kept tabs: those of the folder that closes remembered, and those of
    the folder opened restored once its scan has landed (not before: a tab opens a skill
    of its registry)."""

    def __init__(self, store: AppSettings, tabs: QTabWidget) -> None:
        self.store = store
        self.tabs = tabs
        self.waiting = ""  # the folder whose kept tabs open when its scan lands
        # the tabs were kept as the folder closes: closing them must not change that
        self.holding = False

    def remember(self, folder: str) -> None:
        """The tabs kept as `folder` closes (its tabs close next: `release` after)."""
        remember_tabs(self.store, folder, self.tabs)
        self.holding = True

    def release(self) -> None:
        self.holding = False

    def follow(self, folder: str) -> None:
        """The tabs changed (opened, closed, another current): kept at once, so that a
        crash loses no tab list (only a clean close or a folder change kept it)."""
        if folder and not self.holding and not self.waiting:
            remember_tabs(self.store, folder, self.tabs)

    def expect(self, folder: str) -> None:
        self.waiting = folder

    def landed(self, folder: str, open_file: Callable[[str], object]) -> None:
        """`folder`'s scan landed: its kept tabs opened, once."""
        if self.waiting and self.waiting == folder:
            self.waiting = ""
            self.holding = True  # (the list is read while its tabs open)
            try:
                restore_tabs(self.store, folder, open_file)
            finally:
                self.holding = False
