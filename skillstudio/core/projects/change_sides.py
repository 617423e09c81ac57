"""The two readings `skillstudio diff` and the app's "Compare with…" compare: a git
revision's copy (core/projects/git_tree.py) or another folder, against the working
tree or a second revision; the change report of the two (change_report.py).

The command line's paths (PATH, --root, --project) and the folder it runs in are read
inside each tree at the same place relative to the repository's top."""

from __future__ import annotations

import os
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

from ..scanning.state_cache import StateCache
from .borrowed_states import BorrowedStates, changed_between, changed_paths
from .change_picks import Live
from .change_report import ChangeReport, Side, compare
from .git_tree import GitError, TreeCopy, copy_tree, repository_top, resolve
from .open_project import OpenProject
from .project import UsageError, resolve_projects

WORKING_TREE = "working tree"


@dataclass(slots=True)
class Reading:
    """What to read on each side: as a reading command takes it."""

    cwd: str
    paths: list[str] = field(default_factory=list)
    roots: list[str] = field(default_factory=list)
    project: str | None = None
    profile: str | None = None
    tokens: int | None = None  # the context window chosen (--context-tokens, --model)
    options: dict[str, Any] = field(default_factory=dict)  # the same, as options
    cache: StateCache | None = None  # the cache of what was read, for the working tree
    # processes a large scan forks (1 where forking is unsafe: the app's worker thread)
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)


@dataclass(slots=True)
class Comparison:
    report: ChangeReport
    top: str
    commits: list[str]
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (commit, path) not read
    # the before side's reading, kept to rank a request of the report again
    # (before_ranking.py: the app's Try a Request beside a changed case)
    before: Side | None = None
    unnamed: int = 0  # more paths not read than `skipped` names

    def to_json(self) -> dict[str, Any]:
        data = self.report.to_json()
        after = self.commits[1] if len(self.commits) == 2 else None
        data["commits"] = {"before": self.commits[0] if self.commits else None, "after": after}
        data["repository"] = self.top
        return data


def _inside(path: str, top: str, what: str) -> str:
    """`path` relative to the repository's top (a UsageError if outside it)."""
    relative = os.path.relpath(os.path.realpath(path), top)
    if relative == ".." or relative.startswith(".." + os.sep) or os.path.isabs(relative):
        raise UsageError(f"{what} {path} is outside the repository ({top})")
    return "" if relative == "." else relative


def read_side(
    label: str, folder: str, top: str, reading: Reading, cache: StateCache | None
) -> Side:
    """The projects of one tree: `folder` holds the repository's files (the working
    tree itself, a revision's copy, or another folder laid out as the repository)."""

    def moved(path: str, what: str) -> str:
        return os.path.join(folder, _inside(os.path.join(reading.cwd, path), top, what))

    try:
        cwd = moved(reading.cwd, "the folder")
    except UsageError:  # run from outside, with PATHs inside: the defaults read the top
        if not (reading.paths or reading.roots or reading.project):
            raise
        cwd = folder
    paths = [moved(p, "PATH") for p in reading.paths]
    roots = [moved(r, "--root") for r in reading.roots]
    project = moved(reading.project, "--project") if reading.project else None
    projects = resolve_projects(paths, roots, project, reading.profile, cwd)
    opened = [OpenProject.read(p, workers=reading.workers, cache=cache) for p in projects]
    for item in opened:  # the likely ranking reads the listing at the window chosen
        item.use_window(reading.tokens)
    return Side(label, folder, opened)


def _lent(top: str, commits: list[str], copy: TreeCopy, after: Side) -> StateCache | None:
    """The after side's skills (the working tree's, or the second revision's) lent to
    the first revision's copy where their folders did not change (borrowed_states.py);
    None where git cannot say what changed."""
    try:
        if len(commits) == 2:
            changed = changed_between(top, commits[0], commits[1])
        else:
            changed = changed_paths(top, commits[0])
    except GitError:
        return None
    registries = [item.registry for item in after.projects]
    return BorrowedStates(after.top, copy.folder, changed, registries)


def compare_revisions(
    revisions: list[str], reading: Reading, live: Live | None = None
) -> Comparison:
    """REV (default HEAD) against the working tree, or REV1 against REV2. GitError: no
    git, not in a repository, a revision that names no commit."""
    start = os.path.join(reading.cwd, reading.paths[0]) if reading.paths else reading.cwd
    if not os.path.isdir(start):
        start = os.path.dirname(start)
    names = revisions or ["HEAD"]
    with ExitStack() as stack:
        top = repository_top(start)
        commits = [resolve(top, name) for name in names]
        copies: list[TreeCopy] = []
        for commit in commits:
            copies.append(copy_tree(top, commit))
            stack.callback(copies[-1].close, background=True)
        if len(copies) == 2:
            after = read_side(names[1], copies[1].folder, top, reading, None)
        else:
            after = read_side(WORKING_TREE, top, top, reading, reading.cache)
        lent = _lent(top, commits, copies[0], after)
        before = read_side(names[0], copies[0].folder, top, reading, lent)
        report = compare(before, after, reading.options, live)
    skipped = [(c.commit, path) for c in copies for path in c.skipped]
    return Comparison(report, top, commits, skipped, before, sum(c.unnamed for c in copies))


def compare_folder(folder: str, reading: Reading, live: Live | None = None) -> Comparison:
    """Another folder (a copy of the project, another checkout) against the working
    tree: the folder is read as the repository's top would be (the paths given inside
    it at the same places)."""
    if not os.path.isdir(folder):
        raise UsageError(f"{folder}: not a folder")
    start = os.path.join(reading.cwd, reading.paths[0]) if reading.paths else reading.cwd
    try:
        top = repository_top(start if os.path.isdir(start) else os.path.dirname(start))
    except GitError:  # not in a repository: the folder the command reads is the top
        top = os.path.realpath(reading.cwd)
    after = read_side(WORKING_TREE, top, top, reading, reading.cache)
    before = read_side(os.path.basename(folder) or folder, folder, top, reading, None)
    return Comparison(compare(before, after, reading.options, live), top, [], before=before)
