"""mvp (seed 003): skills/**/SKILL.md, a Skill tool with a character-budgeted listing."""

from __future__ import annotations

import re

from ..fields import NAME_RULE, FieldSpec
from ..model import Skill
from .base import Checker, Profile, RootSpec

NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
NON_GOALS = {
    "allowed-tools": "tool whitelists",
    "model": "model overrides",
    "permissions": "permissions",
    "disable-model-invocation": "invocation controls",
    "user-invocable": "invocation controls",
}


class Mvp(Profile):
    name = "mvp"
    title = "MVP Skill tool (skills/**)"
    source = "seed 003"
    roots = (RootSpec("skills", "skills"),)
    discovery = "recursive"
    refresh_rule = "root-mtime"
    fields = (
        FieldSpec(
            "name",
            "string",
            "Name",
            f"Skill identifier: {NAME_RULE}. The frontmatter value wins over the folder name.",
            required=True,
        ),
        FieldSpec(
            "description",
            "text",
            "Description",
            "Listed (brief) in the Skill tool's prompt; must be non-empty.",
            required=True,
        ),
    )

    def resolve(self, skill: Skill, c: Checker) -> None:
        super().resolve(skill, c)
        skill.fields = {"name": skill.name, "description": skill.description}

    def unknown_message(self, key: str) -> str:
        if key in NON_GOALS:
            return f"'{key}' is ignored: the MVP skill system has no {NON_GOALS[key]}."
        return super().unknown_message(key)

    def check(self, c: Checker) -> None:
        raw = c.skill.raw
        name = raw.get("name")
        if isinstance(name, str):
            if not NAME.match(name):
                c.emit(
                    "name-format",
                    f"'name' '{name}' must be {NAME_RULE}.",
                    field="name",
                    at="value",
                )
                c.fail("name")
            elif name != c.skill.folder_name:
                c.emit(
                    "name-dir-mismatch",
                    f"'name' '{name}' differs from the folder '{c.skill.folder_name}'; the "
                    "frontmatter value is used.",
                    field="name",
                    at="value",
                    severity="info",
                )
        self.check_not_empty(c, "description", "'description' must be non-empty.")
