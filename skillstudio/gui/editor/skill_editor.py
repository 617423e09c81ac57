"""SkillEditor: the tab of one open skill — source and preview views, and a message bar."""

from __future__ import annotations

import os

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...core.profile import Profile
from ..infra.theme import bar_style
from ..models.skill_document import SkillDocument
from .find_bar import FindBar
from .form_view import FormView
from .highlighter import SkillHighlighter
from .preview import Preview
from .source_editor import SourceEditor


class SkillEditor(QWidget):
    """Signals:
    file_link_clicked(str): a link in the preview to a file in the skill folder.
    """

    file_link_clicked = Signal(str)

    def __init__(
        self, document: SkillDocument, profile: Profile, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.document = document
        self.source = SourceEditor(self)
        self.source.setDocument(document.text_document)
        self.highlighter = SkillHighlighter(document.text_document)
        self.find_bar = FindBar(self.source, self)
        self.preview = Preview(self)
        self.views = QTabWidget(self)
        self.views.setDocumentMode(True)
        self.form = FormView(document, profile, self)
        self.views.addTab(self.form, "Form")
        self.views.addTab(self.source, "Source")
        self.views.addTab(self.preview, "Preview")
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setVisible(False)
        self.message.setStyleSheet(bar_style("warn"))
        self.conflict_bar = QWidget(self)
        self.conflict_bar.setStyleSheet(bar_style("error"))
        self.conflict_text = QLabel(self.conflict_bar)
        self.reload_button = QPushButton("Reload from disk", self.conflict_bar)
        self.keep_button = QPushButton("Keep mine", self.conflict_bar)
        bar = QHBoxLayout(self.conflict_bar)
        bar.setContentsMargins(6, 4, 6, 4)
        bar.addWidget(self.conflict_text, 1)
        bar.addWidget(self.reload_button)
        bar.addWidget(self.keep_button)
        self.conflict_bar.setVisible(False)
        self.reload_button.clicked.connect(self._on_reload_clicked)
        self.keep_button.clicked.connect(self._on_keep_clicked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.conflict_bar)
        layout.addWidget(self.message)
        layout.addWidget(self.views)
        layout.addWidget(self.find_bar)
        document.diagnostics_changed.connect(self._on_diagnostics_changed)
        document.save_failed.connect(self._on_save_failed)
        document.load_failed.connect(self._on_load_failed)
        document.disk_conflict.connect(self._on_disk_conflict)
        document.disk_settled.connect(self._on_disk_settled)
        self.views.currentChanged.connect(self._on_view_changed)
        self.preview.file_link_clicked.connect(self.file_link_clicked)
        self._on_diagnostics_changed(document.diagnostics)

    def focus_field(self, key: str) -> None:
        """The form shown with the keyboard in field `key`, its text selected (a new
        skill's placeholder description: typing replaces it)."""
        item = self.form.fields.get(key)
        if item is None:
            return
        self.views.setCurrentWidget(self.form)
        item.widget.setFocus(Qt.FocusReason.OtherFocusReason)
        if isinstance(item.widget, QLineEdit | QPlainTextEdit):
            item.widget.selectAll()

    def undo(self, redo: bool = False) -> None:
        """One step of the document's history, whichever view has the focus."""
        self.form.undo(redo)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self.highlighter.rehighlight_for_palette()
            self.message.setStyleSheet(bar_style("warn"))
            self.conflict_bar.setStyleSheet(bar_style("error"))
            if self.views.currentWidget() is self.preview:
                self._render()
        super().changeEvent(event)

    def _on_diagnostics_changed(self, _diagnostics: object) -> None:
        self.source.set_diagnostics(self.document.diagnostics)
        if self.views.currentWidget() is self.preview:
            self._render()

    def _on_view_changed(self, _index: int) -> None:
        if self.views.currentWidget() is self.preview:
            self._render()

    def _render(self) -> None:
        doc = self.document.parsed()
        self.preview.show_body(doc.body, os.path.dirname(self.document.path))

    def _on_save_failed(self, message: str) -> None:
        self.message.setText(f"Not saved: {message}")
        self.message.setVisible(True)

    def _on_load_failed(self, message: str) -> None:
        self.message.setText(message)
        self.message.setVisible(True)

    def open_find(self) -> None:
        self.views.setCurrentWidget(self.source)
        self.find_bar.open()

    def go_to_line(self, line: int) -> None:
        self.views.setCurrentWidget(self.source)
        self.source.go_to(line)

    def clear_message(self) -> None:
        self.message.setVisible(False)

    def _on_disk_conflict(self, text: str) -> None:
        self.conflict_text.setText(text)
        self.reload_button.setEnabled(os.path.exists(self.document.path))
        self.conflict_bar.setVisible(True)

    def _on_disk_settled(self) -> None:
        """The file is back as the tab knows it (a checkout deleted and wrote it again,
        Revert or Reload read it, a save wrote it, F5 found the text on screen there):
        what the bars said of the disk no longer holds."""
        self.conflict_bar.setVisible(False)
        self.message.setVisible(False)

    def _on_reload_clicked(self) -> None:
        if self.document.reload():
            self.conflict_bar.setVisible(False)

    def _on_keep_clicked(self) -> None:
        self.document.keep_mine()
        self.conflict_bar.setVisible(False)
