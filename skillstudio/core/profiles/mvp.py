"""mvp (seed 003): skills/**/SKILL.md, a Skill tool with a character-budgeted listing."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..checking.field_checks import check_not_empty
from ..delivery.activation import activate_standard
from ..model.fields import NAME_RULE, FieldSpec
from ..model.profile_requests import ActivationRequest
from ..model.skills import Skill
from ..profile import Checker, PanelOption, Profile, RootSpec, listing_line

if TYPE_CHECKING:
    from ..model.delivered import Activation

NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
BUDGET = 12_000  # listing characters (the seed's default char_budget)
NON_GOALS = {
    "allowed-tools": "tool whitelists",
    "model": "model overrides",
    "permissions": "permissions",
    "disable-model-invocation": "invocation controls",
    "user-invocable": "invocation controls",
}


class Mvp(Profile):
    name = "mvp"
    order = 3
    title = "MVP Skill tool (skills/**)"
    source = "seed 003"
    repository_roots = False  # its agent reads only its own folders
    roots = (RootSpec("skills", "skills"),)
    discovery = "recursive"
    refresh_rule = "root-mtime"
    panel_option = PanelOption("char_budget", "Listing budget (chars)", BUDGET, 10_000_000)
    listing_frame = ("Available skills (load one with the Skill tool):\n", "")
    # how the agent asks a model for live checks (core/live/questions.py's STYLES)
    live_style = "skill-tool-listing"
    listing_frame_lines = False
    over_budget = "stop"
    full_tier = "activation"
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
                    f"The name '{name}' must be {NAME_RULE}.",
                    field="name",
                    at="value",
                )
                c.fail("name")
            elif name != c.skill.folder_name:
                c.emit(
                    "name-dir-mismatch",
                    f"The name '{name}' differs from the folder '{c.skill.folder_name}'; the "
                    "frontmatter value is used.",
                    field="name",
                    at="value",
                    severity="info",
                )
        check_not_empty(c, "description", "'description' must be non-empty.")

    # -- engine hooks ---------------------------------------------------------
    def listing_budget(self, options: Mapping[str, Any]) -> int | None:
        return int(options.get("char_budget") or BUDGET)

    def listing_entry(self, skill: Skill) -> str:
        return listing_line(skill)

    def activate(self, request: ActivationRequest) -> Activation:
        result = request.result
        if not request.name.strip():  # the Skill tool's parameter check
            result.error = {"code": "INVALID_PARAM", "message": "The 'name' parameter is required."}
            return result
        return activate_standard(self, request)

    def unloaded_error(self, name: str, known: Skill) -> dict[str, Any] | None:
        if known.status != "skipped":
            return None
        return {
            "code": "INTERNAL_ERROR",
            "message": f"Skill '{name}' could not be loaded: {known.status_reason}.",
        }

    def deliver(self, request: ActivationRequest, skill: Skill, body: str) -> Activation:
        """The Skill tool's envelope: the base directory, then the substituted body."""

        substituted = substitute_mvp(body, request.args)
        content = f"Base directory for this skill: {skill.folder}\n\n{substituted}"
        result = request.result
        result.content = content
        result.mode = "tool_result"
        result.payload = {
            "envelope": {
                "success": True,
                "data": {"name": skill.name, "base_dir": skill.folder, "content": content},
            }
        }
        return result


def substitute_mvp(body: str, args: str) -> str:
    """seed 003: replace $ARGUMENTS; else append 'ARGUMENTS: <args>' when args are non-empty."""
    if "$ARGUMENTS" in body:
        return body.replace("$ARGUMENTS", args)
    if args:
        return body.rstrip("\n") + f"\n\nARGUMENTS: {args}"
    return body
