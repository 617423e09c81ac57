"""The refresh after files change outside the app: the registries (and the indexes the
open projects built of them) are read again in slices between events, so typing goes
on during a burst.

A step that yields True asks for the events to come in before what follows (a heavy
step: the registry's install, the tree's update, Problems'), so that no two of them
share a slice: at 10,000 skills the last slice of a 1,000-file burst held the event
loop for 80-105 ms with all of them."""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from PySide6.QtCore import QObject, QTimer, Signal

from ...core.model.scan import SKILL_FILE
from ...core.scanning.registry import Registry
from ..infra.collector import collections_held
from ..infra.free_memory import return_free_memory
from ..infra.one_line import one_line
from ..models.app_context import AppContext
from .document_tabs import DocumentTabs
from .skill_views import SkillViews

REFRESH_SLICE_S = 0.015  # a refresh of many files runs in slices this long between events
RELEASE_STEP = 200  # skills read again freed in a step (1-4 ms at 10,000 skills)


class Synced(Protocol):
    """An index kept current with its registry in steps (a match or likely index)."""

    def sync_steps(self) -> Iterator[None]: ...


def freeze_long_lived() -> None:
    """Move every object alive now (registries, match indexes, models) out of the
    cyclic collector's sight. They hold no reference cycles, so reference counting
    still frees them when replaced; without this, each full collection walks half
    a million objects at 10,000 skills: an 80-100 ms freeze at random moments
    while the user types. Then the memory the work let go of is given back to the
    system (gui/infra/free_memory.py)."""
    gc.freeze()
    QTimer.singleShot(0, return_free_memory)  # what the scan or refresh dropped, given back


class SlicedRefresh(QObject):
    """Files changed outside: refresh the registries in slices between events,
    then each affected open skill and the views. Changes that arrive while a
    refresh runs are taken by the next one. Runs on the GUI thread, which owns
    the registries (threads.py).

    An unexpected error (a bug on what changed) stays with what it concerns: a
    project's registry or index, said on the file that changed in it; a tab, said
    on the tab, which keeps its text. The rest of the refresh goes on.

    Signals:
    finished(): a refresh completed (what failed in it said in Problems) and every
        view shows its outcome; changes seen meanwhile are next.
    """

    finished = Signal()

    def __init__(
        self,
        context: AppContext,
        views: SkillViews,
        documents: DocumentTabs,
        indexes_of: Callable[[Registry], Sequence[Synced]],
        parent: QObject | None = None,
    ) -> None:
        """`indexes_of(registry)`: the indexes built of it so far (its open project's:
        AppContext.built_indexes), synced in the refresh's slices so that Try a
        Request's answer is quick after it."""
        super().__init__(parent)
        self.context = context
        self.views = views
        self.documents = documents
        self.indexes_of = indexes_of
        self.job: Iterator[bool | None] | None = None  # a refresh running in slices
        self.pending: set[str] = set()  # changes seen while it runs
        self.paths: list[str] = []  # the changes the running refresh takes
        self.failed: set[str] = set()  # where the running refresh failed (said in Problems)
        # The next slice: a zero timer (not QTimer.singleShot(0), a posted call, which
        # runs two slices back to back before a timer or input event gets its turn).
        # Called through the attribute, so that a test can count the slices.
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(0)
        self.timer.timeout.connect(lambda: self.run_slice())

    def changed(self, paths: list[str]) -> None:
        """The file watcher's slot: files changed outside the app."""
        self.pending.update(paths)
        if self.job is None:
            self.start()

    def start(self) -> None:
        paths = sorted(self.pending)
        self.pending.clear()
        self.paths = paths
        self.failed = set()
        self.job = self.steps(paths)
        self.run_slice()

    def steps(self, paths: list[str]) -> Iterator[bool | None]:
        """The refresh in slices, collections held meanwhile (infra/collector.py): the
        skills read again and the indexes' new entries are long-lived."""
        with collections_held():
            yield from self._steps(paths)

    def _steps(self, paths: list[str]) -> Iterator[bool | None]:
        registries = self.context.registries
        # The skills read again are freed here, a few at a time, once every view has
        # let go of them: freeing 1,000 (their documents, diagnostics, gists) took
        # 15-20 ms in whichever view held them last (the tree's update).
        retired = [
            skill
            for registry in registries
            for path in paths
            if (skill := registry.by_path.get(path)) is not None
        ]
        for registry in list(registries):
            # the watcher's paths spare the walk of the tree; its last file's step
            # yields True: the install (20-30 ms at 10,000 skills) gets a slice of its own.
            # A failure is said on the file (or root) it concerns; the rest goes on.
            where = blamed(registry, paths) or self.context.base
            yield from self._contained(
                registry.refresh_steps(paths), where, f"Reading {shown(where)} again"
            )
            yield True
            for index in self.indexes_of(registry):  # the match index, likely candidates'
                yield from self._contained(
                    index.sync_steps(),
                    where,
                    f"Updating Try a Request's ranking for {shown(where)}",
                )
        yield True
        self.views.sync_tree()  # 5-20 ms at 10,000: on its own, before Problems'
        yield True
        yield from self.documents.changed_on_disk(paths, self._tab_failed)
        self.views.refresh(rebuild=False)  # the tree is current: Problems, the panels
        freeze_long_lived()
        if retired:
            yield True
        while retired:
            del retired[-RELEASE_STEP:]
            yield None

    def _contained(
        self, steps: Iterator[bool | None], where: str, doing: str
    ) -> Iterator[bool | None]:
        """`steps`, an unexpected error in them (a core bug on what changed) said in
        Problems on `where`, the rest of the refresh going on: the registry keeps
        what it held (it changes only at its last step), the views show it so."""
        try:
            yield from steps
        except Exception as exc:
            self._failed(
                where,
                f"{doing} failed: {one_line(exc)}. The views show it as before; it is read "
                "again at the next change (or F5).",
            )

    def _tab_failed(self, path: str, exc: Exception) -> None:
        """An open tab failed to read its file again (the tab says so and keeps its text)."""
        self._failed(
            path,
            f"Reading {shown(path)} again in its tab failed: {one_line(exc)}. The tab keeps "
            "the text shown; it is read again at the next change (or F5).",
        )

    def _failed(self, path: str, message: str) -> None:
        self.failed.add(path)
        self.views.clear_failures({path})  # the newest failure on a file replaces the last
        self.views.fail(message, path)

    def run_slice(self, seconds: float | None = None) -> None:
        """Run the refresh for up to `seconds` (REFRESH_SLICE_S), then let events in;
        with `seconds` infinite, to its end."""
        job = self.job
        if job is None:
            return
        deadline = time.perf_counter() + (REFRESH_SLICE_S if seconds is None else seconds)
        try:
            for pause in job:
                if time.perf_counter() > deadline or (pause and seconds is None):
                    self.timer.start()
                    return
        except Exception as exc:  # a bug in the views: keep them as they were, keep watching
            self.job = None
            paths = self.paths or [self.context.base]
            changed = next((p for p in paths if p.endswith(SKILL_FILE)), paths[0])
            self.views.fail(
                f"Refreshing after a change to {shown(changed)} failed: "
                f"{one_line(exc)}. The views show the skills as before; they are read again "
                "at the next change (or F5).",
                changed,
            )
        else:
            self.job = None
            # read again without failing (a file that failed this time keeps its message)
            if self.views.clear_failures(set(self.paths) - self.failed):
                self.views.update_problems()
        self.finished.emit()
        if self.pending:
            self.start()

    def finish(self) -> None:
        """Complete a refresh under way now, and those of changes seen meanwhile
        (before a reload or an operation changes the registries itself)."""
        while self.job is not None:
            self.run_slice(float("inf"))

    def drop(self) -> None:
        """Forget a refresh under way (another folder is opened, the window closes)."""
        self.timer.stop()
        if self.job is not None:
            self.job.close()  # type: ignore[attr-defined]
            self.job = None
        self.pending.clear()

    def reload(self) -> None:
        """Read every registry and every tab without unsaved edits again, now (F5)."""
        self.finish()
        self.views.clear_failures()
        for registry in self.context.registries:
            try:
                registry.refresh()
            except Exception as exc:  # a core bug: the other folders still reload
                where = registry.roots[0].path if registry.roots else self.context.base
                self.views.fail(f"Reloading failed: {one_line(exc)}", where)
        self.documents.reload_unmodified()
        self.views.refresh(rebuild=False)


def blamed(registry: Registry, paths: list[str]) -> str:
    """Where a failure of `registry`'s refresh is said: the first changed SKILL.md it
    holds or that lies under its roots, else the first changed path under its roots,
    else its first root ("" without roots)."""
    roots = tuple(root.path + os.sep for root in registry.roots)
    inside = [p for p in paths if p in registry.by_path or p.startswith(roots)]
    skill = next((p for p in inside if os.path.basename(p) == SKILL_FILE), "")
    return skill or (inside[0] if inside else roots[0].rstrip(os.sep) if roots else "")


def shown(path: str) -> str:
    """A changed path as a message names it: `folder/SKILL.md` for a skill, else its
    file or folder name."""
    name = os.path.basename(path) or path
    if name == SKILL_FILE:
        return f"{os.path.basename(os.path.dirname(path))}/{name}"
    return name
