"""One tier of what the agent is shown: its exact text, size against the budget, omissions."""

from __future__ import annotations

import html

from PySide6.QtGui import QFont, QShowEvent
from PySide6.QtWidgets import (
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

from ...core.disclosure import TIER_NAMES, TierText
from ...core.text import counted
from ..theme import colour


class TierView(QWidget):
    """One tier's exact text, its size against the budget, and what was left out."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.header = QLabel(self)
        self.header.setWordWrap(True)
        self.meter = QProgressBar(self)
        self.meter.setTextVisible(True)
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.text.setFont(QFont("DejaVu Sans Mono"))
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self._shown = ""  # the text the view holds
        self._pending: str | None = None  # the text it will hold when next shown
        self.omitted = QLabel(self)
        self.omitted.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.header)
        layout.addWidget(self.meter)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.omitted)

    def show_tier(self, tier: TierText) -> None:
        used = " — the tier this profile uses for this request" if tier.used else ""
        self.header.setText(
            f"<b>Tier {tier.tier}: {TIER_NAMES[tier.tier]}</b>{used}<br>"
            f"{counted(tier.chars, 'character')}, ~{counted(tier.tokens, 'token')}"
            + (f"<br><i>{html.escape(tier.note)}</i>" if tier.note else "")
        )
        if tier.budget:
            self.meter.setVisible(True)
            self.meter.setRange(0, tier.budget)
            self.meter.setValue(min(tier.chars, tier.budget))
            self.meter.setFormat(f"{tier.chars:,} / {tier.budget:,} characters")
            over = tier.chars > tier.budget
            self.meter.setStyleSheet(
                f"QProgressBar::chunk{{background:{colour('threshold')}}}" if over else ""
            )
        else:
            self.meter.setVisible(False)
        # A hidden tab takes its text when shown: the listing of 10,000 skills costs
        # 35 ms to lay out, which a keystroke should pay only if it is on screen.
        self._pending = tier.text
        if self.isVisible():
            self._show_text()
        left_out = ", ".join(f"{o['skill']} ({o.get('reason', '')})" for o in tier.omitted)
        self.omitted.setText(f"Left out by the budget: {left_out}" if left_out else "")
        self.omitted.setVisible(bool(left_out))

    def _show_text(self) -> None:
        # Compared with the text held, not with toPlainText() (3 ms at 10,000 skills).
        if self._pending is not None and self._pending != self._shown:
            self.text.setPlainText(self._pending)
            self._shown = self._pending
        self._pending = None

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._show_text()
