"""The "Before (REV)" strip of Try a Request (issue 40): when a changed case of the
Changes panel (change_panel.py) is opened there, the revision's answer to the same
request, ranked off the GUI thread from the reading the comparison holds
(core/projects/before_ranking.py). It goes when the request is edited or the
comparison closed."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QBoxLayout, QFrame, QLabel, QLineEdit, QVBoxLayout, QWidget

from ...core.model.text import counted
from ...core.projects.before_ranking import BeforeRanking, rank_before
from ...core.projects.change_report import Side
from ..infra.background import LatestJob


def headline(ranking: BeforeRanking) -> str:
    """The before side's picks in one line: selected (with scores), then likely (band
    and strength)."""
    parts = [f"{name} selected ({counted(score, 'point')})" for name, score in ranking.selected]
    likely = ranking.likely
    if likely is not None:
        top = likely.likely[:1] or likely.candidates[:1]
        parts += [f"{c.name} {c.band} ({c.strength:.2f})" for c in top]
    return f"Before ({ranking.label}): " + ("; ".join(parts) or "no skill picked")


class BeforeStrip(QFrame):
    """The revision's ranking of the request shown, above Try a Request's ranking."""

    def __init__(self, query: QLineEdit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.query = query  # Try a Request's box: another request clears the strip
        self.title = QLabel(self)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.title.setTextFormat(Qt.TextFormat.PlainText)  # skills' names: never markup
        self.body = QLabel(self)
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.PlainText)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        layout.addWidget(self.title)
        layout.addWidget(self.body)
        self.job = LatestJob(self, quiet=True)
        self.request: str | None = None  # the request the strip answers
        self.ranking: BeforeRanking | None = None
        query.textChanged.connect(self._typed)
        self.hide()

    def show_for(self, side: Side, path: str, profile: str, query: str) -> None:
        """The before side's answer to `query` (the project at `path` under
        `profile`, as the report names it), worked out off the GUI thread."""
        self.request, self.ranking = query, None
        self.title.setText(f"Before ({side.label}): ranking…")
        self.body.clear()
        self.show()
        self.job.submit(lambda: rank_before(side, path, profile, query), self._landed)

    def _landed(self, result: BeforeRanking | None, error: str | None) -> None:
        if self.request is None or (result is not None and result.query != self.request):
            return  # cleared (or asked anew) meanwhile
        if result is None:
            self.title.setText("Before: " + (error or "this project is not in the revision"))
            return
        self.ranking = result
        self.title.setText(headline(result))
        self.title.setToolTip(f"How {result.label} answered “{result.query}”")
        self.body.setText(result.text)

    def _typed(self, text: str) -> None:
        if self.request is not None and text != self.request:
            self.clear()

    def clear(self) -> None:
        """No before side: the request was edited, or the comparison closed."""
        self.job.drop()
        self.request, self.ranking = None, None
        self.title.clear()
        self.body.clear()
        self.hide()


def place(query_panel: QWidget, query: QLineEdit) -> BeforeStrip:
    """A strip in `query_panel`'s column, just above its ranking (the last row)."""
    strip = BeforeStrip(query, query_panel)
    layout = query_panel.layout()
    assert isinstance(layout, QBoxLayout)
    layout.insertWidget(layout.count() - 1, strip)
    return strip
