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
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem, QTableView

from ....core.model.matches import Candidate, MatchResult
from ....core.ranking.estimate import (
    LIKELY_MODEL,
    LikelyCandidate,
    LikelyResult,
    band_text,
    which,
)
from ....core.ranking.explanations import error_note
from ...infra.icons import icon
from ...infra.theme import colour
from ...models.table_model import ColumnsModel

Row = Candidate | LikelyCandidate  # a likely candidate where the model chooses

SHOWN = 30  # candidates in the table (the engine builds the rest only when asked)
MIN_WHY = 130  # px the Why column keeps however narrow the panel
ICON_ROOM = 22  # px an error icon takes before a skill's name (16 and its margins)


HEURISTIC_TIP = (
    "This profile leaves the choice to the model: the score counts the request's words "
    "found in each skill's name and description. It is a rough guide to which skills the "
    "model might consider, not a prediction."
)
LIKELY_TIP = (
    "An estimate, not the model's choice: each skill's words (name, description, when to "
    "use, triggers) weighed against the request, rare words counting more (BM25). The "
    "figure is about how many distinctive words matched. The band reads the chance shown "
    "beside it, which also weighs the lead over the next skill and how much of the "
    "request the skill's listing explains: two equal figures can fall in different "
    "bands."
)
# what decides a band, said under its tooltip (Model.likely_p and possible_p)
CHANCE_TIP = (
    "The band reads this chance (likely from {likely} %, possible from {possible} %), "
    "not the Estimate figure."
)
# (Model.unlisted_p) said when the skill's listing explains none of the request
UNLISTED_TIP = (
    " Its listing explains none of the request (only its body or bundled files do):"
    " likely only from {unlisted} %."
)
BAND_TIP = {
    "likely": "likely: a model would probably pick this skill for the request (an estimate)",
    "possible": "possible: some distinctive words match; a model might pick it (an estimate)",
    "unlikely": "unlikely: a few common words match (an estimate)",
}


def band_tip(cand: LikelyCandidate) -> str:
    """The band's tooltip: what it means and, when calibrated, that the chance decides it."""
    if cand.chance is None:
        return BAND_TIP[cand.band]
    model = LIKELY_MODEL
    rule = CHANCE_TIP.format(
        likely=round(100 * model.likely_p), possible=round(100 * model.possible_p)
    )
    if cand.evidence is not None and not cand.evidence.shown:
        rule += UNLISTED_TIP.format(unlisted=round(100 * max(model.likely_p, model.unlisted_p)))
    return f"{BAND_TIP[cand.band]}\n{rule}"


class CandidatesModel(ColumnsModel):
    COLUMNS = ("#", "Skill", "Score", "Passed", "Why")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.result: MatchResult | None = None
        self.likely: LikelyResult | None = None
        self.rows: list[Row] = []
        self.threshold_row = -1  # the first row below the threshold (a line above it)

    def set_result(self, result: MatchResult | None, likely: LikelyResult | None = None) -> None:
        """The engine's answer; with `likely` (profiles where the model chooses), the
        rows are the likely candidates in their bands, a skill invoked by name first."""
        self.beginResetModel()
        self.result = result
        self.likely = likely if result is not None else None
        self.rows = list(result.candidates[:SHOWN]) if result is not None else []
        if result is not None and likely is not None:
            invoked: list[Row] = [c for c in result.candidates if c.name in result.selected]
            names = {c.name for c in invoked}
            rest = [c for c in likely.candidates if c.name not in names]
            self.rows = (invoked + rest)[:SHOWN]
        self.threshold_row = -1
        if result is not None and likely is None and result.threshold is not None:
            below = [i for i, c in enumerate(self.rows) if c.score < result.threshold]
            if below and below[0] > 0:
                self.threshold_row = below[0]
        self.endResetModel()

    def row_count(self) -> int:
        return len(self.rows)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """'Score (heuristic)' once, in the header, with a tooltip saying what that means;
        'Estimate' and 'Band' for the likely candidates."""
        heuristic = self.result is not None and self.result.heuristic
        if orientation == Qt.Orientation.Horizontal and self.likely is not None:
            if section in (2, 3) and role == Qt.ItemDataRole.DisplayRole:
                return "Estimate" if section == 2 else "Band"
            if section in (2, 3) and role == Qt.ItemDataRole.ToolTipRole:
                return f"{LIKELY_TIP} {self.result.selects if self.result else ''}".strip()
        if orientation == Qt.Orientation.Horizontal and section == 2 and heuristic:
            if role == Qt.ItemDataRole.DisplayRole:
                return "Score (heuristic)"
            if role == Qt.ItemDataRole.ToolTipRole:
                return f"{HEURISTIC_TIP} {self.result.selects if self.result else ''}".strip()
        return super().headerData(section, orientation, role)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or index.row() >= len(self.rows) or self.result is None:
            return None
        cand = self.rows[index.row()]
        selected = cand.name in self.result.selected
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cell_text(index.row(), index.column(), cand)
        if role == Qt.ItemDataRole.FontRole and selected:
            font = QFont()
            font.setBold(True)
            return font
        if isinstance(cand, LikelyCandidate) and index.column() == 3:
            if role == Qt.ItemDataRole.BackgroundRole:
                return QColor(colour(f"band_{cand.band}"))
            if role == Qt.ItemDataRole.ForegroundRole:
                return QColor(colour("band_text"))
            if role == Qt.ItemDataRole.ToolTipRole:
                return band_tip(cand)
        note = self.error_note(cand) if index.column() == 1 else None
        if note and role == Qt.ItemDataRole.DecorationRole:
            return icon("error")  # ranked in spite of an error under the profile
        if note and role == Qt.ItemDataRole.ToolTipRole:
            return note
        if role == Qt.ItemDataRole.ToolTipRole:
            if isinstance(cand, LikelyCandidate):
                words = "\n".join(f"term '{r.term}' {r.weight:.2f}" for r in cand.reasons)
                shared = self.likely is not None and cand.name in self.likely.shared()
                return f"{which(cand)}\n{words}" if shared else words  # which of one name
            return "\n".join(f"{r.rule} '{r.term}' +{r.points}" for r in cand.reasons)
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in (0, 2):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def error_note(self, cand: Row) -> str | None:
        """The error a row's skill is ranked in spite of (its icon and tooltip), or None."""
        return error_note(self.result.profile, cand.skill) if self.result is not None else None

    def cell_text(self, row: int, column: int, cand: Row) -> str:
        assert self.result is not None
        if column == 0:
            return str(row + 1)
        if column == 1:  # the agent's own marked, as `match` marks it
            own = (
                f" ({cand.agent}'s own)" if isinstance(cand, LikelyCandidate) and cand.agent else ""
            )
            return ("★ " if cand.name in self.result.selected else "") + cand.name + own
        if isinstance(cand, LikelyCandidate):
            return (
                f"{cand.strength:.2f}"
                if column == 2
                else band_text(cand)
                if column == 3
                else why_text(cand)
            )
        if column == 2:
            return "invoked" if self.likely is not None else str(cand.score)
        if column == 3:  # nothing passes or fails where the model chooses
            if self.likely is not None:
                return "selected"
            return "" if self.result.heuristic else "yes" if cand.passed else "no"
        return why_text(cand)


NATURAL_WIDTH = "natural_minimum_width"  # the table's minimum width by its columns


def fit_rows(table: QTableView, model: CandidatesModel) -> None:
    """Each row as tall as its wrapped Why text (the one column that wraps; one line
    when the table does not wrap: a short panel, the reasons cut, whole in the
    tooltip), the threshold's row taller by the band of its labelled line. Measured
    here, once per answer: the view's own ResizeToContents asks the delegate about
    every cell (30 ms a keystroke at 30 rows)."""
    plain = table.fontMetrics()
    bold_font = QFont(table.font())
    bold_font.setBold(True)
    bold = QFontMetrics(bold_font)
    _fit_columns(table, model, bold)
    header = table.verticalHeader()
    width = max(table.columnWidth(len(model.COLUMNS) - 1) - 14, 40)  # less the cell padding
    selected = set(model.result.selected) if model.result is not None else set()
    wrap = int(Qt.TextFlag.TextWordWrap)
    wraps = table.wordWrap()
    for row, cand in enumerate(model.rows):
        metrics = bold if cand.name in selected else plain
        text = (
            metrics.boundingRect(0, 0, width, 100_000, wrap, why_text(cand)).height()
            if wraps
            else metrics.height()
        )
        height = max(text, plain.height()) + 8
        if row == model.threshold_row:
            height += ThresholdDelegate.BAND
        if header.sectionSize(row) != height:
            header.resizeSection(row, height)


def _fit_columns(table: QTableView, model: CandidatesModel, bold: QFontMetrics) -> None:
    """The narrow columns as wide as their header or widest text (measured with the
    bold font of selected rows); the Why column takes the rest."""
    header = table.horizontalHeader()
    title_font = QFont(header.font())
    title_font.setBold(True)  # some styles draw header titles bold
    titles = QFontMetrics(title_font)
    changed = False
    total = 0
    for column in range(len(model.COLUMNS) - 1):
        title = model.headerData(column, Qt.Orientation.Horizontal)
        widest = max(
            (
                bold.horizontalAdvance(model.cell_text(row, column, cand))
                + (ICON_ROOM if column == 1 and model.error_note(cand) else 0)
                for row, cand in enumerate(model.rows)
            ),
            default=0,
        )
        width = max(widest + 10, titles.horizontalAdvance(str(title)) + 16)
        total += width
        if table.columnWidth(column) != width:
            table.setColumnWidth(column, width)
            changed = True
    # However narrow the dock, the Why column keeps room for a few words.
    scroll = table.verticalScrollBar().sizeHint().width()
    natural = total + MIN_WHY + scroll + 2 * table.frameWidth()
    # Set when it changes only: a dock too narrow for it lowers it (panel_layout.bound),
    # and setting it again at each Why column resize raised the table, whose layout
    # lowered it, a column resize again: ~1,000 times a second while the dock was
    # short and narrow (with a skill open under Try a Request), 20 ms a keystroke.
    if table.property(NATURAL_WIDTH) != natural:
        table.setProperty(NATURAL_WIDTH, natural)
        table.setMinimumWidth(natural)
    if changed:
        header.resizeSections()  # the Why column takes the rest again, now


def why_text(cand: Row, per_rule: int = 4) -> str:
    """The reasons in a few words, grouped by rule: "trigger: code review, find bugs;
    name: code review" (the points are in the Score column and the explanation); a
    likely candidate's words with their weights: "words: review 2.10, pull 1.84"."""
    if isinstance(cand, LikelyCandidate):
        shown = ", ".join(f"{r.term} {r.weight:.2f}" for r in cand.reasons[:per_rule])
        rest = len(cand.reasons) - per_rule
        return f"words: {shown}" + (f" and {rest} more" if rest > 0 else "")
    terms: dict[str, list[str]] = {}
    for reason in cand.reasons:
        terms.setdefault(reason.rule, []).append(reason.term)
    parts = []
    for rule, words in terms.items():
        shown = ", ".join(words[:per_rule])
        more = f" and {len(words) - per_rule} more" if len(words) > per_rule else ""
        parts.append(f"{rule}: {shown}{more}")
    return "; ".join(parts)


class ThresholdDelegate(QStyledItemDelegate):
    """Draws the threshold as a labelled line ("threshold 10") in a band above the first
    row that falls below it."""

    BAND = 16  # px added on top of that row for the line and its label

    def __init__(self, model: CandidatesModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model

    def label(self) -> str:
        result = self.model.result
        return f"threshold {result.threshold}" if result and result.threshold is not None else ""

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        if index.row() != self.model.threshold_row:
            super().paint(painter, option, index)
            return
        rect: QRect = option.rect
        below = QStyleOptionViewItem(option)
        below.rect = rect.adjusted(0, self.BAND, 0, 0)
        super().paint(painter, below, index)
        painter.save()
        colour_ = QColor(colour("threshold"))
        painter.setPen(QPen(colour_, 2))
        middle = rect.top() + self.BAND // 2
        painter.drawLine(rect.left(), middle, rect.right(), middle)
        if index.column() == len(self.model.COLUMNS) - 1:  # the label, on a gap in the line
            font = QFont(option.font)
            font.setPointSizeF(max(font.pointSizeF() * 0.85, 6.0))
            painter.setFont(font)
            text = self.label()
            width = QFontMetrics(font).horizontalAdvance(text) + 8
            gap = QRect(rect.left() + 4, rect.top(), width, self.BAND)
            painter.fillRect(gap, option.palette.base())
            painter.drawText(gap, int(Qt.AlignmentFlag.AlignCenter), text)
        painter.restore()
