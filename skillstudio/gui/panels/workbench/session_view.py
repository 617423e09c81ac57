"""The session a profile keeps (recently used skills) and how it changes the answer."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ....core.model.session import Session


class SessionView(QWidget):
    """The requests sent in this session and the state they left."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.history = QPlainTextEdit(self)
        self.history.setReadOnly(True)
        self.state = QLabel(self)
        self.state.setWordWrap(True)
        self.reset_button = QPushButton("Reset session", self)
        layout = QVBoxLayout(self)
        layout.addWidget(
            QLabel("Press Enter in the request to send it; the session remembers it.", self)
        )
        layout.addWidget(self.history, 1)
        layout.addWidget(self.state)
        layout.addWidget(self.reset_button)

    def show_session(self, session: Session) -> None:
        self.history.setPlainText("\n".join(session.history))
        consented = ", ".join(sorted(session.consented)) or "none"
        recent = ", ".join(session.recent) or "none"
        self.state.setText(f"Consent given: {consented}\nRecently used: {recent}")
