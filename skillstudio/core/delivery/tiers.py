"""Disclosure: the exact text an agent is given at tiers 0-3, in each profile's format.

Token counts are estimates: characters / 4, rounded up (a common rule of thumb
for English text with BPE tokenizers; the budgets the seeds set are in
characters, so the estimate never decides what is listed).
"""

from __future__ import annotations

import weakref
from collections.abc import Generator
from dataclasses import replace
from typing import Any

from ..model.delivered import TierText
from ..model.diagnostics import internal
from ..model.matches import MatchResult
from ..model.session import Session
from ..model.skills import Skill
from ..model.text import counted
from ..scanning.registry import Registry
from .activation import activate, delivered_body

LISTING_STEP = 500  # listing_steps yields after this many skills
# registry -> (its version, the options, the listing): the listing does not depend
# on the request, and at 10,000 skills writing it takes 30-45 ms a keystroke.
_LISTINGS: weakref.WeakKeyDictionary[Registry, tuple[int, str, TierText]] = (
    weakref.WeakKeyDictionary()
)


def render_listing(registry: Registry, options: dict[str, Any] | None = None) -> TierText:
    """Tier 2: the registry listing exactly as the profile writes it."""
    steps = listing_steps(registry, options)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            listing: TierText = done.value
            return listing


def listing_steps(
    registry: Registry, options: dict[str, Any] | None = None
) -> Generator[None, None, TierText]:
    """`render_listing` in steps of LISTING_STEP skills (it returns the listing), for a
    caller that writes it between other work: at 10,000 skills it takes 30-200 ms."""
    options = options or {}
    key = repr(sorted(options.items()))
    cached = _LISTINGS.get(registry)
    if cached is not None and cached[0] == registry.version and cached[1] == key:
        listing = cached[2]
    else:
        version = registry.version
        listing = yield from _render_listing(registry, options)
        _LISTINGS[registry] = (version, key, listing)
    return replace(
        listing,
        listed=list(listing.listed),
        omitted=list(listing.omitted),
        entries=list(listing.entries),
        shortened=list(listing.shortened),
        cut=dict(listing.cut),
        agent_own=list(listing.agent_own),
        shortened_own=list(listing.shortened_own),
        diagnostics=list(listing.diagnostics),
    )


def _left_out(out: TierText, skill: Skill, exc: Exception) -> None:
    """A skill this tier could not be written for: an `internal` diagnostic, and the
    skill among the omitted with that reason; the rest of the tier goes on."""
    diagnostic = internal(skill.path, skill.name, "rendering", exc)
    out.diagnostics.append(diagnostic)
    out.omitted.append({"skill": skill.name, "reason": diagnostic.message})


def _render_listing(registry: Registry, options: dict[str, Any]) -> Generator[None, None, TierText]:
    profile = registry.profile
    skills = list(registry.active.values())
    out = TierText(2, "", budget=profile.listing_budget(options), options=dict(options))
    out.form = profile.listing_form()
    for s in registry.skills:  # not loaded at all: skipped, disabled or shadowed
        if s.status != "active":
            why = s.status_reason or (f"shadowed by {s.winner}" if s.winner else "")
            out.omitted.append({"skill": s.name, "reason": f"{s.status}: {why}".rstrip(": ")})
    visible = profile.listed_skills(skills, options)
    if len(visible) != len(skills):
        for s in skills:
            if s not in visible:
                out.omitted.append({"skill": s.name, "reason": "not in the agent's allowlist"})
    custom = profile.render_listing(visible, out)
    if custom is not None:
        out.text = custom
        return out
    header, footer = profile.listing_frame
    used = len(header) - 1 + len(footer)  # the header's newline is counted per line
    lines: list[str] = []
    stopped = False
    for n, s in enumerate(visible, 1):
        if not n % LISTING_STEP:
            yield
        try:
            omission = profile.listing_omission(s)
            line = profile.listing_entry(s) if omission is None else ""
        except Exception as exc:  # one skill's fault leaves it out, never the listing
            _left_out(out, s, exc)
            continue
        if omission is not None:
            out.omitted.append({"skill": s.name, "reason": omission})
            continue
        if out.budget is not None and (stopped or used + len(line) + 1 > out.budget):
            if profile.over_budget == "skip":
                reason = f"over the {out.budget:,}-character budget"
            else:
                stopped = True
                reason = f"listing stopped at the {out.budget:,}-character budget"
            out.omitted.append({"skill": s.name, "reason": reason})
            out.budget_dropped.append(s.name)
            continue
        used += len(line) + 1
        lines.append(line)
        out.listed.append(s.name)
        out.entries.append((s.name, len(line) + 1, len(line) + 1))
    if not lines and profile.listing_frame_lines:
        header = header[:-1]  # the frame's lines joined, with no empty line between
    out.text = header + "\n".join(lines) + footer
    out.spent = len(out.text)  # the whole text, frame and all (`used`, less a frame's newline)
    return out


def render_tiers(
    registry: Registry,
    result: MatchResult,
    options: dict[str, Any] | None = None,
    session: Session | None = None,
    listing: bool = True,
) -> list[TierText]:
    """All four tiers for one request; the one the profile would use is marked.
    `listing=False` leaves tier 2 empty (with its budget) for a caller that renders it
    only when shown (render_listing): at 10,000 skills it takes 30-50 ms."""
    options = options or {}
    profile = registry.profile
    enabled = list(registry.active.values())
    tier0 = TierText(0, "", note="No skill text is added to the prompt.")
    tier1 = TierText(1, f"[{counted(len(enabled), 'skill')} available]", listed=[])
    if not profile.has_breadcrumb:
        tier1.note = f"{profile.name} has no breadcrumb tier; shown for comparison."
    if listing:
        tier2 = render_listing(registry, options)
    else:
        tier2 = TierText(2, "", budget=profile.listing_budget(options))
    tier3 = render_instructions(registry, result, options, session)
    tiers = [tier0, tier1, tier2, tier3]
    tiers[result.tier].used = True
    return tiers


def render_instructions(
    registry: Registry,
    result: MatchResult,
    options: dict[str, Any],
    session: Session | None,
) -> TierText:
    out = TierText(3, "")
    if not result.selected:
        out.note = "No skill is selected for this request."
        return out
    parts: list[str] = []
    for name in result.selected:
        skill = registry.active.get(name)
        if skill is None:
            continue
        try:
            parts.append(_instructions(registry, skill, result, options, session, out))
        except Exception as exc:  # one skill's fault leaves it out, never the tier
            _left_out(out, skill, exc)
            continue
        out.listed.append(name)
    out.text = "\n\n".join(parts)
    return out


def _instructions(
    registry: Registry,
    skill: Skill,
    result: MatchResult,
    options: dict[str, Any],
    session: Session | None,
    out: TierText,
) -> str:
    """One selected skill's part of tier 3."""
    profile = registry.profile
    if profile.full_tier == "body":
        try:
            body = delivered_body(skill)
        except OSError as exc:
            body = f"[error] {exc.strerror or exc}: {skill.path}"
        return profile.full_text(skill, body)
    # a name several skills share (profiles that do not shadow) is looked up by path
    act = activate(
        registry,
        skill.name if registry.active.get(skill.name) is skill else skill.path,
        result.explicit_args,
        invoker="user" if result.query.lstrip().startswith("/") else "model",
        session=Session() if session is None else session.copy(),
        options=options,
    )
    out.diagnostics.extend(act.diagnostics)
    return act.content if act.ok else f"[error] {act.error}"
