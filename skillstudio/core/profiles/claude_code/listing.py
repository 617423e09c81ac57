"""Claude Code's listing (docs/agents.md, "Claude Code's bundled skills"): the
`<system-reminder>` of the Skill tool, the user's skills then Claude Code's own entries
(its bundled skills and built-in prompt commands, core/profiles/claude_code/bundled.py),
all in one budget.

Over the budget every name stays: a bundled skill keeps its whole description (its cost
comes off the budget first), the other entries lose theirs, least used first (uses from
the `skill_usage` option; equal uses: from the end of the listing backwards), until the
entries fit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...model.skills import Skill
from ...model.text import counted
from . import settings
from .bundled import OWN_ENTRIES, OwnEntry

if TYPE_CHECKING:
    from ...model.delivered import TierText

MAX_DESC_CHARS = 1_536  # skillListingMaxDescChars: one entry's description + when_to_use
LISTING_HEAD = (
    "<system-reminder>\nThe following skills are available for use with the Skill tool:\n\n"
)
LISTING_TAIL = "\n</system-reminder>"
BUNDLED_OPTION = "bundled_skills"  # skillstudio.yaml: false leaves Claude Code's own out


def capped(text: str, cap: int) -> str:
    """`text` cut at `cap` characters, the last one then '…' (Claude Code's cap, which
    applies to every entry, bundled ones too)."""
    return text[: max(cap - 1, 0)] + "…" if len(text) > cap else text


def listing_description(skill: Skill, cap: int = MAX_DESC_CHARS) -> str:
    """description + ' - ' + when_to_use, whitespace collapsed, cut at `cap`."""
    text = skill.description
    when = skill.fields.get("when_to_use") or ""
    if when:
        text = f"{text} - {when}" if text else when
    return capped(text, cap)


def own_entries(options: Mapping[str, Any]) -> tuple[OwnEntry, ...]:
    """Claude Code's own entries at these options: none when `bundled_skills` is false."""
    return () if options.get(BUNDLED_OPTION) is False else OWN_ENTRIES


@dataclass(slots=True)
class _Line:
    name: str
    full: str
    bare: str
    skill: Skill | None = None  # None: one of Claude Code's own entries
    fixed: bool = False  # a bundled skill: never shortened


def write_listing(
    skills: list[Skill],
    out: TierText,
    options: Mapping[str, Any],
    omission: Callable[[Skill], str | None],
    mode: Callable[[Skill], str | None],
    overrides: Mapping[str, str],
) -> str:
    """The listing of `skills` (omission: why Claude Code leaves one out; mode: a skill's
    skillOverrides mode) and of Claude Code's own entries (their modes by name in the
    project's `overrides`), at `out.budget`."""
    cap = int(options.get("skill_listing_max_desc_chars") or MAX_DESC_CHARS)
    lines: list[_Line] = []
    for skill in skills:
        why = omission(skill)
        if why is not None:
            out.omitted.append({"skill": skill.name, "reason": why})
            continue
        name_only = mode(skill) == "name-only"
        desc = "" if name_only else listing_description(skill, cap)
        if name_only:  # what the likely ranking reads of it (TierText.cut)
            out.cut[skill.name] = 0
        elif desc.endswith("…") and desc != listing_description(skill, len(desc) + 1):
            out.cut[skill.name] = len(desc) - 1  # (the '…' is not the description's)
        # a name two collections share: as Claude Code lists it (`apps/web:deploy`)
        bare = f"- {skill.key if skill.qualifier and skill.key else skill.name}"
        lines.append(_Line(skill.name, f"{bare}: {desc}" if desc else bare, bare, skill))
    for own in own_entries(options):
        own_mode = overrides.get(own.name)
        why = settings.listing_omission(own_mode)
        if why is not None:
            out.omitted.append({"skill": own.name, "reason": why})
            continue
        bare = f"- {own.name}"
        full = bare if own_mode == "name-only" else f"{bare}: {capped(own.listed, cap)}"
        lines.append(_Line(own.name, full, bare, fixed=own.fixed and full != bare))
    used = sum(len(line.full) + 1 for line in lines)
    budget = out.budget
    dropped: set[int] = set()
    if budget is not None and used > budget:
        usage = options.get("skill_usage") or {}
        order = sorted(range(len(lines)), key=lambda i: (_uses(usage, lines[i].name), -i))
        for index in order:
            if used <= budget:
                break
            line = lines[index]
            if line.full == line.bare or line.fixed:
                continue
            used -= len(line.full) - len(line.bare)
            dropped.add(index)
    out.spent = used
    reason = f"description dropped (name kept): over the {budget:,}-character budget"
    for index, line in enumerate(lines):
        out.listed.append(line.name)
        out.entries.append((line.name, len(line.full) + 1, len(line.bare) + 1))
        if line.skill is None:
            out.agent_own.append(len(out.listed) - 1)
        if index in dropped:
            out.shortened.append(line.name)
            out.cut[line.name] = 0
            if line.skill is None:
                out.shortened_own.append(line.name)
            out.omitted.append({"skill": line.name, "reason": reason})
    if budget is not None and used > budget:
        out.note = (
            f"Even with every description dropped the names take "
            f"{counted(used, 'character')}, "
            f"over the {budget:,}-character budget; Claude Code keeps every name"
            + (" and its bundled skills' descriptions." if any(x.fixed for x in lines) else ".")
        )
    shown = (line.bare if i in dropped else line.full for i, line in enumerate(lines))
    return LISTING_HEAD + "\n".join(shown) + LISTING_TAIL


def _uses(usage: Any, name: str) -> int:
    value = usage.get(name, 0) if isinstance(usage, Mapping) else 0
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
