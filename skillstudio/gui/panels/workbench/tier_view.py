"""One tier of what the agent is shown: its exact text, size against the budget, omissions."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QResizeEvent
from PySide6.QtWidgets import (
    QLabel,
    QProgressBar,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ....core.model.delivered import TierText
from ....core.model.text import counted
from ...infra.deferred_until_shown import CatchUp
from ...infra.theme import colour, on_theme_change
from .line_view import LineView

# Tier 0 is named for what the agent gets ("0 · Nothing" read as "nothing to see here").
TIER_LABELS = ("Skills not shown", "Breadcrumb", "Listing", "Full instructions")
USED = "used for this request"
_ABOUT = (  # what each tier is, in one line
    "The agent is shown nothing of the skills, not even their names: the baseline "
    "the other tiers add to.",
    "A one-line hint that skills exist, without naming them.",
    "The list of skills the agent chooses from, as the profile writes it, within its budget.",
    "The full instructions of the selected skills, loaded for this request.",
)
_EMPTY = (  # what an empty tier means
    "No text at this tier: a request answered at tier 0 is answered as if the agent had no skills.",
    "This profile has no breadcrumb text.",
    "No skill would be listed: every skill is left out (see below) or none is loaded.",
    "No skill is selected for this request, so no instructions are loaded. The agent "
    "works from the listing (tier 2) or from nothing.",
)


_SHORT = ("Not shown", "Hint", "Listing", "Full")
SHORTEST = 3  # the last of tier_title's lengths


def tier_title(number: int, used: bool = False, length: int = 0) -> str:
    """The tab title of a tier: '2 · Listing', and '— used for this request' on the one
    used. Shorter lengths (1 to SHORTEST) keep the tier's number and say "used" in one
    word, for a tab bar that has not the room for all four titles in full."""
    name = (TIER_LABELS, TIER_LABELS, _SHORT, ("",) * 4)[length][number]
    title = f"{number} · {name}" if name else str(number)
    if not used:
        return title
    return title + (f" — {USED}" if length == 0 else " · used" if not name else " — used")


def omission_lines(omitted: list[dict[str, str]]) -> list[str]:
    """The skills a tier leaves out, one line per kind of reason: not loaded, the budget,
    the profile's own rule (the skill hides itself, or is not allowed)."""
    groups: dict[str, list[str]] = {}
    for item in omitted:
        reason = item.get("reason", "")
        if reason.startswith(("shadowed", "skipped", "disabled")):
            head = "Not loaded"
        elif "budget" in reason:
            head = f"Left out by the budget ({reason})"
        else:
            head = f"Not listed ({reason})" if reason else "Not listed"
        name = item.get("skill", "")
        if head == "Not loaded":  # the status only; the full reason is in Problems
            name += f" ({reason.split(':', 1)[0]})"
        groups.setdefault(head, []).append(name)
    return [f"{head}: {', '.join(names)}" for head, names in groups.items()]


class TierView(QWidget):
    """One tier's exact text, its size against the budget, and what was left out."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.header = QLabel(self)
        self.header.setWordWrap(True)
        self.meter = QProgressBar(self)
        self.meter.setTextVisible(True)
        self.text = LineView(self)  # only the lines on screen laid out
        self.text.setFont(QFont("DejaVu Sans Mono"))
        self._pending: str | None = None  # the text it will hold when next shown
        self.catch_up = CatchUp(self, self._show_text)
        self.empty = QLabel(self)  # instead of a large empty box
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.empty.setVisible(False)
        self.omitted = QLabel(self)
        self.omitted.setWordWrap(True)
        self.omitted.setTextFormat(Qt.TextFormat.PlainText)
        self._tier: TierText | None = None
        on_theme_change(self, self._recolour)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.header)
        layout.addWidget(self.meter)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.empty, 1)
        layout.addWidget(self.omitted)

    def show_tier(self, tier: TierText) -> None:
        self._head(tier)
        # A hidden tab takes its text when shown: a listing of 10,000 skills costs 10 ms
        # to index, which a keystroke should pay only if it is on screen.
        self._pending = tier.text
        self.catch_up.now()
        self.text.setVisible(bool(tier.text))
        self.empty.setVisible(not tier.text)
        self.empty.setText(_EMPTY[tier.tier])
        lines = omission_lines(tier.omitted)
        self.omitted.setText("\n".join(lines))
        self.omitted.setVisible(bool(lines))

    def _recolour(self) -> None:
        if self._tier is not None:
            self._head(self._tier)

    def _head(self, tier: TierText) -> None:
        """The tier's title, size and meter (in the theme's colours: done again when the
        theme changes)."""
        self._tier = tier
        used = f" — <b>{USED}</b>" if tier.used else ""
        size = (
            f"{counted(tier.chars, 'character')}, ~{counted(tier.tokens, 'token')}"
            if tier.text
            else "empty"
        )
        note = tier.note if tier.text else ""  # an empty tier says it below, in full
        # what the budget counts where it is not the whole text (Codex: the lines)
        note = " ".join(n for n in (tier.form, note, tier.budget_note()) if n)
        self.header.setText(
            f"<b>Tier {tier_title(tier.tier)}</b>{used}"  # what it is: the tab's tooltip
            f" · <span style='color:{colour('muted')}'>{size}</span>"
            + (f"<br><i>{html.escape(note)}</i>" if note else "")
        )
        if tier.budget:
            # what the budget counts (TierText.budget_counted: Codex counts its lines, not
            # the message around them), red only where the budget cost the listing
            counted_size = tier.budget_counted
            self.meter.setVisible(True)
            self.meter.setRange(0, tier.budget)
            self.meter.setValue(min(counted_size, tier.budget))
            self.meter.setFormat(
                f"{counted_size:,} / {tier.budget:,} {tier.budget_unit}"
                + (" counted" if tier.budget_note() else "")
            )
            self.meter.setToolTip(tier.budget_note() or tier.size_line())
            over = tier.over_budget
            self.meter.setStyleSheet(
                f"QProgressBar::chunk{{background:{colour('threshold')}}}" if over else ""
            )
        else:
            self.meter.setVisible(False)

    def _show_text(self) -> None:
        if self._pending is not None and self._pending != self.text.toPlainText():
            self.text.setPlainText(self._pending)
        self._pending = None


class TierTabs(QTabWidget):
    """The four tiers' tabs, every title whole on screen: in full when the bar has the
    room, shorter (see tier_title) when it has not, never cut and never behind scroll
    buttons; each tab's tooltip has the full title and what the tier is."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDocumentMode(True)
        self.used: int | None = None  # the tier the agent would use
        self.length = 0  # the tier_title length shown
        self.picked = False  # a tab clicked: the user's choice is kept from then on
        self.tabBarClicked.connect(self._on_picked)

    def _on_picked(self, _number: int) -> None:
        self.picked = True

    def set_used(self, used: int | None) -> None:
        """Which tier the agent would use; shown, until the user picks a tab (it
        opened on tier 0 whatever was used)."""
        self.used = used
        if used is not None and not self.picked and 0 <= used < self.count():
            self.setCurrentIndex(used)
        for number in range(self.count()):
            title = f"Tier {tier_title(number, number == used)}"
            self.setTabToolTip(number, f"{title}\n{_ABOUT[number]}")
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        """The longest titles whose tabs fit the width."""
        bar = self.tabBar()
        for length in range(SHORTEST + 1):
            for number in range(self.count()):
                title = tier_title(number, number == self.used, length)
                if self.tabText(number) != title:
                    self.setTabText(number, title)
            self.length = length
            if bar.sizeHint().width() <= self.width():
                return
