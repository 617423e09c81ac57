"""Tests of gui/panels/workbench/session_view.py (The session a profile keeps (recently
used skills) and how it changes the answer)."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from skillstudio.gui.panels.workbench.query_panel import QueryPanel

from ...parts import panel_on


def test_session_remembers_consent_and_resets(query_panel: QueryPanel, qtbot: QtBot) -> None:
    panel = panel_on(query_panel, "workspace")
    assert panel.details.isTabVisible(3)
    panel.query.setText("/repo-survey")
    panel.send()
    assert panel.session.history and "repo-survey" in panel.session.history[0]
    assert "repo-survey" in panel.session.consented
    assert "repo-survey" in panel.session_view.state.text()
    panel.session_view.reset_button.click()
    assert not panel.session.history and not panel.session.consented
    panel_on(query_panel, "oasis")
    assert not panel.details.isTabVisible(3)
