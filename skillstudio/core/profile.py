"""The profile interface: what every skill system declares, and the hooks the engine calls.

It sits below the engine: it imports only the model. The engine (scanning, ranking,
delivery) calls these hooks and supplies the defaults where a hook answers None
(`rank`, `activate`); each profile's own code lives in its module under `profiles/`.
The requests a hook gets, and what it may read of the engine's objects, are in
core/model/profile_requests.py; the checks every profile shares, which a profile's
`check` may call, in core/checking/field_checks.py. `Checker` collects one skill's
diagnostics as the hooks find them.
"""

from __future__ import annotations

import html
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from .model.confinement import holds_skill, root_inside
from .model.delivered import Activation, Invoker, TierText
from .model.diagnostics import Diagnostic, Severity
from .model.fields import FieldSpec, type_problem
from .model.matches import POINTS, MatchResult, Terms, description_keywords, words_of
from .model.profile_requests import ActivationRequest, MatchRequest
from .model.scan import Discovery, DiscoveryResult, ScanLimits
from .model.skills import Root, Skill


@dataclass(frozen=True, slots=True)
class PanelOption:
    """The number the app's Try a Request panel lets the user set for a profile."""

    key: str  # the matching / listing option it sets (threshold, max_skills, ...)
    label: str
    default: int
    maximum: int


@dataclass(frozen=True, slots=True)
class RootSpec:
    """A conventional root of a project, relative to it (`~` = the user's home)."""

    path: str
    label: str
    nested: bool = False  # also read in the project's folders below (`apps/web/.claude/skills`)


class Checker:
    """Collects the diagnostics of one skill, placing each at its key or value."""

    def __init__(self, skill: Skill, profile: Profile, advice: bool = True) -> None:
        self.skill = skill
        self.profile = profile
        self.doc = skill.doc
        self.out: list[Diagnostic] = []
        self.invalid: set[str] = set()  # fields whose values the profile cannot use
        self.advice = advice  # false: the standard's advice is not given (core/checking/advice.py)

    def emit(
        self,
        code: str,
        message: str,
        *,
        field: str | None = None,
        severity: Severity | None = None,
        at: Literal["key", "value"] = "key",
        item: int | None = None,
        child: str | None = None,
        line: int = 0,
        column: int = 0,
    ) -> None:
        sev = severity or self.profile.severity_of(code)
        if not line and field is not None:
            if child is not None:
                line, column = self.doc.child_position(field, child, item)
            elif at == "value" or item is not None:
                line, column = self.doc.value_position(field, item)
            else:
                line, column = self.doc.key_position(field)
        elif not line:
            line, column = 1, 1
        self.out.append(Diagnostic(code, sev, message, self.skill.path, line, column, field, None))

    def fail(self, field: str) -> None:
        """Mark a field as unusable (a required one makes the agent skip the skill)."""
        self.invalid.add(field)


class Profile:
    """Rules of one skill system. Subclasses set the class attributes and override hooks."""

    name: ClassVar[str]
    title: ClassVar[str]
    source: ClassVar[str]
    fields: ClassVar[tuple[FieldSpec, ...]]
    roots: ClassVar[tuple[RootSpec, ...]]
    discovery: ClassVar[Discovery] = "children"
    ignored_dirs: ClassVar[frozenset[str]] = frozenset()
    skill_files: ClassVar[tuple[str, ...]] = ("SKILL.md",)
    unknown_field_severity: ClassVar[Severity | None] = "info"
    refresh_rule: ClassVar[str | None] = None  # "root-mtime": mvp's stale-cache rule
    uses_fallback: ClassVar[bool] = False  # the agent reads name/description lines on YAML errors
    # the agent loads a skill whose frontmatter it cannot parse, with empty metadata
    loads_unparsed: ClassVar[bool] = False
    key_field: ClassVar[str] = "name"
    agent_words: ClassVar[str] = ""  # how messages name the agent; default "The <name> agent"
    severities: ClassVar[dict[str, Severity]] = {}  # per code, over base_severities:
    base_severities: ClassVar[dict[str, Severity]] = {
        "frontmatter-missing": "error",
        "frontmatter-unclosed": "error",
        "yaml-invalid": "error",
        "frontmatter-not-mapping": "error",
        "duplicate-key": "warning",
        "field-missing": "error",
        "field-type": "error",
        "field-invalid": "error",
        "name-format": "error",
        "name-too-long": "error",
        "name-dir-mismatch": "error",
        "name-lookalike": "warning",
        "description-empty": "error",
        "description-too-long": "error",
        "description-placeholder": "warning",
        "body-placeholder": "warning",
        "compatibility-too-long": "error",
        "version-invalid": "error",
        "pattern-invalid": "error",
        "toolset-missing": "error",
        "invocation-disabled": "warning",
        "duplicate-name": "warning",
        "shadowed": "info",
        "skipped": "warning",
        "trigger-ambiguous": "warning",
        "budget-exceeded": "warning",
        "listing-over-budget": "warning",
        "body-too-long": "warning",
        "link-broken": "warning",
        "link-plugin": "info",
        "link-sibling": "warning",
        "reference-missing": "warning",
        "file-too-large": "error",
        "not-utf8": "error",
        "symlink-skipped": "warning",
        "scan-limit": "warning",
        "unreadable": "error",
        "config-invalid": "error",
        "refresh-missed": "info",
        "root-deprecated": "info",
        "unknown-field": "info",
        "field-ignored": "info",
        "unreached": "info",
    }

    # -- declarations the engine and the app read (data) ----------------------
    marker_dirs: ClassVar[tuple[str, ...]] = ()  # a project folder holding one is this profile's
    # Detection marks in a skill folder (`agents/openai.yaml`): its root is this profile's.
    skill_markers: ClassVar[tuple[str, ...]] = ()
    # roots beyond the conventional ones (collections; seeds: no): core/projects/repository.py
    repository_roots: ClassVar[bool] = True
    own_roots_only: ClassVar[bool] = False  # the same for an agent with collections (Codex)
    panel_option: ClassVar[PanelOption | None] = None  # the Try a Request panel's setting
    # how a request invokes a skill by name ({name}; {named}: "<name>" in the forms)
    invocation_forms: ClassVar[str] = "/{name}, ${name} or 'use {named} skill'"
    model_chooses: ClassVar[bool] = True  # the model picks the skill, not rules (oasis, toolsets)
    uses_session: ClassVar[bool] = False  # activation depends on what the session did before
    # the agent reads command files (`.claude/commands/**/*.md`, a plugin's `commands/`)
    # as skills, besides SKILL.md files
    reads_commands: ClassVar[bool] = False
    has_breadcrumb: ClassVar[bool] = False  # tier 1 ([N skills available]) is really used
    # tier 2's frame around the entries, and what an entry over the budget does
    listing_frame: ClassVar[tuple[str, str]] = ("<available_skills>\n", "\n</available_skills>")
    listing_frame_lines: ClassVar[bool] = True  # no entries: the frame lines joined directly
    over_budget: ClassVar[Literal["skip", "stop"]] = "skip"
    full_tier: ClassVar[Literal["body", "activation"]] = "body"  # what tier 3 gives
    shadows: ClassVar[bool] = True  # a name's later skill hides the earlier (Codex: no)
    invocation_prefix: ClassVar[str] = "/"  # how a user names a skill in a request
    tie_break: ClassVar[str] = "name"  # how a tie of equal scores is broken, in words
    # where the profile stands in lists (commands' choices, `--profile all`, the app's
    # menu, detection before the default): the seed systems first, then the agents
    order: ClassVar[int] = 100

    _field_map: ClassVar[dict[str, FieldSpec]]
    # skillstudio.yaml `upload: true`: the skills are also meant for claude.ai / the Skills
    # API (keys it refuses warn); `rules:` a severity or "off" per code (checking/validate.py)
    upload: bool = False
    rules: Mapping[str, str] = MappingProxyType({})
    # skillstudio.yaml's options, as `agent_skills` reads them for the registry's notes
    # (`bundled_skills: false`): set with the rules (core/projects/project.py)
    own_options: Mapping[str, Any] = MappingProxyType({})
    # the severity of a skill named as one of the agent's own (`duplicate-name`); None:
    # the profile's `duplicate-name` severity (where the agent's own rule is confirmed)
    own_clash_severity: Severity | None = "info"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "fields" in cls.__dict__:
            cls._field_map = {spec.key: spec for spec in cls.fields}

    # -- declarations -------------------------------------------------------
    def field(self, key: str) -> FieldSpec | None:
        return self._field_map.get(key)

    def severity_of(self, code: str) -> Severity:
        return self.severities.get(code) or self.base_severities.get(code, "error")

    # -- hooks --------------------------------------------------------------
    def check(self, c: Checker) -> None:
        """Profile-specific rules; the shared type/required/unknown checks ran already."""

    def resolve(self, skill: Skill, c: Checker) -> None:
        """Fill skill.name, key, description and normalized fields."""
        raw = skill.raw
        name = raw.get("name")
        skill.name = name.strip() if isinstance(name, str) and name.strip() else skill.folder_name
        desc = raw.get("description")
        skill.description = desc.strip() if isinstance(desc, str) else ""
        skill.key = skill.name

    @property
    def the_agent(self) -> str:
        """`The oasis agent`; a standard names no one agent (`An Agent Skills agent`)."""
        return self.agent_words or f"The {self.name} agent"

    def skip_reason(self, skill: Skill, c: Checker) -> str | None:
        """Why the agent would not load this skill, or None when it loads."""
        missing = [spec.key for spec in self.fields if spec.required and spec.key in c.invalid]
        if missing:
            return "its " + ", ".join(f"'{m}'" for m in missing) + " cannot be used"
        return None

    def disabled_reason(self, skill: Skill) -> str | None:
        return None

    def trigger_phrases(self, skill: Skill) -> Iterable[tuple[str, str, int, str]]:
        """(normalized phrase, field, item index, child) for cross-skill ambiguity checks."""
        return ()

    def body_advice(self, c: Checker, body: str) -> None:
        """Advice on the body's length (profiles that give such advice override)."""

    def package_folder(self, skill: Skill) -> str | None:
        """The folder installed with the skill as one package (its plugin's), when that
        is more than the skill's own folder: a body link to a file inside it works once
        the package is installed (`link-plugin`), not from the skill folder alone."""
        return None

    # -- roots and discovery --------------------------------------------------
    def project_roots(self, folder: str) -> tuple[list[tuple[str, str]], list[Diagnostic]]:
        """(path, label) of the roots a project folder holds, lowest precedence first,
        and what reading them found wrong: by default the conventional roots that exist;
        those of the project (not `~/…`) only when they resolve inside it."""
        pairs = []
        notes: list[Diagnostic] = []
        for spec in self.roots:
            path = os.path.normpath(os.path.join(folder, os.path.expanduser(spec.path)))
            own = not (spec.path.startswith("~") or os.path.isabs(spec.path))
            if root_inside(path, folder, notes) if own else os.path.isdir(path):
                pairs.append((path, spec.label))
        return pairs, notes

    def discover(self, root: Root, limits: ScanLimits) -> DiscoveryResult | None:
        """The skill files under one root; None: the engine's walk by the profile's
        `discovery` pattern (`reading.discovery.discover`)."""
        return None

    def new_skill_folders(self, root: Root) -> list[str]:
        """The folders under `root` where a new skill folder is one the agent loads
        (File › New Skill's choice): the root itself; a plugin's `skills/` (claude-code)."""
        return [root.path]

    def unread_reason(self, folder: str, top: str) -> str | None:
        """Why the agent does not read the skills in `folder` (under `top`, the folder
        opened, and under none of its roots), when this system has a reason of its own
        (a marketplace that does not list them); None: the engine names the roots."""
        return None

    # -- detection ------------------------------------------------------------
    def detect_layout(self, folder: str) -> str | None:
        """What in a folder's layout marks it as this profile's (a marker folder that
        holds a skill: an empty agent folder is no mark), or None."""
        for marker in self.marker_dirs:
            if holds_skill(os.path.join(folder, marker), folder):
                return f"{marker}/ folder"
        return None

    def detect_fields(self, mapping: Mapping[str, Any]) -> str | None:
        """Why a skill's frontmatter marks it as this profile's, or None."""
        return None

    def duplicate_message(self, key: str, others: list[str]) -> str:
        """The `duplicate-name` note of a profile that does not shadow (`shadows` False)."""
        return f"'{key}' is also the name of {', '.join(others)}; both are loaded."

    # -- matching -------------------------------------------------------------
    def match_terms(self, skill: Skill) -> Terms:
        """What a request is matched against: by default the name (its own words, not
        its namespace), as a heuristic."""
        name_words = words_of(skill.own_name)
        phrases = ((name_words, "name", skill.name, POINTS["name"]),) if name_words else ()
        return Terms(phrases, description_keywords(skill.description), (), name_words)

    def rank(self, request: MatchRequest) -> MatchResult | None:
        """Rank and select; None: the engine's default, where only an explicit
        invocation selects (`ranking.rankers.rank_explicit`)."""
        return None

    def listing_texts(self, skill: Skill) -> dict[str, str]:
        """What the agent's listing shows the model of this skill, by role: "name",
        "description", "use_when", "triggers", "hint" (what the likely ranking reads
        besides the body's gist, each role at its own weight): here the name and the
        description, and the trigger phrases of a profile that has them."""
        texts = default_listing_texts(skill)
        phrases = self.trigger_texts(skill)
        if phrases:
            texts["triggers"] = " ".join(phrases)
        return texts

    def trigger_texts(self, skill: Skill, patterns: bool = False) -> list[str]:
        """The skill's trigger phrases as written, for explanations (with `patterns`,
        its regular expressions too); none where a profile has no triggers."""
        return []

    def precedence(self, skill: Skill) -> int:
        """Among skills that score the same, the higher goes first (then the name)."""
        return 0

    def invocation_blocked(self, skill: Skill, query: str) -> str | None:
        """Why an explicit invocation of `skill` selects nothing, or None."""
        return None

    def invocations(self, name: str | None = None) -> str:
        """How a request invokes the skill `name` under this profile, in words (what
        `ranking.rankers.rank_explicit` reads); without a name, the forms themselves."""
        return self.invocation_forms.format(name=name or "name", named=name or "<name>")

    def selects_line(self) -> str:
        """The sentence every place that ranks by words ends on (`match`'s note and
        `--why`, the app's Explanation and its Score and Estimate tooltips): what alone
        selects under this profile."""
        return f"Only {self.invocations()} selects."

    # -- tiers ----------------------------------------------------------------
    def listing_budget(self, options: Mapping[str, Any]) -> int | None:
        """Tier 2's character budget (None: no budget)."""
        return None

    def listed_skills(self, skills: list[Skill], options: Mapping[str, Any]) -> list[Skill]:
        """The active skills the agent is shown (a profile with allowlists narrows)."""
        return skills

    def listing_omission(self, skill: Skill) -> str | None:
        """Why the profile's own rule leaves an active skill out of tier 2, or None."""
        return None

    def skill_tool(self, names: list[str]) -> dict[str, Any] | None:
        """The agent's own declaration of its skill tool for these listed names (`name`,
        `description`, `parametersJsonSchema`), for the live checks (core/live); None:
        not known here, the live style's reconstruction is sent."""
        return None

    def agent_skills(self, options: Mapping[str, Any]) -> list[Skill]:
        """The skills the agent itself lists beside the user's at these options (Claude
        Code's bundled skills, Codex's system skills), as competitors a ranking may weigh;
        the author cannot edit them. None by default."""
        return []

    def own_origin(self) -> str:
        """Where the agent's own skills (`agent_skills`) come from, in a phrase a note
        can hold ("bundled with Claude Code, no file on disk"); "" where it lists none."""
        return ""

    def own_duplicate_message(self, key: str, own: Skill) -> str:
        """The `duplicate-name` note of an author's skill named as one of the agent's
        own (`own`): what the agent does with the two, or that it is not confirmed."""
        return (
            f"'{key}' is also the name of one of {self.the_agent}'s own skills "
            f"({self.own_origin() or own.root.label}); both are listed for the model. Which "
            f"one /{key} runs is not confirmed by {self.the_agent}'s documentation: rename "
            "this one to be sure."
        )

    def render_listing(self, skills: list[Skill], out: TierText) -> str | None:
        """Tier 2's whole text, for a profile whose budget rule is not per entry (it
        fills out.listed and out.omitted); None: the entries one by one, as usual."""
        return None

    def listing_form(self) -> str:
        """What tier 2's text is, when it is not the agent's own listing ("" when it is,
        or the profile is its own system): said beside the text in the app."""
        return ""

    def listing_entry(self, skill: Skill) -> str:
        """One skill's lines in tier 2: by default the <available_skills> entry of the
        Agent Skills standard, as its reference (skills-ref `to_prompt`) writes it:
        every value HTML-escaped."""
        parts = ("name", html.escape(skill.name)), ("description", html.escape(skill.description))
        inner = [f"<{tag}>\n{text}\n</{tag}>" for tag, text in parts]
        return "\n".join(["<skill>", *inner, f"<location>\n{skill.path}\n</location>", "</skill>"])

    def full_text(self, skill: Skill, body: str) -> str:
        """Tier 3's text for one selected skill whose body is given as it is."""
        return body

    # -- activation -----------------------------------------------------------
    def activate(self, request: ActivationRequest) -> Activation | None:
        """Find the skill, read its body and deliver it; None: the engine's usual way
        (`delivery.activation.activate_standard`, which calls `deliver`)."""
        return None

    def deliver(self, request: ActivationRequest, skill: Skill, body: str) -> Activation:
        """The activation's content and payload: by default the body, inline."""
        result = request.result
        result.content = body
        result.mode = "inline"
        return result

    def not_found_message(self, name: str, invoker: Invoker) -> str:
        return f"No skill named '{name}'."

    def unloaded_error(self, name: str, known: Skill) -> dict[str, Any] | None:
        """The error for a skill that exists but is not active, when it differs."""
        return None

    # -- skill operations (`new`, rename, duplicate) -------------------------
    def template_frontmatter(self, name: str, title: str, description: str) -> str:
        """The frontmatter lines of a new skill, valid under this profile as they are."""
        return f"name: {name}\ndescription: {description}\n"

    def rename_fields(self, mapping: Mapping[str, Any]) -> list[str]:
        """The fields a rename or a duplicate writes the new name into."""
        return [self.key_field]

    # -- how the shared field checks word a problem (checking/field_checks.py) ----
    def value_problem(self, spec: FieldSpec, value: Any) -> str | None:
        """What is wrong with a value's type (a profile with looser types overrides)."""
        return type_problem(spec, value)

    def unknown_message(self, key: str) -> str:
        known = ", ".join(spec.key for spec in self.fields)
        return (
            f"'{key}' is not a field of the {self.name} profile; it is kept but not used "
            f"(known: {known})."
        )


def default_listing_texts(skill: Skill) -> dict[str, str]:
    """The name and description: what every listing shows (the name's words without
    its namespace: a plugin's `plugin:` is not a word of the name)."""
    return {"name": skill.own_name, "description": skill.description}


def listing_line(skill: Skill) -> str:
    """`- name: description` on one line, the common listing entry."""
    return f"- {skill.name}: {' '.join(skill.description.split())}"
