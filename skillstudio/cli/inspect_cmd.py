"""`list` and `show`: the registry, and one skill in full."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from ..core.model.diagnostics import Diagnostic
from ..core.model.skills import Skill
from ..core.model.text import counted
from ..core.projects.agent_reach import Reach, agent_reach, reach_line
from ..core.projects.findings import every_skill_findings, skill_findings
from ..core.projects.open_project import OpenProject
from ..core.projects.portability import Verdict, portability, summary
from ..core.reading.skill_files import skill_body, supporting_files
from .common import (
    EXIT_FAIL,
    EXIT_OK,
    EXIT_USAGE,
    Env,
    Subparsers,
    add_common,
    add_paths,
    load,
    profile_of,
    projects_json,
    severity_counts,
)
from .output import diagnostic_line, dumps, json_safe, printable, rel


def register(sub: Subparsers) -> None:
    lst = sub.add_parser("list", help="list the registry", description="List the registry.")
    add_paths(lst)
    add_common(lst)

    show = sub.add_parser("show", help="show one skill", description="Show one skill.")
    show.add_argument(
        "name", metavar="NAME", help="a skill name, or its folder or SKILL.md (as `set` takes)"
    )
    add_paths(show)
    add_common(show)


def list_rows(loaded: list[OpenProject]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for item in loaded:
        found = every_skill_findings(item, notes=False)  # (counts of errors and warnings)
        for skill in item.registry.skills:
            counts = severity_counts(found[skill.path])
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
    return rows


def list_text(rows: list[dict[str, Any]], cwd: str) -> list[str]:
    if not rows:
        return ["No skills found."]
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
                printable(rel(r["path"], cwd)),
                ", ".join(problems),
            )
        )
    widths = [max(len(row[col]) for row in table) for col in range(4)]
    lines = []
    for row in table:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        lines.append(("  ".join(cells) + "  " + row[4]).rstrip())
    return lines


def cmd_list(args: argparse.Namespace, env: Env) -> int:
    loaded = load(args, env)
    rows = list_rows(loaded)
    if args.format == "json":
        env.print(
            dumps(
                {"profile": profile_of(loaded), "projects": projects_json(loaded), "skills": rows}
            )
        )
        return EXIT_OK
    for line in list_text(rows, env.cwd):
        env.print(line)
    return EXIT_OK


def _written(skill: Any, diags: list[Diagnostic]) -> dict[str, str]:
    """What the author wrote for values reported as the wrong type (`1.10`, read as 1.1)."""
    typed = {d.field for d in diags if d.code in ("field-type", "version-invalid") and d.field}
    if not typed:
        return {}
    from ..core.editing.values import typed_sources

    return {
        path: text
        for path, text in typed_sources(skill.doc).items()
        if path.split(".", 1)[0] in typed
    }


def _shown(
    args: argparse.Namespace, env: Env
) -> tuple[list[OpenProject], list[tuple[OpenProject, Any]]]:
    """`show NAME`: a registry name; else, as `set`, a skill folder or SKILL.md path."""
    loaded = load(args, env)
    target = os.path.abspath(os.path.join(env.cwd, args.name))
    skill_md = target if os.path.isfile(target) else os.path.join(target, "SKILL.md")
    found = [
        (item, item.registry.get(args.name) or item.registry.by_path.get(skill_md))
        for item in loaded
    ]
    found = [(item, skill) for item, skill in found if skill is not None]
    if not found and os.path.basename(skill_md) == "SKILL.md" and os.path.isfile(skill_md):
        for item in load(args, env, [skill_md]) if not (args.root or args.paths) else []:
            found += [(item, s) for s in item.registry.skills if s.path == skill_md]
    return loaded, found


def show_data(item: OpenProject, skill: Any) -> dict[str, Any]:
    """Everything `show` reports about one skill (the JSON form): its diagnostics are
    lint's on it (core/projects/findings.py)."""
    diags = skill_findings(item, skill)
    body = skill_body(skill)
    built: dict[str, Skill] = {}  # each profile's build, shared by both answers
    return {
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
        "written": _written(skill, diags),
        "diagnostics": [d.to_json() for d in diags],
        "files": supporting_files(skill),
        "body": {"lines": body.count("\n") + 1 if body else 0, "chars": len(body)},
        "encoding": skill.doc.encoding,
        "newline": "CRLF" if skill.doc.newline == "\r\n" else "LF",
        "portability": [v.to_json() for v in portability(skill, built)],
        "agents": [r.to_json() for r in agent_reach(skill, item.project.base, built=built)],
    }


def show_text(item: OpenProject, skill: Any, data: dict[str, Any], cwd: str) -> list[str]:
    written, files = data["written"], data["files"]
    lines = [
        f"{skill.name}  [{skill.status}]  ({item.project.profile.name})",
        f"  path:  {rel(skill.path, cwd)}",
    ]
    root = rel(skill.root.path, cwd) or "."
    label = skill.root.label
    same = label in (root, os.path.basename(skill.root.path), "root")
    lines.append(f"  root:  {root}" + ("" if same else f" ({label})"))
    if skill.status_reason:
        lines.append(f"  why:   {skill.status_reason}")
    if skill.winner:
        lines.append(f"  wins:  {rel(skill.winner, cwd)}")
    body = data["body"]
    lines.append(
        f"  body:  {counted(body['lines'], 'line')}, {counted(body['chars'], 'character')}"
    )
    # Two questions, two labels (docs/commands.md): whether the text passes each
    # profile's rules wherever it lies, and whether each agent finds the file where it
    # sits if run in the folder opened (a reader saw "loads in … claude-code" just above
    # "claude-code: not found").
    verdicts = summary([Verdict(**v) for v in data["portability"]])
    lines.append(f"  as written (placed where each one reads skills): {verdicts}")
    reaches = _reaches(data["agents"])
    lines.append("in place (if each agent runs in the folder opened):")
    lines += [f"  {reach_line(r)}" for r in reaches]
    if not any(r.found and r.folder for r in reaches):
        lines.append(
            "  no agent with folders of its own finds it here: move or link the skill "
            "folder into a folder an agent reads"
        )
    lines.append("fields:")
    for spec in item.project.profile.fields:
        present = spec.key in skill.raw
        value = skill.raw.get(spec.key) if present else skill.fields.get(spec.key)
        mark = "" if present else "  (default)"
        if value is None and not present:
            continue
        lines.append(f"  {spec.key}: {json.dumps(json_safe(value), ensure_ascii=False)}{mark}")
        lines += _written_lines(spec.key, skill.raw, written)
    for key in data["unknown_keys"]:
        lines.append(
            f"  {key}: {json.dumps(json_safe(skill.raw[key]), ensure_ascii=False)}  (other)"
        )
        lines += _written_lines(key, skill.raw, written)
    if files:
        lines.append("files:")
        lines += [f"  {name}" for name in files[:50]]
        if len(files) > 50:
            lines.append(f"  … {len(files) - 50} more")
    diags = skill_findings(item, skill)  # (the overlap notes are the project's, kept)
    if diags:
        lines.append("diagnostics:")
        lines += ["  " + diagnostic_line(diag, cwd) for diag in diags]
    return lines


def cmd_show(args: argparse.Namespace, env: Env) -> int:
    loaded, found = _shown(args, env)
    if len({skill.path for _, skill in found}) > 1:
        return _several(args, env, found)
    for item, skill in found:
        data = show_data(item, skill)
        if args.format == "json":
            env.print(dumps(data))
        else:
            for line in show_text(item, skill, data, env.cwd):
                env.print(printable(line))  # a name's bidi or zero-width characters too
        return EXIT_OK
    known = sorted({s.name for item in loaded for s in item.registry.skills})
    hint = ", ".join(known[:20]) + (" …" if len(known) > 20 else "")
    message = f"no skill named '{args.name}'" + (f" (known: {hint})" if known else "")
    if args.format == "json":
        env.print(dumps({"error": {"code": "NOT_FOUND", "message": message}}))
    else:
        env.err.write(f"skillstudio: {message}\n")
    return EXIT_FAIL


def _several(args: argparse.Namespace, env: Env, found: list[tuple[OpenProject, Any]]) -> int:
    """`show NAME` where several projects hold a skill of that name: which ones, and
    how to name one; never one picked silently (bad usage: exit 2)."""
    matches = [
        {"profile": item.project.profile.name, "project": item.project.base, "path": skill.path}
        for item, skill in found
    ]
    message = (
        f"{counted(len(matches), 'skill')} are named '{args.name}'; give the one you mean "
        "as a path (show PATH/SKILL.md) or choose its project with --project DIR or --profile NAME"
    )
    if args.format == "json":
        env.print(dumps({"error": {"code": "AMBIGUOUS", "message": message, "matches": matches}}))
        return EXIT_USAGE
    env.err.write(f"skillstudio: {message}:\n")
    for match in matches:
        where = rel(match["path"], env.cwd)
        env.err.write(printable(f"  {where}  ({match['profile']})") + "\n")
    return EXIT_USAGE


def _reaches(rows: list[dict[str, Any]]) -> list[Reach]:
    return [Reach(**row) for row in rows]


def _written_lines(key: str, raw: dict[str, Any], written: dict[str, str]) -> list[str]:
    lines = []
    for path, text in written.items():
        if path != key and not path.startswith(key + "."):
            continue
        value: Any = raw
        for part in path.split("."):
            if isinstance(value, dict):
                value = next((v for k, v in value.items() if str(k) == part), None)
            elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
                value = value[int(part)]
        lines.append(
            f"    {path}: written {text}, which YAML reads as {json.dumps(json_safe(value))}; "
            f"quote it ({json.dumps(text, ensure_ascii=False)}) to keep the text"
        )
    return lines


COMMANDS = {"list": cmd_list, "show": cmd_show}
