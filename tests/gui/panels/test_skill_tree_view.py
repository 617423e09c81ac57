"""Tests of gui/panels/skill_tree_view.py (SkillTreeView: the skills tree's view; while
it has no rows it says why (no folder open: how to open one), instead of an empty box
beside the welcome page)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from skillstudio.gui.window.main_window import MainWindow


def test_while_reading_the_tree_says_so(qtbot: QtBot, settings: QSettings, samples: Path) -> None:
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    win.open_path(str(samples))
    assert win.scanning and win.tree.empty_text() == "Reading the folder…"
    qtbot.waitUntil(lambda: not win.scanning, timeout=10_000)
    win.filter_box.setText("zzqx-none")
    qtbot.waitUntil(lambda: win.tree_model.rowCount() == 0, timeout=3000)
    assert win.tree.empty_text().startswith("No skill matches"), "read: not 'Reading'"
