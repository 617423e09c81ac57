"""`eval --agent-cli claude|codex|gemini`: the suites' requests (or `--request`s) put to
the installed agent's own CLI, N runs each, in a throwaway folder holding only the
skills (core/live/agent_cli.py, agent_run.py); the same statistics, cache and reports
as `eval` against a model (cli/eval_cmd.py; docs/live.md, "The real agent")."""

from __future__ import annotations

import argparse
import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.model.text import counted
from ..core.projects.project import UsageError
from .common import EXIT_FAIL, EXIT_INTERRUPTED, EXIT_OK, Env
from .eval_confirm import confirm_runs, progress_lines, valid_settings
from .output import dumps, printable

if TYPE_CHECKING:
    from ..core.live.agent_run import AgentPlan, AgentSetup
    from ..core.live.cache import AnswerCache
    from ..core.live.planning import Settings
    from ..core.live.stats import LiveCase
    from ..core.scanning.registry import Registry

    Planner = Callable[
        [Registry, list[LiveCase], Settings, dict[str, Any], AnswerCache, bool], AgentPlan
    ]


@dataclass(frozen=True, slots=True)
class Shared:
    """What `eval` against a model and `eval --agent-cli` share, handed over by
    cli/eval_cmd.py (which imports this module, never the other way round): the
    suites' planning with a planner of one's own, the reports and the exit code."""

    plans: Callable[..., list[tuple[str, Any, Any]]]
    output: Callable[..., int]


def add_agent_arguments(parser: argparse.ArgumentParser) -> None:
    """`eval`'s options for the real agent."""
    parser.add_argument(
        "--agent-cli",
        choices=("claude", "codex", "gemini"),
        help="run the installed agent's own CLI non-interactively in a throwaway folder "
        "holding only the skills, tools denied or sandboxed, and read the skill it "
        "invokes from its event stream (docs/live.md, 'The real agent')",
    )
    parser.add_argument(
        "--agent-cli-path",
        metavar="FILE",
        help="the agent's executable (default: found on PATH)",
    )


def cmd_eval_agent(args: argparse.Namespace, env: Env, shared: Shared) -> int:
    from ..core.live.agent_cli import AGENTS, AgentError, agent_version, find_executable
    from ..core.live.agent_run import AgentPlan, AgentReport, AgentSetup, execute_agent
    from ..core.live.cache import AnswerCache

    if not args.agent_cli:
        raise UsageError("--agent-cli-path goes with --agent-cli claude|codex|gemini")
    settings = _settings(args)
    agent = AGENTS[args.agent_cli]
    try:  # before anything is planned: a missing agent is said first (exit 2)
        given = os.path.join(env.cwd, args.agent_cli_path) if args.agent_cli_path else None
        executable = find_executable(agent, given)
        version = agent_version(executable)
    except AgentError as exc:
        raise UsageError(str(exc)) from None
    setup = AgentSetup(agent, executable, version, args.model)
    cache = AnswerCache()
    not_judged: list[Any] = []  # the suites' cases eval does not judge, listed as eval's
    plans = shared.plans(args, env, settings, cache, _planner(setup), not_judged=not_judged)
    checked_plans = [(name, p) for name, p, _ in plans if isinstance(p, AgentPlan)]
    if args.show_request:
        _show(args, env, checked_plans)
        return EXIT_OK

    def what(runs: int) -> str:
        return (
            f"run {agent.executable} ({version or agent.title}) {counted(runs, 'time')}, "
            "each in a new temporary folder holding only the skills; each run is the "
            "agent's own session, billed to its login"
        )

    if not confirm_runs(env, args, settings, [p for _, p in checked_plans], what, "run"):
        return EXIT_FAIL
    cancel = threading.Event()
    progress = progress_lines(env)
    reports: list[tuple[str, AgentReport]] = []
    for name, checked in checked_plans:
        reports.append((name, execute_agent(checked, cache, cancel, progress)))
    code = shared.output(args, env, reports, not_judged)
    if not cancel.is_set():
        return code
    env.err.write(
        "skillstudio: eval cancelled (Ctrl+C): the agents running were stopped; the "
        "runs before are reported above and kept in the cache\n"
    )
    return EXIT_INTERRUPTED


def _settings(args: argparse.Namespace) -> Settings:
    from ..core.live.client import Limits
    from ..core.live.endpoints import Endpoint
    from ..core.live.planning import Settings

    endpoint = Endpoint(args.agent_cli, f"agent-cli:{args.agent_cli}", "anthropic")
    settings = Settings(
        endpoint,
        args.model or "",
        args.runs,
        1.0,  # the agent's own sampling: no temperature is set
        args.concurrency,
        Limits(timeout=args.timeout),
        args.offline,
        args.pass_rate,
        None,
        0.0,
        args.min_runs,
    )
    return valid_settings(settings)


def _planner(setup: AgentSetup) -> Planner:
    """eval_cmd's planner for the agent: the skills of each project copied as files."""
    from ..core.live.agent_cli import AgentError, skill_files
    from ..core.live.agent_run import plan_agent

    def planner(
        registry: Registry,
        cases: list[LiveCase],
        settings: Settings,
        options: dict[str, Any],
        cache: AnswerCache,
        estimate: bool,
    ) -> AgentPlan:
        try:
            files = skill_files(list(registry.active.values()))
        except AgentError as exc:
            raise UsageError(str(exc)) from None
        return plan_agent(registry, cases, settings, setup, files, cache, options, estimate)

    return planner


def _show(args: argparse.Namespace, env: Env, plans: list[tuple[str, AgentPlan]]) -> None:
    """`--show-request`: what each run would be (the argv, the skills copied, the
    request on stdin, the descriptor and its sha256); nothing is run."""
    from ..core.live.agent_run import show_json

    shown = [dict(entry, suite=name) for name, p in plans for entry in show_json(p)]
    if args.format == "json":
        env.print(dumps({"requests": shown}))
        return
    for entry in shown:
        runs = counted(entry["runs"], "run")
        env.print(
            printable(
                f"{entry['suite']}: {entry['query']!r} ({runs}, {entry['cached_runs']} in "
                "the cache)"
            )
        )
        if entry["harness"]:
            env.print(printable(f"resolved by the harness: {entry['harness']} (never run)"))
            env.print("")
            continue
        env.print(printable("argv: " + json.dumps(entry["agent"]["argv"], ensure_ascii=False)))
        env.print(f"cwd: {entry['cwd']}, holding:")
        for path in entry["skills"]:
            env.print(printable(f"  {path}"))
        env.print(printable(f"stdin: {entry['stdin']}"))
        env.print(f"request_sha256: {entry['request_sha256']}")
        env.print(printable(json.dumps(entry["descriptor"], ensure_ascii=False)))
        env.print("")
    env.print(f"{counted(len(shown), 'request')} shown; nothing was run")
