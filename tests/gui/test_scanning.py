"""Scanning on its own: the scan thread's registries enter the workspace when it hands
them over, its results (gists, indexes) land on the GUI thread, a cancelled scan
lands nothing, and a profile switch's rescan leaves the workspace to its caller."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QProgressBar
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.project import resolve_projects
from skillstudio.gui.controllers import scan_controller as scanning_module
from skillstudio.gui.controllers.scan_controller import Landed, Rescanned, Scanning
from skillstudio.gui.infra.workspace import Workspace

from ..benchmarks.synth import generate
from .parts import Shell


def scanning_for(shell: Shell) -> tuple[Scanning, Workspace]:
    workspace = Workspace()
    progress = QProgressBar(shell.window)
    return Scanning(workspace, progress, shell.status, shell.window), workspace


def test_the_registries_enter_the_workspace_when_read_and_the_gists_land_after(
    qtbot: QtBot, tmp_path: Path, monkeypatch: Any
) -> None:
    generate(str(tmp_path / "many"), 30)
    shell = Shell(qtbot)
    scans, workspace = scanning_for(shell)
    projects = resolve_projects([str(tmp_path / "many")], [], None, "agentskills", os.getcwd())
    registries = [p.registry() for p in projects]
    workspace.open(str(tmp_path / "many"))
    set_on: list[bool] = []
    real = scanning_module.set_gists

    def noted(gists: Any) -> None:
        set_on.append(threading.current_thread() is threading.main_thread())
        real(gists)

    monkeypatch.setattr(scanning_module, "set_gists", noted)
    read: list[int] = []
    scans.read.connect(lambda _read: read.append(len(workspace.registries)))
    with qtbot.waitSignal(scans.landed, timeout=20_000) as landed:
        scans.start(projects, registries, lambda regs: None)
        assert scans.busy and workspace.registries == []
    assert read == [1] and workspace.registries == registries and not scans.busy
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
    scans, workspace = scanning_for(shell)
    old = resolve_projects([str(tmp_path / "many")], [], None, None, os.getcwd())
    workspace.open(str(tmp_path / "many"))
    workspace.install(old, [p.registry() for p in old])
    project = resolve_projects([str(tmp_path / "many")], [], None, "agentskills", os.getcwd())[0]
    registry = project.registry()
    with qtbot.waitSignal(scans.rescanned, timeout=20_000) as rescanned:
        scans.rescan(old[0], project, registry)
    result = rescanned.args[0]
    assert isinstance(result, Rescanned) and result.registry is registry
    assert result.old is old[0] and result.project is project
    assert len(registry.skills) == 20 and all(s.gist for s in registry.skills)
    assert workspace.projects == old, "the switch's owner replaces it (ProjectProfiles)"
    workspace.open("elsewhere")  # another folder meanwhile: the rescan is dropped
    with qtbot.assertNotEmitted(scans.rescanned):
        scans.rescan(old[0], project, project.registry())
        qtbot.waitUntil(lambda: scans.switch_scan is None, timeout=20_000)
