"""A skill's "Where it loads" tab: for each agent that reads the Agent Skills standard
(core/profiles/agents.py), whether it finds the skill where it sits, from which folder
and scope, under which name, which of its fields it ignores and which of its limits the
skill breaks (core/projects/agent_reach.py: what `show`'s `where:` says), for the text
on screen. Worked out off the GUI thread, when the tab is shown and the text changed
(a few `stat` calls per agent; nothing is opened)."""

from __future__ import annotations

import os

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.model.paths import is_within
from ...core.model.skills import shown_name
from ...core.projects.agent_reach import Reach, agent_reach
from ..infra.background import LatestJob
from ..infra.column_fit import ColumnFit
from ..infra.deferred_until_shown import CatchUp
from ..infra.theme import on_theme_change
from ..models.skill_document import SkillDocument

DELAY_MS = 300  # after the document's own (debounced) re-validation
COLUMNS = ("Agent", "Finds it", "From", "As", "Ignores", "Limits broken")
INTRO = (
    "Which agents find {name} in the folder where it lies ({folder}): from which folder "
    "and scope, under which name, which of its fields each ignores, which of its limits "
    "it breaks (for the text on screen; ? marks facts not confirmed: see the guide's "
    "agents page). Real agents only; whether its content passes each profile's rules, "
    "wherever it lies (the seed/test systems too), is the Problems panel's line."
)


def intro(name: str, folder: str) -> str:
    """What the tab answers, for the skill `name` in `folder`."""
    return INTRO.format(name=name or "this skill", folder=folder)


def reach_cells(reach: Reach) -> list[str]:
    """One agent's row: agent, found, from (folder and scope), name, ignored, limits."""
    found = "yes" if reach.found else "no"
    if reach.unconfirmed or reach.reads_unconfirmed:
        found += " ?"
    if reach.found and reach.folder:
        link = ", through a link" if reach.via_link else ""
        where = f"{reach.folder} ({reach.scope}{link})"
    elif reach.found:
        where = "any folder (the standard)"
    else:
        where = reach.why
    return [
        reach.title,
        found,
        where,
        reach.name or "",
        ", ".join(reach.ignored),
        "; ".join(reach.limits),
    ]


class WhereItLoads(QWidget):
    """The table of one skill's reach, per agent (`reaches` holds the last answer)."""

    def __init__(
        self, document: SkillDocument, base: str | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.document = document
        self.base = base  # the project's folder: where project roots are looked for
        self.reaches: list[Reach] = []
        self.catch_up = CatchUp(self, self.update_now, DELAY_MS, stale=True)
        self.job = LatestJob(self)
        self.summary = QLabel(self._intro(), self)
        self.summary.setWordWrap(True)
        self.found_line = ""  # the summary's first sentence, all a short tab shows
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft)
        self.columns = ColumnFit(self.table)  # every column within the tab's width
        self.contents = QVBoxLayout(self)
        self.contents.setContentsMargins(6, 6, 6, 6)
        self.contents.addWidget(self.summary)
        self.contents.addWidget(self.table, 1)
        document.diagnostics_changed.connect(self._on_checked)
        on_theme_change(self, self._recolour)

    def _intro(self) -> str:
        skill = self.document.registry.by_path.get(self.document.path)
        folder = os.path.dirname(os.path.dirname(self.document.path))
        if self.base and is_within(folder, self.base):
            rel = os.path.relpath(folder, self.base)
            folder = rel if rel != "." else os.path.basename(self.base)
        return intro(shown_name(skill, self.document.path), folder)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_summary()

    def _fit_summary(self) -> None:
        """In a tab too short for the whole summary above three rows of the table, the
        summary's first line only (the rest in its tooltip): at 1024x768 beside Try a
        Request the paragraph was drawn cut at its top and bottom."""
        if not self.found_line:
            return
        whole = f"{self.found_line} {self._intro()}"
        margins = self.contents.contentsMargins()
        width = self.width() - margins.left() - margins.right()
        rows = (
            self.table.horizontalHeader().height()
            + 3 * self.table.verticalHeader().defaultSectionSize()
        )
        flags = Qt.TextFlag.TextWordWrap
        needed = self.summary.fontMetrics().boundingRect(0, 0, width, 0, flags, whole).height()
        short = self.height() < needed + rows + 24
        text = self.found_line if short else whole
        if self.summary.text() != text:
            self.summary.setText(text)
        self.summary.setToolTip(whole if short else "")

    def _on_checked(self, _diagnostics: object) -> None:
        self.catch_up.soon()

    def update_now(self) -> None:
        """Work the table out again for the skill as it is on screen."""
        skill = self.document.registry.by_path.get(self.document.path)
        if skill is None:
            self.job.drop()
            self.summary.setText("This skill is not in the folder's skills (yet): save it.")
            return
        base = self.base
        self.job.submit(lambda: agent_reach(skill, base), self._landed)

    def _recolour(self) -> None:
        """The table again, its greyed cells in the new theme's grey."""
        if self.reaches:
            self._landed(self.reaches, None)

    def _landed(self, reaches: list[Reach] | None, error: str | None) -> None:
        if reaches is None:
            self.summary.setText(f"Where it loads is not known: {error}")
            return
        self.reaches = reaches
        found = [r for r in reaches if r.found]
        self.found_line = f"Found where it lies by {len(found)} of {len(reaches)} agents."
        self.summary.setText(f"{self.found_line} {self._intro()}")
        self._fit_summary()
        self.table.setRowCount(len(reaches))
        for row, reach in enumerate(reaches):
            for column, text in enumerate(reach_cells(reach)):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                if column == 1 and not reach.found:
                    item.setForeground(self.palette().placeholderText())
                self.table.setItem(row, column, item)
        self.columns.fit()  # long reasons wrap, not widen the tab
