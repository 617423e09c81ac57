"""workspace (seed 004): <workDir>/skills, fallback parsing, allowlists, activateSkill consent."""

from __future__ import annotations

from ..fields import FieldSpec
from ..model import Skill
from ..text import sanitize_name
from .base import Checker, Profile, RootSpec


class Workspace(Profile):
    name = "workspace"
    title = "Workspace (skills/, activateSkill)"
    source = "seed 004"
    roots = (RootSpec("skills", "workspace"),)
    discovery = "self_and_children"
    ignored_dirs = frozenset({".git", "node_modules"})
    uses_fallback = True
    fields = (
        FieldSpec(
            "name",
            "string",
            "Name",
            "Skill name; normalized to a stable id (lowercase, other characters to '-').",
            required=True,
        ),
        FieldSpec(
            "description",
            "text",
            "Description",
            "Listed with the name and location in the Available Skills section.",
            required=True,
        ),
    )

    def resolve(self, skill: Skill, c: Checker) -> None:
        raw = skill.raw
        name = raw.get("name")
        written = name.strip() if isinstance(name, str) else ""
        skill.name = sanitize_name(written) or written or skill.folder_name
        skill.key = skill.name
        desc = raw.get("description")
        skill.description = desc.strip() if isinstance(desc, str) else ""
        skill.fields = {
            "name": skill.name,
            "written_name": written,
            "description": skill.description,
            "location": skill.path,
        }

    def check(self, c: Checker) -> None:
        raw = c.skill.raw
        name = raw.get("name")
        if isinstance(name, str):
            clean = sanitize_name(name)
            if not clean:
                c.emit(
                    "name-format",
                    f"'name' '{name}' has no letters or digits, so its id is empty; the "
                    "skill is skipped. Use a name such as repo-survey.",
                    field="name",
                    at="value",
                )
                c.fail("name")
            elif clean != name.strip():
                c.emit(
                    "name-format",
                    f"'name' '{name.strip()}' is known as '{clean}' (the stable id).",
                    field="name",
                    at="value",
                    severity="info",
                )
        self.check_not_empty(c, "description", "'description' is empty; the skill is skipped.")
