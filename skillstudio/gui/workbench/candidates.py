"""The ranked candidates table of Try a Request, and the line drawn at the threshold."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    Qt,
)
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

from ...core.matching import Candidate, MatchResult
from ..table_model import ColumnsModel
from ..theme import colour

SHOWN = 30  # candidates in the table (the engine builds the rest only when asked)


class CandidatesModel(ColumnsModel):
    COLUMNS = ("#", "Skill", "Score", "Passed", "Why")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.result: MatchResult | None = None
        self.rows: list[Candidate] = []
        self.threshold_row = -1  # the first row below the threshold (a line above it)

    def set_result(self, result: MatchResult | None) -> None:
        self.beginResetModel()
        self.result = result
        self.rows = list(result.candidates[:SHOWN]) if result is not None else []
        self.threshold_row = -1
        if result is not None and result.threshold is not None:
            below = [i for i, c in enumerate(self.rows) if c.score < result.threshold]
            if below and below[0] > 0:
                self.threshold_row = below[0]
        self.endResetModel()

    def row_count(self) -> int:
        return len(self.rows)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or index.row() >= len(self.rows) or self.result is None:
            return None
        cand = self.rows[index.row()]
        selected = cand.name in self.result.selected
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(index.row(), index.column(), cand)
        if role == Qt.ItemDataRole.FontRole and selected:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            return "\n".join(f"{r.rule} '{r.term}' +{r.points}" for r in cand.reasons)
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in (0, 2):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _text(self, row: int, column: int, cand: Candidate) -> str:
        assert self.result is not None
        if column == 0:
            return str(row + 1)
        if column == 1:
            return ("★ " if cand.name in self.result.selected else "") + cand.name
        if column == 2:
            return str(cand.score) + (" (heuristic)" if cand.heuristic else "")
        if column == 3:
            return "yes" if cand.passed else "no"
        reasons = cand.reasons
        text = ", ".join(f"{r.rule} '{r.term}' +{r.points}" for r in reasons[:3])
        return text + (f", … {len(reasons) - 3} more" if len(reasons) > 3 else "")


class ThresholdDelegate(QStyledItemDelegate):
    """Draws the threshold as a line above the first row that falls below it."""

    def __init__(self, model: CandidatesModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        super().paint(painter, option, index)
        if index.row() == self.model.threshold_row:
            painter.save()
            painter.setPen(QPen(QColor(colour("threshold")), 2))
            rect: QRect = option.rect
            painter.drawLine(rect.left(), rect.top() + 1, rect.right(), rect.top() + 1)
            painter.restore()
