"""What Codex itself puts around and into the skills listing: its instruction texts
(one set for absolute paths, one for `r0/...` aliases) and its own system skills.

The texts are Codex's prompt strings, needed to reproduce its listing byte for
byte (openai/codex, Apache-2.0; docs/agents.md, "Codex", names the commit and
date of each). They change between Codex releases: a change there is a change
here, with its source.
"""

from __future__ import annotations

from dataclasses import dataclass

# codex-rs/core-skills/src/render.rs @ 0899b7c42bf1 (read 2026-12-02):
# SKILLS_INTRO_WITH_ABSOLUTE_PATHS / _WITH_ALIASES, SKILLS_HOW_TO_USE_WITH_* and the
# tags of codex-rs/protocol (SKILLS_INSTRUCTIONS_OPEN_TAG / _CLOSE_TAG).
OPEN_TAG = "<skills_instructions>"
CLOSE_TAG = "</skills_instructions>"

_INTRO = (
    "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. "
    "Below is the list of skills that can be used. Each entry includes a name, description, "
)
INTRO_ABSOLUTE = (
    _INTRO + "and file path so you can open the source for full instructions when using a "
    "specific skill."
)
INTRO_ALIASES = (
    _INTRO + "and a short path that can be expanded into an absolute path using the skill "
    "roots table."
)

_TRIGGER = (
    "- Trigger rules: If the user names a skill (with `$SkillName` or plain text) OR the task "
    "clearly matches a skill's description shown above, you must use that skill for that "
    "turn. Multiple mentions mean use them all. Do not carry skills across turns unless "
    "re-mentioned.\n"
    "- Missing/blocked: If a named skill isn't in the list or the path can't be read, say so "
    "briefly and continue with the best fallback.\n"
    "- How to use a skill (progressive disclosure):\n"
)
_STEPS_3_TO_END = (
    "  3) If `SKILL.md` points to extra folders such as `references/`, load only the specific "
    "files needed for the request; don't bulk-load everything.\n"
    "  4) If `scripts/` exist, prefer running or patching them instead of retyping large code "
    "blocks.\n"
    "  5) If `assets/` or templates exist, reuse them instead of recreating from scratch.\n"
    "- Coordination and sequencing:\n"
    "  - If multiple skills apply, choose the minimal set that covers the request and state "
    "the order you'll use them.\n"
    "  - Announce which skill(s) you're using and why (one short line). If you skip an obvious "
    "skill, say why.\n"
    "- Context hygiene:\n"
    "  - Keep context small: summarize long sections instead of pasting them; only load extra "
    "files when needed.\n"
    "  - Avoid deep reference-chasing: prefer opening only files directly linked from "
    "`SKILL.md` unless you're blocked.\n"
    "  - When variants exist (frameworks, providers, domains), pick only the relevant "
    "reference file(s) and note that choice.\n"
    "- Safety and fallback: If a skill can't be applied cleanly (missing files, unclear "
    "instructions), state the issue, pick the next-best approach, and continue."
)
HOW_TO_USE_ABSOLUTE = (
    "- Discovery: The list above is the skills available in this session (name + description "
    "+ file path). Skill bodies live on disk at the listed paths.\n"
    + _TRIGGER
    + "  1) After deciding to use a skill, open its `SKILL.md`. Read only enough to follow the "
    "workflow.\n"
    "  2) When `SKILL.md` references relative paths (e.g., `scripts/foo.py`), resolve them "
    "relative to the skill directory listed above first, and only consider other paths if "
    "needed.\n" + _STEPS_3_TO_END
)
HOW_TO_USE_ALIASES = (
    "- Discovery: The list above is the skills available in this session (name + description "
    "+ short path). Skill bodies live on disk at the listed paths after expanding the "
    "matching alias from `### Skill roots`.\n"
    + _TRIGGER
    + "  1) After deciding to use a skill, expand the listed short `path` with the matching "
    "alias from `### Skill roots`, then open its `SKILL.md`. Read only enough to follow the "
    "workflow.\n"
    "  2) When `SKILL.md` references relative paths (e.g., `scripts/foo.py`), resolve them "
    "relative to the directory containing that expanded `SKILL.md` first, and only consider "
    "other paths if needed.\n" + _STEPS_3_TO_END
)


@dataclass(frozen=True, slots=True)
class SystemSkill:
    """One of the skills Codex embeds and installs under `$CODEX_HOME/skills/.system`
    (codex-rs/skills/src/assets/samples/<name>/SKILL.md): listed first, in the budget."""

    name: str
    description: str
    source: str  # the commit of openai/codex its description was read at


# The five that captured Codex requests of 2026-05 and 2026-09 list (review-agent, also
# shipped, is not listed); descriptions as collapsed from each SKILL.md at the commit named.
SYSTEM_SKILLS = (
    SystemSkill(
        "imagegen",
        "Generate or edit raster images when the task benefits from AI-created bitmap visuals "
        "such as photos, illustrations, textures, sprites, mockups, or transparent-background "
        "cutouts. Use when Codex should create a brand-new image, transform an existing image, "
        "or derive visual variants from references, and the output should be a bitmap asset "
        "rather than repo-native code or vector. Do not use when the task is better handled by "
        "editing existing SVG/vector/code-native assets, extending an established icon or logo "
        "system, or building the visual directly in HTML/CSS/canvas.",
        "0054550c8a9cd7a0af73f67eb17e5695e2e70ed5",
    ),
    SystemSkill(
        "openai-docs",
        "Use when the user asks how to build with OpenAI products or APIs, asks about Codex "
        "itself or choosing Codex surfaces, needs up-to-date official documentation with "
        "citations, help choosing the latest model for a use case, or model upgrade and "
        "prompt-upgrade guidance; use OpenAI docs MCP tools for non-Codex docs questions, use "
        "the Codex manual helper first for broad Codex self-knowledge, and restrict fallback "
        "browsing to official OpenAI domains.",
        "4032a5f5dfb18fa04ba135a87042b23e813bbc5b",
    ),
    SystemSkill(
        "plugin-creator",
        "Create and scaffold plugin directories for Codex with a required "
        "`.codex-plugin/plugin.json`, optional plugin folders/files, and baseline placeholders "
        "you can edit before publishing or testing. Use when Codex needs to create a new local "
        "plugin, add optional plugin structure, or generate or update repo-root "
        "`.agents/plugins/marketplace.json` entries for plugin ordering and availability "
        "metadata.",
        "0c8a34d0729da94c826d97a9ee5d27a938c40eda",
    ),
    SystemSkill(
        "skill-creator",
        "Guide for creating effective skills. This skill should be used when users want to "
        "create a new skill (or update an existing skill) that extends Codex's capabilities "
        "with specialized knowledge, workflows, or tool integrations.",
        "3ec95126dfff37879167a1c11054ad8cd79cbe3c",
    ),
    SystemSkill(
        "skill-installer",
        "Install Codex skills into $CODEX_HOME/skills from a curated list or a GitHub repo "
        "path. Use when a user asks to list installable skills, install a curated skill, or "
        "install a skill from another repo (including private repos).",
        "1eac24492784ec14d41fe474325376824d05fdeb",
    ),
)
