"""The window's status bar: a passing message longer than the room left of the
permanent widgets (the progress bar, the project line, the profile box) is cut after a
whole word with "…", the whole text in the bar's tooltip. Qt's own bar cut it mid-word
against the project line at 1024 px ("…oasis.yaml: the c|Project claude-code is…"),
with no way to read the rest.

A message shown for a while (a timeout: "Added to …" for 15 s) gives way to the bar's
resting text when it ends: the last message shown without a timeout (the project's
counts, a failure). Qt's own bar went blank instead, until the next refresh."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QSizeGrip, QStatusBar, QStyle, QStyleOption, QWidget

from ..panels.root_label_delegate import word_elided

LEFT = 6  # px before the message, as Qt's own bar leaves
GAP = 8  # px between the message and the first permanent widget shown


class StatusLine(QStatusBar):
    """A QStatusBar whose passing message never draws over its permanent widgets:
    `shown()` is the text drawn, the bar's tooltip the whole message when it is cut;
    `currentMessage()` stays the whole message."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.own_tip = ""  # the tooltip set for the bar (the summary's profiles)
        self.resting = ""  # the last message shown without a timeout (see above)
        self.messageChanged.connect(self._changed)

    def showMessage(self, message: str, timeout: int | None = 0) -> None:
        """Qt's showMessage; one without a timeout is the bar's resting text too."""
        if not timeout or timeout <= 0:
            self.resting = message
        super().showMessage(message, timeout or 0)

    def _changed(self, message: str) -> None:
        if not message and self.resting:  # a passing message ended (or a status tip)
            super().showMessage(self.resting)
            return  # (that shows it, and comes back here with it)
        self._follow()

    def setToolTip(self, tip: str) -> None:
        """The bar's own tooltip: shown after the whole message when that is cut."""
        self.own_tip = tip
        self._follow()

    def room(self) -> int:
        """The message's width in px: up to the first permanent widget shown (while a
        message shows, the bar's other widgets are hidden)."""
        right = self.width() - LEFT
        direct = Qt.FindChildOption.FindDirectChildrenOnly
        for child in self.findChildren(QWidget, options=direct):
            if child.isVisible() and not isinstance(child, QSizeGrip):
                right = min(right, child.x() - GAP)
        return max(right - LEFT, 0)

    def shown(self) -> str:
        """The message as drawn: whole, or cut after a word with "…"."""
        message, room = self.currentMessage(), self.room()
        metrics = self.fontMetrics()
        cut = word_elided(message, room, metrics.horizontalAdvance)
        if cut != message:
            cut = cut[:-1].rstrip() + "…"
        if metrics.horizontalAdvance(cut) > room:  # one long word: cut where it must be
            cut = metrics.elidedText(message, Qt.TextElideMode.ElideRight, room)
        return cut

    def _follow(self) -> None:
        message, own = self.currentMessage(), self.own_tip
        cut = bool(message) and self.shown() != message
        super().setToolTip("\n".join(t for t in (message if cut else "", own) if t))
        self.update()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._follow()

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self.currentMessage():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        option = QStyleOption()
        option.initFrom(self)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelStatusBar, option, painter, self)
        painter.setPen(self.palette().windowText().color())
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(LEFT, 0, self.room(), self.height(), int(align), self.shown())
