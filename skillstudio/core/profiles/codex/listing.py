"""Codex's listing (docs/profiles.md): the `<skills_instructions>` developer
message, and how its character budget shares description characters out evenly."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ...model.skills import Skill

if TYPE_CHECKING:
    from ...model.delivered import TierText

MAX_DESCRIPTION = 1024  # longer ones are cut to 1,021 characters + "..." in the listing
CUT_MARK = "..."
# Listing budget: a share of the context window in characters (tokens x 4), or a
# fixed count when the window is unknown. Both changed during 2026: settings.
BUDGET_SHARE = 0.02
BUDGET_UNKNOWN = 8000
CHARS_PER_TOKEN = 4
SCOPES = ("system", "admin", "repository", "user")  # the listing's order

# The developer message around the listing, reconstructed from Codex CLI's
# skills instructions (codex-rs/core/src/skills/render.rs, 2026); `{skills}` is
# replaced by the `- name: description (file: path)` lines.
SKILLS_INSTRUCTIONS = """<skills_instructions>
## Skills
A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. \
Below is the list of skills that can be used. Each entry includes a name, description, \
and file path so you can open the source for full instructions when using a specific skill.
### Available skills
{skills}
### How to use skills
- Discovery: The list above is the skills available in this session (name + description \
+ file path). Skill bodies live on disk at the listed paths.
- Trigger rules: If the user names a skill (with `$SkillName` or plain text) OR the task \
clearly matches a skill's description shown above, you must use that skill for that turn. \
Multiple mentions mean use them all. Do not carry skills across turns unless re-mentioned.
- Missing/blocked: If a named skill isn't in the list or the path can't be read, say so \
briefly and continue with the best fallback.
- How to use a skill (progressive disclosure):
  1) After deciding to use a skill, open its `SKILL.md`. Read only enough to follow the \
workflow.
  2) If `SKILL.md` points to extra folders such as `references/`, load only the specific \
files needed for the request; don't bulk-load everything.
  3) If `scripts/` exist, prefer running or patching them instead of retyping large code \
blocks.
  4) If `assets/` or templates exist, reuse them instead of recreating from scratch.
- Coordination and sequencing:
  - If multiple skills apply, choose the minimal set that covers the request and state \
the order you'll use them.
  - Announce which skill(s) you're using and why (one short line). If you skip an obvious \
skill, say why.
- Context hygiene:
  - Keep context small: summarize long sections instead of pasting them; only load extra \
files when needed.
  - Avoid deep reference-chasing: prefer opening only files directly linked from \
`SKILL.md` unless you're blocked.
  - When variants exist (frameworks, providers, domains), pick only the relevant reference \
file(s) and note that choice.
- Safety and fallback: If a skill can't be applied cleanly (missing files, unclear \
instructions), state the issue, pick the next-best approach, and continue.
</skills_instructions>"""


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
    word = skill.root.label.split(" ", 1)[0]
    return word if word in SCOPES else "repository"


def _share(needs: list[int], total: int) -> list[int]:
    """`total` characters shared out evenly over `needs`: what a need smaller than its
    share leaves goes to the others (water filling); a remainder goes to the first."""
    given = [0] * len(needs)
    left = total
    order = sorted(range(len(needs)), key=lambda i: needs[i])
    waiting = len(order)
    for position, index in enumerate(order):
        share = left // waiting if waiting else 0
        if needs[index] <= share:
            given[index] = needs[index]
            left -= needs[index]
            waiting -= 1
            continue
        rest = order[position:]
        share, extra = divmod(left, len(rest))
        for rank, i in enumerate(sorted(rest)):
            given[i] = min(needs[i], share + (1 if rank < extra else 0))
        break
    return given


def write_listing(skills: list[Skill], out: TierText, omissions: dict[str, str]) -> str:
    """The `<skills_instructions>` message. The budget covers the skill lines: over
    it, the description characters are shared out evenly (each description cut to
    its share, ending in '...'); skills are dropped, last in order first, only when
    the lines without descriptions do not fit."""
    listed: list[Skill] = []
    for skill in skills:
        omission = omissions.get(skill.path)
        if omission:
            out.omitted.append({"skill": skill.name, "reason": omission})
        else:
            listed.append(skill)
    listed.sort(key=lambda s: (SCOPES.index(scope_of(s)), s.name, s.path))
    if not listed:
        return ""
    bare = [f"- {s.name}: (file: {s.path.replace(os.sep, '/')})" for s in listed]
    needs = [len(s.description) + 1 if s.description else 0 for s in listed]
    budget = out.budget
    fixed = sum(len(line) for line in bare) + len(bare) - 1
    if budget is not None and fixed + sum(needs) > budget:
        kept = len(listed)
        while kept and fixed > budget:
            kept -= 1
            fixed -= len(bare[kept]) + (1 if kept else 0)
        for skill in listed[kept:]:
            out.omitted.append(
                {
                    "skill": skill.name,
                    "reason": f"over the {budget:,}-character budget even without its description",
                }
            )
        listed, bare, needs = listed[:kept], bare[:kept], needs[:kept]
        given = _share(needs, max(budget - fixed, 0)) if listed else []
    else:
        given = needs
    lines: list[str] = []
    cut = 0
    for skill, line, need, room in zip(listed, bare, needs, given, strict=True):
        text = skill.description
        if room < need:
            cut += 1
            keep = room - 1 - len(CUT_MARK)
            text = text[:keep].rstrip() + CUT_MARK if keep > 0 else ""
        head, tail = line.split(": (file: ", 1)
        middle = f": {text} (file: " if text else ": (file: "
        lines.append(head + middle + tail)
        out.listed.append(skill.name)
        out.entries.append((skill.name, len(line) + need + 1, len(line) + 1))
        if room < need:
            out.shortened.append(skill.name)
    if not lines:
        return ""
    out.spent = sum(len(line) + 1 for line in lines) - 1
    if cut:
        out.note = (
            f"Over the {budget:,}-character budget: {cut} of {len(listed)} descriptions "
            "were shortened to an even share."
        )
    return SKILLS_INSTRUCTIONS.replace("{skills}", "\n".join(lines))
