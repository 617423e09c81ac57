"""The skill model: roots, skills and their status."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from .diagnostics import Diagnostic
from .document import Document

Status = Literal["active", "shadowed", "skipped", "disabled"]


@dataclass(frozen=True, slots=True)
class Root:
    """A folder that holds skills, with its place in the precedence order (0 = lowest)."""

    path: str
    label: str
    precedence: int = 0
    # A separate collection of a repository (its short name), or "" for the roots of one
    # agent's precedence order. Skills of different collections never shadow each other.
    collection: str = ""
    # The folder the root must resolve inside (the folder the user opened,
    # model/confinement.py): re-checked at each scan and save; "" for the machine's own
    # folders (personal, user).
    base: str = ""

    @property
    def boundary(self) -> str:
        """The folder every file of this root must resolve inside: the folder opened
        (`base`), so that a link to another folder of it is followed; the root itself
        for the machine's own folders."""
        return self.base or self.path

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
    # the namespace the agent puts before the skill's own name (`plugin` of a plugin
    # skill's `plugin:skill`), "" for none: a qualifier, never words of the name
    namespace: str = ""
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
    def own_name(self) -> str:
        """The name without its namespace (`skill` of `plugin:skill`): the words of the
        skill's name, the same whether it sits in a plugin or not."""
        prefix = self.namespace + ":" if self.namespace else ""
        if prefix and self.name.startswith(prefix):
            return self.name[len(prefix) :]
        return self.name

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

    def summary_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "path": self.path,
            "root": self.root.path,
            "status": self.status,
        }


def shown_name(skill: Skill | None, path: str) -> str:
    """The one name a skill is shown by in the app (tree, tab, Where it loads), the
    name `show` and `list` print: the name the profile knows it by (`plugin:skill` in a
    plugin, the folder's under Claude Code); the folder's name for a file no profile
    reads as a skill (yet)."""
    if skill is not None and skill.name:
        return skill.name
    return os.path.basename(os.path.dirname(path)) or os.path.basename(path)


_DIGITS = re.compile(r"[0-9]+")


def name_order(name: str) -> str:
    """The order names are listed in: case-insensitive, numbers by their value
    (`step-2` before `step-10`: each run of digits padded to 20 places; one string a
    name sorts 10,000 names in a few milliseconds)."""
    return _DIGITS.sub(lambda digits: digits.group().zfill(20), name.casefold())


# -- compact state, for handing skills between processes ----------------------
# Dataclass instances pickle through Python-level reduce hooks (measured: 0.7 s
# for 5,000 skills); tuples of builtins pickle in C.


def agent_skill(agent: str, name: str, description: str, path: str, label: str) -> Skill:
    """A skill the agent itself lists (Claude Code's bundled skills, Codex's system
    skills: Profile.agent_skills), for a caller that weighs them beside the user's: no
    file behind it is read; `path` is where the agent keeps it, or `<agent>:<name>`."""
    root = Root(os.path.dirname(path) if os.sep in path else agent, label)
    skill = Skill(path, root, Document(path), name=name, key=name, description=description)
    skill.fields = {"name": name, "description": description, "agent_skill": agent}
    return skill
