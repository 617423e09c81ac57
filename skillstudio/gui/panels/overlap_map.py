"""The overlap map: a whole project's competing skills at once (issue 19, docs/commands.md).

`skillstudio overlap`'s pairs (core/ranking/overlap.py), worked out off the GUI thread
(about 4.5 s at 10,000 skills, index included) from a snapshot of the project's
skills, shown two ways: the strongest pairs as a list, and a matrix of the skills
in the strongest pairs, ordered by cluster (skills linked by competing pairs),
each cluster in its own colour, deeper for a stronger pair. Only the top pairs
are shown, so it reads at 200 skills and at 10,000. A click on a skill's name
(or a matrix cell: its row's skill) opens it.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...core.model.text import counted
from ...core.projects.open_project import OpenProject
from ...core.projects.project import Project
from ...core.ranking.overlap import THRESHOLD, Pair
from ...core.scanning.registry import Registry
from ..infra.background import LatestJob
from ..infra.deferred_until_shown import CatchUp
from ..infra.likely_jobs import overlap_pairs
from ..infra.theme import colour, is_dark
from ..infra.threads import snapshot
from ..models.app_context import AppContext
from ..models.table_model import ColumnsModel
from .workbench.panel_parts import project_label

TOP_PAIRS = 100  # pairs listed
MATRIX_SKILLS = 30  # skills in the matrix (those of the strongest pairs)
DELAY_MS = 1000  # after a change, before the map is worked out again (when shown)
# Cluster colours (light, dark): told apart in both palettes; text is band_text.
CLUSTER_COLOURS = (
    ("#9ecae1", "#1f4e79"),
    ("#fdae6b", "#7a3d00"),
    ("#a1d99b", "#1e5b2a"),
    ("#d4b9da", "#5a2d6a"),
    ("#fdd0a2", "#6b4a10"),
    ("#c7e9c0", "#2c4f46"),
    ("#fcbba1", "#7a2320"),
    ("#dadaeb", "#3b3b6b"),
)


def clusters(pairs: list[Pair]) -> dict[str, int]:
    """Skill path -> cluster number: skills joined by pairs, numbered by their
    strongest pair (pairs come strongest first)."""
    parent: dict[str, str] = {}

    def root(path: str) -> str:
        while parent.setdefault(path, path) != path:
            parent[path] = parent[parent[path]]
            path = parent[path]
        return path

    for pair in pairs:
        parent[root(pair.a.path)] = root(pair.b.path)
    numbers: dict[str, int] = {}
    out: dict[str, int] = {}
    for pair in pairs:
        for path in (pair.a.path, pair.b.path):
            out[path] = numbers.setdefault(root(path), len(numbers))
    return out


def cluster_colour(number: int, strength: float = 1.0) -> QColor:
    """A cluster's colour; `strength` (0..1) blends it towards the base colour."""
    light, dark = CLUSTER_COLOURS[number % len(CLUSTER_COLOURS)]
    full = QColor(dark if is_dark() else light)
    base = QColor("#1e1e1e" if is_dark() else "#ffffff")
    mix = 0.35 + 0.65 * max(0.0, min(strength, 1.0))
    return QColor(
        round(base.red() + (full.red() - base.red()) * mix),
        round(base.green() + (full.green() - base.green()) * mix),
        round(base.blue() + (full.blue() - base.blue()) * mix),
    )


class PairsModel(ColumnsModel):
    COLUMNS = ("Cluster", "Skill", "Competes with", "Score", "Shared words")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pairs: list[Pair] = []
        self.cluster: dict[str, int] = {}

    def set_pairs(self, pairs: list[Pair], cluster: dict[str, int]) -> None:
        self.beginResetModel()
        self.pairs, self.cluster = pairs[:TOP_PAIRS], cluster
        self.endResetModel()

    def row_count(self) -> int:
        return len(self.pairs)

    def path_at(self, row: int, column: int) -> str | None:
        """The skill a click on this cell opens (the second name opens the second)."""
        if not 0 <= row < len(self.pairs):
            return None
        pair = self.pairs[row]
        return pair.b.path if column == 2 else pair.a.path

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or index.row() >= len(self.pairs):
            return None
        pair, column = self.pairs[index.row()], index.column()
        number = self.cluster.get(pair.a.path, 0)
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                str(number + 1),
                pair.a.name,
                pair.b.name,
                f"{pair.score:.2f}",
                ", ".join(term for term, _ in pair.shared),
            )[column]
        if role == Qt.ItemDataRole.BackgroundRole and column == 0:
            return cluster_colour(number)
        if role == Qt.ItemDataRole.ForegroundRole and column == 0:
            return QColor(colour("band_text"))
        if role == Qt.ItemDataRole.ToolTipRole:
            if column in (1, 2):
                skill = pair.a if column == 1 else pair.b
                return f"{skill.path}\n{skill.description}\n(click to open)"
            return ", ".join(f"{term} {weight:.2f}" for term, weight in pair.shared)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (0, 3):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class MatrixModel(ColumnsModel):
    """The skills of the strongest pairs by cluster; a cell is the pair's score."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.skills: list[tuple[str, str]] = []  # (path, name), in cluster order
        self.scores: dict[tuple[str, str], float] = {}
        self.cluster: dict[str, int] = {}

    def set_pairs(self, pairs: list[Pair], cluster: dict[str, int]) -> None:
        self.beginResetModel()
        chosen: dict[str, str] = {}
        for pair in pairs:
            for skill in (pair.a, pair.b):
                if len(chosen) < MATRIX_SKILLS:
                    chosen.setdefault(skill.path, skill.name)
        self.cluster = cluster
        self.skills = sorted(chosen.items(), key=lambda item: (cluster.get(item[0], 0), item[1]))
        self.scores = {}
        for pair in pairs:
            if pair.a.path in chosen and pair.b.path in chosen:
                self.scores[pair.a.path, pair.b.path] = pair.score
                self.scores[pair.b.path, pair.a.path] = pair.score
        self.endResetModel()

    def row_count(self) -> int:
        return len(self.skills)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.skills)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not 0 <= section < len(self.skills):
            return None
        path, name = self.skills[section]
        if role == Qt.ItemDataRole.DisplayRole:
            # columns by number (names would make them wide), rows by number and name
            return (
                str(section + 1)
                if orientation == Qt.Orientation.Horizontal
                else (f"{section + 1}  {name}")
            )
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{name}\n{path}"
        return None

    def score(self, row: int, column: int) -> float | None:
        return self.scores.get((self.skills[row][0], self.skills[column][0]))

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        score = self.score(index.row(), index.column())
        if score is None:
            return None
        path = self.skills[index.row()][0]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{score:.2f}"[1:] if score < 1 else "1"  # ".82": the cells stay narrow
        if role == Qt.ItemDataRole.BackgroundRole:
            return cluster_colour(self.cluster.get(path, 0), score)
        if role == Qt.ItemDataRole.ForegroundRole:
            return QColor(colour("band_text"))
        if role == Qt.ItemDataRole.ToolTipRole:
            other = self.skills[index.column()][1]
            return f"{self.skills[index.row()][1]} competes with {other}: {score:.2f}"
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None


class OverlapMap(QWidget):
    """Signals:
    open_requested(str): the SKILL.md path of a skill the user clicked.
    computed(): the map shows a new answer.
    """

    open_requested = Signal(str)
    computed = Signal()

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        """Over `context`: its open projects are offered, its current one shown (the
        box follows `current_changed`; a project chosen here is the map's alone)."""
        super().__init__(parent)
        self.context = context
        context.projects_changed.connect(self._on_projects_changed)
        context.current_changed.connect(self._follow)
        self.projects: list[Project] = []
        self.registries: list[Registry] = []
        self.pairs: list[Pair] = []
        # (id(registry), version, threshold) shown, and asked last
        self.shown_for: tuple[int, int, float] | None = None
        self.shown_base: object = None  # the base of the project whose pairs are shown
        self._asked: tuple[int, int, float] | None = None
        self.job = LatestJob(self, quiet=True)  # an index of its own: many small objects
        self.catch_up = CatchUp(self, self.update_now, DELAY_MS, stale=True)
        self.project_box = QComboBox(self)
        self.project_box.setToolTip("The project whose skills are compared")
        # as wide as its longest project (it was cut to "anthropi▾" beside the status)
        self.project_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.project_box.currentIndexChanged.connect(self._on_project_chosen)
        self.status = QLabel("Open a folder of skills to see which of them compete.", self)
        self.status.setWordWrap(True)
        # `skillstudio overlap --threshold`: the least similarity of a pair shown
        self.threshold = QDoubleSpinBox(self)
        self.threshold.setRange(0.05, 1.0)
        self.threshold.setSingleStep(0.05)
        self.threshold.setDecimals(2)
        self.threshold.setValue(THRESHOLD)
        self.threshold.setPrefix("≥ ")
        self.threshold.setToolTip(
            "The least similarity of a pair shown in both tabs (skillstudio overlap "
            "--threshold); lower it to see weaker pairs"
        )
        self.threshold.valueChanged.connect(lambda _value: self.catch_up.soon(0))
        top = QHBoxLayout()
        top.addWidget(self.project_box)
        top.addWidget(self.threshold)
        top.addWidget(self.status, 1)
        self.status.setMinimumWidth(120)  # wraps: the box keeps its width
        self.pairs_model = PairsModel(self)
        self.pairs_view = self._table(self.pairs_model)
        self.pairs_view.horizontalHeader().setStretchLastSection(True)
        self.pairs_view.clicked.connect(self._on_pair_clicked)
        self.matrix_model = MatrixModel(self)
        self.matrix_view = self._table(self.matrix_model)
        self.matrix_view.verticalHeader().show()
        cell = self.fontMetrics().horizontalAdvance("0.00") + 12  # ".82" and "1" fit
        self.matrix_view.horizontalHeader().setDefaultSectionSize(cell)
        self.matrix_view.clicked.connect(self._on_cell_clicked)
        self.views = QTabWidget(self)
        self.views.setDocumentMode(True)
        self.notes: list[QLabel] = []  # each tab's word when no pair reaches the threshold
        self.views.addTab(self._or_note(self.pairs_view), "Strongest pairs")
        self.views.addTab(self._or_note(self.matrix_view), "Matrix")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.views, 1)

    def _or_note(self, view: QTableView) -> QStackedWidget:
        """A tab of `view`, or of a note in its place while there is no pair to show
        (the matrix was a blank box)."""
        stack = QStackedWidget(self)
        note = QLabel(stack)
        note.setWordWrap(True)
        note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        note.setContentsMargins(12, 12, 12, 12)
        stack.addWidget(view)
        stack.addWidget(note)
        self.notes.append(note)
        return stack

    def _note(self, text: str) -> None:
        """Each tab's note (`text`) in place of its table, or the tables ("")."""
        for note in self.notes:
            note.setText(text)
            stack = note.parentWidget()
            if isinstance(stack, QStackedWidget):
                stack.setCurrentIndex(1 if text else 0)

    def _table(self, model: ColumnsModel) -> QTableView:
        view = QTableView(self)
        view.setModel(model)
        view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.verticalHeader().hide()
        # sized from the texts once per answer (fit_columns): ResizeToContents asks the
        # model every role of every cell (10,000 calls, a 0.5 s pause, per answer)
        view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
        return view

    def fit_columns(self) -> None:
        """The pairs' columns as wide as their widest text (the last one stretches)."""
        metrics = self.pairs_view.fontMetrics()
        model = self.pairs_model
        for column in range(len(model.COLUMNS) - 1):
            texts = [str(model.COLUMNS[column])] + [
                str(model.index(row, column).data()) for row in range(model.rowCount())
            ]
            width = max(metrics.horizontalAdvance(t) for t in texts) + 18
            self.pairs_view.setColumnWidth(column, width)

    # -- projects ---------------------------------------------------------------------
    def clear(self, status: str = "Reading the folder…") -> None:
        """Nothing shown: another folder is opened (or none); its projects come after."""
        self.catch_up.timer.stop()
        self.job.drop()
        self._asked = None
        self.projects, self.registries = [], []
        self.project_box.blockSignals(True)
        self.project_box.clear()
        self.project_box.blockSignals(False)
        self._show_nothing()
        self.status.setText(status)

    def _show_nothing(self) -> None:
        self.pairs = []
        self.pairs_model.set_pairs([], {})
        self.matrix_model.set_pairs([], {})
        self.shown_for = None
        self._note("")

    def _on_projects_changed(self) -> None:
        """The context's open projects (its current one shown); those of another folder
        (or none) replace what is shown at once (the previous folder's pairs never stay
        beside the new projects)."""
        projects, registries = self.context.projects, self.context.registries
        current = self.context.project.base if self.context.project is not None else None
        if not {p.base for p in projects} & {p.base for p in self.projects}:
            self.clear(
                "Working out which skills compete…"
                if projects
                else "Open a folder of skills to see which of them compete."
            )
        current = current or self.project_box.currentData()
        self.projects, self.registries = projects, registries
        self.project_box.blockSignals(True)
        self.project_box.clear()
        for project in projects:
            self.project_box.addItem(project_label(project), project.base)
        self.project_box.setCurrentIndex(max(self.project_box.findData(current or ""), 0))
        self.project_box.blockSignals(False)
        self.shown_for = None
        self._drop_others()
        self.catch_up.soon(0)

    def _on_project_chosen(self, _number: int) -> None:
        """Another project: its pairs are worked out; another's never stand for them."""
        self._drop_others()
        self.catch_up.soon(0)

    def _drop_others(self) -> None:
        """The pairs shown go if they are another project's than the one chosen."""
        if self.pairs and self.shown_base != self.project_box.currentData():
            self._show_nothing()
            self.status.setText("Working out which skills compete…")

    def _follow(self, current: OpenProject | None) -> None:
        """The user works on `current` now (the context's current project): the map
        shows it (and is worked out again when shown)."""
        base = current.project.base if current is not None else None
        number = self.project_box.findData(base) if base is not None else -1
        if number >= 0:
            self.project_box.setCurrentIndex(number)

    @property
    def registry(self) -> Registry | None:
        number = self.project_box.currentIndex()
        return self.registries[number] if 0 <= number < len(self.registries) else None

    def skills_changed(self) -> None:
        """Worked out again after a pause in the changes, if shown (else when shown)."""
        self.catch_up.soon(DELAY_MS)

    # -- answering --------------------------------------------------------------------
    def update_now(self) -> None:
        """Start working the pairs out off the GUI thread (unless shown already or
        asked for the registry as it is); asked while one runs, it runs after it."""
        registry = self.registry
        if registry is None:
            return
        threshold = round(self.threshold.value(), 2)
        key = (id(registry), registry.version, threshold)
        if key == self.shown_for or (key == self._asked and self.job.busy):
            return
        self._asked = key
        copy = snapshot(registry)  # what the worker reads
        count = len(copy.active)
        self.status.setText(f"Working out which of {counted(count, 'skill')} compete…")

        def landed(pairs: Any, error: str | None) -> None:
            if error is not None:
                self.status.setText(f"Working out the overlaps failed: {error}")
                return
            if self.registry is registry:
                self.show_pairs(pairs, count)
                self.shown_for = key
                self.shown_base = self.project_box.currentData()
                self.computed.emit()
            now = self.registry
            if now is not None and (id(now), now.version, round(self.threshold.value(), 2)) != key:
                self.catch_up.soon(0)  # the skills or the threshold changed meanwhile

        self.job.submit(lambda: overlap_pairs(copy, threshold), landed)

    def show_pairs(self, pairs: list[Pair], skills: int) -> None:
        self.pairs = pairs
        cluster = clusters(pairs[:TOP_PAIRS])
        self.pairs_model.set_pairs(pairs, cluster)
        self.matrix_model.set_pairs(pairs[:TOP_PAIRS], cluster)
        self.fit_columns()
        shown = min(len(pairs), TOP_PAIRS)
        groups = len(set(cluster.values()))
        threshold = self.threshold.value()
        self.status.setText(
            f"{counted(len(pairs), 'competing pair')} among {counted(skills, 'skill')} "
            f"(similarity ≥ {threshold:.2f}, an estimate of which descriptions a model could "
            f"confuse); the strongest {shown} shown, in {counted(groups, 'cluster')}. "
            "Click a name to open the skill."
            if pairs
            else f"No competing pairs among {counted(skills, 'skill')} "
            f"(similarity ≥ {threshold:.2f})."
        )
        self._note(
            ""
            if pairs
            else f"No pair among {counted(skills, 'skill')} reaches a similarity of "
            f"{threshold:.2f}: their descriptions are unlikely to be confused. Lower the "
            "threshold (beside the project) to see weaker pairs."
        )

    def _on_pair_clicked(self, index: QModelIndex) -> None:
        if index.column() in (1, 2):
            path = self.pairs_model.path_at(index.row(), index.column())
            if path:
                self.open_requested.emit(path)

    def _on_cell_clicked(self, index: QModelIndex) -> None:
        if index.isValid() and self.matrix_model.score(index.row(), index.column()) is not None:
            self.open_requested.emit(self.matrix_model.skills[index.row()][0])
