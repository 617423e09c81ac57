"""The file watcher's observer on Linux: inotify watches on every folder below the
watched ones except the trees a scan never enters (core/model/scan.py SKIPPED_TREES:
`.git`, `node_modules`, virtual environments, caches, build output). watchdog's own
recursive watch adds one on each of them (a repository's `.git` holds hundreds of
folders: watches that cost kernel memory and count against the user's inotify limit,
for events the watcher drops). Elsewhere, or with a watchdog whose inotify classes
are not these (they are its internals: 7.x), `make_observer` gives watchdog's own.

A folder moved out of a watched tree and back makes watchdog warn (a RuntimeWarning
naming its callback ids) from its threads: those warnings are not the user's to read,
and `quiet_watchdog_warnings` keeps them off the terminal.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

from watchdog.observers import Observer

from ...core.model.scan import SKIPPED_TREES

SKIPPED = frozenset(os.fsencode(name) for name in SKIPPED_TREES)

try:  # watchdog 7's inotify internals (Linux)
    from watchdog.observers.inotify import InotifyEmitter, InotifyObserver, InotifyWatchGroup

    PRUNED = True
except ImportError:  # another platform or another watchdog: its own recursive watch
    PRUNED = False


def quiet_watchdog_warnings() -> None:
    """watchdog's RuntimeWarnings (a watch's callback set twice or removed twice, as a
    folder moved out and back does) are not printed: the watcher goes on either way."""
    warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"watchdog(\.|$)")


def make_observer() -> Any:
    """An observer that leaves the skipped trees unwatched where it can (see above)."""
    if not PRUNED:
        return Observer()
    return PrunedObserver()


if PRUNED:

    class PrunedGroup(InotifyWatchGroup):
        """watchdog's watch group, without a watch on a skipped tree or below it."""

        def _add_all_callbacks(self, path: bytes) -> None:
            if path != self.path and os.path.basename(path) in SKIPPED:
                return  # (a `.git` made or moved in later: not watched either)
            self._add_callback(path)
            if not (self.is_recursive and os.path.isdir(path)):
                return
            for root, dirnames, _ in os.walk(path, followlinks=self.follow_symlink):
                dirnames[:] = [d for d in dirnames if d not in SKIPPED]
                for dirname in dirnames:
                    full = os.path.join(root, dirname)
                    if self.follow_symlink or not os.path.islink(full):
                        self._add_callback(full)

    class PrunedEmitter(InotifyEmitter):
        def on_thread_start(self) -> None:
            self._inotify = PrunedGroup(
                self._inotify_fd,
                os.fsencode(self.watch.path),
                is_recursive=self.watch.is_recursive,
                event_mask=self.get_event_mask_from_filter(),
                follow_symlink=self.watch.follow_symlink,
            )

    class PrunedObserver(InotifyObserver):
        def __init__(self) -> None:
            super().__init__()
            self._emitter_class = PrunedEmitter
