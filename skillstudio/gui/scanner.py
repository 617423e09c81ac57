"""ScanThread: full scans of the opened projects' registries, off the GUI thread.

The registries belong to the thread until `done` is emitted; the window keeps
showing what it had (or a progress bar) and installs them only then.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import cast

from PySide6.QtCore import QObject, QThread, Signal

from ..core.model.skills import Skill
from ..core.ranking.matching import MatchIndex
from ..core.scanning.parallel import Workers, fill_gists
from ..core.scanning.registry import Registry, quiet_gc

PROGRESS_INTERVAL_S = 0.05  # at most 20 progress updates a second
RESUME_AFTER_S = 2.0  # the indexes wait at most this long for the window's first layout
RESUME_MIN_SKILLS = 2000  # ... when there are this many skills (fewer: a short layout)
MAX_WORKERS = 4  # reader processes for a large scan (started with spawn: Qt runs threads)
WORKER_NICE = 10  # their priority below the window's


def reader_processes() -> Workers:
    """The worker processes a scan reads with (started only for a large one): as many
    as the cores (at most MAX_WORKERS), at a lower priority than the window, so that
    they take only time it leaves; the scan thread reads too, from the other end, so
    the scan is never slower than its reading alone (a loaded machine, a slow start)."""
    count = min(os.cpu_count() or 1, MAX_WORKERS)
    return Workers(count if count > 1 else 0, "spawn", steal="always", nice=WORKER_NICE)


class _Cancelled(Exception):
    pass


class _Copy:
    """What MatchIndex reads of a registry, copied: the GUI thread may change the
    registry while the index is built (its version tells `sync` to catch up)."""

    def __init__(self, registry: Registry) -> None:
        self.profile = registry.profile
        self.version = registry.version
        self.active = dict(registry.active)


def one_line(exc: BaseException, limit: int = 300) -> str:
    """An exception as one bounded line of text, for the status bar and Problems."""
    text = " ".join(str(exc).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class ScanThread(QThread):
    """Signals (queued to the GUI thread):
    progressed(int, int): skills read so far and the total, over every registry.
    scanned(): every registry was read and `prepared` built: the window shows them
        (from then on the registries are the GUI thread's; this thread only reads
        a copy of their active skills, to build Try a Request's match indexes).
    done(bool): True when every registry was scanned (some perhaps with errors, see
        `errors`) and indexed, False when cancelled.

    The skills are read without their gists (core/reading/skill_words.py: the body in brief, which
    costs twice the rest of reading a skill), so that the tree shows them as soon as
    `skillstudio lint` would have them; the gists are worked out after `scanned`,
    before the indexes, and nothing ranks with a registry before `done`.

    A failure in one registry (a core bug, or input no check foresaw) is kept in
    `errors` and the others are scanned all the same: the app never loses a whole
    folder to one file.
    """

    progressed = Signal(int, int)
    scanned = Signal()
    done = Signal(bool)

    def __init__(
        self,
        registries: list[Registry],
        parent: QObject | None = None,
        prepare: Callable[[list[Registry]], object] | None = None,
    ) -> None:
        """`prepare(registries)` runs here after the scan (the views' rows, built off
        the GUI thread); its answer is `prepared` (None if it failed: built again), and
        the indexes then wait for `resume` (the window's first layout of the rows)."""
        super().__init__(parent)
        self.registries = registries
        self.prepare = prepare
        self.prepared: object = None
        self.errors: list[tuple[Registry, str]] = []  # a registry and what failed in it
        self.indexes: list[MatchIndex] = []  # built here too: 0.8 s at 10,000 skills
        self._cancelled = False
        # Set by the window once the tree and Problems are laid out: the indexes are
        # built after (competing for the interpreter lock with the first layout's
        # calls into Python, they made it a 300 ms pause at 10,000 skills).
        self.resume = threading.Event()
        self._offset = 0
        self._last = 0.0
        self.worker_chunks = 0  # pieces of the work that reader processes did

    def cancel(self) -> None:
        self._cancelled = True
        self.resume.set()

    def run(self) -> None:
        with reader_processes() as workers:
            try:
                self._run(workers)
            finally:
                self.worker_chunks = workers.answered[0]

    def _run(self, workers: Workers) -> None:
        ok = True
        read: list[Registry] = []
        try:
            for registry in self.registries:
                if self._scan_one(registry, workers):
                    read.append(registry)
        except _Cancelled:
            ok = False
        if ok and self.prepare is not None:
            try:
                with quiet_gc():
                    self.prepared = self.prepare(self.registries)
            except Exception:  # the window builds them itself
                self.prepared = None
        if ok:
            # The match indexes (0.8 s at 10,000 skills) after the tree is shown, from
            # copies taken before: the skills list is on screen as soon as `lint` has it.
            copies = [_Copy(registry) for registry in read]
            gistless = [(r, list(r.skills)) for r in read if r.gists and r.profile.model_chooses]
            self.scanned.emit()
            if self.prepare is not None and sum(len(r.skills) for r in read) >= RESUME_MIN_SKILLS:
                self.resume.wait(RESUME_AFTER_S)
            ok = self._gists(gistless, workers)
            for registry, copy in zip(read, copies, strict=True):
                if self._cancelled:
                    ok = False
                    break
                self._index(registry, copy)
        self.done.emit(ok)

    def _gists(self, gistless: list[tuple[Registry, list[Skill]]], workers: Workers) -> bool:
        """The gists the scan left out (False: cancelled meanwhile)."""
        for registry, skills in gistless:
            try:
                with quiet_gc():
                    fill_gists(skills, workers, lambda: self._cancelled)
            except Exception as exc:  # ranked without them until the files change
                self.errors.append(
                    (registry, f"Reading the skills' bodies failed: {one_line(exc)}")
                )
        return not self._cancelled

    def _scan_one(self, registry: Registry, workers: Workers) -> bool:
        try:
            registry.scan(self._progress, workers, defer_gists=True)
        except _Cancelled:
            raise
        except Exception as exc:  # a core bug must not take the app down
            self.errors.append((registry, f"Reading the skills failed: {one_line(exc)}"))
            return False
        finally:
            self._offset += len(registry.skills)
        return True

    def _index(self, registry: Registry, copy: _Copy) -> None:
        try:
            with quiet_gc():  # half a million objects; no collection walks them
                index = MatchIndex(cast(Registry, copy))
            index.registry = registry  # kept current from now on with sync()
            self.indexes.append(index)
        except Exception as exc:  # Try a Request builds it again when asked
            self.errors.append((registry, f"Indexing the skills failed: {one_line(exc)}"))

    def _progress(self, done: int, total: int) -> None:
        if self._cancelled:
            raise _Cancelled
        now = time.monotonic()
        if done == total or now - self._last >= PROGRESS_INTERVAL_S:
            self._last = now
            self.progressed.emit(self._offset + done, self._offset + total)
