"""claude-code: Anthropic's Claude Code, as documented up to 2026-08 (docs/profiles.md).

Skills are `<root>/<folder>/SKILL.md` under the project's `.claude/skills/`, the
personal and the enterprise folder; legacy `.claude/commands/*.md` are skills
named after the file; plugins (`.claude-plugin/plugin.json`, `skills/<s>/SKILL.md`)
name theirs `plugin:skill`, and a marketplace lists the plugins of a repository.
The rules that changed during 2026 are settings (skillstudio.yaml) with today's
values as defaults: the listing budget's share of the context window, its
fallback, and the cap on one description.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from ...checking.advice import advise
from ...checking.advice_body import body_length
from ...checking.field_checks import check_length, check_name_length
from ...model.confinement import holds_skill
from ...model.diagnostics import Diagnostic, Severity
from ...model.fields import FieldSpec, type_problem
from ...model.paths import is_within
from ...model.profile_requests import invocation_refused
from ...model.skills import Root, Skill, agent_skill
from ...model.text import first_paragraph
from ...profile import Checker, PanelOption, RootSpec
from ...reading.looked import looked_at
from ...reading.skill_files import skill_body
from ..pegasus import Pegasus
from . import plugins, settings
from .advice import claude_advice
from .fields import (
    CLAUDE_MARKS,
    EFFORTS,
    FIELDS,
    MAX_COMPATIBILITY,
    UPLOAD_KEYS,
    loose_bool,
)
from .invoke import SHELL_NOTE, argument_names, project_dir, shell_lines, substitute_claude
from .layout import (
    COMMANDS_DIR,
    ENTERPRISE_SKILLS,
    PROJECT_SKILLS,
    claude_home,
    command_folders,
    command_name,
    discover_root,
    project_roots,
)
from .listing import (
    LISTING_HEAD,
    LISTING_TAIL,
    MAX_DESC_CHARS,
    listing_description,
    own_entries,
    write_listing,
)

if TYPE_CHECKING:
    from ...model.delivered import Activation, Invoker, TierText
    from ...model.profile_requests import ActivationRequest
    from ...model.scan import DiscoveryResult, ScanLimits

# -- settings (skillstudio.yaml keys named after Claude Code's own settings) --------
BUDGET_FRACTION = 0.01  # skillListingBudgetFraction: 1 % of the context window
FALLBACK_BUDGET = 8_000  # characters when the context window is unknown
NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def argument_hint(value: Any) -> str | None:
    """The hint as shown: `[a] [b]` written unquoted is a YAML list, shown as written."""
    if isinstance(value, list):
        return " ".join(f"[{item}]" for item in value if isinstance(item, str)) or None
    return value if isinstance(value, str) else None


def is_command_file(path: str) -> bool:
    return os.path.basename(path) != "SKILL.md"


class ClaudeCode(Pegasus):
    name = "claude-code"
    order = 20
    title = "Claude Code (.claude/skills, plugins)"
    source = "Claude Code documentation (code.claude.com/docs), up to 2026-08"
    agent_words = "Claude Code"
    roots: ClassVar[tuple[RootSpec, ...]] = (
        RootSpec(COMMANDS_DIR, "commands"),
        RootSpec(PROJECT_SKILLS, "project", nested=True),  # nested: v2.1.178
        RootSpec("~/.claude/skills", "personal"),
        RootSpec(ENTERPRISE_SKILLS, "enterprise"),
    )
    severities: ClassVar[dict[str, Severity]] = {
        "frontmatter-missing": "info",
        "compatibility-too-long": "warning",
        "name-format": "warning",
        "name-too-long": "warning",
    }
    marker_dirs: ClassVar[tuple[str, ...]] = (".claude-plugin", ".claude")
    panel_option = PanelOption("context_tokens", "Context window (tokens)", 200_000, 10_000_000)
    listing_frame = (LISTING_HEAD, LISTING_TAIL)
    # how the agent asks a model for live checks (core/live/questions.py's STYLES)
    live_style = "skill-tool"
    full_tier = "activation"
    fields = FIELDS
    reads_commands = True  # `.claude/commands/**/*.md`, a plugin's `commands/`
    loads_unparsed = True  # with empty metadata: `claude plugin validate` says so (PRODUCT.md 3.9)

    def __init__(self) -> None:
        self._options: Mapping[str, Any] = {}
        self._plugin_of: dict[str, str | None] = {}
        self._entries: dict[str, list[plugins.Entry]] = {}
        self.overrides: dict[str, str] = {}  # the project's skillOverrides (settings.py)

    # -- roots and discovery --------------------------------------------------
    def project_roots(self, folder: str) -> tuple[list[tuple[str, str]], list[Diagnostic]]:
        """The roots (layout.py), and the project's `skillOverrides` (settings.py)."""
        pairs, notes = project_roots(folder)
        self.overrides, found = settings.skill_overrides(folder)
        return pairs, notes + found

    def override(self, skill: Skill) -> str | None:
        """The skill's `skillOverrides` mode (plugin skills are not affected)."""
        if not self.overrides or skill.fields.get("plugin"):
            return None
        return self.overrides.get(skill.key or skill.name)

    def discover(self, root: Root, limits: ScanLimits) -> DiscoveryResult:
        return discover_root(root, self.plugin_folder(root), self.ignored_dirs, limits)

    def plugin_folder(self, root: Root) -> str | None:
        """The plugin folder a root belongs to (the root itself, or its parent when the
        root is a plugin's `skills/` folder), or None."""
        path = os.path.normpath(root.path)
        looked_at(  # (each skill's check depends on them, however often they are asked)
            os.path.join(path, plugins.PLUGIN_JSON),
            os.path.join(os.path.dirname(path), plugins.PLUGIN_JSON),
        )
        if root.path in self._plugin_of:
            return self._plugin_of[root.path]
        folder: str | None = None
        if root.label.startswith("plugin:") or plugins.is_plugin(path):
            folder = path
        elif os.path.basename(path) == "skills" and plugins.is_plugin(os.path.dirname(path)):
            folder = os.path.dirname(path)
        self._plugin_of[root.path] = folder
        return folder

    def new_skill_folders(self, root: Root) -> list[str]:
        """A plugin's `skills/` and the skill folders its manifest adds (never the plugin
        folder itself, where a skill folder is not loaded); none in a commands folder."""
        if os.path.normpath(root.path).endswith(os.sep + COMMANDS_DIR):
            return []
        plugin = self.plugin_folder(root)
        if plugin is None or plugin != os.path.normpath(root.path):
            return [root.path]
        manifest = plugins.plugin_manifest(plugin)
        extra = manifest.skill_dirs if manifest is not None else []
        extra = [
            p for p in extra if os.path.isdir(p) and not os.path.isfile(os.path.join(p, "SKILL.md"))
        ]
        folders = [os.path.join(plugin, "skills"), *extra]
        return list(dict.fromkeys(folders))

    def command_name(self, skill: Skill) -> str:
        """A command file's name (without its plugin): its path below the commands
        folder, folders joined by `:` (`.claude/commands/git/commit.md` is `git:commit`)."""
        folder = self.plugin_folder(skill.root)
        if folder is None:
            return command_name(skill.path, [skill.root.path])
        return command_name(skill.path, command_folders(folder, self.entries(skill.root)))

    def entries(self, root: Root) -> list[plugins.Entry]:
        """The marketplace entries of the plugin a root belongs to (cached per root)."""
        folder = self.plugin_folder(root)
        if folder is None:
            return []
        looked_at(*plugins.market_files(folder, root.base or folder))  # (as plugin_folder)
        if root.path not in self._entries:
            self._entries[root.path] = plugins.plugin_entries(folder, root.base or folder)
        return self._entries[root.path]

    def plugin_of(self, skill: Skill) -> str | None:
        """The namespace of a plugin skill (`plugin` of `plugin:skill`), or None."""
        folder = self.plugin_folder(skill.root)
        if folder is None:
            return None
        entries = self.entries(skill.root)
        if not (plugins.is_plugin(folder) and all(e.strict for e in entries)):
            # entries sharing a folder (`source: "./"`): the one whose `skills` name it
            for entry in entries:
                dirs = entry.manifest.skill_dirs
                if skill.folder in dirs or os.path.dirname(skill.folder) in dirs:
                    return entry.name
        if skill.root.label.startswith("plugin:") and os.path.normpath(skill.root.path) == folder:
            return skill.root.label[len("plugin:") :]
        return plugins.plugin_name(folder)

    # -- detection ------------------------------------------------------------
    def detect_layout(self, folder: str) -> str | None:
        """A marketplace or plugin manifest, or a `.claude/` folder that holds skills or
        commands (an empty `.claude/` is no mark: docs/profiles.md)."""
        for mark in (plugins.MARKETPLACE_JSON, plugins.PLUGIN_JSON):
            if os.path.isfile(os.path.join(folder, mark)):
                return mark
        if holds_skill(os.path.join(folder, PROJECT_SKILLS), folder):
            return PROJECT_SKILLS + "/ folder"
        if holds_skill(os.path.join(folder, COMMANDS_DIR), folder, ".md"):
            return COMMANDS_DIR + "/ folder"
        return None

    def unread_reason(self, folder: str, top: str) -> str | None:
        """Skills in a marketplace's folder that its marketplace.json does not list."""
        market = plugins.read_marketplace(top)
        if market is None:
            return None
        listed = [path for path, _ in market.plugins]
        if any(is_within(folder, path) for path in listed):
            return None
        return (
            f"{plugins.MARKETPLACE_JSON} does not list them, and Claude Code reads a "
            "marketplace's listed plugins, its .claude/ folders and no other folder"
        )

    def detect_fields(self, mapping: Mapping[str, Any]) -> str | None:
        for key in CLAUDE_MARKS:
            if key in mapping:
                return f"Claude Code field '{key}'"
        return None

    # -- fields -----------------------------------------------------------------
    def value_problem(self, spec: FieldSpec, value: Any) -> str | None:
        if spec.kind == "bool" and loose_bool(value) is not None:
            return None
        problem = type_problem(spec, value)
        if problem and spec.kind == "bool":
            return problem.replace(
                "true or false (no quotes)", "true or false (or yes/no, on/off, 1/0)"
            )
        return problem

    def resolve(self, skill: Skill, c: Checker) -> None:
        raw = skill.raw
        command = is_command_file(skill.path)
        plugin = self.plugin_of(skill)
        base = self.command_name(skill) if command else skill.folder_name
        skill.name = f"{plugin}:{base}" if plugin else base
        skill.namespace = plugin or ""
        skill.key = skill.name
        label = raw.get("name")
        desc = raw.get("description")
        unparsed = skill.doc.has_frontmatter and skill.doc.mapping is None
        if isinstance(desc, str) and desc.strip():
            skill.description = " ".join(desc.split())
            source = "frontmatter"
        elif unparsed:  # loaded with empty metadata (PRODUCT.md 3.9): no description
            skill.description = ""
            source = "none (frontmatter not parsed)"
        else:
            skill.description = first_paragraph(skill.doc.body) if skill.doc.text else ""
            source = "first paragraph"
        when = raw.get("when_to_use")
        skill.fields = {
            "name": skill.name,
            "label": label.strip()
            if isinstance(label, str) and label.strip() and not command
            else None,
            "description": skill.description,
            "description_source": source,
            "when_to_use": " ".join(when.split()) if isinstance(when, str) else "",
            "disable-model-invocation": loose_bool(raw.get("disable-model-invocation")) is True,
            "user-invocable": loose_bool(raw.get("user-invocable")) is not False,
            "context": "fork" if raw.get("context") == "fork" else "inline",
            "agent": raw.get("agent") if isinstance(raw.get("agent"), str) else "general-purpose",
            "model": raw.get("model") if isinstance(raw.get("model"), str) else None,
            "effort": raw.get("effort") if raw.get("effort") in EFFORTS else None,
            "argument-hint": argument_hint(raw.get("argument-hint")),
            "arguments": argument_names(raw.get("arguments")),
            "plugin": plugin,
            "plugin_root": self.plugin_folder(skill.root) if plugin else None,
            "command": command,
            "source": skill.root.label,
            "empty_metadata": unparsed,
        }

    def body_advice(self, c: Checker, body: str) -> None:
        """The standard's length advice, which Anthropic's authoring guide gives Claude
        Code's authors too (docs/agents.md "A body's length")."""
        body_length(c, body)

    def package_folder(self, skill: Skill) -> str | None:
        """A plugin skill's plugin folder: Claude Code installs a plugin as a whole."""
        folder = skill.fields.get("plugin_root")
        return folder if isinstance(folder, str) and folder != skill.folder else None

    def unknown_message(self, key: str) -> str:
        if self.upload:
            return (
                f"'{key}' is not a Claude Code field, and claude.ai / the Skills API accept "
                f"only {', '.join(UPLOAD_KEYS)}: remove it or move it under 'metadata:'."
            )
        return f"'{key}' is not a Claude Code field; Claude Code ignores it."

    def check(self, c: Checker) -> None:
        raw = c.skill.raw
        command = is_command_file(c.skill.path)
        name = raw.get("name")
        if command:
            own = c.skill.own_name
            place = "skills/" if c.skill.namespace else ".claude/skills/"
            target = f"{place}{own}/SKILL.md" if ":" not in own else "a skill's SKILL.md"
            for key in ("name", "paths"):
                if key in raw:
                    c.emit(
                        "unknown-field",
                        f"'{key}' is ignored in a legacy command: the command is "
                        f"/{c.skill.name} (the file name). Move it to "
                        f"{target} to use '{key}'.",
                        field=key,
                        severity="info",
                    )
        elif isinstance(name, str):
            check_name_length(c)
            if not NAME.fullmatch(name):
                c.emit(
                    "name-format",
                    f"The name '{name}' should be lowercase letters, digits and hyphens (the "
                    "Skills API and claude.ai reject other names); the command stays "
                    f"/{c.skill.name}.",
                    field="name",
                    at="value",
                )
            elif name != c.skill.name.split(":")[-1]:
                c.emit(
                    "name-dir-mismatch",
                    f"The name '{name}' is only a display label: the command is "
                    f"/{c.skill.name}, from the folder name.",
                    field="name",
                    at="value",
                    severity="info",
                )
        desc = raw.get("description")
        has_desc = isinstance(desc, str) and bool(desc.strip())
        if not has_desc and c.doc.readable and not c.skill.description:
            c.emit(
                "field-missing",
                "There is no 'description' and no first paragraph in the body to fall "
                "back on: Claude cannot tell when to use this skill. Add a description.",
                field="description",  # the form shows it under the field
                severity="warning",
                line=0 if "description" in raw else 1,
                column=0 if "description" in raw else 1,
            )
        elif not has_desc and c.doc.readable:
            shown = c.skill.description
            shown = shown if len(shown) <= 80 else shown[:77].rstrip() + "…"
            c.emit(
                "field-missing",
                "There is no 'description': Claude Code uses the body's first paragraph "
                f"instead (“{shown}”). Write a description to choose what Claude reads "
                "when it decides to use this skill.",
                field="description",
                severity="info",
                line=0 if "description" in raw else 1,
                column=0 if "description" in raw else 1,
            )
        if self.upload:
            for key in raw:
                if key not in UPLOAD_KEYS and self.field(key) is not None:
                    c.emit(
                        "unknown-field",
                        f"'{key}' is a Claude Code field, but claude.ai / the Skills API "
                        f"accept only {', '.join(UPLOAD_KEYS)}: the upload would be rejected.",
                        field=key,
                        severity="warning",
                    )
            check_length(
                c, "description", desc, 1024, "description-too-long", "'description' (upload)"
            )
        check_length(
            c,
            "compatibility",
            raw.get("compatibility"),
            MAX_COMPATIBILITY,
            "compatibility-too-long",
            "'compatibility'",
        )
        context = raw.get("context")
        if isinstance(context, str) and context != "fork":
            c.emit(
                "field-invalid",
                f"The context '{context}' is not a context Claude Code knows; only 'fork' "
                "changes anything (the skill runs inline).",
                field="context",
                at="value",
                severity="warning",
            )
        effort = raw.get("effort")
        if isinstance(effort, str) and effort not in EFFORTS:
            c.emit(
                "field-invalid",
                f"The effort '{effort}' is not one of {', '.join(EFFORTS)}.",
                field="effort",
                at="value",
                severity="warning",
            )
        shell = raw.get("shell")
        if isinstance(shell, str) and shell not in ("bash", "powershell"):
            c.emit(
                "field-invalid",
                f"The shell '{shell}' must be bash or powershell.",
                field="shell",
                at="value",
            )
        dmi = loose_bool(raw.get("disable-model-invocation"))
        if dmi is True and loose_bool(raw.get("user-invocable")) is False:
            c.emit(
                "invocation-disabled",
                "With disable-model-invocation: true and user-invocable: false neither you "
                "nor Claude can invoke this skill.",
                field="user-invocable",
            )
        when = raw.get("when_to_use")
        advise(c, when if isinstance(when, str) else "", dmi is not True)
        claude_advice(c)
        if self.upload:  # skillstudio.yaml `upload: true`: unknown keys would be rejected
            c.out = [
                replace(d, severity="warning") if d.code == "unknown-field" else d for d in c.out
            ]

    def skip_reason(self, skill: Skill, c: Checker) -> str | None:
        """None: a frontmatter it cannot parse is loaded with empty metadata (the YAML
        error stays an error; `listing_omission` leaves it out of the listing)."""
        return None

    # -- tiers ----------------------------------------------------------------
    def listing_budget(self, options: Mapping[str, Any]) -> int | None:
        chars = options.get("char_budget")
        if chars:
            return int(chars)  # SLASH_COMMAND_TOOL_CHAR_BUDGET
        tokens = options.get("context_tokens")
        fraction = options.get("skill_listing_budget_fraction") or BUDGET_FRACTION
        return int(tokens * 4 * fraction) if tokens else FALLBACK_BUDGET

    def listing_description(self, skill: Skill, cap: int = MAX_DESC_CHARS) -> str:
        """description + ' - ' + when_to_use, whitespace collapsed, cut at `cap`
        characters (the last one then '…')."""
        return listing_description(skill, cap)

    def listing_omission(self, skill: Skill) -> str | None:
        if skill.fields.get("empty_metadata"):
            return (
                "its frontmatter cannot be parsed: Claude Code loads it with empty metadata, "
                "with no description to list"
            )
        return settings.listing_omission(self.override(skill)) or super().listing_omission(skill)

    def listing_texts(self, skill: Skill) -> dict[str, str]:
        """Claude Code's listing shows `when_to_use` too (and, as pegasus's, the hint)."""
        texts = super().listing_texts(skill)
        value = skill.fields.get("when_to_use")
        if isinstance(value, str) and value.strip():
            texts["use_when"] = value
        return texts

    def listing_entry(self, skill: Skill) -> str:
        desc = self.listing_description(skill)
        return f"- {skill.name}: {desc}" if desc else f"- {skill.name}"

    def render_listing(self, skills: list[Skill], out: TierText) -> str | None:
        """The user's skills then Claude Code's own entries (listing.py): every name
        stays; over the budget, descriptions are dropped, least used first, never a
        bundled skill's."""
        return write_listing(
            skills, out, self._options, self.listing_omission, self.override, self.overrides
        )

    def agent_skills(self, options: Mapping[str, Any]) -> list[Skill]:
        """Claude Code's bundled skills and built-in prompt commands as listed (none
        when `bundled_skills` is false; skillOverrides `off` hides one)."""
        return [
            agent_skill("claude-code", own.name, own.listed, f"claude-code:{own.name}", own.kind)
            for own in own_entries(options)
            if settings.listing_omission(self.overrides.get(own.name)) is None
        ]

    def own_origin(self) -> str:
        return "bundled with Claude Code or built into it: no file on disk"

    # -- activation -----------------------------------------------------------
    def listed_skills(self, skills: list[Skill], options: Mapping[str, Any]) -> list[Skill]:
        self._options = options  # the listing's settings (render_listing reads them)
        return skills

    def not_found_message(self, name: str, invoker: Invoker) -> str:
        if invoker == "model":
            return f"Unknown skill: {name}"
        return f"Unknown command: /{name}"

    def deliver(self, request: ActivationRequest, skill: Skill, body: str) -> Activation:
        """Invocation controls, substitution, then 'Base directory for this skill:
        <dir>', a blank line and the body; shell lines are listed, never run."""
        fields, invoker, result = skill.fields, request.invoker, request.result
        refused = settings.refusal(self.override(skill), skill.name, invoker)
        if refused is not None:
            result.error = {"code": "PERMISSION_DENIED", "message": refused}
            return result
        if invocation_refused(
            request,
            skill,
            f"Skill {skill.name} cannot be used with Skill tool due to disable-model-invocation",
            f"/{skill.name} is hidden from the / menu (user-invocable: false); "
            "only Claude can invoke it.",
        ):
            return result
        variables = self.variables(skill, request.options)
        content, notes = substitute_claude(body, request.args, variables, fields["arguments"])
        shells = shell_lines(skill_body(skill), skill.doc.body_line)  # lines as in the file
        for shell in shells:
            first = shell["command"].splitlines()[0] if shell["command"] else ""
            notes.append(
                f"line {shell['line']}: `{first}` {SHELL_NOTE} (Claude Code runs it and puts "
                "its output here; SkillStudio shows it and never runs it)."
            )
        result.notes = notes
        command = fields.get("command")  # a legacy command has no folder of its own
        text = content if command else f"Base directory for this skill: {skill.folder}\n\n{content}"
        result.payload = {"shell": shells}
        if fields.get("context") == "fork":
            result.mode = "fork"
            result.content = text
            result.payload["task"] = {"prompt": text, "agent": fields.get("agent")}
        elif invoker == "model":
            result.mode = "tool_result"
            result.content = text
        else:
            result.mode = "user_message"
            result.content = text
        return result

    def variables(self, skill: Skill, options: Mapping[str, Any]) -> dict[str, str]:
        """The ${CLAUDE_…} values in this skill (plugin ones only in plugin skills)."""
        project = options.get("project_dir") or project_dir(skill)
        values = {
            "CLAUDE_SKILL_DIR": skill.folder,
            "CLAUDE_PROJECT_DIR": str(project),
            "CLAUDE_SESSION_ID": str(options.get("session_id") or "session-1"),
            "CLAUDE_EFFORT": str(skill.fields.get("effort") or options.get("effort") or "medium"),
        }
        plugin_root = skill.fields.get("plugin_root")
        if plugin_root:
            values["CLAUDE_PLUGIN_ROOT"] = plugin_root
            values["CLAUDE_PLUGIN_DATA"] = os.path.join(
                claude_home(), "plugins", "data", str(skill.fields.get("plugin"))
            )
        return values


def _holds_skill_md(folder: str) -> bool:
    return os.path.isfile(os.path.join(folder, "SKILL.md"))
