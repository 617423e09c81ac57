"""What an agent is shown or given: a tier's exact text, and an activation's content."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .diagnostics import Diagnostic
from .text import counted

Invoker = Literal["model", "user"]

TIER_NAMES = ("nothing", "breadcrumb", "registry listing", "full instructions")


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


@dataclass(slots=True)
class TierText:
    tier: int
    text: str
    budget: int | None = None
    listed: list[str] = field(default_factory=list)
    omitted: list[dict[str, str]] = field(default_factory=list)
    used: bool = False
    note: str = ""
    diagnostics: list[Diagnostic] = field(default_factory=list)  # `internal`, per skill
    # tier 2, for the listing headroom (not in to_json): the characters the budget counts,
    # and per listed entry (name, characters with its description, characters as a bare
    # name), each with its line end; the skills shown with a cut or no description
    spent: int | None = None
    entries: list[tuple[str, int, int]] = field(default_factory=list)
    shortened: list[str] = field(default_factory=list)
    # per listed skill shown without its whole description: the characters of it the
    # listing keeps (0: a bare name); what the likely ranking reads (`view`)
    cut: dict[str, int] = field(default_factory=dict)
    # the skills the budget left out of the listing altogether (not in to_json)
    budget_dropped: list[str] = field(default_factory=list)
    # the entries the agent adds itself (Claude Code's bundled skills and built-in
    # commands, Codex's system skills), as indexes of `listed` and `entries` (a skill of
    # the author's may share a name with one), and the names of those among `shortened`:
    # no author can shorten them (not in to_json)
    agent_own: list[int] = field(default_factory=list)
    shortened_own: list[str] = field(default_factory=list)
    # what the budget (and `spent`, `entries`) counts: "characters", or "tokens" where the
    # agent counts tokens (Codex with a known context window); in JSON when not characters
    budget_unit: str = "characters"
    # the settings tier 2 was written for (context_tokens, char_budget, ...), for a
    # profile that writes its listing whole (Profile.render_listing); not in JSON
    options: Mapping[str, Any] = field(default_factory=dict)
    # tier 2: what its text is when not the agent's own listing (Profile.listing_form:
    # an agent whose format is not known, shown in the standard's form); not in JSON
    form: str = ""

    @property
    def chars(self) -> int:
        return len(self.text)

    def view(self, profile: str) -> ListingView:
        """What this listing (tier 2) shows of each skill, for the likely ranking."""
        return ListingView(profile, self.budget, self.budget_unit, frozenset(self.listed), self.cut)

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.text)

    @property
    def budget_counted(self) -> int:
        """What the budget counts of this tier, in `budget_unit`: the agent's own count
        where the listing keeps one (`spent`: Codex counts its listing's lines, not the
        message around them), else the whole text. The one number every caller compares
        with the budget (the Tiers meter, `prompt`, headroom, lint)."""
        if self.spent is not None:
            return self.spent
        return self.tokens if self.budget_unit == "tokens" else self.chars

    @property
    def over_budget(self) -> bool:
        """Whether the budget cost this listing something: a skill's description (cut
        or dropped), a skill's place, or it counts more than the budget (names alone
        over it). False with no budget."""
        if self.budget is None:
            return False
        return bool(self.shortened or self.budget_dropped) or self.budget_counted > self.budget

    def budget_note(self) -> str:
        """'6,110 of 8,000 characters counted against the budget (fits); the block is
        8,449 characters with the agent's wrapper' where what the budget counts is not
        the whole text (Codex's listing: its lines, not the message around them); ''
        where it is, or with no budget."""
        against = self._against()
        if not against:
            return ""
        block = counted(self.chars, "character")
        return f"{against}; the block is {block} with the agent's wrapper"

    def _against(self) -> str:
        if self.budget is None or (
            self.budget_unit == "characters" and self.budget_counted == self.chars
        ):
            return ""
        state = "over" if self.over_budget else "fits"
        budget = counted(self.budget, self.budget_unit[:-1])
        return f"{self.budget_counted:,} of {budget} counted against the budget ({state})"

    def size_line(self) -> str:
        """The tier's size and, with a budget, what the budget counts of it: `prompt`'s
        line ('8,449 of 8,000 characters, ~2,113 tokens', or its size and what the budget
        counts: '8,449 characters, ~2,113 tokens; 6,110 of 8,000 characters counted
        against the budget (fits)')."""
        tokens = counted(self.tokens, "token")
        against = self._against()
        if against:
            return f"{counted(self.chars, 'character')}, ~{tokens}; {against}"
        if self.budget:
            return f"{self.chars:,} of {counted(self.budget, 'character')}, ~{tokens}"
        return f"{counted(self.chars, 'character')}, ~{tokens}"

    def to_json(self, profile: str) -> dict[str, Any]:
        return {
            "profile": profile,
            "tier": self.tier,
            "name": TIER_NAMES[self.tier],
            "used": self.used,
            "text": self.text,
            "chars": self.chars,
            "tokens": self.tokens,
            "budget": self.budget,
            "listed": self.listed,
            "omitted": self.omitted,
            "note": self.note,
            "diagnostics": [d.to_json() for d in self.diagnostics],
        } | ({"budget_unit": self.budget_unit} if self.budget_unit != "characters" else {})


Shown = Literal["whole", "cut", "name", "out"]


@dataclass(frozen=True, slots=True)
class ListingView:
    """What an agent's listing shows of each skill at one budget (`TierText.view`): the
    likely ranking reads a skill through it (core/ranking/likely_index.py), as the model
    does: a skill shown by a bare name ranks by its name, one left out is never likely."""

    profile: str
    budget: int | None
    unit: str  # what the budget counts: characters or tokens
    listed: frozenset[str]  # the names of the skills listed
    cut: Mapping[str, int]  # name -> characters of its description kept (0: a bare name)

    def shows(self, name: str) -> Shown:
        """How much of the skill named `name` the listing shows."""
        if name not in self.listed:
            return "out"
        kept = self.cut.get(name)
        return "whole" if kept is None else "cut" if kept else "name"

    def note(self, name: str) -> str:
        """What the model sees of the skill, in words, when not its whole entry ("")."""
        shown = self.shows(name)
        budget = (
            f"the {self.budget:,}-{self.unit.rstrip('s')} budget"
            if self.budget is not None
            else "its budget"
        )
        if shown == "out":
            return f"left out of the {self.profile} listing ({budget}): the model cannot pick it"
        if shown == "name":
            return (
                f"only its name is in the {self.profile} listing: its description is dropped "
                f"to fit {budget}"
            )
        if shown == "cut":
            kept = self.cut[name]
            return (
                f"its description is cut to {counted(kept, 'character')} in the {self.profile} "
                f"listing ({budget}): the rest is not read"
            )
        return ""


@dataclass(slots=True)
class Activation:
    profile: str
    skill: str
    mode: str = "inline"
    content: str = ""
    payload: dict[str, Any] = field(default_factory=dict)
    error: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # `internal`, if it failed

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        if self.error is not None:
            data: dict[str, Any] = {
                "profile": self.profile,
                "skill": self.skill,
                "error": self.error,
            }
            if self.diagnostics:
                data["diagnostics"] = [d.to_json() for d in self.diagnostics]
            return data
        data = {
            "profile": self.profile,
            "skill": self.skill,
            "mode": self.mode,
            "content": self.content,
            "notes": self.notes,
        }
        data.update(self.payload)
        return data
