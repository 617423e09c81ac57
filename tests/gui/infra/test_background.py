"""Tests of gui/infra/background.py (the app's one background helper, `LatestJob`): the newest
asked lands, one job at a time (asked again while one runs, it runs once more with
the newest input when that one ends), nothing lands once its owner is gone, errors
land as text, progress arrives as queued signal payloads on the GUI thread."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QTimer
from pytestqt.qtbot import QtBot

from skillstudio.gui.infra import background
from skillstudio.gui.infra.background import LatestJob


class Runs:
    """Work that waits to be let go, and what ran, at once and landed."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.started: list[str] = []
        self.running = 0
        self.most_at_once = 0
        self.gates: dict[str, threading.Event] = {}
        self.landed: list[tuple[Any, str | None]] = []

    def work(self, name: str) -> Callable[[], str]:
        gate = self.gates[name] = threading.Event()

        def run() -> str:
            with self.lock:
                self.started.append(name)
                self.running += 1
                self.most_at_once = max(self.most_at_once, self.running)
            gate.wait(10)
            with self.lock:
                self.running -= 1
            return name

        return run

    def land(self, result: Any, error: str | None) -> None:
        self.landed.append((result, error))


def settled(qtbot: QtBot) -> None:
    qtbot.waitUntil(lambda: not background._waiting, timeout=10_000)


def test_the_newest_asked_lands_and_one_runs_at_a_time(qtbot: QtBot) -> None:
    owner = QObject()
    job = LatestJob(owner)
    runs = Runs()
    job.submit(runs.work("first"), runs.land)
    qtbot.waitUntil(lambda: runs.started == ["first"])
    for name in ("second", "third"):  # asked while the first runs: only the newest waits
        job.submit(runs.work(name), runs.land)
    assert job.busy
    runs.gates["first"].set()
    qtbot.waitUntil(lambda: runs.started == ["first", "third"], timeout=10_000)
    assert runs.landed == [], "the first's answer is out of date: dropped"
    with qtbot.waitSignal(job.busy_changed, timeout=10_000) as idle:
        runs.gates["third"].set()
    assert idle.args == [False] and not job.busy
    settled(qtbot)
    assert runs.landed == [("third", None)]
    assert runs.started == ["first", "third"] and runs.most_at_once == 1


def test_asked_again_while_running_it_runs_once_more_after_with_the_newest_input(
    qtbot: QtBot,
) -> None:
    owner = QObject()
    job = LatestJob(owner)
    runs = Runs()
    text = ["one"]
    job.submit(runs.work("one"), runs.land)
    qtbot.waitUntil(lambda: runs.started == ["one"])
    text.append("two")
    job.submit(runs.work("two"), runs.land)
    assert runs.started == ["one"], "not at the same time as the running one"
    runs.gates["one"].set()
    qtbot.waitUntil(lambda: runs.started == ["one", "two"], timeout=10_000)
    runs.gates["two"].set()
    settled(qtbot)
    assert runs.landed == [("two", None)] and runs.most_at_once == 1


def test_nothing_lands_once_the_owner_is_gone(qtbot: QtBot) -> None:
    owner = QObject()
    job = LatestJob(owner)
    runs = Runs()
    progress: list[Any] = []
    reported = threading.Event()

    def work(report: Callable[[Any], None]) -> str:
        runs.gates["late"].wait(10)
        report("late")
        reported.set()
        return "late"

    runs.gates["late"] = threading.Event()
    job.submit(work, runs.land, progress.append)
    shiboken6.delete(owner)  # a closed panel: its job goes with it
    assert not shiboken6.isValid(job)
    runs.gates["late"].set()
    assert reported.wait(10)
    settled(qtbot)
    assert runs.landed == [] and progress == []


def test_dropped_nothing_lands_and_an_error_lands_as_text(qtbot: QtBot) -> None:
    owner = QObject()
    job = LatestJob(owner)
    runs = Runs()
    job.submit(runs.work("dropped"), runs.land)
    job.drop()  # another file is current: what was asked no longer matters
    assert not job.busy
    runs.gates["dropped"].set()
    settled(qtbot)
    assert runs.landed == []

    def broken() -> None:
        raise ValueError("a core bug\non two lines")

    job.submit(broken, runs.land)
    settled(qtbot)
    assert runs.landed == [(None, "ValueError: a core bug on two lines")]


def test_progress_crosses_as_payloads_to_the_gui_thread_before_the_answer(
    qtbot: QtBot,
) -> None:
    owner = QObject()
    job = LatestJob(owner)
    seen: list[tuple[str, Any, bool]] = []
    gate = threading.Event()

    def work(report: Callable[[Any], None]) -> str:
        for step in range(3):
            report((step, 3))
        gate.wait(10)
        return "done"

    def progressed(payload: Any) -> None:
        seen.append(("progress", payload, threading.current_thread() is threading.main_thread()))

    def landed(result: Any, _error: str | None) -> None:
        seen.append(("landed", result, threading.current_thread() is threading.main_thread()))

    job.submit(work, landed, progressed)
    qtbot.waitUntil(lambda: len(seen) == 3, timeout=10_000)  # while the work still runs
    gate.set()
    settled(qtbot)
    assert seen == [
        ("progress", (0, 3), True),
        ("progress", (1, 3), True),
        ("progress", (2, 3), True),
        ("landed", "done", True),
    ]


def test_an_answer_waited_for_runs_off_the_gui_thread_with_the_loop_running(
    qtbot: QtBot,
) -> None:
    """answer_meanwhile: the work on another thread, a timer of the GUI thread ticks
    until the answer lands; a core bug comes back as one line of text."""
    ticks: list[int] = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start()
    gate = threading.Event()

    def work() -> bool:
        for _ in range(200):  # until the GUI thread has ticked three times (≤ 10 s)
            if len(ticks) >= 3:
                gate.set()
                break
            gate.wait(0.05)
        return threading.current_thread() is threading.main_thread()

    assert background.answer_meanwhile(work) == (False, None)
    timer.stop()
    assert gate.is_set() and len(ticks) >= 3

    def broken() -> None:
        raise ValueError("a core bug\non two lines")

    assert background.answer_meanwhile(broken) == (None, "ValueError: a core bug on two lines")
