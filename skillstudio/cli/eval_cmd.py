"""`eval`: a suite's requests (or `--request`s) put to a real model the way the
project's agent asks it (core/live; docs/live.md)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from typing import TYPE_CHECKING, Any

from ..core.model.text import counted
from ..core.projects.model_windows import with_window
from ..core.projects.project import UsageError
from .common import (
    EXIT_FAIL,
    EXIT_INCONCLUSIVE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    Env,
    Subparsers,
    add_common,
    load,
    window_from,
)
from .eval_agent import add_agent_arguments
from .junit import JunitCase, JunitSuite, junit_xml
from .output import dumps, printable, rel
from .test_cmd import _suite_registry, listed_suites, named_suites, split_arguments

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..core.live.cache import AnswerCache
    from ..core.live.run import LiveReport, Plan, Settings
    from ..core.live.stats import LiveCase
    from ..core.projects.open_project import OpenProject
    from ..core.projects.suite_cases import Case
    from ..core.scanning.registry import Registry

    # makes one plan: (registry, cases, settings, options, cache, estimate) -> Plan
    Planner = Callable[
        [Registry, list[LiveCase], Settings, dict[str, Any], AnswerCache, bool], Plan
    ]


def register(sub: Subparsers) -> None:
    ev = sub.add_parser(
        "eval",
        help="put the suites' requests to a real model, as the agent asks it",
        description="Put requests to a real model the way the project's agent asks it (its "
        "own listing and tool, no skill body), N runs each, and report which skill it "
        "picks: trigger rates, precision/recall/F1, a confusion table, Wilson 95 % "
        "intervals and agreement with the offline estimate. A case passes, fails, or is "
        "inconclusive (exit 3) on the Wilson bounds of its rate over all its runs. "
        "Answers are cached, so --offline replays a checked suite without a model.",
    )
    ev.add_argument(
        "suites",
        nargs="*",
        metavar="SUITE|PATH",
        help="suites, as `test` takes them (default: those under 'suites:' in "
        "skillstudio.yaml unless --request is given); a folder or a SKILL.md is a PATH: "
        "the skills to ask about",
    )
    ev.add_argument(
        "--request",
        action="append",
        default=[],
        metavar="Q",
        help="a request to ask about (repeatable), instead of suites",
    )
    ev.add_argument(
        "--expect",
        action="append",
        default=[],
        metavar="NAME",
        help="the skill --request should pick (repeatable; 'none': no skill); "
        "without it the picks are shown, not judged",
    )
    ev.add_argument(
        "--endpoint",
        default="ollama",
        metavar="NAME|URL",
        help="a base URL (http://localhost:11434/v1) or one of: anthropic, "
        "openai, openrouter, ollama, llama.cpp, vllm, lmstudio (default ollama)",
    )
    ev.add_argument(
        "--api",
        choices=("anthropic", "openai"),
        help="the endpoint's API: Anthropic Messages or OpenAI-compatible Chat "
        "Completions (default: from the endpoint)",
    )
    ev.add_argument(
        "--model",
        metavar="M",
        help="the model to ask (required, but with --agent-cli: the agent's default)",
    )
    ev.add_argument(
        "--key-env",
        metavar="VAR",
        help="the environment variable holding the key (else the endpoint's "
        "usual one, then the system keyring)",
    )
    ev.add_argument("--runs", type=int, default=3, metavar="N", help="runs per request (3)")
    ev.add_argument(
        "--concurrency", type=int, default=4, metavar="C", help="requests in flight at once (4)"
    )
    ev.add_argument(
        "--temperature", type=float, default=1.0, metavar="T", help="sampling temperature (1.0)"
    )
    ev.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        metavar="S",
        help="seconds one request may take, its retries and waits included (60)",
    )
    ev.add_argument(
        "--rate-limit",
        type=float,
        default=0.0,
        metavar="N",
        help="at most N requests a minute (a service's rate limit; default: none)",
    )
    ev.add_argument(
        "--pass-rate",
        type=float,
        default=0.5,
        metavar="X",
        help="the trigger rate a case must be shown to reach: it passes when the "
        "one-sided 95 %% Wilson lower bound of its rate is at least X, fails when the "
        "upper bound is below X, and is inconclusive between (0.5)",
    )
    ev.add_argument(
        "--min-runs",
        type=int,
        default=3,
        metavar="N",
        help="answered runs a case needs for a verdict; with fewer it is inconclusive (3)",
    )
    ev.add_argument(
        "--price",
        metavar="IN,OUT",
        help="dollars per million input and output tokens, for the cost estimate",
    )
    ev.add_argument(
        "--offline",
        action="store_true",
        help="answers from the cache only: a miss is reported, no call is made",
    )
    ev.add_argument(
        "--yes",
        action="store_true",
        help="do not ask before sending (the estimate is still printed)",
    )
    ev.add_argument(
        "--show-request",
        action="store_true",
        help="print what would be sent (URL, headers without the key, the exact body and "
        "its sha256) and send nothing",
    )
    add_agent_arguments(ev)  # --agent-cli, --agent-cli-path
    add_common(ev, formats=("text", "json", "junit"))


def _settings(args: argparse.Namespace) -> Settings:
    from ..core.live.client import Limits
    from ..core.live.endpoints import EndpointError, endpoint_for
    from ..core.live.run import Settings

    if not args.model:
        raise UsageError("--model is required (or --agent-cli: the agent's own model)")
    try:
        endpoint = endpoint_for(args.endpoint, args.api, args.key_env)
    except EndpointError as exc:
        raise UsageError(str(exc)) from None
    if args.runs < 1 or args.concurrency < 1 or args.timeout <= 0 or args.rate_limit < 0:
        raise UsageError("--runs, --concurrency and --timeout must be positive")
    if not 0 < args.pass_rate < 1:
        raise UsageError(
            "--pass-rate must be above 0 and below 1 (no number of runs shows a rate "
            "of 1 with 95 % confidence)"
        )
    if args.min_runs < 1:
        raise UsageError("--min-runs must be at least 1")
    price = None
    if args.price:
        try:
            first, second = (float(p) for p in args.price.split(","))
        except ValueError:
            raise UsageError("--price takes two numbers: IN,OUT (dollars per million)") from None
        price = (first, second)
    limits = Limits(timeout=args.timeout)
    return Settings(
        endpoint,
        args.model,
        args.runs,
        args.temperature,
        args.concurrency,
        limits,
        args.offline,
        args.pass_rate,
        price,
        args.rate_limit,
        args.min_runs,
    )


def live_cases(cases: list[Case], source: str) -> list[LiveCase]:
    """A suite's cases as live ones: `expect` (one of them), `should_trigger` (that
    skill), `should not trigger` (anything but it), `expect_likely` (one of them)."""
    from ..core.live.stats import LiveCase

    out = []
    for case in cases:
        if case.mode == "not-likely":  # expect_not: anything but those skills
            out.append(LiveCase(case.query, list(case.expect_not), True, case.line, source))
            continue
        negate = case.mode == "not-triggers"
        out.append(LiveCase(case.query, list(case.expect), negate, case.line, source))
    return out


def _confirm(env: Env, args: argparse.Namespace, text: str) -> bool:
    env.err.write(text + "\n")
    if args.yes:
        return True
    stdin = sys.stdin
    if stdin is None or not stdin.isatty():
        raise UsageError("not sending without a yes: add --yes (or --offline to use the cache)")
    env.err.write("Send? [y/N] ")
    env.err.flush()
    return stdin.readline().strip().lower() in ("y", "yes")


def _plans(
    args: argparse.Namespace,
    env: Env,
    settings: Settings,
    cache: AnswerCache,
    planner: Planner | None = None,
) -> list[tuple[str, Any, Any]]:
    """(name, plan, project) per suite, or one for the --requests; `planner` makes
    each plan (default: core/live/run.py's `plan`; --agent-cli's: cli/eval_agent.py)."""
    from ..core.live.run import LiveError, NothingToAsk, plan
    from ..core.live.stats import LiveCase
    from ..core.projects.suite_cases import SuiteError
    from ..core.projects.suites import load_suite

    # --model: the live model's id, whose context window (when the table knows it) is
    # the listing's, as the agent would have it; unknown ids keep the project's
    window = window_from(args, env, model=args.model)
    suites, paths = split_arguments(args.suites, env.cwd)
    out: list[tuple[str, Any, Any]] = []
    skipped: list[str] = []

    def add(name: str, registry: Registry, project: Any, cases: list[LiveCase]) -> None:
        if not registry.profile.model_chooses:  # the agent's rules pick, not a model
            skipped.append(
                f"{name}: {registry.profile.name} picks skills by its own rules, "
                "not by a model: not asked"
            )
            return
        try:
            options = with_window(project.options, window)
            estimate = not args.show_request  # nothing is asked: no estimate to compare
            checked = (planner or plan)(registry, cases, settings, options, cache, estimate)
            out.append((name, checked, project))
        except NothingToAsk as exc:  # as lint's no-skills, but before anything is spent
            where = rel(project.base, env.cwd) or "."
            raise UsageError(f"{printable(where)}: {exc}") from None
        except LiveError as exc:
            raise UsageError(str(exc)) from None

    if args.request:
        for word in suites:  # refused before anything is estimated or asked
            refuse_with_requests(word, env.cwd)
        expect = [e for e in args.expect if e != "none"]
        judged = bool(args.expect)
        cases = [LiveCase(q, expect, judged=judged) for q in args.request]
        for item in load(args, env, paths):
            add(
                f"requests to {rel(item.project.base, env.cwd) or '.'}",
                item.registry,
                item.project,
                cases,
            )
        return _asked(env, out, skipped)
    if args.expect:
        raise UsageError("--expect goes with --request")
    files = named_suites(suites, env.cwd)
    if not files:
        for item in load(args, env, paths, gists=False):
            files.extend(listed_suites(item.project.config, env.cwd))
    if not files:
        raise UsageError("no suites, no --request, and none under 'suites:' in skillstudio.yaml")
    opened: dict[tuple[object, ...], OpenProject] = {}  # read once for its suites
    for path, home in files:
        try:
            suite = load_suite(path, None, home)
        except SuiteError as exc:
            raise UsageError(str(exc)) from None
        loaded = _suite_registry(suite, args, env, paths, opened)
        name = rel(path, env.cwd)
        add(name, loaded.registry, loaded.project, live_cases(suite.cases, name))
    return _asked(env, out, skipped)


def refuse_with_requests(word: str, cwd: str) -> None:
    """A word beside --request that is not a folder or a SKILL.md: a path that does not
    exist (a typo would otherwise ask about the default skills, and spend), or a suite
    (whose requests --request replaces). Either is a UsageError naming it (exit 2)."""
    if not os.path.lexists(os.path.join(cwd, word)):
        raise UsageError(f"{word}: no such file or folder; nothing was asked")
    raise UsageError(
        f"{word}: not a folder or a SKILL.md; --request asks about the skills of a PATH "
        "(give a suite without --request to ask its requests)"
    )


def _asked(
    env: Env, out: list[tuple[str, Any, Any]], skipped: list[str]
) -> list[tuple[str, Any, Any]]:
    for line in skipped:
        env.err.write(printable(line) + "\n")
    if not out:
        raise UsageError("nothing to ask: every project's profile picks skills by rules")
    return out


def cmd_eval(args: argparse.Namespace, env: Env) -> int:
    from ..core.live.cache import AnswerCache
    from ..core.live.run import LiveError, execute, key_for

    if args.agent_cli or args.agent_cli_path:
        from .eval_agent import Shared, cmd_eval_agent

        return cmd_eval_agent(args, env, Shared(_plans, _confirm, _output))
    settings = _settings(args)
    cache = AnswerCache()
    plans = _plans(args, env, settings, cache)
    if args.show_request:  # before a key is read: nothing is sent
        show_requests(args, env, plans)
        return EXIT_OK
    judged = any(item.case.judged for _, checked, _ in plans for item in checked.items)
    for warning in settings.warnings(judged):
        env.err.write(f"skillstudio: warning: {warning}\n")
    calls = sum(p.calls for _, p, _ in plans)
    if calls and not settings.offline:
        try:
            key_for(settings)  # before asking to spend: a missing key is said first
        except LiveError as exc:
            raise UsageError(str(exc)) from None
        sent = sum(p.tokens()[0] for _, p, _ in plans)
        answered = sum(p.tokens()[1] for _, p, _ in plans)
        costs = [p.cost() for _, p, _ in plans]
        cost = f", about ${sum(c or 0 for c in costs):.4f}" if settings.price else ""
        cached = sum(len(p.cached) for _, p, _ in plans)
        text = (
            f"About to send {counted(calls, 'call')} to {settings.endpoint.base_url} "
            f"(model {settings.model}): about {counted(sent, 'token')} in "
            f"and {answered:,} out{cost}"
            + (f"; {counted(cached, 'run')} from the cache" if cached else "")
        )
        if not _confirm(env, args, text):
            env.err.write("nothing was sent\n")
            return EXIT_FAIL
    cancel = threading.Event()
    tty = env.err.isatty() if hasattr(env.err, "isatty") else False

    def progress(done: int, total: int, message: str) -> None:
        if tty:
            env.err.write(printable(f"[{done}/{total}] {message}") + "\n")

    reports: list[tuple[str, LiveReport]] = []
    for name, checked, _project in plans:  # after a Ctrl+C the rest end as cancelled
        try:
            reports.append((name, execute(checked, cache, cancel, progress)))
        except LiveError as exc:
            raise UsageError(str(exc)) from None
    code = _output(args, env, reports)
    if not cancel.is_set():
        return code
    # Ctrl+C (execute's wait took it): the requests in flight were cut at once; what
    # was answered before is reported above, and kept in the cache.
    left = sum(
        a.error == "cancelled" for _, report in reports for r in report.results for a in r.answers
    )
    env.err.write(
        f"skillstudio: eval cancelled (Ctrl+C): {counted(left, 'run')} not answered; "
        "the answers before it are reported above and kept in the cache\n"
    )
    return EXIT_INTERRUPTED


def show_requests(args: argparse.Namespace, env: Env, plans: list[tuple[str, Plan, Any]]) -> None:
    """`--show-request`: each request as it would be sent (the URL, the headers but the
    key's, the exact body and the sha256 of its bytes), and how many of its runs the
    cache answers. No key is read and nothing is sent."""
    from ..core.live.client import headers

    shown: list[dict[str, Any]] = []
    for name, checked, _project in plans:
        endpoint = checked.settings.endpoint
        runs = checked.settings.runs
        for i, item in enumerate(checked.items):
            shown.append(
                {
                    "suite": name,
                    "query": item.case.query,
                    "url": endpoint.url,
                    "api": endpoint.api,
                    "headers": headers(endpoint, None),  # None: no key, so no key header
                    "key_header": "x-api-key" if endpoint.api == "anthropic" else "authorization",
                    "template": item.template,
                    "request_sha256": item.request_sha256,
                    "bytes": len(item.content),
                    "body": item.content.decode("utf-8"),
                    "runs": runs,
                    "cached_runs": sum((i, r) in checked.cached for r in range(runs)),
                }
            )
    if args.format == "json":
        for request in shown:
            request["body"] = json.loads(request["body"])
        env.print(dumps({"requests": shown}))
        return
    for request in shown:
        env.print(
            printable(
                f"{request['suite']}: {request['query']!r} ({counted(request['runs'], 'run')}, "
                f"{request['cached_runs']} in the cache)"
            )
        )
        env.print(f"POST {printable(request['url'])}")
        for header, value in request["headers"].items():
            env.print(f"{header}: {value}")
        env.print(f"({request['key_header']}: the key, when one is used; never shown)")
        size = counted(request["bytes"], "byte")
        env.print(f"request_sha256: {request['request_sha256']} ({size})")
        env.print(printable(request["body"]))
        env.print("")
    env.print(f"{counted(len(shown), 'request')} shown; nothing was sent")


def _output(args: argparse.Namespace, env: Env, reports: list[tuple[str, LiveReport]]) -> int:
    """Print the reports; the exit code: 1 when a case failed, else 3 when one is
    inconclusive, else 0."""
    passed = failed = inconclusive = 0
    for _, report in reports:
        p, f, i = report.counts()
        passed, failed, inconclusive = passed + p, failed + f, inconclusive + i
    if args.format == "json":
        data = [dict(report.to_json(), suite=name) for name, report in reports]
        unanswered = sum(report.unanswered() for _, report in reports)
        totals = {"passed": passed, "failed": failed, "inconclusive": inconclusive}
        env.print(dumps({"reports": data, **totals, "unanswered": unanswered}))
    elif args.format == "junit":
        env.print(junit_xml([_junit(name, report) for name, report in reports]))
    else:
        for name, report in reports:
            for line in report_text(name, report):
                env.print(line)
        tail = f", {inconclusive} inconclusive" if inconclusive else ""
        env.print(f"{passed} passed, {failed} failed{tail}")
    if failed:
        return EXIT_FAIL
    return EXIT_INCONCLUSIVE if inconclusive else EXIT_OK


def _percent(rate: float | None, interval: list[float] | None) -> str:
    if rate is None:
        return "-"
    ci = f", 95 % CI {interval[0] * 100:.0f}-{interval[1] * 100:.0f} %" if interval else ""
    return f"{rate * 100:.0f} %{ci}"


def report_text(name: str, report: LiveReport) -> list[str]:
    data = report.to_json()
    style = report.plan.items[0].question.style.agent if report.plan.items else ""
    endpoint = data["endpoint"]
    lines = [
        printable(
            f"{name}: {counted(len(data['cases']), 'request')} x {data['runs']} runs, model "
            + (
                f"{data['model']}, {endpoint['url']}, {data['date']}; run as {style}"
                if "agent" in data  # the real agent's CLI (cli/eval_agent.py)
                else f"{data['model']} at {endpoint['url']} ({endpoint['api']}), "
                f"{data['date']}; asked as {data['profile']} asks: {style}"
            )
        )
    ]
    lines.extend(printable(f"  warning: {warning}") for warning in data["warnings"])
    for case in data["cases"]:
        picks = ", ".join(f"{k} {v}" for k, v in case["picks"].items())
        query = printable(repr(case["query"]))
        est = case["estimate"]
        estimate = f"; estimate: {est['top'] or 'none'}" if est is not None else ""
        where = f"{case['suite']}:{case['line']}: " if case["suite"] and case["line"] else ""
        if case["runs"] and all(r.get("harness") for r in case["runs"]):
            estimate = "; resolved by the harness, no model call"
        errors = sorted({r["error"] for r in case["runs"] if r["error"]})
        unanswered = f"; without an answer: {'; '.join(errors)}" if errors else ""
        if not case["answered"]:
            lines.append(printable(f"  INCONCLUSIVE  {where}{query}{unanswered}"))
            continue
        rate = _percent(case["rate"], case["interval"])
        if case["expect"] is None:
            lines.append(printable(f"  ----  {query} -> {picks}{estimate}"))
            continue
        mark = {"pass": "PASS", "fail": "FAIL"}.get(case["verdict"], "INCONCLUSIVE")
        lines.append(
            printable(
                f"  {mark}  {'' if mark == 'PASS' else where}{query} -> {picks}; expected "
                f"{case['expect']}: {case['hits']}/{case['answered']} of {len(case['runs'])} "
                f"runs ({rate}): {case['why']}{unanswered}{estimate}"
            )
        )
    if data["per_skill"]:
        lines.append("  per skill:                precision  recall      f1")
        for skill, stats in data["per_skill"].items():
            cells = [
                "-" if stats[k] is None else f"{stats[k]:.2f}"
                for k in ("precision", "recall", "f1")
            ]
            lines.append(printable(f"    {skill:<24} {cells[0]:>9} {cells[1]:>7} {cells[2]:>7}"))
    if data["confusion"]:
        lines.append("  confusion (expected -> picked):")
        for expected, row in data["confusion"].items():
            row_text = ", ".join(f"{got} {count}" for got, count in row.items())
            lines.append(printable(f"    {expected:<24} {row_text}"))
    top1 = data["agreement"]["top1"]
    if top1["runs"]:
        bands = data["agreement"]["bands"]
        by_band = ", ".join(
            f"{band} {b['picked']}/{b['runs']}" for band, b in bands.items() if b["runs"]
        )
        lines.append(
            f"  agreement with the estimate: top-1 {top1['agree']}/{top1['runs']} "
            f"({_percent(top1['rate'], top1['interval'])}); picks by band: {by_band}"
        )
    tokens = data["tokens"]
    lines.append(
        f"  {counted(sum(len(c['runs']) for c in data['cases']), 'run')} "
        f"({data['cached_runs']} from the cache, "
        + (f"{data['harness_runs']} by the harness, " if data["harness_runs"] else "")
        + f"{data['errors']} without an answer); "
        f"tokens reported: {tokens['input']:,} in, {tokens['output']:,} out"
        + ("; cancelled" if data["cancelled"] else "")
    )
    return lines


def _junit(name: str, report: LiveReport) -> JunitSuite:
    data = report.to_json()
    suite = JunitSuite(
        f"{name} ({data['model']})",
        properties={
            "model": data["model"],
            "endpoint": data["endpoint"]["url"],
            "profile": data["profile"],
            "date": data["date"],
            "runs": str(data["runs"]),
        },
    )
    for case in data["cases"]:
        where = f"{case['suite']}:{case['line']}" if case["suite"] and case["line"] else name
        picks = ", ".join(f"{k} {v}" for k, v in case["picks"].items())
        item = JunitCase(case["query"], where, output=f"picks: {picks}")
        errors = "; ".join(sorted({r["error"] for r in case["runs"] if r["error"]}))
        counts = f"{case['hits']}/{case['answered']} of {len(case['runs'])} runs"
        if case["passed"] is None:  # inconclusive: an <error>, never a green <skipped>
            item.error = f"inconclusive: {case['why']}" + (
                f"; without an answer: {errors}" if errors else ""
            )
            if case["answered"]:
                item.error += f"; picked {picks}; expected {case['expect']}: {counts}"
        elif case["passed"] is False:
            item.failure = f"picked {picks}; expected {case['expect']}: {counts}: {case['why']}"
        suite.cases.append(item)
    return suite


COMMANDS = {"eval": cmd_eval}
