"""SkillTreeView: the skills tree's view; while it has no rows it says why (no folder
open: how to open one), instead of an empty box beside the welcome page."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QTreeView, QWidget

from .root_label_delegate import RootLabelDelegate

EMPTY = (
    "No folder is open.\n\nOpen one with File › Open Folder (Ctrl+O), or from the page "
    "on the right."
)
NO_ROWS = "No skill folders found in this folder (Problems says what was looked for)."
READING = "Reading the folder…"
NO_MATCH = "No skill matches '{}' (in its name or description)."


class SkillTreeView(QTreeView):
    def __init__(self, folder: Callable[[], str], parent: QWidget | None = None) -> None:
        """`folder()`: the folder open in the window ("" for none)."""
        super().__init__(parent)
        self.folder = folder
        self.reading: Callable[[], bool] = lambda: False  # the folder's scan runs
        self.setHeaderHidden(True)
        self.setUniformRowHeights(True)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # root paths; names: the delegate
        self.setItemDelegate(RootLabelDelegate(self))  # a root keeps its own name

    def roots_width(self) -> int:
        """The width (of its dock) the tree needs to show every root's label whole:
        indentation, icon, text and padding, the scroll bar and the frames."""
        model = self.model()
        if model is None:
            return 0
        metrics = self.fontMetrics()
        labels = (str(model.index(row, 0).data() or "") for row in range(model.rowCount()))
        widest = max((metrics.horizontalAdvance(label) for label in labels), default=0)
        icon = self.iconSize().width() if self.iconSize().width() > 0 else 16
        bar = self.verticalScrollBar().sizeHint().width()
        return widest + self.indentation() + icon + bar + 2 * self.frameWidth() + 40

    def empty_text(self) -> str:
        """What the view says when it has no rows ("" when it has some)."""
        model = self.model()
        if model is not None and model.rowCount() > 0:
            return ""
        if not self.folder():
            return EMPTY
        if self.reading():
            return READING
        typed = getattr(model, "filter_text", "")
        return NO_MATCH.format(typed) if typed else NO_ROWS

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        text = self.empty_text()
        if not text:
            return
        painter = QPainter(self.viewport())
        painter.setPen(self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text))
        flags = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap
        painter.drawText(self.viewport().rect().adjusted(12, 24, -12, -12), int(flags), text)
        painter.end()
