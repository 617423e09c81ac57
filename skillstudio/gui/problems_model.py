"""ProblemsModel: every diagnostic of the open projects, as a flat table."""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt

from ..core.diagnostics import SEVERITY_RANK, Diagnostic
from .icons import icon
from .table_model import ColumnsModel

COLUMNS = ("", "Problem", "Skill", "File", "Line")
DIAGNOSTIC_ROLE = Qt.ItemDataRole.UserRole + 10


class ProblemsModel(ColumnsModel):
    COLUMNS = COLUMNS

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[Diagnostic] = []
        self._base = ""

    def set_diagnostics(self, diagnostics: list[Diagnostic], base: str = "") -> None:
        """Show `diagnostics`; an unchanged list (most keystrokes) keeps the rows,
        the selection and the scroll position."""
        rows = sorted(
            diagnostics, key=lambda d: (SEVERITY_RANK[d.severity], d.path, d.line, d.column)
        )
        if rows == self._rows and base == self._base:
            return
        self.beginResetModel()
        self._base = base
        self._rows = rows
        self.endResetModel()

    def counts(self) -> dict[str, int]:
        out = {"error": 0, "warning": 0, "info": 0}
        for diag in self._rows:
            out[diag.severity] += 1
        return out

    def row_count(self) -> int:
        return len(self._rows)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        diag = self._rows[index.row()]
        column = index.column()
        if role == DIAGNOSTIC_ROLE:
            return diag
        if role == Qt.ItemDataRole.DecorationRole and column == 0:
            return icon(diag.severity)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{diag.code}: {diag.message}"
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if column == 0:
            return diag.severity
        if column == 1:
            return f"{diag.code}: {diag.message}"
        if column == 2:
            return diag.skill or ""
        if column == 3:
            return os.path.relpath(diag.path, self._base) if self._base else diag.path
        return f"{diag.line}:{diag.column}" if diag.line else ""
