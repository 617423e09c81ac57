"""Small parts of Try a Request (gui/panels/workbench/query_panel.py): a label that keeps the
dock from scrolling, the request's row, the Why-not names model, the summary line,
project names."""

from __future__ import annotations

import os

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSize,
    Qt,
)
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from ....core.model.matches import MatchResult
from ....core.profile import Profile
from ....core.projects.project import Project
from ....core.ranking.estimate import LikelyResult
from ....core.ranking.explanations import summary
from ....core.scanning.registry import Registry


class FixedLine(QLabel):
    """A wrapped label that does not ask for height-for-width layout: with it, the
    dock's scroll area gave the panel its whole preferred height (600 px stacked) and
    scrolled, instead of fitting the panel to the dock down to its minimum.

    It asks for the height its text takes at its present width instead (the plain
    QLabel hint, measured at a guessed width, took 42-98 px for one or two lines of
    14 px, room the ranking below needed at 1024x640)."""

    def hasHeightForWidth(self) -> bool:
        return False

    def _fitted(self, size: QSize) -> QSize:
        if self.wordWrap() and self.width() > 0:
            size.setHeight(self.heightForWidth(self.width()))
        return size

    def sizeHint(self) -> QSize:
        return self._fitted(super().sizeHint())

    def minimumSizeHint(self) -> QSize:
        return self._fitted(super().minimumSizeHint())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.updateGeometry()  # another width may take another number of lines


class SpillingRow:
    """A row of widgets (`first`) whose trailing ones go under it, to the right
    (`second`), when beside the stretching widget they would leave it under `keep` px:
    Try a Request's option and "Add as test case…" (at 1024 px the codex option's label
    left the request 59 px)."""

    def __init__(
        self, fixed: list[QWidget], stretch: QWidget, spill: list[QWidget], keep: int
    ) -> None:
        self.first, self.second = QHBoxLayout(), QHBoxLayout()
        for widget in fixed:
            self.first.addWidget(widget)
        self.first.addWidget(stretch, 1)
        for widget in spill:
            self.first.addWidget(widget)
        self.second.addStretch(1)
        self.fixed, self.spill, self.keep = fixed, spill, keep
        self.below = False  # the trailing widgets are on the second row

    def fit(self, width: int) -> None:
        shown = [w for w in self.fixed + self.spill if not w.isHidden()]
        used = sum(w.sizeHint().width() for w in shown) + self.first.spacing() * len(shown)
        below = width - used < self.keep
        if below == self.below:
            return
        self.below = below
        source, target = (self.first, self.second) if below else (self.second, self.first)
        for widget in self.spill:
            source.removeWidget(widget)
            target.addWidget(widget)


class NamesModel(QAbstractListModel):
    """The "Why not" choices: FIRST (data "": the explanation is of the selected row)
    and every skill's name (data: the name). A model of its own, not 10,000 addItem
    calls (37 ms and more). FIRST reads as what to do: "(the selected row)" beside
    "Why not:" read as a question about the row already explained."""

    FIRST = "pick a skill…"

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.names: list[str] = []
        self.rows: dict[str, int] = {}
        self.key: tuple[int, int] = (0, 0)  # (registry, version) the names are of
        self.of: dict[str, str] = {}  # path -> name, of those names

    def names_of(self, registry: Registry | None) -> list[str] | None:
        """The registry's sorted skill names when they may differ from the shown ones,
        else None: typing a request, or an edit that kept every name (the registry's
        change list says which skills changed), sorts nothing (10,000: 10-20 ms)."""
        key = (id(registry), registry.version if registry is not None else 0)
        if key == self.key:
            return None
        old, self.key = self.key, key
        if registry is not None and key[0] == old[0]:
            changed, now = registry.changed_since(old[1]), registry.by_path
            if changed is not None and all(
                p in now and self.of.get(p) == now[p].name for p in changed
            ):
                return None
        self.of = {s.path: s.name for s in registry.skills} if registry is not None else {}
        names = sorted(set(self.of.values()))
        return names if names != self.names else None

    def set_names(self, names: list[str]) -> None:
        self.beginResetModel()
        self.names = names
        self.rows = {name: number + 1 for number, name in enumerate(names)}
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.names) + 1

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> str | None:
        row = index.row()
        if not index.isValid() or not 0 <= row <= len(self.names):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.names[row - 1] if row else self.FIRST
        if role == Qt.ItemDataRole.UserRole:
            return self.names[row - 1] if row else ""
        return None


def summary_text(result: MatchResult) -> str:
    """The outcome in one line. Where the model chooses (a heuristic ranking) nothing is
    selected by rule, so the line says what the ranking is instead of "No skill is
    selected"; an explicit invocation keeps the engine's own sentence."""
    if not result.heuristic or result.selected or result.capability_request:
        return summary(result)
    if not result.total:
        return "Estimate: the model chooses; no skill shares a word with the request."
    skills = "skill shares" if result.total == 1 else "skills share"
    return (
        f"Estimate: the model chooses; {result.total:,} {skills} words with the request "
        "(best first). Only /name, $name or 'use <name> skill' selects one."
    )


def request_hint(profile: Profile | None) -> str:
    """The request box's placeholder: what Enter does under this profile (QueryPanel.send
    answers at once; only where activation follows the session, what the request
    activates counts for the next ones)."""
    if profile is not None and profile.uses_session:
        return "Type a request, as a user would (Enter: send it in the session)"
    return "Type a request, as a user would (answered as you type; Enter: at once)"


def project_label(project: Project) -> str:
    """A project by its folder's name; the profile only where the name does not say it."""
    folder = os.path.basename(os.path.normpath(project.base)) or project.base
    profile = project.profile.name
    return folder if folder == profile else f"{folder} · {profile}"


def likely_summary(result: MatchResult, likely: LikelyResult | None, waiting: bool) -> str:
    """The summary line with the likely candidates: who is likely, or the engine's
    sentence (and "working out…" while the likely index is being built). With none
    likely it names the first row (the one selected below it) and its band: under "No
    skill is likely" a highlighted "possible" row read as a contradiction."""
    if likely is None or result.selected:
        more = " Working out the likely candidates…" if waiting and not result.selected else ""
        return summary_text(result) + more
    names = [c.name for c in likely.likely]
    if names:
        # It said "none is selected", read against the tier line's "would be loaded".
        them = "it" if len(names) == 1 else "them"
        return f"Likely: {', '.join(names)} (an estimate: the model would probably load {them})."
    if not likely.candidates:
        return "No skill is likely for this request (an estimate: the model would load none)."
    best = likely.candidates[0]
    only = "only possible" if best.band == "possible" else "unlikely"
    return (
        f"No skill is likely for this request; the closest, {best.name}, is {only} (an estimate)."
    )


def tier_line(used: int, result: MatchResult, likely: LikelyResult | None) -> tuple[str, str]:
    """(the short line beside the headline, its tooltip): the tier the agent gets and
    what the agent does with it, naming the skills the headline names ("tier 2 ·
    Listing" beside "Likely: X" read as if X were not loaded)."""
    if used == 3 and result.selected:
        names = ", ".join(result.selected)
        return (
            f"Tier 3: {names} loaded in full",
            f"Tier 3: the agent is given the full instructions of {names}.",
        )
    if used == 2:
        listed = "Tier 2: the agent is shown the list of skills (names and descriptions)"
        if likely is None:
            return "Tier 2: the skills are listed", listed + "; the model picks from it."
        names = ", ".join(c.name for c in likely.likely)
        if not names:
            return (
                "Tier 2: listed; no skill likely loaded",
                listed + "; no skill is likely to be loaded from it (an estimate).",
            )
        return (
            f"Tier 2: listed; {names} would be loaded",
            listed + f"; the model would likely load {names} from it (an estimate).",
        )
    if used == 1:
        return "Tier 1: a hint only", "Tier 1: the agent is told skills exist, not which."
    return (
        "Tier 0: no skill shown",
        "Tier 0: the agent is shown nothing of the skills, not even their names.",
    )
