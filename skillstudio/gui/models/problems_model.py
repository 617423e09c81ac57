"""ProblemsModel: the diagnostics of the open projects, one line each, identical
messages across skills grouped under one expandable row, filtered by severity and
(optionally) to one skill."""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from textwrap import fill
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
)

from ...core.model.diagnostics import Diagnostic
from ...core.model.explanations import explain
from ...core.model.text import counted
from ..infra.icons import icon
from .problem_rows import SEVERITIES, ProblemRows

COLUMNS = ("Problem", "Code", "Where")
DIAGNOSTIC_ROLE = Qt.ItemDataRole.UserRole + 10
Index = QModelIndex | QPersistentModelIndex
PAGE = 200  # top rows handed to the view at a time (a dock shows 10-40)
TIP_WIDTH = 80  # characters per line of a row tooltip's explanation


@cache
def explanation(code: str) -> str:
    """The rule's explanation (`skillstudio explain CODE`) for a row's tooltip, wrapped
    (a tooltip does not wrap plain text); "" for a code without one."""
    text = explain(code)
    if text is None:
        return ""
    paragraphs = [fill(p, TIP_WIDTH) for p in text.split("\n")]
    return "\n\n" + "\n".join(paragraphs)


class ProblemsModel(QAbstractItemModel):
    """Top rows are a diagnostic or a group of diagnostics with the same severity,
    code and message; a group's children are its diagnostics."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state = ProblemRows([], "", [], set(SEVERITIES), "")
        self._rows: list[list[Diagnostic]] = []  # top rows; a group has more than one
        self._loaded = 0  # top rows the view has asked for (fetchMore), PAGE at a time
        self._settled = True  # the view has had a turn of the event loop since a reset
        self.modelReset.connect(self._unsettled)
        self.severities: set[str] = set(SEVERITIES)
        self.only_path = ""  # "current skill only": the SKILL.md shown, "" for all

    @property
    def _base(self) -> str:
        return self._state.base

    @property
    def _projects(self) -> list[str]:
        return self._state.projects  # project folders, longest first

    def set_diagnostics(
        self, diagnostics: list[Diagnostic], base: str = "", projects: list[str] | None = None
    ) -> None:
        """Show `diagnostics`; an unchanged list (most keystrokes) keeps the rows,
        the selection and the scroll position."""
        self.set_sources([diagnostics], base, projects or [])

    def set_sources(
        self,
        sources: Sequence[Sequence[Diagnostic]],
        base: str,
        projects: Sequence[str],
        prepared: ProblemRows | None = None,
    ) -> None:
        """Show the diagnostics of `sources` (lists: a skill's own findings, its cross
        findings...): the lists that changed are compared, the rows updated in place.
        `prepared`: rows worked out elsewhere (the scan thread), used if they are of
        these same lists."""
        state = self._state
        if state.same_place(base, projects):
            changes = state.changes(sources)
            if changes is not None:
                removed, added = changes
                if removed or added:  # else equal: the rows, selection and scroll stay
                    self.beginResetModel()
                    state.update(removed, added)
                    self._loaded = min(len(self._rows), max(self._loaded, PAGE))
                    self.endResetModel()
                return
        if (
            prepared is None
            or not prepared.same_place(base, projects)
            or prepared.changes(sources) != ([], [])
        ):  # (its lists are theirs now)
            messages = state.messages if base == state.base else None
            prepared = ProblemRows(
                sources, base, projects, self.severities, self.only_path, messages
            )
        self._state = prepared
        self._rebuild()

    def showing(self, base: str, projects: Sequence[str]) -> bool:
        """Whether the rows are of this folder and projects (then updated in place)."""
        return self._state.same_place(base, projects)

    def install(self, rows: ProblemRows) -> None:
        """Show `rows`, built elsewhere from lists known to be current (a scan's)."""
        self._state = rows
        self._rebuild()

    def set_filter(self, severities: set[str] | None = None, only_path: str | None = None) -> None:
        if severities is not None:
            self.severities = set(severities)
        if only_path is not None:
            self.only_path = only_path
        self._rebuild()

    def _rebuild(self) -> None:
        state = self._state
        if state.severities != self.severities or state.only_path != self.only_path:
            state.group(self.severities, self.only_path)
        self.beginResetModel()
        self._rows = state.rows
        self._loaded = min(len(self._rows), PAGE)
        self.endResetModel()

    def counts(self) -> dict[str, int]:
        """Diagnostics per severity before the severity filters: of the current skill
        when "current skill only" is on, else of all."""
        if self.only_path:
            return self._state.counts_for(self.only_path)
        return dict(self._state.counts)

    def all_counts(self) -> dict[str, int]:
        """Diagnostics per severity of every skill, whatever the filters."""
        return dict(self._state.counts)

    def codes(self) -> set[str]:
        """The codes of the rows shown (one per group)."""
        return self._state.codes()

    def shown(self) -> list[Diagnostic]:
        """Every diagnostic the filters let through, groups flattened."""
        return [diag for group in self._rows for diag in group]

    def message(self, diag: Diagnostic) -> str:
        """The message on one line, paths inside the open folder made relative."""
        return self._state.message(diag.message)

    def where(self, diag: Diagnostic) -> str:
        """project › skill › line N (the file's name when no skill is known; the project
        alone for a note on its folder: the listing's budget)."""
        path = diag.path
        project = next((p for p in self._projects if path.startswith(p + os.sep)), "")
        parts = [os.path.basename(project)] if project else []
        if path in self._projects:
            parts = [os.path.basename(path)]
        else:
            parts.append(diag.skill or os.path.relpath(path, project or self._base or "/"))
        if diag.line:
            parts.append(f"line {diag.line}")
        return " › ".join(parts)

    # -- QAbstractItemModel ----------------------------------------------------------------
    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        return self.createIndex(row, column, parent.row() + 1 if parent.isValid() else 0)

    def parent(self, child: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not child.isValid() or child.internalId() == 0:
            return QModelIndex()
        return self.createIndex(child.internalId() - 1, 0, 0)

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:
        return not parent.isValid() and self._loaded < len(self._rows)

    def _unsettled(self) -> None:
        self._settled = False
        QTimer.singleShot(0, self, self._settle)

    def _settle(self) -> None:
        self._settled = True

    def fetchMore(self, parent: Index = QModelIndex()) -> None:
        """The view scrolled near the last row it has: PAGE more (a tree view lays out
        every top row it is given: 30,000 rows took 300 ms at the end of a scan).
        Not while the rows just reset have not been laid out: a view shown then (the
        list in front of "no problems" after a scan) finds its last row at no place
        yet and asks at once, and the scan's first layout measured two pages (1,200
        cells, 60 ms at 10,000 skills); it asks again when scrolled to the end."""
        if not self.canFetchMore(parent) or not self._settled:
            return
        more = min(len(self._rows), self._loaded + PAGE)
        self.beginInsertRows(QModelIndex(), self._loaded, more - 1)
        self._loaded = more
        self.endInsertRows()

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        if not parent.isValid():
            return self._loaded
        if parent.internalId() or parent.column() != 0:
            return 0
        group = self._rows[parent.row()]
        return len(group) if len(group) > 1 else 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        top = index.internalId() - 1 if index.internalId() else index.row()
        group = self._rows[top]
        diag = group[index.row()] if index.internalId() else group[0]
        grouped = len(group) > 1 and not index.internalId()
        column = index.column()
        if role == DIAGNOSTIC_ROLE:
            return None if grouped else diag
        if role == Qt.ItemDataRole.DecorationRole and column == 0 and not index.internalId():
            return icon(diag.severity)
        if role == Qt.ItemDataRole.ToolTipRole:
            if grouped:
                tip = "\n".join([self.message(diag), *(self.where(d) for d in group)])
            else:
                tip = f"{diag.severity}: {self.message(diag)}\n{self.where(diag)}\n{diag.path}"
            return tip + explanation(diag.code)
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if column == 1:
            return diag.code
        if column == 2:
            return counted(len(group), "skill") if grouped else self.where(diag)
        return "" if index.internalId() else self.message(diag)
