"""Tests of gui/panels/workbench/line_view.py (LineView: a long read-only text (a tier's
exact text) drawn a screen at a time)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QColor, QGuiApplication, QPalette, QTextDocument
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from skillstudio.core.model.delivered import TierText
from skillstudio.gui.panels.workbench import line_view
from skillstudio.gui.panels.workbench.tier_view import TierView

LINES = [f"<skill><name>skill-{n}</name></skill>" for n in range(50_000)]


TEXT = "\n".join(LINES)


@pytest.fixture
def view(qtbot: QtBot) -> TierView:
    widget = TierView()
    qtbot.addWidget(widget)
    widget.resize(500, 400)
    widget.show()
    widget.show_tier(TierText(2, TEXT))
    qtbot.waitExposed(widget)
    return widget


def line_point(view: TierView, number: int) -> QPoint:
    """The middle of a line on screen (short lines: one row each)."""
    text = view.text
    row = number - text.verticalScrollBar().value()
    height = text.fontMetrics().height()
    return QPoint(40, line_view.MARGIN + row * height + height // 2)


def test_the_tier_text_lays_out_only_the_lines_on_screen(
    view: TierView, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No text document of 50,000 blocks: a repaint lays out a screenful of lines."""
    assert not view.text.findChildren(QTextDocument)
    assert view.text.toPlainText() is TEXT  # held once, not copied
    laid_out: list[int] = []
    layout = line_view.LineView._layout

    def counted(self: line_view.LineView, number: int, width: float) -> Any:
        laid_out.append(number)
        return layout(self, number, width)

    monkeypatch.setattr(line_view.LineView, "_layout", counted)
    view.text.viewport().repaint()
    visible = view.text.viewport().height() // view.text.fontMetrics().height()
    assert 0 < len(laid_out) <= visible + 2
    assert laid_out[0] == 0
    # The end of the text: End scrolls there, and the last line is drawn at the bottom.
    view.text.setFocus()
    QTest.keyClick(view.text, Qt.Key.Key_End)
    laid_out.clear()
    view.text.viewport().repaint()
    assert laid_out[-1] == len(LINES) - 1 and len(laid_out) <= visible + 2
    QTest.keyClick(view.text, Qt.Key.Key_Home)
    QTest.keyClick(view.text, Qt.Key.Key_PageDown)
    assert view.text.verticalScrollBar().value() >= visible - 2


def test_whole_lines_are_selected_and_copied(view: TierView, qtbot: QtBot) -> None:
    """Click a line, shift+click another: Ctrl+C copies those lines whole; Ctrl+A all."""
    text = view.text
    text.verticalScrollBar().setValue(100)
    text.viewport().repaint()
    port = text.viewport()
    QTest.mouseClick(
        port, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, line_point(view, 103)
    )
    QTest.mouseClick(
        port, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier, line_point(view, 105)
    )
    clipboard = QGuiApplication.clipboard()
    clipboard.clear()
    # A window's own Ctrl+C (an Edit menu's Copy, say) does not take it from the view.
    other = QAction(view)
    other.setShortcut("Ctrl+C")
    other.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    view.addAction(other)
    taken: list[bool] = []
    other.triggered.connect(lambda: taken.append(True))
    text.setFocus()
    QTest.keySequence(text, "Ctrl+C")
    assert clipboard.text() == "\n".join(LINES[103:106]) and not taken
    # A drag from one line to an earlier one selects the lines between.
    QTest.mousePress(port, Qt.MouseButton.LeftButton, pos=line_point(view, 110))
    QTest.mouseMove(port, line_point(view, 108))
    QTest.mouseRelease(port, Qt.MouseButton.LeftButton, pos=line_point(view, 108))
    assert text.selected_text() == "\n".join(LINES[108:111])
    QTest.keySequence(text, "Ctrl+A")
    QTest.keySequence(text, "Ctrl+C")
    assert clipboard.text() == TEXT


def test_the_tier_text_is_drawn_in_the_palette_colours(qtbot: QtBot) -> None:
    """The base and text colours of the palette (the dark scheme sets them)."""
    widget = TierView()
    qtbot.addWidget(widget)
    palette = widget.palette()
    palette.setColor(QPalette.ColorRole.Base, QColor("#101820"))
    palette.setColor(QPalette.ColorRole.Text, QColor("#f0e0a0"))
    widget.setPalette(palette)
    widget.resize(400, 300)
    widget.show()
    widget.show_tier(TierText(3, "Some instructions\n" * 5))
    qtbot.waitExposed(widget)
    image = widget.text.viewport().grab().toImage()
    colours = {image.pixelColor(x, y).name() for x in range(0, 200) for y in range(0, 30)}
    assert image.pixelColor(image.width() - 3, image.height() - 3).name() == "#101820"
    assert "#f0e0a0" in colours


def test_a_line_of_megabytes_is_drawn_cut_and_copied_whole(qtbot: QtBot) -> None:
    """A skill's text can be one line of megabytes: the view lays out its first
    LINE_CHARS characters (wrapped), and copying gives the whole line."""
    view = line_view.LineView()
    qtbot.addWidget(view)
    view.resize(300, 200)
    view.show()
    qtbot.waitExposed(view)
    text = "word " * 400_000
    view.setPlainText(text)
    started = time.monotonic()
    view.viewport().repaint()
    assert time.monotonic() - started < 10  # a hang guard, not a timing
    assert view.line_count() == 1
    view.selectAll()
    assert view.selected_text() == text


def test_line_starts_are_found_a_chunk_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Setting a text cuts it into chunks at line breaks; a line's start is worked out
    with its chunk's (the same as splitting the whole text into lines)."""
    monkeypatch.setattr(line_view, "CHUNK", 7)
    texts = ["", "\n", "a", "ab\n", "\n\nab", "abcdefghijk\nab\n\n\nabcdefgh\n", TEXT[:5000]]
    for text in texts:
        index = line_view.LineIndex(text)
        lines = text.split("\n")
        assert index.count == len(lines)
        start = 0
        for number, line in enumerate(lines):
            assert index.start(number) == start, (text, number)
            start += len(line) + 1
        assert index.start(len(lines)) == len(text) + 1
    index = line_view.LineIndex(TEXT[:5000])
    index.start(3)
    assert len(index.bounds) > 100 and len(index._starts) == 1  # one chunk worked out
