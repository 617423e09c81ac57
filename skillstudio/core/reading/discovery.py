"""Finds the SKILL.md files under a root by a profile's discovery pattern.

Bounded on purpose: a folder count and a depth limit per root, symbolic links
followed only while they stay inside the folder opened and do not loop (a link
out, a dangling link and a loop are each reported), and every skipped place
reported as a diagnostic instead of an exception.
"""

from __future__ import annotations

import os
import stat
from operator import attrgetter

from ..model.confinement import link_nowhere, link_out, outside
from ..model.diagnostics import Diagnostic
from ..model.paths import is_inside, is_within
from ..model.scan import (
    ALWAYS_IGNORED,
    SKILL_FILE,
    Discovery,
    DiscoveryResult,
    Found,
    ScanLimits,
    depth_note,
    skipped_by_design,
)
from .safefs import kind


class _Walk:
    def __init__(
        self,
        root: str,
        mode: Discovery,
        ignored: frozenset[str],
        limits: ScanLimits,
        base: str | None = None,
    ) -> None:
        self.root = root
        self.root_real = os.path.realpath(root)
        # Links are followed while they stay inside the folder opened (`base`; the
        # root itself when none is given) and do not lead back up to the root.
        self.base = base or root
        self.base_real = os.path.realpath(base) if base else self.root_real
        self.mode = mode
        self.ignored = ignored | ALWAYS_IGNORED
        self.limits = limits
        self.result = DiscoveryResult()
        self.stopped = False

    def note(self, code: str, severity: str, message: str, path: str) -> None:
        self.result.diagnostics.append(
            Diagnostic(code, severity, message, path, 0, 0)  # type: ignore[arg-type]
        )

    def skill_file(self, folder: str, linked: bool = False) -> None:
        path = os.path.join(folder, SKILL_FILE)
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return
        except NotADirectoryError:
            return
        except OSError as exc:
            self.note("unreadable", "error", f"Cannot read {SKILL_FILE} ({exc.strerror}).", path)
            return
        if stat.S_ISLNK(st.st_mode):
            real = os.path.realpath(path)
            if not is_inside(real, self.base_real):
                self.result.diagnostics.append(link_out(path, real, self.base))
                return
            try:
                st = os.stat(path)
            except OSError:
                self.result.diagnostics.append(link_nowhere(path))
                return
            linked = True
        if not stat.S_ISREG(st.st_mode):
            self.note(
                "unreadable",
                "warning",
                f"This {SKILL_FILE} is {kind(st.st_mode)}, not a regular file; it was not read.",
                path,
            )
            return
        self.result.files.append(Found.of(path, st, linked))

    def followed(self, path: str) -> bool:
        """Whether a link found in a root is followed as a folder: its target must be a
        folder inside the folder opened, and not the root or a folder above it (which
        would read the root again). A dangling or looping link is reported."""
        try:
            st = os.stat(path)
        except OSError:
            self.result.diagnostics.append(link_nowhere(path))
            return False
        if not stat.S_ISDIR(st.st_mode):
            return False  # a link to a file: not a skill folder
        real = os.path.realpath(path)
        if not is_inside(real, self.base_real):
            self.result.diagnostics.append(link_out(path, real, self.base))
            return False
        if is_within(self.root_real, real):
            self.note(
                "symlink-skipped",
                "warning",
                f"This link points to {real}, which holds this root itself (a loop); it was "
                "not followed.",
                path,
            )
            return False
        return True

    def enter(self, entry: os.DirEntry[str]) -> bool:
        """Whether a child folder may be entered (links checked, limit counted)."""
        if self.stopped:
            return False
        try:
            if entry.is_symlink():
                if not self.followed(entry.path):
                    return False
            elif not entry.is_dir():
                return False
        except OSError:
            return False
        self.result.folders += 1
        if self.result.folders > self.limits.max_folders:
            self.stopped = True
            self.note(
                "scan-limit",
                "warning",
                f"Stopped after {self.limits.max_folders:,} folders; skills further on were "
                "not scanned. Point the root at a smaller folder or raise scan.max_folders "
                "in skillstudio.yaml.",
                self.root,
            )
            return False
        return True

    def listing(self, folder: str) -> list[os.DirEntry[str]]:
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError as exc:
            self.note("unreadable", "warning", f"Cannot list this folder ({exc.strerror}).", folder)
            return []
        # Results are sorted by path at the end; the walk itself needs an order
        # only when the folder limit decides which folders are left out.
        if len(entries) + self.result.folders > self.limits.max_folders or self.mode == "recursive":
            entries.sort(key=attrgetter("name"))
        return entries

    def hidden(self, entry: os.DirEntry[str]) -> None:
        if entry.name in self.ignored:
            return
        if os.path.isfile(os.path.join(entry.path, SKILL_FILE)):
            self.note(
                "scan-limit",
                "info",
                f"The hidden folder '{entry.name}' holds a {SKILL_FILE}; hidden folders are "
                "not scanned (like the glob patterns agents use). Add it as a root to "
                "include it.",
                entry.path,
            )

    def children(self, folder: str) -> None:
        # The hot loop of every scan and refresh: plain folders take one lstat
        # each; links, hidden folders and limits go through the careful paths.
        files = self.result.files
        limit = self.limits.max_folders
        ignored = self.ignored
        sep_name = os.sep + SKILL_FILE
        lstat, is_regular = os.lstat, stat.S_ISREG
        counted = self.result.folders
        for entry in self.listing(folder):
            name = entry.name
            if name[0] == ".":
                if entry.is_dir():
                    self.hidden(entry)
                continue
            if name in ignored:
                continue
            try:
                plain_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if not plain_dir or counted >= limit:
                self.result.folders = counted
                if self.enter(entry):
                    self.skill_file(entry.path, not plain_dir)
                counted = self.result.folders
                if self.stopped:
                    return
                continue
            counted += 1
            path = entry.path + sep_name
            try:
                st = lstat(path)
            except (FileNotFoundError, NotADirectoryError):
                continue
            except OSError:
                self.skill_file(entry.path)  # reports why it cannot be read
                continue
            if is_regular(st.st_mode):
                files.append(Found(path, st.st_mtime_ns, st.st_size, st.st_dev, st.st_ino))
            else:
                self.skill_file(entry.path)  # a link: checked against the root
        self.result.folders = counted

    def recursive(self) -> None:
        seen: set[tuple[int, int]] = set()
        try:
            st = os.stat(self.root)
            seen.add((st.st_dev, st.st_ino))
        except OSError:
            return
        stack: list[tuple[str, int, bool]] = [(self.root, 0, False)]
        deep: list[str] = []  # folders at the depth limit with folders inside: one note
        while stack and not self.stopped:
            folder, depth, linked = stack.pop()
            self.skill_file(folder, linked)
            if depth >= self.limits.max_depth:
                # (said once for the root, and never of folders skipped by design)
                inside = os.path.relpath(folder, self.root).split(os.sep)
                if not any(map(skipped_by_design, inside)) and any(
                    e.is_dir() and not (e.name.startswith(".") or skipped_by_design(e.name))
                    for e in self.listing(folder)
                ):
                    deep.append(folder)
                continue
            subfolders: list[tuple[str, bool]] = []
            for entry in self.listing(folder):
                if entry.name.startswith("."):
                    if entry.is_dir():
                        self.hidden(entry)
                    continue
                if entry.name in self.ignored or not self.enter(entry):
                    continue
                try:
                    est = entry.stat()
                except OSError:
                    continue
                ident = (est.st_dev, est.st_ino)
                if ident in seen:
                    self.note(
                        "symlink-skipped",
                        "warning",
                        "This folder was already scanned through another link (a loop); "
                        "it was not scanned again.",
                        entry.path,
                    )
                    continue
                seen.add(ident)
                subfolders.append((entry.path, linked or entry.is_symlink()))
            stack.extend((sub, depth + 1, via) for sub, via in reversed(subfolders))
        if deep:
            self.result.diagnostics.append(
                depth_note(self.root, deep, self.limits.max_depth, "scanned")
            )

    def run(self) -> DiscoveryResult:
        try:
            self.result.root_mtime_ns = os.stat(self.root).st_mtime_ns
        except OSError:
            return self.result
        if self.mode == "recursive":
            self.recursive()
        else:
            if self.mode == "self_and_children":
                self.skill_file(self.root)
            self.children(self.root)
        # Discovery order is sorted path order everywhere ("last discovered wins"
        # must not depend on the walk); the list is nearly sorted already.
        self.result.files.sort(key=attrgetter("path"))
        return self.result


def listed_files(paths: list[str], base: str) -> DiscoveryResult:
    """SKILL.md files named one by one (lint of single skills): each read only when it
    resolves inside `base`, the folder opened (core/model/confinement.py)."""
    result = DiscoveryResult()
    for path in sorted(paths):
        target = outside(path, base)
        if target is not None:
            result.diagnostics.append(link_out(path, target, base))
            continue
        try:
            st = os.stat(path)
        except OSError as exc:
            message = f"Cannot read this file ({exc.strerror})."
            result.diagnostics.append(Diagnostic("unreadable", "error", message, path))
            continue
        result.files.append(Found.of(path, st))
    return result


def discover(
    root: str,
    mode: Discovery,
    ignored: frozenset[str] = frozenset(),
    limits: ScanLimits | None = None,
    base: str | None = None,
) -> DiscoveryResult:
    """Every SKILL.md under `root` that the pattern selects, in sorted path order; links
    are followed while they resolve inside `base` (the folder opened; default the root)."""
    return _Walk(root, mode, ignored, limits or ScanLimits(), base).run()
