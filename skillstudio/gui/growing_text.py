"""A form's text box as tall as its text: two lines empty, growing with what is
written up to a limit (then it scrolls). An empty Compatibility box was as tall as
a Description of 1,068 characters."""

from __future__ import annotations

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QPlainTextEdit, QSizePolicy, QWidget


class GrowingTextBox(QPlainTextEdit):
    def __init__(self, max_lines: int, parent: QWidget | None = None, min_lines: int = 2) -> None:
        super().__init__(parent)
        self.min_lines, self.max_lines = min_lines, max_lines
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.document().documentLayout().documentSizeChanged.connect(lambda _s: self.fit())
        self.fit()

    def lines(self) -> int:
        """The text's lines as laid out at the box's width (the plain-text layout
        measures its height in lines)."""
        return int(self.document().documentLayout().documentSize().height())

    def fit(self) -> None:
        lines = min(max(self.lines(), self.min_lines), self.max_lines)
        margins = self.contentsMargins()
        padding = int(2 * self.document().documentMargin()) + margins.top() + margins.bottom()
        height = lines * self.fontMetrics().lineSpacing() + padding + 2
        if height != self.height() or self.minimumHeight() != height:
            self.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit()  # wrapped lines change with the width
