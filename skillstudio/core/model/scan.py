"""What a scan looks for and what it found: a profile's discovery pattern, the limits of
one root's walk, the skill files found (the walk itself is reading/discovery.py)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from .diagnostics import Diagnostic
from .text import counted

Discovery = Literal["children", "recursive", "self_and_children"]  # a profile's pattern
DEFAULT_MAX_FOLDERS = 10_000
DEFAULT_MAX_DEPTH = 8
SKILL_FILE = "SKILL.md"
ALWAYS_IGNORED = frozenset({".git", "node_modules", "__pycache__"})
# Folders a search for skills never enters and a scan limit never names: version control,
# dependencies, build output, virtual environments and caches (a folder holding
# `pyvenv.cfg` is one too), and backups named so (`backups/`, `skills.bak/`).
SKIPPED_TREES = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "bower_components",
        "__pycache__",
        "venv",
        ".venv",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".cache",
        "site-packages",
        "dist",
        "build",
        "target",
        "out",
        ".next",
        ".nuxt",
        ".svelte-kit",
        ".turbo",
        ".parcel-cache",
        ".gradle",
        "backup",
        "backups",
        ".backup",
        ".backups",
    }
)
BACKUP_SUFFIXES = (".bak", ".backup", ".orig", ".old", "~")


def skipped_by_design(name: str) -> bool:
    """Whether a folder of this name is skipped by design (SKIPPED_TREES, a backup)."""
    return name in SKIPPED_TREES or name.lower() in SKIPPED_TREES or name.endswith(BACKUP_SUFFIXES)


class Found(NamedTuple):
    """A SKILL.md found by discovery (a tuple: built 10,000 times per refresh). `dev` and
    `ino` name the file itself (0 when unknown): the same file reached by two paths is
    one skill; `linked`: the path runs through a link (the other path is preferred)."""

    path: str
    mtime_ns: int
    size: int
    dev: int = 0
    ino: int = 0
    linked: bool = False

    @classmethod
    def of(cls, path: str, st: os.stat_result, linked: bool = False) -> Found:
        return cls(path, st.st_mtime_ns, st.st_size, st.st_dev, st.st_ino, linked)


@dataclass(slots=True)
class ScanLimits:
    max_folders: int = DEFAULT_MAX_FOLDERS
    max_depth: int = DEFAULT_MAX_DEPTH


@dataclass(slots=True)
class DiscoveryResult:
    files: list[Found] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    folders: int = 0
    root_mtime_ns: int = 0


def depth_note(folder: str, deep: list[str], max_depth: int, done: str) -> Diagnostic:
    """The one `scan-limit` note of a search or walk of `folder` that stopped at
    `max_depth` in the `deep` folders (once per root, naming the first; docs/commands.md)."""
    first = os.path.relpath(min(deep), folder)
    more = f" and {counted(len(deep) - 1, 'other folder')}" if len(deep) > 1 else ""
    return Diagnostic(
        "scan-limit",
        "warning",
        f"Folders deeper than {max_depth} levels are not {done}: those inside {first}{more}. "
        "Point at a smaller folder, or raise scan.max_depth in skillstudio.yaml.",
        folder,
    )
