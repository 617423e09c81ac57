"""How Try a Request lays out its ranking and details for the room its dock gives:
side by side, or stacked (ranking above details) when the panel is narrow, or the
details beside the ranking too narrow for their tabs' labels, and it is tall enough
for both; in a short dock the ranking's rows are one line each, and the details
collapsed if their tabs would be cut beside it."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QSplitter, QTableView, QTabWidget, QVBoxLayout, QWidget

from .candidates import NATURAL_WIDTH, CandidatesModel, fit_rows

STACK_BELOW = 900  # px of panel width under which the details go below the ranking...
STACK_TALL = 340  # ...if the panel has this height: else side by side (a 768 px screen's
# dock has about 190: stacked, it showed 2 rows and 3 lines of explanation)
SHORT = 300  # px of height under which the ranking's rows are one line each (cut Why)
STACKED_LEAST = 420  # px of height a panel kept lower gets when the details go below: the
# ranking's rows, the details' tabs and 4 lines (STACK_TALL showed 2 at 1024x768)
STACKED_DETAILS_MIN = 110  # px of height the details keep when below the ranking
SIDE_DETAILS_MIN = 80  # and beside it
ROOMY_RANKING = 0.25  # stacked, the ranking's share while Headroom, Tiers or Ask a model is in
# front (their table and Send were out of sight at 1024x768 with half each)
SIDE_DETAILS_WIDTH = 240  # px of width the details ask for beside the ranking...
DETAILS_LEAST = 120  # ...and give up down to this in a dock too narrow for both
TAB_MARGIN = 8  # px beside the details' tab bar (the tab widget's frame)
WIDEST = 16777215  # Qt's QWIDGETSIZE_MAX: no maximum width
# A details page with this property set keeps the height it asks for at least (its
# minimumSizeHint) in front: Headroom's sentence was cut mid-line in a 170 px dock,
# where the details got 80 px of its 157. The panel (and so the dock) then scrolls.
KEEPS_ITS_HEIGHT = "keepsItsHeight"


class SplitFit:
    """The splitter of the ranking (`table`) and the details, fitted to the panel."""

    def __init__(
        self,
        split: QSplitter,
        table: QTableView,
        model: CandidatesModel,
        details: QTabWidget,
        tier_beside: Callable[[bool], None],
    ) -> None:
        self.split, self.table, self.model = split, table, model
        self.details, self.tier_beside = details, tier_beside
        self.moved = False  # the user dragged the handle: their sizes stay
        self.collapsed = False  # the details collapsed in a short, narrow panel
        self.watched: QWidget | None = None  # the parent bound_to follows
        split.splitterMoved.connect(self._on_moved)
        split.setStretchFactor(0, 3)  # the ranking and its reasons get the larger share
        split.setStretchFactor(1, 2)
        details.setMinimumHeight(SIDE_DETAILS_MIN)
        self.least = SIDE_DETAILS_MIN  # the details' minimum height for the split's layout
        self.roomy: list[QWidget] = []  # the detail tabs' pages that want most of the height
        details.currentChanged.connect(lambda _i: self._tab_changed())

    def _on_moved(self, *_args: object) -> None:
        self.moved = True

    def fit(self, width: int, room: int) -> None:
        """Stack the ranking above the details below STACK_BELOW px of `width` when
        the panel's `room` (height) holds both; else side by side. In a short panel
        the ranking's rows are one line each (more of them show)."""
        narrow = (width < STACK_BELOW or self._tabs_cut_beside(width)) and room >= STACK_TALL
        wanted = Qt.Orientation.Vertical if narrow else Qt.Orientation.Horizontal
        short = room < SHORT
        if self.table.wordWrap() == short:
            self.table.setWordWrap(not short)
            fit_rows(self.table, self.model)
        # Narrow, the tier used goes below the summary (hidden there, a first-time
        # reviewer missed "Tier 2: listed" at 1024 px).
        self.tier_beside(width >= STACK_BELOW)
        split = self.split
        total = sum(split.sizes())
        # Short and too narrow for the details' tabs beside the ranking (after Back to
        # the Editor at 1024x768 the tabs were cut, drawn over the ranking's edge): the
        # ranking alone, the details collapsed (still shown: their pages keep working)
        # until the room comes back.
        cramped = not narrow and room < SHORT and self._tabs_cut_beside(width)
        if cramped and split.orientation() == wanted:
            self.details.setMinimumWidth(0)
            self.details.setMaximumWidth(0)  # no width, still shown: its pages keep working
            self.collapsed = True
            return
        back, self.collapsed = self.collapsed, False  # its share again
        if back:
            self.details.setMaximumWidth(WIDEST)
            self.details.setMinimumWidth(SIDE_DETAILS_WIDTH)
        if split.orientation() == wanted:
            if (back or not self.moved) and total > 0:  # its share until the user moves it
                split.setSizes(self._shares(total, width))
            return
        split.setOrientation(wanted)
        # The table's minimum width (its narrow columns and a few words of Why) holds
        # in both; below, the details need no width of their own and a smaller height
        # than their pages ask for (they scroll), so that the ranking keeps some rows;
        # beside, less than their pages ask too: a short dock's panel fits it instead
        # of scrolling.
        side = wanted == Qt.Orientation.Horizontal
        self.details.setMinimumWidth(SIDE_DETAILS_WIDTH if side else 1)
        self.least = SIDE_DETAILS_MIN if side else STACKED_DETAILS_MIN
        self._details_minimum()
        split.setSizes(self._shares(sum(split.sizes()), width))
        self.moved = False

    def _details_minimum(self) -> None:
        """The details' minimum height: the layout's least, or what the page in front
        asks where it keeps its height (KEEPS_ITS_HEIGHT)."""
        page, least = self.details.currentWidget(), self.least
        if page is not None and page.property(KEEPS_ITS_HEIGHT):
            bar = self.details.tabBar().sizeHint().height()
            least = max(least, page.minimumSizeHint().height() + bar + TAB_MARGIN)
        if self.details.minimumHeight() != least:
            self.details.setMinimumHeight(least)

    def _tab_changed(self) -> None:
        """Stacked, the details' page in front sets the split (unless the user moved it);
        its minimum height, the details' (see _details_minimum)."""
        self._details_minimum()
        split = self.split
        total = sum(split.sizes())
        if split.orientation() == Qt.Orientation.Vertical and not self.moved and total > 0:
            split.setSizes(self._shares(total, self.split.width()))

    def _tabs_cut_beside(self, width: int) -> bool:
        """Beside the ranking, the details would be narrower than their tabs' labels
        (at 1366x768 "Ask a model" was cut under the scroll arrows for claude-code,
        whose long names widen the ranking)."""
        handle = self.split.handleWidth()
        share = width * 2 // 5 if width < STACK_BELOW else width // 2
        beside = min(share, width - self.table.minimumWidth() - handle)
        return beside < self.details.tabBar().sizeHint().width() + TAB_MARGIN

    def bound_to(self, panel: QWidget) -> None:
        """bound() to the width the panel's parent (its dock's scroll area) gives it,
        watching that parent from then on: a dock narrowed while the panel was held at
        its minimum width resizes the area only."""
        area = panel.parentWidget()
        if area is None:
            return
        if self.watched is not area:
            self.watched = area
            area.installEventFilter(_OnResize(area, lambda: self.bound_to(panel)))
        width = _inner_width(panel, area)
        self.fit(width, area.height())  # the ranking's width and the tabs shown change
        self.bound(width)

    def least_room(self, panel: QWidget) -> int:
        """The least height of the panel's area (its dock's scroll area) at which the
        details show, tabs and a few lines: STACKED_LEAST where they cannot go beside
        the ranking at its width (below, fit() collapses them: at 1024x768 with a
        height dragged at 1366 their five tabs were gone), else none."""
        area = panel.parentWidget() or panel
        width = _inner_width(panel, area)
        return STACKED_LEAST if width < STACK_BELOW or self._tabs_cut_beside(width) else 0

    def bound(self, width: int) -> None:
        """Keep the splitter's minimum width within `width` (the dock's, less the
        panel's margins): side by side, the details give up width down to
        DETAILS_LEAST, then the ranking below its own minimum (it scrolls sideways
        inside). With long skill names at 1024x768 the ranking asked 501 px and the
        details 240: the panel grew 35 px wider than its dock, "Add as test case…" and
        the Explanation cut off behind a scroll bar."""
        # what its columns ask (candidates.fit_rows), lowered here when the dock is narrower
        natural = self.table.property(NATURAL_WIDTH)
        table = natural if isinstance(natural, int) else self.table.minimumWidth()
        if self.split.orientation() != Qt.Orientation.Horizontal or width <= 0:
            self._table_minimum(table)  # stacked: the whole width is the ranking's
            return
        if self.collapsed:  # the ranking alone
            self._table_minimum(min(table, width))
            return
        handle = self.split.handleWidth()
        details = max(DETAILS_LEAST, min(SIDE_DETAILS_WIDTH, width - table - handle))
        if self.details.minimumWidth() != details:
            self.details.setMinimumWidth(details)
        if table + details + handle > width:
            table = max(width - details - handle, 0)
        self._table_minimum(table)

    def _table_minimum(self, width: int) -> None:
        """Set when it changes only (a minimum set resizes the table, its Why column
        resizes, and the panel fits again: see candidates.fit_rows)."""
        if self.table.minimumWidth() != width:
            self.table.setMinimumWidth(width)

    def _shares(self, total: int, width: int) -> list[int]:
        """Halves; side by side in a narrow panel (a short dock) the ranking 3/5, so
        that its Why column keeps a few words; stacked with a roomy page in front (the
        whole set's Headroom, a tier's text, Ask a model's fields and buttons) the
        ranking ROOMY_RANKING."""
        if self.split.orientation() == Qt.Orientation.Horizontal:
            if width < STACK_BELOW:
                return [total - total * 2 // 5, total * 2 // 5]
        elif self.details.currentWidget() in self.roomy:
            ranking = round(total * ROOMY_RANKING)
            return [ranking, total - ranking]
        return [total - total // 2, total // 2]


def _inner_width(panel: QWidget, area: QWidget) -> int:
    """The width `area` gives the panel's contents (less its margins)."""
    margins = panel.contentsMargins() + (panel.layout() or QVBoxLayout()).contentsMargins()
    return area.width() - margins.left() - margins.right()


class _OnResize(QObject):
    """Calls `then` after each resize of the object it filters."""

    def __init__(self, parent: QObject, then: Callable[[], None]) -> None:
        super().__init__(parent)
        self.then = then

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.then()
        return False
