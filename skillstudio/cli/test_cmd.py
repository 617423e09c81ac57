"""`test`: run query suites against the project each one names."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..core.model.text import counted, first_named
from ..core.projects.model_windows import with_window
from ..core.projects.open_project import OpenProject
from ..core.projects.project import UsageError, resolve_projects
from .common import (
    EXIT_FAIL,
    EXIT_OK,
    Env,
    Subparsers,
    add_common,
    add_window,
    state_cache,
    window_from,
)
from .junit import JunitCase, JunitSuite, junit_xml
from .output import dumps, printable, rel

if TYPE_CHECKING:
    from ..core.projects.config import Config
    from ..core.projects.project import Project
    from ..core.projects.suite_cases import Suite
    from ..core.projects.suite_leaks import CaseLeak
    from ..core.projects.suites import SuiteReport
    from ..core.ranking.leaks import LeakCheck

ROOTS_NAMED = 3  # roots named in a suite's heading line before "and N more" (-v: all)


def register(sub: Subparsers) -> None:
    test = sub.add_parser("test", help="run query suites", description="Run query suites.")
    test.add_argument(
        "suites",
        nargs="*",
        metavar="SUITE|PATH",
        help="a suite (.yaml), a skill-creator eval_set.json, a Skill Lab triggers.yaml, a "
        "waza trigger_tests.yaml or a skill-reach query set (.json, .yaml, .jsonl, .csv); "
        "default: those under 'suites:' in skillstudio.yaml. A folder or a SKILL.md is a "
        "PATH, as lint takes it: the skills the suites run against (as --root or --project)",
    )
    test.add_argument(
        "--skill",
        metavar="NAME",
        help="the skill an eval_set.json, triggers.yaml or trigger_tests.yaml is about",
    )
    test.add_argument(
        "--leaks",
        action="store_true",
        help="run nothing: check each case's request for leaks instead (it names the "
        "skill it expects, or holds 2 of its description's 3 rarest words, so it tests "
        "nothing); exit 1 when one leaks",
    )
    add_window(test, "the context window in tokens (budgets that depend on it)")
    test.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="name every root a suite runs against in the text (else the first "
        f"{ROOTS_NAMED} and how many more)",
    )
    add_common(test, formats=("text", "json", "junit"))


def _suite_registry(
    suite: Suite,
    args: argparse.Namespace,
    env: Env,
    skills: list[str],
    opened: dict[tuple[object, ...], OpenProject],
) -> OpenProject:
    """The project a suite runs against: core.suite_scope.suite_project's rule, shared with
    the app (the suite's roots, then --root/--project/PATH, then where the user is);
    read once for every suite that runs against it (`opened`, with its indexes)."""
    from ..core.projects.suite_scope import suite_project

    project = suite_project(suite, args.profile, env.cwd, args.root, args.project, paths=skills)
    key = (project.base, project.profile.name, tuple(r.path for r in project.roots))
    item = opened.get(key)
    if item is None:
        registry = project.registry(cache=state_cache(args))
        registry.scan()
        item = opened[key] = OpenProject(project, registry)
    return item


def loaded_suites(
    args: argparse.Namespace, env: Env, paths: list[tuple[str, str]], skills: list[str]
) -> Iterator[tuple[str, Suite, OpenProject]]:
    """(path, suite, project it runs against) of each suite at `paths`, read one after
    the other; a project is read once for every suite that runs against it. A suite
    that cannot be read stops the command (a UsageError: exit 2)."""
    from ..core.projects.suite_cases import SuiteError
    from ..core.projects.suites import load_suite

    opened: dict[tuple[object, ...], OpenProject] = {}
    for path, home in paths:
        try:
            suite = load_suite(path, args.skill, home)
        except SuiteError as exc:
            raise UsageError(str(exc)) from None
        yield path, suite, _suite_registry(suite, args, env, skills, opened)


def split_arguments(words: list[str], cwd: str) -> tuple[list[str], list[str]]:
    """(suites, PATHs) of the positional words: a folder or a SKILL.md is a PATH (the
    skills to run against), anything else a suite."""
    suites: list[str] = []
    paths: list[str] = []
    for word in words:
        full = os.path.join(cwd, word)
        is_path = os.path.isdir(full) or os.path.basename(full) == "SKILL.md"
        (paths if is_path else suites).append(word)
    return suites, paths


def named_suites(words: list[str], cwd: str) -> list[tuple[str, str]]:
    """(path, home) of each suite named on the command line: the user chose the file;
    it is read, with what it names, inside its repository (core/projects/suite_home.py)."""
    from ..core.projects.suite_home import suite_home

    paths = [os.path.join(cwd, word) for word in words]
    return [(path, suite_home(path, [cwd])) for path in paths]


def listed_suites(config: Config | None, cwd: str) -> list[tuple[str, str]]:
    """(path, home) of each suite a skillstudio.yaml lists, its folder the home. An
    entry it refused (outside that folder) stops the command: a UsageError (exit 2)
    at the entry's line and column; nothing of that file is read or shown."""
    if config is None:
        return []
    for problem in config.refused_suites:
        where = f"{rel(problem.path, cwd)}:{problem.line}:{problem.column}"
        raise UsageError(f"{where}: {problem.message}")
    folder = os.path.dirname(config.path)
    return [(path, folder) for path in config.suites]


def suite_paths(
    args: argparse.Namespace, env: Env, suites: list[str], skills: list[str]
) -> list[tuple[str, str]]:
    """(path, home) of the suites to run: those named, else those skillstudio.yaml lists."""
    paths = named_suites(suites, env.cwd)
    if not paths:
        for project in resolve_projects(skills, args.root, args.project, args.profile, env.cwd):
            paths.extend(listed_suites(project.config, env.cwd))
        if not paths:
            raise UsageError("no suites given and none listed under 'suites:' in skillstudio.yaml")
    return paths


def cmd_leaks(
    args: argparse.Namespace, env: Env, paths: list[tuple[str, str]], skills: list[str]
) -> int:
    """`test --leaks`: each case that leaks a skill it expects (core/projects/suite_leaks.py),
    offline; the rarity of words is read over the project each suite runs against."""
    if args.format == "junit":
        raise UsageError("test --leaks prints text or json, not junit")
    checks: dict[int, LeakCheck] = {}
    found: list[dict[str, Any]] = []
    lines: list[str] = []
    cases = 0
    for path, suite, item in loaded_suites(args, env, paths, skills):
        cases += len(suite.cases)
        shown = rel(path, env.cwd)
        for leaking in leaking_cases(suite, item, checks):
            found.append(leaking.to_json(path))
            where = f"{shown}:{leaking.case.line}" if leaking.case.line else shown
            lines.append(f"{where}: LEAK {leaking.case.query!r}: {leaking.leak.reason}")
    if args.format == "json":
        env.print(dumps({"leaks": found, "cases": cases, "suites": [p for p, _ in paths]}))
    else:
        for line in lines:
            env.print(printable(line))
        env.print(f"{counted(len(found), 'leaking case')} of {counted(cases, 'case')}")
    return EXIT_FAIL if found else EXIT_OK


def leaking_cases(suite: Suite, item: OpenProject, checks: dict[int, LeakCheck]) -> list[CaseLeak]:
    """The suite's cases that leak a skill they expect (core/projects/suite_leaks.py),
    the rarity of words read over the project it runs against (`checks`: one check per
    project, built on first use)."""
    from ..core.projects.suite_leaks import suite_leaks
    from ..core.ranking.leaks import LeakCheck

    check = checks.get(id(item))
    if check is None:
        check = checks[id(item)] = LeakCheck(item.registry.active.values())
    return suite_leaks(suite, check)


def leaks_line(count: int) -> str:
    """The plain run's note on the cases `test --leaks` would flag."""
    leak, test = ("leaks", "it tests") if count == 1 else ("leak", "they test")
    return (
        f"{counted(count, 'case')} {leak} the skill expected (naming it or leaning on "
        f"its rarest words, so {test} nothing); run with --leaks to see which"
    )


def cmd_test(args: argparse.Namespace, env: Env) -> int:
    from ..core.projects.suites import run_suite

    window = window_from(args, env)  # (a usage error before anything is read)
    suites, skills = split_arguments(args.suites, env.cwd)
    paths = suite_paths(args, env, suites, skills)
    if args.leaks:
        return cmd_leaks(args, env, paths, skills)
    all_results: list[dict[str, Any]] = []
    suites_json: list[dict[str, Any]] = []
    passed = failed = model_only = 0
    per_skill: dict[str, Any] = {}
    lines: list[str] = []
    junit: list[JunitSuite] = []
    checks: dict[int, LeakCheck] = {}
    leaking = 0  # (said in text only: the JSON and JUnit shapes are the spec's)
    for path, suite, item in loaded_suites(args, env, paths, skills):
        # the open project's indexes, as `match` ranks with them (built once per project,
        # whatever number of suites read it): a case costs what a request costs; the
        # likely one reads the listing at the window chosen (--model, --context-tokens)
        item.use_window(window.context_tokens if window is not None else None)
        report = run_suite(
            suite,
            item.registry,
            with_window(item.project.options, window),
            item.match_index(),
            item.likely_index(),
        )
        passed += report.passed
        failed += report.failed
        model_only += report.model_only
        data = report.to_json()
        for case in data["cases"]:
            case["suite"] = path
        all_results.extend(data["cases"])
        per_skill.update(report.per_skill)
        project = item.project
        suites_json.append(
            {
                "path": path,
                "profile": project.profile.name,
                "project": project.base,
                "roots": [r.path for r in project.roots],
            }
        )
        lines += suite_text(path, suite, project, report, env.cwd, args.verbose)
        junit.append(suite_junit(rel(path, env.cwd), project.profile.name, report))
        if args.format == "text":
            leaking += len(leaking_cases(suite, item, checks))
    if args.format == "junit":
        env.print(junit_xml(junit))
    elif args.format == "json":
        out = {
            "cases": all_results,
            "passed": passed,
            "failed": failed,
            "per_skill": per_skill,
            "suites": suites_json,
        }
        if model_only:  # expect_model only: eval's to judge (PRODUCT.md section 7)
            out["model_only"] = model_only
        env.print(dumps(out))
    else:
        for line in lines:
            env.print(line)
        if leaking:
            env.print(leaks_line(leaking))
        tail = f"; {model_only_text(model_only)}" if model_only else ""
        env.print(f"{passed} passed, {failed} failed{tail}")
    return EXIT_FAIL if failed else EXIT_OK


def model_only_text(count: int) -> str:
    """The summary's note on the cases test leaves to eval."""
    have = "has" if count == 1 else "have"
    return f"{counted(count, 'case')} {have} expect_model only: run eval to judge them"


def suite_junit(name: str, profile: str, report: SuiteReport) -> JunitSuite:
    """One suite's cases as JUnit test cases (`--format junit`)."""
    out = JunitSuite(name, properties={"profile": profile})
    for result in report.results:
        case = result.case
        where = f"{name}:{case.line}" if case.line else name
        got = ", ".join(result.got) or "none"
        failure = None
        if not result.passed:
            failure = f"got {got}; expected: {case.expect_text()}"
            failure += f" ({result.why})" if result.why else ""
        skipped = None if result.judged else result.why
        out.cases.append(
            JunitCase(case.query, where, failure, output=f"got {got}", skipped=skipped)
        )
    return out


def suite_text(
    path: str,
    suite: Suite,
    project: Project,
    report: SuiteReport,
    cwd: str,
    verbose: bool = False,
) -> list[str]:
    """One suite's text report: the project it ran against (its first roots and how
    many more; every root when `verbose`), each case, per skill, confusion. Every line
    is `printable`: a suite's names and requests, a skill's name and a folder's are
    untrusted, and a terminal or CI log would obey an escape in them (a fake PASS
    written over an erased FAIL)."""
    names = [rel(r.path, cwd) or "." for r in project.roots]
    roots = f"roots: {', '.join(names)}"
    if len(names) > ROOTS_NAMED and not verbose:  # (a catalogue's 50 roots: one line)
        named = first_named(names, ROOTS_NAMED)
        roots = f"{counted(len(names), 'root')}: {named}; -v names them all"
    lines = [
        f"{rel(path, cwd)} ({counted(len(suite.cases), 'case')}) against "
        f"{rel(project.base, cwd) or '.'} ({project.profile.name}; {roots})"
    ]
    for result in report.results:
        if not result.judged:
            lines.append(f"  EVAL  {result.case.query!r}: expect_model: judged by eval")
            continue
        mark = "PASS" if result.passed else "FAIL"
        where = f"{rel(path, cwd)}:{result.case.line}: " if result.case.line else ""
        got = ", ".join(result.got) or "none"
        detail = f" ({result.why})" if result.why else ""
        query = repr(result.case.query)
        if result.passed:
            lines.append(f"  {mark}  {query} -> {got}")
        else:
            lines.append(
                f"  {mark}  {where}{query} -> {got}; expected: {result.case.expect_text()}{detail}"
            )
    # the names' column as wide as the longest name, so the numbers stay in columns
    width = max([24, *(len(printable(n)) for n in (*report.per_skill, *report.confusion))])
    if report.per_skill:
        lines.append(f"  {'per skill:':<{width + 2}} {'precision':>9} {'recall':>7}")
        for name, stats in report.per_skill.items():
            prec = "-" if stats["precision"] is None else f"{stats['precision']:.2f}"
            rec = "-" if stats["recall"] is None else f"{stats['recall']:.2f}"
            lines.append(f"    {printable(name):<{width}} {prec:>9} {rec:>7}")
    lines.append("  confusion (expected -> got):")
    for expected, row in report.confusion.items():
        cells = ", ".join(f"{got} {count}" for got, count in row.items())
        lines.append(f"    {printable(expected):<{width}} {cells}")
    return [printable(line) for line in lines]


COMMANDS = {"test": cmd_test}
