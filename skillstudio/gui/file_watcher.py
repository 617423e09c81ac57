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

from ..core.saving import TEMP_PREFIX

DEBOUNCE_MS = 150
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
    """

    skills_changed = Signal(list)
    _poked = Signal()

    def __init__(self, parent: QObject | None = None, debounce_ms: int = DEBOUNCE_MS) -> None:
        super().__init__(parent)
        self._lock = threading.Lock()
        self._pending: set[str] = set()
        self._observer: Observer | None = None  # type: ignore[valid-type]
        self._starter: threading.Thread | None = None
        self.ready = threading.Event()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(debounce_ms)
        self._timer.timeout.connect(self._flush)
        self._poked.connect(self._timer.start)  # queued: emitted from watchdog's thread

    def watch(self, folders: list[str], wait: bool = False) -> None:
        """Watch `folders` recursively from now on.

        Setting up inotify walks every folder (about 1 s for 10,000 skills), so it
        runs on a helper thread unless `wait`; `ready` tells when it is in place.
        """
        self.stop()
        observer = Observer()
        handler = _Handler(self)
        for folder in sorted(set(folders)):
            if os.path.isdir(folder):
                observer.schedule(handler, folder, recursive=True, event_filter=_EVENTS)
        observer.daemon = True
        self._observer = observer
        self.ready = threading.Event()
        starter = threading.Thread(target=self._start, args=(observer, self.ready), daemon=True)
        self._starter = starter
        starter.start()
        if wait:
            self.ready.wait()

    @staticmethod
    def _start(observer: Observer, ready: threading.Event) -> None:  # type: ignore[valid-type]
        try:
            observer.start()  # type: ignore[attr-defined]
        except OSError:
            pass  # inotify limits reached: the app still works, F5 reloads by hand
        finally:
            ready.set()

    def stop(self) -> None:
        if self._observer is not None:
            if self._starter is not None:
                self._starter.join()
            self._observer.stop()
            if self._observer.is_alive():
                self._observer.join(timeout=2)
            self._observer = None
            self._starter = None

    def record(self, paths: list[str]) -> None:
        relevant = [p for p in paths if not os.path.basename(p).startswith(TEMP_PREFIX)]
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
