"""Tests of gui/editor/source_editor.py (SourceEditor: the SKILL.md text with line
numbers and diagnostics underlined)."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from skillstudio.gui.editor.source_editor import TYPING_PAUSE_S
from skillstudio.gui.window.main_window import MainWindow


def test_source_can_wrap_long_lines(window: MainWindow) -> None:
    path = next(p for r in window.context.registries for p in r.by_path)
    editor = window.open_skill(path)
    assert editor is not None
    assert editor.source.lineWrapMode() == QPlainTextEdit.LineWrapMode.NoWrap
    window.menu_actions.wrap_action.setChecked(True)
    assert editor.source.lineWrapMode() == QPlainTextEdit.LineWrapMode.WidgetWidth
    assert window.settings.value("wrap_source", False, bool) is True
    window.menu_actions.wrap_action.setChecked(False)


def test_typing_after_a_pause_is_an_undo_step_of_its_own(window: MainWindow, qtbot: QtBot) -> None:
    """Undo takes back typing as text editors do: a run typed without a pause is one
    step (Qt's own grouping), what is typed after a pause another; one Ctrl+Z took
    back a whole minute of typing on one line."""
    editor = window.open_skill(next(p for r in window.context.registries for p in r.by_path))
    assert editor is not None
    editor.views.setCurrentWidget(editor.source)
    editor.source.setFocus()
    editor.source.moveCursor(QTextCursor.MoveOperation.End)
    original = editor.document.text()
    qtbot.keyClicks(editor.source, "First thought.")
    qtbot.wait(int(TYPING_PAUSE_S * 1000) + 200)
    qtbot.keyClicks(editor.source, " Second one")
    qtbot.keyClicks(editor.source, ", at once.")
    assert editor.document.text() == original + "First thought. Second one, at once."
    editor.source.undo()
    assert editor.document.text() == original + "First thought.", "the run after the pause"
    assert editor.document.modified
    editor.source.undo()
    assert editor.document.text() == original
    assert not editor.document.modified
