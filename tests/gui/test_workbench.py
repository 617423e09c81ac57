"""The Try a Request panel answers what the engine answers, for the text on screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from skillstudio.core.delivery.tiers import render_tiers
from skillstudio.core.model.session import Session
from skillstudio.core.projects.suites import load_suite
from skillstudio.core.ranking.likely_ranking import likely
from skillstudio.core.ranking.matching import match
from skillstudio.gui.field_widgets import ListEditor
from skillstudio.gui.main_window import MainWindow
from skillstudio.gui.workbench.panel_parts import summary_text
from skillstudio.gui.workbench.query_panel import QueryPanel

REQUESTS = {  # one request per sample profile
    "agentskills": "review this SQL migration for locking problems",
    "codex": "$api-review the new orders endpoint",
    "mvp": "/code-review src/app.py",
    "oasis": "code review please, find bugs in my commit",
    "pegasus": "/deploy staging",
    "toolsets": "greet Bob and translate the greeting",
    "workspace": "survey the repo layout",
}


def panel_on(window: MainWindow, profile: str) -> QueryPanel:
    panel = window.query_panel
    for number, project in enumerate(panel.projects):
        if project.profile.name == profile:
            panel.project_box.setCurrentIndex(number)
            return panel
    raise AssertionError(f"no {profile} project in the samples")


@pytest.mark.parametrize("profile", sorted(REQUESTS))
def test_panel_matches_the_engine_on_every_profile(
    window: MainWindow, qtbot: QtBot, profile: str
) -> None:
    panel = panel_on(window, profile)
    window.menu_actions.query_action.trigger()
    assert panel.query.hasFocus() or window.query_dock.isVisible()
    qtbot.keyClicks(panel.query, REQUESTS[profile])
    registry = panel.registry
    assert registry is not None
    expected = match(registry, REQUESTS[profile], session=Session(), options=panel.options())
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.query == REQUESTS[profile])
    assert panel.result is not None
    assert panel.result.selected == expected.selected
    if registry.profile.model_chooses:
        # the likely candidates, once their index (built off the GUI thread) lands,
        # a skill invoked by name first
        ranked = likely(registry, REQUESTS[profile])
        qtbot.waitUntil(lambda: panel.model.likely is not None)
        names = expected.selected + [
            c.name for c in ranked.candidates if c.name not in expected.selected
        ]
        assert [c.name for c in panel.model.rows] == names[:30]
        assert panel.model.headerData(3, Qt.Orientation.Horizontal) == "Band"
        if expected.selected:
            assert panel.summary.text() == summary_text(expected)
    else:
        assert [c.name for c in panel.model.rows] == [c.name for c in expected.candidates][:30]
        assert [c.score for c in panel.model.rows] == [c.score for c in expected.candidates][:30]
        assert panel.summary.text() == summary_text(expected)
    tiers = render_tiers(registry, expected, panel.options(), Session())
    for view, tier in zip(panel.tier_views, tiers, strict=True):
        panel.show_tier(tier.tier)  # a tier's text is laid out when its tab shows
        assert view.text.toPlainText() == tier.text
    used = [n for n, t in enumerate(tiers) if t.used]
    marked = [n for n in range(4) if "used" in panel.tier_tabs.tabText(n)]
    assert marked == used


def test_explanation_marks_words_and_threshold_line(window: MainWindow, qtbot: QtBot) -> None:
    panel = panel_on(window, "oasis")
    panel.load_request("code review please, find bugs in my commit")
    assert panel.summary.text().startswith("code-review wins by")
    text = panel.explanation_html()
    assert "code-review: 40 points, selected" in text
    assert ">find bugs</span>" in text  # matched words are marked (a phrase as one)
    assert ">please</span>" not in text
    panel.load_request("tests")  # one keyword: below the threshold of 10
    assert panel.summary.text().startswith("No skill passes the threshold of 10")
    panel.option.setValue(1)  # the threshold is adjustable: now one keyword is enough
    panel.update_now()
    registry = panel.registry
    assert registry is not None and panel.result is not None
    assert panel.result.threshold == 1
    assert panel.result.selected == match(registry, "tests", options={"threshold": 1}).selected
    assert panel.result.selected
    panel.option.setValue(10)
    panel.load_request("code review of the tests")
    scores = [c.score for c in panel.model.rows]
    assert scores[0] >= 10 and min(scores) < 10
    assert panel.model.threshold_row == next(i for i, s in enumerate(scores) if s < 10)


def test_why_not_explains_a_skill_that_lost(window: MainWindow, qtbot: QtBot) -> None:
    panel = panel_on(window, "oasis")
    panel.load_request("code review please, find bugs in my commit")
    panel.why_box.setCurrentIndex(panel.why_box.findData("commit"))
    assert "Why not commit?" in panel.explanation_html()
    assert "code-review scored 40 and wins" in panel.explanation_html()


def test_editing_a_trigger_reranks_without_saving(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    panel = panel_on(window, "oasis")
    window.focus_query_panel()
    panel.load_request("tidy up my history")
    assert panel.result is not None and panel.result.selected == []
    editor = window.open_skill(str(samples / "oasis/key_skills/commit/SKILL.md"))
    assert editor is not None
    triggers = editor.form.fields["triggers"].widget
    assert isinstance(triggers, ListEditor)
    triggers.add_item("tidy up my history")
    qtbot.waitUntil(
        lambda: panel.result is not None and panel.result.selected == ["commit"], timeout=3000
    )
    assert editor.document.modified, "nothing was saved"


def test_add_as_test_case_appends_to_the_suite(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    panel = panel_on(window, "oasis")
    panel.load_request("code review please")
    panel.ask_case = lambda query, suites, default, proposed: (default, proposed)  # type: ignore[method-assign]
    path = panel.add_test_case()
    assert path is not None and path.endswith("oasis.yaml")
    last = load_suite(path).cases[-1]
    assert (last.query, last.expect) == ("code review please", ["code-review"])
    panel.ask_case = lambda query, suites, default, proposed: (default, "commit")  # type: ignore[method-assign]
    panel.add_test_case()  # a corrected expectation
    assert load_suite(path).cases[-1].expect == ["commit"]


def test_activation_preview_and_errors(window: MainWindow, qtbot: QtBot) -> None:
    panel = panel_on(window, "mvp")
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


def test_session_remembers_consent_and_resets(window: MainWindow, qtbot: QtBot) -> None:
    panel = panel_on(window, "workspace")
    assert panel.details.isTabVisible(3)
    panel.query.setText("/repo-survey")
    panel.send()
    assert panel.session.history and "repo-survey" in panel.session.history[0]
    assert "repo-survey" in panel.session.consented
    assert "repo-survey" in panel.session_view.state.text()
    panel.session_view.reset_button.click()
    assert not panel.session.history and not panel.session.consented
    panel_on(window, "oasis")
    assert not panel.details.isTabVisible(3)


def test_a_hidden_panel_waits_and_catches_up_when_shown(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    panel = panel_on(window, "oasis")
    window.focus_query_panel()
    panel.load_request("tidy up my history")
    window.query_dock.hide()
    editor = window.open_skill(str(samples / "oasis/key_skills/commit/SKILL.md"))
    assert editor is not None
    triggers = editor.form.fields["triggers"].widget
    assert isinstance(triggers, ListEditor)
    triggers.add_item("tidy up my history")
    qtbot.wait(400)  # validation ran; the hidden panel did not answer
    assert panel.result is not None and panel.result.selected == []
    window.focus_query_panel()
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.selected == ["commit"])
