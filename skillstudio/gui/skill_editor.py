"""SkillEditor: the tab of one open skill — source and preview views, and a message bar."""

from __future__ import annotations

import os

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from ..core.frontmatter import Document, parse_text
from .preview import Preview
from .skill_document import SkillDocument
from .source_editor import SourceEditor


class SkillEditor(QWidget):
    """Signals:
    file_link_clicked(str): a link in the preview to a file in the skill folder.
    """

    file_link_clicked = Signal(str)

    def __init__(self, document: SkillDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.source = SourceEditor(self)
        self.source.setDocument(document.text_document)
        self.preview = Preview(self)
        self.views = QTabWidget(self)
        self.views.setDocumentMode(True)
        self.views.addTab(self.source, "Source")
        self.views.addTab(self.preview, "Preview")
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setVisible(False)
        self.message.setStyleSheet("background:#fff3cd;color:#5c4400;padding:6px")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.message)
        layout.addWidget(self.views)
        document.diagnostics_changed.connect(self._on_diagnostics_changed)
        document.save_failed.connect(self._on_save_failed)
        self.views.currentChanged.connect(self._on_view_changed)
        self.preview.file_link_clicked.connect(self.file_link_clicked)
        self._on_diagnostics_changed(document.diagnostics)

    def _on_diagnostics_changed(self, _diagnostics: object) -> None:
        self.source.set_diagnostics(self.document.diagnostics)
        if self.views.currentWidget() is self.preview:
            self._render()

    def _on_view_changed(self, _index: int) -> None:
        if self.views.currentWidget() is self.preview:
            self._render()

    def _render(self) -> None:
        doc = parse_text(Document(path=self.document.path), self.document.text())
        self.preview.show_body(doc.body, os.path.dirname(self.document.path))

    def _on_save_failed(self, message: str) -> None:
        self.message.setText(f"Not saved: {message}")
        self.message.setVisible(True)

    def clear_message(self) -> None:
        self.message.setVisible(False)
