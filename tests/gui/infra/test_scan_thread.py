"""Tests of gui/infra/scan_thread.py (ScanThread: full scans of the opened projects'
registries, off the GUI thread)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.project import resolve_projects
from skillstudio.core.scanning.registry import Registry
from skillstudio.gui.controllers import skill_views
from skillstudio.gui.infra.scan_thread import ScanDone, ScanRead, ScanThread
from skillstudio.gui.models import skill_tree_model
from skillstudio.gui.models.skill_tree_model import TreeNodes
from skillstudio.gui.window.main_window import MainWindow

from ...benchmarks.synth import generate


def test_the_tree_rows_are_built_by_the_scan_thread(
    qtbot: QtBot, settings: QSettings, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 10,000 skills building the rows took 30-120 ms at the end of the scan, on
    the GUI thread; the scan thread builds them now and the window only installs them."""
    threads: list[bool] = []
    real = skill_tree_model.tree_nodes

    def recording(registries: list[Registry], bases: list[str]) -> TreeNodes:
        if registries:  # (opening a folder first empties the tree)
            threads.append(threading.current_thread() is threading.main_thread())
        return real(registries, bases)

    monkeypatch.setattr(skill_tree_model, "tree_nodes", recording)
    monkeypatch.setattr(skill_views, "tree_nodes", recording)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(samples))
    assert threads == [False]  # once, off the GUI thread
    names = [win.tree_model.index(r, 0).data() for r in range(win.tree_model.rowCount())]
    assert "oasis · key_skills" in names
    assert win.tree_model.index_of(str(samples / "oasis/key_skills/commit/SKILL.md")).isValid()


def test_a_scans_results_cross_as_its_signals_payloads(qtbot: QtBot, tmp_path: Path) -> None:
    """The window read `thread.registries`, `thread.prepared`, `thread.indexes` and
    `thread.errors` off the thread object; they come in the signals now."""
    generate(str(tmp_path / "few"), 5)
    project = resolve_projects([str(tmp_path / "few")], [], None, "agentskills", str(tmp_path))[0]
    registry = project.registry()
    thread = ScanThread([registry], None, lambda regs: ("rows of", len(regs)))
    payloads: list[object] = []

    def scanned(read: ScanRead) -> None:
        payloads.append(read)
        read.resume()

    thread.scanned.connect(scanned)
    with qtbot.waitSignal(thread.done, timeout=20_000) as done:
        thread.start()
    thread.wait()
    read, result = payloads[0], done.args[0]
    assert isinstance(read, ScanRead) and read.registries == [registry]
    assert read.prepared == ("rows of", 1)
    assert isinstance(result, ScanDone) and result.ok and not result.errors
    assert [index.registry for index in result.indexes] == [registry]
    assert len(result.gists) == 5 and all(gist for _skill, gist in result.gists)
    assert {skill.path for skill, _gist in result.gists} == {s.path for s in registry.skills}
    assert not any(s.gist for s in registry.skills), "set by the GUI thread, not here"
    for name in ("prepared", "indexes", "errors", "worker_chunks", "resume"):
        assert not hasattr(thread, name)
