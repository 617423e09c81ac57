"""Which SKILL.md files a scan reads: each root's (a root that became a link out is
refused; a lint of single skills reads the files it was given; else the profile's own
discovery or the walk), each file once, and the audit's notes on what was not read."""

from __future__ import annotations

from collections.abc import Callable

from ..model.confinement import refused_root
from ..model.diagnostics import Diagnostic
from ..model.scan import Found, ScanLimits
from ..model.skills import Root
from ..profile import Profile
from ..reading.discovery import discover, listed_files

Audit = Callable[[list[tuple[Root, Found]], list[Diagnostic]], list[Diagnostic]]


def find_skill_files(
    profile: Profile,
    roots: list[Root],
    limits: ScanLimits,
    files: dict[str, list[str]] | None,
    audit: Audit | None,
    root_mtimes: dict[str, int],
) -> tuple[list[tuple[Root, Found]], list[Diagnostic]]:
    """The files of `roots` (in precedence order) with the notes on the roots; `files`:
    root path -> the explicit SKILL.md paths to read there; each walked root's own mtime
    is put in `root_mtimes` (the refresh rule of an agent that watches only that)."""
    found: list[tuple[Root, Found]] = []
    notes: list[Diagnostic] = []
    for root in roots:
        refused = refused_root(root.path, root.base)  # a root now a link out: not read
        if refused is not None:
            notes.append(refused)
            continue
        if files is not None and root.path in files:
            listed = listed_files(files[root.path], root.boundary)
            notes.extend(listed.diagnostics)
            found.extend((root, f) for f in listed.files)
            continue
        result = profile.discover(root, limits)
        if result is None:
            result = discover(root.path, profile.discovery, profile.ignored_dirs, limits, root.base)
        root_mtimes[root.path] = result.root_mtime_ns
        notes.extend(result.diagnostics)
        found.extend((root, f) for f in result.files)
    found = once_each(found, notes)
    if audit is not None:  # what was found against every SKILL.md there is
        notes.extend(audit(found, notes))
    return found, notes


def once_each(found: list[tuple[Root, Found]], notes: list[Diagnostic]) -> list[tuple[Root, Found]]:
    """Each file once: a path two roots share (a folder and one inside it) silently, and
    the same file reached by two paths (a link to a skill folder or a root of the same
    folder) with an info naming both. The path kept is the first root's (roots come in
    precedence order: the agent's own folders first), within a root the one that runs
    through no link."""
    first: dict[str, tuple[Root, Found]] = {}
    for pair in found:
        first.setdefault(pair[1].path, pair)
    if len(first) != len(found):
        found = list(first.values())
    by_file: dict[tuple[int, int], tuple[Root, Found]] = {}
    dropped: set[str] = set()
    for root, item in found:
        if not item.ino:
            continue
        ident = (item.dev, item.ino)
        kept = by_file.get(ident)
        if kept is None:
            by_file[ident] = (root, item)
            continue
        if kept[0] is root and kept[1].linked and not item.linked:
            by_file[ident] = (root, item)
            kept, item = (root, item), kept[1]
        dropped.add(item.path)
        notes.append(
            Diagnostic(
                "symlink-skipped",
                "info",
                f"This is the same file as {kept[1].path} (one of them is reached through a "
                f"link); it is read once, as {kept[1].path}.",
                item.path,
            )
        )
    return [pair for pair in found if pair[1].path not in dropped] if dropped else found
