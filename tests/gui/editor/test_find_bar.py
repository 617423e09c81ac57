"""Tests of gui/editor/find_bar.py (FindBar: find (and replace) in the source view, with
match count and wrap-around)."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from skillstudio.gui.window.main_window import MainWindow

from ..parts import open_first


def test_find_replace_and_go_to_line(window: MainWindow, qtbot: QtBot) -> None:
    editor = open_first(window, "commit")
    window.menu_actions.find_action.trigger()
    assert editor.find_bar.isVisible()
    qtbot.keyClicks(editor.find_bar.query, "git")
    assert editor.find_bar.count.text().endswith("found")
    assert editor.find_bar.find_next()
    assert editor.source.textCursor().selectedText() == "git"
    editor.find_bar.replacement.setText("GIT")
    replaced = editor.find_bar.replace_all()
    assert replaced >= 2 and "git " not in editor.document.text().split("---", 2)[2]
    editor.source.undo()  # one undo step restores every replacement
    assert editor.document.text().count("git") >= replaced
    editor.go_to_line(3)
    assert editor.source.textCursor().blockNumber() == 2
