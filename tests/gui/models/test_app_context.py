"""Tests of gui/models/app_context.py (the open projects, the current one, and the panels
that follow it: Try a Request, Suites and the Overlap Map)."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from skillstudio.core.ranking.match_index import MatchIndex
from skillstudio.gui.panels.overlap_map import OverlapMap
from skillstudio.gui.panels.suite_runner import SuiteRunner
from skillstudio.gui.panels.workbench.query_panel import QueryPanel

from ..parts import context_of


def number_of(panel: QueryPanel, profile: str) -> int:
    return next(n for n, p in enumerate(panel.context.projects) if p.profile.name == profile)


def test_switching_the_current_project_moves_the_three_panels_together(
    qtbot: QtBot, samples: Path
) -> None:
    context = context_of(samples)
    query, runner, overlap = QueryPanel(context), SuiteRunner(context), OverlapMap(context)
    for panel in (query, runner, overlap):
        qtbot.addWidget(panel)
    context.announce()
    assert context.current is context.open_projects[0]
    seen: list[object] = []
    context.current_changed.connect(seen.append)
    for profile in ("oasis", "claude-code", "oasis"):
        number = number_of(query, profile)
        context.choose(number)
        current = context.current
        assert current is not None and seen[-1] is current
        base = current.project.base
        assert query.project is current.project and query.registry is current.registry
        assert query.project_box.currentIndex() == number
        assert overlap.project_box.currentData() == base and overlap.registry is current.registry
        own = str(samples / profile / "suites" / f"{profile}.yaml")
        assert runner.suite_box.currentData() == own
    # the other way: Try a Request's project box sets the context's current project
    number = number_of(query, "claude-code")
    query.project_box.setCurrentIndex(number)
    assert context.current is context.open_projects[number]
    assert overlap.project_box.currentData() == context.open_projects[number].project.base


def test_a_query_panel_built_alone_over_a_context_answers_with_the_contexts_index(
    qtbot: QtBot, samples: Path
) -> None:
    context = context_of(samples)
    panel = QueryPanel(context)
    qtbot.addWidget(panel)
    context.announce()
    context.choose(number_of(panel, "oasis"))
    panel.query.setText("code review please, find bugs in my commit")
    panel.update_now()
    assert panel.result is not None and panel.model.rows
    current = context.current
    assert current is not None
    built = [i for i in current.built() if isinstance(i, MatchIndex)]
    assert len(built) == 1 and built[0].registry is current.registry  # the open project's
    assert context.match_index(current.registry) is built[0]
    # sessions are the context's, one per project
    panel.send()
    assert context.session(current.registry).history


def test_the_current_project_is_kept_by_its_folder_when_the_projects_are_read_again(
    qtbot: QtBot, samples: Path
) -> None:
    context = context_of(samples)
    context.announce()
    context.choose(2)
    base = context.open_projects[2].project.base
    again = context_of(samples)  # the same folder read again: other registries
    context.install(again.projects, again.registries)
    changed: list[object] = []
    context.current_changed.connect(changed.append)
    context.announce()
    assert context.current is not None and context.current.project.base == base
    assert changed == [context.current]
    context.open("")
    context.install([], [])
    context.announce()
    assert context.current is None and changed[-1] is None
