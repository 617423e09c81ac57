"""A form's text box as tall as its text: two lines empty, growing with what is
written up to a limit (then it scrolls). An empty Compatibility box was as tall as
a Description of 1,068 characters."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QPlainTextEdit, QSizePolicy, QWidget


class GrowingTextBox(QPlainTextEdit):
    def __init__(self, max_lines: int, parent: QWidget | None = None, min_lines: int = 2) -> None:
        super().__init__(parent)
        self.min_lines, self.max_lines = min_lines, max_lines
        # Preferred: where the form is short of room (a wrapped message under a field
        # needs more than the layout planned) these boxes give some up, not the lists.
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self._fitted = 0
        self.document().documentLayout().documentSizeChanged.connect(lambda _s: self.fit())
        self.fit()

    def lines(self) -> int:
        """The text's lines as laid out at the box's width (the plain-text layout
        measures its height in lines)."""
        return int(self.document().documentLayout().documentSize().height())

    def _height(self, lines: int) -> int:
        margins = self.contentsMargins()
        padding = int(2 * self.document().documentMargin()) + margins.top() + margins.bottom()
        return lines * self.fontMetrics().lineSpacing() + padding + 2

    def fit(self) -> None:
        height = self._height(min(max(self.lines(), self.min_lines), self.max_lines))
        if height != self._fitted:
            self._fitted = height
            self.setMaximumHeight(height)
            self.setMinimumHeight(self._height(1))
            self.updateGeometry()

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self._fitted)

    def minimumSizeHint(self) -> QSize:
        return QSize(super().minimumSizeHint().width(), self._height(1))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit()  # wrapped lines change with the width
