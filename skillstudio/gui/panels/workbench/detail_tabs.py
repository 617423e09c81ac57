"""The tabs beside (or below) Try a Request's ranking: Explanation (with its "Why not"
box), Tiers, Activation, Session, Headroom and Ask a model. Built here; the panel
(query_panel.py) connects them to its answer."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ....core.scanning.registry import Registry
from ..live_panel import LivePanel
from ..scrolled import scrolled
from .activation_view import ActivationView
from .headroom_view import HeadroomView
from .panel_parts import NamesModel
from .session_view import SessionView
from .tier_view import TierTabs, TierView, tier_title

WHY_NOT_TIP = (
    "Pick any skill to see why it was not picked for this request. Left on "
    f"“{NamesModel.FIRST}”, the explanation is of the row selected in the ranking "
    "(its context menu asks “Why not this one?” too)."
)
ASK_TIP = (
    "Sends this request to a real model, through an endpoint you configure in "
    "Settings, and shows which skill it picks. Nothing is sent until you confirm; "
    "you are told what it will cost first."
)


class DetailTabs(QTabWidget):
    """The detail tabs; their pages are attributes the panel fills."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumWidth(240)  # its tab bars scroll: the ranking keeps its room
        self.explanation = QTextBrowser(self)
        self.explanation.setOpenLinks(False)
        self.why_box = QComboBox(self)
        self.why_names = NamesModel(self)
        self.why_box.setModel(self.why_names)
        # Sized without measuring 10,000 names; the row gives it the rest.
        self.why_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.why_box.setMinimumContentsLength(16)
        self.why_box.setToolTip(WHY_NOT_TIP)
        explain = QWidget(self)
        explain_layout = QVBoxLayout(explain)
        explain_layout.setContentsMargins(0, 0, 0, 0)
        why_row = QHBoxLayout()
        self.why_label = QLabel("&Why not:", self)
        self.why_label.setBuddy(self.why_box)
        self.why_label.setToolTip(WHY_NOT_TIP)
        why_row.addWidget(self.why_label)
        why_row.addWidget(self.why_box, 1)
        explain_layout.addLayout(why_row)
        explain_layout.addWidget(self.explanation, 1)
        self.addTab(explain, "Explanation")
        # The four tiers in one tab of their own: named, the one used said in words.
        self.tier_tabs = TierTabs(self)
        self.tier_views = [TierView(self) for _ in range(4)]
        for number, view in enumerate(self.tier_views):
            # In a scroll area: below the ranking, a tier can get less height than its
            # header, meter and text ask for; it scrolls instead of overlapping.
            self.tier_tabs.addTab(scrolled(view), tier_title(number))
        self.addTab(self.tier_tabs, "Tiers")
        self.setTabToolTip(1, "The exact text the agent is given at each tier")
        self.activation = ActivationView(self)
        self.addTab(scrolled(self.activation), "Activation")
        self.session_view = SessionView(self)
        self.addTab(scrolled(self.session_view), "Session")
        self.headroom = HeadroomView(self)  # the whole set against the listing's budget
        self.addTab(self.headroom, "Headroom")
        self.setTabToolTip(
            4, "Does the whole set fit the agent's listing budget at a context window"
        )
        self.live = LivePanel(self)  # the request put to a real model (docs/live.md)
        self.live_page = scrolled(self.live)  # its own button plans the check
        self.addTab(self.live_page, "Ask a model")
        self.setTabToolTip(5, ASK_TIP)

    def fill_why(self, registry: Registry | None) -> None:
        """The "Why not" box lists the registry's skills (the name picked stays)."""
        names = self.why_names.names_of(registry)
        if names is None:
            return  # the same names as shown
        current = self.why_box.currentData()
        self.why_box.blockSignals(True)
        self.why_names.set_names(names)
        self.why_box.setEnabled(bool(names))  # no skill: nothing to pick
        self.why_box.setCurrentIndex(self.why_names.rows.get(current or "", 0))
        self.why_box.blockSignals(False)

    def reset_why(self) -> None:
        """Back to "pick a skill…", quietly (the caller shows the explanation)."""
        self.why_box.blockSignals(True)
        self.why_box.setCurrentIndex(0)
        self.why_box.blockSignals(False)

    def explain(self, name: str) -> None:
        """The Explanation tab, of the skill `name` (the "Why not" box set to it)."""
        self.setCurrentIndex(0)
        self.why_box.setCurrentIndex(self.why_names.rows.get(name, 0))
