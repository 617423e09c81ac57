"""FindBar: find (and replace) in the source view, with match count and wrap-around."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent, QTextCursor, QTextDocument
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPlainTextEdit, QPushButton, QWidget

from ..models.skill_document import end_undo_step


class FindBar(QWidget):
    def __init__(self, editor: QPlainTextEdit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._editor = editor
        self.query = QLineEdit(self)
        self.query.setPlaceholderText("Find")
        self.replacement = QLineEdit(self)
        self.replacement.setPlaceholderText("Replace with")
        self.count = QLabel(self)
        self.next_button = QPushButton("Next", self)
        self.replace_button = QPushButton("Replace", self)
        self.replace_all_button = QPushButton("Replace all", self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        for widget in (
            self.query,
            self.next_button,
            self.replacement,
            self.replace_button,
            self.replace_all_button,
            self.count,
        ):
            layout.addWidget(widget)
        self.query.textChanged.connect(self._on_query_changed)
        self.query.returnPressed.connect(self.find_next)
        self.next_button.clicked.connect(self.find_next)
        self.replace_button.clicked.connect(self.replace_one)
        self.replace_all_button.clicked.connect(self.replace_all)
        self.setVisible(False)

    def open(self) -> None:
        selected = self._editor.textCursor().selectedText()
        if selected and "\u2029" not in selected:
            self.query.setText(selected)
        self.setVisible(True)
        self.query.setFocus()
        self.query.selectAll()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.setVisible(False)
            self._editor.setFocus()
            return
        super().keyPressEvent(event)

    def _on_query_changed(self, text: str) -> None:
        total = self._editor.toPlainText().count(text) if text else 0
        self.count.setText(f"{total} found" if text else "")

    def find_next(self) -> bool:
        text = self.query.text()
        if not text:
            return False
        if self._editor.find(text):
            return True
        self._editor.moveCursor(QTextCursor.MoveOperation.Start)  # wrap around
        return self._editor.find(text)

    def replace_one(self) -> None:
        cursor = self._editor.textCursor()
        if cursor.hasSelection() and cursor.selectedText() == self.query.text():
            cursor.beginEditBlock()  # a step of its own, not joined by what is typed next
            cursor.insertText(self.replacement.text())
            end_undo_step(cursor)
            cursor.endEditBlock()
        self.find_next()

    def replace_all(self) -> int:
        text, new = self.query.text(), self.replacement.text()
        if not text:
            return 0
        document = self._editor.document()
        cursor = QTextCursor(document)
        cursor.beginEditBlock()  # one undo step for all replacements
        done = 0
        found = document.find(text, 0, QTextDocument.FindFlag.FindCaseSensitively)
        while not found.isNull():
            found.insertText(new)
            done += 1
            found = document.find(
                text, found.position(), QTextDocument.FindFlag.FindCaseSensitively
            )
        end_undo_step(cursor)  # what is typed next is a step of its own
        cursor.endEditBlock()
        self._on_query_changed(text)
        return done
