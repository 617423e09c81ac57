"""Repositories of skills (docs/profiles.md) and detection (section 3): every
skill root under a folder at any depth, the roots a profile makes of them, and the
profile each root's marks name."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import yaml

from ..model.confinement import root_inside
from ..model.diagnostics import Diagnostic
from ..model.scan import SKIPPED_TREES, ScanLimits, depth_note, skipped_by_design
from ..model.skills import Root
from ..profiles import DEFAULT_PROFILE, Profile, detection_order, get_profile
from ..reading import yaml_io
from ..reading.safefs import is_inside, read_bytes, walk

SAMPLE_FILES = 40
# The search lists at most scan.max_folders folders that are not skill folders, and
# this many times that in all (skill folders are listed once each, not searched).
SKILL_FOLDER_FACTOR = 10
ROOT_SAMPLES = 10  # skills per root looked at when each root of a repository is detected


def _peek(path: str, base: str) -> dict[str, Any] | None:
    """The frontmatter mapping at the head of a SKILL.md, if it is a regular file
    inside `base` (a link loop, a FIFO or a device is not opened)."""
    try:
        head = read_bytes(path, base, 64 * 1024, truncate=True).decode("utf-8", "replace")
    except (OSError, UnicodeDecodeError):
        return None
    lines = head.lstrip("\ufeff").split("\n")
    if not lines or lines[0].rstrip() != "---":
        return None
    for index in range(1, len(lines)):
        if lines[index].rstrip() == "---":
            try:
                data = yaml_io.load("\n".join(lines[1:index]), yaml_io.FRONTMATTER)
            except (yaml.YAMLError, yaml_io.YamlRefused):
                return None
            return data if isinstance(data, dict) else None
    return None


# Folders a repository search never enters (model/scan.py): dependencies, build output,
# virtual environments, caches, backups.
IGNORED_TREES = SKIPPED_TREES
SKILL_FILE = "SKILL.md"


@dataclass(slots=True)
class RootSearch:
    """What a search of a folder for skill roots found."""

    roots: list[str] = field(default_factory=list)  # parents of skill folders, sorted
    misnamed: list[str] = field(default_factory=list)  # `skill.md` files (wrong case)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    samples: dict[str, list[str]] = field(default_factory=dict)  # root -> a few skill folders


def search_roots(folder: str, limits: ScanLimits | None = None) -> RootSearch:
    """Every skill root under `folder` at any depth (a repository of collections): the
    folders whose subfolders hold a SKILL.md. Iterative and bounded by the scan limits;
    links are not followed, skill folders are not searched further (their subfolders
    are their files), hidden folders are (`.curated/`, `.agents/skills/`), the
    IGNORED_TREES are not."""
    limits = limits or ScanLimits()
    out = RootSearch()
    roots: set[str] = set()
    top_depth = folder.rstrip(os.sep).count(os.sep)
    searched = listed = 0  # folders searched (not skill folders), and listed in all
    deep: list[str] = []  # folders at the depth limit with folders inside: one note for all
    for current, subfolders, files in walk(folder):
        listed += 1
        if searched >= limits.max_folders or listed > SKILL_FOLDER_FACTOR * limits.max_folders:
            out.diagnostics.append(
                Diagnostic(
                    "scan-limit",
                    "warning",
                    f"Stopped looking for skills after {limits.max_folders:,} folders; "
                    "skills further on were not found. Point at a smaller folder or raise "
                    "scan.max_folders in skillstudio.yaml.",
                    folder,
                )
            )
            break
        names = {entry.name for entry in files}
        if current != folder and SKILL_FILE in names:
            parent = os.path.dirname(current)
            roots.add(parent)
            samples = out.samples.setdefault(parent, [])
            if len(samples) < SAMPLE_FILES:
                samples.append(current)
            subfolders[:] = []
            continue
        wrong = [n for n in names if n.lower() == "skill.md" and n != SKILL_FILE]
        out.misnamed.extend(os.path.join(current, n) for n in sorted(wrong))
        searched += 1
        if "pyvenv.cfg" in names:
            subfolders[:] = []
            continue
        subfolders[:] = [d for d in subfolders if not skipped_by_design(d)]
        if subfolders and current.count(os.sep) - top_depth >= limits.max_depth:
            deep.append(current)
            subfolders[:] = []
    if deep:
        out.diagnostics.append(depth_note(folder, deep, limits.max_depth, "searched for skills"))
    out.roots = sorted(roots)
    return out


def misnamed_warning(path: str) -> Diagnostic:
    """A `skill.md` in the wrong case: no agent on a case-sensitive disk loads it."""
    return Diagnostic(
        "skill-file-name",
        "warning",
        f"This file is named '{os.path.basename(path)}': rename it to SKILL.md. Agents on "
        "case-sensitive disks never load it.",
        path,
    )


def _mark_folders(start: str, top: str) -> list[str]:
    """Where detection looks for layout marks, nearest first: `start` and its parents up
    to `top`; a folder given alone (`start` is `top`) also its parent and grandparent
    (a root's project), never the home folder (which holds every agent's own
    folders) nor the filesystem's root."""
    home = os.path.expanduser("~")
    out: list[str] = []
    folder = start
    levels = 3 if start == top else 0
    while folder != home and os.path.dirname(folder) != folder:
        out.append(folder)
        if folder == top or not is_inside(folder, top):
            levels -= 1
            if levels <= 0:
                break
        folder = os.path.dirname(folder)
    return out


def _skill_folders(folder: str) -> list[str]:
    """A sample of the skill folders under `folder` (for detection by their files and
    fields): the folder itself when it is one, else those a root search finds."""
    if os.path.isfile(os.path.join(folder, SKILL_FILE)):
        return [folder]
    search = search_roots(folder, ScanLimits(2000, 4))
    out: list[str] = []
    for root in search.roots:
        out.extend(search.samples.get(root, []))
        if len(out) >= SAMPLE_FILES:
            break
    return out[:SAMPLE_FILES]


def detect_at(start: str, top: str, skill_folders: list[str] | None = None) -> tuple[str, str]:
    """(profile name, why) from the marks of the systems (docs/profiles.md): layout
    marks in `start` and the folders above it (nearest first), then the files and
    fields of a sample of its skills; the default when nothing marks it. The default
    profile's own folder counts after the other systems' files in its skills (an
    `agents/openai.yaml` in `.agents/skills/` is codex's). The reason names the file
    or field seen ("detected claude-code: .claude-plugin/")."""
    names = detection_order()
    profiles = [get_profile(name) for name in names]
    shared = ""  # the default profile's own folder (.agents/skills): other agents read it too
    for folder in _mark_folders(start, top):
        for profile in profiles:
            mark = profile.detect_layout(folder)
            if mark:
                where = os.path.relpath(folder, top)
                seen = mark if where == "." or where.startswith("..") else f"{where}/{mark}"
                if profile.name != DEFAULT_PROFILE:
                    return profile.name, f"detected {profile.name}: {seen}"
                shared = f"detected {profile.name}: {seen}"
        if shared:
            break
    folders = _skill_folders(start) if skill_folders is None else skill_folders
    # in the shared folder only another system's own files in a skill count, not fields
    mappings = [(f, None if shared else _peek(os.path.join(f, SKILL_FILE), f)) for f in folders]
    for profile in profiles:
        for skill_folder, mapping in mappings:
            why = profile.detect_skill(skill_folder, mapping)
            if why:
                where = os.path.relpath(os.path.join(skill_folder, SKILL_FILE), top)
                return profile.name, f"detected {profile.name}: {why} in {where}"
    return DEFAULT_PROFILE, shared or "default: no other profile's marks found"


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
    taken = {p for p, _ in chain}
    others = [] if chain and not profile.repository_roots else [p for p in found if p not in taken]
    if profile.discovery == "recursive":  # a root inside another is scanned with it
        outer = taken | set(others)
        others = [p for p in others if not any(q != p and is_inside(p, q) for q in outer)]
    others = [p for p in others if root_inside(p, top, notes)]
    if not chain and not others:
        return [Root(top, "root", 0, base=top)], notes
    names = _collection_names(others, top) if chain or len(others) > 1 else {}

    def base_of(path: str) -> str:  # the machine's folders and those above `top`: their own
        return top if is_inside(path, top) else ""

    roots = [Root(p, label, index, base=base_of(p)) for index, (p, label) in enumerate(chain)]
    for path in others:
        label = os.path.relpath(path, top) if path != top else "root"
        roots.append(Root(path, label, len(roots), names.get(path, ""), top))
    return roots, notes
