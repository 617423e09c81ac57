"""oasis (seed 000): key_skills/<id>/SKILL.md, scored selection with triggers and priority."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ..checking.field_checks import check_not_empty
from ..model.diagnostics import Severity
from ..model.fields import FieldSpec
from ..model.matches import POINTS, Terms, description_keywords, words_of
from ..model.skills import Skill
from ..model.text import normalize
from ..profile import Checker, PanelOption, Profile, RootSpec
from ..ranking.rankers import rank_scored

if TYPE_CHECKING:
    from ..model.matches import MatchResult
    from ..model.profile_requests import MatchRequest

SLUG = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)*")
DETECT = frozenset({"id", "triggers", "priority"})  # all three: a folder of oasis skills


class Oasis(Profile):
    name = "oasis"
    order = 0
    title = "Oasis (key_skills)"
    source = "seed 000"
    repository_roots = False  # its agent reads only its own folders
    roots = (RootSpec("key_skills", "key_skills"),)
    key_field = "id"
    marker_dirs = ("key_skills",)
    model_chooses = False  # its rules select
    panel_option = PanelOption("threshold", "Threshold", 10, 1000)
    listing_frame = ("", "")
    listing_frame_lines = False
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
                    f"The id '{ident}' is not a slug: use lowercase letters and digits joined "
                    "by '-' or '_' (for example code-review).",
                    field="id",
                    at="value",
                    severity="warning",
                )
            elif ident != c.skill.folder_name:
                c.emit(
                    "name-dir-mismatch",
                    f"The id '{ident}' differs from the folder name '{c.skill.folder_name}'; "
                    "the seed says it usually matches. The registry uses the id.",
                    field="id",
                    at="value",
                    severity="info",
                )
        for key in ("name", "description"):
            check_not_empty(c, key, f"'{key}' is empty; write a short {key}.")
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

    def template_frontmatter(self, name: str, title: str, description: str) -> str:
        return (
            f"id: {name}\nname: {title}\ndescription: {description}\n"
            f"triggers:\n  - {name.replace('-', ' ')}\npriority: 50\n"
        )

    def rename_fields(self, mapping: Mapping[str, Any]) -> list[str]:
        """The id, and the display name too when the skill has none yet."""
        return ["id"] if "name" in mapping else ["id", "name"]

    # -- engine hooks ---------------------------------------------------------
    def detect_fields(self, mapping: Mapping[str, Any]) -> str | None:
        return "'id', 'triggers' and 'priority' fields" if mapping.keys() >= DETECT else None

    def match_terms(self, skill: Skill) -> Terms:
        """Each trigger (+10) and the display name (+20) as phrases; description words."""
        fields = skill.fields
        phrases: list[tuple[tuple[str, ...], str, str, int]] = []
        pairs = zip(fields.get("triggers", []), fields.get("triggers_normalized", []), strict=False)
        for trig, norm in pairs:
            if norm:
                phrases.append((words_of(norm), "trigger", trig, POINTS["trigger"]))
        display = normalize(str(fields.get("name") or ""))
        if display:
            phrases.append((words_of(display), "name", str(fields.get("name")), POINTS["name"]))
        keywords = description_keywords(skill.description)
        return Terms(tuple(phrases), keywords, (), words_of(skill.name))

    tie_break = "priority, then id"

    def trigger_texts(self, skill: Skill, patterns: bool = False) -> list[str]:
        triggers = skill.fields.get("triggers")
        return [t for t in triggers if isinstance(t, str)] if isinstance(triggers, list) else []

    def precedence(self, skill: Skill) -> int:
        """Seed 000: a tie goes to the higher `priority` (then the id)."""
        priority = skill.fields.get("priority", 0)
        return priority if isinstance(priority, int) else 0

    def rank(self, request: MatchRequest) -> MatchResult:
        return rank_scored(request)

    def listing_entry(self, skill: Skill) -> str:
        f = skill.fields
        triggers = ", ".join(f.get("triggers", [])[:3])
        return (
            f"- {f.get('name', skill.name)} ({skill.name}): {f.get('summary_description', '')} "
            f"| triggers: {triggers}"
        )
