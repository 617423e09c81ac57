"""Validation of one skill: reading problems, fields, body links, and its status."""

from __future__ import annotations

import os
import re
from urllib.parse import unquote

from ..model.diagnostics import Diagnostic, Severity
from ..model.fields import is_placeholder_description, quoted
from ..model.skills import Skill
from ..profile import Checker, Profile
from .links import body_links, expand_placeholder

# A literal first character lets the regex engine skip ahead instead of trying
# every position; the link text before `](` does not matter for the quick look.
_INLINE_LINK = re.compile(r"\]\([ \t]*<?([^)\s>]+)")
_REF_DEF_ANYWHERE = re.compile(r"\]:[ \t]*<?([^\s>]+)")
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
    """Relative links must point at files that exist inside the skill folder (a link
    that starts with a placeholder such as `${CLAUDE_SKILL_DIR}/` is relative to the
    folder it names: the skill's, or its plugin's).

    The links are the ones a markdown reader finds (core/checking/links.py): none in
    code, comments or footnotes. Most links resolve, so a quick look at every
    `](…` and `[…]: …` comes first; only when one of those does not resolve is
    the body parsed.
    """
    folder = c.skill.folder
    prefix = folder + os.sep
    fine: set[str] = set()

    def status(target: str) -> str | None:
        """None when fine or not a file link, else 'inside' or 'outside'."""
        key = path_part = unquote(target.split("#", 1)[0].split("?", 1)[0])
        if key in fine:
            return None
        base, within = folder, prefix
        placed = expand_placeholder(path_part, folder)
        if placed is not None:  # `{baseDir}/x.md`: relative to the skill or plugin folder
            base, path_part = placed
            within = base + os.sep
        elif _SCHEME.match(target) or target.startswith(("#", "/", "//", "~")):
            return None
        if not path_part:
            return None
        resolved = os.path.normpath(os.path.join(base, path_part))
        inside = resolved == base or resolved.startswith(within)
        if inside and os.path.exists(resolved):
            fine.add(key)
            return None
        return "inside" if inside else "outside"

    if all(status(target) is None for target in _quick_targets(body)):
        return
    reported: set[str] = set()
    for link in body_links(body):
        where = status(link.target)
        path_part = unquote(link.target.split("#", 1)[0].split("?", 1)[0])
        if where is None or path_part in reported:
            continue
        reported.add(path_part)
        problem = (
            "points to a file that does not exist"
            if where == "inside"
            else "points outside the skill folder; copy the file into it"
        )
        line_start = body.rfind("\n", 0, link.offset) + 1
        c.emit(
            "link-broken",
            f"The link '{link.target}' {problem}.",
            line=c.doc.body_line + body.count("\n", 0, link.offset),
            column=link.offset - line_start + 1,
        )


def _quick_targets(body: str) -> list[str]:
    """What follows every `](` and starts every `[…]: ` line: a superset of the links'
    first words, cheap to find (the regexes start with a literal character)."""
    targets = [m.group(1) for m in _INLINE_LINK.finditer(body)]
    if "]:" in body:
        targets += [m.group(1) for m in _REF_DEF_ANYWHERE.finditer(body)]
    return targets


def diagnostics_of(skills: list[Skill]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for skill in skills:
        out.extend(skill.all_diagnostics)
    return out
