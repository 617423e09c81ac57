"""Validation of one skill: reading problems, fields, body links, and its status."""

from __future__ import annotations

import os
import re
from urllib.parse import unquote

from .diagnostics import Diagnostic, Severity
from .model import Skill
from .profiles.base import Checker, Profile, is_inside

# A literal first character lets the regex engine skip ahead instead of trying
# every position; the link text before `](` does not matter for the check.
_INLINE_LINK = re.compile(r"\]\([ \t]*<?([^)\s>]+)")
_REF_DEF = re.compile(r" {0,3}\[[^\]\n]+\]:[ \t]*<?([^\s>]+)")
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
                    f" The {profile.name} agent falls back to the name and description "
                    "lines; every other field is lost."
                )
            elif doc.fallback:
                found = ", ".join(f"{k} '{v[:40]}'" for k, v in doc.fallback.items())
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
            f"The {profile.name} agent would not load this skill: {reason}.",
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
    """Relative links must point at files that exist inside the skill folder."""
    links, marks = _links(body)
    if not links:
        return
    fences = _fence_ranges(marks, len(body))
    folder = c.skill.folder
    seen: set[str] = set()
    for start, target, inline in links:
        if any(a <= start < b for a, b in fences):
            continue
        if _SCHEME.match(target) or target.startswith(("#", "/", "//", "~")):
            continue
        path_part = unquote(target.split("#", 1)[0].split("?", 1)[0])
        if not path_part or path_part in seen:
            continue
        seen.add(path_part)
        resolved = os.path.normpath(os.path.join(folder, path_part))
        if not is_inside(resolved, folder):
            problem = "points outside the skill folder; copy the file into it"
        elif not os.path.exists(resolved):
            problem = "points to a file that does not exist"
        else:
            continue
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


def _starts_line(body: str, pos: int) -> int:
    """Offset of pos's line when only up to three spaces precede pos on it, else -1."""
    line_start = body.rfind("\n", 0, pos) + 1
    if pos - line_start <= 3 and not body[line_start:pos].strip(" "):
        return line_start
    return -1


def _marks_of(body: str, needle: str) -> list[tuple[int, str]]:
    """Lines opening with `needle`; str.find jumps between the few occurrences."""
    found: list[tuple[int, str]] = []
    pos = body.find(needle)
    while pos >= 0:
        start = _starts_line(body, pos)
        if start >= 0:
            found.append((start, needle))
        line_end = body.find("\n", pos)
        if line_end < 0:
            break
        pos = body.find(needle, line_end)
    return found


def _line_marks(body: str) -> list[tuple[int, str]]:
    """(offset, mark) of lines opening with a code fence or '[' after at most 3 spaces."""
    marks = _marks_of(body, "```") + _marks_of(body, "~~~")
    if "]:" in body:  # reference definitions are rare; only then look at '[' lines
        marks += _marks_of(body, "[")
    marks.sort()
    return marks


def _links(body: str) -> tuple[list[tuple[int, str, bool]], list[tuple[int, str]]]:
    """Inline links and reference definitions as (offset, target, inline?), plus line marks."""
    out = [(m.start(), m.group(1), True) for m in _INLINE_LINK.finditer(body)]
    marks = _line_marks(body) if out or "]:" in body else []
    for start, mark in marks:
        if mark == "[":
            match = _REF_DEF.match(body, start)
            if match:
                out.append((start, match.group(1), False))
    return out, marks


def _fence_ranges(marks: list[tuple[int, str]], end: int) -> list[tuple[int, int]]:
    """Spans of fenced code blocks (an unclosed fence runs to the end)."""
    ranges: list[tuple[int, int]] = []
    opened: tuple[str, int] | None = None
    for start, marker in marks:
        if marker == "[":
            continue
        if opened is None:
            opened = (marker, start)
        elif marker == opened[0]:
            ranges.append((opened[1], start + 3))
            opened = None
    if opened is not None:
        ranges.append((opened[1], end))
    return ranges


def diagnostics_of(skills: list[Skill]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for skill in skills:
        out.extend(skill.all_diagnostics)
    return out
