"""Tests of gui/editor/skill_editor.py (SkillEditor: the tab of one open skill — source
and preview views, and a message bar)."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from skillstudio.gui.window.main_window import MainWindow

from ..parts import open_tab, skill_path

WATCH_WAIT = 5000


def test_reload_button_takes_the_disk_version(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    path = skill_path(samples, "test-first-fix")
    editor = open_tab(window, path)
    qtbot.keyClicks(editor.source, "draft ")
    path.write_text("---\nname: test-first-fix\ndescription: new\n---\nNew body\n")
    qtbot.waitUntil(editor.conflict_bar.isVisible, timeout=WATCH_WAIT)
    editor.reload_button.click()
    assert editor.document.text().endswith("New body\n")
    assert not editor.document.modified
