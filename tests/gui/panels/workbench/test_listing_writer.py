"""Tests of gui/panels/workbench/listing_writer.py (Tier 2 (the listing of every skill)
written in slices between events)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from skillstudio.core.delivery import tiers as disclosure
from skillstudio.core.delivery.tiers import render_listing
from skillstudio.core.model.delivered import TierText
from skillstudio.core.projects.project import projects_for_path
from skillstudio.gui.panels.workbench import listing_writer
from skillstudio.gui.panels.workbench.listing_writer import ListingWriter
from skillstudio.gui.panels.workbench.query_panel import QueryPanel
from skillstudio.gui.panels.workbench.tier_view import TierView

from ....benchmarks.synth import generate


def test_the_listing_is_written_when_its_tab_is_shown(query_panel: QueryPanel) -> None:
    """Tier 2 (the listing of every skill, 30-50 ms at 10,000) waits for its tab."""
    panel = query_panel
    panel.details.setCurrentIndex(0)  # the explanation in front
    panel.load_request("code review please")
    registry = panel.registry
    assert registry is not None
    assert panel.tiers[2].text == ""  # main: written on every answer
    assert not panel.tier_views[2].isVisible()
    panel.show_tier(2)
    expected = render_listing(registry, panel.options())
    assert expected.text
    assert panel.tiers[2].text == expected.text
    assert panel.tier_views[2].text.toPlainText() == expected.text
    assert panel.tiers[2].used == (panel.result is not None and panel.result.tier == 2)
    panel.load_request("code review please, find bugs")  # shown: written with the answer
    assert panel.tier_views[2].text.toPlainText() == expected.text


def test_the_listing_is_written_in_slices_of_a_bounded_count(
    tmp_path: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 10,000 skills writing the listing took 30-180 ms in one piece (and laying its
    text out 40-420 ms more) each time the Tiers tab's listing was opened or a skill
    changed under it. It is written LISTING_STEP skills a slice now (and its text is
    drawn a screen at a time, see test_line_view); the result is the same."""
    monkeypatch.setattr(disclosure, "LISTING_STEP", 20)  # (500 and 100,000: smaller here)
    step = disclosure.LISTING_STEP
    generate(str(tmp_path), step * 2 + 15)
    registry = projects_for_path(str(tmp_path), None)[0].registry()
    registry.scan()
    expected = render_listing(registry, {})
    assert len(expected.listed) > 2 * step
    disclosure._LISTINGS.clear()  # (written again, not taken from the cache)
    written: list[TierText] = []
    parent = QWidget()
    writer = ListingWriter(lambda _r, _v, tier: written.append(tier), lambda _t: None, parent)
    monkeypatch.setattr(listing_writer, "LISTING_SLICE_S", 0.0)  # one step a slice
    writer.start(registry, {})
    slices = 1
    while writer.job is not None:
        writer.run_slice(writer.job, 0.0)
        slices += 1
    assert slices == len(registry.active) // step + 1  # LISTING_STEP skills a slice
    assert [t.text for t in written] == [expected.text]
    view = TierView()
    qtbot.addWidget(view)
    view.show()
    view.show_tier(written[0])
    assert view.text.toPlainText() == expected.text
