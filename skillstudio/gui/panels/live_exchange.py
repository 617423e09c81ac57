"""Ask a model's record of the exchange (docs/live.md, "In the app"): the request that
is (or was) sent, collapsed to one line "Request sent (N bytes, sha256 …)" that opens
to its body pretty-printed (with K turns, each later turn's request after it: what it
appends to the turn before), and each run's answer (the pick, the model's words, the
tool it called, the answer as received: every turn's, with K turns). The text is
core/live/transcript.py's (escaped and bounded there); here it is only shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QPlainTextEdit, QToolButton, QVBoxLayout, QWidget

from ...core.live.questions import Answer
from ...core.live.transcript import RequestShown, answer_shown
from ...core.model.text import counted

TEXT_HEIGHT = 220  # px of the request's text once opened (it scrolls within)
ANSWERS_HEIGHT = 140  # px the answers' text keeps at least; it takes the room left


class Section(QWidget):
    """A title that opens and closes a read-only text below it."""

    def __init__(
        self, parent: QWidget | None = None, opened: bool = False, grows: bool = False
    ) -> None:
        super().__init__(parent)
        self.toggle = QToolButton(self)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setCheckable(True)
        self.toggle.setChecked(opened)
        self.toggle.setAutoRaise(True)
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        if grows:  # the room left below the panel's controls
            self.text.setMinimumHeight(ANSWERS_HEIGHT)
        else:
            self.text.setMaximumHeight(TEXT_HEIGHT)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.toggle)
        layout.addWidget(self.text)
        self.toggle.toggled.connect(self._opened)
        self._opened(opened)
        self.hide()

    def _opened(self, opened: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if opened else Qt.ArrowType.RightArrow)
        self.text.setVisible(opened)

    @property
    def opened(self) -> bool:
        return self.toggle.isChecked()

    def set(self, title: str, text: str) -> None:
        self.toggle.setText(title)
        self.text.setPlainText(text)
        self.show()

    def clear(self) -> None:
        self.toggle.setText("")
        self.text.clear()
        self.hide()


class ExchangeView(QWidget):
    """The request (collapsed) and the runs' answers (open), each hidden until known."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = Section(self)
        self.request.setObjectName("live-request")
        self.request.toggle.setToolTip(
            "The body exactly as sent (pretty-printed here), its size and sha256: the "
            "name of the request in the cache and in `skillstudio eval` reports. The key "
            "goes in a header, never in the body, and is not shown."
        )
        self.answers = Section(self, opened=True, grows=True)
        self.answers.setObjectName("live-answers")
        self.answers.toggle.setToolTip(
            "Each run's answer: the skill picked, the model's own words (a run that "
            "answers in words picks no skill), the tool it called, the answer as received."
        )
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.box.addWidget(self.request)
        self.box.addWidget(self.answers)
        self.box.addStretch(1)  # the room left, while no answer is open to take it
        for section in (self.request, self.answers):
            section.toggle.toggled.connect(lambda _on: self._restretch())

    def _restretch(self) -> None:
        """The open answers take the room left; else the space below the sections."""
        growing = self.answers.isVisibleTo(self) and self.answers.opened
        self.box.setStretch(1, 1 if growing else 0)
        self.box.setStretch(2, 0 if growing else 1)

    def show_request(
        self, shown: RequestShown | None, sent: bool, harness: str = "", later: str = ""
    ) -> None:
        """The request of the check: to be sent (`sent` False) or sent. `harness`: the
        skill the agent's harness invokes from the request itself (nothing is sent).
        `later`: the later turns' requests (transcript.later_turns_shown), after it."""
        if harness:
            self.request.set(
                f"No request sent: the agent's harness invokes {harness} itself",
                "The request names the skill (/name, $name, use <name> skill): the agent "
                "invokes it without asking the model.",
            )
        elif shown is not None:
            what = "Request sent" if sent else "Request to send"
            text = f"POST {shown.url}\n\n{shown.body}"
            if later:
                what = f"{what}, every turn"
                text = f"Turn 1 (every run):\n{text}\n\nLater turns:\n\n{later}"
            self.request.set(f"{what} ({shown.title})", text)
        else:
            self.request.clear()
        self._restretch()

    def show_answers(self, answers: Sequence[Answer]) -> None:
        texts = [answer_shown(run, answer) for run, answer in enumerate(answers, 1)]
        self.answers.set(f"Answers ({counted(len(answers), 'run')})", "\n\n".join(texts))
        self._restretch()

    def clear(self) -> None:
        self.request.clear()
        self.answers.clear()
        self._restretch()
