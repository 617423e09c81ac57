"""A table's columns fitted to the table's width: the narrow ones keep their contents'
width, the wide ones share what is left (their text wraps), so that no column is off
the right edge behind a scroll bar; a right click on the header hides or shows a
column. (At 1024x768 "Where it loads" had its "Limits broken" column off-screen.)"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtWidgets import QHeaderView, QMenu, QTableView, QTableWidget

LEAST = 60  # px a column keeps however narrow the table


def fair_widths(wanted: list[int], room: int, least: int = LEAST) -> list[int]:
    """Each column's width within `room` px: the columns that want less than an even
    share of what is left get what they want, the others that share (at least
    `least`): [40, 300, 500] in 600 px is [40, 280, 280]."""
    if sum(wanted) <= room:
        return list(wanted)
    widths = list(wanted)
    order = sorted(range(len(wanted)), key=lambda column: wanted[column])
    budget = room
    for done, column in enumerate(order):
        share = budget // (len(order) - done)
        if wanted[column] > share:
            for rest in order[done:]:
                widths[rest] = max(share, least)
            break
        budget -= wanted[column]
    return widths


class ColumnFit(QObject):
    """Fits `table`'s shown columns to its width now (fit, after new rows) and after
    each resize; its header's context menu hides and shows columns."""

    def __init__(self, table: QTableWidget) -> None:
        super().__init__(table)
        self.table = table
        self.wanted: list[int] = []  # each column's contents' width, measured by fit()
        table.viewport().installEventFilter(self)
        header = table.horizontalHeader()
        header.setStretchLastSection(True)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._header_menu)
        for column in range(table.columnCount()):
            text = table.horizontalHeaderItem(column)
            if text is not None:
                text.setToolTip("Right click: hide or show columns")

    def fit(self) -> None:
        """Measure the columns' contents again (new rows), then fit them."""
        self.table.resizeColumnsToContents()
        self.wanted = [self.table.columnWidth(c) for c in range(self.table.columnCount())]
        self.refit()

    def refit(self) -> None:
        """The measured widths fitted to the table's width (the vertical scroll bar's
        room kept, so that its coming does not push the last column out)."""
        table = self.table
        shown = [c for c in range(table.columnCount()) if not table.isColumnHidden(c)]
        if not self.wanted or not shown:
            return
        room = table.viewport().width()
        bar = table.verticalScrollBar()
        if not bar.isVisible():
            room -= bar.sizeHint().width()
        widths = fair_widths([self.wanted[c] for c in shown], room)
        for column, width in zip(shown, widths, strict=True):
            table.setColumnWidth(column, width)
        table.resizeRowsToContents()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self.wanted:
            self.refit()
        return False

    def _header_menu(self, pos: QPoint) -> None:
        self.columns_menu().exec(self.table.horizontalHeader().mapToGlobal(pos))

    def columns_menu(self) -> QMenu:
        """One checkable entry per column (the last shown one cannot be hidden)."""
        table = self.table
        menu = QMenu(table)
        shown = [c for c in range(table.columnCount()) if not table.isColumnHidden(c)]
        for column in range(table.columnCount()):
            item = table.horizontalHeaderItem(column)
            action = menu.addAction(item.text() if item is not None else str(column))
            action.setCheckable(True)
            action.setChecked(column in shown)
            action.setEnabled(shown != [column])
            action.toggled.connect(lambda on, c=column: self.show_column(c, on))
        return menu

    def show_column(self, column: int, on: bool) -> None:
        self.table.setColumnHidden(column, not on)
        self.refit()


class RoomFor(QObject):
    """Keeps `share` of `view`'s width for its stretched `column` (the one worth
    reading, a suite case's request): the other shown columns, sized to their contents
    beforehand, give up width down to fair shares of the rest. At 1024x768 the Suites'
    Request column was ~60 px beside an "Expected" column of 200."""

    def __init__(self, view: QTableView, column: int, share: float) -> None:
        super().__init__(view)
        self.view, self.column, self.share = view, column, share
        self.wanted: dict[int, int] = {}  # the other columns' contents' widths
        view.horizontalHeader().setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        view.viewport().installEventFilter(self)

    def fit(self) -> None:
        """The other columns' widths now (just sized to their contents) kept as what
        they want, then fitted."""
        header = self.view.horizontalHeader()
        self.wanted = {c: header.sectionSize(c) for c in range(header.count()) if c != self.column}
        self.refit()

    def refit(self) -> None:
        view = self.view
        shown = [c for c in self.wanted if not view.isColumnHidden(c)]
        room = round(view.viewport().width() * (1 - self.share))
        widths = fair_widths([self.wanted[c] for c in shown], room, least=40)
        for column, width in zip(shown, widths, strict=True):
            view.setColumnWidth(column, width)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self.wanted:
            self.refit()
        return False
