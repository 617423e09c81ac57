"""Detection (docs/profiles.md): the profile a folder's marks name, read from the whole
tree, never a sample: layout marks (manifests, agent folders that hold skills) in the
folder and the folders above it, then the marks of every skill (its own files, the
fields its frontmatter uses); the reason names the marks seen."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from ..model.paths import is_inside
from ..model.scan import SKILL_FILE, ScanLimits
from ..model.text import counted
from ..profile import Profile
from ..profiles import DEFAULT_PROFILE, PROFILE_CLASSES, detection_order, get_profile
from ..reading.inventory import Inventory, frontmatter_shape, take_inventory

DETECT_LIMITS = ScanLimits(2000, 4)  # a folder detected on its own (`detect_profile`)


@dataclass(frozen=True, slots=True)
class Verdict:
    """A detected profile, why, and whether marks named it (not the default for lack
    of marks)."""

    name: str
    why: str
    marked: bool = True


def skill_markers() -> tuple[str, ...]:
    """Every registered profile's marks inside a skill folder (`agents/openai.yaml`)."""
    marks = {m for name in detection_order() for m in PROFILE_CLASSES[name].skill_markers}
    return tuple(sorted(marks))


def mark_folders(start: str, top: str) -> list[str]:
    """Where detection looks for layout marks, nearest first: `start` and its parents up
    to `top`; a folder given alone (`start` is `top`) also its parent and grandparent
    (a root's project, a marketplace's plugin), never the home folder (which holds
    every agent's own folders) nor the filesystem's root."""
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


def _profiles() -> list[Profile]:
    return [get_profile(name) for name in detection_order()]


Marks = dict[str, list[tuple[str, str]]]  # folder -> (profile, mark) of each profile it marks


def layout_verdict(
    folders: list[str], top: str, seen: Marks | None = None
) -> tuple[Verdict | None, str]:
    """The nearest layout mark of another system than the default in `folders`
    (nearest first), else None; and the default's own shared folder when seen
    (`.agents/skills`: other agents read it too, so a skill's own files decide).
    `seen`: the marks of folders already looked at (the roots of one repository share
    the folders above them)."""
    shared = ""
    for folder in folders:
        marks = seen.get(folder) if seen is not None else None
        if marks is None:
            marks = [(p.name, m) for p in _profiles() if (m := p.detect_layout(folder))]
            if seen is not None:
                seen[folder] = marks
        for name, mark in marks:
            where = os.path.relpath(folder, top)
            shown = mark if where == "." or where.startswith("..") else f"{where}/{mark}"
            if name != DEFAULT_PROFILE:
                return Verdict(name, f"detected {name}: {shown}"), shared
            shared = f"detected {name}: {shown}"
        if shared:
            break
    return None, shared


def skills_verdict(
    folders: list[str], top: str, inventory: Inventory | None, files_only: bool = False
) -> Verdict | None:
    """The profile the most skills mark (their own files, `skill_markers`; their fields,
    `detect_fields`), ties in detection order; every skill is read (a few µs each:
    reading/inventory.py `frontmatter_shape`). `files_only`: fields do not count (the
    default's shared folder)."""
    profiles = _profiles()
    top_real = os.path.realpath(top)
    counts: dict[str, list[Any]] = {}  # profile -> [skills, first why, first where]
    by_shape: dict[tuple[tuple[str, str], ...], list[tuple[str, str]]] = {}
    markers = skill_markers()
    sep_file = os.sep + SKILL_FILE
    for folder in folders:
        if inventory is not None:
            present = inventory.marks.get(folder)
        elif markers:
            present = [m for m in markers if os.path.exists(os.path.join(folder, m))]
        else:
            present = None
        marked: list[tuple[str, str]] = []
        if present:
            for profile in profiles:
                mark = next((m for m in profile.skill_markers if m in present), None)
                if mark:
                    marked.append((profile.name, mark))
        if not files_only:
            shape = frontmatter_shape(folder + sep_file, top_real)
            if shape:
                marked += _field_marks(shape, profiles, by_shape)
        if not marked:
            continue
        seen: set[str] = set()
        for name, why in marked:
            if name in seen:
                continue
            seen.add(name)
            entry = counts.setdefault(name, [0, why, folder])
            entry[0] += 1
    if not counts:
        return None
    order = {name: index for index, name in enumerate(detection_order())}
    name = min(counts, key=lambda n: (-counts[n][0], order[n]))
    number, why, folder = counts[name]
    where = os.path.relpath(os.path.join(folder, SKILL_FILE), top)
    more = f" and {counted(number - 1, 'more skill')}" if number > 1 else ""
    return Verdict(name, f"detected {name}: {why} in {where}{more}")


def _field_marks(
    shape: dict[str, Any],
    profiles: list[Profile],
    known: dict[tuple[tuple[str, str], ...], list[tuple[str, str]]],
) -> list[tuple[str, str]]:
    """(profile, why) for each profile whose fields a frontmatter of this shape uses
    (worked out once per distinct shape: a repository's skills share a few)."""
    key = tuple((k, type(v).__name__) for k, v in shape.items())
    found = known.get(key)
    if found is None:
        found = []
        for profile in profiles:
            why = profile.detect_fields(shape)
            if why:
                found.append((profile.name, why))
        known[key] = found
    return found


def detect_at(
    start: str,
    top: str,
    skill_folders: list[str] | None = None,
    inventory: Inventory | None = None,
) -> tuple[str, str]:
    """(profile name, why) from the marks of the systems (docs/profiles.md)."""
    verdict = verdict_at(start, top, skill_folders, inventory)
    return verdict.name, verdict.why


def verdict_at(
    start: str,
    top: str,
    skill_folders: list[str] | None = None,
    inventory: Inventory | None = None,
    seen: Marks | None = None,
) -> Verdict:
    """Layout marks in `start` and the folders above it (nearest first), then the marks
    of every skill under it (`skill_folders`: all of them; a folder given alone is
    searched); the default when nothing marks it. The default profile's own folder
    counts after the other systems' files in its skills (an `agents/openai.yaml` in
    `.agents/skills/` is codex's). The reason names what was seen ("detected
    claude-code: .claude-plugin/marketplace.json")."""
    layout, shared = layout_verdict(mark_folders(start, top), top, seen)
    if layout is not None:
        return layout
    if skill_folders is None:
        skill_folders, inventory = _skill_folders(start)
    found = skills_verdict(skill_folders, top, inventory, files_only=bool(shared))
    if found is not None:
        return found
    why = shared or "default: no other profile's marks found"
    return Verdict(DEFAULT_PROFILE, why, bool(shared))


def _skill_folders(folder: str) -> tuple[list[str], Inventory | None]:
    """The skill folders under `folder` (the folder itself when it is one)."""
    if os.path.isfile(os.path.join(folder, SKILL_FILE)):
        return [folder], None
    inventory = take_inventory(folder, DETECT_LIMITS, skill_markers())
    return [f for root in inventory.roots for f in inventory.skill_folders[root]], inventory
