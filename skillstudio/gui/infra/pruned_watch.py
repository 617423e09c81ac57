"""The file watcher's observer on Linux: inotify watches on every folder below the
watched ones except the trees a scan never enters (core/model/scan.py SKIPPED_TREES:
`.git`, `node_modules`, virtual environments, caches, build output). watchdog's own
recursive watch adds one on each of them (a repository's `.git` holds hundreds of
folders: watches that cost kernel memory and count against the user's inotify limit,
for events the watcher drops). Elsewhere, or with a watchdog whose inotify classes
are not these (they are its internals: 7.x), `make_observer` gives watchdog's own.

The folders are walked as everywhere in the project (core/reading/safefs.py `walk`):
without recursion (watchdog's own `os.walk` recurses once per level and ended its
thread on a folder 1,000 levels deep), links not followed, and bounded: at most
MAX_FOLDERS watches per watched folder, MAX_DEPTH levels below it. A walk cut short
says so (`cut_short`), and the app tells what is not watched. The events watchdog
makes up for what a folder made or moved in holds are gathered the same way (its
`generate_sub_*_events`, os.walk again, are replaced in its inotify module).

A folder moved out of a watched tree and back makes watchdog warn (a RuntimeWarning
naming its callback ids) from its threads: those warnings are not the user's to read,
and `quiet_watchdog_warnings` keeps them off the terminal.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from itertools import islice
from typing import Any

from watchdog.events import DirCreatedEvent, DirMovedEvent, FileCreatedEvent, FileMovedEvent
from watchdog.observers import Observer

from ...core.model.scan import SKIPPED_TREES
from ...core.reading.safefs import walk

SKIPPED = frozenset(os.fsencode(name) for name in SKIPPED_TREES)
# Deeper than a scan looks for skills (scan.max_depth, 8 by default) with a skill's own
# folders below; more folders than 10,000 skills with references/ and scripts/ hold.
MAX_DEPTH = 24
MAX_FOLDERS = 100_000

try:  # watchdog 7's inotify internals (Linux)
    from watchdog.observers import inotify
    from watchdog.observers.inotify import InotifyEmitter, InotifyObserver, InotifyWatchGroup
    from watchdog.observers.inotify_c import InotifyConstants, InotifyEvent, Mask

    _NEW_DIR = Mask(InotifyConstants.IN_CREATE | InotifyConstants.IN_ISDIR)
    _NEW_FILE = InotifyConstants.IN_CREATE

    PRUNED = True
except ImportError:  # another platform or another watchdog: its own recursive watch
    PRUNED = False


def quiet_watchdog_warnings() -> None:
    """watchdog's RuntimeWarnings (a watch's callback set twice or removed twice, as a
    folder moved out and back does) are not printed: the watcher goes on either way."""
    warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"watchdog(\.|$)")


def cut_short(observer: Any) -> str:
    """What the observer's walks left unwatched, in words ("folders more than 24 levels
    deep"; "" when nothing was)."""
    for emitter in list(getattr(observer, "emitters", ())):
        cut = getattr(getattr(emitter, "_inotify", None), "cut", "")
        if cut:
            return str(cut)
    return ""


def _below(top: str) -> Iterator[tuple[str, list[str], list[os.DirEntry[str]]]]:
    """`walk` without the skipped trees, at most MAX_DEPTH levels and MAX_FOLDERS
    folders (for the events made up for a folder's contents)."""
    for folder, subfolders, files in islice(walk(top, MAX_DEPTH), MAX_FOLDERS):
        subfolders[:] = [d for d in subfolders if os.fsencode(d) not in SKIPPED]
        yield folder, subfolders, files


def _sub_created_events(path: bytes | str) -> Iterator[DirCreatedEvent | FileCreatedEvent]:
    """watchdog's generate_sub_created_events, walked as above."""
    for folder, subfolders, files in _below(os.fsdecode(path)):
        for name in subfolders:
            yield DirCreatedEvent(os.path.join(folder, name), is_synthetic=True)
        for entry in files:
            yield FileCreatedEvent(entry.path, is_synthetic=True)


def _sub_moved_events(
    src: bytes | str, dest: bytes | str
) -> Iterator[DirMovedEvent | FileMovedEvent]:
    """watchdog's generate_sub_moved_events, walked as above."""
    src, dest = os.fsdecode(src), os.fsdecode(dest)

    def before(path: str) -> str:
        return src + path[len(dest) :] if src else ""

    for folder, subfolders, files in _below(dest):
        for name in subfolders:
            full = os.path.join(folder, name)
            yield DirMovedEvent(before(full), full, is_synthetic=True)
        for entry in files:
            yield FileMovedEvent(before(entry.path), entry.path, is_synthetic=True)


def make_observer() -> Any:
    """An observer that leaves the skipped trees unwatched where it can (see above)."""
    if not PRUNED:
        return Observer()
    return PrunedObserver()


if PRUNED:

    class PrunedGroup(InotifyWatchGroup):
        """watchdog's watch group, without a watch on a skipped tree or below it."""

        cut = ""  # set by a walk cut short at a bound (see cut_short)

        def _add_all_callbacks(self, path: bytes) -> None:
            if path != self.path and os.path.basename(path) in SKIPPED:
                return  # (a `.git` made or moved in later: not watched either)
            self._add_callback(path)
            if self.is_recursive and os.path.isdir(path):
                for folder in self._folders_below(path):
                    self._add_callback(folder)

        def _recursive_simulate(self, src_path: bytes) -> list[InotifyEvent]:
            """The created events for what a folder made or moved in holds (watchdog's
            own walks it with os.walk), for the folders that got a watch."""
            events: list[InotifyEvent] = []
            for folder, subfolders, files in _below(os.fsdecode(src_path)):
                wd = self._active_callbacks_by_path.get(os.fsencode(folder))
                if wd is None:  # not watched (past a bound, or its own event will come)
                    subfolders.clear()
                    continue
                events.extend(InotifyEvent(wd, _NEW_DIR, 0, os.fsencode(d)) for d in subfolders)
                events.extend(InotifyEvent(wd, _NEW_FILE, 0, os.fsencode(f.name)) for f in files)
            return events

        def _folders_below(self, path: bytes) -> list[bytes]:
            """The folders below `path` to watch: skipped trees and links left out, at
            most MAX_DEPTH levels down and MAX_FOLDERS in all (with those watched)."""
            found: list[bytes] = []
            room = MAX_FOLDERS - len(self._active_callbacks_by_path)
            root = os.fsdecode(self.path)
            for folder, subfolders, _files in walk(os.fsdecode(path)):
                subfolders[:] = [d for d in subfolders if os.fsencode(d) not in SKIPPED]
                below = os.path.relpath(folder, root)
                depth = 0 if below == os.curdir else below.count(os.sep) + 1
                if subfolders and depth >= MAX_DEPTH:
                    self.cut = f"folders more than {MAX_DEPTH} levels deep"
                    subfolders.clear()
                if len(found) + len(subfolders) > room:
                    self.cut = f"folders past the first {MAX_FOLDERS:,}"
                    del subfolders[max(room - len(found), 0) :]
                found.extend(os.fsencode(os.path.join(folder, d)) for d in subfolders)
                if self.cut and len(found) >= room:
                    return found
            return found

    class PrunedEmitter(InotifyEmitter):
        def on_thread_start(self) -> None:
            self._inotify = PrunedGroup(
                self._inotify_fd,
                os.fsencode(self.watch.path),
                is_recursive=self.watch.is_recursive,
                event_mask=self.get_event_mask_from_filter(),
                follow_symlink=self.watch.follow_symlink,
            )

    inotify.generate_sub_created_events = _sub_created_events  # type: ignore[assignment]
    inotify.generate_sub_moved_events = _sub_moved_events  # type: ignore[assignment]

    class PrunedObserver(InotifyObserver):
        def __init__(self) -> None:
            super().__init__()
            self._emitter_class = PrunedEmitter
