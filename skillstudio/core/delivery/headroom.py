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

    def to_json(self) -> dict[str, Any]:
        return {"skill": self.skill, "chars": self.chars, "description": self.description}


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
    costs = sorted(
        (
            DescriptionCost(name, full - bare, len(active[name].description))
            if name in active
            else DescriptionCost(name, full - bare)
            for name, full, bare in whole.entries
        ),
        key=lambda c: (-c.chars, -c.description, c.skill),
    )
    needed = whole.spent if whole.spent is not None else len(whole.text)
    used = real.spent if real.spent is not None else len(real.text)
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
        costs=costs,
        note=real.note,
        counts_descriptions=any(full != bare for _, full, bare in whole.entries),
        unit=real.budget_unit,
    )
