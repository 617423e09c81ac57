"""Tests of gui/panels/workbench/activation_view.py (What a skill's activation returns
(the exact content, or the error) for given arguments)."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from skillstudio.gui.panels.workbench.query_panel import QueryPanel

from ...parts import panel_on


def test_the_activation_list_is_filled_when_its_tab_is_shown(query_panel: QueryPanel) -> None:
    panel = query_panel
    activation = panel.activation
    assert activation.names.rowCount() == 0  # not at the end of the scan
    panel.details.setCurrentIndex(2)  # Activation
    registry = panel.registry
    assert registry is not None
    assert activation.names.stringList() == sorted(registry.active)


def test_activation_preview_and_errors(query_panel: QueryPanel, qtbot: QtBot) -> None:
    panel = panel_on(query_panel, "mvp")
    panel.activation.skill.setCurrentText("code-review")
    panel.activation.args.setText("src/app.py")
    panel.update_now()
    act = panel.activation.activation
    assert act is not None and act.ok
    assert panel.activation.output.toPlainText().startswith(act.content)
    assert "/code-review src/app.py" in panel.activation.invocation.text()
    panel.activation.skill.setCurrentText("no-such-skill")
    panel.update_now()
    assert "The agent receives this error" in panel.activation.output.toPlainText()


def test_activation_follows_the_ranking_of_the_current_project(query_panel: QueryPanel) -> None:
    panel = panel_on(query_panel, "agentskills")
    panel.load_request("write the release notes")
    assert panel.activation.skill.currentText() == panel.model.rows[0].name == "release-notes"
    panel_on(query_panel, "workspace")
    panel.load_request("survey the repo layout")
    registry = panel.registry
    assert registry is not None
    name = panel.activation.skill.currentText()
    assert name == panel.model.rows[0].name and name in registry.active
    act = panel.activation.activation
    assert act is not None
    assert act.ok, act.error
    assert "NOT_FOUND" not in panel.activation.output.toPlainText()
    # Choosing another row shows that skill's activation.
    panel_on(query_panel, "oasis")
    panel.load_request("code review please, find bugs in my commit")
    assert panel.activation.skill.currentText() == "code-review"
    panel.table.selectRow(1)
    assert panel.activation.skill.currentText() == "commit"
    act = panel.activation.activation
    assert act is not None and act.ok and act.skill == "commit"
    # A project without the request's skill never keeps a name it does not have.
    panel_on(query_panel, "toolsets")
    registry = panel.registry
    assert registry is not None
    shown = panel.activation.skill.currentText()
    assert shown == "" or shown in registry.active


def test_activation_of_an_explicit_invocation_is_the_one_the_request_triggers(
    query_panel: QueryPanel,
) -> None:
    panel = panel_on(query_panel, "pegasus")
    panel.load_request("/deploy staging")
    view = panel.activation
    assert view.skill.currentText() == "deploy"
    assert view.args.text() == "staging" and view.invoker.currentData() == "user"
    act = view.activation
    assert act is not None
    assert act.ok, act.error  # not the model's PERMISSION_DENIED: the user typed /deploy
    assert "As a user invocation: /deploy staging" in view.invocation.text()


def test_with_nothing_ranked_the_activation_is_the_open_skills(
    query_panel: QueryPanel, qtbot: QtBot
) -> None:
    """A reviewer saw an old request's top row (release-notes) in Activation while
    another skill was open and nothing was ranked: with no request it shows the open
    skill's activation, or nothing, and a name typed in the box stays."""
    panel = panel_on(query_panel, "agentskills")
    panel.load_request("write the release notes")
    assert panel.activation.skill.currentText() == "release-notes"
    registry = panel.registry
    assert registry is not None
    other = next(s for s in registry.active.values() if s.name != "release-notes")
    panel.set_edited(other.path)
    panel.load_request("")
    assert panel.activation.skill.currentText() == other.name
    act = panel.activation.activation
    assert act is not None and act.skill == other.name
    panel.set_edited(None)  # no skill open: nothing is activated, and it says so
    qtbot.waitUntil(lambda: panel.activation.skill.currentText() == "")
    assert panel.activation.invocation.text().startswith("Type a request")
    panel.activation.skill.setCurrentText("release-notes")  # typed: the user's, kept
    panel.set_edited(other.path)
    qtbot.wait(400)
    assert panel.activation.skill.currentText() == "release-notes"
