"""Tests of gui/panels/workbench/detail_tabs.py (The tabs beside (or below) Try a
Request's ranking: Explanation (with its "Why not" box), Tiers, Activation, Session,
Headroom and Ask a model. Built here; the panel (query_panel.py) connects them to its
answer)."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from skillstudio.gui.panels.workbench.query_panel import QueryPanel

from ...parts import panel_on


def test_ask_a_model_is_a_tab_of_try_a_request(query_panel: QueryPanel, qtbot: QtBot) -> None:
    """The live check (docs/live.md) gets the request on screen and plans only when
    asked: nothing is sent without Send."""
    panel = panel_on(query_panel, "claude-code")
    panel.load_request("write a commit message for these changes")
    assert panel.live.query == "write a commit message for these changes"
    assert panel.live.registry is panel.registry
    titles = [panel.details.tabText(i) for i in range(panel.details.count())]
    assert titles[-2:] == ["Headroom", "Ask a model"]
    panel.ask_a_model()
    assert panel.details.currentWidget() is panel.live_page
    assert "Name the model" in panel.live.status.text()  # no model named yet: nothing sent
    assert not panel.live.send_button.isEnabled()
