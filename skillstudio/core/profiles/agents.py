"""The agents that read the Agent Skills standard, as data (docs/agents.md).

One declaration per agent: where it looks for skills (per scope), whether it follows
links, how it names a skill, which frontmatter fields it reads, its limits, and its
listing, budget and invocation where known. Portability (core/projects/agent_reach.py)
answers per agent from these rows, and the listing headroom (`skillstudio headroom`)
uses the full profile a row names. Nothing here behaves: the engine reads the rows and
never names an agent.

Every row cites its source and the date it was checked (docs/agents.md has the table);
a fact that could not be confirmed in the agent's own documentation or source is named
in the row's `unconfirmed` (and a root in `RootRule.confirmed`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Scope = Literal["project", "user", "admin", "system"]
NameRule = Literal["folder", "field", "field-equals-folder"]
Discovery = Literal["children", "recursive", "any"]

# The fields the standard defines (agentskills.io/specification; PRODUCT.md 3.6).
STANDARD_FIELDS = frozenset(
    {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}
)
# The standard's name rule: lowercase letters and digits, single hyphens between.
STANDARD_NAME = r"[a-z0-9]+(?:-[a-z0-9]+)*"
CHECKED = "2026-11"
# Variables in roots, with the agent's default when unset.
ENV_DEFAULTS = {"CODEX_HOME": "~/.codex"}


@dataclass(frozen=True, slots=True)
class RootRule:
    """One folder an agent reads skills from: relative to the project (scope project)
    or a path in the user's home or the system ('~' and '$VARS' expanded when used)."""

    path: str
    scope: Scope = "project"
    confirmed: bool = True
    note: str = ""


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """What one agent does with a skill folder, as far as it is documented."""

    key: str  # a short id (`--agent`, JSON keys)
    title: str
    roots: tuple[RootRule, ...]  # in the agent's order of precedence (first found wins)
    source: str  # a URL, or "PRODUCT.md 3.10 (unconfirmed)"
    checked: str = CHECKED
    discovery: Discovery = "children"  # <root>/<folder>/SKILL.md; recursive; any folder
    # reads project roots in folders below the one it runs in (`tools/x/.claude/skills`);
    # False: only at the folder it runs in (and, for a path given inside a root, above it)
    nested: bool = False
    max_depth: int = 1  # folders below the root (recursive discovery)
    skips_hidden: bool = False  # recursive discovery skips names starting with '.'
    follows_links: bool | None = None  # None: not documented
    name_rule: NameRule = "field"
    name_source: str = ""  # where the name rule was read (its loader), when it was
    reads: frozenset[str] | None = None  # None: unknown, or the full profile's fields
    profile: str | None = None  # the SkillStudio profile that models it fully
    name_max: int | None = None
    name_pattern: str | None = None
    description_max: int | None = None
    description_over: Literal["refused", "cut"] = "refused"
    description_required: bool = True
    compatibility_max: int | None = None
    plugin_manifests: tuple[str, ...] = ()  # `<plugin>/<manifest dir>` marks a plugin
    # `<dir>/<manifest dir>/marketplace.json` (Claude Code's format): its local entries'
    # `skills` lists decide their plugins' skills
    marketplaces: tuple[str, ...] = ()
    # a plugin manifest's `skills` paths: added to its `skills/` folder, or instead of it
    manifest_skills: Literal["add", "replace"] = "add"
    # `<ext>/<file>` marks an extension whose `skills/<s>/SKILL.md` the agent reads
    extension_manifests: tuple[str, ...] = ()
    command_roots: tuple[RootRule, ...] = ()  # folders of one-file commands (`x.md`)
    listing: str = ""  # how the model is shown the skills, in words ("" unknown)
    budget: str = ""  # the listing's budget, in words ("" unknown)
    invocation: str = ""
    notes: tuple[str, ...] = ()
    unconfirmed: tuple[str, ...] = ()  # attribute names whose values are not confirmed

    @property
    def budget_known(self) -> bool:
        """Its listing budget is modelled (by its full profile's listing)."""
        return bool(self.budget) and self.profile is not None


def _user(*paths: str) -> tuple[RootRule, ...]:
    return tuple(RootRule(path, "user") for path in paths)


AGENTS: tuple[AgentSpec, ...] = (
    AgentSpec(
        key="agentskills",
        title="Agent Skills standard",
        roots=(),
        discovery="any",
        source="https://agentskills.io/specification (PRODUCT.md 3.6)",
        name_rule="field-equals-folder",
        reads=STANDARD_FIELDS,
        profile="agentskills",
        name_max=64,
        name_pattern=STANDARD_NAME,
        description_max=1024,
        compatibility_max=500,
        listing="<available_skills> with name, description, location (suggested)",
        notes=("The standard defines the format; each client chooses its folders.",),
    ),
    AgentSpec(
        key="claude-code",
        title="Claude Code",
        roots=(
            RootRule(".claude/skills"),
            RootRule("~/.claude/skills", "user"),
            RootRule("/etc/claude-code/.claude/skills", "admin"),
        ),
        command_roots=(RootRule(".claude/commands"),),
        source="https://code.claude.com/docs/en/skills (PRODUCT.md 3.7)",
        checked="2026-08",
        nested=True,
        follows_links=True,
        name_rule="folder",
        profile="claude-code",
        description_required=False,
        plugin_manifests=(".claude-plugin",),
        marketplaces=(".claude-plugin",),
        listing="<system-reminder> '- name: description' lines (description + when_to_use, "
        "cut at 1,536 characters)",
        budget="1 % of the context window (tokens x 4 characters), 8,000 when unknown; "
        "over it the least used skills fall to name-only",
        invocation="/name args; the Skill tool",
        notes=(
            "Nested skill folders (named with their parent), the fields display-name, "
            "default-enabled and fallback: PRODUCT.md 3.10, not confirmed in the docs.",
        ),
        unconfirmed=("nested folders",),
    ),
    AgentSpec(
        key="codex",
        title="Codex CLI",
        roots=(
            RootRule(".agents/skills"),
            RootRule(".codex/skills"),
            RootRule("~/.agents/skills", "user"),
            RootRule("$CODEX_HOME/skills", "user", note="deprecated"),
            RootRule("/etc/codex/skills", "admin"),
            RootRule("$CODEX_HOME/skills/.system", "system"),
        ),
        source="https://github.com/openai/codex codex-rs/core-skills/src (render.rs, loader.rs)",
        checked="2026-12-02",
        discovery="recursive",
        max_depth=6,
        skips_hidden=True,
        follows_links=True,
        name_rule="field",
        profile="codex",
        name_max=64,
        description_max=1024,
        description_over="cut",
        plugin_manifests=(".codex-plugin", ".claude-plugin"),
        manifest_skills="replace",
        listing="<skills_instructions> '- name: description (file: path)' lines",
        budget="2 % of the context window in tokens (UTF-8 bytes / 4), 8,000 characters "
        "when unknown; Codex's system skills first; descriptions shortened round robin, then "
        "removed, skills dropped only when bare lines do not fit; r0/ root aliases when cut",
        invocation="$name or [$name](path)",
        notes=("A SKILL.md that is itself a link is ignored.",),
    ),
    AgentSpec(
        key="copilot",
        title="GitHub Copilot",
        roots=(
            RootRule(".github/skills"),
            RootRule(".agents/skills"),
            RootRule(".claude/skills"),
            *_user("~/.copilot/skills", "~/.agents/skills", "~/.claude/skills"),
        ),
        source="https://docs.github.com/en/copilot/concepts/agents/about-agent-skills; "
        "microsoft/vscode extensions/copilot/assets/prompts/skills/agent-customization/"
        "references/skills.md (fields, name rule)",
        checked="2026-12-03",
        name_rule="folder",
        reads=STANDARD_FIELDS | {"argument-hint", "user-invocable", "disable-model-invocation"},
        name_max=64,
        name_pattern=STANDARD_NAME,
        description_max=1024,
        invocation="chosen by the model; /name in the CLI and VS Code",
        notes=(
            "VS Code adds folders with the setting chat.agentSkillsLocations.",
            "The name is required, 1-64 lowercase letters, digits and hyphens, and must "
            "match the folder (VS Code's own skills reference).",
        ),
    ),
    AgentSpec(
        key="cursor",
        title="Cursor",
        roots=(
            RootRule(".cursor/skills"),
            RootRule(".agents/skills", confirmed=False),
            RootRule(".claude/skills"),
            RootRule(".codex/skills"),
            *_user("~/.cursor/skills", "~/.claude/skills", "~/.codex/skills"),
            RootRule("~/.agents/skills", "user", confirmed=False),
        ),
        source="https://cursor.com/docs/context/skills",
        reads=STANDARD_FIELDS | {"disable-model-invocation"},
        plugin_manifests=(".cursor-plugin",),
        manifest_skills="replace",
        invocation="chosen by the model; /name in Agent chat",
        notes=(
            "A plugin's .cursor-plugin/plugin.json `skills` paths replace its skills/ folder "
            "(cursor.com/docs/reference/plugins; the replacing: third-party, unconfirmed).",
        ),
        unconfirmed=("reads", "manifest_skills"),
    ),
    AgentSpec(
        key="gemini",
        title="Gemini CLI",
        roots=(
            RootRule(".agents/skills", note="wins over .gemini/skills"),
            RootRule(".gemini/skills"),
            *_user("~/.agents/skills", "~/.gemini/skills"),
        ),
        source="https://geminicli.com/docs/cli/using-agent-skills/",
        name_source="google-gemini/gemini-cli packages/core/src/skills/skillLoader.ts "
        "loadSkillFromFile @ 04fbf507 (read 2026-12-03): any string name, ': \\ / < > * ? \" |' "
        "replaced by '-'; the folder's name is not used",
        reads=frozenset({"name", "description"}),
        extension_manifests=("gemini-extension.json",),
        listing="<available_skills> with name, description, location in the system prompt",
        invocation="the activate_skill tool (asks the user first)",
        notes=(
            "Workspace skills are off in untrusted folders.",
            "Extensions and built-in skills rank below user and workspace skills.",
            "Workspace skills are read in the folder it runs in, not in folders below it.",
            "An extension (gemini-extension.json) brings the skills in its skills/ folder.",
        ),
        unconfirmed=("extension_manifests",),
    ),
    AgentSpec(
        key="opencode",
        title="OpenCode",
        roots=(
            RootRule(".opencode/skills"),
            RootRule(".claude/skills"),
            RootRule(".agents/skills"),
            *_user("~/.config/opencode/skills", "~/.claude/skills", "~/.agents/skills"),
        ),
        source="https://opencode.ai/docs/skills",
        name_rule="field-equals-folder",
        reads=STANDARD_FIELDS - {"allowed-tools"},
        name_max=64,
        name_pattern=STANDARD_NAME,
        description_max=1024,
        listing="<available_skills> in the skill tool's description",
        invocation="the skill tool",
        notes=(
            "Project folders are read from the working folder up to the git worktree.",
            "OpenCode's v2 documentation (opencode.ai/v2/docs/skills, read 2026-12-03) "
            "shows a free name ('Git Release') and SKILL.md files at any depth: not "
            "modelled; the rules here are those of its v1 documentation.",
        ),
    ),
    AgentSpec(
        key="goose",
        title="Goose",
        roots=(
            RootRule(".agents/skills"),
            RootRule(".goose/skills", note="legacy"),
            RootRule(".claude/skills", note="legacy"),
            *_user("~/.agents/skills", "~/.claude/skills"),
        ),
        source="https://block.github.io/goose/docs/guides/context-engineering/using-skills",
        reads=STANDARD_FIELDS,
        plugin_manifests=(".claude-plugin",),
        invocation="chosen by the model; /name anywhere in a message",
        notes=("Plugin skills are named plugin:skill (~/.agents/plugins/<plugin>/).",),
        unconfirmed=("reads", "plugin_manifests"),
    ),
    AgentSpec(
        key="amp",
        title="Amp",
        roots=(
            RootRule(".agents/skills", confirmed=False),
            RootRule(".claude/skills", confirmed=False),
            RootRule("~/.config/agents/skills", "user", confirmed=False),
            RootRule("~/.config/amp/skills", "user", confirmed=False),
            RootRule("~/.claude/skills", "user", confirmed=False),
        ),
        source="PRODUCT.md 3.10 (unconfirmed: third-party sources only)",
        reads=frozenset({"name", "description"}),
        unconfirmed=("roots", "reads"),
    ),
    AgentSpec(
        key="windsurf",
        title="Windsurf",
        roots=(
            RootRule(".windsurf/skills"),
            RootRule(".agents/skills", confirmed=False),
            RootRule("~/.codeium/windsurf/skills", "user"),
            RootRule("~/.agents/skills", "user", confirmed=False),
        ),
        source="https://docs.windsurf.com/windsurf/cascade/skills",
        reads=STANDARD_FIELDS,
        listing="name and description shown to the model",
        invocation="chosen by the model; @name",
        notes=(".claude/skills only when turned on (opt-in).",),
        unconfirmed=("reads",),
    ),
    AgentSpec(
        key="kiro",
        title="Kiro",
        roots=(
            RootRule(".kiro/skills", confirmed=False, note="workspace wins"),
            RootRule("~/.kiro/skills", "user", confirmed=False),
        ),
        source="https://kiro.dev/docs/skills (folders: PRODUCT.md 3.10, unconfirmed)",
        reads=STANDARD_FIELDS,
        invocation="chosen by the model; /name",
        unconfirmed=("roots", "reads"),
    ),
    AgentSpec(
        key="junie",
        title="Junie (JetBrains)",
        roots=(
            RootRule(".junie/skills", confirmed=False),
            RootRule("~/.junie/skills", "user", confirmed=False),
        ),
        source="PRODUCT.md 3.10 (unconfirmed)",
        notes=("JetBrains Air also reads .agents/skills (unconfirmed).",),
        unconfirmed=("roots",),
    ),
    AgentSpec(
        key="letta",
        title="Letta Code",
        roots=(RootRule(".agents/skills"),),
        source="https://docs.letta.com/configuration/skills",
        notes=("Also skills in the agent's memory and bundled ones (no folder to lint).",),
    ),
)

AGENT_KEYS = tuple(agent.key for agent in AGENTS)
