"""Codex's listing (docs/profiles.md): the `<skills_instructions>` developer message
written from the loaded skills and Codex's own system skills, by the rules of
core/profiles/codex/render.py, into tier 2."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...model.skills import Root, Skill
from . import render, shipped
from .render import Budget, Entry

if TYPE_CHECKING:
    from ...model.delivered import TierText

MAX_DESCRIPTION = 1024  # longer ones are cut to 1,021 characters + "..." in the listing
CUT_MARK = "..."
SCOPES = tuple(render.SCOPE_RANK)  # system, admin, repository, user: the listing's order


def collapse(text: str) -> str:
    """Whitespace runs (newlines too) as one space, trimmed: what Codex lists."""
    return " ".join(text.split())


def shown_description(text: str) -> str:
    """The description as the model sees it: collapsed, cut at 1,024 characters."""
    text = collapse(text)
    if len(text) > MAX_DESCRIPTION:
        return text[: MAX_DESCRIPTION - len(CUT_MARK)] + CUT_MARK
    return text


def scope_of(skill: Skill) -> str:
    """system, admin, repository or user: the first word of the root's label
    (roots named in skillstudio.yaml or on the command line are repository roots)."""
    return scope_of_root(skill.root)


def scope_of_root(root: Root) -> str:
    word = root.label.split(" ", 1)[0]
    return word if word in SCOPES else "repository"


def budget_from(options: Mapping[str, Any]) -> Budget:
    """The budget the options give: `token_budget` (the headroom's unbounded listing
    in tokens), `char_budget`, else 2 % of `context_tokens`, else 8,000 characters."""
    if options.get("token_budget"):
        return Budget(int(options["token_budget"]), True)
    if options.get("char_budget"):
        return Budget(int(options["char_budget"]), False)
    return render.budget_for(int(options.get("context_tokens") or 0))


def _slashed(path: str) -> str:
    return path if os.sep == "/" else path.replace(os.sep, "/")


def _root_order(root: Root) -> tuple[int, int]:
    """Where Codex scans a root (`skill_roots`, highest-precedence config layer first):
    the project's .codex/skills, $CODEX_HOME/skills, ~/.agents/skills, the system
    skills, /etc/codex/skills, then each .agents/skills from the repository root down
    (and any other root SkillStudio was given), in the order SkillStudio reads them."""
    label = root.label
    if label.startswith("repository") and os.path.basename(os.path.dirname(root.path)) == ".codex":
        rank = 0
    elif label.startswith("user "):
        rank = 1
    elif label == "user":
        rank = 2
    elif label == "system":
        rank = 3
    elif label == "admin":
        rank = 4
    else:
        rank = 5
    return rank, root.precedence


def write_listing(
    skills: list[Skill], out: TierText, omissions: dict[str, str], system_root: str
) -> str:
    """The `<skills_instructions>` message for `skills` (omissions: why Codex leaves one
    out of it) and Codex's system skills, unless the skills were read from its system
    root (`system_root`, where Codex installs them), at the budget `out.options` give."""
    budget = budget_from(out.options)
    out.budget, out.budget_unit = budget.limit, budget.unit
    listed: list[Skill] = []
    for skill in skills:
        omission = omissions.get(skill.path)
        if omission:
            out.omitted.append({"skill": skill.name, "reason": omission})
        else:
            listed.append(skill)
    system_root = os.path.normpath(system_root)
    roots = {id(s.root): s.root for s in skills}
    where = {key: _slashed(os.path.normpath(root.path)) for key, root in roots.items()}
    scopes = {id(root): render.SCOPE_RANK[scope_of_root(root)] for root in roots.values()}
    entries = [
        Entry(s.name, s.description, _slashed(s.path), scopes[id(s.root)], where[id(s.root)])
        for s in listed
    ]
    order = [where[id(r)] for r in sorted(roots.values(), key=_root_order)]
    own: set[int] = set()  # Codex's system skills, built in: no author can shorten them
    if _slashed(system_root) not in where.values():
        root = _slashed(system_root)
        shipped_entries = [
            Entry(s.name, s.description, f"{root}/{s.name}/SKILL.md", 0, root)
            for s in shipped.SYSTEM_SKILLS
        ]
        own = {id(e) for e in shipped_entries}
        entries += shipped_entries
        order.insert(sum(_root_order(r)[0] < 3 for r in roots.values()), root)
    if not entries:  # Codex sends no skills message at all
        return ""
    listing = render.render(entries, budget, order)
    reason = f"over the {budget.limit:,}-{budget.unit[:-1]} budget even without its description"
    rows = zip(listing.entries, listing.shown, listing.whole_costs, listing.bare_costs, strict=True)
    for entry, shown, whole, bare in rows:
        if shown is None:
            out.omitted.append({"skill": entry.name, "reason": reason})
            out.budget_dropped.append(entry.name)
            continue
        out.listed.append(entry.name)
        if id(entry) in own:
            out.agent_own.append(len(out.listed) - 1)
        out.entries.append((entry.name, whole, bare))
        if shown < len(entry.description):
            out.shortened.append(entry.name)
            out.cut[entry.name] = shown
            if id(entry) in own:
                out.shortened_own.append(entry.name)
    out.spent = listing.used
    notes = [listing.warning] if listing.warning else []
    if listing.root_lines:
        notes.append(
            "Paths are written r0/... after a ### Skill roots table: with full paths the "
            "listing was cut further."
        )
    out.note = " ".join(notes)
    return listing.text
