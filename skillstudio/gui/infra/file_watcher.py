"""FileWatcher: watchdog events gathered into one debounced `skills_changed(paths)`."""

from __future__ import annotations

import os
import threading

from PySide6.QtCore import QObject, QTimer, Signal
from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirModifiedEvent,
    DirMovedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer

from ...core.editing.saving import TEMP_PREFIX
from ...core.model.text import counted
from .pruned_watch import cut_short, make_observer, quiet_watchdog_warnings

DEBOUNCE_MS = 150
HEALTH_CHECK_MS = 1_000  # how often the watcher checks that its threads still run
SHALLOW_DEPTH = 6  # the fallback watches folders this deep, one by one
SHALLOW_MAX = 20_000
GIT = ".git"  # git's own folder (or, in a worktree or submodule, file): see in_git
_KINDS = {"created", "deleted", "modified", "moved"}
# Only these reach Python: the kernel is not even asked for opened / closed events,
# which every read of a skill (ours included) would otherwise produce.
_EVENTS: list[type[FileSystemEvent]] = [
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    DirCreatedEvent,
    DirDeletedEvent,
    DirModifiedEvent,
    DirMovedEvent,
]


class _Handler(FileSystemEventHandler):
    def __init__(self, watcher: FileWatcher) -> None:
        self._watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        # Runs on watchdog's thread: only record, then poke the Qt side.
        if event.event_type not in _KINDS:
            return  # opened / closed events arrive too; they change nothing
        paths = [os.fsdecode(event.src_path)]
        dest = getattr(event, "dest_path", "")
        if dest:
            paths.append(os.fsdecode(dest))  # an atomic save is a move onto SKILL.md
        self._watcher.record(paths)


class FileWatcher(QObject):
    """Signals:
    skills_changed(list): changed paths, once per debounce window, on the GUI thread.
    limited(str): the watches could not cover everything; the text says what is missed.

    watchdog's threads can die on what a folder holds (a 1,000-deep folder moved
    in ends its inotify thread with a RecursionError, silently). A health check
    notices, watches again (shallower if it must) and reports the watched folders
    as changed, so that what happened meanwhile is read.
    """

    skills_changed = Signal(list)
    limited = Signal(str)
    _poked = Signal()

    def __init__(self, parent: QObject | None = None, debounce_ms: int = DEBOUNCE_MS) -> None:
        super().__init__(parent)
        quiet_watchdog_warnings()
        self._lock = threading.Lock()
        self._pending: set[str] = set()
        self._watching: Observer | None = None  # type: ignore[valid-type]
        self._starter: threading.Thread | None = None
        self.ready = threading.Event()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(debounce_ms)
        self._timer.timeout.connect(self._flush)
        self._poked.connect(self._timer.start)  # queued: emitted from watchdog's thread
        self._folders: list[str] = []
        self._health = QTimer(self)
        self._health.setInterval(HEALTH_CHECK_MS)
        self._health.timeout.connect(self._check_health)

    def watch(self, folders: list[str], wait: bool = False) -> None:
        """Watch `folders` recursively from now on.

        Setting up inotify walks every folder (about 1 s for 10,000 skills), so it
        runs on a helper thread unless `wait`; `ready` tells when it is in place.
        """
        self.stop()
        self.ready = threading.Event()
        wanted = sorted({f for f in folders if os.path.isdir(f)})
        self._folders = wanted
        self._health.start()
        starter = threading.Thread(target=self._start, args=(wanted, self.ready), daemon=True)
        self._starter = starter
        starter.start()
        if wait:
            self.ready.wait()

    def _observer(self, folders: list[str], recursive: bool) -> Observer:  # type: ignore[valid-type]
        observer = make_observer()  # (no watch on .git and the other skipped trees)
        handler = _Handler(self)
        for folder in folders:
            observer.schedule(handler, folder, recursive=recursive, event_filter=_EVENTS)
        observer.daemon = True
        return observer

    def _start(self, folders: list[str], ready: threading.Event) -> None:
        """On the helper thread: recursive watches; where they cannot be set up (a
        tree deeper than Python's recursion limit, the inotify watch limit reached),
        each folder down to SHALLOW_DEPTH on its own; the app says what is missed."""
        try:
            observer = self._observer(folders, recursive=True)
            try:
                observer.start()  # type: ignore[attr-defined]
            except (RecursionError, OSError) as exc:
                _discard(observer)
                shallow = _folders_down_to(folders, SHALLOW_DEPTH, SHALLOW_MAX)
                observer = self._observer(shallow, recursive=False)
                observer.start()  # type: ignore[attr-defined]
                why = "too deep" if isinstance(exc, RecursionError) else str(exc)
                self.limited.emit(
                    f"Watching {counted(len(shallow), 'folder')} up to {SHALLOW_DEPTH} levels deep "
                    f"({why}); changes further down need Reload (F5)."
                )
            else:
                cut = cut_short(observer)
                if cut:
                    self.limited.emit(f"Changes in {cut} are not watched; use Reload (F5) there.")
            self._watching = observer
        except (RecursionError, OSError) as exc:
            self.limited.emit(f"Changes on disk are not watched ({exc}); use Reload (F5).")
        finally:
            ready.set()

    def _check_health(self) -> None:
        observer = self._watching
        if observer is None or not self.ready.is_set():
            return
        if _threads_alive(observer):
            return
        self.limited.emit("The file watcher stopped on something in the folder; watching again.")
        folders = self._folders
        broken, self._watching = self._watching, None
        threading.Thread(target=_discard, args=(broken,), daemon=True).start()  # no wait here
        self.watch(folders)
        self.record(folders)  # read what changed while nothing was watched

    def stop(self) -> None:
        self._health.stop()
        if self._starter is not None:
            self._starter.join()
            self._starter = None
        if self._watching is not None:
            self._watching.stop()
            if self._watching.is_alive():
                self._watching.join(timeout=2)
            self._watching = None

    def record(self, paths: list[str]) -> None:
        folders = self._folders
        relevant = [
            p
            for p in paths
            if not os.path.basename(p).startswith(TEMP_PREFIX) and not in_git(p, folders)
        ]
        if not relevant:
            return
        with self._lock:
            self._pending.update(relevant)
        self._poked.emit()

    def _flush(self) -> None:
        with self._lock:
            paths, self._pending = sorted(self._pending), set()
        if paths:
            self.skills_changed.emit(paths)


def in_git(path: str, folders: list[str]) -> bool:
    """Whether `path` is git's own below one of the watched `folders` (a `.git` folder
    or file, or anything in one). No scan, check or tab reads them: discovery and a
    skill's files leave `.git` out, and what a git command changes in the working tree
    comes as events of its own. Yet every command rewrites them by the dozen (a
    checkout of one file: the index, its lock, the logs), and each, outside every
    skill, sent the refresh on a walk of every root."""
    for folder in folders:
        if path.startswith(folder + os.sep):
            return GIT in path[len(folder) + 1 :].split(os.sep)
    return False


def _threads_alive(observer: Observer) -> bool:  # type: ignore[valid-type]
    """Whether the observer and every thread it reads events with still run. On
    Linux watchdog 7 reads inotify on one more thread per observer; a folder 1,000
    levels deep moved in ends it (RecursionError in its os.walk) and from then on
    no event arrives, though the observer and its emitters look alive."""
    threads = [observer, *observer.emitters]  # type: ignore[attr-defined]
    reader = getattr(observer, "_inotify_fd", None)
    if isinstance(reader, threading.Thread):
        threads.append(reader)
    return all(t.is_alive() for t in threads)


def _discard(observer: Observer) -> None:  # type: ignore[valid-type]
    """Stop what a failed start or a broken observer left running."""
    for emitter in list(observer.emitters):  # type: ignore[attr-defined]
        try:
            emitter.stop()
            if emitter.is_alive():
                emitter.join(timeout=2)
        except (RuntimeError, OSError):
            pass


def _folders_down_to(roots: list[str], depth: int, limit: int) -> list[str]:
    """Folders under `roots` (links not followed), breadth first, at most `limit`."""
    found: list[str] = []
    level = list(roots)
    for _ in range(depth + 1):
        below: list[str] = []
        for folder in level:
            if len(found) >= limit:
                return found
            found.append(folder)
            try:
                with os.scandir(folder) as entries:
                    below.extend(e.path for e in entries if e.is_dir(follow_symlinks=False))
            except OSError:
                continue
        level = sorted(below)
    return found
