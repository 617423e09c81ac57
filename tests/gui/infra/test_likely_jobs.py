"""Tests of gui/infra/likely_jobs.py (The likely-candidates and overlap indexes of the
open projects, built off the GUI thread)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from skillstudio.core.model.skills import Skill
from skillstudio.core.projects.project import resolve_projects
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.scanning.registry import Registry
from skillstudio.gui.controllers import skill_views
from skillstudio.gui.editor.competes_line import CompetesLine
from skillstudio.gui.infra import background
from skillstudio.gui.infra.background import LatestJob
from skillstudio.gui.models.app_context import AppContext
from skillstudio.gui.window.main_window import MainWindow

from ...benchmarks.synth import generate
from ...helpers import skill_text, write
from ...test_likely_index_sync import _assert_same, _fresh
from ..parts import ask


def test_the_likely_index_is_built_off_the_gui_thread(
    qtbot: QtBot, settings: QSettings, collection: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built_on: list[threading.Thread] = []
    add_all = LikelyIndex.add_all

    def recording(self: LikelyIndex, skills: Iterable[Skill]) -> None:
        built_on.append(threading.current_thread())
        add_all(self, skills)

    monkeypatch.setattr(LikelyIndex, "add_all", recording)
    # (Problems' description-overlap notes build an index of their own off the GUI
    # thread a moment after the scan: not what is counted here)
    monkeypatch.setattr(skill_views, "overlap_pairs", lambda registry, index=None: None)
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(collection))
    panel = win.query_panel
    win.focus_query_panel()
    ask(panel, qtbot, "review my database migration")
    editor = win.open_skill(str(collection / "skills/sql-review/SKILL.md"))
    assert editor is not None
    line = editor.form.findChild(CompetesLine, "competes-with")
    assert line is not None
    qtbot.waitUntil(lambda: not line.working, timeout=10_000)  # built once shown
    with qtbot.waitSignal(win.overlap_map.computed, timeout=10_000):
        win.menu_actions.overlap_action.trigger()
    # Try a Request's, the overlap model's of the form's "competes with" line (shown)
    # and the map's own (a worker's, freed after)
    assert len(built_on) == 3
    assert all(thread is not threading.main_thread() for thread in built_on)


def test_a_likely_index_waits_for_its_registry_to_be_handed_to_the_panels(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tab opened while the scan worked out the gists asked for its project's likely
    index: built then, from skills without them, it ranked without the bodies until
    they changed. It is built once the registry is given to the panels."""
    generate(str(tmp_path / "few"), 5)
    project = resolve_projects([str(tmp_path / "few")], [], None, "agentskills", str(tmp_path))[0]
    registry = project.registry()
    registry.scan()
    started: list[Registry] = []
    real = LatestJob.submit

    def recording(self: LatestJob, *args: Any) -> None:
        # (an index build's job only: freeing replaced weights and weighing again are
        # jobs of their own, and one could land within the wait below)
        if self in context.likely_indexes._jobs.values():
            started.append(registry)
        real(self, *args)

    monkeypatch.setattr(LatestJob, "submit", recording)
    context = AppContext()  # the open projects the indexes are adopted by
    context.install([project], [registry])
    indexes = context.likely_indexes
    assert indexes.get(registry) is None
    assert started == [], "not built for a registry the panels were not given"
    with qtbot.waitSignal(indexes.ready, timeout=10_000):
        indexes.keep_only([registry])
    assert started == [registry]
    index = indexes.get(registry)
    assert index is not None and index.registry is registry
    # (the job's relay deleted before `indexes` goes: its deferred delete pending then crashed)
    qtbot.waitUntil(lambda: not background._waiting, timeout=5000)


def test_an_edit_that_moves_the_weights_has_them_worked_out_off_the_gui_thread(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """An edit moving a snapped average field length recomputed every weight in the
    sync, on the GUI thread: 1.3 s at 10,000 skills, per keystroke for an edit going
    back and forth across a step. The app's index now ranks on with the weights it has,
    a worker works the new ones out, and once they land it scores as a fresh build."""
    generate(str(tmp_path / "few"), 6)
    project = resolve_projects([str(tmp_path / "few")], [], None, "agentskills", str(tmp_path))[0]
    registry = project.registry()
    registry.scan()
    context = AppContext()
    context.install([project], [registry])
    indexes = context.likely_indexes
    assert indexes.get(registry) is None
    with qtbot.waitSignal(indexes.ready, timeout=10_000):
        indexes.keep_only([registry])
    index = indexes.get(registry)
    assert index is not None and not index.reweigh_due
    weighed_on: list[threading.Thread] = []
    real_job = index.weights_job

    def recorded_job() -> Any:
        work = real_job()

        def recorded() -> Any:
            weighed_on.append(threading.current_thread())
            return work()

        return recorded

    index.weights_job = recorded_job  # type: ignore[method-assign]
    path = sorted(registry.by_path)[0]
    skill = registry.by_path[path]
    words = " ".join(f"word{n}" for n in range(300))  # the average description: far off
    write(tmp_path, os.path.relpath(path, tmp_path), skill_text(name=skill.name, description=words))
    registry.refresh()
    postings = index.postings
    assert indexes.get(registry) is index
    assert index.reweigh_due and index.postings is postings  # nothing recomputed here
    qtbot.waitUntil(lambda: not index.reweigh_due, timeout=10_000)
    assert weighed_on and threading.main_thread() not in weighed_on
    assert index.postings is not postings
    qtbot.waitUntil(lambda: not postings, timeout=5000)  # the replaced freed by a worker
    own = list(index.own.values())
    _assert_same(index, _fresh(registry, own))
    qtbot.waitUntil(lambda: not background._waiting, timeout=5000)
