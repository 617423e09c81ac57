"""oasis (seed 000): key_skills/<id>/SKILL.md, scored selection with triggers and priority."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import ClassVar

from ..diagnostics import Severity
from ..fields import FieldSpec
from ..model import Skill
from ..text import normalize
from .base import Checker, Profile, RootSpec

SLUG = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)*")


class Oasis(Profile):
    name = "oasis"
    title = "Oasis (key_skills)"
    source = "seed 000"
    roots = (RootSpec("key_skills", "key_skills"),)
    key_field = "id"
    severities: ClassVar[dict[str, Severity]] = {"duplicate-name": "error"}
    fields = (
        FieldSpec(
            "id",
            "string",
            "ID",
            "Unique slug that keys the registry; usually matches the folder name.",
            required=True,
        ),
        FieldSpec(
            "name",
            "string",
            "Name",
            "Short display name; a request that mentions it scores +20.",
            required=True,
        ),
        FieldSpec(
            "description",
            "text",
            "Description",
            "What the skill is for. Its first line goes into the system summary; each of "
            "its distinct keywords found in a request scores +1.",
            required=True,
        ),
        FieldSpec(
            "triggers",
            "list",
            "Triggers",
            "Phrases or intents that indicate this skill should be used; each one found "
            "in a request scores +10. The first three appear in the summary.",
            required=True,
        ),
        FieldSpec(
            "priority",
            "int",
            "Priority",
            "Integer; when two skills score the same, the higher priority wins.",
            required=True,
        ),
        FieldSpec("inputs", "text_or_list", "Inputs", "Expected inputs."),
        FieldSpec("outputs", "text_or_list", "Outputs", "Expected outputs."),
        FieldSpec("safety_notes", "text_or_list", "Safety notes", "Constraints and risk checks."),
    )

    def resolve(self, skill: Skill, c: Checker) -> None:
        raw = skill.raw
        ident = raw.get("id")
        display = raw.get("name")
        skill.name = ident.strip() if isinstance(ident, str) and ident.strip() else ""
        if not skill.name:
            skill.name = skill.folder_name
        skill.key = skill.name
        desc = raw.get("description")
        skill.description = desc.strip() if isinstance(desc, str) else ""
        triggers = raw.get("triggers")
        skill.fields = {
            "id": skill.name,
            "name": display if isinstance(display, str) else skill.name,
            "description": skill.description,
            "summary_description": skill.description.splitlines()[0] if skill.description else "",
            "triggers": [t for t in triggers if isinstance(t, str)]
            if isinstance(triggers, list)
            else [],
            "priority": raw.get("priority") if isinstance(raw.get("priority"), int) else 0,
        }
        skill.fields["triggers_normalized"] = [normalize(t) for t in skill.fields["triggers"]]

    def check(self, c: Checker) -> None:
        raw = c.skill.raw
        ident = raw.get("id")
        if isinstance(ident, str):
            if not SLUG.fullmatch(ident):
                c.emit(
                    "name-format",
                    f"'id' '{ident}' is not a slug: use lowercase letters and digits joined "
                    "by '-' or '_' (for example code-review).",
                    field="id",
                    at="value",
                    severity="warning",
                )
            elif ident != c.skill.folder_name:
                c.emit(
                    "name-dir-mismatch",
                    f"'id' '{ident}' differs from the folder name '{c.skill.folder_name}'; "
                    "the seed says it usually matches. The registry uses the id.",
                    field="id",
                    at="value",
                    severity="info",
                )
        for key in ("name", "description"):
            self.check_not_empty(c, key, f"'{key}' is empty; write a short {key}.")
        triggers = raw.get("triggers")
        if isinstance(triggers, list):
            if not triggers:
                c.emit(
                    "field-invalid",
                    "'triggers' is an empty list; add the phrases users type when they "
                    "need this skill.",
                    field="triggers",
                    at="value",
                    severity="warning",
                )
            normalized = iter(c.skill.fields.get("triggers_normalized", []))
            for index, trig in enumerate(triggers):
                norm = next(normalized) if isinstance(trig, str) else ""
                if isinstance(trig, str) and trig.strip() and not norm:
                    c.emit(
                        "field-invalid",
                        f"Trigger '{trig}' is only punctuation; after normalization it can "
                        "never match.",
                        field="triggers",
                        item=index,
                        severity="warning",
                    )

    def trigger_phrases(self, skill: Skill) -> Iterable[tuple[str, str, int, str]]:
        triggers = skill.raw.get("triggers")
        if isinstance(triggers, list):
            normalized = iter(skill.fields.get("triggers_normalized", []))
            for index, trig in enumerate(triggers):
                if isinstance(trig, str):
                    norm = next(normalized)
                    if norm:
                        yield norm, "triggers", index, ""
