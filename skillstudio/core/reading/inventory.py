"""The inventory of a folder opened: one bounded walk, without recursion, of every
`SKILL.md` under it (any letter case), the skill roots it makes, the marks of each
skill folder and the links that stand where skills would be (docs/profiles.md).

What each agent reads is then compared with it (core/projects/audit.py), so that no
`SKILL.md` is dropped in silence, and detection reads its marks, never a sample.
Links are not followed here: a link whose target lies inside the folder leads to a
file this walk meets at its real place; a link out of the folder or to nothing is
recorded (where it stands for a skill) and never followed.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from typing import Any

import yaml

from ..model.confinement import pointed_to
from ..model.diagnostics import Diagnostic
from ..model.paths import FileRefused, is_inside
from ..model.scan import SKILL_FILE, ScanLimits, depth_note, skipped_by_design
from . import yaml_io
from .safefs import OPEN_FLAGS, opened_inside

# The search lists at most scan.max_folders folders that are not skill folders, and
# this many times that in all (skill folders and their own folders included).
SKILL_FOLDER_FACTOR = 10
SKILL_NAME = SKILL_FILE.lower()
# How many times scan.max_depth the search for skills goes down (the depth limit
# bounds each root's own scan; the search is bounded by the folder budget and this).
SEARCH_DEPTH_FACTOR = 2


@dataclass(frozen=True, slots=True)
class LinkNote:
    """A link that stands where a skill would be and is not followed: its target lies
    outside the folder opened, or does not exist (`missing`: where it points)."""

    path: str
    target: str
    missing: bool = False


@dataclass(slots=True)
class Inventory:
    """What one walk of `folder` found."""

    folder: str
    # (path, inode as listed) of every file named SKILL.md in any letter case, sorted
    files: list[tuple[str, int]] = field(default_factory=list)
    roots: list[str] = field(default_factory=list)  # parents of skill folders, sorted
    skill_folders: dict[str, list[str]] = field(default_factory=dict)  # root -> its skills
    marks: dict[str, list[str]] = field(default_factory=dict)  # skill folder -> marker files
    links: list[LinkNote] = field(default_factory=list)
    misnamed: list[str] = field(default_factory=list)  # `skill.md` where no SKILL.md is
    diagnostics: list[Diagnostic] = field(default_factory=list)


def take_inventory(
    folder: str, limits: ScanLimits | None = None, markers: tuple[str, ...] = ()
) -> Inventory:
    """Walk `folder` once: every SKILL.md (any case), the roots (folders whose
    subfolders hold a SKILL.md; a skill folder is not a root of the skills nested in
    it), for each skill folder which of `markers` (paths relative to it, such as
    `agents/openai.yaml`) it holds, and the links out or to nothing that stand for a
    skill. Bounded by the scan limits; hidden folders are walked, folders skipped by
    design (model/scan.py: dependencies, build output, backups) and virtual
    environments are not, and the depth limit is one note for the walk, naming no
    folder skipped by design."""
    return _Walk(folder, limits or ScanLimits(), markers).run()


class _Walk:
    def __init__(self, folder: str, limits: ScanLimits, markers: tuple[str, ...]) -> None:
        self.out = Inventory(folder)
        self.top = folder
        self.limits = limits
        self.markers = frozenset(markers)
        self.marker_names = frozenset(os.path.basename(m) for m in markers)
        self.links: list[str] = []  # links met, sorted out at the end

    def stop(self) -> None:
        self.out.diagnostics.append(
            Diagnostic(
                "scan-limit",
                "warning",
                f"Stopped looking for skills after {self.limits.max_folders:,} folders; skills "
                "further on were not found. Point at a smaller folder or raise "
                "scan.max_folders in skillstudio.yaml.",
                self.top,
            )
        )

    def run(self) -> Inventory:
        # The hot loop of every repository read: one scandir per folder, names sorted
        # (as strings) only where the order decides what a limit leaves out.
        out = self.out
        sep = os.sep
        top_depth = self.top.rstrip(sep).count(sep)
        max_depth = self.limits.max_depth
        max_folders = self.limits.max_folders
        searched = listed = 0
        most = SKILL_FOLDER_FACTOR * max_folders
        roots: set[str] = set()
        files = out.files
        links = self.links
        marker_names = self.marker_names
        # (folder, the skill folder it lies in, or "" outside every skill folder)
        stack: list[tuple[str, str]] = [(self.top, "")]
        too_deep: list[str] = []  # folders at the depth limit with folders inside
        while stack:
            current, skill = stack.pop()
            try:
                with os.scandir(current) as it:
                    entries = list(it)
            except OSError:
                continue
            listed += 1
            if not skill and (searched >= max_folders or listed > most):
                self.stop()
                break
            subfolders: list[str] = []
            others: list[os.DirEntry[str]] = []
            own = False
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        subfolders.append(entry.name)
                        continue
                except OSError:
                    continue
                others.append(entry)
                if entry.name == SKILL_FILE:
                    own = True
            if not skill:
                if own and current != self.top:
                    skill = current
                    parent = os.path.dirname(current)
                    roots.add(parent)
                    out.skill_folders.setdefault(parent, []).append(current)
                else:
                    searched += 1
            venv = False
            for entry in others:
                name = entry.name
                if entry.is_symlink():
                    links.append(entry.path)
                    continue
                if name.lower() == SKILL_NAME:
                    files.append((entry.path, entry.inode()))
                    if not skill and name != SKILL_FILE:
                        out.misnamed.append(entry.path)
                elif name == "pyvenv.cfg":
                    venv = True
                if skill and name in marker_names:
                    rel = os.path.relpath(entry.path, skill)
                    if rel in self.markers:
                        out.marks.setdefault(skill, []).append(rel)
            if not subfolders:
                continue
            level = current.count(sep) - top_depth
            deep = level >= max_depth
            if not skill:
                if venv:
                    continue
                subfolders = [d for d in subfolders if not skipped_by_design(d)]
                # Past the depth limit the search goes on (within the folder budget) to
                # the cut-off, so that a deep tree without skills (a Java source tree)
                # gives no note and a skill one level too deep is found, not hidden.
                if subfolders and level >= max_depth * SEARCH_DEPTH_FACTOR:
                    too_deep.append(current)  # said once, after the walk
                    continue
                subfolders.sort(reverse=True)
            elif deep or listed > most:
                continue  # a skill's own folders: as deep as the limit, silently
            prefix = current + sep if current[-1:] != sep else current
            stack.extend((prefix + name, skill) for name in subfolders)
        if too_deep:
            cut = max_depth * SEARCH_DEPTH_FACTOR
            out.diagnostics.append(depth_note(self.top, too_deep, cut, "searched for skills"))
        files.sort()
        out.roots = sorted(roots)
        out.misnamed.sort()
        out.links = self.sorted_links(roots)
        return out

    def sorted_links(self, roots: set[str]) -> list[LinkNote]:
        """The links that stand for a skill and are not followed: in a root or a folder
        named `skills`, or named SKILL.md (any case); pointing out of the folder opened
        or to nothing. A link inside leads to what the walk met at its real place."""
        top_real = os.path.realpath(self.top)
        out: list[LinkNote] = []
        for path in sorted(self.links):
            parent = os.path.dirname(path)
            name = os.path.basename(path)
            if not (
                name.lower() == SKILL_NAME
                or parent in roots
                or os.path.basename(parent) == "skills"
            ):
                continue
            if not os.path.exists(path):
                out.append(LinkNote(path, pointed_to(path), True))
                continue
            real = os.path.realpath(path)
            if not is_inside(real, top_real):
                out.append(LinkNote(path, real))
        return out


HEAD_BYTES = 64 * 1024  # the most of a SKILL.md read to find its frontmatter's keys
_KEY = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:(?:[ \t]+(.*))?$")


def frontmatter_shape(path: str, base_real: str) -> dict[str, Any] | None:
    """The top-level keys of a SKILL.md's frontmatter, each with the shape of its value
    (`{}` a mapping, `[]` a list, `""` or None anything else), for detection: read
    lexically (a few µs), with the YAML parser only for what the lexical reading
    cannot follow. None when the file has no frontmatter or cannot be read inside
    `base_real`."""
    try:
        head = read_head(path, base_real, HEAD_BYTES)
    except OSError:
        return None
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    if not head.startswith(b"---"):
        return None
    end = head.find(b"\n---", 3)
    if end < 0:
        return None
    lines = head[: end + 1].decode("utf-8", "replace").split("\n")
    if lines[0].rstrip() != "---":
        return None
    shape: dict[str, Any] = {}
    last = ""
    for index in range(1, len(lines)):
        line = lines[index].rstrip("\r")
        if not line or line[0] in " \t#":
            value = line.strip()
            if last and value and value[0] != "#" and shape[last] is None:  # the value's start
                shape[last] = [] if value[0] == "-" else {} if _KEY.match(value) else ""
            continue
        if line[0] == "-" and last and shape[last] in (None, []):  # a list at the key's level
            shape[last] = []
            continue
        match = _KEY.match(line)
        if match is None:
            return _parsed_shape(head)
        last = match.group(1)
        value = (match.group(2) or "").strip()
        shape[last] = None if not value or value[0] == "#" else _SHAPES.get(value[0], "")
    return shape


_SHAPES: dict[str, Any] = {"{": {}, "[": []}


def _parsed_shape(head: bytes) -> dict[str, Any] | None:
    """The shapes from the YAML parser (bounded), for a frontmatter the lexical reading
    cannot follow."""
    lines = head.decode("utf-8", "replace").split("\n")
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
    if end is None:
        return None
    try:
        data = yaml_io.load("\n".join(lines[1:end]), yaml_io.FRONTMATTER)
    except (yaml.YAMLError, yaml_io.YamlRefused):
        return None
    if not isinstance(data, dict):
        return None
    return {
        str(k): {} if isinstance(v, dict) else [] if isinstance(v, list) else ""
        for k, v in data.items()
    }


def read_head(path: str, base_real: str, limit: int) -> bytes:
    """The first bytes of a regular file that lies inside `base_real` (the file opened
    is checked, reading/safefs.py `opened_inside`): 4 KB, then up to `limit` while the
    frontmatter has not closed. Raises OSError otherwise."""
    fd = os.open(path, OPEN_FLAGS)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileRefused(path, "it is not a regular file")
        opened_inside(fd, path, base_real)
        head = os.read(fd, 4096)
        if len(head) == 4096 and head.find(b"\n---", 3) < 0:
            head += os.read(fd, limit - len(head))
        return head
    finally:
        os.close(fd)
