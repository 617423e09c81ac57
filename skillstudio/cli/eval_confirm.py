"""What `eval` says before it spends and while it runs, one text for a model asked over
its API (cli/eval_cmd.py) and for the real agent's CLI (cli/eval_agent.py): an option
out of its range, the warnings about the statistics, what will be run and what it
costs, the runs the cache answers, the question before anything is spent, and the
progress lines."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..core.model.text import counted
from ..core.projects.project import UsageError
from .common import Env
from .output import printable

if TYPE_CHECKING:
    from ..core.live.planning import Plan, Settings
    from ..core.live.run import Progress


def valid_settings(settings: Settings) -> Settings:
    """`settings`, or a UsageError (exit 2) naming the option out of its range."""
    from ..core.live.planning import LiveError

    try:
        settings.check()
    except LiveError as exc:
        raise UsageError(str(exc)) from None
    return settings


def confirm_runs(
    env: Env,
    args: argparse.Namespace,
    settings: Settings,
    plans: Sequence[Plan],
    what: Callable[[int], str],
    undone: str,
) -> bool:
    """The settings' warnings, then, when `plans` have calls to make (not --offline):
    "About to " + `what(calls)` (what will be run, where, what it costs) and the runs
    the cache answers, and the question (--yes: none). False when it is refused, after
    "nothing was `undone`"."""
    judged = any(item.case.judged for p in plans for item in p.items)
    for warning in settings.warnings(judged):
        env.err.write(f"skillstudio: warning: {warning}\n")
    calls = sum(p.calls for p in plans)
    if not calls or settings.offline:
        return True
    cached = sum(len(p.cached) for p in plans)
    text = f"About to {what(calls)}" + (
        f"; {counted(cached, 'run')} from the cache" if cached else ""
    )
    if ask_to_send(env, args, text):
        return True
    env.err.write(f"nothing was {undone}\n")
    return False


def ask_to_send(
    env: Env,
    args: argparse.Namespace,
    text: str,
    refused: str = "not sending without a yes: add --yes (or --offline to use the cache)",
) -> bool:
    """`text` (what will be sent and what it costs), then the question, on stderr: True
    at once with --yes; a UsageError (`refused`) where no one can answer it."""
    env.err.write(text + "\n")
    if args.yes:
        return True
    stdin = sys.stdin
    if stdin is None or not stdin.isatty():
        raise UsageError(refused)
    env.err.write("Send? [y/N] ")
    env.err.flush()
    return stdin.readline().strip().lower() in ("y", "yes")


def progress_lines(env: Env) -> Progress:
    """A progress line a run on stderr, when it is a terminal."""
    tty = env.err.isatty() if hasattr(env.err, "isatty") else False

    def progress(done: int, total: int, message: str) -> None:
        if tty:
            env.err.write(printable(f"[{done}/{total}] {message}") + "\n")

    return progress
