"""ScanThread: full scans of the opened projects' registries, off the GUI thread.

The registries belong to the thread until `done` is emitted; the window keeps
showing what it had (or a progress bar) and installs them only then.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QThread, Signal

from ..core.matching import MatchIndex
from ..core.registry import Registry, quiet_gc

PROGRESS_INTERVAL_S = 0.05  # at most 20 progress updates a second


class _Cancelled(Exception):
    pass


def one_line(exc: BaseException, limit: int = 300) -> str:
    """An exception as one bounded line of text, for the status bar and Problems."""
    text = " ".join(str(exc).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class ScanThread(QThread):
    """Signals (queued to the GUI thread):
    progressed(int, int): skills read so far and the total, over every registry.
    done(bool): True when every registry was scanned (some perhaps with errors, see
        `errors`), False when cancelled.

    A failure in one registry (a core bug, or input no check foresaw) is kept in
    `errors` and the others are scanned all the same: the app never loses a whole
    folder to one file.
    """

    progressed = Signal(int, int)
    done = Signal(bool)

    def __init__(
        self,
        registries: list[Registry],
        parent: QObject | None = None,
        prepare: Callable[[list[Registry]], object] | None = None,
    ) -> None:
        """`prepare(registries)` runs here after the scan (the views' rows, built off
        the GUI thread); its answer is `prepared` (None if it failed: built again)."""
        super().__init__(parent)
        self.registries = registries
        self.prepare = prepare
        self.prepared: object = None
        self.errors: list[tuple[Registry, str]] = []  # a registry and what failed in it
        self.indexes: list[MatchIndex] = []  # built here too: 0.8 s at 10,000 skills
        self._cancelled = False
        self._offset = 0
        self._last = 0.0

    def cancel(self) -> None:
        self._cancelled = True

    def run(self) -> None:
        ok = True
        try:
            for registry in self.registries:
                self._scan_one(registry)
        except _Cancelled:
            ok = False
        if ok and self.prepare is not None:
            try:
                with quiet_gc():
                    self.prepared = self.prepare(self.registries)
            except Exception:  # the window builds them itself
                self.prepared = None
        self.done.emit(ok)

    def _scan_one(self, registry: Registry) -> None:
        try:
            registry.scan(progress=self._progress)
        except _Cancelled:
            raise
        except Exception as exc:  # a core bug must not take the app down
            self.errors.append((registry, f"Reading the skills failed: {one_line(exc)}"))
            return
        finally:
            self._offset += len(registry.skills)
        try:
            with quiet_gc():  # half a million objects; no collection walks them
                self.indexes.append(MatchIndex(registry))
        except Exception as exc:  # Try a Request builds it again when asked
            self.errors.append((registry, f"Indexing the skills failed: {one_line(exc)}"))

    def _progress(self, done: int, total: int) -> None:
        if self._cancelled:
            raise _Cancelled
        now = time.monotonic()
        if done == total or now - self._last >= PROGRESS_INTERVAL_S:
            self._last = now
            self.progressed.emit(self._offset + done, self._offset + total)
