"""`eval`: a suite's requests (or `--request`s) put to a real model the way the
project's agent asks it (core/live; docs/live.md)."""

from __future__ import annotations

import argparse
import json
import os
import threading
from typing import TYPE_CHECKING, Any

from ..core.model.text import counted
from ..core.projects.model_windows import with_window
from ..core.projects.project import UsageError
from .common import (
    EXIT_FAIL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    Env,
    Subparsers,
    add_common,
    load,
    window_from,
)
from .eval_agent import add_agent_arguments
from .eval_confirm import confirm_runs, progress_lines, valid_settings
from .eval_report import not_judged_text, output_reports
from .output import dumps, printable, rel
from .test_cmd import _suite_registry, listed_suites, named_suites, split_arguments

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..core.live.cache import AnswerCache
    from ..core.live.endpoints import Endpoint
    from ..core.live.planning import Plan, Settings
    from ..core.live.run import LiveReport
    from ..core.live.stats import LiveCase
    from ..core.live.templates import Template
    from ..core.projects.eval_cases import NotJudged
    from ..core.projects.open_project import OpenProject
    from ..core.scanning.registry import Registry

    # makes one plan: (registry, cases, settings, options, cache, estimate) -> Plan
    Planner = Callable[
        [Registry, list[LiveCase], Settings, dict[str, Any], AnswerCache, bool], Plan
    ]


def add_endpoint_arguments(parser: argparse.ArgumentParser, model_help: str) -> None:
    """--endpoint, --api, --model and --key-env: where a model is asked and with which
    key (eval, suggest)."""
    from ..core.live.endpoints import APIS

    parser.add_argument(
        "--endpoint",
        default="ollama",
        metavar="NAME|URL",
        help="a base URL (http://localhost:11434/v1) or one of: anthropic, "
        "openai, openrouter, ollama, llama.cpp, vllm, lmstudio (default ollama)",
    )
    parser.add_argument(
        "--api",
        choices=APIS,
        help="the endpoint's API: Anthropic Messages, OpenAI-compatible Chat "
        "Completions, OpenAI's Responses API as current Codex asks it, where the "
        "endpoint offers it, or Gemini's generateContent (default: from the endpoint; "
        "Chat Completions for an OpenAI-compatible one)",
    )
    parser.add_argument(
        "--model",
        metavar="M",
        help=model_help,
    )
    parser.add_argument(
        "--key-env",
        metavar="VAR",
        help="the environment variable holding the key (else the endpoint's "
        "usual one, then the system keyring)",
    )


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
    add_endpoint_arguments(
        ev, "the model to ask (required, but with --agent-cli: the agent's default)"
    )
    ev.add_argument("--runs", type=int, default=3, metavar="N", help="runs per request (3)")
    ev.add_argument(
        "--turns",
        type=int,
        default=1,
        metavar="K",
        help="exchanges a run may take (1-8): a call of another tool (a shell "
        "command, a file read) gets the stub result '(no output)' and the model is "
        "asked again; the pick is the first skill choice at any turn, first-turn and "
        "any-turn rates reported apart (1: ask once)",
    )
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
        "--template",
        metavar="FILE|NAME",
        help="send the requests from this template (`skillstudio capture` saves one; a "
        "NAME is looked up in $XDG_CONFIG_HOME/skillstudio/templates; 'reconstruction': "
        "the built-in requests). Default: the captured template saved under the agent's "
        "name when there is one of the endpoint's API, else the reconstruction",
    )
    ev.add_argument(
        "--show-request",
        action="store_true",
        help="print what would be sent (URL, headers without the key, the exact body and "
        "its sha256) and send nothing",
    )
    add_agent_arguments(ev)  # --agent-cli, --agent-cli-path
    add_common(ev, formats=("text", "json", "junit"))


def _settings(args: argparse.Namespace, cwd: str | None = None) -> Settings:
    from ..core.live.client import Limits
    from ..core.live.planning import Settings

    if not args.model:
        raise UsageError("--model is required (or --agent-cli: the agent's own model)")
    endpoint = endpoint_of(args)
    settings = Settings(
        endpoint,
        args.model,
        args.runs,
        args.temperature,
        args.concurrency,
        Limits(timeout=args.timeout),
        args.offline,
        args.pass_rate,
        None,
        args.rate_limit,
        args.min_runs,
        turns=args.turns,
    )
    valid_settings(settings)
    settings.price = price_of(args)
    settings.template, settings.saved_templates = _template(args, cwd or os.getcwd())
    return settings


def endpoint_of(args: argparse.Namespace) -> Endpoint:
    """The endpoint --endpoint, --api and --key-env name; a UsageError when they name none."""
    from ..core.live.endpoints import EndpointError, endpoint_for

    try:
        return endpoint_for(args.endpoint, args.api, args.key_env)
    except EndpointError as exc:
        raise UsageError(str(exc)) from None


def price_of(args: argparse.Namespace) -> tuple[float, float] | None:
    """--price IN,OUT (dollars per million input and output tokens), or None."""
    if not args.price:
        return None
    try:
        first, second = (float(p) for p in args.price.split(","))
    except ValueError:
        raise UsageError("--price takes two numbers: IN,OUT (dollars per million)") from None
    return first, second


def _template(args: argparse.Namespace, cwd: str) -> tuple[Template | None, bool]:
    """(the template --template names, whether saved templates are looked up)."""
    from ..core.live.replay import RECONSTRUCTION
    from ..core.live.templates import TemplateError, find_template

    word = getattr(args, "template", None)
    if not word:
        return None, True
    if word == RECONSTRUCTION:
        return None, False
    try:
        return find_template(word, cwd), False
    except TemplateError as exc:
        raise UsageError(str(exc)) from None


def _plans(
    args: argparse.Namespace,
    env: Env,
    settings: Settings,
    cache: AnswerCache,
    planner: Planner | None = None,
    not_judged: list[NotJudged] | None = None,
) -> list[tuple[str, Any, Any]]:
    """(name, plan, project) per suite, or one for the --requests; `planner` makes
    each plan (default: core/live/planning.py's `plan`; --agent-cli's: cli/eval_agent.py);
    the suites' cases eval does not judge (core/projects/eval_cases.py) go into
    `not_judged`."""
    from ..core.live.planning import LiveError, NothingToAsk, plan
    from ..core.live.stats import LiveCase
    from ..core.projects.eval_cases import eval_cases
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
        chosen = eval_cases(suite.cases, loaded.registry, loaded.project.options, name)
        if not loaded.registry.profile.model_chooses or chosen.judged:
            add(name, loaded.registry, loaded.project, chosen.judged)
        if loaded.registry.profile.model_chooses and not_judged is not None:
            not_judged.extend(chosen.not_judged)
    if not out and not_judged:
        for line in not_judged_text(not_judged):
            env.err.write(line + "\n")
        raise UsageError(
            "nothing to ask: no case of these suites is judged by eval (it judges "
            "expect_model, else expect_likely, else an expect of a request naming its skill)"
        )
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
    from ..core.live.planning import LiveError
    from ..core.live.run import execute, key_for

    if args.agent_cli or args.agent_cli_path:
        from .eval_agent import Shared, cmd_eval_agent

        return cmd_eval_agent(args, env, Shared(_plans, output_reports))
    settings = _settings(args, env.cwd)
    cache = AnswerCache()
    not_judged: list[NotJudged] = []
    plans = _plans(args, env, settings, cache, not_judged=not_judged)
    if args.show_request:  # before a key is read: nothing is sent
        show_requests(args, env, plans)
        return EXIT_OK

    def what(calls: int) -> str:
        try:
            key_for(settings)  # before asking to spend: a missing key is said first
        except LiveError as exc:
            raise UsageError(str(exc)) from None
        sent = sum(p.tokens()[0] for _, p, _ in plans)
        answered = sum(p.tokens()[1] for _, p, _ in plans)
        cost = sum(p.cost() or 0 for _, p, _ in plans)
        return (
            "send "
            + (
                f"up to {counted(calls, 'call')} ({settings.turns} turns a run at most)"
                if settings.turns > 1
                else counted(calls, "call")
            )
            + f" to {settings.endpoint.base_url} (model {settings.model}): about "
            f"{counted(sent, 'token')} in and {answered:,} out"
            + (f", about ${cost:.4f}" if settings.price else "")
        )

    if not confirm_runs(env, args, settings, [p for _, p, _ in plans], what, "sent"):
        return EXIT_FAIL
    cancel = threading.Event()
    progress = progress_lines(env)
    reports: list[tuple[str, LiveReport]] = []
    for name, checked, _project in plans:  # after a Ctrl+C the rest end as cancelled
        try:
            reports.append((name, execute(checked, cache, cancel, progress)))
        except LiveError as exc:
            raise UsageError(str(exc)) from None
    code = output_reports(args, env, reports, not_judged)
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
    key's, the exact body and the sha256 of its bytes), what each later turn of
    `--turns K` adds to it, and how many of its runs the cache answers; a request the
    agent's harness resolves is said to send nothing, with the rule that resolves it.
    No key is read and nothing is sent."""
    from ..core.live.client import headers, key_header
    from ..core.live.harness import rule_of
    from ..core.live.turns import added_by_turn

    shown: list[dict[str, Any]] = []
    for name, checked, _project in plans:
        endpoint = checked.settings.endpoint
        runs, turns = checked.settings.runs, checked.settings.turns
        field, added = added_by_turn(endpoint.api)
        for i, item in enumerate(checked.items):
            request: dict[str, Any] = {"suite": name, "query": item.case.query, "runs": runs}
            if item.harness is not None:
                request.update(sent=False, harness=item.harness, rule=rule_of(item.case.query))
                shown.append(request)
                continue
            request.update(
                sent=True,
                url=endpoint.url_for(checked.settings.model),
                api=endpoint.api,
                headers=headers(endpoint, None),  # None: no key, so no key header
                key_header=key_header(endpoint),
                template=item.template,
                request_sha256=item.request_sha256,
                bytes=len(item.content),
                body=item.content.decode("utf-8"),
                cached_runs=sum((i, r) in checked.cached for r in range(runs)),
                later_turns=[
                    {"turn": t, "appends_to": field, "added": added} for t in range(2, turns + 1)
                ],
            )
            shown.append(request)
    if args.format == "json":
        for request in shown:
            if request["sent"]:
                request["body"] = json.loads(request["body"])
        env.print(dumps({"requests": shown}))
        return
    for request in shown:
        _print_request(env, request)
    sent = sum(r["sent"] for r in shown)
    resolved = len(shown) - sent
    tail = f" ({resolved} resolved by the harness: no request)" if resolved else ""
    env.print(f"{counted(sent, 'request')} shown{tail}; nothing was sent")


def _print_request(env: Env, request: dict[str, Any]) -> None:
    """One request of `--show-request` as text."""
    runs = counted(request["runs"], "run")
    if not request["sent"]:
        env.print(printable(f"{request['suite']}: {request['query']!r} ({runs})"))
        env.print(
            printable(
                f"no request is sent: the agent's harness resolves it to {request['harness']} "
                f"by its rule {request['rule']}; no model is asked"
            )
        )
        env.print("")
        return
    later = request["later_turns"]
    env.print(
        printable(
            f"{request['suite']}: {request['query']!r} ({runs}, "
            f"{request['cached_runs']} in the cache)"
        )
    )
    if later:
        env.print(f"turn 1 of up to {len(later) + 1}: sent in every run")
    env.print(f"POST {printable(request['url'])}")
    for header, value in request["headers"].items():
        env.print(f"{header}: {value}")
    env.print(f"({request['key_header']}: the key, when one is used; never shown)")
    size = counted(request["bytes"], "byte")
    env.print(f"request_sha256: {request['request_sha256']} ({size})")
    env.print(printable(f"template: {request['template']}"))
    env.print(printable(request["body"]))
    for turn in later:
        n = turn["turn"]
        env.print(
            f"turn {n} of up to {len(later) + 1}: sent only when turn {n - 1}'s answer calls "
            f"a tool that is not the skill choice; the request of turn {n - 1} with this "
            f"appended to its '{turn['appends_to']}' (the <…> parts are the model's answer "
            "as it comes; the bytes, and so the sha256, are known only then: each run "
            "records them as turn_sha256)"
        )
        env.print(printable(json.dumps(turn["added"], ensure_ascii=False)))  # one line
    env.print("")


COMMANDS = {"eval": cmd_eval}
