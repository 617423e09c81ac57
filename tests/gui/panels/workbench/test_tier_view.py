"""Tests of gui/panels/workbench/tier_view.py (One tier of what the agent is shown: its
exact text, size against the budget, omissions)."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QToolButton,
    QWidget,
)
from pytestqt.qtbot import QtBot

from skillstudio.gui.panels.workbench.query_panel import QueryPanel
from skillstudio.gui.panels.workbench.tier_view import SHORTEST, TierTabs, TierView, tier_title
from skillstudio.gui.window.main_window import MainWindow
from skillstudio.gui.window.welcome_page import TIERS

from ....test_listing_budget import codex_listing, make_codex_set
from ...parts import panel_on


# -- 1. the tier tabs ---------------------------------------------------------------------
@pytest.mark.parametrize("size", [(1280, 800), (1024, 640)])
def test_all_four_tier_tabs_are_whole_on_screen(
    window: MainWindow, qtbot: QtBot, size: tuple[int, int]
) -> None:
    """At 1280x800 the tiers sit beside the ranking, 477 px wide: on main the four
    titles asked for 573 px, and "3 · Full instructions — used for this request" was
    cut behind scroll buttons."""
    width, height = size
    window.resize(width, height)
    window.focus_query_panel()
    window.resizeDocks([window.query_dock], [height * 11 // 20], Qt.Orientation.Vertical)
    for profile, request, used in (
        ("oasis", "code review please, find bugs in my commit", 3),
        ("pegasus", "deploy the release to staging", 2),
    ):
        panel = panel_on(window.query_panel, profile)
        panel.load_request(request)
        panel.show_tier(used)
        qtbot.wait(20)
        bar = panel.tier_tabs.tabBar()
        for number in range(4):
            rect = bar.tabRect(number)
            assert rect.left() >= 0 and rect.right() < bar.width(), (size, number, rect)
            assert rect.width() >= bar.tabSizeHint(number).width()  # not squeezed
            assert bar.tabText(number).startswith(str(number))
        scrolls = [b for b in bar.findChildren(QToolButton) if b.isVisible()]
        assert not scrolls, "no scroll buttons"
        assert [n for n in range(4) if "used" in bar.tabText(n)] == [used]
        tip = panel.tier_tabs.tabToolTip(used)
        assert tip.startswith(f"Tier {tier_title(used, True)}")  # the full title


def test_tier_titles_shorten_only_as_far_as_the_width_needs(qtbot: QtBot) -> None:
    tabs = TierTabs()
    qtbot.addWidget(tabs)
    for number in range(4):
        tabs.addTab(QWidget(), tier_title(number))
    tabs.set_used(3)
    tabs.resize(1200, 200)
    tabs.show()
    assert tabs.length == 0
    assert tabs.tabText(3) == "3 · Full instructions — used for this request"
    lengths = []
    for width in (520, 420, 300, 200):
        tabs.resize(width, 200)
        lengths.append(tabs.length)
        assert tabs.tabBar().sizeHint().width() <= width
        assert "used" in tabs.tabText(3)
    assert lengths == sorted(lengths) and lengths[-1] > 0


def test_tiers_open_on_the_tier_in_use(query_panel: QueryPanel, qtbot: QtBot) -> None:
    panel = panel_on(query_panel, "oasis")
    panel.load_request("code review please, find bugs in my commit")
    panel.update_now()
    used = panel.tier_tabs.used
    assert used is not None and used > 0
    assert panel.tier_tabs.currentIndex() == used, "not '0 · Nothing'"
    panel.tier_tabs.tabBarClicked.emit(1)
    panel.tier_tabs.setCurrentIndex(1)
    panel.load_request("deploy to staging")
    panel.update_now()
    assert panel.tier_tabs.currentIndex() == 1, "the tab the user picked stays"


def test_tier_zero_says_what_the_agent_gets(collection_panel: QueryPanel) -> None:
    """ "0 · Nothing" (and "0 nothing" on the welcome page) read as "nothing to see"."""
    panel = collection_panel
    assert tier_title(0) == "0 · Skills not shown"
    assert "nothing" not in tier_title(0, True, SHORTEST).lower()
    assert "<b>0</b> none of them (the agent is shown nothing of its skills)" in TIERS
    panel.query.setText("draft release notes")
    panel.update_now()
    tip = panel.tier_tabs.tabToolTip(0)
    assert tip.startswith("Tier 0 · Skills not shown\nThe agent is shown nothing of the skills")


def test_tiers_are_named_and_the_used_one_said_in_words(query_panel: QueryPanel) -> None:
    panel = panel_on(query_panel, "oasis")
    panel.load_request("code review please, find bugs in my commit")
    # The full titles are the tabs' tooltips (the tabs say as much as their width allows).
    tips = [panel.tier_tabs.tabToolTip(n).split("\n")[0] for n in range(4)]
    assert tips == [
        "Tier 0 · Skills not shown",
        "Tier 1 · Breadcrumb",
        "Tier 2 · Listing",
        "Tier 3 · Full instructions — used for this request",
    ]
    titles = [panel.tier_tabs.tabText(n) for n in range(4)]
    assert [n for n in range(4) if "used" in titles[n]] == [3]
    assert "●" not in "".join(titles)
    assert panel.tier_used.text() == "Tier 3: code-review loaded in full"
    panel.load_request("what is the weather")
    assert panel.tier_tabs.tabToolTip(3).split("\n")[0] == "Tier 3 · Full instructions"
    assert "used" not in panel.tier_tabs.tabText(3)
    # An empty tier says what that means instead of showing a large empty box.
    panel.show_tier(0)
    nothing = panel.tier_views[0]
    assert not nothing.text.isVisible() and nothing.empty.isVisible()
    assert "as if the agent had no skills" in nothing.empty.text()
    panel.show_tier(3)
    instructions = panel.tier_views[3]
    assert "No skill is selected" in instructions.empty.text()
    assert not instructions.text.isVisible()


def test_budget_and_disable_model_invocation_are_separate_reasons(query_panel: QueryPanel) -> None:
    panel = panel_on(query_panel, "pegasus")
    panel.option.setValue(1_300)  # tokens: a listing budget of 104 characters
    panel.load_request("deploy the release to staging")
    panel.show_tier(2)
    lines = panel.tier_views[2].omitted.text().splitlines()
    hidden = [line for line in lines if "disable-model-invocation" in line]
    budget = [line for line in lines if line.startswith("Left out by the budget")]
    assert len(hidden) == 1 and "deploy" in hidden[0]
    assert len(budget) == 1 and "deploy" not in budget[0]
    assert "disable-model-invocation" not in budget[0]


@pytest.mark.parametrize("profile", ["copilot", "cursor"])
def test_the_listing_says_whose_format_it_is_and_escapes_as_that_form(
    query_panel: QueryPanel, profile: str
) -> None:
    """Issue 43: Copilot's tier 2 said "in the profile's own format" over the generic
    <available_skills> form with "request&#x27;s"; now Copilot's is VS Code's <skills>
    block, unescaped, and an agent whose format is not known says it is shown in the
    standard's form (which skills-ref writes escaped)."""
    panel = panel_on(query_panel, profile)
    panel.load_request("tidy this stylesheet")
    panel.show_tier(2)
    view = panel.tier_views[2]
    header, text = html.unescape(view.header.text()), view.text.toPlainText()  # (rich text)
    assert "own format" not in header
    if profile == "copilot":
        assert text.startswith("<skills>") and "pull request's" in text
        assert "&#x27;" not in text and "not known here" not in header
    else:
        assert text.startswith("<available_skills>")
        assert "Cursor's own listing format is not known here" in header


@pytest.mark.parametrize(("words", "over"), [(30, False), (45, True)])
def test_the_meter_counts_what_codexs_budget_counts(
    qtbot: QtBot, tmp_path: Path, words: int, over: bool
) -> None:
    """A reviewer's day: under codex the meter showed a red '8,467 / 8,000 characters'
    (the whole message) where Headroom said 6,128 of 8,000 fit: the meter shows what
    the budget counts, red only where the budget cost the listing something."""
    tier, room = codex_listing(make_codex_set(tmp_path, words))
    view = TierView()
    qtbot.addWidget(view)
    view.show_tier(tier)
    assert view.meter.maximum() == 8_000 and room.budget == 8_000
    assert view.meter.value() == min(room.used, 8_000)
    assert view.meter.format() == f"{room.used:,} / 8,000 characters counted"
    assert ("QProgressBar::chunk" in view.meter.styleSheet()) is over
    state = "over" if over else "fits"
    said = f"{room.used:,} of 8,000 characters counted against the budget ({state})"
    assert said in view.meter.toolTip() and said in html.unescape(view.header.text())
    assert f"the block is {tier.chars:,} characters" in view.meter.toolTip()
