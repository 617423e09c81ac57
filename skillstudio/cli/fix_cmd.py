"""`lint --fix`, `--unsafe-fixes` and `--dry-run`; and `explain CODE`.

The fixes of each skill lint reported are made through the round-trip writer
(core/editing/fixes.py): each changes only what it names, one at a time, checking
again after each; the file is saved atomically, never through a link or outside its
skill folder, and refused when it changed on disk meanwhile. `--dry-run` prints the
unified diff of what would change and writes nothing.
"""

from __future__ import annotations

import argparse
import difflib
import os
from dataclasses import dataclass, field
from typing import Any

from ..core.model.diagnostics import CODES
from ..core.model.explanations import explain
from ..core.model.text import counted
from ..core.projects.open_project import OpenProject
from .common import EXIT_FAIL, EXIT_OK, EXIT_USAGE, Env, Subparsers
from .output import printable, rel

MAX_FIX_BYTES = 1024 * 1024  # a SKILL.md larger than this is not parsed, so not fixed


def add_fix_options(lint: argparse.ArgumentParser) -> None:
    lint.add_argument(
        "--fix", action="store_true", help="apply the safe fixes, then report what is left"
    )
    lint.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="with the safe fixes, also those that change what a skill is called or says "
        "(renames, text taken out); implies --fix",
    )
    lint.add_argument(
        "--dry-run",
        action="store_true",
        help="print the fixes as a unified diff and write nothing (exit 1 when there are any)",
    )


def wants_fixes(args: argparse.Namespace) -> bool:
    return bool(args.fix or args.unsafe_fixes or args.dry_run)


@dataclass(slots=True)
class FixRun:
    """What the fixes changed (or would change), for the report."""

    fixed: list[dict[str, Any]] = field(default_factory=list)
    diffs: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    files: int = 0
    unsafe_left: int = 0  # problems left whose fix only --unsafe-fixes makes


def run_fixes(loaded: list[OpenProject], args: argparse.Namespace, env: Env) -> FixRun:
    """Fix every skill of `loaded` that has a fixable diagnostic (imports the editing
    code only when asked)."""
    from ..core.checking.fix_plans import fixable
    from ..core.editing.fixes import fix_text, rename_folder, save_fixed, skill_check
    from ..core.editing.saving import SaveError, Stamp
    from ..core.reading.safefs import read_file

    run = FixRun()
    done: set[str] = set()
    given = [os.path.join(env.cwd, p) for p in [*(args.root or args.paths), args.project] if p]
    for item in loaded:
        profile = item.project.profile
        for skill in item.registry.skills:
            if skill.path in done or not any(fixable(d.code) for d in skill.diagnostics):
                continue
            done.add(skill.path)
            where = rel(skill.path, env.cwd)
            try:
                data, st = read_file(
                    skill.path, os.path.realpath(skill.root.boundary), MAX_FIX_BYTES
                )
                text = data.decode("utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                run.problems.append(f"{where}: not fixed: {exc}")
                continue
            keep = _kept_folder(skill.folder, given, env.cwd)
            check = skill_check(skill, profile)
            outcome = fix_text(text, check, profile, args.unsafe_fixes, keep_folder=keep)
            run.problems.extend(f"{where}: {note}" for note in outcome.notes)
            if not args.unsafe_fixes:
                run.unsafe_left += _unsafe_only(outcome.text, check)
            if not outcome.changed:
                continue
            run.files += 1
            for fix in outcome.applied:
                entry = fix.to_json()
                entry["path"] = skill.path
                run.fixed.append(entry)
            if args.dry_run:
                run.diffs.append(_diff(text, outcome.text, where))
                if outcome.rename_folder:
                    run.diffs.append(
                        f"rename {rel(skill.folder, env.cwd)} -> {outcome.rename_folder}\n"
                    )
                continue
            try:
                if outcome.text != text:
                    expected = Stamp.of_bytes(data, st.st_mtime_ns)
                    save_fixed(skill.path, expected, outcome.text, skill.folder)
                if outcome.rename_folder:
                    rename_folder(skill.folder, outcome.rename_folder)
            except SaveError as exc:
                run.problems.append(f"{where}: not fixed: {exc}")
                run.fixed = [f for f in run.fixed if f["path"] != skill.path]
    return run


def _unsafe_only(text: str, check: Any) -> int:
    """How many of the problems `text` still has offer a fix only --unsafe-fixes makes
    (a rename, text taken out): a plain --fix that fixed nothing says they exist."""
    from ..core.checking.fix_plans import fixable, plans_for

    doc, diagnostics = check(text)
    return sum(
        1
        for d in diagnostics
        if fixable(d.code)
        and any(not p.safe or p.rename_folder is not None for p in plans_for(doc, d))
    )


def _kept_folder(folder: str, given: list[str], cwd: str) -> str | None:
    """Why the skill folder `folder` is not to be renamed: it is a folder lint was
    given, or holds one, or holds the current folder; None when it may be."""
    from ..core.model.paths import is_inside

    real = os.path.realpath(folder)
    shown = rel(folder, cwd) or "."
    for path in given:
        if os.path.realpath(path) == real:
            return f"'{shown}' is the folder lint was given (rename it yourself)"
        if is_inside(os.path.realpath(path), real):
            return f"'{shown}' holds '{rel(path, cwd)}', which lint was given (rename it yourself)"
    if is_inside(os.path.realpath(cwd), real):
        return f"'{shown}' holds the current folder (rename it yourself)"
    return None


def _diff(old: str, new: str, where: str) -> str:
    """A unified diff: `a/` and `b/` before a relative path, an absolute one as it is
    (never `a//tmp/…`)."""
    absolute = os.path.isabs(where)
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        where if absolute else f"a/{where}",
        where if absolute else f"b/{where}",
    )
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def report_fixes(run: FixRun, args: argparse.Namespace, env: Env) -> None:
    """The fixes made, one line each, on stderr (stdout keeps the lint report)."""
    for entry in run.fixed:
        line = entry.get("line") or 1
        verb = "would fix" if args.dry_run else "fixed"
        env.err.write(
            printable(
                f"{rel(entry['path'], env.cwd)}:{line}: {verb} {entry['code']}: {entry['title']}"
            )
            + "\n"
        )
    for problem in run.problems:
        env.err.write(printable(problem) + "\n")
    verb = "would be fixed" if args.dry_run else "fixed"
    env.err.write(f"{counted(len(run.fixed), 'problem')} {verb} in {counted(run.files, 'file')}\n")
    if run.unsafe_left:
        verb = "has" if run.unsafe_left == 1 else "have"
        env.err.write(
            f"{counted(run.unsafe_left, 'more problem')} {verb}"
            " a fix that renames or takes text out: see it with --dry-run --unsafe-fixes,"
            " make it with --unsafe-fixes\n"
        )


def dry_run_exit(run: FixRun, env: Env) -> int:
    for diff in run.diffs:
        env.out.write(diff)
    return EXIT_FAIL if run.fixed else EXIT_OK


# -- explain ------------------------------------------------------------------------


def register(sub: Subparsers) -> None:
    explain_parser = sub.add_parser(
        "explain",
        help="what a diagnostic means, why it matters, how to fix it",
        description="What a diagnostic code means, why it matters and how to fix it.",
    )
    explain_parser.add_argument(
        "code", nargs="?", metavar="CODE", help="a diagnostic code; none lists every code"
    )
    explain_parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format"
    )


def cmd_explain(args: argparse.Namespace, env: Env) -> int:
    from ..core.model.explanations import ADVICE, EXPLANATIONS
    from .output import dumps

    if args.code is None:
        if args.format == "json":
            env.print(dumps({"codes": _codes_json(ADVICE, EXPLANATIONS)}))
        else:
            for code, summary in CODES.items():
                env.print(f"{code:<26} {summary}")
        return EXIT_OK
    text = explain(args.code)
    if text is None:
        env.err.write(
            f"skillstudio: error: '{args.code}' is not a diagnostic code "
            "(skillstudio explain lists them)\n"
        )
        return EXIT_USAGE
    if args.format == "json":
        env.print(dumps(_codes_json(ADVICE, EXPLANATIONS, args.code)[0]))
    else:
        env.print(text)
    return EXIT_OK


def _codes_json(advice: Any, explanations: Any, only: str | None = None) -> list[dict[str, Any]]:
    out = []
    for code, summary in CODES.items():
        if only is not None and code != only:
            continue
        rule = advice.get(code)
        out.append(
            {
                "code": code,
                "summary": summary,
                "explanation": explanations.get(code, ""),
                "advice": rule is not None,
                "severity": rule.severity if rule else None,
                "fix": (rule.fixable or None) if rule else None,
                "source": rule.source if rule else None,
            }
        )
    return out


COMMANDS = {"explain": cmd_explain}
