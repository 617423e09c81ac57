"""What a scan looks for and what it found: a profile's discovery pattern, the limits of
one root's walk, the skill files found (the walk itself is reading/discovery.py)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from .diagnostics import Diagnostic

Discovery = Literal["children", "recursive", "self_and_children"]  # a profile's pattern
DEFAULT_MAX_FOLDERS = 10_000
DEFAULT_MAX_DEPTH = 8
SKILL_FILE = "SKILL.md"
ALWAYS_IGNORED = frozenset({".git", "node_modules", "__pycache__"})


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
