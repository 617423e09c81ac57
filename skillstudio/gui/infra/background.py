"""Work of one widget off the GUI thread, whose answer lands only while the widget lives.

`run_in_background(work, done, owner)` runs `work()` in Qt's global thread pool and
calls `done(result, error)` on the GUI thread, unless `owner` was deleted meanwhile
(a closed tab, a panel torn down). The relay that carries the answer has no parent:
a worker never emits on an object the GUI thread may be deleting (a relay that was
a child of the owner died with it while its worker emitted: a crash at teardown).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from .one_line import one_line


class _Relay(QObject):
    """Carries a worker's answer to the GUI thread (a queued signal)."""

    finished = Signal(object, object)  # the result (or None), the error text (or None)


class _Job(QRunnable):
    def __init__(self, work: Callable[[], Any], relay: _Relay) -> None:
        super().__init__()
        self.work = work
        self.relay = relay

    def run(self) -> None:
        try:
            answer: tuple[Any, str | None] = (self.work(), None)
        except Exception as exc:  # a core bug: the owner says so, the app goes on
            answer = (None, one_line(exc))
        self.relay.finished.emit(*answer)


_waiting: set[_Relay] = set()  # relays whose answer has not landed (kept alive here)


def run_in_background(
    work: Callable[[], Any], done: Callable[[Any, str | None], None], owner: QObject
) -> None:
    relay = _Relay()
    _waiting.add(relay)

    def landed(result: Any, error: str | None) -> None:
        _waiting.discard(relay)
        relay.deleteLater()
        if shiboken6.isValid(owner):
            done(result, error)

    relay.finished.connect(landed)
    QThreadPool.globalInstance().start(_Job(work, relay))
