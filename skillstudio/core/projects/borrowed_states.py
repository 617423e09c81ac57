"""A revision's skills taken from the working tree where nothing in their folder changed
(`skillstudio diff`: reading and checking a thousand unchanged skills twice is what
made it cost two `lint`s).

git says which paths differ between the revision and the working tree (`git diff
--name-only` against the commit, and the untracked paths: git's view, the index never
written). A skill of the revision's copy whose folder holds none of them is, byte for
byte, the skill the working tree has at the same place: its state as read and checked
(core/scanning/skill_state.py) is taken from the working tree's registry, every path in
it moved from the repository to the copy. Every other skill is read from the copy as
usual. The scan goes through the registry's cache interface (`BorrowedStates` in place
of the cache of what was read), so the cross-skill checks, winners and everything after
the scan run as for any registry.

What a check looked at outside the skill's folder (a link to `../shared/x.md`) is not
followed: a change there alone leaves the skill's own diagnostics as they are now.
"""

from __future__ import annotations

import os
from typing import Any

from ..model.scan import Found
from ..model.skills import Root, Skill
from ..profile import Profile
from ..scanning.registry import Registry
from ..scanning.skill_state import skill_from_state, skill_state
from ..scanning.state_cache import ScanCache, StateCache, profile_key
from .git_tree import git_output, worktree_output


def changed_paths(top: str, commit: str) -> set[str]:
    """Paths (relative, '/'-separated) that differ between `commit` and the working tree:
    tracked files changed, added or removed, and untracked ones (an untracked folder as
    itself, ending in '/')."""
    tracked = worktree_output(
        top,
        "diff",
        "--name-only",
        "-z",
        "--no-renames",
        "--no-ext-diff",
        "--no-textconv",
        commit,
        "--",
    )
    untracked = git_output(top, "ls-files", "--others", "--directory", "-z")
    return {p for p in (tracked + untracked).decode("utf-8", "surrogateescape").split("\0") if p}


def changed_between(top: str, before: str, after: str) -> set[str]:
    """Paths (relative, '/'-separated) that differ between two commits."""
    out = git_output(
        top, "diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", before, after, "--"
    )
    return {p for p in out.decode("utf-8", "surrogateescape").split("\0") if p}


def _touched_folders(changed: set[str]) -> tuple[set[str], list[str]]:
    """(every folder holding a changed path, the untracked folders)."""
    holding: set[str] = set()
    for path in changed:
        parts = path.rstrip("/").split("/")
        for end in range(1, len(parts)):
            holding.add("/".join(parts[:end]))
    return holding, [p.rstrip("/") for p in changed if p.endswith("/")]


def _moved(value: Any, old: str, new: str) -> Any:
    """`value` with every text that starts with `old` starting with `new` instead."""
    if isinstance(value, str):
        return new + value[len(old) :] if value.startswith(old) else value.replace(old, new)
    if isinstance(value, tuple):
        return tuple(_moved(v, old, new) for v in value)
    if isinstance(value, list):
        return [_moved(v, old, new) for v in value]
    if isinstance(value, dict):
        return {_moved(k, old, new): _moved(v, old, new) for k, v in value.items()}
    return value


class BorrowedScan(ScanCache):
    """One registry's scan of the copy: `lookup` serves the working tree's states."""

    def __init__(self, owner: BorrowedStates, profile: Profile, roots: list[Root]) -> None:
        super().__init__(owner, profile, roots)
        self.owner = owner

    def lookup(self, found: list[tuple[Root, Found]], gist: bool) -> list[Skill | None]:
        # a skill is checked under its profile and the project's settings: the same ones
        key = str(self.head["profile"])
        return [self.owner.borrow(root, item, gist, key) for root, item in found]

    def store(
        self,
        found: list[tuple[Root, Found]],
        skills: list[Skill],
        looked: list[list[str]],
        gist: bool,
    ) -> None:
        return  # nothing of a temporary copy is kept


class BorrowedStates(StateCache):
    """The skills of one tree (`registries`, read from `top`: the working tree, or a
    second revision's copy) lent to a revision's copy at `copy` for the folders
    `changed` leaves alone."""

    def __init__(self, top: str, copy: str, changed: set[str], registries: list[Registry]):
        super().__init__(copy, b"")
        self.top, self.copy = top, copy
        self.holding, self.untracked = _touched_folders(changed)
        self.changed = changed
        self.by_path = {s.path: (s, profile_key(r.profile)) for r in registries for s in r.skills}
        self.lent = 0

    def scan(self, profile: Profile, roots: list[Root]) -> ScanCache:
        return BorrowedScan(self, profile, roots)

    def _untouched(self, folder: str) -> bool:
        if folder in self.holding or folder + "/SKILL.md" in self.changed:
            return False
        return not any(folder == u or folder.startswith(u + "/") for u in self.untracked)

    def borrow(self, root: Root, item: Found, gist: bool, profile: str) -> Skill | None:
        relative = os.path.relpath(item.path, self.copy)
        if relative.startswith(".."):
            return None
        folder = os.path.dirname(relative).replace(os.sep, "/")
        found = self.by_path.get(os.path.join(self.top, relative))
        if found is None or found[1] != profile or not folder or not self._untouched(folder):
            return None
        lent = found[0]
        if lent.size != item.size:
            return None
        if gist and not lent.gist and lent.doc.body_offset < lent.size:
            return None  # read without its gist: read again
        state = _moved(skill_state(lent), self.top + os.sep, self.copy + os.sep)
        skill = skill_from_state(state, root)
        if skill.path != item.path:
            return None
        if not gist:
            skill.gist = ""
        self.lent += 1
        return skill
