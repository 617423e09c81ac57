"""The form's "competes with: X (0.82), Y (0.64)" line under the description.

Where the model chooses, two skills whose descriptions say the same thing compete
for the same requests (docs/commands.md, core/ranking/overlap.py). As the author types,
the line names the skills the one on screen competes with, scored against the
project's overlap index (the overlap model's: descriptions whole, the project's skills
only; built off the GUI thread, kept current per edit), so the project's pairs and
scores are `skillstudio overlap`'s and the Overlap Map's; about a millisecond at
10,000 skills (core/ranking/rivals.py). Try a Request's index is not it: it reads the
listing as its budget cuts it and holds the agent's own skills, and its counts gave
other pairs (a reviewer's parallel-debugging: "no other skill" where the map listed
two). A name is a link that opens that skill; the agent's own skills (Claude Code's
bundled ones, Codex's system skills: the model weighs them too, the Overlap Map, which
lists the project's pairs, does not) are scored against the project's counts without
changing them, marked "(claude-code's own)", and their link shows what the model
reads of them, as they have no file to open.
"""

from __future__ import annotations

import html
import time
from collections.abc import Iterator

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QCursor, QShowEvent
from PySide6.QtWidgets import QLabel, QToolTip, QWidget

from ...core.model.skills import Skill
from ...core.ranking.likely_index import LikelyIndex
from ...core.ranking.overlap import OVERLAP_MODEL, THRESHOLD
from ...core.ranking.rivals import with_own_steps
from ..infra.likely_jobs import LikelyIndexes
from ..infra.theme import colour, on_theme_change
from ..models.skill_document import SkillDocument

DELAY_MS = 150  # after the document's own (debounced) re-validation
SHOWN = 5
STEP_MS = 4  # a look-up's share of the GUI thread per event-loop turn after an edit

TIP = (
    "Skills whose name and description share this one's distinctive words, with how "
    f"much (cosine similarity, 0 to 1; pairs from {THRESHOLD:.2f} are shown, as `skillstudio "
    "overlap` lists them). A model may pick either for the same request: make each "
    "description say what sets it apart. Click a name to open that skill. The agent's "
    "own skills (built in, no file to open; the Overlap Map lists the project's pairs "
    "only) are marked: click one to read its description."
)


def own_note(skill: Skill, origin: str) -> str:
    """What a click on one of the agent's own skills shows: that it is built in, and
    the description the model reads of it."""
    agent = skill.fields.get("agent_skill") or "the agent"
    where = f" ({origin})" if origin else ""
    return (
        f"{skill.name} is {agent}'s own skill{where}: it cannot be opened or edited "
        f"here. The model weighs it against yours; what it reads of it:\n"
        f"{skill.description}"
    )


class CompetesLine(QLabel):
    """Signals:
    open_requested(str): the SKILL.md path of a competing skill the user clicked.
    """

    open_requested = Signal(str)

    def __init__(
        self, document: SkillDocument, indexes: LikelyIndexes, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.document = document
        self.indexes = indexes
        self.competitors: list[tuple[Skill, float]] = []
        self._own: tuple[object, list[Skill]] | None = None  # (profile, its own skills)
        self.working = True  # the index is still being built (or the line not shown yet)
        self.setObjectName("competes-with")
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.setToolTip(TIP)
        self.note = ""  # the last note shown for one of the agent's own skills
        self.linkActivated.connect(self._activated)
        self.linkHovered.connect(self._hovered)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DELAY_MS)
        self.timer.timeout.connect(self.update_soon)
        self.stepper = QTimer(self)  # the next step of a look-up under way
        self.stepper.setInterval(0)
        self.stepper.timeout.connect(self._step)
        self._steps: Iterator[list[tuple[Skill, float]] | None] | None = None
        self._began: tuple[object, int, int] = (None, -1, -1)
        # bound methods: disconnected when the line goes (the document may outlive it)
        document.diagnostics_changed.connect(self._on_checked)
        indexes.ready.connect(self._on_ready)
        on_theme_change(self, self._show)  # the muted notes are in the theme's grey
        # Worked out once shown, not before: the overlap index it reads (about 28 MB
        # and 2.5 s of a worker at 10,000 skills) is built for the first line shown.
        self.due = True  # an edit or an index landed while it was not shown
        self._show()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self.due:
            self.update_now()

    def _own_skill(self, href: str) -> Skill | None:
        """The agent's own skill the link `href` names, or None (a skill of the project)."""
        for skill, _score in self.competitors:
            if skill.path == href and skill.fields.get("agent_skill"):
                return skill
        return None

    def _activated(self, href: str) -> None:
        own = self._own_skill(href)
        if own is None:
            self.open_requested.emit(href)
            return
        self.note = own_note(own, self.document.registry.profile.own_origin())
        QToolTip.showText(QCursor.pos(), self.note, self)

    def _hovered(self, href: str) -> None:
        own = self._own_skill(href) if href else None
        origin = self.document.registry.profile.own_origin()
        self.setToolTip(own_note(own, origin) if own is not None else TIP)

    def _on_checked(self, _diagnostics: object) -> None:
        if self.isVisible():
            self.timer.start()
        else:
            self.due = True

    def _on_ready(self, registry: object) -> None:
        if registry is not self.document.registry:
            return
        if self.isVisible():
            self.update_now()
        else:
            self.due = True

    def _follow(self, index: LikelyIndex) -> None:
        """Bring the index up to date for this skill only (a full sync walks every
        skill: 10,000 at a time; the others are synced by Try a Request and refreshes)."""
        path = self.document.path
        skill = self.document.registry.by_path.get(path)
        key = skill.key if skill is not None else None
        doc = index.docs.get(path)
        if (
            skill is not None
            and key is not None
            and self.document.registry.active.get(key) is skill
        ):
            if doc is None or doc.skill is not skill:
                index.add(skill)
        elif doc is not None:
            index.remove(path)

    def _agent_skills(self) -> list[Skill]:
        """The agent's own skills at the project's options (read once per profile)."""
        profile = self.document.registry.profile
        if self._own is None or self._own[0] is not profile:
            try:
                self._own = (profile, profile.agent_skills(profile.own_options))
            except Exception:  # a nicety: the project's pairs are shown without them
                self._own = (profile, [])
        return self._own[1]

    def update_now(self) -> None:
        """The line worked out at once (a form shown, an index landed)."""
        steps = self._begin()
        if steps is not None:
            self._advance(steps, None)

    def update_soon(self) -> None:
        """The line worked out a step at a time between events (after an edit: a
        look-up is about 30 ms at 10,000 skills, a keystroke's stall if done at once),
        started again if the index changes meanwhile."""
        steps = self._begin()
        if steps is not None:
            self._steps = steps
            self._advance(steps, time.perf_counter() + STEP_MS / 1000)

    def _state(self) -> tuple[object, int, int]:
        """What a look-up under way reads: the index, the registry's version and the
        skills indexed (another form's line adds its own skill's edit to the index)."""
        registry = self.document.registry
        index = self.indexes.peek(registry, OVERLAP_MODEL)
        return index, registry.version, len(index.docs) if index is not None else -1

    def _begin(self) -> Iterator[list[tuple[Skill, float]] | None] | None:
        """The look-up's steps, or None when the index is still being built (the line
        says so; `ready` brings it back here)."""
        self.timer.stop()
        self.stepper.stop()
        self._steps = None
        self.due = False
        registry = self.document.registry
        # the overlap model's index (descriptions whole, the project's skills only): the
        # Overlap Map's and `skillstudio overlap`'s pairs and scores, not Try a Request's
        # index (the listing's cuts and the agent's own skills changed its counts)
        index = self.indexes.peek(registry, OVERLAP_MODEL)
        if index is None:  # built off the GUI thread; `ready` follows
            index = self.indexes.get(registry, OVERLAP_MODEL)
        else:
            self._follow(index)
        self.working = index is None
        if index is None:
            self.competitors = []
            self._show()
            return None
        self._began = self._state()
        return with_own_steps(index, self.document.path, self._agent_skills(), SHOWN)

    def _step(self) -> None:
        steps = self._steps
        if steps is None:
            self.stepper.stop()
        elif self._state() != self._began:  # an edit or a sync changed the index
            self.update_soon()
        else:
            self._advance(steps, time.perf_counter() + STEP_MS / 1000)

    def _advance(
        self, steps: Iterator[list[tuple[Skill, float]] | None], deadline: float | None
    ) -> None:
        """Steps taken until the answer (shown) or `deadline` (the rest on the next
        event-loop turns); None: no deadline."""
        try:
            for step in steps:
                if step is not None:
                    self._finish(step)
                    return
                if deadline is not None and time.perf_counter() >= deadline:
                    self.stepper.start()
                    return
        except Exception:  # a nicety: a core bug here must not break the form
            pass
        self._finish([])

    def _finish(self, competitors: list[tuple[Skill, float]]) -> None:
        self.stepper.stop()
        self._steps = None
        self.competitors = competitors
        self._show()

    def _show(self) -> None:
        muted = colour("muted")
        if self.working or not self.competitors:
            note = "working it out…" if self.working else "no other skill"
            self.setText(f'<span style="color:{muted}">competes with: {note}</span>')
            return
        links = ", ".join(
            f'<a href="{html.escape(skill.path)}">{html.escape(skill.name)}</a> '
            + (
                f"({html.escape(str(skill.fields['agent_skill']))}'s own, {score:.2f})"
                if skill.fields.get("agent_skill")
                else f"({score:.2f})"
            )
            for skill, score in self.competitors
        )
        self.setText(f"competes with: {links}")
