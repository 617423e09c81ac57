"""`lint`: validate skills; files that are not skills and PATHs with none are diagnosed."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, field
from typing import Any

from ..core.model.diagnostics import Diagnostic
from ..core.model.paths import is_within
from ..core.model.skills import Skill
from ..core.model.text import counted
from ..core.profiles.agents import AGENTS
from ..core.projects.agent_reach import agent_reach, reach_summary
from ..core.projects.audit import unread_skills
from ..core.projects.findings import project_findings
from ..core.projects.in_place import in_place_unreached
from ..core.projects.open_project import OpenProject
from ..core.projects.portability import portability, summary
from ..core.projects.reach_lookups import Lookups
from ..core.projects.repository import misnamed_warning
from ..core.reading.safefs import is_regular, walk_plain
from .common import (
    EXIT_FAIL,
    EXIT_OK,
    Env,
    Subparsers,
    add_common,
    add_window,
    load,
    profile_of,
    projects_json,
    window_from,
)
from .fix_cmd import FixRun, add_fix_options, dry_run_exit, report_fixes, run_fixes, wants_fixes
from .output import diagnostic_line, dumps, rel, sarif


def register(sub: Subparsers) -> None:
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
    add_common(lint, ("text", "json", "sarif"), extra_profiles=("all",))
    add_window(
        lint,
        "the context window in tokens the listing's budget is checked at "
        "(listing-over-budget; default: the project's context_tokens or model, else the "
        "agent's default)",
    )
    lint.add_argument("--strict", action="store_true", help="fail on warnings too")
    lint.add_argument("-v", "--verbose", action="store_true", help="also print info notes")
    add_fix_options(lint)


RENAME = "rename it to SKILL.md"  # what every wrong-case warning says
MISNAMED_LIMIT = 2000  # folders looked at for a `skill.md` when a PATH holds no skill


def misnamed_skill_files(folder: str, depth: int = 3) -> list[str]:
    """`skill.md` (any case but SKILL.md) files in `folder` and up to `depth` levels of
    plain folders below it: what an agent on a case-sensitive disk never loads."""
    found: list[str] = []
    for _, _, files in walk_plain(folder, depth, MISNAMED_LIMIT):
        for entry in files:
            name = entry.name
            if name.lower() == "skill.md" and name != "SKILL.md" and is_regular(entry):
                found.append(entry.path)
    return sorted(found)


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
            notes.append(misnamed_warning(full))
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


def _no_skills(args: argparse.Namespace, env: Env, loaded: list[OpenProject]) -> list[Diagnostic]:
    """A PATH (or --root, --project) on the command line under which no skill was found
    is an error, so a CI job with a wrong path fails instead of passing on nothing; so
    is `lint` with no path that finds no skill (the roots of skillstudio.yaml, ./skills
    or the current folder, as ever), so a CI step run in the wrong folder fails too."""
    given = [os.path.abspath(os.path.join(env.cwd, p)) for p in args.root or args.paths]
    if args.project and not args.root:
        given = [os.path.abspath(os.path.join(env.cwd, args.project))]
    found = [s.path for item in loaded for s in item.registry.skills]
    if not given and not found:  # `lint` alone reads what `lint .` reads, and fails alike
        given = [env.cwd]
    real = [os.path.realpath(f) for f in found]
    out: list[Diagnostic] = []
    for path in given:
        if os.path.isfile(path) or any(is_within(f, path) for f in found):
            continue
        if any(is_within(f, os.path.realpath(path)) for f in real):
            continue  # read through a link to the folder given (`.claude/skills -> …`)
        misnamed = misnamed_skill_files(path)
        out.extend(misnamed_warning(m) for m in misnamed)
        where = rel(path, env.cwd) or "."
        message = f"No SKILL.md under {where}: check the path."
        if misnamed:
            message = f"No SKILL.md under {where}, only skill.md: rename it to SKILL.md."
        out.append(Diagnostic("no-skills", "error", message, path))
    return out


@dataclass(slots=True)
class LintReport:
    """What lint found, before it is written in any format."""

    loaded: list[OpenProject]
    diagnostics: list[Diagnostic]
    skills: list[dict[str, Any]] = field(default_factory=list)
    active: int = 0
    portability: list[dict[str, Any]] = field(default_factory=list)  # --profile all

    def count(self, severity: str) -> int:
        return sum(d.severity == severity for d in self.diagnostics)


def lint_report(args: argparse.Namespace, env: Env) -> LintReport:
    choice = window_from(args, env)
    tokens = choice.context_tokens if choice is not None else None
    paths, diagnostics = _lint_arguments(args, env)
    every = args.profile == "all"
    if every:  # each skill under its own (detected) profile, then under every profile
        args.profile = None
    loaded = load(args, env, paths, gists=False) if paths or not args.paths else []
    diagnostics.extend(_no_skills(args, env, loaded))
    report = LintReport(loaded, diagnostics)
    look = Lookups()  # (the run's: each folder's ancestors and stat calls asked once)
    for item in loaded:
        item.use_window(tokens)
        diagnostics.extend(project_findings(item, placement=not every))  # (rules applied)
        for skill in item.registry.skills:
            entry = skill.summary_json()
            entry["profile"] = item.project.profile.name
            report.skills.append(entry)
            report.active += skill.status == "active"
            if every:
                report.portability.append(portability_entry(skill, skill.name, item, look))
        reach = item.project.reach
        if every and reach is not None:  # every other SKILL.md: which agents find it
            for skill in unread_skills(reach, item.project.reach_index):
                name = skill.raw.get("name")
                name = name if isinstance(name, str) and name.strip() else skill.folder_name
                report.portability.append(portability_entry(skill, name, item, look))
    if every:  # the in-place view: what the projects' agents would not load where it sits
        diagnostics.extend(in_place_notes(report))
    # A wrong-case file is named once: not again when the profile itself reads it (and
    # says so), nor twice by the search and the no-skills check.
    said = {d.path for d in diagnostics if d.code != "skill-file-name" and RENAME in d.message}
    unique: dict[tuple[object, ...], Diagnostic] = {}
    for diag in diagnostics:
        if diag.code == "skill-file-name" and diag.path in said:
            continue
        size = 2 if diag.code == "skill-file-name" else 5
        key = (diag.code, diag.path, diag.line, diag.column, diag.message)[:size]
        unique.setdefault(key, diag)
    diagnostics[:] = sorted(unique.values(), key=Diagnostic.sort_key)
    return report


def in_place_notes(report: LintReport) -> list[Diagnostic]:
    """--profile all: the `unreached` notes of the in-place view, for the agents of the
    profiles the skills were checked with (core/projects/in_place.py)."""
    profiles = {item.project.profile.name for item in report.loaded}
    agents = [a.key for a in AGENTS if a.key in profiles or a.profile in profiles]
    entries = [(e["path"], e["skill"], e["agents"]) for e in report.portability]
    return in_place_unreached(entries, agents)


def portability_entry(
    skill: Skill, name: str, item: OpenProject, look: Lookups | None = None
) -> dict[str, Any]:
    """--profile all: every profile's verdict and every agent's answer on one skill
    (`look`: the run's Lookups, core/projects/reach_lookups.py)."""
    built: dict[str, Skill] = {}  # each profile's build, shared by both answers
    verdicts = portability(skill, built)
    reaches = agent_reach(skill, item.project.base, built=built, lookups=look)
    return {
        "skill": name,
        "path": skill.path,
        "loads": [v.profile for v in verdicts if v.loads],
        "summary": summary(verdicts),
        "profiles": [v.to_json() for v in verdicts],
        "found_by": [r.agent for r in reaches if r.found],
        "agents_summary": reach_summary(reaches),
        "agents": [r.to_json() for r in reaches],
    }


def roots_of(loaded: list[OpenProject]) -> list[dict[str, Any]]:
    """Every root read, with the profile it was read as and why, and its skill count."""
    out: list[dict[str, Any]] = []
    for item in loaded:
        counts: dict[str, int] = {}
        for skill in item.registry.skills:
            counts[skill.root.path] = counts.get(skill.root.path, 0) + 1
        project = item.project
        for root in project.roots:
            out.append(
                {
                    "path": root.path,
                    "label": root.label,
                    "collection": root.collection,
                    "profile": project.profile.name,
                    "profile_reason": project.root_reasons.get(root.path, project.profile_reason),
                    "skills": counts.get(root.path, 0),
                }
            )
    return out


def agents_found(portability: list[dict[str, Any]]) -> dict[str, int]:
    """--profile all: how many of the skills each agent finds where they sit."""
    counts: dict[str, int] = {}
    for entry in portability:
        for reach in entry["agents"]:
            counts[reach["agent"]] = counts.get(reach["agent"], 0) + bool(reach["found"])
    return counts


def agents_found_line(portability: list[dict[str, Any]]) -> str:
    counts = agents_found(portability)
    total = len(portability)
    return "agents: " + ", ".join(
        f"{agent} finds {n:,} of {total:,}" for agent, n in counts.items()
    )


def lint_json(report: LintReport) -> dict[str, Any]:
    roots = roots_of(report.loaded)
    extra: dict[str, Any] = {}
    if report.portability:
        extra = {
            "portability": report.portability,
            "agents_found": agents_found(report.portability),
        }
    return {
        "profile": profile_of(report.loaded),
        "projects": projects_json(report.loaded),
        "roots": roots,
        "skills": report.skills,
        **extra,
        "diagnostics": [d.to_json() for d in report.diagnostics],
        "summary": {
            "skills": len(report.skills),
            "active": report.active,
            "errors": report.count("error"),
            "warnings": report.count("warning"),
            "infos": report.count("info"),
            "roots": len(roots),
        },
    }


def lint_text(report: LintReport, cwd: str, verbose: bool) -> list[str]:
    lines = [
        diagnostic_line(diag, cwd)
        for diag in report.diagnostics
        if diag.severity != "info" or verbose
    ]
    for entry in report.portability:
        lines.append(f"{rel(entry['path'], cwd)}: {entry['summary']}")
        lines.append(f"{rel(entry['path'], cwd)}: agents: {entry['agents_summary']}")
    if report.portability:
        lines.append(agents_found_line(report.portability))
    roots = roots_of(report.loaded)
    if verbose:
        for root in roots:
            where = rel(root["path"], cwd) or "."
            lines.append(
                f"root {where}: {root['profile']}, {counted(root['skills'], 'skill')} "
                f"({root['profile_reason']})"
            )
    many = len({item.project.profile.name for item in report.loaded}) > 1
    profiles = ", ".join(
        f"{item.project.profile.name} ({rel(item.project.base, cwd) or '.'}"
        + (f": {counted(len(item.project.roots), 'root')})" if many else ")")
        for item in report.loaded
    )
    checked = f" checked with {profiles}" if profiles else ""
    where = f" in {counted(len(roots), 'root')}" if roots else ""
    infos = report.count("info")
    note = ""
    if infos:
        note = f", {counted(infos, 'info', 'info')}" + ("" if verbose else " (-v shows them)")
    lines.append(
        f"{counted(len(report.skills), 'skill')} ({report.active:,} active){where}{checked}: "
        f"{counted(report.count('error'), 'error')}, "
        f"{counted(report.count('warning'), 'warning')}{note}"
    )
    return lines


def cmd_lint(args: argparse.Namespace, env: Env) -> int:
    report = lint_report(args, env)
    fixes: FixRun | None = None
    if wants_fixes(args) and args.profile != "all":
        fixes = run_fixes(report.loaded, args, env)
        report_fixes(fixes, args, env)
        if args.dry_run:
            return dry_run_exit(fixes, env)
        if fixes.fixed:  # what is left after the fixes
            args.no_cache = True
            report = lint_report(args, env)
    if args.format == "json":
        data = lint_json(report)
        if fixes is not None:
            data["fixed"] = fixes.fixed
        env.print(dumps(data))
    elif args.format == "sarif":
        env.print(dumps(sarif(report.diagnostics, env.cwd)))
    else:
        for line in lint_text(report, env.cwd, args.verbose):
            env.print(line)
    failed = report.count("error") > 0 or (args.strict and report.count("warning") > 0)
    return EXIT_FAIL if failed else EXIT_OK


COMMANDS = {"lint": cmd_lint}
