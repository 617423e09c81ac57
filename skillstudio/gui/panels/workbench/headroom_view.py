"""Try a Request's "Headroom" tab: does the project's whole set of skills fit its agent's
listing budget at a context window (core/delivery/headroom.py: what `skillstudio
headroom` says), which skills fall to a bare name or out of the listing, and what each
description costs. Worked out off the GUI thread on a snapshot of the skills (two
listings: at the budget and unbounded), when the tab is shown and the skills or the
window changed. Its model chooser fills the window with a known model's
(core/projects/model_windows.py: the built-in table and the user's models.yaml)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ....core.delivery.headroom import Headroom, listing_headroom
from ....core.model.text import counted, first_named
from ....core.profiles.agents import AGENTS
from ....core.projects.config import NUMBER_OPTIONS
from ....core.projects.model_windows import ModelTable, load_models
from ....core.projects.project import Project
from ....core.scanning.registry import Registry
from ...infra.background import LatestJob
from ...infra.deferred_until_shown import CatchUp
from ...infra.elided_label import ElidedLines
from ...infra.threads import snapshot
from .panel_layout import KEEPS_ITS_HEIGHT

SHOWN = 200  # skills listed in the table (largest descriptions first)
DELAY_MS = 400  # after the last change of the window or the skills


COLUMNS = ("Skill", "Description", "In the listing")
COLUMN_TIPS = (
    "",
    "The description's own length in characters, as the form's counter and the limit "
    "check count it",
    "What the description adds to the skill's entry in this agent's listing, as the "
    "budget counts it: the text as listed, with the separator before it (Claude Code: "
    '": ", and its when_to_use after " - "), so it can differ from the form\'s count',
)
NOT_APART = "—"  # the profile's listing does not count descriptions apart


def headroom_line(room: Headroom, agents: str) -> str:
    """'claude-code (Claude Code): 12 skills take 4,311 of 8,000 characters (3,689 to
    spare); every skill is listed whole' and the like."""
    head = f"{room.profile}{f' ({agents})' if agents else ''}: {counted(room.skills, 'skill')}"
    if room.budget is None:
        # the standard's own profile (agentskills): the agents' data say which it is
        # and which agents' budgets are known (no profile's name is switched on here)
        budgeted = sorted({a.profile for a in AGENTS if a.budget_known and a.profile})
        is_standard = any(a.profile == room.profile and a.discovery == "any" for a in AGENTS)
        standard = (
            ": the Agent Skills standard leaves the listing and its budget to each agent. "
            f"Read the project as {' or '.join(budgeted)} (the Profile box in the status "
            "bar) to see theirs"
            if is_standard and budgeted
            else ""
        )
        return (
            f"{room.profile} has no listing budget of its own, so nothing here is over or "
            f"under one{standard}. Its listing of {counted(room.skills, 'skill')} takes "
            f"{counted(room.needed, 'character')} with every description. " + room.note
        ).strip()
    spare = room.headroom or 0
    state = f"{spare:,} to spare" if spare >= 0 else f"{-spare:,} over"
    text = f"{head} take {room.needed:,} of {counted(room.budget, room.unit[:-1])} ({state})"
    if room.shortened:
        text += f"; {len(room.shortened):,} fall to a bare name or a cut description"
    if room.dropped:
        text += f"; {len(room.dropped):,} are left out"
    if not room.shortened and not room.dropped:
        whole = "listed has" if room.not_listed else "is listed with"
        text += f"; every skill {whole} its whole description"
    if room.not_listed:  # counted among the skills, in no row of the table
        names = first_named([o["skill"] for o in room.not_listed], 3)
        text += f"; not listed by the agent's own rules ({len(room.not_listed):,}): {names}"
    # (the Tiers tab's count is of the whole tier-2 text: a first-day reader saw 497
    # here and 2,658 there "of 8,000" and could not tell which was true)
    return text + ". The budget counts the skills' entries, as the Tiers meter does."


class HeadroomView(QWidget):
    """The line and the table of one project's listing headroom (`room`: the last).
    `model_chosen(tokens)`: a model was picked in the chooser (the panel fills its own
    window box with it where that box is the window)."""

    model_chosen = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.models: ModelTable = load_models()
        self.project: Project | None = None
        self.registry: Registry | None = None
        self.room: Headroom | None = None
        self.catch_up = CatchUp(self, self.update_now, DELAY_MS, stale=True)
        self.job = LatestJob(self)
        self.tokens_box = QSpinBox(self)
        self.tokens_box.setRange(0, NUMBER_OPTIONS["context_tokens"])
        self.tokens_box.setSingleStep(10_000)
        self.tokens_box.setSpecialValueText("unknown")
        self.tokens_box.setSuffix(" tokens")
        self.tokens_box.setToolTip(
            "The model's context window: the listing's budget follows it where the agent's "
            "does (unknown: the agent's default budget)"
        )
        self.tokens_box.valueChanged.connect(lambda _v: self._tokens_edited())
        self.model_box = QComboBox(self)
        self.model_box.setToolTip(
            "A known model: its context window fills the window box (Settings › Models "
            "lists them and keeps your own)"
        )
        self.model_box.activated.connect(lambda _i: self.choose(self.model_box.currentData()))
        self.fill_models()
        self.line = ElidedLines(self)  # (in a short dock: the lines that fit, "…")
        self.line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        for column, tip in enumerate(COLUMN_TIPS):
            header_item = self.table.horizontalHeaderItem(column)
            if header_item is not None and tip:
                header_item.setToolTip(tip)
        self.table.verticalHeader().hide()
        # one line a row (Qt's default is taller): four rows and more at 1024x768
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        # a short dock: the header and a row at least, then the page keeps its height
        self.table.setMinimumHeight(3 * (self.fontMetrics().height() + 8))
        self.setProperty(KEEPS_ITS_HEIGHT, True)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.window_row = QWidget(self)  # hidden when the panel's own option is the window
        top = QHBoxLayout(self.window_row)
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(QLabel("Context window:", self.window_row))
        top.addWidget(self.tokens_box)
        choose = QHBoxLayout()
        choose.addWidget(QLabel("Model:", self))
        choose.addWidget(self.model_box)
        choose.addWidget(self.window_row)
        choose.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(choose)
        layout.addWidget(self.line)
        layout.addWidget(self.table, 1)

    def set_project(
        self, project: Project | None, registry: Registry | None, tokens: int | None = None
    ) -> None:
        """The project Try a Request answers for; its context window as configured, or
        `tokens` when the panel's own option is the window (then only that one shows)."""
        self.window_row.setVisible(tokens is None)
        if tokens is None and project is not None:
            configured = project.options.get("context_tokens")
            tokens = configured if isinstance(configured, int) else 0
        changed = project is not self.project or (tokens or 0) != self.tokens_box.value()
        self.project, self.registry = project, registry
        self.tokens_box.blockSignals(True)
        self.tokens_box.setValue(tokens or 0)
        self.tokens_box.blockSignals(False)
        named = project.options.get("model") if project is not None else None
        kept = self.model_box.currentData() or named  # (a model just chosen, else the project's)
        self.show_model(kept if isinstance(kept, str) else None)
        if changed:
            self.changed()

    # -- the model chooser -------------------------------------------------------------
    def fill_models(self, table: ModelTable | None = None) -> None:
        """The chooser's rows: the table's models (read again: Settings may have changed
        the user's), each with its window."""
        self.models = table if table is not None else load_models()
        kept = self.model_box.currentData()
        self.model_box.blockSignals(True)
        self.model_box.clear()
        self.model_box.addItem("choose a model…", None)
        for row in self.models.rows:
            self.model_box.addItem(f"{row.name} ({counted(row.context_tokens, 'token')})", row.name)
        self.model_box.blockSignals(False)
        self.show_model(kept)

    def choose(self, name: object) -> None:
        """A model picked: its window fills the window box (or the panel's, when the
        panel's own option is the window: `model_chosen`)."""
        row = self.models.get(name) if isinstance(name, str) else None
        if row is None:
            return
        tokens = min(row.context_tokens, self.tokens_box.maximum())
        if self.window_row.isHidden():
            self.model_chosen.emit(tokens)
        else:
            self.tokens_box.setValue(tokens)
        self.show_model(row.name)

    def show_model(self, name: str | None) -> None:
        """The chooser on `name` when its window is the one shown, else on none."""
        row = self.models.get(name) if name else None
        matches = row is not None and row.context_tokens == self.tokens_box.value()
        found = self.model_box.findData(name) if matches else 0
        self.model_box.blockSignals(True)
        self.model_box.setCurrentIndex(max(found, 0))
        self.model_box.blockSignals(False)

    def _tokens_edited(self) -> None:
        self.show_model(self.model_box.currentData())
        self.changed()

    def changed(self) -> None:
        """The skills or the window changed: worked out again (when shown)."""
        self.catch_up.soon()

    def options(self) -> dict[str, Any]:
        options = dict(self.project.options) if self.project is not None else {}
        options.pop("context_tokens", None)
        if self.tokens_box.value():
            options["context_tokens"] = self.tokens_box.value()
        return options

    def update_now(self) -> None:
        registry = self.registry
        if registry is None:
            self.job.drop()
            self.line.setText("Open a folder of skills to see its listing headroom.")
            return
        copy, options = snapshot(registry), self.options()
        self.line.setText("Working out the listing…")
        self.job.submit(lambda: listing_headroom(copy, options), self._landed)

    def _landed(self, room: Headroom | None, error: str | None) -> None:
        if room is None:
            self.line.setText(f"The listing headroom is not known: {error}")
            return
        self.room = room
        agents = ", ".join(a.title for a in AGENTS if a.profile == room.profile)
        counts = (
            " Description: its own characters, as the form counts them; In the listing: "
            'what it adds to the skill\'s entry, as the budget counts it (": " before it '
            "and the like included)."
            if room.counts_descriptions and room.costs
            else ""
        )
        own = room.agent_skills  # the agent's own entries: in the budget, not the author's
        theirs = (
            f" The agent's own {counted(len(own), 'entry', 'entries')} "
            f"({', '.join(own)}) are listed too and share the budget."
            if own
            else ""
        )
        self.line.setText(headroom_line(room, agents) + theirs + counts)
        shortened, dropped = set(room.shortened), set(room.dropped)
        costs = [c for c in room.costs if not c.own][:SHOWN]
        self.table.setRowCount(len(costs))
        for row, cost in enumerate(costs):
            state = (
                " (left out)"
                if cost.skill in dropped
                else " (name only or cut)"
                if cost.skill in shortened
                else ""
            )
            self.table.setItem(row, 0, QTableWidgetItem(cost.skill + state))
            listed = f"{cost.chars:,}" if room.counts_descriptions else NOT_APART
            for column, text in ((1, f"{cost.description:,}"), (2, listed)):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                item.setToolTip(
                    COLUMN_TIPS[column]
                    if text != NOT_APART
                    else f"{room.profile}'s listing writes each entry whole: a description's "
                    "share of it is not counted apart"
                )
                self.table.setItem(row, column, item)
        self.table.resizeColumnToContents(1)
        self.table.resizeColumnToContents(2)
