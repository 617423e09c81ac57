"""The cyclic garbage collector runs on the GUI thread only.

Python's collector runs in whichever thread happens to allocate past its threshold.
When a worker (an index, the overlap notes, a listing) triggers it, a cycle holding a
Qt object of the GUI thread (a closed window's timer, a panel's relay) is destroyed
in the worker: Qt cannot stop a timer from another thread, the timer stays registered
with a dead object, and the GUI thread's next timer round crashes
(QTimerInfoList::activateTimers; seen as a segmentation fault in the GUI tests).

So the app turns automatic collection off and collects on the GUI thread from a
timer, with the collector's own thresholds: a generation is collected when its count
passes its threshold, as the automatic collector would, only always here. Reference
counting still frees everything without cycles at once, in any thread.

While a job builds objects that will live long (a folder's scan on its thread, a
refresh of files changed outside in slices), collections are held and what it built
is frozen when it ends (`collections_held`). Collected meanwhile, the job's
half-built registry is walked again and again: at 10,000 skills a young generation of
80,000 objects and a middle one of ten times that, one collection of 116-351 ms on
the GUI thread during the scan (measured with bench_gui, 2026-12-03), though none of
it is garbage. A hold longer than HOLD_LIMIT_S is ignored (a job that never ends
cannot stop collection for good).
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QCoreApplication, QObject, QTimer

from .free_memory import return_free_memory

INTERVAL_MS = 250  # how often the counts are looked at (a check costs microseconds)
HOLD_LIMIT_S = 60.0  # a hold older than this no longer holds

_lock = threading.Lock()
_holds: list[float] = []  # when each running hold began (monotonic)


@contextmanager
def collections_held() -> Iterator[None]:
    """Hold the GUI thread's collections while the block builds long-lived objects,
    then freeze every object alive (gc.freeze: later collections no longer walk
    them; reference counting still frees them). Any thread; holds nest."""
    began = time.monotonic()
    with _lock:
        _holds.append(began)
    try:
        yield
    finally:
        gc.freeze()
        with _lock:
            _holds.remove(began)


def held() -> bool:
    """A job holds collections now: a hold that began less than HOLD_LIMIT_S ago (each
    hold on its own: one stuck hold does not make a new one void)."""
    now = time.monotonic()
    with _lock:
        return any(now - began < HOLD_LIMIT_S for began in _holds)


_installed: list[GuiThreadCollector] = []


class GuiThreadCollector(QObject):
    """Collects cyclic garbage on the thread it lives on (the GUI thread's app)."""

    def __init__(self, app: QCoreApplication) -> None:
        super().__init__(app)
        self.threshold = gc.get_threshold()
        gc.disable()
        self._timer = QTimer(self)
        self._timer.setInterval(INTERVAL_MS)
        self._collected = False  # by the last `check`
        self.give_back_due = False  # collected since memory was last given back
        self._timer.timeout.connect(self.tick)
        self._timer.start()

    def tick(self) -> int:
        """`check`, and once work has settled (a check with nothing due after one that
        collected: a burst of allocations ended) the freed memory given back to the
        system (free_memory.py; the work's garbage is gone by then)."""
        found = self.check()
        if self._collected:
            self._collected = False
            self.give_back_due = True
        elif self.give_back_due:
            self.give_back_due = False
            return_free_memory()
        return found

    def check(self) -> int:
        """Collect the oldest generation whose count passed its threshold; the number of
        objects found unreachable (0 when nothing was due or collections are held)."""
        counts = gc.get_count()
        if counts[0] <= self.threshold[0] or held():
            return 0
        generation = 0
        if counts[1] > self.threshold[1]:
            generation = 1
            if counts[2] > self.threshold[2]:
                generation = 2
        self._collected = True
        return gc.collect(generation)


def collect_on_gui_thread() -> GuiThreadCollector | None:
    """Install the collector once per application (called by the main window, so the
    app and every test window run with it); None without an application."""
    app = QCoreApplication.instance()
    if app is None:
        return None
    for collector in _installed:
        if collector.parent() is app:
            gc.disable()  # (something may have turned it back on)
            return collector
    collector = GuiThreadCollector(app)
    _installed.append(collector)
    return collector
