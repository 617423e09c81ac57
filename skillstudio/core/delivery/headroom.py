"""Listing headroom: does the whole installed set fit an agent's listing budget?

The listing is written by the profile's own code (tiers.render_listing and the
profile's render_listing hook), twice: at the chosen budget, and with no budget (what
every description would take). The difference says which skills fall to a bare name
(or a cut description) and which are left out, and each entry's two lengths say what
one description costs. Nothing here knows an agent's rules.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..model.diagnostics import Diagnostic, Severity
from ..model.text import counted, first_named
from ..scanning.registry import Registry
from .tiers import render_listing

UNBOUNDED = 10**12  # a character budget no listing reaches


@dataclass(slots=True)
class DescriptionCost:
    """Two counts of one skill's description, which differ: `chars` is what it adds to
    the skill's entry in the listing, as the agent writes it (Claude Code: ": " before
    it, its `when_to_use` after " - ", cut at its cap; so a 1,068-character description
    adds 1,070), `description` is its own length, as the form's counter and the
    limit checks count it (characters of the parsed value)."""

    skill: str
    chars: int  # what its description adds to its entry (0: no description)
    description: int = 0
    own: bool = False  # one of the agent's own entries (Headroom.agent_skills)

    def to_json(self) -> dict[str, Any]:
        return {
            "skill": self.skill,
            "chars": self.chars,
            "description": self.description,
            "own": self.own,
        }


@dataclass(slots=True)
class Headroom:
    """One agent's listing of one set of skills at one budget."""

    profile: str
    budget: int | None
    needed: int  # characters the budget counts with every description whole
    used: int  # characters the budget counts as listed
    skills: int  # active skills
    listed: list[str] = field(default_factory=list)
    shortened: list[str] = field(default_factory=list)  # description cut or dropped
    dropped: list[str] = field(default_factory=list)  # over the budget: not listed at all
    not_listed: list[dict[str, str]] = field(default_factory=list)  # the agent's own rules
    # the entries the agent lists itself (Claude Code's bundled skills, Codex's system
    # skills), among `listed`: they share the budget, and no author can shorten them;
    # those of them among `shortened` and `dropped` (not in to_json: a skill of the
    # author's may share a name with one)
    agent_skills: list[str] = field(default_factory=list)
    own_shortened: list[str] = field(default_factory=list)
    own_dropped: list[str] = field(default_factory=list)
    costs: list[DescriptionCost] = field(default_factory=list)  # largest first
    note: str = ""
    # whether the profile's listing counts a description apart from its entry (a
    # profile that writes whole entries, as agentskills, says 0 for every one)
    counts_descriptions: bool = True
    # what budget, needed, used and the costs count: characters, or tokens (Codex at a
    # known context window: UTF-8 bytes / 4 per line, rounded up)
    unit: str = "characters"

    @property
    def headroom(self) -> int | None:
        """Characters left with every description whole (negative: over the budget)."""
        return None if self.budget is None else self.budget - self.needed

    def cost_of(self, name: str) -> DescriptionCost | None:
        return next((c for c in self.costs if c.skill == name), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "budget": self.budget,
            "needed": self.needed,
            "used": self.used,
            "headroom": self.headroom,
            "skills": self.skills,
            "listed": self.listed,
            "shortened": self.shortened,
            "dropped": self.dropped,
            "not_listed": self.not_listed,
            "agent_skills": self.agent_skills,
            "costs": [c.to_json() for c in self.costs],
            "note": self.note,
            "counts_descriptions": self.counts_descriptions,
            "unit": self.unit,
        }


def listing_headroom(registry: Registry, options: dict[str, Any] | None = None) -> Headroom:
    """The registry's listing at the budget `options` give (context_tokens, char_budget,
    the profile's settings), against the same listing with no budget (counted in the
    same unit: a budget in tokens is lifted as `token_budget`)."""
    options = dict(options or {})
    real = render_listing(registry, options)
    lifted = "token_budget" if real.budget_unit == "tokens" else "char_budget"
    whole = render_listing(registry, {**options, lifted: UNBOUNDED})
    left = Counter(real.listed)
    dropped: list[str] = []
    for name in whole.listed:
        if left[name]:
            left[name] -= 1
        else:
            dropped.append(name)
    listed = Counter(whole.listed)
    not_listed = [o for o in whole.omitted if not listed[o["skill"]]]
    active = registry.active
    own = set(whole.agent_own)  # indexes of whole.entries
    costs = sorted(
        (
            DescriptionCost(name, full - bare, own=True)
            if index in own
            else DescriptionCost(name, full - bare, len(active[name].description))
            if name in active
            else DescriptionCost(name, full - bare)
            for index, (name, full, bare) in enumerate(whole.entries)
        ),
        key=lambda c: (-c.chars, -c.description, c.skill),
    )
    own_whole = Counter(whole.listed[i] for i in whole.agent_own)
    own_real = Counter(real.listed[i] for i in real.agent_own)
    needed, used = whole.budget_counted, real.budget_counted  # as the Tiers meter counts
    return Headroom(
        profile=registry.profile.name,
        budget=real.budget,
        needed=needed,
        used=used,
        skills=len(registry.active),
        listed=list(real.listed),
        shortened=list(real.shortened),
        dropped=dropped,
        not_listed=not_listed,
        agent_skills=[whole.listed[i] for i in whole.agent_own],
        own_shortened=list(real.shortened_own),
        own_dropped=list((own_whole - own_real).elements()),
        costs=costs,
        note=real.note,
        counts_descriptions=any(full != bare for _, full, bare in whole.entries),
        unit=real.budget_unit,
    )


LISTING_OVER_BUDGET = "listing-over-budget"
NAMED = 5  # skills named in the note (the rest counted)


# where a note about the whole listing stands: a file (or folder), its line and column
# (0, 0: no line); core/projects/open_project.py `OpenProject.listing_place`
Place = tuple[str, int, int]


def listing_over_budget(
    registry: Registry, options: dict[str, Any] | None, at: Place | None = None
) -> list[Diagnostic]:
    """The `listing-over-budget` note of `registry`'s listing at `options` (none, or
    one; rules not applied: the caller's), at `at`; none when `options` turn it off."""
    if registry.profile.rules.get(LISTING_OVER_BUDGET) == "off" or not registry.active:
        return []
    try:
        note = over_budget_note(registry, listing_headroom(registry, options), at)
    except Exception:  # a nicety of the set: a failure here never hides other findings
        return []
    return [note] if note is not None else []


def over_budget_note(
    registry: Registry, room: Headroom, at: Place | None = None
) -> Diagnostic | None:
    """`listing-over-budget` (warning), one per project and profile, when the listing
    `room` (`listing_headroom` of `registry`) costs a skill its description (cut or
    dropped: a bare name) or its place: how many, which (the author's skills first: an
    agent's own, Codex's system skills, are not the author's to shorten), by how much
    the set is over and the longest descriptions (what would make room). A note about
    the whole listing, no one skill's: it stands `at` the place the project sets the
    budget (its skillstudio.yaml), else on the registry's last root, with no line.
    None within the budget."""
    if room.budget is None or not (room.shortened or room.dropped):
        return None
    unit = "tokens" if room.unit == "tokens" else "characters"
    # the agent's own entries are never the author's to shorten: named after the author's
    shortened = _authors_first(room.shortened, room.own_shortened)
    dropped = _authors_first(room.dropped, room.own_dropped)
    lost = []
    if room.shortened:
        lost.append(
            f"{counted(len(room.shortened), 'skill')} "
            f"{'loses its' if len(room.shortened) == 1 else 'lose their'} description "
            f"({first_named(shortened, NAMED)})"
        )
    if room.dropped:
        verb = "is" if len(room.dropped) == 1 else "are"
        lost.append(
            f"{counted(len(room.dropped), 'skill')} {verb} left out ({first_named(dropped, NAMED)})"
        )
    over = room.needed - room.budget
    mine = [c for c in room.costs if c.chars and not c.own]
    longest = ", ".join(f"{c.skill} {c.chars:,}" for c in mine[:3])
    room_text = f"cut {over:,} {unit} of descriptions" if over > 0 else "shorten descriptions"
    message = (
        f"the {registry.profile.name} skill listing is over its budget "
        f"({room.budget:,} {unit}, {room.needed:,} needed with every description whole): "
        f"{' and '.join(lost)}; to make room {room_text}"
        + (f" (longest: {longest})" if longest else "")
        + " or install fewer skills."
    )
    if at is None:
        at = (registry.roots[-1].path if registry.roots else "", 0, 0)
    path, line, column = at
    return Diagnostic(LISTING_OVER_BUDGET, _severity(registry), message, path, line, column)


def _severity(registry: Registry) -> Severity:
    return registry.profile.severity_of(LISTING_OVER_BUDGET)


def _authors_first(names: list[str], own: list[str]) -> list[str]:
    """`names` with the agent's own entries (`own`, names that may also be the author's)
    moved after the author's skills, order kept."""
    left = Counter(own)
    mine, theirs = [], []
    for name in reversed(names):  # (of two entries of one name, which is whose: the same text)
        if left[name]:
            left[name] -= 1
            theirs.append(name)
        else:
            mine.append(name)
    return mine[::-1] + theirs[::-1]
