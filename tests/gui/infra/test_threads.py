"""The threading note (skillstudio/gui/infra/threads.py) kept true: once a scan hands its
registries over, no worker thread writes to a skill the GUI thread holds."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

from skillstudio.core.model.skills import Skill
from skillstudio.core.scanning.registry import Registry
from skillstudio.gui.infra.scan_thread import ScanThread
from skillstudio.gui.window.main_window import MainWindow

from ...benchmarks.synth import generate


class Writes:
    """Every write to a Skill's attributes, with the thread and when. A skill is the
    GUI's from the moment a scan thread emitted `scanned` with it (the hand-over),
    or from its first write on the GUI thread (made there)."""

    def __init__(self) -> None:
        self.tick = itertools.count()
        self.gui_since: dict[int, tuple[Skill, int]] = {}  # id -> (skill, tick)
        self.seen: list[tuple[Skill, str, threading.Thread, int]] = []
        self.handed = 0
        self.lock = threading.Lock()

    def hand_over(self, registries: list[Registry]) -> None:
        with self.lock:
            tick = next(self.tick)
            for registry in registries:
                for skill in registry.skills:
                    self.gui_since.setdefault(id(skill), (skill, tick))
                    self.handed += 1

    def record(self, skill: Skill, name: str) -> None:
        with self.lock:
            thread, tick = threading.current_thread(), next(self.tick)
            if thread is threading.main_thread():
                self.gui_since.setdefault(id(skill), (skill, tick))
            self.seen.append((skill, name, thread, tick))

    def by_workers(self) -> list[tuple[str, str, str]]:
        """Writes by a thread other than the GUI's to a skill the GUI held then."""
        bad = []
        for skill, name, thread, tick in self.seen:
            since = self.gui_since.get(id(skill))
            worker = thread is not threading.main_thread()
            if worker and since is not None and since[0] is skill and tick > since[1]:
                bad.append((thread.name, skill.path, name))
        return bad


@pytest.fixture
def writes(monkeypatch: pytest.MonkeyPatch) -> Writes:
    found = Writes()

    def recording(self: Skill, name: str, value: Any) -> None:
        found.record(self, name)
        object.__setattr__(self, name, value)

    real_init = ScanThread.__init__

    def init(self: ScanThread, registries: list[Registry], *args: Any, **kwargs: Any) -> None:
        real_init(self, registries, *args, **kwargs)
        # runs on the scan thread, as it emits: the moment of the hand-over
        self.scanned.connect(
            lambda *_payload: found.hand_over(registries), Qt.ConnectionType.DirectConnection
        )

    monkeypatch.setattr(Skill, "__setattr__", recording)
    monkeypatch.setattr(ScanThread, "__init__", init)
    return found


def test_no_worker_thread_writes_to_a_skill_the_gui_holds(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, writes: Writes
) -> None:
    """After `scanned` the scan thread used to write each skill's gist in place while
    the tree showed it (and a likely index could read it half done). Scan, gists,
    indexes, a tab with its "competes with" line, a request tried, the overlap map,
    a refresh and a profile switch: no thread but the GUI's writes to a skill it holds."""
    generate(str(tmp_path / "many"), 60)
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=20_000):
        assert win.open_path(str(tmp_path / "many"), "agentskills")
    skills = win.context.registries[0].skills
    assert writes.handed and sum(bool(s.gist) for s in skills) >= 50  # the gists were set
    editor = win.open_skill(skills[0].path)
    assert editor is not None
    panel = win.query_panel
    win.focus_query_panel()
    with qtbot.waitSignal(panel.context.likely_indexes.ready, timeout=10_000):
        panel.load_request("review the pull request for style")
    with qtbot.waitSignal(win.overlap_map.computed, timeout=20_000):
        win.menu_actions.overlap_action.trigger()
        win.overlap_dock.raise_()
    assert win.watcher.ready.wait(10)
    changed = Path(skills[1].path)
    with qtbot.waitSignal(win.refresh_finished, timeout=10_000):
        changed.write_text(changed.read_text(encoding="utf-8") + "\nChanged.\n")
    with qtbot.waitSignal(win.scan_finished, timeout=20_000):
        assert win.project_profiles.set_project_profile(0, "pegasus")
    assert any(t is threading.main_thread() and n == "gist" for _s, n, t, _ in writes.seen)
    assert writes.by_workers() == []
