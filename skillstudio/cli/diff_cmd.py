"""`diff`: what a change does to triggering, a revision against the working tree or
two revisions (core/projects/change_report.py; the revision's files from git's objects,
core/projects/git_tree.py)."""

from __future__ import annotations

import argparse
import os
from contextlib import ExitStack
from typing import TYPE_CHECKING

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
from .diff_report import diff_markdown, diff_text
from .output import dumps

if TYPE_CHECKING:
    from ..core.projects.change_picks import Live
    from ..core.projects.change_report import Side
    from ..core.scanning.state_cache import StateCache

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


def _inside(path: str, top: str, what: str) -> str:
    """`path` relative to the repository's top (a UsageError if outside it)."""
    full = os.path.realpath(path)
    relative = os.path.relpath(full, top)
    if relative == ".." or relative.startswith(".." + os.sep) or os.path.isabs(relative):
        raise UsageError(f"{what} {path} is outside the repository ({top})")
    return "" if relative == "." else relative


def _side(
    label: str,
    folder: str,
    top: str,
    args: argparse.Namespace,
    paths: list[str],
    env: Env,
    tokens: int | None,
    lent: StateCache | None = None,
) -> Side:
    """The projects of one tree: `folder` holds the repository's files (the working tree
    itself, or a revision's copy); the command line's paths read inside it."""
    from ..core.projects.change_report import Side
    from ..core.projects.open_project import OpenProject

    def moved(path: str, what: str) -> str:
        return os.path.join(folder, _inside(os.path.join(env.cwd, path), top, what))

    try:
        cwd = moved(env.cwd, "the folder")
    except UsageError:  # run from outside, with PATHs inside: the defaults read the top
        if not (paths or args.root or args.project):
            raise
        cwd = folder
    mapped_paths = [moved(p, "PATH") for p in paths]
    roots = [moved(r, "--root") for r in args.root]
    project = moved(args.project, "--project") if args.project else None
    projects = resolve_projects(mapped_paths, roots, project, args.profile, cwd)
    # a copy's paths are temporary: what it has as the working tree has it is lent
    cache = state_cache(args) if folder == top else lent
    workers = os.cpu_count() or 1
    opened = [OpenProject.read(p, workers=workers, cache=cache) for p in projects]
    for item in opened:  # the likely ranking reads the listing at the window chosen
        item.use_window(tokens)
    return Side(label, folder, opened)


def _lent(top: str, commit: str, folder: str, after: Side) -> StateCache | None:
    """The working tree's skills lent to the revision's copy where their folders did not
    change (core/projects/borrowed_states.py); None where git cannot say what changed."""
    from ..core.projects.borrowed_states import BorrowedStates, changed_paths
    from ..core.projects.git_tree import GitError

    try:
        changed = changed_paths(top, commit)
    except GitError:
        return None
    registries = [item.registry for item in after.projects]
    return BorrowedStates(top, folder, changed, registries)


def _live(args: argparse.Namespace) -> Live | None:
    """The model whose cached answers give each request's pick (--endpoint, --model)."""
    if args.endpoint is None:
        return None
    from ..core.live.cache import AnswerCache
    from ..core.live.endpoints import EndpointError, endpoint_for
    from ..core.live.run import Settings
    from ..core.projects.change_picks import Live

    if not args.model:
        raise UsageError("--endpoint needs --model: the model whose cached answers are read")
    try:
        endpoint = endpoint_for(args.endpoint)
    except EndpointError as exc:
        raise UsageError(str(exc)) from None
    return Live(Settings(endpoint, args.model, offline=True), AnswerCache())


def cmd_diff(args: argparse.Namespace, env: Env) -> int:
    from ..core.projects.change_report import compare
    from ..core.projects.git_tree import GitError, copy_tree, repository_top, resolve
    from ..core.projects.model_windows import with_window

    live = _live(args)
    # (a live model not in the table of windows keeps the project's window, as in eval)
    window = window_from(args, env, model=args.model if live is not None else None)
    tokens = window.context_tokens if window is not None else None
    revisions, paths = _split(args.words, env.cwd)
    start = os.path.join(env.cwd, paths[0]) if paths else env.cwd
    if not os.path.isdir(start):
        start = os.path.dirname(start)
    with ExitStack() as stack:
        try:
            top = repository_top(start)
            commits = [resolve(top, rev) for rev in revisions or ["HEAD"]]
            copies = []
            for commit in commits:
                copies.append(copy_tree(top, commit))
                stack.callback(copies[-1].close, background=True)
        except GitError as exc:
            raise UsageError(str(exc)) from None
        for copy in copies:
            for skipped in copy.skipped[:5]:
                env.err.write(
                    f"skillstudio: warning: {skipped} at {copy.commit[:12]}: not read "
                    "(over the size or count bounds)\n"
                )
        names = revisions or ["HEAD"]
        if len(copies) == 2:
            before = _side(names[0], copies[0].folder, top, args, paths, env, tokens)
            after = _side(names[1], copies[1].folder, top, args, paths, env, tokens)
        else:
            after = _side("working tree", top, top, args, paths, env, tokens)
            lent = _lent(top, commits[0], copies[0].folder, after)
            before = _side(names[0], copies[0].folder, top, args, paths, env, tokens, lent)
        options = with_window({}, window)
        report = compare(before, after, options, live)
        data = report.to_json()
        data["commits"] = {"before": commits[0], "after": commits[1] if len(commits) == 2 else None}
        data["repository"] = top
        if args.format == "json":
            env.print(dumps(data))
        elif args.format == "markdown":
            env.print(diff_markdown(data))
        else:
            for line in diff_text(data):
                env.print(line)
    return EXIT_FAIL if report.exit_fails(args.fail_on) else EXIT_OK


COMMANDS = {"diff": cmd_diff}
