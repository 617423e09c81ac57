"""A skill's files besides its SKILL.md, for a registry that lives on (the app's, the
language server's): which skill a changed path belongs to, and whether anything a
skill's checks looked at (reading/looked.py: a file the body names, a link's target, a
plugin manifest) is not as it was when the skill was read.

A skill's result depends on more than its SKILL.md: `reference-missing` and
`link-broken` on the files of its folder. A refresh that compared SKILL.md alone kept a
warning for a file added since (a first-time reviewer's `scripts/fetch_comments.py`,
seen by the tree at once, while Problems kept the warning until a restart). So a change
inside a skill's folder reads that skill again (`owner`), and a reload (F5) reads again
each skill whose looked-at paths changed (`LookedPaths.changed`): a `lstat` of each
(tens of thousands at 10,000 skills, as the CLI's warm cache does on every `lint`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from ..model.scan import SKILL_FILE
from ..model.skills import Skill
from .state_cache import signature


def owner(path: str, by_path: Mapping[str, Skill], roots: set[str]) -> Skill | None:
    """The known skill whose folder holds `path` (the innermost; looked up, not walked),
    or None when it lies in none below `roots`."""
    parent = os.path.dirname(path)
    while parent and parent not in roots:
        skill = by_path.get(os.path.join(parent, SKILL_FILE))
        if skill is not None:
            return skill
        up = os.path.dirname(parent)
        if up == parent:
            break
        parent = up
    return None


def touched_skills(hint: set[str], by_path: Mapping[str, Skill], roots: set[str]) -> set[str]:
    """The known skills (SKILL.md paths) whose folder holds a changed path of `hint`
    other than their SKILL.md, or is one (its entries changed)."""
    out: set[str] = set()
    for path in hint:
        if path in by_path:
            continue
        if os.path.join(path, SKILL_FILE) in by_path:
            out.add(os.path.join(path, SKILL_FILE))
        elif (skill := owner(path, by_path, roots)) is not None:
            out.add(skill.path)
    return out


def _digest(paths: tuple[str, ...]) -> int:
    return hash(tuple(str(signature(path)) for path in paths))


class LookedPaths:
    """Per skill (by its SKILL.md's path), the paths its checks looked at and a digest
    of their state then (one int: the paths are kept, their stat results are not)."""

    def __init__(self) -> None:
        self._by_skill: dict[str, tuple[tuple[str, ...], int]] = {}

    def note(self, skill: str, paths: Iterable[str]) -> None:
        """`skill` was just read, its checks looking at `paths`."""
        kept = tuple(dict.fromkeys(paths))
        self._by_skill[skill] = (kept, _digest(kept))

    def changed(self, skills: Iterable[str]) -> set[str]:
        """Those of `skills` of which a looked-at path changed since they were read (one
        never noted is not: it was read with no record, as before)."""
        out: set[str] = set()
        for skill in skills:
            record = self._by_skill.get(skill)
            if record is not None and record[0] and _digest(record[0]) != record[1]:
                out.add(skill)
        return out

    def keep_only(self, skills: Iterable[str]) -> None:
        """Forget the skills not in `skills` (removed from the registry)."""
        wanted = set(skills)
        for gone in [path for path in self._by_skill if path not in wanted]:
            del self._by_skill[gone]
