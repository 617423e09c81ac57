"""Portability: which skill systems load a skill as it is written, and what each of
the others rejects (`lint --profile all`, `show`, the app's Problems).

Every registered profile is asked, so a new profile joins by being registered. A
profile *loads* a skill when it would not skip it and finds no error in it; else
it *rejects* it, for the reasons given (the skip reason, or the errors, as short
phrases: "unknown key `argument-hint`"). Cross-skill findings (shadowing,
duplicates) are about a set of skills, not about the skill: they do not count.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from ..checking.validate import validate_skill
from ..model.diagnostics import Diagnostic
from ..model.explanations import ADVICE
from ..model.scan import SKILL_FILE
from ..model.skills import Root, Skill
from ..profile import Profile
from ..profiles import PROFILE_NAMES, get_profile
from ..reading.frontmatter import read_document
from ..scanning.loading import build_skill


def is_command_file(path: str) -> bool:
    """A command file (`.claude/commands/x.md`), not a skill's SKILL.md."""
    return os.path.basename(path) != SKILL_FILE


# Short words for the errors a reader of one line meets most.
PHRASES = {
    "unknown-field": "unknown key",
    "field-missing": "missing",
    "field-type": "wrong type of",
    "field-invalid": "invalid",
    "name-format": "name format",
    "name-too-long": "name too long",
    "name-dir-mismatch": "name differs from its folder",
    "description-empty": "empty description",
    "description-too-long": "description too long",
    "compatibility-too-long": "compatibility too long",
    "version-invalid": "invalid version",
}
MAX_REASONS = 3
NOT_READ = "not read"  # a verdict's status: the agent does not read this kind of file


@dataclass(slots=True)
class Verdict:
    """How one profile takes one skill."""

    profile: str
    loads: bool
    status: str
    reasons: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "loads": self.loads,
            "status": self.status,
            "reasons": self.reasons,
        }


NAMES_FIELD = frozenset({"unknown-field", "field-missing", "field-type", "field-invalid"})


def reasons_of(diagnostics: list[Diagnostic]) -> list[str]:
    """Errors as short phrases, one per kind, naming the keys ("missing `id`, `triggers`")."""
    keys: dict[str, list[str]] = {}
    for diag in diagnostics:
        if diag.severity != "error" or diag.code == "skipped":
            continue
        words = PHRASES.get(diag.code, diag.code.replace("-", " "))
        named = keys.setdefault(words, [])
        if diag.code in NAMES_FIELD and diag.field and f"`{diag.field}`" not in named:
            named.append(f"`{diag.field}`")
    return [f"{words} {', '.join(named)}" if named else words for words, named in keys.items()]


def _errors_only(skill: Skill, profile: Profile) -> None:
    validate_skill(skill, profile, advice=False)


def verdict(skill: Skill, profile_name: str, built: dict[str, Skill] | None = None) -> Verdict:
    """The skill as `profile_name` reads it (from the document already parsed); a
    command file (not a SKILL.md) only where the agent reads commands. `built`: where
    to keep the skill as that profile built it (the agents' answers read its name).
    A verdict reads errors alone: the standard's advice, never an error unless the
    project's rules make one so, is not given (18 profiles × every skill)."""
    profile = get_profile(profile_name)
    if is_command_file(skill.path) and not profile.reads_commands:
        return Verdict(profile_name, False, NOT_READ, ["reads SKILL.md files, not commands"])
    raised = any(profile.rules.get(code) == "error" for code in ADVICE)
    other = build_skill(
        skill.root,
        skill.path,
        (skill.mtime_ns, skill.size),
        profile,
        True,
        lambda: skill.doc,
        validate_skill if raised else _errors_only,
        gist=False,  # (a verdict reads no gist)
    )
    if built is not None:
        built[profile_name] = other
    reasons = reasons_of(other.diagnostics)
    if other.status == "skipped" and not reasons:
        reasons = [other.status_reason]
    loads = other.status != "skipped" and not reasons
    if len(reasons) > MAX_REASONS:
        reasons = [*reasons[:MAX_REASONS], f"{len(reasons) - MAX_REASONS} more"]
    return Verdict(profile_name, loads, other.status, reasons)


def portability(skill: Skill, built: dict[str, Skill] | None = None) -> list[Verdict]:
    """Every registered profile's verdict on the skill, in the registry's order (`built`:
    see `verdict`)."""
    return [verdict(skill, name, built) for name in list(PROFILE_NAMES)]


def portability_of_file(path: str) -> list[Verdict]:
    """The verdicts on the SKILL.md at `path` as saved (read bounded, never raises: an
    unreadable file is a verdict of its own in every profile)."""
    folder = os.path.dirname(path)
    root = Root(os.path.dirname(folder), "", 0)
    skill = Skill(path=path, root=root, doc=read_document(path))
    return portability(skill)


def summary(verdicts: list[Verdict]) -> str:
    """'loads in agentskills, codex; rejected by oasis (missing `id`), …'."""
    loads = [v.profile for v in verdicts if v.loads]
    unread = [v.profile for v in verdicts if v.status == NOT_READ]
    rejected = [
        f"{v.profile} ({'; '.join(v.reasons)})" if v.reasons else v.profile
        for v in verdicts
        if not v.loads and v.status != NOT_READ
    ]
    parts = [f"loads in {', '.join(loads)}" if loads else "no profile loads it"]
    if rejected:
        parts.append(f"rejected by {', '.join(rejected)}")
    if unread:
        parts.append(f"not read by {', '.join(unread)} (they read SKILL.md files, not commands)")
    return "; ".join(parts)
