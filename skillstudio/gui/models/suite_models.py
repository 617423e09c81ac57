"""The suite runner's three tables: its cases with their results, precision and recall
per skill, and the confusion of expected against selected skills."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor

from ...core.projects.suite_cases import Case
from ...core.projects.suites import CaseResult, SuiteReport, confusion_label, first_pick
from ...core.ranking.leaks import Leak
from ..infra.icons import icon
from ..infra.theme import colour
from .table_model import ColumnsModel


def expected_text(case: Case) -> str:
    if case.mode in ("not-likely", "reach", "likely", "model") or case.expect_not:
        return case.expect_text()
    if case.mode == "exact":
        return ", ".join(case.expect) or "none"
    return case.expect[0] if case.mode == "triggers" else f"not {case.expect[0]}"


def _right(column: int, columns: tuple[int, ...]) -> int | None:
    if column in columns:
        return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return None


class CasesModel(ColumnsModel):
    """One row per case: pending (…), passed or failed, with what was expected and got;
    its note is why it failed, else what the suite says beside it (its comments)."""

    COLUMNS = ("", "Request", "Expected", "Got", "Tier", "Note")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.cases: list[Case] = []
        self.results: list[CaseResult | None] = []
        self.failures_only = False
        self.pair: tuple[str, str] | None = None  # (expected, got) from the confusion table
        self.shown: list[int] = []
        self.leaks: dict[int, Leak] = {}  # the cases whose request leaks, by number

    def set_cases(self, cases: list[Case]) -> None:
        self.beginResetModel()
        self.cases = cases
        self.leaks = {}
        self.results = [None] * len(cases)
        self.shown = self._visible()
        self.endResetModel()

    def set_results(self, first: int, results: list[CaseResult]) -> None:
        """Results for cases[first:first + len(results)]."""
        self.results[first : first + len(results)] = results
        if self.failures_only or self.pair is not None:
            self.refilter()
        elif results:
            last = first + len(results) - 1
            self.dataChanged.emit(self.index(first, 0), self.index(last, self.columnCount() - 1))

    def set_filter(self, failures_only: bool, pair: tuple[str, str] | None) -> None:
        self.failures_only, self.pair = failures_only, pair
        self.refilter()

    def refilter(self) -> None:
        self.beginResetModel()
        self.shown = self._visible()
        self.endResetModel()

    def _visible(self) -> list[int]:
        rows = []
        for number, case in enumerate(self.cases):
            result = self.results[number] if number < len(self.results) else None
            if self.failures_only and (result is None or result.passed):
                continue
            if self.pair is not None and (
                result is None or (confusion_label(case), first_pick(result)) != self.pair
            ):
                continue
            rows.append(number)
        return rows

    def set_leaks(self, leaks: dict[int, Leak]) -> None:
        """The cases whose request leaks a skill they expect (by their number in the
        suite): marked in the Request column, why in its tooltip."""
        self.leaks = {n: leak for n, leak in leaks.items() if n < len(self.cases)}
        if self.shown:
            self.dataChanged.emit(self.index(0, 1), self.index(len(self.shown) - 1, 1))

    def case_at(self, row: int) -> Case | None:
        return self.cases[self.shown[row]] if 0 <= row < len(self.shown) else None

    def row_count(self) -> int:
        return len(self.shown)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or index.row() >= len(self.shown):
            return None
        number = self.shown[index.row()]
        case, result = self.cases[number], self.results[number]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(case, result, column)
        leak = self.leaks.get(number)
        if role == Qt.ItemDataRole.DecorationRole:
            return icon("warning") if leak is not None and column == 1 else None
        if role == Qt.ItemDataRole.ForegroundRole and result is not None:
            if column == 0 and not result.judged:
                return None  # eval's case (expect_model): neither a pass nor a failure
            if column == 0:
                return QColor(colour("string" if result.passed else "error_text"))
            return None if result.passed else QColor(colour("error_fg"))
        if role == Qt.ItemDataRole.BackgroundRole and result is not None and not result.passed:
            return QColor(colour("error_bg"))
        if role == Qt.ItemDataRole.ToolTipRole:
            where = f"line {case.line} of the suite\n" if case.line else ""
            why = f"{result.why}\n" if result is not None and result.why else ""
            note = f"Note: {case.note}\n" if case.note else ""
            leaks = leak_note(leak) + "\n" if leak is not None else ""
            return (
                f"{leaks}{why}{note}{where}Double-click to try this request in the Try a Request "
                "panel"
            )
        return None

    @staticmethod
    def _text(case: Case, result: CaseResult | None, column: int) -> str:
        if column == 0:
            if result is not None and not result.judged:
                return "· eval"  # expect_model only: `skillstudio eval` judges it
            return "…" if result is None else ("✓ pass" if result.passed else "✗ FAIL")
        if column == 1:
            return case.label + ": " + case.query if case.label else case.query
        if column == 2:
            return expected_text(case)
        if result is None:
            return case.note if column == 5 else ""
        if column == 3:
            return ", ".join(result.got) or "none"
        if column == 4:
            wanted = f" (want {case.tier})" if case.tier is not None else ""
            return f"{result.tier}{wanted}"
        return result.why or case.note

    def has_notes(self) -> bool:
        """Whether any case has a note or a reason to show (else the column goes)."""
        return any(self._text(self.cases[n], self.results[n], 5) for n in self.shown)


def leak_note(leak: Leak) -> str:
    """Why a case's request leaks, and what that means for the case."""
    return (
        f"⚠ Leaks: this request {leak.reason}. Any ranking finds the skill by those words "
        "alone, so the case measures less than it seems: write it as someone who does not "
        "know the skill would ask (`skillstudio test --leaks` lists it too)."
    )


class SkillsModel(ColumnsModel):
    """Per skill: precision, recall and the counts they come from, in plain words."""

    COLUMNS = ("Skill", "Precision", "Recall", "Hits", "Wrong picks", "Misses")
    TIPS = (
        "",
        "Of the cases this skill was picked for, the share that expected it",
        "Of the cases that expected this skill, the share it was picked for",
        "Cases that expected this skill and picked it (true positives)",
        "Cases that picked this skill but expected another (false positives)",
        "Cases that expected this skill but did not pick it (false negatives)",
    )

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal:
            return self.TIPS[section] or None
        return super().headerData(section, orientation, role)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows: list[tuple[str, dict[str, float | None]]] = []

    def set_report(self, report: SuiteReport | None) -> None:
        self.beginResetModel()
        self.rows = list(report.per_skill.items()) if report is not None else []
        self.endResetModel()

    def row_count(self) -> int:
        return len(self.rows)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or index.row() >= len(self.rows):
            return None
        name, stats = self.rows[index.row()]
        column = index.column()
        key = ("", "precision", "recall", "tp", "fp", "fn")[column]
        value = stats.get(key) if key else None
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return name
            if value is None:
                return "–"
            return f"{value:.2f}" if column in (1, 2) else f"{value:g}"  # waza: 1.5
        if role == Qt.ItemDataRole.ForegroundRole and column in (1, 2) and value is not None:
            return QColor(colour("string" if value >= 1 else "error_text"))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _right(column, (1, 2, 3, 4, 5))
        return None


class ConfusionModel(QAbstractTableModel):
    """Expected (rows) against the first selected skill (columns), counted."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.expected: list[str] = []
        self.got: list[str] = []
        self.counts: dict[str, dict[str, int]] = {}

    def set_report(self, report: SuiteReport | None) -> None:
        self.beginResetModel()
        self.counts = report.confusion if report is not None else {}
        self.expected = sorted(self.counts)
        self.got = sorted({got for row in self.counts.values() for got in row})
        self.endResetModel()

    @staticmethod
    def agrees(expected: str, got: str) -> bool:
        if expected.startswith("not "):
            return got != expected[4:]
        return expected == got

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.expected)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.got)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            names = self.got if orientation == Qt.Orientation.Horizontal else self.expected
            return names[section] if section < len(names) else None
        if role == Qt.ItemDataRole.ToolTipRole:
            return (
                "Got (the first selected skill)"
                if orientation == Qt.Orientation.Horizontal
                else "Expected"
            )
        return None

    def pair(self, index: QModelIndex | QPersistentModelIndex) -> tuple[str, str]:
        return self.expected[index.row()], self.got[index.column()]

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or index.row() >= len(self.expected):
            return None
        expected, got = self.pair(index)
        count = self.counts.get(expected, {}).get(got, 0)
        if role == Qt.ItemDataRole.DisplayRole:
            return str(count) if count else ""
        if role == Qt.ItemDataRole.ForegroundRole and count:
            return QColor(colour("string" if self.agrees(expected, got) else "error_text"))
        if role == Qt.ItemDataRole.ToolTipRole and count:
            return f"{count} case(s) expected {expected}, got {got} (double-click to list them)"
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None
