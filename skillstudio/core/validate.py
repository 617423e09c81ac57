"""Validation of one skill: reading problems, fields, body links, and its status."""

from __future__ import annotations

import os
import re
from urllib.parse import unquote

from .diagnostics import Diagnostic, Severity
from .model import Skill
from .profiles.base import Checker, Profile, is_inside

_INLINE_LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'(][^)\n]*)?\)")
_REF_DEF = re.compile(r"^ {0,3}\[[^\]\n]+\]:[ \t]*<?([^\s>]+)>?", re.M)
_FENCED = re.compile(r"^ {0,3}(```+|~~~+)[^\n]*\n.*?(?:^ {0,3}\1[ \t]*$|\Z)", re.M | re.S)
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


def check_links(c: Checker, body: str) -> None:
    """Relative links must point at files that exist inside the skill folder."""
    if "](" not in body and "]:" not in body:
        return
    fences: list[tuple[int, int]] = []
    if "```" in body or "~~~" in body:
        fences = [(m.start(), m.end()) for m in _FENCED.finditer(body)]
    folder = c.skill.folder
    seen: set[str] = set()
    for regex in (_INLINE_LINK, _REF_DEF):
        for match in regex.finditer(body):
            start = match.start()
            if any(a <= start < b for a, b in fences):
                continue
            target = match.group(1)
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
            line = c.doc.body_line + body.count("\n", 0, start)
            column = start - (body.rfind("\n", 0, start) + 1) + 1
            c.emit(
                "link-broken",
                f"The link '{target}' {problem}.",
                line=line,
                column=column,
            )


def diagnostics_of(skills: list[Skill]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for skill in skills:
        out.extend(skill.all_diagnostics)
    return out
