"""A skill's own files, read again on demand: its body as it is on disk now, and the
files beside its SKILL.md."""

from __future__ import annotations

import os

from ..model.skills import Skill
from .frontmatter import read_document
from .safefs import walk

IGNORED_SUPPORT_NAMES = frozenset({".git", "node_modules", "__pycache__", ".DS_Store"})
MAX_SUPPORT_FILES = 2000


def skill_body(skill: Skill) -> str:
    """The body as it is on disk now (bodies are not kept in memory)."""
    if skill.doc.text:
        return skill.doc.body
    return read_document(skill.path, None, os.path.realpath(skill.root.boundary)).body


def supporting_files(skill: Skill) -> list[str]:
    """Files beside SKILL.md, relative to the skill folder, sorted (a bounded walk
    without recursion; links are listed, never followed)."""
    found: list[str] = []
    base = skill.folder
    own = os.path.basename(skill.path)
    for folders, (_folder, dirnames, entries) in enumerate(walk(base), 1):
        dirnames[:] = [d for d in dirnames if d not in IGNORED_SUPPORT_NAMES]
        for entry in entries:
            if entry.name in IGNORED_SUPPORT_NAMES:
                continue
            rel = os.path.relpath(entry.path, base)
            if rel != own:
                found.append(rel)
            if len(found) >= MAX_SUPPORT_FILES:
                return found
        if folders >= MAX_SUPPORT_FILES:
            break
    return found
