"""How Try a Request lays out its ranking and details for the room its dock gives:
side by side, or stacked (ranking above details) when the panel is narrow and tall
enough for both; in a short dock the ranking's rows are one line each."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSplitter, QTableView, QWidget

from .candidates import CandidatesModel, fit_rows

STACK_BELOW = 900  # px of panel width under which the details go below the ranking...
STACK_TALL = 340  # ...if the panel has this height: else side by side (a 768 px screen's
# dock has about 190: stacked, it showed 2 rows and 3 lines of explanation)
SHORT = 300  # px of height under which the ranking's rows are one line each (cut Why)
STACKED_DETAILS_MIN = 110  # px of height the details keep when below the ranking
SIDE_DETAILS_MIN = 80  # and beside it
# The panel's height for 4 ranking rows and 4 lines of explanation beside them (below
# it, the first answer asks its dock for DOCK_ROOM px: a first-run quarter of a 768 px
# screen gave the panel 150, 2 rows and 1.5 lines).
ROOM = 215
DOCK_ROOM = 260  # the bottom docks' height for ROOM, with the dock's title and tab bar


class SplitFit:
    """The splitter of the ranking (`table`) and the details, fitted to the panel."""

    def __init__(
        self,
        split: QSplitter,
        table: QTableView,
        model: CandidatesModel,
        details: QWidget,
        tier_used: QLabel,
    ) -> None:
        self.split, self.table, self.model = split, table, model
        self.details, self.tier_used = details, tier_used
        self.moved = False  # the user dragged the handle: their sizes stay
        split.splitterMoved.connect(self._on_moved)
        split.setStretchFactor(0, 3)  # the ranking and its reasons get the larger share
        split.setStretchFactor(1, 2)
        details.setMinimumHeight(SIDE_DETAILS_MIN)

    def _on_moved(self, *_args: object) -> None:
        self.moved = True

    def fit(self, width: int, room: int) -> None:
        """Stack the ranking above the details below STACK_BELOW px of `width` when
        the panel's `room` (height) holds both; else side by side. In a short panel
        the ranking's rows are one line each (more of them show)."""
        narrow = width < STACK_BELOW and room >= STACK_TALL
        wanted = Qt.Orientation.Vertical if narrow else Qt.Orientation.Horizontal
        short = room < SHORT
        if self.table.wordWrap() == short:
            self.table.setWordWrap(not short)
            fit_rows(self.table, self.model)
        # Narrow, the summary keeps its one line: the tier used is said in Tiers too.
        self.tier_used.setVisible(width >= STACK_BELOW)
        split = self.split
        total = sum(split.sizes())
        if split.orientation() == wanted:
            if not self.moved and total > 0:  # its share until the user moves it
                split.setSizes(self._shares(total, width))
            return
        split.setOrientation(wanted)
        # The table's minimum width (its narrow columns and a few words of Why) holds
        # in both; below, the details need no width of their own and a smaller height
        # than their pages ask for (they scroll), so that the ranking keeps some rows;
        # beside, less than their pages ask too: a short dock's panel fits it instead
        # of scrolling.
        side = wanted == Qt.Orientation.Horizontal
        self.details.setMinimumWidth(240 if side else 0)
        self.details.setMinimumHeight(SIDE_DETAILS_MIN if side else STACKED_DETAILS_MIN)
        split.setSizes(self._shares(sum(split.sizes()), width))
        self.moved = False

    def _shares(self, total: int, width: int) -> list[int]:
        """Halves; side by side in a narrow panel (a short dock) the ranking 3/5, so
        that its Why column keeps a few words."""
        if self.split.orientation() == Qt.Orientation.Horizontal and width < STACK_BELOW:
            return [total - total * 2 // 5, total * 2 // 5]
        return [total - total // 2, total // 2]
