"""Gemini CLI's listing, from its source (google-gemini/gemini-cli, packages/core;
docs/agents.md, "Gemini CLI's listing", names the commit and date of each rule).

The skills section of the system prompt (`renderAgentSkills` in prompts/snippets.ts):
a `# Available Agent Skills` heading, one instruction, then `<available_skills>` with a
`<skill>` of `<name>`, `<description>`, `<location>` per skill, values written as they
are (no escaping); no section when there is no skill. Beside it, the `activate_skill`
tool, whose `name` parameter is an enum of the same names (tools/definitions,
`getActivateSkillDeclaration`). There is no budget: every loaded skill is listed whole.

Which skills, in which order (skills/skillManager.ts, skillLoader.ts): the built-in
ones, then extensions', then the user's (`~/.gemini/skills`, then `~/.agents/skills`),
then the workspace's (`.gemini/skills`, then `.agents/skills`; only in a trusted
folder). A later skill of the same name replaces the earlier one in its place (a Map
keyed by name). A skill is loaded when its frontmatter has a string `name` and a string
`description`; the name has `: \\ / < > * ? " |` replaced by `-`; the description is
kept as YAML read it.

The strings are Gemini CLI's (Apache-2.0), needed to reproduce the prompt byte for
byte; a change there is a change here, with its source.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

# packages/core/src/prompts/snippets.ts @ 00408aea4b19 (read 2026-12-02)
SOURCE = "google-gemini/gemini-cli@00408aea4b19d7a8de1eb573dfd584cb0e448ddc"
TOOL_NAME = "activate_skill"  # tools/tool-names.ts ACTIVATE_SKILL_TOOL_NAME
HEADING = "# Available Agent Skills"
INSTRUCTION = (
    "You have access to the following specialized skills. To activate a skill and receive "
    f"its detailed instructions, call the `{TOOL_NAME}` tool with the skill's name."
)
# Before 2026 (snippets.ts @ 7a3900372452): "..., you can call the `activate_skill` tool
# with the skill's name." and the section not trimmed (no difference once the prompt's
# runs of 3+ newlines are collapsed).
OLD_INSTRUCTION = INSTRUCTION.replace(", call the", ", you can call the")

# Scopes in Gemini CLI's order of discovery (skillManager.ts discoverSkills): what a
# later scope's skill replaces in its place.
SCOPES = ("built-in", "extension", "user", "user-agents", "workspace", "workspace-agents")
_UNSAFE = re.compile(r'[:\\/<>*?"|]')  # skillLoader.ts loadSkillFromFile


@dataclass(frozen=True, slots=True)
class GeminiSkill:
    name: str
    description: str
    location: str  # the SKILL.md's absolute path, as Gemini CLI lists it
    scope: str = "workspace"  # one of SCOPES
    builtin: bool = False


# The one skill Gemini CLI ships in packages/core/src/skills/builtin (listed first, its
# location inside the installed package; activating it asks no confirmation):
# builtin/skill-creator/SKILL.md @ 3996944032f9 (read 2026-12-02), as two captured
# system prompts of 2026 list it.
SKILL_CREATOR_LOCATION = (
    "/usr/local/lib/node_modules/@google/gemini-cli/node_modules/@google/gemini-cli-core/"
    "dist/src/skills/builtin/skill-creator/SKILL.md"
)
BUILTIN_SKILLS = (
    GeminiSkill(
        "skill-creator",
        "Guide for creating effective skills. This skill should be used when users want to "
        "create a new skill (or update an existing skill) that extends Gemini CLI's "
        "capabilities with specialized knowledge, workflows, or tool integrations.",
        SKILL_CREATOR_LOCATION,
        "built-in",
        True,
    ),
)


def gemini_name(name: str) -> str:
    """The name as Gemini CLI keeps it: `:`, `\\`, `/`, `<`, `>`, `*`, `?`, `"`, `|`
    each replaced by `-`."""
    return _UNSAFE.sub("-", name)


def from_frontmatter(
    mapping: Mapping[str, Any] | None, location: str, scope: str
) -> GeminiSkill | None:
    """The skill Gemini CLI loads from a SKILL.md's frontmatter, or None (no string
    `name` or `description`: it is skipped)."""
    if mapping is None:
        return None
    name, description = mapping.get("name"), mapping.get("description")
    if not isinstance(name, str) or not isinstance(description, str):
        return None
    return GeminiSkill(gemini_name(name), description, location, scope)


def loaded(skills: Iterable[GeminiSkill], builtin: bool = True) -> list[GeminiSkill]:
    """The skills Gemini CLI lists, in its order: scope by scope (SCOPES; within one, as
    given), a later one replacing an earlier one of the same name in its place."""
    ordered = sorted(skills, key=lambda s: SCOPES.index(s.scope))  # stable
    by_name: dict[str, GeminiSkill] = {}
    for skill in [*(BUILTIN_SKILLS if builtin else ()), *ordered]:
        by_name[skill.name] = skill
    return list(by_name.values())


def skill_entry(skill: GeminiSkill) -> str:
    """One `<skill>` of `<available_skills>`, as written (values not escaped)."""
    return (
        f"  <skill>\n    <name>{skill.name}</name>\n"
        f"    <description>{skill.description}</description>\n"
        f"    <location>{skill.location}</location>\n  </skill>"
    )


def skills_section(skills: list[GeminiSkill]) -> str:
    """The system prompt's skills section (renderAgentSkills), "" without skills."""
    if not skills:
        return ""
    entries = "\n".join(skill_entry(s) for s in skills)
    return f"{HEADING}\n\n{INSTRUCTION}\n\n<available_skills>\n{entries}\n</available_skills>"


def activate_skill_declaration(names: list[str]) -> dict[str, Any]:
    """The `activate_skill` function declaration sent with the request
    (getActivateSkillDeclaration; its parameters as zod-to-json-schema writes them),
    for the live checks."""
    hint = f" (Available: {', '.join(repr_name(n) for n in names)})" if names else ""
    if names:
        name: dict[str, Any] = {
            "type": "string",
            "enum": list(names),
            "description": "The name of the skill to activate.",
        }
    else:
        name = {"type": "string", "description": "No skills are currently available."}
    return {
        "name": TOOL_NAME,
        "description": (
            f"Activates a specialized agent skill by name{hint}. Returns the skill's "
            "instructions wrapped in `<activated_skill>` tags. These provide specialized "
            "guidance for the current task. Use this when you identify a task that matches "
            "a skill's description. ONLY use names exactly as they appear in the "
            "`<available_skills>` section."
        ),
        "parametersJsonSchema": {
            "type": "object",
            "properties": {"name": name},
            "required": ["name"],
            "additionalProperties": False,
            "$schema": "http://json-schema.org/draft-07/schema#",
        },
    }


def repr_name(name: str) -> str:
    """A name in the tool's hint: in single quotes, as written."""
    return f"'{name}'"
