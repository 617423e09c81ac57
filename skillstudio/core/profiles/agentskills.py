"""agentskills: the public Agent Skills standard, as checked by skills-ref 0.1.1."""

from __future__ import annotations

import unicodedata
from typing import Any, ClassVar

from ..checking.advice import advise
from ..checking.advice_body import body_length
from ..checking.field_checks import check_length, check_not_empty
from ..model.diagnostics import Severity
from ..model.fields import FieldSpec, described, quoted, show, yaml_kind
from ..model.skills import Skill
from ..profile import Checker, Profile, RootSpec
from .gemini.listing import activate_skill_declaration

SOURCE_SHOWN = 60  # characters of a value's source quoted in a message
MAX_NAME = 64
MAX_DESCRIPTION = 1024
MAX_COMPATIBILITY = 500


class AgentSkills(Profile):
    name = "agentskills"
    order = 10
    title = "Agent Skills standard"
    agent_words = "An agent that follows the Agent Skills standard"
    source = "agentskills.io specification, skills-ref 0.1.1"
    roots = (RootSpec(".agents/skills", "project"),)
    marker_dirs = (".agents/skills",)
    unknown_field_severity: ClassVar[Severity | None] = "error"
    fields = (
        FieldSpec(
            "name",
            "string",
            "Name",
            "1-64 lowercase letters, digits and hyphens; no leading, trailing or doubled "
            "hyphen; must equal the folder name.",
            required=True,
            max_length=MAX_NAME,
        ),
        FieldSpec(
            "description",
            "text",
            "Description",
            "What the skill does and when to use it.",
            required=True,
            max_length=MAX_DESCRIPTION,
        ),
        FieldSpec("license", "string", "License", "License name or a bundled license file."),
        FieldSpec(
            "compatibility",
            "text",
            "Compatibility",
            "Environment requirements (products, packages, network).",
            max_length=MAX_COMPATIBILITY,
        ),
        FieldSpec("metadata", "map", "Metadata", "Extra string keys and values for clients."),
        FieldSpec(
            "allowed-tools",
            "spaced",
            "Allowed tools",
            "Space-separated list of pre-approved tools (experimental).",
        ),
    )

    def skill_tool(self, names: list[str]) -> dict[str, Any] | None:
        """Asked as Gemini CLI asks (core/live/questions.py): its `activate_skill`
        declaration, the `name` an enum of the listed names."""
        return activate_skill_declaration(names)

    def unknown_message(self, key: str) -> str:
        allowed = ", ".join(spec.key for spec in self.fields)
        return (
            f"'{key}' is not allowed by the Agent Skills standard (allowed: {allowed}); "
            "move it under 'metadata:' or remove it."
        )

    def resolve(self, skill: Skill, c: Checker) -> None:
        super().resolve(skill, c)
        raw = skill.raw
        skill.fields = {
            "name": skill.name,
            "description": skill.description,
            "license": raw.get("license"),
            "compatibility": raw.get("compatibility"),
            "metadata": raw.get("metadata") if isinstance(raw.get("metadata"), dict) else {},
            "allowed-tools": raw.get("allowed-tools"),
        }

    def check(self, c: Checker) -> None:
        raw = c.skill.raw
        name = raw.get("name")
        if isinstance(name, str):
            self._check_name(c, name)
        desc = raw.get("description")
        check_not_empty(
            c, "description", "'description' is empty; say what the skill does and when to use it."
        )
        check_length(
            c, "description", desc, MAX_DESCRIPTION, "description-too-long", "'description'"
        )
        comp = raw.get("compatibility")
        check_length(
            c, "compatibility", comp, MAX_COMPATIBILITY, "compatibility-too-long", "'compatibility'"
        )
        meta = raw.get("metadata")
        if isinstance(meta, dict):
            written: dict[str, str] | None = None
            for key, value in meta.items():
                if isinstance(key, str) and isinstance(value, str):
                    continue
                if isinstance(value, list | dict):  # named with its count, never spelled out
                    what = f"{described(value)}; write the value as one line of text"
                else:
                    if written is None:
                        from ..editing.values import typed_sources

                        written = typed_sources(c.doc)
                    source = written.get(f"metadata.{key}")
                    what = (
                        f"{source} as {yaml_kind(value)}, {show(value)}; put it in quotes "
                        f'("{source}") to keep the text'
                        if source and len(source) <= SOURCE_SHOWN
                        else f"{show(value)} as {yaml_kind(value)}; put it in quotes"
                    )
                c.emit(
                    "field-type",
                    f"{quoted(f'metadata.{key}', 80)} should map text to text; YAML reads {what}.",
                    field="metadata",
                    child=str(key),
                    severity="warning",
                )
        advise(c)

    def _check_name(self, c: Checker, name: str) -> None:
        if not name.strip():
            c.emit("name-format", "'name' is empty.", field="name", at="value")
            c.fail("name")
            return
        norm = unicodedata.normalize("NFKC", name.strip())
        if len(norm) > MAX_NAME:
            c.emit(
                "name-too-long",
                f"'name' is {len(norm)} characters; the limit is {MAX_NAME}.",
                field="name",
                at="value",
            )
        rules = []
        if norm != norm.lower():
            rules.append("must be lowercase")
        if norm.startswith("-") or norm.endswith("-"):
            rules.append("cannot start or end with a hyphen")
        if "--" in norm:
            rules.append("cannot contain consecutive hyphens")
        if not all(ch.isalnum() or ch == "-" for ch in norm):
            rules.append("may hold only letters, digits and hyphens")
        for rule in rules:
            c.emit("name-format", f"The name '{norm}' {rule}.", field="name", at="value")
        folder = unicodedata.normalize("NFKC", c.skill.folder_name)
        if folder != norm:
            c.emit(
                "name-dir-mismatch",
                f"The name '{norm}' must equal the folder name '{c.skill.folder_name}': rename "
                "one of them.",
                field="name",
                at="value",
            )

    def body_advice(self, c: Checker, body: str) -> None:
        body_length(c, body)
