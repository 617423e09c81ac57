"""The question put on Save after "Keep mine" when the file on disk holds text the tab
does not: what saving would throw away (the diff from the disk to the text on screen),
and Overwrite / Reload from disk / Cancel. Nothing another program wrote is lost
without the user seeing it."""

from __future__ import annotations

import html

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from .diff_view import DiffView


class OverwriteDialog(QDialog):
    """`answer`: 'overwrite', 'reload' or 'cancel' (the default: Esc, close)."""

    def __init__(self, name: str, diff: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.answer = "cancel"
        self.setWindowTitle("Save over the change on disk?")
        self.resize(760, 520)
        layout = QVBoxLayout(self)
        question = QLabel(
            f"<b>{html.escape(name)} was changed on disk after you chose Keep mine.</b>", self
        )
        question.setWordWrap(True)
        layout.addWidget(question)
        info = QLabel(
            "Saving writes your text over it. Below: what your text changes in the file "
            "on disk (lines marked − are the disk's, lost if you overwrite).",
            self,
        )
        info.setWordWrap(True)
        layout.addWidget(info)
        self.diff_view = DiffView(diff, self)
        layout.addWidget(self.diff_view, 1)
        buttons = QDialogButtonBox(self)
        self.overwrite_button = QPushButton("Overwrite with Mine", self)
        self.reload_button = QPushButton("Reload from Disk", self)
        self.cancel_button = QPushButton("Cancel", self)
        buttons.addButton(self.overwrite_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        buttons.addButton(self.reload_button, QDialogButtonBox.ButtonRole.ResetRole)
        buttons.addButton(self.cancel_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.cancel_button.setDefault(True)  # Enter loses nothing
        self.overwrite_button.clicked.connect(lambda: self._done("overwrite"))
        self.reload_button.clicked.connect(lambda: self._done("reload"))
        self.cancel_button.clicked.connect(self.reject)
        layout.addWidget(buttons)

    def _done(self, answer: str) -> None:
        self.answer = answer
        self.accept()
