"""Repositories of skills (docs/profiles.md): every skill root under a folder at any
depth and the roots a profile makes of them (detection is core/projects/detection.py)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..model.confinement import root_inside
from ..model.diagnostics import Diagnostic
from ..model.paths import is_inside
from ..model.scan import ScanLimits
from ..model.skills import Root
from ..profile import Profile
from ..reading.inventory import Inventory, take_inventory
from .detection import skill_markers


@dataclass(slots=True)
class RootSearch:
    """What a search of a folder for skill roots found (from its inventory)."""

    roots: list[str] = field(default_factory=list)  # parents of skill folders, sorted
    misnamed: list[str] = field(default_factory=list)  # `skill.md` files (wrong case)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    folders: dict[str, list[str]] = field(default_factory=dict)  # root -> its skill folders
    inventory: Inventory | None = None


def search_roots(folder: str, limits: ScanLimits | None = None) -> RootSearch:
    """Every skill root under `folder` at any depth (a repository of collections): the
    folders whose subfolders hold a SKILL.md, from one bounded walk of the folder
    (reading/inventory.py: links are not followed, hidden folders are walked
    (`.curated/`, `.agents/skills/`), the IGNORED_TREES are not; a skill folder is
    not a root of what is nested in it)."""
    inventory = take_inventory(folder, limits, skill_markers())
    return RootSearch(
        list(inventory.roots),
        list(inventory.misnamed),
        list(inventory.diagnostics),
        inventory.skill_folders,
        inventory,
    )


def misnamed_warning(path: str) -> Diagnostic:
    """A `skill.md` in the wrong case: no agent on a case-sensitive disk loads it."""
    return Diagnostic(
        "skill-file-name",
        "warning",
        f"This file is named '{os.path.basename(path)}': rename it to SKILL.md. Agents on "
        "case-sensitive disks never load it.",
        path,
    )


def _collection_names(paths: list[str], top: str) -> dict[str, str]:
    """Short, unique names for a repository's collections: the shortest tail of the
    path (leaving out `skills` folders) that no other collection shares
    (`plugins/discord/skills` -> discord, `skills/.system` -> .system)."""
    parts: dict[str, list[str]] = {}
    for path in paths:
        rel = os.path.relpath(path, top)
        names = [p for p in rel.split(os.sep) if p not in ("skills", ".")]
        parts[path] = names or [os.path.basename(top) or "root"]
    out: dict[str, str] = {}
    for path, names in parts.items():
        tail = names
        for size in range(1, len(names) + 1):
            tail = names[-size:]
            if all(other[-size:] != tail for p, other in parts.items() if p != path):
                break
        out[path] = "/".join(tail)
    return out


def build_roots(
    profile: Profile, top: str, found: list[str]
) -> tuple[list[Root], list[Diagnostic]]:
    """The profile's roots of a project at `top` (`Profile.project_roots`: its
    precedence order), then every other skill root found, each a separate collection
    (they never shadow each other); `top` itself when nothing is found. Also what
    reading the profile's roots found wrong. Each root inside `top` is confined to it
    (`Root.base`: its real path is checked again at each scan and save)."""
    chain, notes = profile.project_roots(top)
    # A root above `top` that links to it (`.claude/skills -> ../.github/skills`, the
    # folder given being `.github/skills`) is the folder given: read as given, by the
    # path the user named, not through the link.
    top_real = os.path.realpath(top)
    chain = [
        (p, label)
        for p, label in chain
        if is_inside(p, top) or not is_inside(os.path.realpath(p), top_real)
    ]
    taken = {p for p, _ in chain}
    # The author's view (docs/profiles.md, "Two views of one tree"): every skill root
    # found is read, each a collection, whether or not the agent would load it in
    # place; what each agent loads in place is the in-place view's to say
    # (core/projects/agent_reach.py: `show`'s where:, `lint --profile all`'s agents
    # line). An agent that reads only its own folders (`Profile.own_roots_only`) and
    # has none inside the folder: `collection_reason` says why the tree is read.
    nested = [(p, name) for p, name in nested_roots(profile, top, found) if p not in taken]
    # a root that is a link to another root read (`.agents/skills -> ../skills`, a
    # plugin's `skills -> ../../shared/skills`) is that root: its real folder read once
    real = {os.path.realpath(q) for p in taken for q in (p, os.path.join(p, "skills"))}
    others = [p for p in found if p not in taken and os.path.realpath(p) not in real]
    others = [p for p in others if all(p != q for q, _ in nested)]
    if profile.discovery == "recursive":  # a root inside another is scanned with it
        outer = taken | set(others)  # (unless in a hidden folder its walk skips: its own)
        others = [p for p in others if not any(_walked_into(p, q) for q in outer)]
    others = [p for p in others if root_inside(p, top, notes)]
    nested = [(p, name) for p, name in nested if root_inside(p, top, notes)]
    if not chain and not others and not nested:
        return [Root(top, "root", 0, base=top)], notes
    names = _collection_names(others, top) if chain or len(others) > 1 else {}

    def base_of(path: str) -> str:  # the machine's folders and those above `top`: their own
        return top if is_inside(path, top) else ""

    roots = [Root(p, label, index, base=base_of(p)) for index, (p, label) in enumerate(chain)]
    for path in others:
        label = os.path.relpath(path, top) if path != top else "root"
        roots.append(Root(path, label, len(roots), names.get(path, ""), top))
    for path, name in nested:  # the agent's own nested roots, named by their directory
        roots.append(Root(path, f"nested {name}", len(roots), name, top))
    return roots, notes


def _walked_into(path: str, outer: str) -> bool:
    """Whether a recursive walk of the root `outer` reaches the root `path` (below it,
    through no hidden folder: `.system/` of a Codex home is a collection of its own)."""
    if path == outer or not is_inside(path, outer):
        return False
    return not any(part.startswith(".") for part in os.path.relpath(path, outer).split(os.sep))


def nested_roots(profile: Profile, top: str, found: list[str]) -> list[tuple[str, str]]:
    """(root, directory) of each of the profile's own roots found below `top` other
    than its own (`RootSpec.nested`: Claude Code loads `apps/web/.claude/skills` when it
    works on files of `apps/web`), each a collection named by its directory, so a name
    another skill has is `apps/web:deploy` (docs/profiles.md, claude-code)."""
    out: list[tuple[str, str]] = []
    for spec in profile.roots:
        if not spec.nested or spec.path.startswith("~") or os.path.isabs(spec.path):
            continue
        tail = os.sep + os.path.normpath(spec.path)
        for path in found:
            if path.endswith(tail) and is_inside(path, top):
                directory = os.path.relpath(path[: -len(tail)] or os.sep, top)
                if directory != ".":
                    out.append((path, directory.replace(os.sep, "/")))
    return out


def collection_reason(profile: Profile, roots: list[Root], reason: str) -> dict[str, str]:
    """The reason of each root read as a collection although the profile's agent reads
    only its own roots (`Profile.own_roots_only`, none of them in the folder opened):
    read because the user pointed at it, and said so."""
    if not profile.own_roots_only:
        return {}
    own = [spec.path for spec in profile.roots if not spec.path.startswith("~")]
    mine = {os.path.normpath(os.sep + p) for p in own}
    if any(root.path.endswith(tail) for root in roots for tail in mine):
        return {}  # one of its folders is read: the others are collections beside it
    out: dict[str, str] = {}
    for root in roots:
        if any(root.path.endswith(tail) for tail in mine) or not root.base:
            continue
        out[root.path] = (
            f"{reason}; read as a collection of the folder opened: {profile.agent_words} "
            f"reads only {', '.join(own)}, and none is here"
        )
    return out
