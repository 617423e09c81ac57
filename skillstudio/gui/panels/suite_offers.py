"""Which suites the Suites panel offers, and which it turns to: the suites each open
project's skillstudio.yaml lists, then those the app keeps for it (a case was added to
a file the user chose not to list: gui/infra/settings_store.py `kept_suites`); and,
when the user works on another project, that project's first listed suite in place of
the suite of another project shown. Every suite offered lies in its project's folder
(a file kept for a project that lies elsewhere, as older versions kept one, is left
out), and a new suite file starts in the project's suites/ folder: what Try a
Request's "Add as test case…" proposes (workbench/add_case.py) too. No Qt: the panel
(suite_runner.py) shows them."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from ...core.model.paths import is_within
from ...core.projects.project import Project

NEW_SUITE = "new-suite.yaml"  # the name a new suite file's dialog proposes


def own_suites(base: str, paths: Iterable[str]) -> list[str]:
    """The files of `paths` that lie in the project folder `base`, absolute, once each:
    a project's suites are its own (skillstudio.yaml lists only files in its folder)."""
    absolute = (os.path.abspath(path) for path in paths)
    return list(dict.fromkeys(p for p in absolute if is_within(p, os.path.abspath(base))))


def new_suite_start(base: str) -> str:
    """Where a new suite file's dialog starts for the project at `base`: its suites/
    folder, else the project's own folder (a folder that does not exist made Qt's
    dialog start in the folder it showed last, another project's)."""
    folder = os.path.join(base, "suites")
    return os.path.join(folder if os.path.isdir(folder) else base, NEW_SUITE)


def offered_suites(projects: list[Project], kept: Callable[[str], list[str]]) -> list[str]:
    """Every suite to offer for `projects`, once each, listed ones first; a kept file
    that is gone, or lies outside its project's folder, is left out."""
    listed = [path for p in projects if p.config is not None for path in p.config.suites]
    remembered = [path for p in projects for path in own_suites(p.base, kept(p.base))]
    remembered = [path for path in remembered if os.path.isfile(path)]
    return list(dict.fromkeys([*listed, *remembered]))


def followed_suite(projects: list[Project], base: str | None, shown: object) -> str | None:
    """The suite to show when the user works on the project at `base`: its first listed
    suite when the suite `shown` is another open project's; None to leave it (a suite
    opened by hand, or a project without suites)."""
    own = {p.base: [os.path.abspath(s) for s in p.config.suites] for p in projects if p.config}
    mine = own.get(str(base))
    if not isinstance(shown, str) or not mine:
        return None
    shown = os.path.abspath(shown)
    theirs = {path for b, paths in own.items() if b != base for path in paths}
    if shown in mine or shown not in theirs:
        return None
    return mine[0]
