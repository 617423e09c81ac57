"""Diagnostics: the one shape every problem SkillStudio finds is reported in."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, Literal

Severity = Literal["error", "warning", "info"]

SEVERITY_RANK: dict[str, int] = {"error": 0, "warning": 1, "info": 2}

# Stable codes (docs/commands.md plus our additions). The text is the rule's
# one-line summary, used for SARIF rule descriptions and `--help`-style listings.
CODES: dict[str, str] = {
    "frontmatter-missing": "SKILL.md does not start with a '---' frontmatter block",
    "frontmatter-unclosed": "the frontmatter block has no closing '---' line",
    "yaml-invalid": "the frontmatter is not valid YAML",
    "frontmatter-not-mapping": "the frontmatter is not a mapping of keys to values",
    "duplicate-key": "a frontmatter key is written twice",
    "field-missing": "a required or recommended field is missing",
    "field-type": "a field's value has the wrong type",
    "field-invalid": "a field's value is not one the profile accepts",
    "unknown-field": "a frontmatter key the profile does not define",
    "field-ignored": "a field of the standard that the profile's agent does not read",
    "name-format": "the name breaks the profile's naming rules",
    "name-too-long": "the name is longer than the profile allows",
    "name-dir-mismatch": "the name differs from the skill's folder name",
    "name-lookalike": "a name that can be mistaken for another (invisible, bidi or "
    "look-alike characters, another Unicode form)",
    "description-empty": "the description is empty",
    "description-too-long": "the description is longer than the profile allows",
    "description-placeholder": "the description is still the new-skill template's placeholder",
    "body-placeholder": "the body still has the new-skill template's instructions",
    "compatibility-too-long": "the compatibility text is longer than allowed",
    "version-invalid": "the version is not a semantic version string",
    "pattern-invalid": "a trigger pattern is not a usable regular expression",
    "toolset-missing": "a toolset reference points to a missing file or class",
    "invocation-disabled": "nobody can invoke the skill",
    "duplicate-name": "two skills share a name; one of them wins",
    "shadowed": "a skill with the same name in a higher-precedence root wins",
    "skipped": "the agent would not load this skill",
    "trigger-ambiguous": "two skills use the same trigger",
    "budget-exceeded": "the skill listing is over its character budget",
    "listing-over-budget": "the agent's skill listing is over its budget: some skills lose "
    "their description or their place",
    "body-too-long": "the instructions are longer than advised",
    "link-broken": "a relative link points to a missing file or out of the skill's root",
    "link-plugin": "a relative link points to a file of the skill's plugin outside the skill "
    "folder: it works only when the skill is installed with its plugin",
    "link-sibling": "a relative link points to a file of another skill of the same root: it "
    "works only where both skills are installed side by side",
    "suite-invalid": "a query suite cannot be read (its format, a key or a value)",
    "suite-unknown-skill": "a suite case names a skill the project does not have",
    "file-too-large": "the file is too large to parse",
    "not-utf8": "the file is not UTF-8 text",
    "symlink-skipped": "a symbolic link that loops or leaves the root was not followed",
    "scan-limit": "a scan or check stopped at its limit (folders, depth, links of a body)",
    "unreadable": "the file or folder could not be read",
    "config-invalid": "skillstudio.yaml has a problem",
    "manifest-invalid": "a plugin's plugin.json is not what Claude Code reads",
    "plugin-remote": "a marketplace lists plugins from remote sources, which are not fetched",
    "refresh-missed": "the agent's refresh rule would not notice this change",
    "root-deprecated": "the agent still reads this root but has deprecated it",
    "no-skills": "a path given on the command line holds no SKILL.md",
    "skill-file-name": "a file that should be SKILL.md has another name",
    "internal": "SkillStudio failed on this skill; the rest goes on",
    "description-overlap": "two descriptions would compete for the same requests",
    "unreached": "SKILL.md files under the path that the profile's agent does not read",
    # authoring advice (core/model/explanations.py: severity, source, explanation)
    "name-reserved": "the name contains a word Anthropic reserves (claude, anthropic)",
    "name-vague": "the name is made only of words that say nothing of the task",
    "description-xml": "the description contains an XML or HTML tag",
    "description-person": "the description is written in the first or second person",
    "description-title": "the description is a bare title, not what the skill does",
    "description-no-when": "the description does not say when to use the skill",
    "reference-depth": "a referenced file links on to another (more than one level deep)",
    "path-backslash": "a path is written with Windows backslashes",
    "path-absolute": "a path points into one person's home folder",
    "reference-missing": "the body points the agent to a file of the skill that is not there",
    "skill-too-large": "the skill folder is larger than an upload accepts",
    "model-unknown": "'model' names no model the agent can use",
    "agent-without-fork": "'agent' is set without 'context: fork' (it does nothing)",
    "fork-without-task": "a forked skill's body gives the subagent no task",
    "tool-unknown": "an allowed-tools entry names no tool the agent has",
    "bash-unrestricted": "allowed-tools grants Bash without a command pattern",
    "shell-lines-many": "more than three shell lines run before the model sees the skill",
    "hooks-invalid": "'hooks' names an unknown event or is not shaped as the agent reads it",
    "argument-hint-unused": "'argument-hint' is set but the body uses no argument",
    "argument-hint-missing": "the body uses arguments but there is no 'argument-hint'",
    "bool-as-string": "a true/false field is written as quoted text",
    "bool-word": "a true/false field is written as yes/no/on/off or 1/0, not true/false",
    "paths-invalid": "a 'paths' glob is empty, absolute, uses backslashes or is malformed",
}

# What is left out when a stage fails on one skill (see `internal`).
_LEFT_OUT = {
    "reading": "the skill is left out of matching",
    "validating": "the skill is left out of matching",
    "matching": "the skill is left out of matching",
    "rendering": "the skill is left out of this text",
    "activating": "nothing is delivered for it",
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem, located in a file (1-based line and column; 0 when unknown)."""

    code: str
    severity: Severity
    message: str
    path: str
    line: int = 0
    column: int = 0
    field: str | None = None
    skill: str | None = None

    def __post_init__(self) -> None:
        # one copy of a message many skills get (an unknown key's, a description's
        # missing "when"): 68,000 messages held 38,000 copies of 4 at 10,000 skills (8 MB)
        if type(self.message) is str:
            object.__setattr__(self, "message", sys.intern(self.message))

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "path": self.path,
            "line": self.line or None,
            "column": self.column or None,
            "field": self.field,
            "skill": self.skill,
        }

    def sort_key(self) -> tuple[str, int, int, int]:
        """File order; a stable sort keeps emission order within one position."""
        return (self.path, self.line, self.column, SEVERITY_RANK[self.severity])

    def with_skill(self, skill: str | None) -> Diagnostic:
        if skill == self.skill:
            return self
        return Diagnostic(
            self.code,
            self.severity,
            self.message,
            self.path,
            self.line,
            self.column,
            self.field,
            skill,
        )


def one_line(exc: BaseException, limit: int = 300) -> str:
    """An exception as one line of text: its type and the first line of its message."""
    lines = str(exc).strip().splitlines()
    text = f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__
    return text if len(text) <= limit else text[:limit] + "…"


def internal(path: str, skill: str | None, stage: str, exc: BaseException) -> Diagnostic:
    """An unexpected failure of one stage on one skill, reported on that skill (the
    caller goes on with the rest)."""
    return Diagnostic(
        "internal",
        "error",
        f"SkillStudio failed while {stage} this skill ({one_line(exc)}); "
        f"{_LEFT_OUT.get(stage, 'the rest goes on')}. Please report this as a bug.",
        path,
        1,
        1,
        None,
        skill or None,
    )
