"""Tests of gui/infra/collector.py (the cyclic collector runs on the GUI thread only)."""

from __future__ import annotations

import gc
import threading
import time
import weakref

import pytest
from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from skillstudio.core.scanning.registry import quiet_gc
from skillstudio.gui.infra import collector
from skillstudio.gui.infra.collector import collect_on_gui_thread, collections_held, held
from skillstudio.gui.window.main_window import MainWindow


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_a_window_turns_automatic_collection_off_and_collects_on_the_gui_thread(
    qtbot: QtBot, window: MainWindow
) -> None:
    """A worker that allocates past the collector's thresholds collects nothing (on main
    before this, the collector ran there and destroyed a cycle holding a GUI-thread
    timer: Qt left the timer registered with a dead object, and the next timer round
    crashed in QTimerInfoList::activateTimers); the GUI thread's timer collects it."""
    assert not gc.isenabled()
    collected_in: list[str] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info.get("collected"):
            collected_in.append(threading.current_thread().name)

    garbage = _Cycle()
    gone = weakref.ref(garbage)
    del garbage
    gc.callbacks.append(note)
    try:

        def allocate() -> None:  # far past the first generation's threshold
            with quiet_gc():
                pass
            [_Cycle() for _ in range(50_000)]

        worker = threading.Thread(target=allocate, name="worker")
        worker.start()
        worker.join()
        assert gone() is not None and "worker" not in collected_in
        qtbot.waitUntil(lambda: gone() is None, timeout=5000)
        assert set(collected_in) == {threading.main_thread().name}
    finally:
        gc.callbacks.remove(note)


def test_a_gui_objects_cycle_dies_on_the_gui_thread(qtbot: QtBot, window: MainWindow) -> None:
    """A closed panel's QObject with a running timer, kept only by a cycle, is destroyed
    by the GUI thread's collection (its timer stopped there), never by a worker."""
    holder = QObject()
    timer = QTimer(holder)
    timer.start(5)
    holder.cycle = holder  # type: ignore[attr-defined]
    destroyed: list[str] = []
    holder.destroyed.connect(lambda: destroyed.append(threading.current_thread().name))
    del holder, timer
    threading.Thread(target=lambda: [_Cycle() for _ in range(50_000)]).start()
    qtbot.waitUntil(lambda: bool(destroyed), timeout=5000)
    assert destroyed == [threading.main_thread().name]


def test_installed_once_per_application(qapp: QApplication) -> None:
    first = collect_on_gui_thread()
    assert first is not None and first is collect_on_gui_thread()
    gc.enable()  # something turned it back on: the next window turns it off again
    collect_on_gui_thread()
    assert not gc.isenabled()


def test_collections_wait_while_a_job_holds_them_and_its_objects_are_frozen(
    qtbot: QtBot, window: MainWindow
) -> None:
    """While a scan or a refresh builds long-lived objects, the GUI thread's collector
    collects nothing (before: collections during a scan at 10,000 skills walked the
    half-built registry, one of 116-351 ms); when the job ends, what it built is frozen
    (as freeze_long_lived froze the whole heap when a scan landed: cyclic garbage made
    meanwhile is frozen with it)."""
    gui_collector = collect_on_gui_thread()
    assert gui_collector is not None
    released = threading.Event()
    built: list[object] = []

    def job() -> None:
        with collections_held():
            built.extend(_Cycle() for _ in range(5_000))  # long-lived, held by `built`
            released.wait(5)

    worker = threading.Thread(target=job)
    worker.start()
    try:
        qtbot.waitUntil(held, timeout=2000)
        garbage = _Cycle()
        gone = weakref.ref(garbage)
        del garbage
        [_Cycle() for _ in range(50_000)]  # far past the first threshold
        assert gc.get_count()[0] > gui_collector.threshold[0]
        assert gui_collector.check() == 0
        assert gone() is not None
    finally:
        released.set()
        worker.join()
    assert not held()
    assert gc.get_freeze_count() >= len(built)
    gc.unfreeze()  # (this test's garbage collectable again, the next tests' heap as it was)
    gc.collect()
    assert gone() is None


def test_a_hold_past_its_limit_no_longer_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """A job that never ends cannot stop collection for good, and does not void a new
    hold (the fresh-clone suite: a scan thread of an earlier test, still holding, made
    the next test's hold count for nothing)."""
    monkeypatch.setattr(collector, "HOLD_LIMIT_S", 0.0)
    with collections_held():
        assert not held()
    monkeypatch.setattr(collector, "HOLD_LIMIT_S", 60.0)
    monkeypatch.setattr(collector, "_holds", [time.monotonic() - 120.0])  # a stuck one
    assert not held()
    with collections_held():
        assert held()


def test_memory_given_back_once_work_settles(
    qapp: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tick that collected marks work under way; the next tick with nothing due gives
    the freed memory back to the system, once, and a quiet app gives nothing back."""
    given: list[bool] = []

    def give_back() -> bool:
        given.append(True)
        return True

    monkeypatch.setattr(collector, "return_free_memory", give_back)
    gc.collect()
    ticking = collector.GuiThreadCollector(qapp)
    ticking._timer.stop()  # ticked by hand here
    try:
        gc.collect()
        ticking.tick()  # nothing allocated: nothing due, nothing given back
        assert given == []
        garbage = [_Cycle() for _ in range(ticking.threshold[0] + 10)]
        del garbage
        ticking.tick()  # a burst of allocations: collected, nothing given back yet
        assert given == [] and ticking.give_back_due
        ticking.tick()  # settled: given back
        assert given == [True] and not ticking.give_back_due
        ticking.tick()
        assert given == [True]  # once
    finally:
        ticking.deleteLater()
        collect_on_gui_thread()
