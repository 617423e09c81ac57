"""Tests of gui/window/kept_tabs.py (The tabs kept per folder between runs: their files
and views remembered when the folder closes, opened again when it is opened (unsaved
text is the recovery's))."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from skillstudio.gui.window.main_window import MainWindow

from ..parts import WINDOW_SIZE, open_window


def test_restored_tabs_open_on_the_view_each_was_left_on(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    def opened() -> MainWindow:
        win = MainWindow(settings)
        win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
        qtbot.addWidget(win)
        win.show()
        with qtbot.waitSignal(win.scan_finished, timeout=10_000):
            assert win.open_path(str(samples))
        return win

    def views(win: MainWindow, paths: list[str]) -> list[str]:
        return [
            win.documents[p].views.tabText(win.documents[p].views.currentIndex()) for p in paths
        ]

    win = opened()
    paths = sorted(p for r in win.context.registries for p in r.by_path)[:4]
    for path, view in zip(paths, ["Form", "Source", "Preview", "Source"], strict=True):
        editor = win.open_skill(path)
        assert editor is not None
        names = [editor.views.tabText(n) for n in range(editor.views.count())]
        editor.views.setCurrentIndex(names.index(view))
    win.open_skill(paths[1])
    win.close()
    again = opened()
    qtbot.waitUntil(lambda: all(p in again.documents for p in paths))
    assert views(again, paths) == ["Form", "Source", "Preview", "Source"]
    again.close()
    settings.remove("open_tab_views")  # kept by an older version: no views noted
    third = opened()
    qtbot.waitUntil(lambda: all(p in third.documents for p in paths))
    assert views(third, paths) == ["Form"] * 4


def test_open_tabs_come_back_when_the_folder_is_opened_again(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    win = open_window(qtbot, settings, samples, size=WINDOW_SIZE)
    paths = sorted(p for r in win.context.registries for p in r.by_path)[:3]
    for path in paths:
        win.open_skill(path)
    win.open_skill(paths[1])  # the current one
    win.close()
    again = open_window(qtbot, settings, samples, size=WINDOW_SIZE)
    assert sorted(again.documents) == sorted(paths)
    assert again.document_tabs.current_path() == paths[1]
    again.close_folder()
    with qtbot.waitSignal(again.scan_finished, timeout=10_000):
        again.open_path(str(samples))
    assert sorted(again.documents) == sorted(paths), "Close Folder keeps them too"
