"""pegasus (seed 001): skills/ + data/skills/, Claude-Code-style fields, explicit invocation."""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ..checking.field_checks import check_name_length, check_not_empty
from ..model.diagnostics import Severity
from ..model.fields import NAME_RULE, FieldSpec
from ..model.matches import is_slash_command
from ..model.profile_requests import ActivationRequest, invocation_refused, model_invocation_off
from ..model.skills import Skill
from ..model.text import first_paragraph
from ..profile import Checker, PanelOption, Profile, RootSpec, default_listing_texts, listing_line

if TYPE_CHECKING:
    from ..model.delivered import Activation, Invoker

NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
KNOWN_AGENTS = ("general", "explore", "plan", "deepresearch")
FALLBACK_BUDGET = 16_000  # listing characters without a known context window
SHARE = 0.02  # of the context window (in characters: tokens * 4) for the listing


class Pegasus(Profile):
    name = "pegasus"
    order = 1
    title = "Pegasus (skills/ + data/skills/)"
    source = "seed 001"
    repository_roots = False  # its agent reads only its own folders
    roots: ClassVar[tuple[RootSpec, ...]] = (
        RootSpec("skills", "builtin"),
        RootSpec("data/skills", "user"),
    )
    severities: ClassVar[dict[str, Severity]] = {"frontmatter-missing": "warning"}
    panel_option = PanelOption("context_tokens", "Context window (tokens)", 200_000, 10_000_000)
    listing_frame = (
        "Available skills:\n",
        "\n\nUse the use_skill tool to invoke a skill when relevant.",
    )
    listing_frame_lines = False
    # how the agent asks a model for live checks (core/live/questions.py's STYLES)
    live_style = "use-skill"
    full_tier = "activation"
    fields: ClassVar[tuple[FieldSpec, ...]] = (
        FieldSpec(
            "name",
            "string",
            "Name",
            "Identifier, used as /name for manual invocation. Lowercase + hyphens.",
            default_note="the folder name",
            max_length=64,
        ),
        FieldSpec(
            "description",
            "text",
            "Description",
            "The LLM uses this to decide when to load the skill.",
            recommended=True,
            default_note="the body's first paragraph",
        ),
        FieldSpec(
            "disable-model-invocation",
            "bool",
            "Disable model invocation",
            "true = only the user can invoke it via /name; it is left out of the system "
            "prompt listing.",
            default=False,
        ),
        FieldSpec(
            "user-invocable",
            "bool",
            "User-invocable",
            "false = hidden from the / menu; only the LLM can invoke it.",
            default=True,
        ),
        FieldSpec(
            "allowed-tools",
            "csv",
            "Allowed tools",
            "Comma-separated list of tools available while the skill is active.",
            default_note="all tools",
        ),
        FieldSpec(
            "context",
            "enum",
            "Context",
            "inline = run in the current context; fork = spawn a sub-agent task.",
            default="inline",
            choices=("inline", "fork"),
        ),
        FieldSpec(
            "agent",
            "string",
            "Agent",
            "Task type when context is fork (future: explore, plan, deepresearch).",
            default="general",
        ),
        FieldSpec(
            "model",
            "string",
            "Model",
            "A ModelRegistry role or a provider/model spec.",
            default="default",
        ),
        FieldSpec(
            "argument-hint",
            "string",
            "Argument hint",
            "Autocomplete hint shown after /name, e.g. [issue-number].",
        ),
    )

    def resolve(self, skill: Skill, c: Checker) -> None:
        raw = skill.raw
        name = raw.get("name")
        skill.name = name.strip() if isinstance(name, str) and name.strip() else skill.folder_name
        skill.key = skill.name
        desc = raw.get("description")
        if isinstance(desc, str) and desc.strip():
            skill.description = " ".join(desc.split())
            source = "frontmatter"
        else:
            skill.description = first_paragraph(skill.doc.body) if skill.doc.text else ""
            source = "first paragraph"
        tools = raw.get("allowed-tools")
        if isinstance(tools, str):
            tool_list = [t.strip() for t in tools.split(",") if t.strip()]
        elif isinstance(tools, list):
            tool_list = [str(t) for t in tools]
        else:
            tool_list = []
        skill.fields = {
            "name": skill.name,
            "description": skill.description,
            "description_source": source,
            "disable-model-invocation": raw.get("disable-model-invocation") is True,
            "user-invocable": raw.get("user-invocable") is not False,
            "allowed-tools": tool_list or None,
            "context": raw.get("context") if raw.get("context") in ("inline", "fork") else "inline",
            "agent": raw.get("agent") if isinstance(raw.get("agent"), str) else "general",
            "model": raw.get("model") if isinstance(raw.get("model"), str) else "default",
            "argument-hint": raw.get("argument-hint")
            if isinstance(raw.get("argument-hint"), str)
            else None,
            "source": skill.root.label,
        }

    def check(self, c: Checker) -> None:
        raw = c.skill.raw
        name = raw.get("name")
        check_name_length(c)
        if isinstance(name, str) and not NAME.fullmatch(name):
            c.emit(
                "name-format",
                f"The name '{name}' must be {NAME_RULE} (it is typed as /name).",
                field="name",
                at="value",
            )
        check_not_empty(
            c,
            "description",
            "'description' is empty; the LLM decides from it when to load the skill.",
            skip=False,
            severity="warning",
        )
        context = raw.get("context")
        if isinstance(context, str) and context not in ("inline", "fork"):
            c.emit(
                "field-invalid",
                f"'context' must be inline or fork, not '{context}'.",
                field="context",
                at="value",
            )
        agent = raw.get("agent")
        if isinstance(agent, str):
            if agent not in KNOWN_AGENTS:
                c.emit(
                    "field-invalid",
                    f"The agent '{agent}' is not a known task type ({', '.join(KNOWN_AGENTS)}).",
                    field="agent",
                    at="value",
                    severity="warning",
                )
            if raw.get("context") != "fork":
                c.emit(
                    "field-invalid",
                    "'agent' is only used with 'context: fork'; this skill runs inline.",
                    field="agent",
                    severity="info",
                )
        if raw.get("disable-model-invocation") is True and raw.get("user-invocable") is False:
            c.emit(
                "invocation-disabled",
                "With disable-model-invocation: true and user-invocable: false neither the "
                "user nor the model can invoke this skill.",
                field="user-invocable",
            )

    def skip_reason(self, skill: Skill, c: Checker) -> str | None:
        if skill.doc.has_frontmatter and skill.doc.mapping is None:
            return "its frontmatter cannot be parsed"
        return None

    # -- engine hooks ---------------------------------------------------------
    def detect_layout(self, folder: str) -> str | None:
        """Its own layout only: `data/skills/` beside `skills/` (its fields are Claude
        Code's, so they say nothing)."""
        both = all(os.path.isdir(os.path.join(folder, p)) for p in ("skills", "data/skills"))
        return "data/skills/ beside skills/" if both else None

    def invocation_blocked(self, skill: Skill, query: str) -> str | None:
        """The trigger control matrix: `user-invocable: false` hides a skill from the
        user's / commands, so `/name` is then an ordinary message."""
        if skill.fields.get("user-invocable", True) or not is_slash_command(query):
            return None  # 'use X skill' or $X asks the model, which may invoke it
        return (
            f"/{skill.name} is not a command the user can run: {skill.name} has "
            "user-invocable: false (pegasus's control matrix: only the model invokes it), so "
            "the request is an ordinary message and no skill is selected."
        )

    def listing_budget(self, options: Mapping[str, Any]) -> int | None:
        tokens = options.get("context_tokens")
        return int(tokens * 4 * SHARE) if tokens else FALLBACK_BUDGET

    def listing_texts(self, skill: Skill) -> dict[str, str]:
        """The listing shows `argument-hint` beside the description."""
        texts = default_listing_texts(skill)
        value = skill.fields.get("argument-hint")
        if isinstance(value, str) and value.strip():
            texts["hint"] = value
        return texts

    def listing_omission(self, skill: Skill) -> str | None:
        return model_invocation_off(skill)

    def listing_entry(self, skill: Skill) -> str:
        return listing_line(skill)

    def not_found_message(self, name: str, invoker: Invoker) -> str:
        if invoker == "model":
            return f'Skill "{name}" not found'
        return f"/{name} is not a skill; the text goes to the model as a normal message."

    def deliver(self, request: ActivationRequest, skill: Skill, body: str) -> Activation:
        """Invocation controls, $ARGUMENTS substitution, and a tool result, a user
        message or a forked task."""

        fields, invoker, result = skill.fields, request.invoker, request.result
        if invocation_refused(
            request,
            skill,
            f'Skill "{skill.name}" can only be invoked by the user '
            "(disable-model-invocation: true).",
            f"/{skill.name} is hidden from the / menu (user-invocable: false); "
            "only the model can invoke it.",
        ):
            return result
        content, notes = substitute_pegasus(body, request.args)
        result.notes = notes
        if fields.get("context") == "fork":
            result.mode = "fork"
            result.content = content
            result.payload = {
                "task": {"input": content, "agent": fields.get("agent", "general")},
                "result": {"success": True, "result": {"taskId": "task-1", "status": "spawned"}},
            }
        elif invoker == "model":
            result.mode = "tool_result"
            result.content = content
            result.payload = {"result": {"success": True, "result": content}}
        else:
            result.mode = "user_message"
            result.content = f"[Skill: {skill.name}]\n\n{content}"
        return result


_PLACEHOLDER = re.compile(r"\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)")
# An index with more digits than this is past any argument list: left as written,
# like $9 with three arguments (the seed indexes its argument array, which has no
# such element), without turning 5,000 digits into an integer.
MAX_INDEX_DIGITS = 9


def split_args(args: str) -> tuple[list[str], str | None]:
    """Shell-style split; unbalanced quotes fall back to whitespace, with a note."""
    try:
        return shlex.split(args), None
    except ValueError as exc:
        return args.split(), (
            f"The arguments could not be split shell-style ({exc}); they were split on "
            "whitespace instead. Close the quote to pass a quoted argument."
        )


def substitute_pegasus(body: str, args: str) -> tuple[str, list[str]]:
    """$ARGUMENTS, $ARGUMENTS[N] and $N (0-based); append when no placeholder is present."""
    parts, note = split_args(args)
    notes = [note] if note else []

    def replace(match: re.Match[str]) -> str:
        index = match.group(1) or match.group(2)
        if index is None:
            return args
        if len(index) > MAX_INDEX_DIGITS:
            return match.group(0)
        position = int(index)
        return parts[position] if position < len(parts) else match.group(0)

    present = _PLACEHOLDER.search(body) is not None
    out = _PLACEHOLDER.sub(replace, body)
    if not present and args.strip():
        out = out.rstrip("\n") + f"\n\nARGUMENTS: {args}"
    return out, notes
