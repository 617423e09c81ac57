"""The skill model: roots, skills and their status."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Literal

from .diagnostics import Diagnostic
from .frontmatter import Document, read_document

Status = Literal["active", "shadowed", "skipped", "disabled"]

IGNORED_SUPPORT_NAMES = frozenset({".git", "node_modules", "__pycache__", ".DS_Store"})
MAX_SUPPORT_FILES = 2000


@dataclass(frozen=True, slots=True)
class Root:
    """A folder that holds skills, with its place in the precedence order (0 = lowest)."""

    path: str
    label: str
    precedence: int = 0

    @property
    def exists(self) -> bool:
        return os.path.isdir(self.path)


@dataclass(eq=False, slots=True)
class Skill:
    """One parsed SKILL.md under a root, as one profile sees it."""

    path: str
    root: Root
    doc: Document
    mtime_ns: int = 0
    size: int = 0
    name: str = ""  # the name the profile knows it by (registry key when loadable)
    key: str | None = None  # registry key; None when the profile cannot load it
    description: str = ""
    fields: dict[str, Any] = field(default_factory=dict)
    status: Status = "active"
    status_reason: str = ""
    winner: str | None = None  # path of the skill that shadows this one
    diagnostics: list[Diagnostic] = field(default_factory=list)
    cross: list[Diagnostic] = field(default_factory=list)  # from cross-skill checks
    # (normalized phrase, field, item, child) of its triggers, for ambiguity checks
    phrases: list[tuple[str, str, int, str]] = field(default_factory=list)
    phrase_set: frozenset[str] = frozenset()

    @property
    def folder(self) -> str:
        return os.path.dirname(self.path)

    @property
    def folder_name(self) -> str:
        return os.path.basename(self.folder)

    @property
    def raw(self) -> dict[str, Any]:
        """The frontmatter mapping as YAML read it (every key kept); the fallback
        extraction's name/description when the YAML cannot be read."""
        if self.doc.mapping is not None:
            return self.doc.mapping
        return self.doc.fallback

    @property
    def all_diagnostics(self) -> list[Diagnostic]:
        return self.diagnostics + self.cross

    def load_body(self) -> str:
        """The body as it is on disk now (bodies are not kept in memory)."""
        if self.doc.text:
            return self.doc.body
        return read_document(self.path).body

    def supporting_files(self) -> list[str]:
        """Files beside SKILL.md, relative to the skill folder, sorted (bounded walk)."""
        found: list[str] = []
        base = self.folder
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if d not in IGNORED_SUPPORT_NAMES)
            for name in sorted(filenames):
                if name in IGNORED_SUPPORT_NAMES:
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name), base)
                if rel != os.path.basename(self.path):
                    found.append(rel)
                if len(found) >= MAX_SUPPORT_FILES:
                    return found
        return found

    def summary_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "path": self.path,
            "root": self.root.path,
            "status": self.status,
        }
