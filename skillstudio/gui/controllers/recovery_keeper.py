"""Crash recovery in the app: unsaved text written to recovery files a moment after
the last keystroke (on a worker thread), and offered back at the next start
(recovery_offers.py, with restore_dialog.py).

The file format and bookkeeping are in core.recovery; this module has the timers
and the writer thread.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QStandardPaths, QTimer, Signal

from ...core.editing import recovery
from ...core.editing.saving import SaveError
from ..models.skill_document import SkillDocument

RECOVERY_DELAY_MS = 2_000  # after the last keystroke


def default_folder() -> str:
    """recovery/ in the user's state folder (on Linux ~/.local/share/SkillStudio/SkillStudio)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppLocalDataLocation)
    return os.path.join(base, "recovery")


class _Writer:
    """One thread writes and removes recovery files, in order; the newest request
    per source wins (typing never waits for the disk). It is given text (strings)
    and touches only files in the recovery folder; a failure goes to `failed(text)`,
    called on the writer thread (threads.py)."""

    def __init__(self, folder: str, failed: Callable[[str], None]) -> None:
        self.folder = folder
        self.failed = failed
        self._wake = threading.Condition()
        self._pending: dict[str, tuple[str | None, str]] = {}  # source -> (text or None, base)
        self._busy = False
        self._thread: threading.Thread | None = None

    def put(self, source: str, text: str | None, base: str = "") -> None:
        with self._wake:
            self._pending[source] = (text, base)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, daemon=True)
                self._thread.start()
            self._wake.notify_all()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything asked for is on disk (the window is closing)."""
        deadline = time.monotonic() + timeout
        with self._wake:
            while self._pending or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._wake.wait(left)
        return True

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._pending:
                    self._wake.wait()
                source = next(iter(self._pending))
                text, base = self._pending.pop(source)
                self._busy = True
            try:
                if text is None:
                    recovery.remove(self.folder, source)
                else:
                    recovery.write(self.folder, source, text, base)
            except (OSError, SaveError) as exc:
                with contextlib.suppress(RuntimeError):  # the keeper is gone (closed)
                    self.failed(f"Unsaved changes could not be kept for recovery: {exc}")
            finally:
                with self._wake:
                    self._busy = False
                    self._wake.notify_all()


class RecoveryKeeper(QObject):
    """Keeps a recovery file for every modified document it tracks.

    Signals:
        failed(str): a recovery file could not be written (said once per failure).
    """

    failed = Signal(str)
    _write_failed = Signal(str)  # emitted on the writer thread, queued to this one

    def __init__(self, folder: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.folder = folder
        self._write_failed.connect(self.failed)
        self._writer = _Writer(folder, self._write_failed.emit)
        self._timers: dict[str, QTimer] = {}
        self._written: set[str] = set()  # sources with a file written this session

    def track(self, document: SkillDocument) -> None:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(RECOVERY_DELAY_MS)
        timer.timeout.connect(lambda d=document: self._snapshot(d))
        document.text_document.contentsChanged.connect(timer.start)
        document.modified_changed.connect(
            lambda modified, p=document.path: None if modified else self._clean(p)
        )
        self._timers[document.path] = timer

    def untrack(self, path: str, forget: bool) -> None:
        """The document's tab closes; `forget`: its unsaved text was discarded."""
        timer = self._timers.pop(path, None)
        if timer is not None:
            timer.stop()
            timer.deleteLater()
        if forget:
            self.forget(path)

    def forget(self, path: str) -> None:
        self._written.discard(path)
        self._writer.put(path, None)

    def flush(self, timeout: float = 5.0) -> bool:
        return self._writer.flush(timeout)

    def _snapshot(self, document: SkillDocument) -> None:
        if document.path not in self._timers:
            return  # closed meanwhile
        if document.modified:
            base = document.stamp.sha256 if document.stamp is not None else ""
            self._written.add(document.path)
            self._writer.put(document.path, document.text(), base)
        else:
            self._clean(document.path)

    def _clean(self, path: str) -> None:
        """Saved, reverted or undone to the disk text: no recovery needed. A file
        this session did not write (one offered for later) is left alone."""
        if path in self._written:
            self.forget(path)
