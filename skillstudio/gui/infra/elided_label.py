"""Labels whose text, when it does not fit, is cut with "…"; `text()` stays the whole
(the tooltip is where a user reads it).

ElidedLabel: one line, elided at the end ("review's content, wherever it lies:
accepted by agentskills, co…"). A wrapped label in a dock took three lines of a short
panel at 1024 px and left one row of the list under it.

ElidedLines: wrapped, as many lines as its height holds, the last cut after a word.
Try a Request's Headroom sentence was cut mid-line in a 170 px dock (its tab gets
less than its page asks beside the ranking): a wrapped label is never cut so."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QPaintEvent, QResizeEvent
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


class ElidedLines(QLabel):
    """A wrapped label showing the whole lines its height holds: when the text takes
    more, the words that fit and "…", the whole text in its tooltip. It asks for the
    height the whole text takes at its width (no height-for-width layout: see
    workbench/panel_parts.FixedLine) and for one line at least."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.whole = ""

    def text(self) -> str:
        return self.whole

    def setText(self, text: str) -> None:
        self.whole = text
        self._fit()
        self.updateGeometry()

    def shown(self) -> str:
        """The text as drawn (the whole, or the words that fit and "…")."""
        return super().text()

    def hasHeightForWidth(self) -> bool:
        return False

    def _needs(self, text: str, width: int) -> int:
        """The height `text` takes wrapped at `width` px."""
        flags = int(Qt.TextFlag.TextWordWrap)
        return self.fontMetrics().boundingRect(QRect(0, 0, width, 1 << 20), flags, text).height()

    def sizeHint(self) -> QSize:
        size = super().sizeHint()
        width = self.contentsRect().width()
        if width > 0:
            margins = self.contentsMargins()
            size.setHeight(self._needs(self.whole, width) + margins.top() + margins.bottom())
        return size

    def minimumSizeHint(self) -> QSize:
        margins = self.contentsMargins()
        one = self.fontMetrics().lineSpacing() + margins.top() + margins.bottom()
        return QSize(super().minimumSizeHint().width(), one)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()
        if event.oldSize().width() != event.size().width():
            self.updateGeometry()  # another width may take another number of lines

    def _fit(self) -> None:
        room = self.contentsRect()
        whole, shown = self.whole, self.whole
        unsized = room.width() <= 0 or room.height() <= 0  # (not laid out yet)
        if not unsized and self._needs(whole, room.width()) > room.height():
            words = whole.split(" ")
            fits, over = 0, len(words)  # the most words that fit with "…" (binary search)
            while over - fits > 1:
                middle = (fits + over) // 2
                if self._needs(" ".join(words[:middle]) + "…", room.width()) <= room.height():
                    fits = middle
                else:
                    over = middle
            if fits:
                shown = " ".join(words[:fits]).rstrip(" ,;:") + "…"
            else:  # not one word: the first line, cut where it must be
                metrics = self.fontMetrics()
                shown = metrics.elidedText(whole, Qt.TextElideMode.ElideRight, room.width())
        if shown != super().text():
            super().setText(shown)
        self.setToolTip(whole if shown != whole else "")
