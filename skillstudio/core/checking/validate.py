"""Validation of one skill: reading problems, fields, body links, and its status."""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from urllib.parse import unquote

from ..model.diagnostics import Diagnostic, Severity
from ..model.fields import is_placeholder_description, quoted, template_step_lines
from ..model.paths import is_inside
from ..model.rule_settings import apply_rules
from ..model.scan import SKILL_FILE
from ..model.skills import Skill
from ..model.text import counted
from ..profile import Checker, Profile
from ..reading.looked import looked_at
from .field_checks import check_fields
from .links import (
    LINK_CHARS,
    LINKS_CHECKED,
    Resolver,
    body_links,
    checked_part,
    expand_placeholder,
    line_starts,
)
from .lookalike import check_skill_name

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def validate_skill(skill: Skill, profile: Profile, advice: bool = True) -> None:
    """Fill the skill's name, fields, diagnostics and status (active/skipped/disabled);
    `advice` false: without the standard's advice (a verdict, which reads errors alone)."""
    doc = skill.doc
    c = Checker(skill, profile, advice)
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
            elif profile.loads_unparsed:
                message += (
                    f" {profile.the_agent} still loads the skill, with empty metadata: named "
                    "after its folder, with no description, so the model is not shown it."
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
        check_fields(c)  # types, required and unknown keys, then the profile's `check`
        check_skill_name(c)  # names that can be mistaken for another (core/checking/lookalike.py)
        if is_placeholder_description(skill.raw.get("description")):
            c.emit(
                "description-placeholder",
                "'description' is still the placeholder of the new-skill template; say what "
                "the skill does and when to use it (agents choose skills by this text).",
                field="description",
                at="value",
            )
        steps = template_step_lines(doc.text, doc.body_offset)
        if steps:
            line, column = steps[0]
            more = f" (and {counted(len(steps) - 1, 'more line')})" if len(steps) > 1 else ""
            c.emit(
                "body-placeholder",
                f"The body still has the new-skill template's instructions{more}; replace the "
                "template's instructions with your own (the agent follows these as written).",
                line=line,
                column=column,
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
    skill.diagnostics = [d.with_skill(name) for d in apply_rules(c.out, profile.rules)]
    skill.phrases = list(profile.trigger_phrases(skill)) if skill.key else []
    skill.phrase_set = frozenset(p[0] for p in skill.phrases)


def check_links(c: Checker, body: str) -> None:
    """Relative links must point at files that exist inside the skill folder (a link
    that starts with a placeholder such as `${CLAUDE_SKILL_DIR}/` is relative to the
    folder it names: the skill's, or its plugin's).

    A target is resolved (symbolic links followed) and must stay inside that folder
    and be a regular file or a folder: a link inside that leads out (to /etc/passwd)
    is `link-broken` like a `../` that leaves. The links are the ones a markdown
    reader finds (checking/links.py): none in code, comments or footnotes. The check is
    bounded (`checked_part`: the first LINKS_CHECKED links in the first LINK_CHARS
    characters; one `scan-limit` says where the unchecked rest begins). Most links
    resolve, so a quick look at every `](…` and `[…]: …` comes first; only when one
    of those does not resolve is that part parsed.
    """
    folder = c.skill.folder
    # the plugin installed with the skill, when more than its folder (Profile.package_folder)
    package = c.profile.package_folder(c.skill)
    package = os.path.normpath(package) if package else None
    root = os.path.normpath(c.skill.root.path)
    fine: set[str] = set()
    resolver = Resolver()

    def status(target: str) -> str | None:
        """None when fine or not a file link, else 'missing', 'outside', 'special',
        'plugin' (outside the skill folder, a file inside its plugin's) or 'sibling'
        (outside the skill folder, a file of its root: another skill's)."""
        key = path_part = unquote(target.split("#", 1)[0].split("?", 1)[0])
        if key in fine:
            return None
        base = folder
        placed = expand_placeholder(path_part, folder, package)
        if placed is not None:  # `{baseDir}/x.md`: relative to the skill or plugin folder
            base, path_part = placed
        elif _SCHEME.match(target) or target.startswith(("#", "/", "//", "~")):
            return None
        if not path_part:
            return None
        found = resolver.status(base, path_part)
        if found == "outside" and package is not None and base != package:
            # `../other-skill/SKILL.md`: the same rules, confined to the plugin's folder
            resolved = os.path.normpath(os.path.join(base, path_part))
            if is_inside(resolved, package):
                within = resolver.status(package, os.path.relpath(resolved, package))
                found = "plugin" if within is None else within
        if found == "outside" and base == folder and root != folder:
            # `../other-skill/SKILL.md` in a root: the same rules, confined to the root
            resolved = os.path.normpath(os.path.join(base, path_part))
            if is_inside(resolved, root):
                within = resolver.status(root, os.path.relpath(resolved, root))
                found = "sibling" if within is None else within
        if found is None:
            fine.add(key)
        return found

    part = checked_part(body)
    if part.rest_at >= 0:
        line, column = _position(body, part.rest_at)
        c.emit(
            "scan-limit",
            f"Links from here on were not checked: a body's check covers its first "
            f"{LINKS_CHECKED:,} links and {LINK_CHARS:,} characters. Move detail into "
            "referenced files.",
            line=c.doc.body_line + line,
            column=column,
        )
    if all(status(target) is None for target in part.targets):
        return
    text = body[: part.end]
    reported: set[str] = set()
    starts: list[int] = []
    for link in body_links(text):
        where = status(link.target)
        path_part = unquote(link.target.split("#", 1)[0].split("?", 1)[0])
        if where is None or path_part in reported:
            continue
        reported.add(path_part)
        starts = starts or line_starts(text)
        line = bisect_right(starts, link.offset) - 1
        if where == "plugin":
            plugin = c.skill.namespace or os.path.basename(package or "")
            message = (
                f"The link '{link.target}' points to a file of the plugin '{plugin}' outside "
                "this skill's folder: it works when the skill is installed as part of its "
                "plugin, not when the skill folder is copied or uploaded alone."
            )
        elif where == "sibling":
            message = _sibling_message(link.target, folder, root, path_part)
        else:
            message = f"The link '{link.target}' {PROBLEMS[where]}."
        c.emit(
            CODES.get(where, "link-broken"),
            message,
            line=c.doc.body_line + line,
            column=link.offset - starts[line] + 1,
        )


CODES = {"plugin": "link-plugin", "sibling": "link-sibling"}


def _sibling_message(target: str, folder: str, root: str, path_part: str) -> str:
    """`link-sibling`: a link out of the skill folder to a file of its root."""
    resolved = os.path.normpath(os.path.join(folder, path_part))
    first = os.path.relpath(resolved, root).split(os.sep)[0]
    other = os.path.join(root, first)
    looked_at(os.path.join(other, SKILL_FILE))
    if os.path.isdir(other) and os.path.isfile(os.path.join(other, SKILL_FILE)):
        whose = f"a file of the skill '{first}' beside this one"
        works = f"only where '{first}' is installed beside this skill"
    else:
        whose = f"'{os.path.relpath(resolved, root)}' in this skill's root, outside its folder"
        works = "only where the root is installed as a whole"
    return (
        f"The link '{target}' points to {whose}: it works {works}, not when "
        "this skill folder is copied or uploaded alone. To make the skill stand alone, "
        "copy what it needs into its folder."
    )


PROBLEMS = {
    "missing": "points to a file that does not exist",
    "outside": "points outside the skill folder; copy the file into it",
    "special": "points to something that is not a file (a FIFO, device or socket)",
}


def _position(body: str, offset: int) -> tuple[int, int]:
    """(0-based line, 1-based column) of `offset` in `body`."""
    line_start = body.rfind("\n", 0, offset) + 1
    return body.count("\n", 0, offset), offset - line_start + 1


def diagnostics_of(skills: list[Skill]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for skill in skills:
        out.extend(skill.all_diagnostics)
    return out
