"""FileView: a supporting file of a skill, read-only (markdown rendered, text as is).

Skills are edited in their own tabs; references, scripts and assets are shown
here so links from the preview and rows of the tree open inside the app.
Scripts are shown as text and never run.
"""

from __future__ import annotations

import os

from PySide6.QtCore import Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from ..core.model.paths import FileRefused
from ..core.model.text import counted
from ..core.reading.safefs import read_file
from .preview import Preview

MAX_BYTES = 2_000_000


def read_text(path: str, folder: str) -> tuple[str | None, str]:
    """The file's text, or None and why it is not shown. The file must resolve inside
    the skill `folder` and be a regular file (a link out, a FIFO: refused, unread)."""
    try:
        raw, st = read_file(path, folder, MAX_BYTES, truncate=True)
        if st.st_size > MAX_BYTES:
            return None, f"{counted(st.st_size, 'byte')}: too large to show here."
    except FileRefused as exc:
        return None, f"Not shown: {exc.reason}."
    except OSError as exc:
        return None, f"Cannot read the file: {exc.strerror or exc}."
    if b"\0" in raw[:8192]:
        return None, "A binary file; it is not shown."
    return raw.decode("utf-8", errors="replace"), ""


class FileView(QWidget):
    """Signals:
    file_link_clicked(str): a link in a rendered markdown file to a file in its folder.
    """

    file_link_clicked = Signal(str)

    def __init__(self, path: str, skill_folder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path = path
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.note.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.note)
        self.viewer: QWidget
        text, why = read_text(path, skill_folder)
        if text is not None and path.lower().endswith((".md", ".markdown")):
            preview = Preview(self)
            preview.show_body(text, skill_folder, base=os.path.dirname(path))
            preview.file_link_clicked.connect(self.file_link_clicked)
            self.viewer = preview
        else:
            plain = QPlainTextEdit(self)
            plain.setReadOnly(True)
            plain.setFont(QFont("DejaVu Sans Mono"))
            plain.setPlainText(text if text is not None else why)
            self.viewer = plain
        rel = os.path.relpath(path, skill_folder)
        self.note.setText(f"{rel} — read-only; skills are edited in their own tab.")
        layout.addWidget(self.viewer, 1)
