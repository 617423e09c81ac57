"""Tests of gui/editor/source_editor.py (SourceEditor: the SKILL.md text with line
numbers and diagnostics underlined)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from skillstudio.gui.editor.source_editor import TYPING_PAUSE_S, SourceEditor
from skillstudio.gui.window.main_window import MainWindow


def test_source_can_wrap_long_lines(window: MainWindow) -> None:
    path = next(p for r in window.context.registries for p in r.by_path)
    editor = window.open_skill(path)
    assert editor is not None
    assert editor.source.lineWrapMode() == QPlainTextEdit.LineWrapMode.WidgetWidth
    window.menu_actions.wrap_action.setChecked(False)
    assert editor.source.lineWrapMode() == QPlainTextEdit.LineWrapMode.NoWrap
    assert window.settings.value("wrap_source", True, bool) is False
    window.menu_actions.wrap_action.setChecked(True)


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


def test_source_wraps_long_lines_by_default(window: MainWindow) -> None:
    """A SKILL.md is prose: a new user's Source wraps its paragraphs at the view's edge
    instead of asking for sideways scrolling (View › Wrap Long Lines in Source)."""
    editor = window.open_skill(next(p for r in window.context.registries for p in r.by_path))
    assert editor is not None
    assert window.menu_actions.wrap_action.isChecked()
    assert editor.source.lineWrapMode() == QPlainTextEdit.LineWrapMode.WidgetWidth
    assert editor.source.horizontalScrollBar().maximum() == 0


def test_a_saved_choice_not_to_wrap_is_kept(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    settings.setValue("wrap_source", False)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(samples))
    editor = win.open_skill(next(p for r in win.context.registries for p in r.by_path))
    assert editor is not None
    assert not win.menu_actions.wrap_action.isChecked()
    assert editor.source.lineWrapMode() == QPlainTextEdit.LineWrapMode.NoWrap
    assert settings.value("wrap_source", True, bool) is False
    win.menu_actions.wrap_action.setChecked(True)  # the next test's windows start wrapped


def test_after_an_undo_the_source_opens_at_the_left_edge(window: MainWindow, qtbot: QtBot) -> None:
    """A reviewer undid a Form edit of a long description and the Source opened
    scrolled sideways: with the default wrap there is no sideways scrolling to land in."""
    editor = window.open_skill(next(p for r in window.context.registries for p in r.by_path))
    assert editor is not None
    text = editor.document.text()
    line = next(i for i, t in enumerate(text.splitlines()) if t.startswith("description:"))
    cursor = editor.source.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.Down, n=line)
    cursor.movePosition(QTextCursor.MoveOperation.EndOfLine)
    editor.source.setTextCursor(cursor)
    editor.source.insertPlainText(" It reads a long paragraph." * 10)
    text = editor.document.text()
    field = editor.form.fields["description"].widget
    assert isinstance(field, QPlainTextEdit)
    field.setFocus()
    field.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(field, " and a long tail" * 12)
    assert editor.document.text() != text
    editor.undo()
    assert editor.document.text() == text
    editor.views.setCurrentWidget(editor.source)
    qtbot.wait(50)
    bar = editor.source.horizontalScrollBar()
    assert (bar.value(), bar.maximum()) == (0, 0)


def first_row_tops(source: SourceEditor) -> dict[int, int]:
    """Each shown line's first row, y in the viewport (the gutter's top is the same)."""
    tops = {}
    block = source.firstVisibleBlock()
    while block.isValid() and block.isVisible():
        rect = source.cursorRect(QTextCursor(block))
        if rect.top() > source.viewport().height():
            break
        tops[block.blockNumber() + 1] = rect.top()
        block = block.next()
    return tops


def test_a_wrapped_lines_number_sits_on_its_first_row_also_after_a_scroll(
    qtbot: QtBot,
) -> None:
    """A wrapped line's number was drawn beside its last row (each number's top added
    the next line's height), and after a drag-select and a scroll "9" stood beside
    line 8."""
    source = SourceEditor()
    qtbot.addWidget(source)
    source.resize(420, 300)
    long = "A line long enough to wrap over several rows in a narrow source view. " * 3
    source.setPlainText("\n".join(long if n % 3 == 1 else f"line {n}" for n in range(1, 61)))
    source.show()
    qtbot.waitExposed(source)
    wrapped = source.blockBoundingRect(source.document().findBlockByNumber(0)).height()
    row = source.blockBoundingRect(source.document().findBlockByNumber(1)).height()
    assert wrapped >= 3 * row  # line 1 wraps over three rows and more

    def check() -> None:
        shown = dict(source.numbers_shown(source.viewport().height()))
        expected = first_row_tops(source)
        assert len(expected) >= 5
        for number, top in expected.items():
            assert abs(shown[number] - top) <= 1, (number, shown[number], top)

    check()
    cursor = source.textCursor()  # a drag-select over wrapped lines, then a scroll
    cursor.setPosition(5)
    end = source.document().findBlockByNumber(20).position()
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    source.setTextCursor(cursor)
    for value in (7, 23, source.verticalScrollBar().maximum()):
        source.verticalScrollBar().setValue(value)
        qtbot.wait(10)
        check()
