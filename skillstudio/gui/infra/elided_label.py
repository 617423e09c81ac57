"""A one-line label whose text, when longer than the label, is drawn elided at the
end ("review's content, wherever it lies: accepted by agentskills, co…"); `text()`
stays the whole (the tooltip is where a user reads it). A wrapped label in a dock
took three lines of a short panel at 1024 px and left one row of the list under it."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QStylePainter, QWidget


class ElidedLabel(QLabel):
    """`shown()`: the text as drawn, elided to the label's width."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(False)
        # its text never widens the panel, and it is one line high whatever the text
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def shown(self) -> str:
        room = max(self.contentsRect().width(), 0)
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, room)

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QStylePainter(self)
        painter.drawItemText(
            self.contentsRect(),
            int(self.alignment() | Qt.AlignmentFlag.AlignVCenter),
            self.palette(),
            self.isEnabled(),
            self.shown(),
            self.foregroundRole(),
        )
