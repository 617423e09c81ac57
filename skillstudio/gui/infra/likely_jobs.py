"""The likely-candidates and overlap indexes of the open projects, built off the GUI thread.

A `LikelyIndex` of 10,000 skills takes 2.5 s to build (measured with
tests/benchmarks): built on first use it would freeze the window that long. Here
it is built in a QThreadPool worker from a list of the registry's active skills
taken on the GUI thread (read there, never written: threads.py), then handed to
the GUI thread, where the open project of its registry (core/projects/open_project.py,
held by gui/models/app_context.py) adopts it, brings it up to date with `sync()` (only
the skills edited meanwhile) and keeps it current from then on. An index is built only for a
registry the panels were given (complete: a scan's gists are in by then); until
it lands, the callers show what they can without it and are told by `ready` when
to try again.

An edit that moves a snapped average field length asks for every weight again
(core/ranking/likely_index.py: 1.3 s at 10,000 skills; per keystroke, for an edit
going back and forth across a step). The app's indexes leave that to a worker here
(`defer_reweigh`): they rank with the weights they have until the new ones land, then
as a fresh build again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from ...core.model.delivered import ListingView
from ...core.model.skills import Skill
from ...core.profile import Profile
from ...core.projects.open_project import OpenProject
from ...core.ranking.estimate import LIKELY_MODEL, Model
from ...core.ranking.likely_index import LikelyIndex
from ...core.ranking.overlap import OVERLAP_MODEL, THRESHOLD, Pair, overlaps
from ...core.scanning.registry import Registry
from .background import LatestJob
from .free_memory import return_free_memory


def _build(
    skills: list[Skill], model: Model, profile: Profile, view: ListingView | None = None
) -> LikelyIndex:
    index = LikelyIndex(None, model, profile, view)
    index.add_all(skills)
    return index


def overlap_pairs(copy: Registry, threshold: float = THRESHOLD) -> list[Pair]:
    """`skillstudio overlap`'s pairs of the active skills of `copy` (a `snapshot`
    taken on the GUI thread; on a worker: its own index)."""
    index = _build(list(copy.active.values()), OVERLAP_MODEL, copy.profile)
    pairs = overlaps(copy, threshold, index=index)
    _drain(index)
    return pairs


def _drain(index: LikelyIndex) -> None:
    """Free an index in small pieces: dropped at once, its half a million objects are
    freed in one call that holds the interpreter lock (measured: a 120 ms stall of the
    GUI thread at 10,000 skills)."""
    index.postings.drain()
    while index.docs:
        index.docs.popitem()
    while index.slots:
        index.slots.pop()


class LikelyIndexes(QObject):
    """The builder of the open projects' likely indexes: built here off the GUI thread,
    then adopted by the open project of their registry (core/projects/open_project.py,
    found with `home`), which keeps them current; asked for again, they are read there.

    Signals:
    ready(object): an index of this registry was built (ask `get` again).
    failed(str): building one failed (a core bug), with what failed.
    """

    ready = Signal(object)
    failed = Signal(str)

    def __init__(
        self, home: Callable[[Registry], OpenProject | None], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.home = home
        # (id(registry), model) -> the registry, while its index is built or waits
        self._building: dict[tuple[int, Model], Registry] = {}
        self._open: set[int] = set()  # ids of the registries indexes may be built for
        self._waiting: set[tuple[int, Model]] = set()  # asked for before theirs opened
        # one build per index, the collector held off (hundreds of thousands of objects)
        self._jobs: dict[tuple[int, Model], LatestJob] = {}
        self.build_ms: list[float] = []  # how long each build took (off the GUI thread)
        self._weighing: dict[tuple[int, Model], LatestJob] = {}  # weights recomputed
        self._freeing = LatestJob(self, quiet=True)  # the weights they replaced freed

    def get(self, registry: Registry, model: Model = LIKELY_MODEL) -> LikelyIndex | None:
        """The registry's index under `model`, up to date, or None while it is built."""
        if self.peek(registry, model) is not None:
            open_project = self.home(registry)
            index = open_project.likely_index(model) if open_project is not None else None
            if index is not None and index.reweigh_due:
                self._reweigh((id(registry), model), index)
            return index
        key = (id(registry), model)
        if self._building.get(key) is registry:
            return None
        self._building[key] = registry
        if id(registry) not in self._open:  # a scan's, not landed yet: built when it is
            self._waiting.add(key)
            return None
        self._build(key, registry, model)
        return None

    def _build(self, key: tuple[int, Model], registry: Registry, model: Model) -> None:
        skills = list(registry.active.values())
        # what the listing shows of each skill (the likely ranking reads only that),
        # worked out here, on the GUI thread, where the registry is read
        home = self.home(registry)
        view = home.listing_view() if home is not None and model is LIKELY_MODEL else None

        def landed(index: Any, error: str | None) -> None:
            if self._building.get(key) is not registry:
                return  # dropped meanwhile (another folder, another profile)
            del self._building[key]
            if index is None:
                self.failed.emit(f"Building the likely-candidates index failed: {error}")
                return
            open_project = self.home(registry)
            if open_project is None:
                return  # no longer open
            index.registry = registry  # from now on kept current with sync()
            open_project.take_likely(model, index)
            index.defer_reweigh = True  # from now on its weights recomputed here (`_reweigh`)
            self.ready.emit(registry)
            QTimer.singleShot(0, return_free_memory)  # what the build dropped, given back

        profile = registry.profile
        job = self._jobs.get(key)
        if job is None:
            job = self._jobs[key] = LatestJob(self, quiet=True)
        job.submit(lambda: _build(skills, model, profile, view), landed)

    def _reweigh(self, key: tuple[int, Model], index: LikelyIndex) -> None:
        """`index`'s weights worked out again by a worker (once at a time; an edit
        before they land leaves them out, and the next `get` asks again); `ready` once
        they are in, so that what ranked with the old ones ranks again."""
        job = self._weighing.get(key)
        if job is None:
            job = self._weighing[key] = LatestJob(self, quiet=True)
        elif job.busy:
            return

        def landed(weights: Any, error: str | None) -> None:
            if weights is None:
                self.failed.emit(f"Weighing the likely candidates again failed: {error}")
                return
            replaced = index.take_weights(weights)
            if replaced is not None:  # (freed here, they held the GUI thread 10-30 ms)
                self._freeing.submit(replaced.drain, lambda _r, _e: None)
                if index.registry is not None:
                    self.ready.emit(index.registry)

        job.submit(index.weights_job(), landed)

    def peek(self, registry: Registry, model: Model = LIKELY_MODEL) -> LikelyIndex | None:
        """The index if built, without syncing or starting a build."""
        open_project = self.home(registry)
        return open_project.built_likely(model) if open_project is not None else None

    def keep_only(self, registries: list[Registry]) -> None:
        """The registries open now (handed over complete, a scan's gists in): the
        builds for others are forgotten, those asked for meanwhile are started."""
        alive = {id(r) for r in registries}
        self._open = alive
        for key in [k for k, r in self._building.items() if id(r) not in alive]:
            del self._building[key]
        for jobs in (self._jobs, self._weighing):
            for key in [k for k in jobs if k[0] not in alive]:
                jobs.pop(key).deleteLater()  # its build, if it runs, lands nowhere
        waiting, self._waiting = self._waiting, set()
        for key in waiting:
            if key in self._building:
                self._build(key, self._building[key], key[1])
