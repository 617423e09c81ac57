"""Tests of gui/panels/workbench/open_skill_advice.py (Try a Request's advice about the
skill in the current tab: the toggle "This request is for the open skill" (off by
default: a request is not assumed to be meant for the skill being edited) and the
advice itself (outranked_by.py words it), shown at the top of the explanation: a line
of its own above the ranking or the tabs pushed them down (under the pointer) each
time it came and went)."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from skillstudio.gui.panels.workbench.query_panel import QueryPanel
from skillstudio.gui.window.main_window import MainWindow

from ...parts import COLLECTION_PAIR, ask, query_panel_on, write_collection


def test_requests_that_would_pick_another_skill_instead(
    collection_panel: QueryPanel, collection: Path, qtbot: QtBot
) -> None:
    panel = collection_panel
    panel.set_edited(str(collection / "skills/release-notes/SKILL.md"))  # its tab is current
    panel.for_open.setChecked(True)  # the requests below are meant for release-notes
    ask(panel, qtbot, "write pytest tests for this python function")
    assert panel.advice.text
    text = panel.advice.text
    assert "instead of release-notes" in text
    assert "pytest-writer" in text or "python-test-author" in text
    ask(panel, qtbot, "draft release notes from the merged pull requests")
    assert not panel.advice.text  # the edited skill comes first: nothing instead


def test_suite_requests_that_would_pick_another_skill(qtbot: QtBot, tmp_path: Path) -> None:
    folder = write_collection(tmp_path / "suited")
    (folder / "skillstudio.yaml").write_text(
        "profile: agentskills\nroots: [skills]\nsuites: [suite.yaml]\n", encoding="utf-8"
    )
    (folder / "suite.yaml").write_text(
        "cases:\n"
        '  - query: "add pytest tests for this python function"\n'
        "    expect: [release-notes]\n"
        '  - query: "draft the release notes for the merged pull requests"\n'
        "    expect: [release-notes]\n",
        encoding="utf-8",
    )
    panel = query_panel_on(qtbot, folder)
    ask(panel, qtbot, "draft release notes")  # the index has landed
    assert not panel.advice.text
    panel.set_edited(str(folder / "skills/release-notes/SKILL.md"))  # its tab is current
    found = panel.suite_requests_instead()
    assert [query for query, _ in found] == ["add pytest tests for this python function"]
    assert found[0][1] in COLLECTION_PAIR
    assert panel.advice.text
    assert "Suite requests that would pick another skill than release-notes" in (panel.advice.text)


def test_advice_about_the_open_skill_only_when_the_request_is_for_it(
    app_window: MainWindow, collection: Path, qtbot: QtBot
) -> None:
    """With release-notes open, a request about Python tests said the model "would pick
    pytest-writer instead of release-notes … make release-notes' description say …",
    as if every request were meant for the open tab; and under "No skill is likely" it
    named a merely possible skill as the one the model would pick. (The window: the
    current tab is the open skill.)"""
    panel = app_window.query_panel
    assert app_window.open_skill(str(collection / "skills/release-notes/SKILL.md"))
    app_window.focus_query_panel()
    ask(panel, qtbot, "write pytest tests for this python function")
    assert panel.for_open.isVisible() and not panel.for_open.isChecked()  # off by default
    assert "release-notes" not in panel.advice.text
    panel.for_open.setChecked(True)
    text = panel.advice.text
    assert "would likely pick" in text and "instead of release-notes" in text
    assert "pytest-writer" in text or "python-test-author" in text
    # No skill is likely: the advice says so too, never "would pick" a possible one.
    ask(panel, qtbot, "tidy the docker notes")  # two tie, each only possible
    assert panel.summary.text().startswith("No skill is likely")
    text = panel.advice.text
    assert "would" not in text and "instead of" not in text
    assert text.startswith("No skill is likely for this request, release-notes included")
    # Another tab: the toggle goes off again.
    assert app_window.open_skill(str(collection / "skills/sql-review/SKILL.md"))
    assert not panel.for_open.isChecked() and not panel.advice.text


def test_the_advice_does_not_ask_for_the_users_project_words(
    app_window: MainWindow, collection: Path, qtbot: QtBot
) -> None:
    """Issue 39, round 4: for a request meant for the open skill that no skill is likely
    for, the advice said its description "needs the request's distinctive words", the
    user's own nouns included (a web shop's 'checkout', 'wishlist'); now it says those
    need not be in it."""
    panel = app_window.query_panel
    assert app_window.open_skill(str(collection / "skills/release-notes/SKILL.md"))
    app_window.focus_query_panel()
    panel.for_open.setChecked(True)
    ask(panel, qtbot, "tidy the docker notes for the wishlist checkout")
    assert panel.summary.text().startswith("No skill is likely")
    text = panel.advice.text
    assert text.startswith("No skill is likely for this request, release-notes included")
    assert "distinctive words" not in text
    assert "(tidy, wishlist, checkout) need not be added to the description" in text
    assert "for the model to pick release-notes, its description needs the words" in text


def test_an_invocation_in_a_suite_picks_the_skill_it_names(
    qtbot: QtBot, tmp_path: Path, samples: Path
) -> None:
    """A third first-time reviewer saw "/review-kit:security-review → security-review"
    under the plugin skill's tab: the line took the estimate's top row (Claude Code's
    own security-review) while the rules select the plugin's skill by name, the case
    passing in Suites and in `skillstudio test`. What a request picks is what the
    headline says: the selection, else the first likely skill."""
    import shutil

    from ....helpers import cli

    folder = tmp_path / "claude-code"
    shutil.copytree(samples / "claude-code", folder)
    suite = folder / "suites" / "claude-code.yaml"
    text = suite.read_text(encoding="utf-8")
    suite.write_text(  # and a case the estimate would give another skill
        text + '  - query: "write a commit message for my staged changes"\n'
        "    expect: [review-kit:security-review]\n",
        encoding="utf-8",
    )
    panel = query_panel_on(qtbot, folder)
    ask(panel, qtbot, "check this diff for security problems")  # the index has landed
    panel.set_edited(str(folder / "plugins/review-kit/skills/security-review/SKILL.md"))
    found = dict(panel.suite_requests_instead())
    assert "/review-kit:security-review" not in found, found
    assert found.get("write a commit message for my staged changes") == "commit-message"
    judged = cli("test", str(suite), "--format", "json", cwd=folder).json["cases"]
    invoked = next(c for c in judged if c["query"] == "/review-kit:security-review")
    assert invoked["passed"] and invoked["got"] == ["review-kit:security-review"]
