"""Crash recovery in the app: unsaved text written to recovery files a moment after
the last keystroke (on a worker thread), and offered back at the next start.

The file format and bookkeeping are in core.recovery; this module has the timers,
the writer thread and the restore dialog.
"""

from __future__ import annotations

import os
import threading
import time

from PySide6.QtCore import QObject, QStandardPaths, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..core.editing import recovery
from ..core.editing.saving import SaveError
from .skill_document import SkillDocument

RECOVERY_DELAY_MS = 2_000  # after the last keystroke


def default_folder() -> str:
    """recovery/ in the user's state folder (on Linux ~/.local/share/SkillStudio/SkillStudio)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppLocalDataLocation)
    return os.path.join(base, "recovery")


class _Writer:
    """One thread writes and removes recovery files, in order; the newest request
    per source wins (typing never waits for the disk)."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self._wake = threading.Condition()
        self._pending: dict[str, tuple[str | None, str]] = {}  # source -> (text or None, base)
        self._busy = False
        self._thread: threading.Thread | None = None
        self.error = ""  # the last failure to write, for the status bar

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
                self.error = ""
            except (OSError, SaveError) as exc:
                self.error = f"Unsaved changes could not be kept for recovery: {exc}"
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

    def __init__(self, folder: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.folder = folder
        self._writer = _Writer(folder)
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

    @property
    def error(self) -> str:
        return self._writer.error

    def _snapshot(self, document: SkillDocument) -> None:
        if document.path not in self._timers:
            return  # closed meanwhile
        if self._writer.error:  # the last write failed (a full disk, no permission)
            self.failed.emit(self._writer.error)
            self._writer.error = ""
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


def when(seconds: float) -> str:
    """14:02 today, else 21 Nov 14:02 (local time)."""
    then = time.localtime(seconds)
    if time.strftime("%Y%m%d", then) == time.strftime("%Y%m%d"):
        return time.strftime("%H:%M", then)
    return time.strftime("%d %b %Y %H:%M", then)


class RestoreDialog(QDialog):
    """Restore / Discard / Decide Later for one recovery file, with a diff from the
    file on disk to the unsaved text. `answer` is 'restore', 'discard' or 'later'."""

    def __init__(self, found: recovery.Recovery, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.answer = "later"
        name = os.path.basename(os.path.dirname(found.source)) or found.source
        disk, sha = recovery.disk_state(found.source)
        self.setWindowTitle("Restore unsaved changes")
        self.resize(760, 520)
        layout = QVBoxLayout(self)
        question = QLabel(
            f"<b>Restore unsaved changes to {_esc(name)} from {when(found.saved_at)}?</b>"
        )
        layout.addWidget(question)
        detail = (
            f"SkillStudio closed without saving {_esc(found.source)}. "
            "Below: what the unsaved text changes in the file on disk."
        )
        if found.base_sha256 and sha and sha != found.base_sha256:
            detail += " <b>The file has changed on disk since these edits began.</b>"
        info = QLabel(detail)
        info.setWordWrap(True)
        layout.addWidget(info)
        self.diff_view = QPlainTextEdit(self)
        self.diff_view.setReadOnly(True)
        self.diff_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.diff_view.setFont(QFont("DejaVu Sans Mono"))
        self.diff_view.setPlainText(recovery.diff(disk, found.text, found.source))
        layout.addWidget(self.diff_view, 1)
        buttons = QDialogButtonBox(self)
        self.restore_button = QPushButton("Restore", self)
        self.discard_button = QPushButton("Discard", self)
        self.later_button = QPushButton("Decide Later", self)
        buttons.addButton(self.restore_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.discard_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        buttons.addButton(self.later_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.restore_button.setDefault(True)
        self.restore_button.clicked.connect(lambda: self._done("restore"))
        self.discard_button.clicked.connect(lambda: self._done("discard"))
        self.later_button.clicked.connect(lambda: self._done("later"))
        layout.addWidget(buttons)

    def _done(self, answer: str) -> None:
        self.answer = answer
        self.accept()


def _esc(text: str) -> str:
    import html

    return html.escape(text)
