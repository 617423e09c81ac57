"""Validation of one skill: reading problems, fields, body links, and its status."""

from __future__ import annotations

import os
import re
from urllib.parse import unquote

from .diagnostics import Diagnostic, Severity
from .fields import is_placeholder_description, quoted
from .model import Skill
from .profiles.base import Checker, Profile

# A literal first character lets the regex engine skip ahead instead of trying
# every position; the link text before `](` does not matter for the check.
_INLINE_LINK = re.compile(r"\]\([ \t]*<?([^)\s>]+)")
_REF_DEF = re.compile(r" {0,3}\[[^\]\n]+\]:[ \t]*<?([^\s>]+)")
_BRACKET_LINE = re.compile(r"\n {0,3}(\[)")
_FENCE_LINE = re.compile(r"\n {0,3}(```|~~~)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def validate_skill(skill: Skill, profile: Profile) -> None:
    """Fill the skill's name, fields, diagnostics and status (active/skipped/disabled)."""
    doc = skill.doc
    c = Checker(skill, profile)
    fallback_ok = profile.uses_fallback and bool(
        doc.fallback.get("name") and doc.fallback.get("description")
    )
    for problem in doc.problems:
        severity: Severity | None = None
        message = problem.message
        if problem.code in ("yaml-invalid", "frontmatter-unclosed", "frontmatter-not-mapping"):
            if fallback_ok:
                severity = "warning"
                message += (
                    f" {profile.the_agent} falls back to the name and description "
                    "lines; every other field is lost."
                )
            elif doc.fallback:
                found = ", ".join(f"{k} {quoted(v, 40)}" for k, v in doc.fallback.items())
                message += f" (Read from the lines anyway: {found}.)"
        c.emit(
            problem.code,
            message,
            field=problem.field,
            severity=severity,
            line=problem.line,
            column=problem.column,
        )
    profile.resolve(skill, c)
    if doc.readable:
        profile.check_fields(c)
        if is_placeholder_description(skill.raw.get("description")):
            c.emit(
                "description-placeholder",
                "'description' is still the placeholder of the new-skill template; say what "
                "the skill does and when to use it (agents choose skills by this text).",
                field="description",
                at="value",
            )
        if doc.text:
            body = doc.body
            check_links(c, body)
            profile.body_advice(c, body)
    reason: str | None
    if not doc.readable:
        reason = "the file cannot be read"
    elif not doc.has_frontmatter and profile.fields and any(s.required for s in profile.fields):
        reason = "it has no frontmatter"
    else:
        reason = profile.skip_reason(skill, c)
    if reason:
        skill.status = "skipped"
        skill.status_reason = reason
        skill.key = None
        c.emit(
            "skipped",
            f"{profile.the_agent} would not load this skill: {reason}.",
            line=1,
            column=1,
        )
    else:
        disabled = profile.disabled_reason(skill)
        if disabled:
            skill.status = "disabled"
            skill.status_reason = disabled
        else:
            skill.status = "active"
            skill.status_reason = ""
    name = skill.name or None
    skill.diagnostics = [d.with_skill(name) for d in c.out]
    skill.phrases = list(profile.trigger_phrases(skill)) if skill.key else []
    skill.phrase_set = frozenset(p[0] for p in skill.phrases)


def check_links(c: Checker, body: str) -> None:
    """Relative links must point at files that exist inside the skill folder.

    Most links resolve, and a resolving link needs no fence check; fenced code
    blocks are only located when a broken link has to be told apart from an
    example inside a code block.
    """
    links = _links(body)
    if not links:
        return
    folder = c.skill.folder
    prefix = folder + os.sep
    fences: list[tuple[int, int]] | None = None
    fine: set[str] = set()
    reported: set[str] = set()
    for start, target, inline in links:
        if _SCHEME.match(target) or target.startswith(("#", "/", "//", "~")):
            continue
        path_part = unquote(target.split("#", 1)[0].split("?", 1)[0])
        if not path_part or path_part in fine or path_part in reported:
            continue
        resolved = os.path.normpath(os.path.join(folder, path_part))
        inside = resolved == folder or resolved.startswith(prefix)
        if inside and os.path.exists(resolved):
            fine.add(path_part)
            continue
        if fences is None:
            fences = _fence_ranges(body)
        if any(a <= start < b for a, b in fences):
            continue
        reported.add(path_part)
        problem = (
            "points to a file that does not exist"
            if inside
            else "points outside the skill folder; copy the file into it"
        )
        line_start = body.rfind("\n", 0, start) + 1
        if inline:  # point at the link's '[' (or '![')
            bracket = body.rfind("[", line_start, start)
            if bracket >= 0:
                start = (
                    bracket - 1 if bracket > line_start and body[bracket - 1] == "!" else bracket
                )
        line = c.doc.body_line + body.count("\n", 0, start)
        column = start - line_start + 1
        c.emit(
            "link-broken",
            f"The link '{target}' {problem}.",
            line=line,
            column=column,
        )


def _line_starts(body: str, regex: re.Pattern[str], first: str) -> list[tuple[int, str]]:
    """(offset, mark) of lines opening with a mark after at most three spaces.

    The regexes start with a literal newline, so the engine jumps from line to
    line in C; a MULTILINE '^' would be tried at every character.
    """
    marks = [(m.start() + 1, m.group(1)) for m in regex.finditer(body)]
    head = body[:8]
    stripped = head.lstrip(" ")
    if len(head) - len(stripped) <= 3:
        for mark in first.split("|"):
            if stripped.startswith(mark):
                marks.insert(0, (0, mark))
                break
    return marks


def _links(body: str) -> list[tuple[int, str, bool]]:
    """Inline links and reference definitions as (offset, target, inline?)."""
    out = [(m.start(), m.group(1), True) for m in _INLINE_LINK.finditer(body)]
    if "]:" in body:  # reference definitions are rare; only then look at '[' lines
        for start, _mark in _line_starts(body, _BRACKET_LINE, "["):
            match = _REF_DEF.match(body, start)
            if match:
                out.append((start, match.group(1), False))
    return out


def _fence_ranges(body: str) -> list[tuple[int, int]]:
    """Spans of fenced code blocks (an unclosed fence runs to the end)."""
    ranges: list[tuple[int, int]] = []
    opened: tuple[str, int] | None = None
    for start, marker in _line_starts(body, _FENCE_LINE, "```|~~~"):
        if opened is None:
            opened = (marker, start)
        elif marker == opened[0]:
            ranges.append((opened[1], start + 3))
            opened = None
    if opened is not None:
        ranges.append((opened[1], len(body)))
    return ranges


def diagnostics_of(skills: list[Skill]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for skill in skills:
        out.extend(skill.all_diagnostics)
    return out
