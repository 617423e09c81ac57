"""claude-code's frontmatter fields (Claude Code documentation, 2026-08) and its booleans."""

from __future__ import annotations

from typing import Any

from ...model.fields import FieldSpec

MAX_COMPATIBILITY = 500
EFFORTS = ("low", "medium", "high", "xhigh", "max")
# what an editor offers as the author types (FieldSpec.suggestions; not enforced here)
MODEL_ALIASES = ("sonnet", "opus", "haiku")
TOOL_NAMES = (
    "Bash",
    "Edit",
    "Glob",
    "Grep",
    "NotebookEdit",
    "Read",
    "Skill",
    "Task",
    "TodoWrite",
    "WebFetch",
    "WebSearch",
    "Write",
)
AGENT_TYPES = ("Explore", "Plan", "general-purpose")
TRUE_WORDS = frozenset({"true", "yes", "on", "1"})
FALSE_WORDS = frozenset({"false", "no", "off", "0"})
# claude.ai / the Skills API accept only these keys in an uploaded SKILL.md
UPLOAD_KEYS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
# fields that only Claude Code (among the agents SkillStudio knows) defines: detection
# marks. Not those other agents read too (docs/agents.md): `argument-hint`,
# `user-invocable`, `disable-model-invocation` (GitHub Copilot; Cursor the last) and
# the standard's `allowed-tools`.
CLAUDE_MARKS = (
    "when_to_use",
    "disallowed-tools",
    "context",
    "effort",
    "hooks",
    "paths",
    "shell",
    "arguments",
)


def loose_bool(value: Any) -> bool | None:
    """Claude Code's booleans: true/false and yes/no/on/off/1/0 (any case); None if neither."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    return None


FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec(
        "name",
        "string",
        "Name",
        "Display label. The command is /<folder name> (plugin skills: /plugin:folder); "
        "lowercase letters, digits and hyphens, at most 64, if you also upload it.",
        default_note="the folder name",
        max_length=64,
    ),
    FieldSpec(
        "description",
        "text",
        "Description",
        "What the skill does and when to use it; Claude reads it to decide when to load "
        "the skill (with when_to_use, cut at 1,536 characters in the listing).",
        default_note="the body's first paragraph",
    ),
    FieldSpec(
        "when_to_use",
        "text",
        "When to use",
        "More trigger context, appended to the description in the listing after ' - '.",
    ),
    FieldSpec(
        "argument-hint",
        "text_or_list",
        "Argument hint",
        "Shown after /name while typing, e.g. [issue-number] [branch] (unquoted, YAML reads "
        "that as a list: Claude Code shows it all the same).",
    ),
    FieldSpec(
        "arguments",
        "text_or_list",
        "Arguments",
        "Names for the positional arguments: $name in the body becomes that argument "
        "(missing: empty).",
    ),
    FieldSpec(
        "disable-model-invocation",
        "bool",
        "Disable model invocation",
        "true = only you can run it with /name; Claude is not told about it.",
        default=False,
    ),
    FieldSpec(
        "user-invocable",
        "bool",
        "User-invocable",
        "false = hidden from the / menu; only Claude loads it.",
        default=True,
    ),
    FieldSpec(
        "allowed-tools",
        "text_or_list",
        "Allowed tools",
        "Tools Claude may use without asking while the skill is active "
        "(space- or comma-separated, or a list).",
        suggestions=TOOL_NAMES,
    ),
    FieldSpec(
        "disallowed-tools",
        "text_or_list",
        "Disallowed tools",
        "Tools removed while the skill is active.",
        suggestions=TOOL_NAMES,
    ),
    FieldSpec(
        "model",
        "string",
        "Model",
        "The model while the skill is active (sonnet, opus, haiku or a full name).",
        default_note="the session's model",
        suggestions=MODEL_ALIASES,
    ),
    FieldSpec(
        "effort",
        "enum",
        "Effort",
        "Thinking effort while the skill is active.",
        default_note="the session's effort",
        choices=EFFORTS,
    ),
    FieldSpec(
        "context",
        "enum",
        "Context",
        "fork = run in a subagent with its own context; the result comes back.",
        default_note="inline, in the conversation",
        choices=("fork",),
    ),
    FieldSpec(
        "agent",
        "string",
        "Agent",
        "The subagent type with context: fork (Explore, Plan, general-purpose or one of "
        ".claude/agents).",
        default="general-purpose",
        suggestions=AGENT_TYPES,
    ),
    FieldSpec(
        "background",
        "bool",
        "Background",
        "true = a forked skill runs in the background.",
        default=False,
    ),
    FieldSpec("hooks", "map", "Hooks", "Hooks active while the skill runs."),
    FieldSpec(
        "paths",
        "text_or_list",
        "Paths",
        "Glob patterns: Claude loads the skill on its own only when working on matching files.",
    ),
    FieldSpec(
        "shell",
        "enum",
        "Shell",
        "The shell for !`command` lines.",
        default="bash",
        choices=("bash", "powershell"),
    ),
    # 2026-09 (PRODUCT.md 3.10, from Claude Code's changelog; not confirmed in its skills
    # documentation as of 2026-11, docs/agents.md): declared so that they are not called
    # unknown; their values are not checked beyond their type.
    FieldSpec(
        "display-name",
        "string",
        "Display name",
        "The name shown in menus; the command stays /<folder name>.",
        default_note="the name",
    ),
    FieldSpec(
        "default-enabled",
        "bool",
        "Enabled by default",
        "false = installed but off until turned on (settings skillOverrides).",
        default_note="enabled",
    ),
    FieldSpec(
        "fallback",
        "any",
        "Fallback",
        "Newer Claude Code field (2026-09); SkillStudio does not check its value.",
    ),
    FieldSpec("metadata", "map", "Metadata", "Extra keys and values (kept on upload)."),
    FieldSpec("license", "string", "License", "License name or a bundled license file."),
    FieldSpec(
        "compatibility",
        "text",
        "Compatibility",
        "Environment requirements (products, packages, network).",
        max_length=MAX_COMPATIBILITY,
    ),
)
