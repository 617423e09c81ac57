"""No SKILL.md dropped in silence (docs/profiles.md): the inventory of the folder opened
(reading/inventory.py) against what the scans of its projects found.

Every `SKILL.md` under the folder (any letter case) is a skill of the result, or is
named by a note already (a link out, a limit, a wrong name...), or is named by an
`unreached` note: one per folder of them, saying why the chosen profile's agent does
not read them and what would (another profile, another folder to lint). Files are
compared by inode, so a skill read through a link counts as read at its real place.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..model.diagnostics import Diagnostic
from ..model.paths import is_within
from ..model.scan import SKILL_FILE, Found
from ..model.skills import Root, Skill
from ..model.text import counted
from ..profile import Profile
from ..profiles import PROFILE_CLASSES, PROFILE_NAMES
from ..reading.frontmatter import read_document
from ..reading.inventory import SKILL_NAME, Inventory, LinkNote

# Codes that already account for the files at or below their path.
ACCOUNTED = frozenset({"symlink-skipped", "scan-limit", "unreadable", "skipped", "skill-file-name"})
SHOWN = 5  # skill names a note lists before "and N more"

Audit = Callable[[list[tuple[Root, Found]], list[Diagnostic]], list[Diagnostic]]


@dataclass(slots=True)
class Reach:
    """The inventory of one folder opened, shared by the projects read from it."""

    inventory: Inventory
    owned: list[list[tuple[str, int]]] = field(default_factory=list)  # files per project
    links: list[list[LinkNote]] = field(default_factory=list)  # links per project
    found: dict[int, set[tuple[int, int]]] = field(default_factory=dict)  # project -> ids
    notes: list[Diagnostic] = field(default_factory=list)  # the projects' own notes
    # the folders given, when several were (`--root A --root B`): each file is named
    # relative to the one holding it; else the inventory's folder alone
    tops: list[str] = field(default_factory=list)
    # who chose the roots read, when not the agent's rules: "skillstudio.yaml", "--root"
    chosen: str = ""

    def top_of(self, path: str) -> str:
        """The folder given that holds `path` (the deepest)."""
        holding = [top for top in self.tops if is_within(path, top)]
        return max(holding, key=len) if holding else self.inventory.folder


def merged(inventories: list[Inventory]) -> tuple[Inventory, list[str]]:
    """One inventory of several folders given (their files and links once each), and
    those folders."""
    if len(inventories) == 1:
        return inventories[0], [inventories[0].folder]
    tops = [inv.folder for inv in inventories]
    out = Inventory(os.path.commonpath(tops))
    seen: set[str] = set()
    for inv in inventories:
        out.files.extend(item for item in inv.files if item[0] not in seen)
        out.links.extend(link for link in inv.links if link.path not in seen)
        seen.update(path for path, _ in inv.files)
        seen.update(link.path for link in inv.links)
    out.files.sort()
    out.links.sort(key=lambda link: link.path)
    return out, tops


def share(inventory: Inventory, roots: list[list[Root]]) -> Reach:
    """A Reach whose files are shared out among the projects (their roots, in order):
    each file to the project with the deepest root holding it, the rest to the first."""
    reach = Reach(inventory)
    reach.owned = [[] for _ in roots]
    reach.links = [[] for _ in roots]
    if len(roots) == 1:
        reach.owned[0] = list(inventory.files)
        reach.links[0] = list(inventory.links)
        return reach
    owner: dict[str, int] = {}
    for index, project_roots in enumerate(roots):
        for root in project_roots:
            owner.setdefault(os.path.normpath(root.path), index)
    for item in inventory.files:
        reach.owned[_owner(item[0], owner, inventory.folder)].append(item)
    for link in inventory.links:
        reach.links[_owner(link.path, owner, inventory.folder)].append(link)
    return reach


def _owner(path: str, owner: dict[str, int], top: str) -> int:
    folder = os.path.dirname(path)
    while is_within(folder, top):
        if folder in owner:
            return owner[folder]
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return 0


def auditor(reach: Reach, index: int, profile: Profile, roots: list[Root]) -> Audit:
    """The audit of project `index` of `reach` (Registry's `audit` hook)."""

    def audit(found: list[tuple[Root, Found]], notes: list[Diagnostic]) -> list[Diagnostic]:
        reach.found[index] = {(item.dev, item.ino) for _, item in found if item.ino}
        return unreached(reach, index, profile, roots, notes)

    return audit


def unreached(
    reach: Reach, index: int, profile: Profile, roots: list[Root], notes: list[Diagnostic]
) -> list[Diagnostic]:
    """The `unreached` notes of the files project `index` answers for."""
    read: set[tuple[int, int]] = set()
    for ids in reach.found.values():
        read |= ids
    inodes = {ino for _, ino in read}
    missing: list[str] = []
    with_skill: set[str] | None = None
    for path, ino in reach.owned[index]:
        if ino in inodes or _same(path, read):
            continue
        if os.path.basename(path) != SKILL_FILE:
            if with_skill is None:
                with_skill = {
                    os.path.dirname(p) for p, _ in reach.owned[index] if p.endswith(SKILL_FILE)
                }
            if os.path.dirname(path) in with_skill:
                continue  # a second, wrong-case file of a skill folder
        missing.append(path)
    links = reach.links[index]
    if not missing and not links:
        return []
    covered = {d.path for d in _chain(reach.notes, notes) if d.code in ACCOUNTED}
    groups: dict[str, tuple[list[str], list[LinkNote]]] = {}
    for path in missing:
        if not _covered(path, covered, reach.top_of(path)):
            groups.setdefault(_group(path), ([], []))[0].append(path)
    for link in links:
        if not _covered(link.path, covered, reach.top_of(link.path)):
            groups.setdefault(_group(link.path), ([], []))[1].append(link)
    return [
        _note(folder, files, found_links, profile, roots, reach)
        for folder, (files, found_links) in sorted(groups.items())
    ]


def unread_skills(reach: Reach, index: int) -> list[Skill]:
    """The SKILL.md files project `index` answers for that no project of the folder
    read, each parsed as it is (read bounded, confined to the folder opened), for the
    agents' answers on every file (`lint --profile all`): the chosen agent does not
    read them, another may."""
    read: set[tuple[int, int]] = set()
    for ids in reach.found.values():
        read |= ids
    inodes = {ino for _, ino in read}
    out: list[Skill] = []
    real: dict[str, str] = {}
    for path, ino in reach.owned[index]:
        if os.path.basename(path) != SKILL_FILE or ino in inodes or _same(path, read):
            continue
        top = reach.top_of(path)
        top_real = real.get(top) or real.setdefault(top, os.path.realpath(top))
        folder = os.path.dirname(path)
        root = Root(os.path.dirname(folder), "unreached", 0, base=top)
        out.append(Skill(path=path, root=root, doc=read_document(path, root=top_real)))
    return out


def _same(path: str, read: set[tuple[int, int]]) -> bool:
    """Whether the file at `path` is one of the files read (its own stat, not the
    inode its folder listed, which some layered disks give differently)."""
    try:
        st = os.lstat(path)
    except OSError:
        return True  # gone since it was listed: nothing to report
    return (st.st_dev, st.st_ino) in read


def _chain(*lists: Iterable[Diagnostic]) -> Iterable[Diagnostic]:
    for items in lists:
        yield from items


def _covered(path: str, covered: set[str], top: str) -> bool:
    """Whether a note of ACCOUNTED already names `path` or a folder above it."""
    current = path
    while True:
        if current in covered:
            return True
        parent = os.path.dirname(current)
        if parent == current or not is_within(parent, top):
            return False
        current = parent


def _group(path: str) -> str:
    """The folder a note names: the one holding the skill folders (or the links)."""
    folder = os.path.dirname(path)
    if os.path.basename(path).lower() == SKILL_NAME:
        folder = os.path.dirname(folder)
    return folder


def _note(
    folder: str,
    files: list[str],
    links: list[LinkNote],
    profile: Profile,
    roots: list[Root],
    reach: Reach,
) -> Diagnostic:
    top = reach.top_of(folder)
    parts: list[str] = []
    if files:
        names = [os.path.basename(os.path.dirname(path)) for path in files]
        shown = ", ".join(names[:SHOWN])
        if len(names) > SHOWN:
            shown += f" and {len(names) - SHOWN:,} more"
        verb = "is" if len(files) == 1 else "are"
        parts.append(f"{counted(len(files), 'SKILL.md file')} here {verb} not read ({shown})")
    if links:
        shown = ", ".join(
            f"{os.path.basename(link.path)} -> {link.target}{' (missing)' if link.missing else ''}"
            for link in links[:SHOWN]
        )
        if len(links) > SHOWN:
            shown += f" and {len(links) - SHOWN:,} more"
        verb = "is" if len(links) == 1 else "are"
        parts.append(
            f"{counted(len(links), 'link')} here {verb} not followed ({shown}): "
            f"{'it leads' if len(links) == 1 else 'they lead'} out of the folder opened or "
            "to nothing"
        )
    sample = files[0] if files else links[0].path
    why = _why(folder, sample, len(files), profile, roots, top, reach.chosen) if files else ""
    what = _what(folder, profile, top, reach.chosen, sample) if files else "fix or remove the links"
    text = "; ".join(parts) + (f": {why}" if why else "") + f"; {what}."
    return Diagnostic("unreached", profile.severity_of("unreached"), text, folder)


def _rel(path: str, top: str) -> str:
    rel = os.path.relpath(path, top)
    return "." if rel == "." else rel


def _why(
    folder: str,
    sample: str,
    count: int,
    profile: Profile,
    roots: list[Root],
    top: str,
    chosen: str = "",
) -> str:
    """Why the profile's agent does not read these files (`count` of them)."""
    agent = _agent(profile)
    they = "it lies" if count == 1 else "they lie"
    skill = os.path.dirname(sample)
    holding = [r for r in roots if is_within(skill, r.path) and skill != r.path]
    if holding:
        root = max(holding, key=lambda r: len(r.path))
        parts = os.path.relpath(skill, root.path).split(os.sep)
        hidden = next((p for p in parts if p.startswith(".")), None)
        where = _rel(root.path, top) if is_within(root.path, top) else root.path
        where = os.path.basename(top) if where == "." else where
        if hidden:
            return (
                f"{they} in the hidden folder '{hidden}' of the root {where}, and {agent} "
                "skips hidden folders"
            )
        below = f"{they} {counted(len(parts), 'folder')} below the root {where}"
        if profile.discovery == "recursive":
            return f"{below}, deeper than it reads"
        return f"{below}, and {agent} reads only <root>/<folder>/{SKILL_FILE}"
    own = None if chosen else profile.unread_reason(folder, top)
    if own:
        return own
    inside = [_rel(r.path, top) for r in roots if is_within(r.path, top)]
    if chosen:
        named = ", ".join(inside[:SHOWN]) + (" …" if len(inside) > SHOWN else "")
        return f"{they} outside the roots {chosen} names ({named or 'none here'})"
    if not inside:
        return f"{agent} reads none of the folders here"
    shown = ", ".join(inside[:SHOWN]) + (" …" if len(inside) > SHOWN else "")
    return f"{agent} reads skills only from {shown}"


def _agent(profile: Profile) -> str:
    """How a message names the agent in the middle of a sentence."""
    words = profile.the_agent
    return words[0].lower() + words[1:] if words.startswith(("An ", "The ", "A ")) else words


def _what(folder: str, profile: Profile, top: str, chosen: str = "", sample: str = "") -> str:
    """What would read these files: other profiles whose folder this is and whose
    pattern reaches them from it (`sample`: one of the files; `lint --profile X` run in
    the folder opened then checks them), or a lint of the folder itself (or, for roots
    the user chose, naming it among them)."""
    rel = _rel(folder, top)
    if chosen == "--root":
        return f"add --root {folder} to read them"
    if chosen:
        return f"add {rel} to the roots of {chosen}, or lint {rel} to check them as a root"
    readers: list[str] = []
    for name in PROFILE_NAMES:
        if name == profile.name:
            continue
        for spec in PROFILE_CLASSES[name].roots:
            if spec.path.startswith("~") or os.path.isabs(spec.path):
                continue
            root = os.path.join(top, spec.path)
            if is_within(folder, root) and _reaches(PROFILE_CLASSES[name].discovery, root, sample):
                readers.append(name)
                break
    lint = f"lint {rel} to check them as a root" if rel != "." else "lint each skill folder"
    if not readers:
        return lint
    who = " and ".join([", ".join(readers[:-1]), readers[-1]] if len(readers) > 1 else readers)
    verb = "reads" if len(readers) == 1 else "read"
    return f"{who} {verb} this folder (lint --profile {readers[-1]}), or {lint}"


def _reaches(discovery: str, root: str, sample: str) -> bool:
    """Whether a profile's pattern finds the SKILL.md at `sample` from `root` (a profile
    reading <root>/<folder>/SKILL.md finds nothing a level deeper)."""
    if not sample:
        return True
    rel = os.path.relpath(os.path.dirname(sample), root)
    depth = 0 if rel == "." else len(rel.split(os.sep))
    if discovery == "children":
        return depth == 1
    if discovery == "self_and_children":
        return depth <= 1
    return True
