"""`diff`: what a change does to triggering, a revision against the working tree or
two revisions (core/projects/change_report.py; the revision's files from git's objects,
core/projects/git_tree.py)."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from ..core.projects.project import UsageError
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
from .diff_report import diff_markdown, diff_text
from .output import dumps, printable

if TYPE_CHECKING:
    from ..core.projects.change_picks import Live

FAIL_ON = ("regression", "change", "never")


def register(sub: Subparsers) -> None:
    diff = sub.add_parser(
        "diff",
        help="what a change does to triggering: a revision against the working tree",
        description="Compare the skills at a git revision (default HEAD) with the working "
        "tree, or two revisions: skills added, removed and renamed; each agent's listing "
        "before and after; every suite case and each description's own request, selected "
        "and likely skill before and after; diagnostics new and resolved. A case that held "
        "before and fails now is a regression (exit 1). The revision is read from git's "
        "objects: nothing is checked out or written in the repository.",
    )
    diff.add_argument(
        "words",
        nargs="*",
        metavar="REV|PATH",
        help="up to two revisions (a branch, tag, commit, HEAD~1; one: against the working "
        "tree) and the PATHs to read, as lint takes them. A word that names a file or "
        "folder here is a PATH (write a branch of the same name as refs/heads/NAME)",
    )
    diff.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default="regression",
        help="exit 1 on a regression (default), on any change to a skill or a case, or never",
    )
    diff.add_argument(
        "--endpoint",
        metavar="NAME|URL",
        help="with --model: the model's pick of each request on both sides, from the "
        "answers `eval` cached for that endpoint and model (nothing is sent)",
    )
    add_window(diff, "the context window in tokens (budgets that depend on it)")
    add_common(diff, formats=("text", "json", "markdown"))


def _split(words: list[str], cwd: str) -> tuple[list[str], list[str]]:
    revisions: list[str] = []
    paths: list[str] = []
    for word in words:
        (paths if os.path.exists(os.path.join(cwd, word)) else revisions).append(word)
    if len(revisions) > 2:
        raise UsageError(
            f"at most two revisions (got {', '.join(revisions)}); a PATH must exist here"
        )
    return revisions, paths


def _live(args: argparse.Namespace) -> Live | None:
    """The model whose cached answers give each request's pick (--endpoint, --model)."""
    if args.endpoint is None:
        return None
    from ..core.live.cache import AnswerCache
    from ..core.live.endpoints import EndpointError, endpoint_for
    from ..core.live.planning import Settings
    from ..core.projects.change_picks import Live

    if not args.model:
        raise UsageError("--endpoint needs --model: the model whose cached answers are read")
    try:
        endpoint = endpoint_for(args.endpoint)
    except EndpointError as exc:
        raise UsageError(str(exc)) from None
    return Live(Settings(endpoint, args.model, offline=True), AnswerCache())


def cmd_diff(args: argparse.Namespace, env: Env) -> int:
    from ..core.projects.change_sides import Reading, compare_revisions
    from ..core.projects.git_tree import GitError
    from ..core.projects.model_windows import with_window

    live = _live(args)
    # (a live model not in the table of windows keeps the project's window, as in eval)
    window = window_from(args, env, model=args.model if live is not None else None)
    revisions, paths = _split(args.words, env.cwd)
    reading = Reading(
        env.cwd,
        paths,
        list(args.root),
        args.project,
        args.profile,
        window.context_tokens if window is not None else None,
        with_window({}, window),
        state_cache(args),
    )
    try:
        compared = compare_revisions(revisions, reading, live)
    except GitError as exc:
        raise UsageError(str(exc)) from None
    for commit, path in compared.skipped[:5]:
        env.err.write(
            f"skillstudio: warning: {printable(path)} at {commit[:12]}: not read "
            "(over the size or count bounds, or named twice)\n"
        )
    more = len(compared.skipped) - 5 + compared.unnamed
    if more > 0:
        env.err.write(f"skillstudio: warning: {more:,} more files not read\n")
    data = compared.to_json()
    if args.format == "json":
        env.print(dumps(data))
    elif args.format == "markdown":
        env.print(diff_markdown(data))
    else:
        for line in diff_text(data):
            env.print(line)
    return EXIT_FAIL if compared.report.exit_fails(args.fail_on) else EXIT_OK


COMMANDS = {"diff": cmd_diff}
