"""Which project a suite runs against: one rule for the CLI (`skillstudio test`) and
the app's suite runner (suite_project)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence

from ..model.paths import is_within
from ..model.text import counted
from ..profiles import get_profile
from .config import find_config_upward, load_config
from .project import (
    Project,
    UsageError,
    project_from_folder,
    project_from_roots,
    resolve_projects,
)
from .suite_cases import Suite
from .suite_formats import skill_folder_of
from .suite_home import named_outside, suite_home


def suite_project(
    suite: Suite,
    profile_name: str | None = None,
    cwd: str | None = None,
    roots: Sequence[str] = (),
    project: str | None = None,
    open_projects: Sequence[Project] = (),
    paths: Sequence[str] = (),
) -> Project:
    """The project a suite runs against; the CLI and the app share this rule:

    1. the suite's own `roots:` (relative to the suite) and `profile:`;
    2. the `--root` folders, `--project` or PATHs given on the command line;
       then a request set's `corpus:` folder (the skills found below it);
    3. an eval set or Skill Lab file in a skill folder: the project that holds that
       skill (the one of a skillstudio.yaml above it, else the current folder's, else
       the folder of skills around it);
    4. the project of a skillstudio.yaml in the suite's folder or above it;
    5. the current folder, as every command: skillstudio.yaml, else ./skills, else `.`
       (with no current folder: the suite's folder).

    The app passes its open projects (the one being worked on first) and no folder:
    it stands where `skillstudio test SUITE` would be run, in the open project whose
    skillstudio.yaml lists the suite, else in the first, with that project's profile
    when the user chose it (as --profile). When an open project has the profile and
    roots chosen, that project itself is the answer (its unsaved edits count).
    """
    if open_projects and cwd is None:
        home = _listing(suite, open_projects) or open_projects[0]
        cwd = home.base
        if profile_name is None and home.profile_reason == "--profile":
            profile_name = home.profile.name
    chosen = _suite_project(suite, profile_name, cwd, roots, project, paths, open_projects)
    wanted = _identity(chosen)
    return next((p for p in open_projects if _identity(p) == wanted), chosen)


def _listing(suite: Suite, projects: Sequence[Project]) -> Project | None:
    path = os.path.abspath(suite.path)
    for candidate in projects:
        listed = candidate.config.suites if candidate.config is not None else []
        if path in (os.path.abspath(s) for s in listed):
            return candidate
    return None


def _identity(project: Project) -> tuple[str, list[str]]:
    return project.profile.name, [root.path for root in project.roots]


def _suite_project(
    suite: Suite,
    profile_name: str | None,
    cwd: str | None,
    roots: Sequence[str],
    project: str | None,
    paths: Sequence[str] = (),
    open_projects: Sequence[Project] = (),
) -> Project:
    folder = os.path.dirname(os.path.abspath(suite.path))
    profile_name = suite.profile or profile_name
    given = bool(roots or project or paths)
    refused = _named_outside(suite, given)
    if suite.roots and not refused:
        chosen = project_from_roots(suite.roots, profile_name, cwd or folder)
    elif given:
        found = resolve_projects(list(paths), list(roots), project, profile_name, cwd or folder)
        chosen = found[0]
    elif suite.corpus:  # a request set (tests/eval/README.md): the skills below it
        chosen = project_from_folder(suite.corpus, profile_name)
    elif (skill_dir := _own_skill_folder(suite)) is not None:
        chosen = _project_holding(skill_dir, profile_name, cwd)
    elif (config := find_config_upward(folder)) is not None:
        home = os.path.dirname(config.path)
        chosen = _open_at(home, profile_name, open_projects) or project_from_folder(
            home, profile_name
        )
    elif cwd is None:
        chosen = project_from_folder(folder, profile_name)
    elif (same := _open_at(cwd, profile_name, open_projects)) is not None:
        chosen = same  # (resolve_projects in a project's folder: that project)
    else:
        found = resolve_projects([], [], None, profile_name, cwd)
        if len(found) != 1:
            names = ", ".join(os.path.relpath(p.base, cwd) for p in found)
            raise UsageError(
                f"the current folder holds {counted(len(found), 'project')} ({names}); "
                f"choose one for {os.path.basename(suite.path)} with --project"
            )
        chosen = found[0]
    if suite.profile and not any(chosen is p for p in open_projects):
        chosen.profile = get_profile(suite.profile)
    return chosen


def _open_at(
    folder: str, profile_name: str | None, open_projects: Sequence[Project]
) -> Project | None:
    """The open project that `project_from_folder(folder, profile_name)` would read
    again, without reading it: its skillstudio.yaml names the roots and the profile
    (or `profile_name` does) as when it was opened. Reading it again walks every
    folder below it for skills the roots leave out, 100-200 ms at 10,000 skills on
    the GUI thread at each run of a suite."""
    folder = os.path.abspath(folder)
    for candidate in open_projects:
        had = candidate.config
        if os.path.abspath(candidate.base) != folder or had is None or not had.roots:
            continue
        now = load_config(folder)
        if now is None or now.roots != had.roots or now.profile != had.profile:
            return None  # the file changed since: read the project again
        if (profile_name or now.profile) == candidate.profile.name:
            return candidate
    return None


def _named_outside(suite: Suite, given: bool) -> bool:
    """Whether the suite's `roots:` (else its `corpus:`) name a folder outside its home
    (suite_home.py). Then the skills named on the command line (`given`) are used
    instead; with none, the refusal is a UsageError at the entry's place."""
    home = suite.home or suite_home(suite.path)
    named: list[tuple[str, tuple[str | int, ...], str]] = [
        ("roots", ("roots", index), root) for index, root in enumerate(suite.roots)
    ]
    if not suite.roots and suite.corpus and not given:
        named.append(("corpus", ("corpus",), suite.corpus))
    for key, keys, path in named:
        why = named_outside(suite.place(*keys), key, path, home)
        if why is None:
            continue
        if given:
            return True
        raise UsageError(why)
    return False


def _own_skill_folder(suite: Suite) -> str | None:
    return skill_folder_of(suite.path) if suite.kind != "suite" else None


def _project_holding(skill_dir: str, profile_name: str | None, cwd: str | None) -> Project:
    """The project whose roots hold a skill folder, else its parent as the only root."""
    candidates: list[Project] = []
    config = find_config_upward(skill_dir)
    if config is not None:
        candidates.append(project_from_folder(os.path.dirname(config.path), profile_name))
    if cwd is not None:
        with contextlib.suppress(UsageError):  # a folder of several projects
            candidates.extend(resolve_projects([], [], None, profile_name, cwd))
    for candidate in candidates:
        if any(is_within(skill_dir, root.path) for root in candidate.roots):
            return candidate
    parent = os.path.dirname(skill_dir)
    return project_from_roots([parent], profile_name, parent)
