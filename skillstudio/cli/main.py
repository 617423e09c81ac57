"""`skillstudio` command line: argument parsing and the commands (PRODUCT.md section 8)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from .. import __version__
from ..core.diagnostics import Diagnostic
from ..core.profiles import PROFILE_NAMES
from ..core.profiles.base import is_inside
from ..core.project import (
    Project,
    UsageError,
    projects_for_path,
    resolve_projects,
)
from ..core.registry import Registry
from ..core.text import counted
from .output import diagnostic_line, dumps, json_safe, printable, rel, sarif

if TYPE_CHECKING:
    from ..core.suites import Suite

# Commands import the engine, editing and archive modules when they run, so
# that `lint` (the CI hot path) does not pay for them at start-up.

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


@dataclass(slots=True)
class Env:
    """Where a command runs and writes (tests pass their own)."""

    cwd: str
    out: TextIO
    err: TextIO

    def print(self, text: str = "") -> None:
        self.out.write(text + "\n")


@dataclass(slots=True)
class Loaded:
    project: Project
    registry: Registry


def _common(parser: argparse.ArgumentParser, formats: Sequence[str] = ("text", "json")) -> None:
    parser.add_argument(
        "--root",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder of skills (repeatable; later roots take precedence)",
    )
    parser.add_argument("--project", metavar="DIR", help="a project folder (conventional roots)")
    parser.add_argument("--profile", choices=PROFILE_NAMES, help="the skill system's rules")
    parser.add_argument("--format", choices=formats, default="text", help="output format")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="skillstudio",
        description="Validate, inspect and test agent skills (SKILL.md) offline.",
    )
    parser.add_argument("--version", action="version", version=f"skillstudio {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    lint = sub.add_parser("lint", help="validate skills", description="Validate skills.")
    lint.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="a root (folder of skills), a skill folder, a SKILL.md, a project folder "
        "(with skillstudio.yaml or a profile's folders) or a repository of collections; "
        "default: the roots of ./skillstudio.yaml, else ./skills, else . "
        "(a PATH with no SKILL.md under it is an error)",
    )
    _common(lint, ("text", "json", "sarif"))
    lint.add_argument("--strict", action="store_true", help="fail on warnings too")
    lint.add_argument("-v", "--verbose", action="store_true", help="also print info notes")

    lst = sub.add_parser("list", help="list the registry", description="List the registry.")
    _common(lst)

    show = sub.add_parser("show", help="show one skill", description="Show one skill.")
    show.add_argument(
        "name", metavar="NAME", help="a skill name, or its folder or SKILL.md (as `set` takes)"
    )
    _common(show)

    match = sub.add_parser(
        "match", help="rank skills for a request", description="Rank skills for a request."
    )
    match.add_argument("query", metavar="QUERY", help="the request, as a user would type it")
    match.add_argument("--explain", action="store_true", help="points by rule, marked words")
    match.add_argument(
        "--why",
        metavar="NAME",
        action="append",
        default=[],
        help="say why this skill was not selected (repeatable)",
    )
    match.add_argument(
        "--recent",
        metavar="NAME",
        action="append",
        default=[],
        help="toolsets: a skill used recently in the session (repeatable)",
    )
    _common(match)

    prompt = sub.add_parser(
        "prompt", help="the exact tier text", description="Print the exact text of a tier."
    )
    which = prompt.add_mutually_exclusive_group()
    which.add_argument(
        "--tier",
        type=int,
        choices=(0, 1, 2, 3),
        metavar="N",
        help="0: nothing, 1: the breadcrumb ([N skills available]), 2: the registry listing "
        "(default), 3: the selected skills' instructions, which need a request (--query)",
    )
    which.add_argument(
        "--query",
        metavar="Q",
        help="a request: print the tier the profile uses for it (3 when a skill is selected)",
    )
    prompt.add_argument(
        "--context-tokens",
        type=int,
        metavar="N",
        help="the context window in tokens (budgets that depend on it)",
    )
    _common(prompt)

    act = sub.add_parser(
        "activate", help="the exact activation content", description="Activate a skill."
    )
    act.add_argument("name", metavar="NAME", help="the skill to activate")
    act.add_argument(
        "args",
        metavar="ARGS",
        nargs="?",
        default="",
        help="the arguments as typed after /NAME, quoted as one word ('a.pdf --short')",
    )
    act.add_argument(
        "--as",
        dest="invoker",
        choices=("user", "model"),
        default="model",
        help="who invokes it: the user (/NAME ARGS) or the model through its tool (default)",
    )
    _common(act)

    test = sub.add_parser("test", help="run query suites", description="Run query suites.")
    test.add_argument(
        "suites",
        nargs="*",
        metavar="SUITE",
        help="a suite (.yaml), a skill-creator eval_set.json or a Skill Lab triggers.yaml; "
        "default: those under 'suites:' in skillstudio.yaml",
    )
    test.add_argument("--skill", metavar="NAME", help="the skill an eval_set.json is about")
    _common(test)

    set_ = sub.add_parser(
        "set",
        help="edit frontmatter fields",
        description="Edit frontmatter, changing nothing else. A VALUE is text (written "
        "with quotes where YAML needs them) unless the field is declared true/false, a whole "
        "number or a list: then it must be one ('[a, b]' for a list). A dotted KEY edits "
        "inside a mapping: metadata.version=1.3 sets one entry and keeps the others; "
        "--unset metadata.version removes one.",
        epilog="examples: set my-skill 'description=Fix #123 and more'   "
        "set my-skill metadata.version=1.3   set my-skill --yaml 'metadata={a: b}'",
    )
    set_.add_argument("skill", metavar="SKILL", help="a skill name, folder or SKILL.md")
    set_.add_argument(
        "pairs", nargs="*", metavar="KEY=VALUE", help="a field and its value; KEY may be dotted"
    )
    set_.add_argument(
        "--unset",
        action="append",
        default=[],
        metavar="KEY",
        help="remove a field, or with a dotted KEY one entry of a mapping (repeatable)",
    )
    values = set_.add_mutually_exclusive_group()
    values.add_argument(
        "--string", action="store_true", help="take every VALUE as text, whatever the field's type"
    )
    values.add_argument(
        "--yaml",
        action="store_true",
        help="read every VALUE as YAML (mappings, lists, numbers: structured values)",
    )
    _common(set_)

    new = sub.add_parser(
        "new",
        help="create a skill",
        description="Create NAME/SKILL.md from the profile's template in the project's "
        "highest-precedence root (the last --root, or the project's user/project root); "
        "the path is printed.",
    )
    new.add_argument(
        "name", metavar="NAME", help="lowercase letters, digits and single hyphens (a folder)"
    )
    _common(new)

    pack_ = sub.add_parser("pack", help="make a .skill archive", description="Zip a skill folder.")
    pack_.add_argument("skill_dir", metavar="SKILL_DIR", help="the skill folder to archive")
    pack_.add_argument(
        "-o", "--output", metavar="FILE", help="the archive to write (default: ./NAME.skill)"
    )
    pack_.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    pack_.add_argument("--profile", choices=PROFILE_NAMES, help="the rules the skill is checked by")
    pack_.add_argument(
        "--strict",
        action="store_true",
        help="refuse a skill with errors or warnings (without it they are printed and the "
        "archive is written)",
    )

    unpack_ = sub.add_parser(
        "unpack", help="unpack a .skill archive", description="Unpack a .skill."
    )
    unpack_.add_argument("archive", metavar="FILE", help="the .skill archive")
    unpack_.add_argument("--root", metavar="DIR", help="where to unpack (default: ./skills or .)")
    unpack_.add_argument("--format", choices=("text", "json"), default="text", help="output format")

    gui = sub.add_parser("gui", help="open the app", description="Open the SkillStudio app.")
    gui.add_argument(
        "gui_args", nargs=argparse.REMAINDER, metavar="PATH", help="folders or projects to open"
    )
    return parser


def load(args: argparse.Namespace, env: Env, paths: list[str] | None = None) -> list[Loaded]:
    projects = resolve_projects(paths or [], args.root, args.project, args.profile, env.cwd)
    loaded = []
    for project in projects:
        registry = project.registry(workers=os.cpu_count() or 1)
        registry.scan()
        loaded.append(Loaded(project, registry))
    return loaded


def _profile_of(loaded: list[Loaded]) -> str:
    names = {item.project.profile.name for item in loaded}
    return names.pop() if len(names) == 1 else "mixed" if names else "none"


def _projects_json(loaded: list[Loaded]) -> list[dict[str, Any]]:
    return [
        {
            "path": item.project.base,
            "profile": item.project.profile.name,
            "profile_reason": item.project.profile_reason,
            "roots": [
                {"path": r.path, "label": r.label, "precedence": r.precedence}
                for r in item.project.roots
            ],
        }
        for item in loaded
    ]


MISNAMED_LIMIT = 2000  # folders looked at for a `skill.md` when a PATH holds no skill


def misnamed_skill_files(folder: str, depth: int = 3) -> list[str]:
    """`skill.md` (any case but SKILL.md) files in `folder` and up to `depth` levels of
    plain folders below it: what an agent on a case-sensitive disk never loads."""
    found: list[str] = []
    stack, seen = [(folder, 0)], 0
    while stack and seen < MISNAMED_LIMIT:
        current, level = stack.pop()
        seen += 1
        try:
            with os.scandir(current) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_symlink() or entry.name.startswith("."):
                    continue
                name = entry.name
                if entry.is_file() and name.lower() == "skill.md" and name != "SKILL.md":
                    found.append(entry.path)
                elif entry.is_dir() and level < depth:
                    stack.append((entry.path, level + 1))
            except OSError:
                continue
    return sorted(found)


def _misnamed_warning(path: str) -> Diagnostic:
    return Diagnostic(
        "skill-file-name",
        "warning",
        f"This file is named '{os.path.basename(path)}': rename it to SKILL.md. Agents on "
        "case-sensitive disks never load it.",
        path,
    )


def _lint_arguments(args: argparse.Namespace, env: Env) -> tuple[list[str], list[Diagnostic]]:
    """The PATHs to read, and diagnostics about files that are not skills: a file not
    named SKILL.md is an error (a `skill.md` is read, with a warning to rename it)."""
    keep: list[str] = []
    notes: list[Diagnostic] = []
    for path in args.paths:
        full = os.path.abspath(os.path.join(env.cwd, path))
        name = os.path.basename(full)
        if not os.path.isfile(full) or name == "SKILL.md":
            keep.append(path)
        elif name.lower() == "skill.md":
            notes.append(_misnamed_warning(full))
            keep.append(path)
        else:
            notes.append(
                Diagnostic(
                    "skill-file-name",
                    "error",
                    f"'{name}' is not a skill file: a skill is a folder with a SKILL.md. "
                    "Give lint that file, its folder or a folder of skills.",
                    full,
                )
            )
    return keep, notes


def _no_skills(args: argparse.Namespace, env: Env, loaded: list[Loaded]) -> list[Diagnostic]:
    """A PATH (or --root, --project) on the command line under which no skill was found
    is an error, so a CI job with a wrong path fails instead of passing on nothing."""
    given = [os.path.abspath(os.path.join(env.cwd, p)) for p in args.root or args.paths]
    if args.project and not args.root:
        given = [os.path.abspath(os.path.join(env.cwd, args.project))]
    found = [s.path for item in loaded for s in item.registry.skills]
    out: list[Diagnostic] = []
    for path in given:
        if os.path.isfile(path) or any(is_inside(f, path) for f in found):
            continue
        misnamed = misnamed_skill_files(path)
        out.extend(_misnamed_warning(m) for m in misnamed)
        where = rel(path, env.cwd) or "."
        message = f"No SKILL.md under {where}: check the path."
        if misnamed:
            message = f"No SKILL.md under {where}, only skill.md: rename it to SKILL.md."
        out.append(Diagnostic("no-skills", "error", message, path))
    return out


def cmd_lint(args: argparse.Namespace, env: Env) -> int:
    paths, diagnostics = _lint_arguments(args, env)
    loaded = load(args, env, paths) if paths or not args.paths else []
    diagnostics.extend(_no_skills(args, env, loaded))
    skills_json: list[dict[str, Any]] = []
    active = 0
    for item in loaded:
        diagnostics.extend(item.project.diagnostics)
        diagnostics.extend(item.registry.diagnostics)
        for skill in item.registry.skills:
            entry = skill.summary_json()
            entry["profile"] = item.project.profile.name
            skills_json.append(entry)
            active += skill.status == "active"
    diagnostics.sort(key=Diagnostic.sort_key)
    errors = sum(d.severity == "error" for d in diagnostics)
    warnings = sum(d.severity == "warning" for d in diagnostics)
    infos = len(diagnostics) - errors - warnings
    failed = errors > 0 or (args.strict and warnings > 0)
    if args.format == "json":
        env.print(
            dumps(
                {
                    "profile": _profile_of(loaded),
                    "projects": _projects_json(loaded),
                    "skills": skills_json,
                    "diagnostics": [d.to_json() for d in diagnostics],
                    "summary": {
                        "skills": len(skills_json),
                        "active": active,
                        "errors": errors,
                        "warnings": warnings,
                        "infos": infos,
                    },
                }
            )
        )
    elif args.format == "sarif":
        env.print(dumps(sarif(diagnostics, env.cwd)))
    else:
        for diag in diagnostics:
            if diag.severity != "info" or args.verbose:
                env.print(diagnostic_line(diag, env.cwd))
        profiles = ", ".join(
            f"{item.project.profile.name} ({rel(item.project.base, env.cwd) or '.'})"
            for item in loaded
        )
        checked = f" checked with {profiles}" if profiles else ""
        note = ""
        if infos:
            note = f", {counted(infos, 'note')}" + ("" if args.verbose else " (-v shows them)")
        env.print(
            f"{counted(len(skills_json), 'skill')} ({active:,} active){checked}: "
            f"{counted(errors, 'error')}, {counted(warnings, 'warning')}{note}"
        )
    return EXIT_FAIL if failed else EXIT_OK


def cmd_list(args: argparse.Namespace, env: Env) -> int:
    loaded = load(args, env)
    rows: list[dict[str, Any]] = []
    for item in loaded:
        for skill in item.registry.skills:
            counts = _counts(skill.all_diagnostics)
            rows.append(
                {
                    "name": skill.name,
                    "status": skill.status,
                    "root": skill.root.path,
                    "root_label": skill.root.label,
                    "precedence": skill.root.precedence,
                    "path": skill.path,
                    "profile": item.project.profile.name,
                    "description": skill.description,
                    "reason": skill.status_reason or None,
                    "winner": skill.winner,
                    "errors": counts["error"],
                    "warnings": counts["warning"],
                }
            )
    if args.format == "json":
        env.print(
            dumps(
                {"profile": _profile_of(loaded), "projects": _projects_json(loaded), "skills": rows}
            )
        )
        return EXIT_OK
    if not rows:
        env.print("No skills found.")
        return EXIT_OK
    table = [("NAME", "STATUS", "ROOT", "PATH", "PROBLEMS")]
    for r in rows:
        problems = [
            counted(r[key], noun)
            for key, noun in (("errors", "error"), ("warnings", "warning"))
            if r[key]
        ]
        table.append(
            (
                printable(r["name"]),
                r["status"],
                printable(r["root_label"]),
                printable(rel(r["path"], env.cwd)),
                ", ".join(problems),
            )
        )
    widths = [max(len(row[col]) for row in table) for col in range(4)]
    for row in table:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        env.print(("  ".join(cells) + "  " + row[4]).rstrip())
    return EXIT_OK


def _counts(diags: list[Diagnostic]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for diag in diags:
        counts[diag.severity] += 1
    return counts


def _written(skill: Any, diags: list[Diagnostic]) -> dict[str, str]:
    """What the author wrote for values reported as the wrong type (`1.10`, read as 1.1)."""
    typed = {d.field for d in diags if d.code in ("field-type", "version-invalid") and d.field}
    if not typed:
        return {}
    from ..core.editing import typed_sources

    return {
        path: text
        for path, text in typed_sources(skill.doc).items()
        if path.split(".", 1)[0] in typed
    }


def _shown(args: argparse.Namespace, env: Env) -> tuple[list[Loaded], list[tuple[Loaded, Any]]]:
    """`show NAME`: a registry name; else, as `set`, a skill folder or SKILL.md path."""
    loaded = load(args, env)
    found = [(item, item.registry.get(args.name)) for item in loaded]
    found = [(item, skill) for item, skill in found if skill is not None]
    target = os.path.abspath(os.path.join(env.cwd, args.name))
    skill_md = target if os.path.isfile(target) else os.path.join(target, "SKILL.md")
    if not found and os.path.basename(skill_md) == "SKILL.md" and os.path.isfile(skill_md):
        for item in load(args, env, [skill_md]) if not args.root else []:
            found += [(item, s) for s in item.registry.skills if s.path == skill_md]
    return loaded, found


def cmd_show(args: argparse.Namespace, env: Env) -> int:
    loaded, found = _shown(args, env)
    for item, skill in found:
        diags = sorted(skill.all_diagnostics, key=Diagnostic.sort_key)
        written = _written(skill, diags)
        files = skill.supporting_files()
        body = skill.load_body()
        data = {
            "profile": item.project.profile.name,
            "name": skill.name,
            "path": skill.path,
            "root": skill.root.path,
            "root_label": skill.root.label,
            "status": skill.status,
            "reason": skill.status_reason or None,
            "winner": skill.winner,
            "description": skill.description,
            "fields": json_safe(skill.fields),
            "raw": json_safe(skill.raw),
            "unknown_keys": [k for k in skill.raw if item.project.profile.field(k) is None],
            "written": written,
            "diagnostics": [d.to_json() for d in diags],
            "files": files,
            "body": {"lines": body.count("\n") + 1 if body else 0, "chars": len(body)},
            "encoding": skill.doc.encoding,
            "newline": "CRLF" if skill.doc.newline == "\r\n" else "LF",
        }
        if args.format == "json":
            env.print(dumps(data))
            return EXIT_OK
        env.print(f"{skill.name}  [{skill.status}]  ({item.project.profile.name})")
        env.print(f"  path:  {rel(skill.path, env.cwd)}")
        root = rel(skill.root.path, env.cwd) or "."
        label = skill.root.label
        same = label in (root, os.path.basename(skill.root.path), "root")
        env.print(f"  root:  {root}" + ("" if same else f" ({label})"))
        if skill.status_reason:
            env.print(f"  why:   {skill.status_reason}")
        if skill.winner:
            env.print(f"  wins:  {rel(skill.winner, env.cwd)}")
        lines = data["body"]["lines"]
        env.print(f"  body:  {counted(lines, 'line')}, {counted(len(body), 'character')}")
        env.print("fields:")
        profile = item.project.profile
        for spec in profile.fields:
            present = spec.key in skill.raw
            value = skill.raw.get(spec.key) if present else skill.fields.get(spec.key)
            mark = "" if present else "  (default)"
            if value is None and not present:
                continue
            env.print(f"  {spec.key}: {json.dumps(json_safe(value), ensure_ascii=False)}{mark}")
            _print_written(env, spec.key, skill.raw, written)
        for key in data["unknown_keys"]:
            env.print(
                f"  {key}: {json.dumps(json_safe(skill.raw[key]), ensure_ascii=False)}  (other)"
            )
            _print_written(env, key, skill.raw, written)
        if files:
            env.print("files:")
            for name in files[:50]:
                env.print(f"  {name}")
            if len(files) > 50:
                env.print(f"  … {len(files) - 50} more")
        if diags:
            env.print("diagnostics:")
            for diag in diags:
                env.print("  " + diagnostic_line(diag, env.cwd))
        return EXIT_OK
    known = sorted({s.name for item in loaded for s in item.registry.skills})
    hint = ", ".join(known[:20]) + (" …" if len(known) > 20 else "")
    message = f"no skill named '{args.name}'" + (f" (known: {hint})" if known else "")
    if args.format == "json":
        env.print(dumps({"error": {"code": "NOT_FOUND", "message": message}}))
    else:
        env.err.write(f"skillstudio: {message}\n")
    return EXIT_FAIL


def _print_written(env: Env, key: str, raw: dict[str, Any], written: dict[str, str]) -> None:
    for path, text in written.items():
        if path != key and not path.startswith(key + "."):
            continue
        value: Any = raw
        for part in path.split("."):
            if isinstance(value, dict):
                value = next((v for k, v in value.items() if str(k) == part), None)
            elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
                value = value[int(part)]
        env.print(
            f"    {path}: written {text}, which YAML reads as {json.dumps(json_safe(value))}; "
            f"quote it ({json.dumps(text, ensure_ascii=False)}) to keep the text"
        )


def load_one(args: argparse.Namespace, env: Env) -> Loaded:
    """Commands that answer for one agent need one project."""
    loaded = load(args, env)
    if len(loaded) != 1:
        names = ", ".join(rel(item.project.base, env.cwd) for item in loaded)
        raise UsageError(
            f"this folder holds {counted(len(loaded), 'project')} ({names}); "
            "choose one with --project"
        )
    return loaded[0]


def cmd_match(args: argparse.Namespace, env: Env) -> int:
    from ..core.matching import match, why_not
    from ..core.session import Session
    from .explain import explain_text

    item = load_one(args, env)
    session = Session(recent=list(args.recent))
    result = match(item.registry, args.query, session=session, options=item.project.options)
    why = {name: why_not(result, item.registry, name) for name in args.why}
    unknown = [name for name in args.why if item.registry.get(name) is None]  # exit 1
    if args.format == "json":
        data = result.to_json()
        if why:
            data["why_not"] = why
        env.print(dumps(data))
        return EXIT_FAIL if unknown else EXIT_OK
    env.print(explain_text(result, item.registry, args.explain))
    for name, text in why.items():
        env.print(f"why not {name}: {text}")
    return EXIT_FAIL if unknown else EXIT_OK


def cmd_prompt(args: argparse.Namespace, env: Env) -> int:
    from ..core.disclosure import TIER_NAMES, render_tiers
    from ..core.matching import match

    if args.tier == 3:
        raise UsageError(
            "tier 3 is the instructions of the skills a request selects: give the request "
            "with --query Q instead of --tier 3"
        )
    item = load_one(args, env)
    options = dict(item.project.options)
    if args.context_tokens is not None:
        options["context_tokens"] = args.context_tokens
    result = match(item.registry, args.query or "", options=options)
    tiers = render_tiers(item.registry, result, options)
    tier = tiers[args.tier if args.tier is not None else result.tier]
    if args.format == "json":
        env.print(dumps(tier.to_json(item.registry.profile.name)))
        return EXIT_OK
    env.print(tier.text)
    budget = f" of {tier.budget:,}" if tier.budget else ""
    env.err.write(
        f"[tier {tier.tier}: {TIER_NAMES[tier.tier]}{' (used)' if tier.used else ''}; "
        f"{tier.chars:,}{budget} characters, ~{counted(tier.tokens, 'token')}" + "]\n"
    )
    for omitted in tier.omitted:
        env.err.write(f"[left out: {omitted['skill']}: {omitted['reason']}]\n")
    return EXIT_OK


def cmd_activate(args: argparse.Namespace, env: Env) -> int:
    from ..core.activation import activate

    item = load_one(args, env)
    act = activate(
        item.registry,
        args.name,
        args.args,
        invoker=args.invoker,
        options=item.project.options,
    )
    if args.format == "json":
        env.print(dumps(act.to_json()))
    elif act.error is not None:
        env.err.write(f"skillstudio: {act.error['code']}: {act.error['message']}\n")
        if act.error.get("status"):  # the agent's answer above; why, in SkillStudio's words
            reason = act.error.get("reason") or "no reason recorded"
            env.err.write(
                f"skillstudio: '{args.name}' is {act.error['status']}, so the agent does not "
                f"have it: {reason}\n"
            )
    else:
        for note in act.notes:
            env.err.write(f"note: {note}\n")
        env.print(act.content)
    return EXIT_OK if act.ok else EXIT_FAIL


def _suite_registry(suite: Suite, args: argparse.Namespace, env: Env) -> Loaded:
    """The project a suite runs against: core.suites.suite_project's rule, shared with
    the app (the suite's roots, then --root/--project, then where the user is)."""
    from ..core.suites import suite_project

    project = suite_project(suite, args.profile, env.cwd, args.root, args.project)
    registry = project.registry()
    registry.scan()
    return Loaded(project, registry)


def cmd_test(args: argparse.Namespace, env: Env) -> int:
    from ..core.suites import SuiteError, load_suite, run_suite

    paths = [os.path.join(env.cwd, p) for p in args.suites]
    if not paths:
        for project in resolve_projects([], args.root, args.project, args.profile, env.cwd):
            if project.config is not None:
                paths.extend(project.config.suites)
        if not paths:
            raise UsageError("no suites given and none listed under 'suites:' in skillstudio.yaml")
    all_results: list[dict[str, Any]] = []
    suites_json: list[dict[str, Any]] = []
    passed = failed = 0
    per_skill: dict[str, Any] = {}
    lines: list[str] = []
    for path in paths:
        try:
            suite = load_suite(path, args.skill)
        except SuiteError as exc:
            raise UsageError(str(exc)) from None
        item = _suite_registry(suite, args, env)
        report = run_suite(suite, item.registry, item.project.options)
        passed += report.passed
        failed += report.failed
        data = report.to_json()
        for case in data["cases"]:
            case["suite"] = path
        all_results.extend(data["cases"])
        per_skill.update(report.per_skill)
        project = item.project
        roots = ", ".join(rel(r.path, env.cwd) or "." for r in project.roots)
        suites_json.append(
            {
                "path": path,
                "profile": project.profile.name,
                "project": project.base,
                "roots": [r.path for r in project.roots],
            }
        )
        lines.append(
            f"{rel(path, env.cwd)} ({counted(len(suite.cases), 'case')}) against "
            f"{rel(project.base, env.cwd) or '.'} ({project.profile.name}; roots: {roots})"
        )
        for result in report.results:
            mark = "PASS" if result.passed else "FAIL"
            where = f"{rel(path, env.cwd)}:{result.case.line}: " if result.case.line else ""
            got = ", ".join(result.got) or "none"
            detail = f" ({result.why})" if result.why else ""
            query = printable(repr(result.case.query))
            if result.passed:
                lines.append(f"  {mark}  {query} -> {got}")
            else:
                lines.append(
                    f"  {mark}  {where}{query} -> {got}; expected: "
                    f"{result.case.expect_text()}{detail}"
                )
        if report.per_skill:
            lines.append("  per skill:  precision  recall")
            for name, stats in report.per_skill.items():
                prec = "-" if stats["precision"] is None else f"{stats['precision']:.2f}"
                rec = "-" if stats["recall"] is None else f"{stats['recall']:.2f}"
                lines.append(f"    {name:<24} {prec:>9} {rec:>7}")
        lines.append("  confusion (expected -> got):")
        for expected, row in report.confusion.items():
            cells = ", ".join(f"{got} {count}" for got, count in row.items())
            lines.append(f"    {expected:<24} {cells}")
    if args.format == "json":
        env.print(
            dumps(
                {
                    "cases": all_results,
                    "passed": passed,
                    "failed": failed,
                    "per_skill": per_skill,
                    "suites": suites_json,
                }
            )
        )
    else:
        for line in lines:
            env.print(line)
        env.print(f"{passed} passed, {failed} failed")
    return EXIT_FAIL if failed else EXIT_OK


def _is_path(word: str) -> bool:
    """SKILL in `set` is a path only when it says so (PRODUCT.md section 8): it holds a
    `/` or ends in SKILL.md. Anything else is a registry name, even when a file of
    that name happens to be in the current folder."""
    return "/" in word or os.sep in word or word.endswith("SKILL.md")


def _skill_file(args: argparse.Namespace, env: Env) -> tuple[str, str]:
    """(SKILL.md path, the root it belongs to) of a `set` argument."""
    if _is_path(args.skill):
        target = os.path.abspath(os.path.join(env.cwd, args.skill))
        if os.path.isdir(target):
            target = os.path.join(target, "SKILL.md")
        if not os.path.lexists(target):
            raise UsageError(f"{args.skill}: no such file or folder")
        if os.path.basename(target) != "SKILL.md" or args.skill.endswith("/"):
            raise UsageError(
                f"{args.skill} is not a skill folder or a SKILL.md; nothing was changed"
            )
        return target, projects_for_path(target, args.profile)[0].roots[0].path
    item = load_one(args, env)
    skill = item.registry.get(args.skill)
    if skill is None:
        hint = f" (a file or folder here is written ./{args.skill})"
        raise UsageError(
            f"no skill named '{args.skill}'"
            + (hint if os.path.lexists(os.path.join(env.cwd, args.skill)) else "")
        )
    return skill.path, skill.root.path


def _writable_target(path: str, root: str) -> str:
    """The regular file `set` may write for `path`: a link is followed when its target
    lies inside the root (the link is kept); a link out of it, a special file or a
    read-only file is refused (EditRefused)."""
    from ..core.safefs import FileRefused, check_regular

    try:
        st = check_regular(path, root)
    except FileRefused as exc:
        raise EditRefused(f"not edited: {exc.reason}") from None
    if not st.st_mode & 0o222:
        raise EditRefused("the file is read-only; make it writable first (nothing was written)")
    return os.path.realpath(path)


class EditRefused(Exception):
    """`set` would not write this file; nothing was changed."""


def cmd_set(args: argparse.Namespace, env: Env) -> int:
    from ..core.editing import (
        Change,
        EditError,
        ValueMode,
        apply_changes,
        change_for,
        field_kind,
        parse_typed_value,
    )
    from ..core.frontmatter import read_document
    from ..core.saving import SaveError, atomic_write, encode, stamp

    pairs: list[tuple[str, str]] = []
    for pair in args.pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"'{pair}' is not KEY=VALUE")
        pairs.append((key.strip(), raw))
    if not pairs and not args.unset:
        raise UsageError("nothing to change: give KEY=VALUE pairs or --unset KEY")
    path, root = _skill_file(args, env)
    mode: ValueMode = "yaml" if args.yaml else "string" if args.string else "text"
    changes: list[Change] = []
    try:
        target = _writable_target(path, root)
        profile = projects_for_path(path, args.profile)[0].profile
        before = stamp(target)
        doc = read_document(target)
        if not doc.readable:
            raise UsageError(f"{path}: {doc.problems[0].message}")
        for key, raw in pairs:
            change = change_for(key, doc.mapping, "set")
            kind = field_kind(profile, change.key, change.path)
            value = parse_typed_value(raw, kind, key, mode)
            changes.append(Change("set", change.key, value, change.path))
        changes += [change_for(key.strip(), doc.mapping, "unset") for key in args.unset]
        text = apply_changes(doc, changes, order=[spec.key for spec in profile.fields])
        atomic_write(target, encode(text), before)
    except (EditError, SaveError, EditRefused) as exc:
        if args.format == "json":
            env.print(dumps({"error": {"code": "EDIT_REFUSED", "message": str(exc), "path": path}}))
        else:
            env.err.write(f"skillstudio: {printable(rel(path, env.cwd))}: {exc}\n")
        return EXIT_FAIL
    keys = [c.dotted for c in changes]
    if args.format == "json":
        env.print(dumps({"path": path, "changed": keys}))
    else:
        env.print(
            f"{rel(path, env.cwd)}: "
            + ", ".join(f"{'unset' if c.kind == 'unset' else 'set'} {c.dotted}" for c in changes)
        )
    return EXIT_OK


def cmd_new(args: argparse.Namespace, env: Env) -> int:
    from ..core.skillops import BadName, OperationError, new_skill

    item = load_one(args, env)
    roots = item.project.roots
    if not roots:
        raise UsageError("no root to create the skill in; give --root DIR")
    root = roots[-1].path  # the highest-precedence root (user / project)
    try:
        path = new_skill(item.project.profile, root, args.name)
    except BadName as exc:
        raise UsageError(str(exc)) from None
    except OperationError as exc:
        env.err.write(f"skillstudio: {exc}\n")
        return EXIT_FAIL
    if args.format == "json":
        env.print(dumps({"path": path, "profile": item.project.profile.name, "root": root}))
    else:
        env.print(f"created {rel(path, env.cwd)} ({item.project.profile.name})")
    return EXIT_OK


def _pack_check(skill_dir: str, profile: str | None) -> list[Diagnostic]:
    """The errors and warnings of the skill about to be packed (its folder's own rules)."""
    skill_md = os.path.join(skill_dir, "SKILL.md")
    if not os.path.isfile(skill_md):
        return []  # pack says what is wrong
    project = projects_for_path(skill_md, profile)[0]
    registry = project.registry()
    registry.scan()
    found = [*project.diagnostics, *registry.diagnostics]
    return sorted(
        (d for d in found if d.severity != "info"),
        key=Diagnostic.sort_key,
    )


def cmd_pack(args: argparse.Namespace, env: Env) -> int:
    from ..core.archive import ArchiveError, pack

    skill_dir = os.path.join(env.cwd, args.skill_dir)
    problems = _pack_check(skill_dir, args.profile)
    errors = sum(d.severity == "error" for d in problems)
    refused = bool(problems) and args.strict
    if args.format == "text":
        for diag in problems:
            env.err.write(diagnostic_line(diag, env.cwd) + "\n")
    if refused:
        message = (
            f"{rel(skill_dir, env.cwd)} has {counted(errors, 'error')} and "
            f"{counted(len(problems) - errors, 'warning')}; nothing was packed (--strict)"
        )
        if args.format == "json":
            env.print(
                dumps(
                    {
                        "error": {"code": "PACK_REFUSED", "message": message},
                        "diagnostics": [d.to_json() for d in problems],
                    }
                )
            )
        else:
            env.err.write(f"skillstudio: {message}\n")
        return EXIT_FAIL
    left_out: list[str] = []
    try:
        out = pack(skill_dir, os.path.join(env.cwd, args.output) if args.output else None, left_out)
    except ArchiveError as exc:
        raise UsageError(str(exc)) from None
    if args.format == "json":
        env.print(
            dumps(
                {
                    "archive": out,
                    "diagnostics": [d.to_json() for d in problems],
                    "left_out": left_out,
                }
            )
        )
    else:
        for note in left_out:
            env.err.write(f"skillstudio: {printable(note)}\n")
        env.print(f"wrote {printable(rel(out, env.cwd))}")
        if errors:
            env.err.write(
                f"skillstudio: warning: packed a skill with {counted(errors, 'error')} "
                "(listed above); an agent may not load it (--strict refuses)\n"
            )
    return EXIT_OK


def cmd_unpack(args: argparse.Namespace, env: Env) -> int:
    from ..core.archive import ArchiveError, unpack

    archive = os.path.join(env.cwd, args.archive)
    if not os.path.lexists(archive):
        raise UsageError(f"{args.archive} does not exist")
    if os.path.isdir(archive):
        raise UsageError(f"{args.archive} is a folder, not a .skill archive")
    root = args.root or ("skills" if os.path.isdir(os.path.join(env.cwd, "skills")) else ".")
    try:
        folder = unpack(archive, os.path.join(env.cwd, root))
    except ArchiveError as exc:
        if args.format == "json":
            env.print(dumps({"error": {"code": "ARCHIVE_REFUSED", "message": str(exc)}}))
        else:
            env.err.write(f"skillstudio: refused: {printable(str(exc))}\n")
        return EXIT_FAIL
    env.print(
        dumps({"folder": folder})
        if args.format == "json"
        else f"unpacked to {printable(rel(folder, env.cwd))}"
    )
    return EXIT_OK


COMMANDS: dict[str, Callable[[argparse.Namespace, Env], int]] = {
    "lint": cmd_lint,
    "list": cmd_list,
    "show": cmd_show,
    "match": cmd_match,
    "prompt": cmd_prompt,
    "activate": cmd_activate,
    "test": cmd_test,
    "set": cmd_set,
    "new": cmd_new,
    "pack": cmd_pack,
    "unpack": cmd_unpack,
}


def main(
    argv: Sequence[str] | None = None,
    *,
    cwd: str | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    env = Env(cwd or os.getcwd(), out or sys.stdout, err or sys.stderr)
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["gui"]:  # the app parses its own options (--smoke-test, paths)
        return gui_main(arguments[1:])
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(arguments)
        # `set NAME --project DIR key=value`: argparse stops taking positionals after an
        # option, so trailing KEY=VALUE words are collected here.
        if args.command == "set":
            pairs = [word for word in extra if "=" in word and not word.startswith("-")]
            args.pairs.extend(pairs)
            extra = [word for word in extra if word not in pairs]
        if extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # argparse: --help/--version (0) or bad usage (2)
        return int(exc.code or 0)
    if args.command is None:
        from ..gui.app import has_display

        if has_display():
            return gui_main([])
        parser.print_help(env.out)
        return EXIT_USAGE
    try:
        return COMMANDS[args.command](args, env)
    except UsageError as exc:
        env.err.write(f"skillstudio: error: {exc}\n")
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # last line of defence: a message, never a traceback
        if os.environ.get("SKILLSTUDIO_DEBUG"):
            raise
        env.err.write(
            f"skillstudio: internal error: {type(exc).__name__}: {exc}. "
            "Set SKILLSTUDIO_DEBUG=1 for details and please report it.\n"
        )
        return EXIT_USAGE


def gui_main(argv: list[str] | None = None) -> int:
    """The desktop app (`skillstudio-gui`, `skillstudio gui`, or no command)."""
    try:
        from ..gui.app import main as app_main
    except ImportError as exc:  # PySide6 or a system library missing
        sys.stderr.write(f"skillstudio: the desktop app cannot start: {exc}\n")
        return EXIT_USAGE
    return app_main(sys.argv[1:] if argv is None else argv)
