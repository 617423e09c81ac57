"""codex: OpenAI's Codex CLI (docs/profiles.md), from its loader's source up to 2026-08.

Recursive roots from the repository root down to the working folder plus the
user, admin and system scopes; no shadowing (an ambiguous `$name` selects
nothing); `plugin:name` for plugin skills; `agents/openai.yaml` policy; the
`<skills_instructions>` listing with Codex's system skills, its budget of 2 % of the
window in tokens and its `r0/` aliases (listing.py, render.py);
`$name` / `[$name](path)` mentions inject the whole file in a `<skill>` block.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ...checking.advice import advise
from ...checking.advice_body import body_length
from ...checking.field_checks import check_not_empty
from ...delivery.activation import activate_standard
from ...model.diagnostics import Diagnostic, Severity
from ...model.fields import FieldSpec
from ...model.profile_requests import ActivationRequest
from ...model.skills import Root, Skill, agent_skill
from ...model.text import counted
from ...profile import Checker, PanelOption, Profile, RootSpec
from ...reading.safefs import read_bytes
from ...scanning.winners import own_beside
from . import files, shipped
from .files import CodexSettings
from .listing import (
    CUT_MARK,
    MAX_DESCRIPTION,
    budget_from,
    collapse,
    shown_description,
    write_listing,
)

if TYPE_CHECKING:
    from ...model.delivered import Activation, TierText
    from ...model.matches import MatchResult
    from ...model.profile_requests import MatchRequest
    from ...model.scan import DiscoveryResult, ScanLimits

MAX_NAME = 64
# `$name` (name characters [A-Za-z0-9_:-]) or the linked form `[$name](path)`.
MENTION = re.compile(r"\[\$([A-Za-z0-9_:-]+)\]\(([^)\s]+)\)|\$([A-Za-z0-9_:-]+)")


class Codex(Profile):
    name = "codex"
    order = 30
    title = "Codex CLI (.agents/skills, recursive)"
    agent_words = "Codex"
    source = "Codex CLI source (codex-rs/core/src/skills) and documentation, up to 2026-08"
    roots = (
        RootSpec(".agents/skills", "repository"),
        RootSpec(".codex/skills", "repository .codex/skills"),
    )
    discovery = "recursive"
    shadows = False
    # how the agent asks a model for live checks (core/live/questions.py's STYLES)
    live_style = "skills-instructions"
    own_roots_only = True  # a tree holding .agents/skills or .codex/skills: only those
    # detection (docs/profiles.md): a `.codex/` folder, or `agents/openai.yaml` in a
    # skill folder (which counts before the `.agents/skills/` folder other agents share)
    marker_dirs = (".codex",)
    skill_markers = ("agents/openai.yaml",)
    invocation_prefix = "$"
    full_tier = "activation"
    listing_frame = ("", "")
    panel_option = PanelOption("context_tokens", "Context window (tokens; 0 = unknown)", 0, 10**8)
    # Codex selects on a mention alone (`_mentioned`): not /name, not "use … skill"
    invocation_forms: ClassVar[str] = "a ${name} or [${name}](path) mention"
    severities: ClassVar[dict[str, Severity]] = {"description-too-long": "warning"}
    fields = (
        FieldSpec(
            "name",
            "string",
            "Name",
            "What $name mentions and the listing call the skill; whitespace is collapsed. "
            "Without it the folder name is used; plugin skills are listed as plugin:name.",
            max_length=MAX_NAME,
            default_note="the folder name",
        ),
        FieldSpec(
            "description",
            "text",
            "Description",
            "What the skill does and when to use it, on one line (whitespace is collapsed): "
            "the model chooses skills by it. Over 1,024 characters Codex shows the first "
            "1,021 and '...'.",
            required=True,
            max_length=MAX_DESCRIPTION,
        ),
        FieldSpec(
            "metadata",
            "map",
            "Metadata",
            "Codex reads only 'short-description' here (a one-line summary for its skill "
            "picker, at most 1,024 characters); other keys are kept and ignored.",
        ),
    )

    def __init__(self, settings: CodexSettings | None = None) -> None:
        self.settings = settings or CodexSettings.from_environment()

    # -- roots and discovery (core/profiles/codex/files.py) ---------------------
    def project_roots(self, folder: str) -> tuple[list[tuple[str, str]], list[Diagnostic]]:
        return files.project_roots(self.settings, folder)

    def discover(self, root: Root, limits: ScanLimits) -> DiscoveryResult:
        return files.discover_root(self.settings, root, limits)

    # -- fields ---------------------------------------------------------------
    def resolve(self, skill: Skill, c: Checker) -> None:
        raw = skill.raw
        name = raw.get("name")
        base = collapse(name) if isinstance(name, str) and name.strip() else skill.folder_name
        outside = files.outside_manifest(skill)
        plugin = files.plugin_name(skill, c) if skill.doc.readable and not outside else None
        skill.name = f"{plugin}:{base}" if plugin else base
        skill.namespace = plugin or ""
        desc = raw.get("description")
        full = collapse(desc) if isinstance(desc, str) else ""
        skill.description = shown_description(full)
        skill.key = skill.name
        meta = raw.get("metadata")
        short = meta.get("short-description") if isinstance(meta, dict) else None
        implicit = files.read_policy(skill, c) if skill.doc.readable else True
        skill.fields = {
            "name": skill.name,
            "description": full,
            "short-description": collapse(short) if isinstance(short, str) else None,
            "allow_implicit_invocation": implicit,
            "plugin": plugin,
            "outside_plugin": outside,
        }

    def body_advice(self, c: Checker, body: str) -> None:
        """The standard's length advice: Codex loads skills written to the standard
        (docs/agents.md "A body's length")."""
        body_length(c, body)

    def package_folder(self, skill: Skill) -> str | None:
        """A plugin skill's plugin folder (Codex installs a plugin as a whole)."""
        found = files.plugin_manifest(skill) if skill.namespace else None
        return found[0] if found is not None and found[0] != skill.folder else None

    def unknown_message(self, key: str) -> str:
        return (
            f"'{key}' is ignored by Codex, which reads only name, description and "
            "metadata.short-description; it is kept."
        )

    def check(self, c: Checker) -> None:
        raw = c.skill.raw
        name = raw.get("name")
        if isinstance(name, str) and len(collapse(name)) > MAX_NAME:
            c.emit(
                "name-too-long",
                f"'name' is {counted(len(collapse(name)), 'character')}; Codex refuses names over "
                f"{MAX_NAME} and does not load the skill.",
                field="name",
                at="value",
            )
            c.fail("name")
        check_not_empty(
            c, "description", "'description' is empty; Codex does not load a skill without one."
        )
        desc = raw.get("description")
        if isinstance(desc, str) and len(collapse(desc)) > MAX_DESCRIPTION:
            c.emit(
                "description-too-long",
                f"'description' is {counted(len(collapse(desc)), 'character')}; Codex shows "
                "the first "
                f"{MAX_DESCRIPTION - len(CUT_MARK):,} and '...' to the model. Shorten it by "
                f"{len(collapse(desc)) - MAX_DESCRIPTION:,} to be shown whole.",
                field="description",
                at="value",
            )
        meta = raw.get("metadata")
        if isinstance(meta, dict) and "short-description" in meta:
            short = meta["short-description"]
            if not isinstance(short, str):
                c.emit(
                    "field-type",
                    "'metadata.short-description' must be text; Codex ignores this value.",
                    field="metadata",
                    child="short-description",
                    severity="warning",
                )
            elif len(collapse(short)) > MAX_DESCRIPTION:
                c.emit(
                    "description-too-long",
                    "'metadata.short-description' is "
                    f"{counted(len(collapse(short)), 'character')}; "
                    f"the limit is {MAX_DESCRIPTION:,}.",
                    field="metadata",
                    child="short-description",
                )
        advise(c)

    def skip_reason(self, skill: Skill, c: Checker) -> str | None:
        bad = [key for key in ("name", "description") if key in c.invalid]
        if bad:
            return "its " + ", ".join(f"'{key}'" for key in bad) + " cannot be used"
        outside = skill.fields.get("outside_plugin")
        return outside if isinstance(outside, str) else None

    def duplicate_message(self, key: str, others: list[str]) -> str:
        return (
            f"Ambiguous ${key}: '{key}' is also the name of {', '.join(others)}. Codex lists "
            f"both, and a ${key} mention selects neither; rename one, or link the file "
            f"([${key}](path))."
        )

    # -- matching ---------------------------------------------------------------
    def rank(self, request: MatchRequest) -> MatchResult:
        """`$name` and `[$name](path)` mentions select (every one named; an ambiguous
        name none); otherwise the model chooses: a labelled heuristic ranking."""
        from ...model.matches import POINTS, MatchResult
        from ...ranking.match_index import keyword_counts, phrase_hits
        from ...ranking.rankers import rank_top

        index, query = request.index, request.query
        profile = request.registry.profile.name
        selected: list[str] = []
        notes: list[str] = []
        mentioned = [m.group(1) or m.group(3) for m in MENTION.finditer(query)]
        said = {m.lower() for m in mentioned}  # a mention is not a word of the request
        words = [w for w in request.words if w not in said]
        hits = phrase_hits(index, words)
        active = request.registry.active
        own = own_beside(request.registry.skills, self)
        for mention in MENTION.finditer(query):
            name = mention.group(1) or mention.group(3)
            skill, note = self._mentioned(active, name, mention.group(2))
            if skill is not None and not mention.group(2) and name in own:
                skill, note = (
                    None,
                    (  # two of one name: injection.rs counts both
                        f"Ambiguous ${name}: '{name}' is also the name of one of Codex's "
                        f"{self.own_origin()}; the mention selects neither. Link one as "
                        f"[${name}](path)."
                    ),
                )
            if note:
                notes.append(note)
            if skill is None or skill.path not in index.skills:
                continue
            key = name if active.get(name) is skill else skill.path
            if key not in selected:
                selected.append(key)
                hits.setdefault(skill.path, []).insert(0, ("explicit", name, POINTS["explicit"]))
        query_words = frozenset(words)
        ranked, rest, total = rank_top(
            index,
            hits,
            keyword_counts(index, query_words),
            query_words,
            lambda c: (-c.score, c.name, c.skill.path),
            heuristic=True,
        )
        chosen = {active[key].path for key in selected}
        for cand in ranked:
            cand.passed = cand.skill.path in chosen
            if cand.passed:
                cand.heuristic = False
        tier = 3 if selected else (2 if index.skills else 0)
        result = MatchResult(query, request.normalized, profile, None, ranked, selected, tier)
        result.total, result._make_rest = total, rest
        result.heuristic = True
        result.explicit = mentioned[0] if mentioned else None
        result.notes = [
            *notes,
            "Codex leaves selection to the model; scores from description words are a "
            f"heuristic, not a prediction. {self.selects_line()}",
        ]
        result.selects = self.selects_line()
        return result

    @staticmethod
    def _mentioned(
        active: Mapping[str, Skill], name: str, link: str | None
    ) -> tuple[Skill | None, str | None]:
        """The skill a mention selects, or None and why."""
        if link:
            target = os.path.normpath(os.path.expanduser(link))
            for linked in active.values():
                if linked.name == name and os.path.normpath(linked.path) == target:
                    return linked, None
        found = active.get(name)
        if found is not None:
            return found, None
        same = [s.path for s in active.values() if s.name == name]
        if same:
            return None, (
                f"Ambiguous ${name}: {counted(len(same), 'skill')} have that name "
                f"({', '.join(same)}); "
                f"the mention selects none. Link one as [${name}](path)."
            )
        if any(ch.isalpha() for ch in name):
            return None, f"${name} is mentioned but no loaded skill has that name."
        return None, None

    # -- tiers ----------------------------------------------------------------
    def listing_budget(self, options: Mapping[str, Any]) -> int | None:
        """Codex's budget (core/profiles/codex/render.py): in tokens for a known window,
        so what it counts is said beside it (TierText.budget_unit)."""
        return budget_from(options).limit

    def listing_omission(self, skill: Skill) -> str | None:
        if skill.fields.get("allow_implicit_invocation") is False:
            return (
                "agents/openai.yaml sets policy.allow_implicit_invocation: false (a $name "
                "mention still invokes it)"
            )
        return None

    def agent_skills(self, options: Mapping[str, Any]) -> list[Skill]:
        """Codex's system skills (shipped.py), listed first in every session."""
        root = os.path.join(self.settings.legacy_user_root, ".system")
        return [
            agent_skill("codex", s.name, s.description, f"{root}/{s.name}/SKILL.md", "system")
            for s in shipped.SYSTEM_SKILLS
        ]

    own_clash_severity = None  # confirmed in Codex's source: as two skills of one name

    def own_origin(self) -> str:
        """Codex's system skills are embedded in its binary and written into
        `$CODEX_HOME/skills/.system` when it starts (docs/agents.md, "Codex's listing")."""
        return (
            "system skills embedded in Codex, which writes them into "
            "$CODEX_HOME/skills/.system (~/.codex/skills/.system) when it starts"
        )

    def own_duplicate_message(self, key: str, own: Skill) -> str:
        """Codex keeps both (it drops only a SKILL.md path read twice) and a plain
        `$name` selects a skill only when one enabled skill has the name (injection.rs
        `select_skills_from_mentions`; docs/agents.md)."""
        return (
            f"Ambiguous ${key}: '{key}' is also the name of one of Codex's "
            f"{self.own_origin()}. Codex lists both, and a ${key} mention selects "
            f"neither; rename this one, or link the file ([${key}](path))."
        )

    def render_listing(self, skills: list[Skill], out: TierText) -> str | None:
        omissions = {s.path: why for s in skills if (why := self.listing_omission(s))}
        system_root = os.path.join(self.settings.legacy_user_root, ".system")
        return write_listing(skills, out, omissions, system_root)

    # -- activation -------------------------------------------------------------
    def activate(self, request: ActivationRequest) -> Activation:
        """`name` may be written `$name`; a skill's path picks one of several of a name."""
        registry, result = request.registry, request.result
        name = request.name[1:] if request.name.startswith("$") else request.name
        request.name = name
        skill = registry.active.get(name)
        if skill is None and name in registry.by_path:
            skill = registry.by_path[name] if registry.by_path[name].status == "active" else None
        if skill is None:
            same = [s.path for s in registry.active.values() if s.name == name]
            if same:
                result.error = {
                    "code": "AMBIGUOUS",
                    "message": f"Ambiguous ${name}: {counted(len(same), 'skill')} have that name "
                    f"({', '.join(same)}); name one by its path.",
                }
                return result
            return activate_standard(self, request)
        return self.deliver(request, skill, "")

    def deliver(self, request: ActivationRequest, skill: Skill, body: str) -> Activation:
        """The whole SKILL.md, frontmatter included, in a `<skill>` block of a user
        message; nothing is substituted and no shell line is run."""
        result = request.result
        if skill.doc.text:
            contents = skill.doc.text
        else:
            try:
                contents = read_bytes(skill.path, skill.folder).decode("utf-8", "replace")
            except OSError as exc:
                result.error = {"code": "EXECUTION_ERROR", "message": f"{exc}: {skill.path}"}
                return result
        result.content = (
            f"<skill>\n<name>{skill.name}</name>\n<path>{skill.path}</path>\n{contents}\n</skill>"
        )
        result.mode = "user_message"
        result.payload = {"role": "user", "path": skill.path}
        if request.args.strip():
            result.notes.append(
                "Codex has no $ARGUMENTS: the rest of the request reaches the model as it "
                "is, not substituted into the skill."
            )
        return result
