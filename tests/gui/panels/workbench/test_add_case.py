"""Tests of gui/panels/workbench/add_case.py (Try a Request's "Add as test case…": which
suite file the case goes in (the file chosen last time, else the one the Suites panel
shows, else the project's first suite, or a new file the user names), and the expected
skills, pre-filled from what the panel shows (the row the user chose, else the skill
invoked, else the skills shown as likely, else none). A request that invokes a skill
by name is warned about: such a case tests the invocation, not whether the skill's
description gets it picked)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.suites import load_suite
from skillstudio.gui.panels.workbench.add_case import AddCaseDialog, CaseAnswer, CaseQuestion
from skillstudio.gui.panels.workbench.query_panel import QueryPanel

from ...parts import ask, panel_on


def test_add_as_test_case_proposes_what_is_shown_and_warns_about_an_invocation(
    collection_panel: QueryPanel, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two skills shown likely it proposed the first only; a row the user chose
    was ignored; every case asked for the file again from the Suites panel's default;
    a "$name" request made a case as if it tested matching."""
    panel = collection_panel
    ask(panel, qtbot, "write pytest tests, review sql migrations, build docker images, notes")
    assert panel.summary.text().startswith("Likely: docker-build, sql-review")
    asked: list[tuple[str, str]] = []
    other = Path(panel.project.base if panel.project else "") / "suites" / "mine.yaml"

    def answer(question: CaseQuestion) -> CaseAnswer:
        asked.append((question.default, question.proposed))
        return CaseAnswer(str(other), question.proposed, question.key)

    panel.ask_case = answer  # type: ignore[method-assign]
    assert panel.add_test_case() == str(other)
    assert asked[-1][1] == "docker-build, sql-review"  # what the headline says
    assert asked[-1][0].endswith("agentskills.yaml")  # the first time: a new file
    assert load_suite(str(other)).cases[-1].expect == ["docker-build", "sql-review"]
    assert panel.summary.text().startswith("Likely: docker-build")  # the headline stays
    panel.table.selectRow(3)  # the user chooses a row: it is the one expected
    chosen = panel.model.rows[3].name
    panel.add_test_case()
    assert asked[-1] == (str(other), chosen)  # and the file chosen last time first
    # An invocation: the dialog says what such a case tests.
    panel.query.setText("$sql-review look at this migration")
    panel.update_now()
    seen: list[tuple[str, bool, str]] = []

    def shown(dialog: AddCaseDialog) -> int:
        seen.append(
            (dialog.warning.text(), dialog.warning.isVisibleTo(dialog), dialog.answer().typed)
        )
        return 0  # cancelled

    monkeypatch.setattr(AddCaseDialog, "exec", shown)
    del panel.ask_case  # the real dialog again
    assert panel.add_test_case() is None
    warning, visible, proposed = seen[0]
    assert visible and "invokes sql-review by name" in warning and proposed == "sql-review"
    panel.query.setText("review my database migration for locking problems")
    panel.update_now()
    panel.add_test_case()
    assert seen[1][0] == "" and not seen[1][1]  # no invocation, no warning


def test_add_as_test_case_asks_where_and_keeps_the_headline(
    collection_panel: QueryPanel, collection: Path, qtbot: QtBot
) -> None:
    """It wrote suites/<profile>.yaml without asking, expected "none" though a skill
    was shown as likely, and replaced the headline with "Added to …"."""
    panel = collection_panel
    (collection / "suites").mkdir()
    mine = collection / "suites/mine.yaml"
    mine.write_text("cases: []\n", encoding="utf-8")
    ask(panel, qtbot, "review my database migration for locking problems")
    headline = panel.summary.text()
    assert headline.startswith("Likely: sql-review")
    asked: list[tuple[str, list[str], str, str]] = []

    def answer(question: CaseQuestion) -> CaseAnswer:
        q = question
        asked.append((q.query, q.suites, q.default, q.proposed))
        return CaseAnswer(q.default, q.proposed, q.key)

    panel.ask_case = answer  # type: ignore[method-assign]
    with qtbot.waitSignal(panel.said) as said:
        assert panel.add_test_case() == str(mine)
    query, suites, default, proposed = asked[0]
    assert query == "review my database migration for locking problems"
    assert suites == [str(mine)] and default == str(mine)  # the folder's suite, offered
    assert proposed == "sql-review"  # the skill shown as likely
    assert load_suite(str(mine)).cases[-1].expect == ["sql-review"]
    # the key that means what was shown: the estimate's pick (agentskills: the model chooses)
    assert said.args == [f"Added to suites/mine.yaml: {query} (expect_likely: sql-review)"]
    assert panel.summary.text() == headline  # the answer's headline stays
    # A new file the user names: created there.
    other = collection / "suites/more.yaml"
    panel.ask_case = lambda question: CaseAnswer(str(other), "none", question.key)  # type: ignore[method-assign]
    assert panel.add_test_case() == str(other)
    assert load_suite(str(other)).cases[-1].expect == []


def test_add_as_test_case_appends_to_the_suite(
    query_panel: QueryPanel, samples: Path, qtbot: QtBot
) -> None:
    panel = panel_on(query_panel, "oasis")
    panel.load_request("code review please")
    panel.ask_case = lambda question: CaseAnswer(question.default, question.proposed, question.key)  # type: ignore[method-assign]
    path = panel.add_test_case()
    assert path is not None and path.endswith("oasis.yaml")
    last = load_suite(path).cases[-1]
    assert (last.query, last.expect) == ("code review please", ["code-review"])
    panel.ask_case = lambda question: CaseAnswer(question.default, "commit", question.key)  # type: ignore[method-assign]
    panel.add_test_case()  # a corrected expectation
    assert load_suite(path).cases[-1].expect == ["commit"]
