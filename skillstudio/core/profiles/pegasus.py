"""pegasus (seed 001): skills/ + data/skills/, Claude-Code-style fields, explicit invocation."""

from __future__ import annotations

import re
from typing import ClassVar

from ..diagnostics import Severity
from ..fields import NAME_RULE, FieldSpec
from ..model import Skill
from .base import Checker, Profile, RootSpec, first_paragraph

NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
KNOWN_AGENTS = ("general", "explore", "plan", "deepresearch")


class Pegasus(Profile):
    name = "pegasus"
    title = "Pegasus (skills/ + data/skills/)"
    source = "seed 001"
    roots = (RootSpec("skills", "builtin"), RootSpec("data/skills", "user"))
    severities: ClassVar[dict[str, Severity]] = {"frontmatter-missing": "warning"}
    fields = (
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
        self.check_name_length(c)
        if isinstance(name, str) and not NAME.fullmatch(name):
            c.emit(
                "name-format",
                f"'name' '{name}' must be {NAME_RULE} (it is typed as /name).",
                field="name",
                at="value",
            )
        self.check_not_empty(
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
                    f"'agent' '{agent}' is not a known task type ({', '.join(KNOWN_AGENTS)}).",
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
