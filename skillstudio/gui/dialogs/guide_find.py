"""The User Guide's find bar (Ctrl+F in the guide): the words typed found in the page
shown, every match highlighted and the current one marked more strongly, "3 of 12",
Next / Previous (Enter / Shift+Enter, F3 / Shift+F3), wrapping round; Esc closes it.
Case is ignored, as a reader expects of a search in a manual."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QKeyEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QTextEdit,
    QToolButton,
    QWidget,
)

from ..infra.theme import is_dark, on_theme_change

MAX_MATCHES = 2000  # highlighted at most (a page of the guide has a few hundred words)


class GuideFind(QWidget):
    """A find bar under a QTextEdit (the guide's browser). `matches` holds the found
    ranges of the page shown, `current` the one selected (-1: none)."""

    def __init__(self, view: QTextEdit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self.matches: list[QTextCursor] = []
        self.current = -1
        on_theme_change(self, self._recolour)
        self.query = QLineEdit(self)
        self.query.setPlaceholderText("Find in this page")
        self.query.setClearButtonEnabled(True)
        self.count = QLabel(self)
        self.previous_button = QPushButton("Previous", self)
        self.previous_button.setToolTip("Previous match (Shift+Enter, Shift+F3)")
        self.next_button = QPushButton("Next", self)
        self.next_button.setToolTip("Next match (Enter, F3)")
        close = QToolButton(self)
        close.setText("×")
        close.setAutoRaise(True)
        close.setToolTip("Close (Esc)")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        layout.addWidget(QLabel("Find:", self))
        layout.addWidget(self.query, 1)
        for widget in (self.previous_button, self.next_button, self.count, close):
            layout.addWidget(widget)
        self.query.textChanged.connect(lambda _text: self.search())
        self.previous_button.clicked.connect(lambda: self.step(-1))
        self.next_button.clicked.connect(lambda: self.step(1))
        close.clicked.connect(self.close_bar)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setVisible(False)

    def open(self) -> None:
        """Ctrl+F: the bar shown, its box focused (with the selected words, if any)."""
        selected = self.view.textCursor().selectedText()
        if selected and "\u2029" not in selected:
            self.query.setText(selected)
        self.setVisible(True)
        self.query.setFocus()
        self.query.selectAll()
        self.search()

    def close_bar(self) -> None:
        self.setVisible(False)
        self.view.setExtraSelections([])
        self.view.setFocus()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, shift = event.key(), bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if key == Qt.Key.Key_Escape:
            self.close_bar()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_F3):
            self.step(-1 if shift else 1)
        else:
            super().keyPressEvent(event)

    def search(self) -> None:
        """The matches of the words typed in the page shown, from the top; the first one
        at or after the view's top selected."""
        text = self.query.text()
        self.matches = []
        document = self.view.document()
        found = document.find(text, 0) if text else QTextCursor()
        while not found.isNull() and len(self.matches) < MAX_MATCHES:
            self.matches.append(found)
            found = document.find(text, found)
        top = self.view.cursorForPosition(self.view.viewport().rect().topLeft()).position()
        first = next((n for n, m in enumerate(self.matches) if m.position() >= top), 0)
        self.current = first if self.matches else -1
        self._show()

    def step(self, by: int) -> None:
        """The next (1) or previous (-1) match, wrapping round."""
        if not self.matches:
            self.search()
            if not self.matches:
                return
        else:
            self.current = (self.current + by) % len(self.matches)
        self._show()

    def _recolour(self) -> None:
        """The matches marked in the new theme's colours."""
        if self.matches:
            self._show()

    def _show(self) -> None:
        text = self.query.text()
        if not text:
            self.count.setText("")
        elif not self.matches:
            self.count.setText("not found")
        else:
            self.count.setText(f"{self.current + 1} of {len(self.matches)}")
        self.previous_button.setEnabled(len(self.matches) > 1)
        self.next_button.setEnabled(len(self.matches) > 1)
        every = QTextCharFormat()
        every.setBackground(QColor("#6b5a00" if is_dark() else "#fff2a8"))
        chosen = QTextCharFormat()
        chosen.setBackground(QColor("#c77700" if is_dark() else "#ffb84d"))
        selections = []
        for number, match in enumerate(self.matches):
            selection = QTextEdit.ExtraSelection()
            selection.cursor = match
            selection.format = chosen if number == self.current else every
            selections.append(selection)
        self.view.setExtraSelections(selections)
        if 0 <= self.current < len(self.matches):
            self.view.setTextCursor(self.matches[self.current])
            self.view.ensureCursorVisible()
            rect, height = self.view.cursorRect(), self.view.viewport().height()
            if rect.top() < rect.height() or rect.bottom() > height - 2 * rect.height():
                bar = self.view.verticalScrollBar()  # at a third of the page, not its edge
                bar.setValue(bar.value() + rect.top() - height // 3)

    def page_changed(self) -> None:
        """Another page shown: the same words found in it."""
        if self.isVisible():
            self.search()
