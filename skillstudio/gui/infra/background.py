"""The app's one way to run a widget's work off the GUI thread: `LatestJob`.

A widget (a panel, a tab, a document) owns one `LatestJob` per kind of answer it
works out in the background and hands it `submit(work, landed)` each time its input
changes. The job keeps to three rules that every panel used to write for itself:

- Only the newest asked lands. An answer asked before the newest one is dropped
  (it is out of date by then); `drop()` lets nothing asked so far land.
- One at a time. Asked again while a job runs, it runs once more after that one
  ends, with the newest input only (a burst of edits costs two runs, never one per
  edit, and never two at once on the thread pool's few threads).
- Nothing lands for a widget that is gone. The relay that carries an answer holds
  the job by a weak reference and has no parent (a worker never emits on an object
  the GUI thread may be deleting: a relay that was the owner's child died with it
  while its worker emitted, a crash at teardown); a closed panel's answer, landing
  late, finds no job and does nothing.

`landed(result, error)` is called on the GUI thread with what `work()` returned, or
None and the exception as one line of text (a core bug: the widget says so, the app
goes on). Progress travels the same way: `submit(work, landed, progressed)` calls
`work(report)`, and each `report(payload)` on the worker reaches `progressed(payload)`
as a queued signal (never a timer polling what a worker wrote). `busy` says whether
an answer is on its way (`busy_changed` when that changes).

One call needs its answer before it goes on: `answer_meanwhile(work)` runs `work()`
on a thread of its own and keeps the GUI thread's event loop running until it
lands (the window painted, timers on time; user input waits for the answer), for a
piece of core work too long for one slice that the caller cannot go on without
(a folder's projects: a walk of every folder below it).

Every owner of a LatestJob is named in the threading note (threads.py), which
tests/test_thread_note.py checks against the code.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QEventLoop, QObject, QRunnable, QThreadPool, Signal

from ...core.scanning.registry import quiet_gc
from .one_line import one_line

Landed = Callable[[Any, str | None], None]
Progressed = Callable[[Any], None]
Report = Callable[[Any], None]


class _Relay(QObject):
    """Carries one run's progress and answer to the GUI thread (queued signals: the
    relay lives on the GUI thread, the worker emits)."""

    progressed = Signal(object)
    finished = Signal(object, object)  # the result (or None), the error text (or None)


class _Run(QRunnable):
    def __init__(self, work: Callable[[Report], Any], relay: _Relay, quiet: bool) -> None:
        super().__init__()
        self.work = work
        self.relay = relay
        self.quiet = quiet

    def run(self) -> None:
        try:
            if self.quiet:  # an index: hundreds of thousands of small objects, no cycles
                with quiet_gc():
                    answer: tuple[Any, str | None] = (self.work(self.relay.progressed.emit), None)
            else:
                answer = (self.work(self.relay.progressed.emit), None)
        except Exception as exc:  # a core bug: the owner says so, the app goes on
            answer = (None, one_line(exc))
        self.relay.finished.emit(*answer)


_waiting: set[_Relay] = set()  # relays whose answer has not landed (kept alive here)

# (number, work, landed, progressed) of one submit
_Asked = tuple[int, Callable[[Report], Any], Landed, Progressed | None]


class LatestJob(QObject):
    """One kind of background answer of one owner: the newest asked lands, one runs
    at a time, nothing lands once the owner is gone (see the module's docstring).
    `quiet`: the work builds many small objects (an index), with the cyclic
    collector held off meanwhile.

    Signals:
        busy_changed(bool): an answer is on its way (True) or not (False).
    """

    busy_changed = Signal(bool)

    def __init__(self, owner: QObject, quiet: bool = False) -> None:
        super().__init__(owner)
        self.quiet = quiet
        self._asked = 0  # numbers every submit and drop: only the newest number lands
        self._running: _Asked | None = None  # the one on the thread pool
        self._next: _Asked | None = None  # asked while it runs: started when it ends
        self._busy = False

    @property
    def busy(self) -> bool:
        """An answer is on its way: the newest asked runs or waits for its turn."""
        return self._busy

    def submit(
        self, work: Callable[..., Any], landed: Landed, progressed: Progressed | None = None
    ) -> None:
        """Work `work()` out off the GUI thread (`work(report)` with `progressed`);
        `landed(result, error)` on the GUI thread unless something newer is asked
        meanwhile. While a job runs, this one waits for it (replacing any waiting)."""
        self._asked += 1
        asked: _Asked = (self._asked, work if progressed else _no_report(work), landed, progressed)
        if self._running is not None:
            self._next = asked
        else:
            self._start(asked)
        self._note_busy()

    def drop(self) -> None:
        """Nothing asked so far lands (the input went: another file, a closed tab).
        A job running goes on to its end, unheard; the next submit waits for it."""
        self._asked += 1
        self._next = None
        self._note_busy()

    def _start(self, asked: _Asked) -> None:
        self._running = asked
        number, work = asked[0], asked[1]
        relay = _Relay()
        _waiting.add(relay)
        me = weakref.ref(self)

        def progressed(payload: Any) -> None:
            job = me()
            if job is not None and job._alive():
                job._progressed(number, payload)

        def finished(result: Any, error: str | None) -> None:
            _waiting.discard(relay)
            relay.deleteLater()
            job = me()
            if job is not None and job._alive():
                job._finished(number, result, error)

        relay.progressed.connect(progressed)
        relay.finished.connect(finished)
        QThreadPool.globalInstance().start(_Run(work, relay, self.quiet))

    def _alive(self) -> bool:
        owner = self.parent() if shiboken6.isValid(self) else None
        return owner is not None and shiboken6.isValid(owner)

    def _progressed(self, number: int, payload: Any) -> None:
        running = self._running
        if running is not None and running[0] == number == self._asked and running[3]:
            running[3](payload)

    def _finished(self, number: int, result: Any, error: str | None) -> None:
        running, self._running = self._running, None
        waiting, self._next = self._next, None
        if waiting is not None:  # this answer is out of date: the newest input's now
            self._start(waiting)
            return
        self._note_busy()
        if running is not None and number == self._asked:
            running[2](result, error)

    def _note_busy(self) -> None:
        busy = self._next is not None or (
            self._running is not None and self._running[0] == self._asked
        )
        if busy != self._busy:
            self._busy = busy
            self.busy_changed.emit(busy)


def _no_report(work: Callable[[], Any]) -> Callable[[Report], Any]:
    def run(_report: Report) -> Any:
        return work()

    return run


def answer_meanwhile(work: Callable[[], Any]) -> tuple[Any, str | None]:
    """`work()` worked out on a thread of its own while the GUI thread's event loop
    runs, user input held back until it lands: (its result, None), or (None, the
    exception as one line of text). At 10,000 skills resolving the folder opened is a
    walk of 100-200 ms, one stall of that length when it ran on the GUI thread."""
    relay = _Relay()
    answer: list[tuple[Any, str | None]] = []
    loop = QEventLoop()

    def landed(result: Any, error: str | None) -> None:
        answer.append((result, error))
        loop.quit()

    def run() -> None:
        out: tuple[Any, str | None] = (None, "stopped")  # (never left waiting)
        try:
            out = (work(), None)
        except Exception as exc:  # a core bug: the caller says so, the app goes on
            out = (None, one_line(exc))
        finally:
            relay.finished.emit(*out)  # queued: lands when the loop below takes it

    relay.finished.connect(landed)
    threading.Thread(target=run, name="answer_meanwhile", daemon=True).start()
    loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
    relay.deleteLater()
    return answer[0]
