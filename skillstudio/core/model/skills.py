"""The skill model: roots, skills and their status."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Literal

from ..reading.frontmatter import Document, Problem, read_document
from ..reading.safefs import walk
from .diagnostics import Diagnostic
from .positions import FieldPos

Status = Literal["active", "shadowed", "skipped", "disabled"]

IGNORED_SUPPORT_NAMES = frozenset({".git", "node_modules", "__pycache__", ".DS_Store"})
MAX_SUPPORT_FILES = 2000


@dataclass(frozen=True, slots=True)
class Root:
    """A folder that holds skills, with its place in the precedence order (0 = lowest)."""

    path: str
    label: str
    precedence: int = 0
    # A separate collection of a repository (its short name), or "" for the roots of one
    # agent's precedence order. Skills of different collections never shadow each other.
    collection: str = ""

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
    qualifier: str = ""  # set when `key` is `<collection>:<name>` (a name two collections use)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    cross: list[Diagnostic] = field(default_factory=list)  # from cross-skill checks
    # (normalized phrase, field, item, child) of its triggers, for ambiguity checks
    phrases: list[tuple[str, str, int, str]] = field(default_factory=list)
    phrase_set: frozenset[str] = frozenset()
    # the body's most frequent words (core/reading/skill_words.py), for the likely ranking;
    # empty where the rules select (the profile's model_chooses is false)
    gist: str = ""

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
        """Files beside SKILL.md, relative to the skill folder, sorted (a bounded walk
        without recursion; links are listed, never followed)."""
        found: list[str] = []
        base = self.folder
        own = os.path.basename(self.path)
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

    def summary_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "path": self.path,
            "root": self.root.path,
            "status": self.status,
        }


# -- compact state, for handing skills between processes ----------------------
# Dataclass instances pickle through Python-level reduce hooks (measured: 0.7 s
# for 5,000 skills); tuples of builtins pickle in C.


def _pos_state(pos: FieldPos) -> tuple[Any, ...]:
    return (
        pos.key_line,
        pos.key_column,
        pos.value_line,
        pos.value_column,
        pos.end_line,
        pos.end_column,
        pos.items,
        {k: _pos_state(v) for k, v in pos.children.items()},
    )


def _pos_from(state: tuple[Any, ...]) -> FieldPos:
    kl, kc, vl, vc, el, ec, items, children = state
    return FieldPos(kl, kc, vl, vc, el, ec, items, {k: _pos_from(v) for k, v in children.items()})


def _diag_state(d: Diagnostic) -> tuple[Any, ...]:
    return (d.code, d.severity, d.message, d.path, d.line, d.column, d.field, d.skill)


def skill_state(skill: Skill) -> tuple[Any, ...]:
    doc = skill.doc
    positions = doc._positions
    return (
        skill.path,
        skill.mtime_ns,
        skill.size,
        skill.name,
        skill.key,
        skill.description,
        skill.fields,
        skill.status,
        skill.status_reason,
        [_diag_state(d) for d in skill.diagnostics],
        skill.phrases,
        (
            doc.text,
            doc.bom,
            doc.newline,
            doc.encoding,
            doc.has_frontmatter,
            doc.closed,
            doc.fm_text,
            doc.fm_first_line,
            doc.fm_close_line,
            doc.body_offset,
            doc.body_line,
            doc.mapping,
            [(p.code, p.message, p.line, p.column, p.field) for p in doc.problems],
            doc.fallback,
            doc.fallback_pos,
            doc.readable,
            None if positions is None else {k: _pos_state(v) for k, v in positions.items()},
            doc._raw_positions,
        ),
        skill.gist,
    )


def skill_from_state(state: tuple[Any, ...], root: Root) -> Skill:
    (
        path,
        mtime_ns,
        size,
        name,
        key,
        description,
        fields,
        status,
        reason,
        diags,
        phrases,
        ds,
        gist,
    ) = state
    doc = Document(
        path=path,
        text=ds[0],
        bom=ds[1],
        newline=ds[2],
        encoding=ds[3],
        has_frontmatter=ds[4],
        closed=ds[5],
        fm_text=ds[6],
        fm_first_line=ds[7],
        fm_close_line=ds[8],
        body_offset=ds[9],
        body_line=ds[10],
        mapping=ds[11],
        problems=[Problem(*p) for p in ds[12]],
        fallback=ds[13],
        fallback_pos=ds[14],
        readable=ds[15],
    )
    if ds[16] is not None:
        doc._positions = {k: _pos_from(v) for k, v in ds[16].items()}
    doc._raw_positions = ds[17]
    return Skill(
        path=path,
        root=root,
        doc=doc,
        mtime_ns=mtime_ns,
        size=size,
        name=name,
        key=key,
        description=description,
        fields=fields,
        status=status,
        status_reason=reason,
        diagnostics=[Diagnostic(*d) for d in diags],
        phrases=phrases,
        phrase_set=frozenset(p[0] for p in phrases),
        gist=gist,
    )
