"""The refresh after files change outside the app: the registries (and Try a Request's
index) are read again in slices between events, so typing goes on during a burst.

A step that yields True asks for the events to come in before what follows (a heavy
step: the registry's install, the tree's update, Problems'), so that no two of them
share a slice: at 10,000 skills the last slice of a 1,000-file burst held the event
loop for 80-105 ms with all of them."""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer

from .scanner import one_line

if TYPE_CHECKING:
    from .main_window import MainWindow

REFRESH_SLICE_S = 0.015  # a refresh of many files runs in slices this long between events
RELEASE_STEP = 200  # skills read again freed in a step (1-4 ms at 10,000 skills)


def freeze_long_lived() -> None:
    """Move every object alive now (registries, match indexes, models) out of the
    cyclic collector's sight. They hold no reference cycles, so reference counting
    still frees them when replaced; without this, each full collection walks half
    a million objects at 10,000 skills: an 80-100 ms freeze at random moments
    while the user types."""
    gc.freeze()


class SlicedRefresh:
    """Files changed outside: refresh the registries in slices between events,
    then each affected open skill and the views. Changes that arrive while a
    refresh runs are taken by the next one. Each slice runs through the window's
    `_refresh_slice` (its timer slot)."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.job: Iterator[bool | None] | None = None  # a refresh running in slices
        self.pending: set[str] = set()  # changes seen while it runs
        self.paths: list[str] = []  # the changes the running refresh takes
        # The next slice: a zero timer (not QTimer.singleShot(0), a posted call, which
        # runs two slices back to back before a timer or input event gets its turn).
        self.timer = QTimer(window)
        self.timer.setSingleShot(True)
        self.timer.setInterval(0)
        self.timer.timeout.connect(lambda: self.window._refresh_slice())

    def changed(self, paths: list[str]) -> None:
        self.pending.update(paths)
        if self.job is None:
            self.start()

    def start(self) -> None:
        paths = sorted(self.pending)
        self.pending.clear()
        self.paths = paths
        self.job = self.steps(paths)
        self.window._refresh_slice()

    def steps(self, paths: list[str]) -> Iterator[bool | None]:
        window = self.window
        # The skills read again are freed here, a few at a time, once every view has
        # let go of them: freeing 1,000 (their documents, diagnostics, gists) took
        # 15-20 ms in whichever view held them last (the tree's update).
        retired = [
            skill
            for registry in window.registries
            for path in paths
            if (skill := registry.by_path.get(path)) is not None
        ]
        for registry in list(window.registries):
            # the watcher's paths spare the walk of the tree; its last file's step
            # yields True: the install (35 ms at 10,000 skills) gets a slice of its own
            yield from registry.refresh_steps(paths)
            yield True
            index = window.query_panel.indexes.get(id(registry))
            if index is not None:  # Try a Request's index, so that its answer is quick
                yield from index.sync_steps()
            for likely in window.query_panel.likely_indexes.built(registry):
                yield from likely.sync_steps()  # likely candidates, competes with
        yield True
        window._sync_tree()  # 5-20 ms at 10,000: on its own, before Problems'
        yield True
        changed = set(paths)
        for path, editor in list(window.documents.items()):
            folder = os.path.dirname(path) + os.sep
            if path in changed or any(p.startswith(folder) for p in changed):
                editor.document.on_disk_changed()
            elif editor.document.modified:
                editor.document.validate()  # the text on screen stays the registry's truth
            else:
                continue
            yield True  # each re-read tab updates Problems and the tree: 10-30 ms at 10,000
        window._refresh_views(rebuild=False)  # the tree is current: Problems, the panels
        freeze_long_lived()
        if retired:
            yield True
        while retired:
            del retired[-RELEASE_STEP:]
            yield None

    def run_slice(self, seconds: float | None = None) -> None:
        """Run the refresh for up to `seconds` (REFRESH_SLICE_S), then let events in;
        with `seconds` infinite, to its end."""
        job, window = self.job, self.window
        if job is None:
            return
        deadline = time.perf_counter() + (REFRESH_SLICE_S if seconds is None else seconds)
        try:
            for pause in job:
                if time.perf_counter() > deadline or (pause and seconds is None):
                    self.timer.start()
                    return
        except Exception as exc:  # a core bug: keep the views as they were, keep watching
            self.job = None
            paths = self.paths or [window.base]
            changed = next((p for p in paths if p.endswith("SKILL.md")), paths[0])
            window._failed(
                f"Refreshing after a change to {os.path.basename(changed) or changed} failed: "
                f"{one_line(exc)}. The views show the skills as before; they are read again "
                "at the next change (or F5).",
                changed,
            )
        else:
            self.job = None
            done = set(self.paths)  # read again without failing this time
            if any(d.path in done for d in window._failures):
                window._failures = [d for d in window._failures if d.path not in done]
                window._update_problems()
        window.refresh_finished.emit()
        if self.pending:
            self.start()

    def finish(self) -> None:
        """Complete a refresh under way now, and those of changes seen meanwhile
        (before a reload or an operation changes the registries itself)."""
        while self.job is not None:
            self.window._refresh_slice(float("inf"))

    def drop(self) -> None:
        """Forget a refresh under way (another folder is opened, the window closes)."""
        self.timer.stop()
        if self.job is not None:
            self.job.close()  # type: ignore[attr-defined]
            self.job = None
        self.pending.clear()
