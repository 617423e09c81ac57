"""Which suites the Suites panel offers, and which it turns to: the suites each open
project's skillstudio.yaml lists, then those the app keeps for it (a case was added to
a file the user chose not to list: gui/infra/settings_store.py `kept_suites`); and,
when the user works on another project, that project's first listed suite in place of
the suite of another project shown. No Qt: the panel (suite_runner.py) shows them."""

from __future__ import annotations

import os
from collections.abc import Callable

from ...core.projects.project import Project


def offered_suites(projects: list[Project], kept: Callable[[str], list[str]]) -> list[str]:
    """Every suite to offer for `projects`, once each, listed ones first; a kept file
    that is gone is left out."""
    listed = [path for p in projects if p.config is not None for path in p.config.suites]
    remembered = [path for p in projects for path in kept(p.base) if os.path.isfile(path)]
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
