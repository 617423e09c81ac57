"""The question put for each recovery file at start: restore, discard or decide later,
with what the unsaved text changes in the file on disk (wrapped: diff_view.py)."""

from __future__ import annotations

import html
import os
import time

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...core.editing import recovery
from .diff_view import DiffView


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
        self.diff_view = DiffView(recovery.diff(disk, found.text, found.source), self)
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
    return html.escape(text)
