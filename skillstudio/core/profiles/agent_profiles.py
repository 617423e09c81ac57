"""Every agent of core/profiles/agents.py that has no full profile of its own, as a
profile (`--profile copilot`, `cursor`, `gemini`, ...; PRODUCT.md 3.10).

One class, `AgentProfile`, read from the agent's row: the standard's checks (the
agentskills profile) plus what the row declares: its roots (project and user), its
name rule, the fields it reads beyond the standard (Copilot's `argument-hint`, ...)
and the standard's fields it ignores (OpenCode's `allowed-tools`: said, not checked),
its limits, and the marks that name it alone (a root folder no other agent reads).
Claude Code's own advice is never given here. The profiles are built from the rows
in `PROFILES`, which the registry (core/profiles/__init__.py) reads; nothing else
names them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any, ClassVar

from ..model.delivered import Activation, TierText
from ..model.diagnostics import Severity
from ..model.fields import FieldSpec
from ..model.profile_requests import ActivationRequest, invocation_refused, model_invocation_off
from ..model.skills import Skill, agent_skill
from ..profile import Checker, Profile, RootSpec
from .agents import AGENTS, STANDARD_FIELDS, AgentSpec
from .agentskills import MAX_NAME, AgentSkills
from .claude_code.fields import FIELDS as CLAUDE_FIELDS
from .copilot import listing as copilot
from .gemini import listing as gemini

ORDER = 40  # after the full profiles (claude-code 20, codex 30), in the rows' order
# The field declarations the agents share with Claude Code (argument-hint, ...).
_SHARED_SPECS = {spec.key: spec for spec in CLAUDE_FIELDS}


def _label(scope: str) -> str:
    return "project" if scope == "project" else "user"


def own_folders(spec: AgentSpec) -> tuple[str, ...]:
    """The agent's project roots that no other agent reads: a tree holding skills there
    is this agent's alone (`.github/skills`: Copilot; `.kiro/skills`, named after the
    agent, even where the row could not confirm it is read), a mark for detection."""
    others = {r.path for a in AGENTS if a.key != spec.key for r in a.roots}
    return tuple(r.path for r in spec.roots if r.scope == "project" and r.path not in others)


class AgentProfile(AgentSkills):
    """An agent that reads the standard, as its row declares it (`spec`)."""

    spec: ClassVar[AgentSpec]
    # a key neither the standard nor the agent defines: the agent loads the skill and
    # ignores it; the standard (skills-ref) refuses it
    unknown_field_severity: ClassVar[Severity | None] = "warning"
    own_listing: ClassVar[bool] = False  # a module here writes the agent's own listing

    # -- names --------------------------------------------------------------
    def resolve(self, skill: Skill, c: Checker) -> None:
        super().resolve(skill, c)
        if self.spec.name_rule == "folder":
            skill.name = skill.key = skill.folder_name
            skill.fields["name"] = skill.name
        if self.honours_model_invocation:
            value = skill.raw.get("disable-model-invocation") is True
            skill.fields["disable-model-invocation"] = value
        if self.honours_user_invocable:
            skill.fields["user-invocable"] = skill.raw.get("user-invocable") is not False

    @property
    def honours_model_invocation(self) -> bool:
        """The agent reads `disable-model-invocation` (its row's `reads`: Copilot, Cursor):
        a skill that sets it is left out of the listing, invoked by the user only."""
        return "disable-model-invocation" in (self.spec.reads or ())

    @property
    def honours_user_invocable(self) -> bool:
        """The agent reads `user-invocable` (its row's `reads`: Copilot): a skill that sets
        it false is hidden from the / menu, still listed and loaded by the model (as
        Claude Code's: docs/agents.md, "Who honours disable-model-invocation")."""
        return "user-invocable" in (self.spec.reads or ())

    def listing_omission(self, skill: Skill) -> str | None:
        return model_invocation_off(skill) if self.honours_model_invocation else None

    def deliver(self, request: ActivationRequest, skill: Skill, body: str) -> Activation:
        """The body, inline; refused to the model where the agent honours
        `disable-model-invocation` (the user's /name still loads it), to the user's
        /name where it honours `user-invocable: false` (the model still loads it)."""
        title, name = self.spec.title, skill.name
        if (self.honours_model_invocation or self.honours_user_invocable) and invocation_refused(
            request,
            skill,
            f"{title} does not let the model invoke {name} (disable-model-invocation: "
            f"true); only the user's /{name} loads it.",
            f"{title} hides /{name} from the / menu (user-invocable: false); only the "
            "model loads it.",
        ):
            return request.result
        return super().deliver(request, skill, body)

    def _check_name(self, c: Checker, name: str) -> None:
        """The standard's name rule, unless the agent's own rule (read in its source:
        `name_source`) names a skill by its field as written."""
        if self.spec.name_rule != "field" or not self.spec.name_source:
            super()._check_name(c, name)
            return
        title = self.spec.title
        norm = unicodedata.normalize("NFKC", name.strip())
        if not norm:
            c.emit("name-format", "'name' is empty.", field="name", at="value")
            c.fail("name")
            return
        shown = self.listed_name(norm)
        if shown != norm:
            c.emit(
                "name-format",
                f"{title} lists the name '{norm}' as '{shown}' (it replaces "
                ': \\ / < > * ? " | with -); write it that way.',
                field="name",
                at="value",
                severity="warning",
            )
        standard = (
            norm == norm.lower()
            and len(norm) <= MAX_NAME
            and all(part and part.isalnum() for part in norm.split("-"))
        )
        if not standard:
            c.emit(
                "name-format",
                f"{title} accepts the name '{norm}'; the standard (and agents that follow it "
                "strictly) wants 1-64 lowercase letters, digits and single hyphens.",
                field="name",
                at="value",
                severity="info",
            )
        folder = unicodedata.normalize("NFKC", c.skill.folder_name)
        if folder != norm:
            c.emit(
                "name-dir-mismatch",
                f"{title} names the skill '{shown}' from its 'name' field, not from its "
                f"folder '{c.skill.folder_name}'; the standard, and agents that name a skill "
                "by its folder, want them equal.",
                field="name",
                at="value",
                severity="info",
            )

    def listed_name(self, name: str) -> str:
        """The name as the agent lists it (Gemini CLI replaces a few characters)."""
        return name

    # -- fields ---------------------------------------------------------------
    def check(self, c: Checker) -> None:
        super().check(c)
        reads = self.spec.reads
        if reads is None or c.doc.mapping is None:
            return
        raw = c.skill.raw
        if (
            self.honours_model_invocation
            and self.honours_user_invocable
            and raw.get("disable-model-invocation") is True
            and raw.get("user-invocable") is False
        ):
            c.emit(
                "invocation-disabled",
                "With disable-model-invocation: true and user-invocable: false neither you "
                f"nor {self.spec.title}'s model can invoke this skill.",
                field="user-invocable",
            )
        unsure = " (not confirmed in its documentation)" if "reads" in self.spec.unconfirmed else ""
        for key in c.skill.raw:
            if key in STANDARD_FIELDS and key not in reads:
                c.emit(
                    "field-ignored",
                    f"{self.spec.title} does not read '{key}'{unsure}: the field is the "
                    "standard's and is kept for other agents, but has no effect here"
                    + (
                        "; the tools it lists are not pre-approved."
                        if key == "allowed-tools"
                        else "."
                    ),
                    field=str(key),
                )

    def unknown_message(self, key: str) -> str:
        read = ", ".join(spec.key for spec in self.fields)
        return (
            f"'{key}' is neither a field of the Agent Skills standard nor one "
            f"{self.spec.title} reads (known: {read}); move it under 'metadata:' or remove it."
        )

    def skill_tool(self, names: list[str]) -> dict[str, Any] | None:
        return None  # not known for this agent (the live style's reconstruction is sent)

    def listing_form(self) -> str:
        if self.own_listing:
            return ""
        return (
            f"{self.spec.title}'s own listing format is not known here: shown as the Agent "
            "Skills standard's reference (skills-ref) writes it."
        )


class CopilotAgent(AgentProfile):
    """GitHub Copilot: its `<skills>` block as VS Code's Copilot Chat writes it
    (core/profiles/copilot/listing.py), values not escaped."""

    own_listing = True
    listing_frame = (copilot.HEAD, copilot.TAIL)

    def listing_entry(self, skill: Skill) -> str:
        return copilot.skill_entry(skill.name, skill.description, skill.path)


class GeminiAgent(AgentProfile):
    """Gemini CLI: its listing and `activate_skill` tool (core/profiles/gemini/listing.py),
    its name sanitising and its fallback parser for frontmatter YAML cannot read."""

    uses_fallback = True  # skillLoader.ts parseSimpleFrontmatter
    own_listing = True
    # skillLoader.ts sets no length limit: over the standard's, a skill still loads
    severities: ClassVar[dict[str, Severity]] = {
        "description-too-long": "warning",
        "compatibility-too-long": "warning",
    }
    listing_frame = (
        f"{gemini.HEADING}\n\n{gemini.INSTRUCTION}\n\n<available_skills>\n",
        "\n</available_skills>",
    )

    def listed_name(self, name: str) -> str:
        return gemini.gemini_name(name)

    def resolve(self, skill: Skill, c: Checker) -> None:
        super().resolve(skill, c)
        raw = skill.raw.get("name")
        if isinstance(raw, str) and raw.strip():
            skill.name = skill.key = gemini.gemini_name(raw.strip())

    def listing_entry(self, skill: Skill) -> str:
        return gemini.skill_entry(gemini.GeminiSkill(skill.name, skill.description, skill.path))

    def render_listing(self, skills: list[Skill], out: TierText) -> str | None:
        """The skills section as Gemini CLI writes it: its built-in skills first, then
        the user's, one of the same name replacing the built-in in its place
        (`gemini.loaded`, which `headroom`'s gemini row reads too)."""
        own = {b.name for b in gemini.BUILTIN_SKILLS}
        entries = gemini.loaded(gemini.GeminiSkill(s.name, s.description, s.path) for s in skills)
        for entry in entries:
            text = len(gemini.skill_entry(entry)) + 1
            bare = len(gemini.skill_entry(gemini.GeminiSkill(entry.name, "", entry.location))) + 1
            out.listed.append(entry.name)
            out.entries.append((entry.name, text, bare))
            if entry.builtin and entry.name in own:
                out.agent_own.append(len(out.listed) - 1)
        section = gemini.skills_section(entries)
        out.spent = len(section)
        return section

    def agent_skills(self, options: Mapping[str, Any]) -> list[Skill]:
        """Gemini CLI's built-in skills (`skill-creator`), listed first in every session."""
        return [
            agent_skill("gemini", b.name, b.description, f"gemini:{b.name}", "built-in")
            for b in gemini.BUILTIN_SKILLS
        ]

    def own_origin(self) -> str:
        return "built into Gemini CLI: a file of its installed package, listed first"

    def own_duplicate_message(self, key: str, own: Skill) -> str:
        """Gemini CLI keeps one skill per name, a later one replacing an earlier one in
        its place (skillManager.ts `addSkillsWithPrecedence`; docs/agents.md)."""
        return (
            f"'{key}' is also the name of one of Gemini CLI's own skills "
            f"({self.own_origin()}); Gemini CLI lists this one in its place, so its own "
            f"{key} is not offered."
        )

    def skill_tool(self, names: list[str]) -> dict[str, Any] | None:
        return gemini.activate_skill_declaration(names)


# An agent whose listing or loader a module of this package models beyond its row.
_CLASSES: dict[str, type[AgentProfile]] = {"gemini": GeminiAgent, "copilot": CopilotAgent}


def _fields(spec: AgentSpec) -> tuple[FieldSpec, ...]:
    """The standard's fields, then those the agent reads beyond them (declared as Claude
    Code declares them: the agents took them from it)."""
    extra = sorted((spec.reads or frozenset()) - STANDARD_FIELDS)
    return AgentSkills.fields + tuple(_SHARED_SPECS[k] for k in extra if k in _SHARED_SPECS)


def build(spec: AgentSpec, order: int) -> type[Profile]:
    """The profile of one agent's row."""
    base = _CLASSES.get(spec.key, AgentProfile)
    roots = tuple(
        RootSpec(r.path, _label(r.scope))
        for r in reversed(spec.roots)  # lowest precedence first
        if r.scope in ("project", "user")
    )
    attrs: dict[str, Any] = {
        "__module__": __name__,
        "__doc__": f"{spec.title}, read from its row in core/profiles/agents.py.",
        "name": spec.key,
        "order": order,
        "title": f"{spec.title} (the standard + its declaration)",
        "agent_words": spec.title,
        "source": f"{spec.source} (checked {spec.checked})",
        "spec": spec,
        "roots": roots,
        "marker_dirs": own_folders(spec),
        "fields": _fields(spec),
    }
    return type(f"{base.__name__}_{spec.key.replace('-', '_')}", (base,), attrs)


PROFILES: tuple[type[Profile], ...] = tuple(
    build(spec, ORDER + index) for index, spec in enumerate(a for a in AGENTS if a.profile is None)
)
