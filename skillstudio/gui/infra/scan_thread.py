"""ScanThread: full scans of the opened projects' registries, off the GUI thread.

Who owns what, and when it changes hands, is in threads.py: the registries are the
thread's until `scanned`, whose payload hands them to the GUI thread; after it the
thread reads only copies it took before, and its results (match indexes, gists,
errors) cross as the payload of `done`.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, QThread, Signal

from ...core.model.skills import Skill
from ...core.ranking.match_index import MatchIndex
from ...core.scanning.parallel import Workers, fill_gists
from ...core.scanning.registry import Registry, quiet_gc
from .collector import collections_held
from .one_line import one_line
from .threads import snapshot

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


@dataclass(frozen=True)
class ScanRead:
    """`scanned`'s payload. `registries`: read, and the GUI thread's from now on;
    `prepared`: what the scan's `prepare` built from them (None if it failed: the
    views build it again); `resume()`: the GUI thread calls it once its first
    layout of them is done, and the thread goes on to the gists and indexes."""

    registries: list[Registry]
    prepared: object
    resume: Callable[[], None]


@dataclass(frozen=True)
class ScanDone:
    """`done`'s payload: the thread's results, its own objects until they cross.
    `ok`: False when cancelled. `gists`: (skill, its gist) for each skill read
    without one: the GUI thread sets them (threads.py: no other thread writes to a
    skill it holds). `errors`: a registry and what failed in it. `worker_chunks`:
    pieces of the work reader processes did."""

    ok: bool
    indexes: list[MatchIndex]
    gists: list[tuple[Skill, str]]
    errors: list[tuple[Registry, str]]
    worker_chunks: int


class ScanThread(QThread):
    """Signals (queued to the GUI thread):
    progressed(int, int): skills read so far and the total, over every registry.
    scanned(ScanRead): every registry was read and `prepare` built the views' rows:
        the registries pass to the GUI thread with it (the window shows them). From
        then on this thread reads only what it copied before: the active skills
        (for the open projects' match indexes) and stand-ins for the gists' work.
    done(ScanDone): the scan's end (its finished signal, with its results): every
        registry scanned (some perhaps with errors) and indexed, or cancelled.

    The skills are read without their gists (core/reading/skill_words.py: the body in brief, which
    costs twice the rest of reading a skill), so that the tree shows them as soon as
    `skillstudio lint` would have them; the gists are worked out after `scanned`,
    on stand-ins of the skills, and set by the GUI thread when `done` lands, before
    any likely index is built (nothing ranks with them before).

    A failure in one registry (a core bug, or input no check foresaw) is kept in
    the errors and the others are scanned all the same: the app never loses a whole
    folder to one file.
    """

    progressed = Signal(int, int)
    scanned = Signal(object)
    done = Signal(object)

    def __init__(
        self,
        registries: list[Registry],
        parent: QObject | None = None,
        prepare: Callable[[list[Registry]], object] | None = None,
    ) -> None:
        """`registries` are the thread's until `scanned`. `prepare(registries)` runs
        here after the scan (the views' rows, built off the GUI thread); its answer is
        `scanned`'s `prepared`, and the indexes then wait for `resume` (the window's
        first layout of the rows)."""
        super().__init__(parent)
        self.registries = registries
        self.prepare = prepare
        self._cancelled = False
        # Set by the window once the tree and Problems are laid out: the indexes are
        # built after (competing for the interpreter lock with the first layout's
        # calls into Python, they made it a 300 ms pause at 10,000 skills).
        self._resume = threading.Event()
        self._offset = 0
        self._last = 0.0

    def cancel(self) -> None:
        self._cancelled = True
        self._resume.set()

    def run(self) -> None:
        with reader_processes() as workers:
            with collections_held():  # the registries it builds are long-lived
                done = self._run(workers)
            self.done.emit(done)

    def _run(self, workers: Workers) -> ScanDone:
        errors: list[tuple[Registry, str]] = []
        read: list[Registry] = []
        try:
            for registry in self.registries:
                if self._scan_one(registry, workers, errors):
                    read.append(registry)
        except _Cancelled:
            return ScanDone(False, [], [], errors, workers.answered[0])
        prepared: object = None
        if self.prepare is not None:
            try:
                with quiet_gc():
                    prepared = self.prepare(self.registries)
            except Exception:  # the window builds them itself
                prepared = None
        # What this thread reads after the hand-over, taken before it: copies of the
        # active skills for the match indexes (0.8 s at 10,000 skills, built after the
        # tree is shown) and the skills whose gists it works out (on stand-ins).
        copies = [snapshot(registry) for registry in read]
        gistless = [(r, list(r.skills)) for r in read if r.gists and r.profile.model_chooses]
        large = sum(len(r.skills) for r in read) >= RESUME_MIN_SKILLS
        self.scanned.emit(ScanRead(self.registries, prepared, self._resume.set))
        if self.prepare is not None and large:
            self._resume.wait(RESUME_AFTER_S)
        gists = self._gists(gistless, workers, errors)
        indexes: list[MatchIndex] = []
        for registry, copy in zip(read, copies, strict=True):
            if self._cancelled:
                break
            self._index(registry, copy, indexes, errors)
        ok = not self._cancelled
        return ScanDone(ok, indexes, gists, errors, workers.answered[0])

    def _gists(
        self,
        gistless: list[tuple[Registry, list[Skill]]],
        workers: Workers,
        errors: list[tuple[Registry, str]],
    ) -> list[tuple[Skill, str]]:
        """The gists the scan left out, worked out on stand-ins of the skills (11 ms
        to make at 10,000 skills: after the hand-over, not before the tree)."""
        found: list[tuple[Skill, str]] = []
        for registry, skills in gistless:
            pairs = _stand_ins(skills)
            try:
                with quiet_gc():
                    fill_gists([stand_in for _s, stand_in in pairs], workers, self._stopped)
            except Exception as exc:  # ranked without them until the files change
                errors.append((registry, f"Reading the skills' bodies failed: {one_line(exc)}"))
            found.extend((skill, stand_in.gist) for skill, stand_in in pairs if stand_in.gist)
        return found

    def _stopped(self) -> bool:
        return self._cancelled

    def _scan_one(
        self, registry: Registry, workers: Workers, errors: list[tuple[Registry, str]]
    ) -> bool:
        try:
            registry.scan(self._progress, workers, defer_gists=True)
        except _Cancelled:
            raise
        except Exception as exc:  # a core bug must not take the app down
            errors.append((registry, f"Reading the skills failed: {one_line(exc)}"))
            return False
        finally:
            self._offset += len(registry.skills)
        return True

    def _index(
        self,
        registry: Registry,
        copy: Registry,
        indexes: list[MatchIndex],
        errors: list[tuple[Registry, str]],
    ) -> None:
        try:
            with quiet_gc():  # half a million objects; no collection walks them
                index = MatchIndex(copy)
            index.registry = registry  # kept current from now on with sync(), by the GUI
            indexes.append(index)
        except Exception as exc:  # Try a Request builds it again when asked
            errors.append((registry, f"Indexing the skills failed: {one_line(exc)}"))

    def _progress(self, done: int, total: int) -> None:
        if self._cancelled:
            raise _Cancelled
        now = time.monotonic()
        if done == total or now - self._last >= PROGRESS_INTERVAL_S:
            self._last = now
            self.progressed.emit(self._offset + done, self._offset + total)


def _stand_ins(skills: list[Skill]) -> list[tuple[Skill, Skill]]:
    """(skill, its stand-in) for each skill read without a gist: the stand-in has
    what `fill_gists` reads (the file, its size and time, where the body starts) and
    takes the gist, so that the skills the GUI thread holds are not written here."""
    return [
        (skill, Skill(skill.path, skill.root, skill.doc, skill.mtime_ns, skill.size))
        for skill in skills
        if not skill.gist
    ]
