"""The likely-candidates and overlap indexes of the open projects, built off the GUI thread.

A `LikelyIndex` of 10,000 skills takes 2.5 s to build (measured with
tests/benchmarks): built on first use it would freeze the window that long. Here
it is built in a QThreadPool worker from a list of the registry's active skills
taken on the GUI thread (read there, never written: threads.py), then handed to
the GUI thread, which brings it up to date with `sync()` (only the skills edited
meanwhile) and keeps it current from then on. An index is built only for a
registry the panels were given (complete: a scan's gists are in by then); until
it lands, the callers show what they can without it and are told by `ready` when
to try again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from ..core.model.skills import Skill
from ..core.profile import Profile
from ..core.ranking.estimate import LIKELY_MODEL, Model
from ..core.ranking.likely_index import LikelyIndex
from ..core.ranking.overlap import OVERLAP_MODEL, THRESHOLD, Pair, overlaps
from ..core.scanning.registry import Registry, quiet_gc
from .background import run_in_background


def run_off_thread(
    work: Callable[[], Any], done: Callable[[Any, str | None], None], owner: QObject
) -> None:
    """Run `work()` in the global thread pool with the cyclic collector held off (an
    index is hundreds of thousands of small objects, no cycles); `done(result, error)`
    on the GUI thread while `owner` lives (background.py)."""

    def quiet() -> Any:
        with quiet_gc():
            return work()

    run_in_background(quiet, done, owner)


def _build(skills: list[Skill], model: Model, profile: Profile) -> LikelyIndex:
    index = LikelyIndex(None, model, profile)
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
    for table in (index.postings, index.docs):
        while table:
            table.popitem()
    while index.slots:
        index.slots.pop()


class LikelyIndexes(QObject):
    """Signals:
    ready(object): an index of this registry was built (ask `get` again).
    failed(str): building one failed (a core bug), with what failed.
    """

    ready = Signal(object)
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        # (id(registry), model) -> (registry, index or None while building)
        self._indexes: dict[tuple[int, Model], tuple[Registry, LikelyIndex | None]] = {}
        self._open: set[int] = set()  # ids of the registries indexes may be built for
        self._waiting: set[tuple[int, Model]] = set()  # asked for before theirs opened
        self.build_ms: list[float] = []  # how long each build took (off the GUI thread)

    def get(self, registry: Registry, model: Model = LIKELY_MODEL) -> LikelyIndex | None:
        """The registry's index under `model`, up to date, or None while it is built."""
        key = (id(registry), model)
        found = self._indexes.get(key)
        if found is not None and found[0] is registry:
            index = found[1]
            if index is not None:
                index.sync()
            return index
        self._indexes[key] = (registry, None)
        if id(registry) not in self._open:  # a scan's, not landed yet: built when it is
            self._waiting.add(key)
            return None
        self._build(key, registry, model)
        return None

    def _build(self, key: tuple[int, Model], registry: Registry, model: Model) -> None:
        skills = list(registry.active.values())

        def landed(index: Any, error: str | None) -> None:
            if self._indexes.get(key, (None,))[0] is not registry:
                return  # dropped meanwhile (another folder, another profile)
            if index is None:
                del self._indexes[key]
                self.failed.emit(f"Building the likely-candidates index failed: {error}")
                return
            index.registry = registry  # from now on kept current with sync()
            self._indexes[key] = (registry, index)
            self.ready.emit(registry)

        profile = registry.profile
        run_off_thread(lambda: _build(skills, model, profile), landed, self)

    def peek(self, registry: Registry, model: Model = LIKELY_MODEL) -> LikelyIndex | None:
        """The index if built, without syncing or starting a build."""
        found = self._indexes.get((id(registry), model))
        return found[1] if found is not None and found[0] is registry else None

    def built(self, registry: Registry) -> list[LikelyIndex]:
        """The registry's indexes built so far (the sliced refresh syncs them)."""
        return [i for r, i in self._indexes.values() if r is registry and i is not None]

    def keep_only(self, registries: list[Registry]) -> None:
        """The registries open now (handed over complete, a scan's gists in): the
        indexes of others are forgotten, those asked for meanwhile are built."""
        alive = {id(r) for r in registries}
        self._open = alive
        for key in [k for k, (r, _i) in self._indexes.items() if id(r) not in alive]:
            del self._indexes[key]
        waiting, self._waiting = self._waiting, set()
        for key in waiting:
            if key in self._indexes:
                self._build(key, self._indexes[key][0], key[1])
