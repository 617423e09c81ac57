"""`skillstudio` command line: argument parsing and the commands (PRODUCT.md section 8)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from .. import __version__
from ..core.diagnostics import Diagnostic
from ..core.profiles import PROFILE_NAMES
from ..core.project import Project, UsageError, resolve_projects
from ..core.registry import Registry
from .output import diagnostic_line, dumps, json_safe, rel, sarif

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
        "paths", nargs="*", metavar="PATH", help="a root, a skill folder or a SKILL.md"
    )
    _common(lint, ("text", "json", "sarif"))
    lint.add_argument("--strict", action="store_true", help="fail on warnings too")
    lint.add_argument("-v", "--verbose", action="store_true", help="also print info notes")

    lst = sub.add_parser("list", help="list the registry", description="List the registry.")
    _common(lst)

    show = sub.add_parser("show", help="show one skill", description="Show one skill.")
    show.add_argument("name", metavar="NAME")
    _common(show)
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
    return names.pop() if len(names) == 1 else "mixed"


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


def cmd_lint(args: argparse.Namespace, env: Env) -> int:
    loaded = load(args, env, args.paths)
    diagnostics: list[Diagnostic] = []
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
        note = f", {infos} notes" + ("" if args.verbose else " (-v shows them)") if infos else ""
        env.print(
            f"{len(skills_json)} skills ({active} active) checked with {profiles}: "
            f"{errors} errors, {warnings} warnings{note}"
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
    width = max(len(r["name"]) for r in rows)
    label_w = max(len(r["root_label"]) for r in rows)
    for r in rows:
        status = r["status"]
        marks = ""
        if r["errors"]:
            marks += f"  {r['errors']} error" + ("s" if r["errors"] > 1 else "")
        if r["warnings"]:
            marks += f"  {r['warnings']} warning" + ("s" if r["warnings"] > 1 else "")
        env.print(
            f"{r['name']:<{width}}  {status:<8}  {r['root_label']:<{label_w}}  "
            f"{rel(r['path'], env.cwd)}{marks}"
        )
    return EXIT_OK


def _counts(diags: list[Diagnostic]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for diag in diags:
        counts[diag.severity] += 1
    return counts


def cmd_show(args: argparse.Namespace, env: Env) -> int:
    loaded = load(args, env)
    for item in loaded:
        skill = item.registry.get(args.name)
        if skill is None:
            continue
        diags = sorted(skill.all_diagnostics, key=Diagnostic.sort_key)
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
        env.print(f"  root:  {rel(skill.root.path, env.cwd)} ({skill.root.label})")
        if skill.status_reason:
            env.print(f"  why:   {skill.status_reason}")
        if skill.winner:
            env.print(f"  wins:  {rel(skill.winner, env.cwd)}")
        env.print(f"  body:  {data['body']['lines']} lines, {len(body)} characters")
        env.print("fields:")
        profile = item.project.profile
        for spec in profile.fields:
            present = spec.key in skill.raw
            value = skill.raw.get(spec.key) if present else skill.fields.get(spec.key)
            mark = "" if present else "  (default)"
            if value is None and not present:
                continue
            env.print(f"  {spec.key}: {json.dumps(json_safe(value), ensure_ascii=False)}{mark}")
        for key in data["unknown_keys"]:
            env.print(
                f"  {key}: {json.dumps(json_safe(skill.raw[key]), ensure_ascii=False)}  (other)"
            )
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


COMMANDS: dict[str, Callable[[argparse.Namespace, Env], int]] = {
    "lint": cmd_lint,
    "list": cmd_list,
    "show": cmd_show,
}


def main(
    argv: Sequence[str] | None = None,
    *,
    cwd: str | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    env = Env(cwd or os.getcwd(), out or sys.stdout, err or sys.stderr)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help/--version (0) or bad usage (2)
        return int(exc.code or 0)
    if args.command is None:
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


def gui_main() -> int:
    """Entry point reserved for the desktop app, which is not built yet."""
    sys.stderr.write(
        "skillstudio: the desktop app is not built yet; use 'skillstudio lint', "
        "'skillstudio list' or 'skillstudio show'.\n"
    )
    return EXIT_USAGE
