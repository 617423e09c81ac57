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


def test_typing_after_a_replacement_is_an_undo_step_of_its_own(
    window: MainWindow, qtbot: QtBot
) -> None:
    """Text typed where the last replacement ended joined Replace All's step (Qt's
    rule): one Ctrl+Z took back the typing and every replacement; Replace (one) and
    the typing after it were one step too."""
    editor = open_first(window, "commit")
    original = editor.document.text()
    window.menu_actions.find_action.trigger()
    qtbot.keyClicks(editor.find_bar.query, "git")
    editor.find_bar.replacement.setText("GIT")
    assert editor.find_bar.replace_all() >= 2
    replaced = editor.document.text()
    editor.source.setFocus()
    cursor = editor.source.textCursor()
    cursor.setPosition(replaced.rindex("GIT") + 3)
    editor.source.setTextCursor(cursor)
    qtbot.keyClicks(editor.source, "HUB")
    editor.source.undo()
    assert editor.document.text() == replaced, "the typing alone is taken back"
    editor.source.undo()
    assert editor.document.text() == original
    editor.find_bar.replacement.setText("Git")
    assert editor.find_bar.find_next()
    editor.find_bar.replace_one()
    one = editor.document.text()
    assert one.count("Git") == original.count("Git") + 1
    editor.source.setFocus()
    cursor = editor.source.textCursor()
    cursor.setPosition(one.index("Git") + 3)
    editor.source.setTextCursor(cursor)
    qtbot.keyClicks(editor.source, "Hub")
    editor.source.undo()
    assert editor.document.text() == one, "Replace is a step of its own"
