"""SourceEditor: the SKILL.md text with line numbers and diagnostics underlined."""

from __future__ import annotations

import time
from collections.abc import Iterator

from PySide6.QtCore import QEvent, QRect, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QHelpEvent,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QToolTip, QWidget

from ...core.model.diagnostics import Diagnostic

MARKS_MAX = 300  # diagnostics underlined in the source view (the first, in file order)
TYPING_PAUSE_S = 1.0  # typing after a pause this long is an undo step of its own
_COLOURS = {"error": QColor("#d32f2f"), "warning": QColor("#f9a825"), "info": QColor("#1976d2")}


class _Gutter(QWidget):
    def __init__(self, editor: SourceEditor) -> None:
        super().__init__(editor)
        self._editor = editor

    def sizeHint(self) -> QSize:
        return QSize(self._editor.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        self._editor.paint_gutter(event)


class SourceEditor(QPlainTextEdit):
    """Plain-text view of the document; `set_diagnostics` marks lines and columns."""

    wrap = True  # View › Wrap Long Lines in Source, for every source view (prose: on)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        font = QFont("DejaVu Sans Mono")
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.setFont(font)
        self.apply_wrap()
        self._gutter = _Gutter(self)
        self._diagnostics: list[Diagnostic] = []
        self._typed_at = float("-inf")  # time.monotonic() of the last character typed
        self.blockCountChanged.connect(self._on_block_count_changed)
        self.updateRequest.connect(self._on_update_request)
        self._on_block_count_changed(0)

    def apply_wrap(self) -> None:
        """Long lines wrapped at the view's edge, or not (SourceEditor.wrap)."""
        mode = QPlainTextEdit.LineWrapMode
        self.setLineWrapMode(mode.WidgetWidth if SourceEditor.wrap else mode.NoWrap)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Typing after a pause starts an undo step (a run typed without one stays one
        step, as Qt makes it). The run's first character goes in an edit block of its
        own, which Qt joins the characters typed after it to, and nothing before."""
        typed = event.text().isprintable() and bool(event.text())
        now = time.monotonic()
        if typed and now - self._typed_at > TYPING_PAUSE_S and not self.isReadOnly():
            cursor = self.textCursor()
            cursor.beginEditBlock()
            try:
                super().keyPressEvent(event)
            finally:
                cursor.endEditBlock()
        else:
            super().keyPressEvent(event)
        if typed:
            self._typed_at = now

    # -- gutter ---------------------------------------------------------------
    def gutter_width(self) -> int:
        digits = max(3, len(str(self.blockCount())))
        return 12 + self.fontMetrics().horizontalAdvance("9") * digits

    def _on_block_count_changed(self, _count: int) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def _on_update_request(self, rect: QRect, dy: int) -> None:
        if dy:
            self._gutter.scroll(0, dy)
        else:
            self._gutter.update(0, rect.y(), self._gutter.width(), rect.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        area = self.contentsRect()
        self._gutter.setGeometry(QRect(area.left(), area.top(), self.gutter_width(), area.height()))

    def paint_gutter(self, event: QPaintEvent) -> None:
        painter = QPainter(self._gutter)
        palette = self.palette()
        painter.fillRect(event.rect(), palette.alternateBase())
        marked = {d.line: d.severity for d in sorted(self._diagnostics, key=lambda d: d.severity)}
        height = self.fontMetrics().height()
        for number, top in self.numbers_shown(event.rect().bottom()):
            severity = marked.get(number)
            if severity:
                painter.fillRect(0, top, 4, height, _COLOURS[severity])
            painter.setPen(palette.placeholderText().color())
            painter.drawText(
                0, top, self._gutter.width() - 6, height, Qt.AlignmentFlag.AlignRight, str(number)
            )

    def numbers_shown(self, bottom: int) -> Iterator[tuple[int, int]]:
        """Each line number shown down to `bottom` (px in the gutter), with the top of
        its line's first row: a wrapped line's number beside its first row, each
        line's top read from the layout (adding up rounded heights, the next line's
        at that, put a wrapped line's number on its last row and the numbers drifted a
        line off after a scroll)."""
        block = self.firstVisibleBlock()
        offset = self.contentOffset()
        while block.isValid():
            top = round(self.blockBoundingGeometry(block).translated(offset).top())
            if top > bottom:
                return
            if block.isVisible():
                yield block.blockNumber() + 1, top
            block = block.next()

    # -- diagnostics ------------------------------------------------------------
    def set_diagnostics(self, diagnostics: list[Diagnostic]) -> None:
        """Underline each diagnostic, the first MARKS_MAX in file order (a mark costs
        20 µs per keystroke; the gutter and Problems still have every one)."""
        self._diagnostics = [d for d in diagnostics if d.line]
        selections = []
        doc = self.document()
        marked = sorted(self._diagnostics, key=lambda d: (d.line, d.column))[:MARKS_MAX]
        for diag in marked:
            block = doc.findBlockByNumber(diag.line - 1)
            if not block.isValid():
                continue
            cursor = QTextCursor(block)
            column = max(0, diag.column - 1)
            cursor.movePosition(QTextCursor.MoveOperation.Right, n=min(column, block.length() - 1))
            cursor.movePosition(
                QTextCursor.MoveOperation.EndOfWord, QTextCursor.MoveMode.KeepAnchor
            )
            if not cursor.hasSelection():
                cursor.movePosition(
                    QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor
                )
            fmt = QTextCharFormat()
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
            fmt.setUnderlineColor(_COLOURS[diag.severity])
            fmt.setToolTip(f"{diag.code}: {diag.message}")
            selection = QTextEdit.ExtraSelection()
            selection.cursor = cursor
            selection.format = fmt
            selections.append(selection)
        self.setExtraSelections(selections)
        self._gutter.update()

    def diagnostics_at(self, line: int) -> list[Diagnostic]:
        return [d for d in self._diagnostics if d.line == line]

    def event(self, event: QEvent) -> bool:
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip:
            pos = event.pos() - self.viewport().pos()
            cursor = self.cursorForPosition(pos)
            found = self.diagnostics_at(cursor.blockNumber() + 1)
            if found:
                QToolTip.showText(
                    event.globalPos(), "\n".join(f"{d.code}: {d.message}" for d in found), self
                )
                return True
        return super().event(event)

    def go_to(self, line: int, column: int = 1) -> None:
        block = self.document().findBlockByNumber(max(0, line - 1))
        cursor = QTextCursor(block)
        cursor.movePosition(
            QTextCursor.MoveOperation.Right, n=min(max(0, column - 1), max(0, block.length() - 1))
        )
        self.setTextCursor(cursor)
        self.centerCursor()
        self.setFocus()
