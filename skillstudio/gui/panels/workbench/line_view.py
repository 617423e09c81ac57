"""LineView: a long read-only text (a tier's exact text) drawn a screen at a time.

The listing of 10,000 agentskills skills is 110,000 lines; a QPlainTextEdit made a
text block of each (60 MB more resident) and took 40 ms a slice to lay it out. This
view holds the text once (the same str, not a copy), finds where its lines start a
chunk at a time when they are first drawn (LineIndex: setting the listing takes
2 ms, where splitting it into lines took 35), and lays out only the lines on
screen, wrapped to the width. It scrolls by whole
lines; it selects whole lines (click, shift+click, drag; Ctrl+A) and copies them
(Ctrl+C, the context menu).
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from itertools import accumulate

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QContextMenuEvent,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
    QTextLayout,
    QTextOption,
)
from PySide6.QtWidgets import QAbstractScrollArea, QMenu, QWidget

MARGIN = 4  # pixels around the text
LINE_CHARS = 20_000  # at most this much of one line is laid out (all of it is copied)
CHUNK = 65_536  # characters of text whose line starts are worked out at once


class LineIndex:
    """Where each line of a text starts: the text is cut into chunks at line breaks
    at once (str.find and str.count), each chunk's line starts found when first asked."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.bounds = [0]  # where each chunk starts (just after a line break)
        self.firsts = [0]  # the line that starts each chunk
        start, size = 0, len(text)
        while start + CHUNK < size:
            cut = text.find("\n", start + CHUNK)
            if cut < 0:
                break
            self.firsts.append(self.firsts[-1] + text.count("\n", start, cut + 1))
            self.bounds.append(cut + 1)
            start = cut + 1
        self.count = self.firsts[-1] + text.count("\n", start) + 1  # lines
        self._starts: dict[int, array[int]] = {}  # chunk -> its lines' starts

    def start(self, number: int) -> int:
        """Where line `number` starts (one past the text's end plus one for `count`)."""
        if number >= self.count:
            return len(self.text) + 1
        chunk = bisect_right(self.firsts, number) - 1
        starts = self._starts.get(chunk)
        if starts is None:
            base = self.bounds[chunk]
            end = self.bounds[chunk + 1] if chunk + 1 < len(self.bounds) else len(self.text)
            lengths = accumulate(map(len, self.text[base:end].split("\n")), initial=0)
            starts = self._starts[chunk] = array(
                "q", (base + length + n for n, length in enumerate(lengths))
            )
        return starts[number - self.firsts[chunk]]


class LineView(QAbstractScrollArea):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self._lines = LineIndex("")
        self._anchor = self._cursor = -1  # the selected lines run between them (-1: none)
        self._rows: list[tuple[int, float, float]] = []  # (line, top, bottom) on screen
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.viewport().setCursor(Qt.CursorShape.IBeamCursor)
        self.verticalScrollBar().setSingleStep(1)

    def sizeHint(self) -> QSize:
        """Its minimum's height: it scrolls itself, and Qt's 192 px hint made the tier's
        page (in a scroll area) taller than a 1024 px panel's room, two lines on screen
        under a second scroll bar."""
        return QSize(super().sizeHint().width(), self.minimumSizeHint().height())

    # -- the text -------------------------------------------------------------------
    def setPlainText(self, text: str) -> None:
        self._text = text
        self._lines = LineIndex(text)
        self._anchor = self._cursor = -1
        self.verticalScrollBar().setValue(0)
        self._update_range()
        self.viewport().update()

    def toPlainText(self) -> str:
        return self._text

    def line_count(self) -> int:
        return self._lines.count

    def _start(self, number: int) -> int:
        return self._lines.start(number)

    def line(self, number: int) -> str:
        return self._text[self._start(number) : self._start(number + 1) - 1]

    def first_line(self) -> int:
        """The line at the top of the view."""
        return self.verticalScrollBar().value()

    # -- selection ------------------------------------------------------------------
    def selected_lines(self) -> tuple[int, int]:
        """The first and last selected line, or (-1, -1)."""
        if self._anchor < 0:
            return -1, -1
        return min(self._anchor, self._cursor), max(self._anchor, self._cursor)

    def select_lines(self, first: int, last: int) -> None:
        top = self.line_count() - 1
        self._anchor, self._cursor = max(0, min(first, top)), max(0, min(last, top))
        self.viewport().update()

    def selectAll(self) -> None:
        self.select_lines(0, self.line_count() - 1)

    def selected_text(self) -> str:
        first, last = self.selected_lines()
        if first < 0:
            return ""
        return self._text[self._start(first) : self._start(last + 1) - 1]

    def copy(self) -> None:
        if self._anchor >= 0:
            QGuiApplication.clipboard().setText(self.selected_text())

    # -- drawing --------------------------------------------------------------------
    def _layout(self, number: int, width: float) -> tuple[QTextLayout, float]:
        """One line laid out, wrapped to `width`, and its height."""
        text = self.line(number)
        layout = QTextLayout(text[:LINE_CHARS] + ("…" if len(text) > LINE_CHARS else ""))
        layout.setFont(self.font())
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        layout.setTextOption(option)
        height = 0.0
        layout.beginLayout()
        while True:
            row = layout.createLine()
            if not row.isValid():
                break
            row.setLineWidth(width)
            row.setPosition(QPointF(0, height))
            height += row.height()
        layout.endLayout()
        return layout, max(height, float(self.fontMetrics().height()))

    def _width(self) -> float:
        return float(max(self.viewport().width() - 2 * MARGIN, 20))

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self.viewport())
        palette = self.palette()
        first, last = self.selected_lines()
        width, bottom = self._width(), self.viewport().height()
        top = float(MARGIN)
        self._rows = []
        for number in range(self.first_line(), self.line_count()):
            layout, height = self._layout(number, width)
            selected = first <= number <= last
            if selected:
                band = QRectF(0, top, self.viewport().width(), height)
                painter.fillRect(band, palette.brush(QPalette.ColorRole.Highlight))
            role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
            painter.setPen(palette.color(role))
            layout.draw(painter, QPointF(MARGIN, top))
            self._rows.append((number, top, top + height))
            top += height
            if top >= bottom:
                break
        painter.end()

    def _update_range(self) -> None:
        """Scrolls until the last line is at the bottom (not at the top)."""
        width, room = self._width(), self.viewport().height() - 2 * MARGIN
        number, used = self.line_count(), 0.0
        while number > 0:
            height = self._layout(number - 1, width)[1]
            if used + height > room:
                break
            used += height
            number -= 1
        bar = self.verticalScrollBar()
        bar.setRange(0, number)
        bar.setPageStep(max(1, int(room // max(self.fontMetrics().height(), 1)) - 1))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._update_range()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._update_range()

    # -- mouse and keys -------------------------------------------------------------
    def _line_at(self, y: float) -> int:
        if not self._rows:
            return -1
        if y < self._rows[0][1]:
            return max(self._rows[0][0] - (1 if y < 0 else 0), 0)
        for number, _top, bottom in self._rows:
            if y < bottom:
                return number
        last = self._rows[-1][0]
        return min(last + (1 if y > self.viewport().height() else 0), self.line_count() - 1)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        number = self._line_at(event.position().y())
        if number >= 0:
            shift = event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            self._cursor = number
            if not shift or self._anchor < 0:
                self._anchor = number
            self.viewport().update()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if not event.buttons() & Qt.MouseButton.LeftButton or self._anchor < 0:
            return super().mouseMoveEvent(event)
        y = event.position().y()
        bar = self.verticalScrollBar()
        if y < 0:
            bar.setValue(bar.value() - 1)
        elif y > self.viewport().height():
            bar.setValue(bar.value() + 1)
        number = self._line_at(y)
        if number >= 0:
            self._cursor = number
            self.viewport().update()

    def event(self, event: QEvent) -> bool:
        # Copy and select all are this view's while it has the focus, as in a text box.
        keys = (QKeySequence.StandardKey.Copy, QKeySequence.StandardKey.SelectAll)
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and any(event.matches(key) for key in keys)
        ):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        bar = self.verticalScrollBar()
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy()
        elif event.matches(QKeySequence.StandardKey.SelectAll):
            self.selectAll()
        elif event.key() in (Qt.Key.Key_Home, Qt.Key.Key_End):
            bar.setValue(bar.minimum() if event.key() == Qt.Key.Key_Home else bar.maximum())
        else:
            super().keyPressEvent(event)  # arrows and page up/down scroll

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        menu = QMenu(self)
        copy = menu.addAction("Copy", self.copy)
        copy.setShortcut(QKeySequence.StandardKey.Copy)
        copy.setEnabled(self._anchor >= 0)
        select = menu.addAction("Select All", self.selectAll)
        select.setShortcut(QKeySequence.StandardKey.SelectAll)
        menu.exec(event.globalPos())
