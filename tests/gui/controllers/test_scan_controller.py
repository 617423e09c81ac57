"""Tests of gui/controllers/scan_controller.py (Scans of the open folder off the GUI
thread: the scan thread of a folder opened, and of a project read as another profile;
where their registries pass to the GUI thread)."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox, QProgressBar
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.project import resolve_projects
from skillstudio.core.ranking.match_index import MatchIndex
from skillstudio.core.scanning.registry import Registry
from skillstudio.gui.controllers import scan_controller as scanning_module
from skillstudio.gui.controllers.scan_controller import Landed, Rescanned, Scanning
from skillstudio.gui.infra import scan_thread as scanner
from skillstudio.gui.models.app_context import AppContext
from skillstudio.gui.models.skill_tree_model import KIND_ROLE
from skillstudio.gui.window.main_window import MainWindow

from ...benchmarks.synth import generate
from ..faults import description, fail_for, problem_on, set_description, shown
from ..parts import (
    Shell,
    all_rows,
    big_folder_and_window,
    open_window,
    three_skills,
)


def scanning_for(shell: Shell) -> tuple[Scanning, AppContext]:
    context = AppContext()
    progress = QProgressBar(shell.window)
    return Scanning(context, progress, shell.status, shell.window), context


def test_large_folder_scans_in_the_background_with_progress(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    folder, window = big_folder_and_window(qtbot, settings, tmp_path, 300)
    with qtbot.waitSignal(window.scan_finished, timeout=30_000):
        assert window.open_path(str(folder))
        assert window.scanning and window.progress.isVisible()
        assert window.tree_model.rowCount() == 0  # nothing half-read is shown
    assert not window.scanning and not window.progress.isVisible()
    assert window.progress.maximum() == 300 and window.progress.value() == 300
    skills = [i for i in all_rows(window.tree_model) if i.data(KIND_ROLE) == "skill"]
    assert len(skills) == 300
    assert window.statusBar().currentMessage().startswith("300 skills")


def test_a_failing_scan_keeps_the_folder_and_its_watcher(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warnings.append(str(a[2])))
    root = tmp_path / "skills"
    skills = three_skills(root)
    lift = fail_for(monkeypatch, "load", skills["beta"])
    win = open_window(qtbot, settings, root)
    assert not warnings, "no modal dialog; the failure is in Problems"
    assert any(problem_on(win, p) is not None for p in (root, skills["beta"])), (
        "the failure is shown"
    )
    assert win.watcher.ready.wait(10)
    lift()  # the next change reads the folder again
    finished: list[bool] = []
    win.refresh_finished.connect(lambda: finished.append(True))
    set_description(skills["gamma"], "Changed after the failure.")
    # The registry takes the change a few slices before the tree and Problems show it
    # (checking right after the registry had it was a race): wait for the whole refresh.
    qtbot.waitUntil(
        lambda: bool(finished) and "after the failure" in description(win, skills["gamma"]),
        timeout=10_000,
    )
    assert all(shown(win, path) for path in skills.values())
    assert problem_on(win, skills["beta"]) is None


def test_the_registries_enter_the_workspace_when_read_and_the_gists_land_after(
    qtbot: QtBot, tmp_path: Path, monkeypatch: Any
) -> None:
    generate(str(tmp_path / "many"), 30)
    shell = Shell(qtbot)
    scans, context = scanning_for(shell)
    projects = resolve_projects([str(tmp_path / "many")], [], None, "agentskills", os.getcwd())
    registries = [p.registry() for p in projects]
    context.open(str(tmp_path / "many"))
    set_on: list[bool] = []
    real = scanning_module.set_gists

    def noted(gists: Any) -> None:
        set_on.append(threading.current_thread() is threading.main_thread())
        real(gists)

    monkeypatch.setattr(scanning_module, "set_gists", noted)
    read: list[int] = []
    scans.read.connect(lambda _read: read.append(len(context.registries)))
    with qtbot.waitSignal(scans.landed, timeout=20_000) as landed:
        scans.start(projects, registries, lambda regs: None)
        assert scans.busy and context.registries == []
    assert read == [1] and context.registries == registries and not scans.busy
    result = landed.args[0]
    assert isinstance(result, Landed) and result.projects is projects and not result.errors
    assert [index.registry for index in result.indexes] == registries
    assert set_on == [True]
    assert sum(bool(s.gist) for s in registries[0].skills) == 30
    assert scans.progress.isHidden()


def test_a_cancelled_scan_lands_nothing(qtbot: QtBot, tmp_path: Path) -> None:
    generate(str(tmp_path / "many"), 300)
    shell = Shell(qtbot)
    scans, _workspace = scanning_for(shell)
    projects = resolve_projects([str(tmp_path / "many")], [], None, "agentskills", os.getcwd())
    registries = [p.registry() for p in projects]
    with qtbot.assertNotEmitted(scans.landed, wait=500):
        scans.start(projects, registries, lambda regs: None)
        scans.cancel()
        assert not scans.busy
    assert not any(s.gist for r in registries for s in r.skills)


def test_a_rescan_hands_its_registry_over_in_its_payload_only(qtbot: QtBot, tmp_path: Path) -> None:
    generate(str(tmp_path / "many"), 20)
    shell = Shell(qtbot)
    scans, context = scanning_for(shell)
    old = resolve_projects([str(tmp_path / "many")], [], None, None, os.getcwd())
    context.open(str(tmp_path / "many"))
    context.install(old, [p.registry() for p in old])
    project = resolve_projects([str(tmp_path / "many")], [], None, "agentskills", os.getcwd())[0]
    registry = project.registry()
    with qtbot.waitSignal(scans.rescanned, timeout=20_000) as rescanned:
        scans.rescan(old[0], project, registry)
    result = rescanned.args[0]
    assert isinstance(result, Rescanned) and result.registry is registry
    assert result.old is old[0] and result.project is project
    assert len(registry.skills) == 20 and all(s.gist for s in registry.skills)
    assert context.projects == old, "the switch's owner replaces it (ProjectProfiles)"
    context.open("elsewhere")  # another folder meanwhile: the rescan is dropped
    with qtbot.assertNotEmitted(scans.rescanned):
        scans.rescan(old[0], project, project.registry())
        qtbot.waitUntil(lambda: scans.switch_scan is None, timeout=20_000)


def test_the_tree_shows_skills_before_their_gists_are_worked_out(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A gist (the body in brief, for the likely ranking) costs twice the rest of
    reading a skill: the tree no longer waits for them (at 10,000 skills where the
    model chooses: 8.6 s → 3.4-3.8 s); they are in before anything ranks."""
    generate(str(tmp_path / "many"), 60)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    at_tree: list[int] = []
    shown = threading.Event()
    real = scanner.fill_gists

    def after_the_tree(*args: Any) -> int:  # (the scan thread waits for the test's look)
        assert shown.wait(10), "the tree was not filled before the gists were asked for"
        return real(*args)

    def look() -> None:
        if win.tree_model.rowCount():
            at_tree.append(sum(bool(s.gist) for r in win.context.registries for s in r.skills))
            shown.set()

    monkeypatch.setattr(scanner, "fill_gists", after_the_tree)
    win.tree_model.modelReset.connect(look)
    with qtbot.waitSignal(win.scan_finished, timeout=20_000):
        assert win.open_path(str(tmp_path / "many"), "agentskills")
    assert at_tree == [0]  # shown without them
    direct = Registry(win.context.registries[0].profile, win.context.registries[0].roots)
    direct.scan()
    gists = {s.path: s.gist for s in direct.skills}
    assert sum(bool(g) for g in gists.values()) >= 50
    assert {s.path: s.gist for s in win.context.registries[0].skills} == gists


def test_the_tree_is_shown_before_the_match_indexes_are_built(
    qtbot: QtBot, settings: QSettings, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Target: the tree filled no later than `skillstudio lint` of the folder. Try a
    Request's match indexes (0.8 s at 10,000 skills) were built before the tree was
    shown; they are built after, from a copy of the active skills, and then kept
    current with the registry itself."""
    shown = threading.Event()
    seen: list[bool] = []
    real = scanner.MatchIndex

    def index_after_tree(registry: Registry) -> MatchIndex:
        seen.append(shown.wait(5))  # the GUI thread fills the tree meanwhile
        return real(registry)

    monkeypatch.setattr(scanner, "MatchIndex", index_after_tree)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()

    def filled() -> None:
        if win.tree_model.rowCount():
            shown.set()

    win.tree_model.modelReset.connect(filled)
    with qtbot.waitSignal(win.scan_finished, timeout=20_000):
        assert win.open_path(str(samples))
    assert seen and all(seen)
    # the scan's match indexes are adopted by the context's open projects
    for open_project in win.context.open_projects:
        built = [i for i in open_project.built() if isinstance(i, MatchIndex)]
        assert len(built) == 1 and built[0].registry is open_project.registry
