"""Tests of gui/panels/workbench/add_case.py (Try a Request's "Add as test case…": which
suite file the case goes in (the file chosen last time, else the one the Suites panel
shows, else the project's first suite, or a new file the user names), and the expected
skills, pre-filled from what the panel shows (the row the user chose, else the skill
invoked, else the skills shown as likely, else none). A request that invokes a skill
by name is warned about: such a case tests the invocation, not whether the skill's
description gets it picked); and one meaning per key (issue 37): the case's key matches
what was shown, the message says where it went, the suite is offered into
skillstudio.yaml or kept in the app's settings, and Suites shows it at once and on
reopen."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.projects.suites import load_suite
from skillstudio.core.ranking.estimate import LikelyResult, band_text
from skillstudio.gui.infra.settings_store import AppSettings
from skillstudio.gui.panels.workbench.add_case import (
    AddCaseDialog,
    CaseAnswer,
    CaseQuestion,
    estimate_warning,
    suite_choices,
)
from skillstudio.gui.panels.workbench.query_panel import QueryPanel
from skillstudio.gui.window.main_window import MainWindow

from ....helpers import cli
from ....test_config_profile import plain_folder
from ...parts import ask, open_window, panel_on, write_collection


def test_add_as_test_case_proposes_what_is_shown_and_warns_about_an_invocation(
    collection_panel: QueryPanel, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two skills shown likely it proposed the first only; a row the user chose
    was ignored; every case asked for the file again from the Suites panel's default;
    a "$name" request made a case as if it tested matching."""
    panel = collection_panel
    ask(panel, qtbot, "write pytest tests, review sql migrations, build docker images, notes")
    # (sql-review first since issue 43: its trigger clause holds "migrations")
    assert panel.summary.text().startswith("Likely: sql-review, docker-build")
    asked: list[tuple[str, str]] = []
    other = Path(panel.project.base if panel.project else "") / "suites" / "mine.yaml"

    def answer(question: CaseQuestion) -> CaseAnswer:
        asked.append((question.default, question.proposed))
        return CaseAnswer(str(other), question.proposed, question.key)

    panel.ask_case = answer  # type: ignore[method-assign]
    assert panel.add_test_case() == str(other)
    assert asked[-1][1] == "sql-review, docker-build"  # what the headline says
    assert asked[-1][0].endswith("agentskills.yaml")  # the first time: a new file
    assert load_suite(str(other)).cases[-1].expect == ["sql-review", "docker-build"]
    assert panel.summary.text().startswith("Likely: sql-review")  # the headline stays
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


# -- one meaning per key (issue 37; PRODUCT.md section 7): the key that matches what
# was shown, where the case went, the suite offered into skillstudio.yaml or kept, and
# shown in Suites at once and on reopen
CONFIG = "profile: agentskills\nroots: [skills]\n"  # parts.write_collection's


def answering(
    monkeypatch: pytest.MonkeyPatch, seen: list[AddCaseDialog], list_it: bool = True
) -> None:
    """The real dialog, accepted as it is (with the listing offer ticked or not)."""

    def accept(dialog: AddCaseDialog) -> QDialog.DialogCode:
        seen.append(dialog)
        dialog.list_box.setChecked(list_it)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(AddCaseDialog, "exec", accept)


def test_a_likely_skill_is_written_as_expect_likely_and_the_suite_listed(
    collection_panel: QueryPanel,
    collection: Path,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On main a model-choice project's case was written `expect:` (failing by
    construction) in a suites/<profile>.yaml created without a word."""
    panel = collection_panel
    seen: list[AddCaseDialog] = []
    answering(monkeypatch, seen)
    ask(panel, qtbot, "review my database migration for locking problems")
    assert panel.summary.text().startswith("Likely: sql-review")
    with qtbot.waitSignal(panel.said) as said:
        path = panel.add_test_case()
    dialog = seen[0]
    assert dialog.expect.text() == "sql-review"  # the likely skill, not none
    assert dialog.key_box.currentData() == "expect_likely"
    assert dialog.list_box.isVisibleTo(dialog)  # the new file is offered into the config
    suite = collection / "suites" / "agentskills.yaml"
    assert path == str(suite)
    assert "expect_likely: sql-review\n" in suite.read_text()
    case = load_suite(path).cases[-1]
    assert (case.mode, case.likely) == ("likely", ["sql-review"])
    query = "review my database migration for locking problems"
    assert said.args == [
        f"Added to suites/agentskills.yaml (created): {query} (expect_likely: sql-review); "
        "listed in skillstudio.yaml"
    ]
    config = (collection / "skillstudio.yaml").read_text()
    assert config == CONFIG + "suites:\n  - suites/agentskills.yaml\n"  # the rest kept


def test_an_invocation_and_a_rules_profile_are_written_as_expect(
    collection_panel: QueryPanel,
    query_panel: QueryPanel,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[AddCaseDialog] = []
    answering(monkeypatch, seen, list_it=False)
    panel = collection_panel
    panel.query.setText("$sql-review look at this migration")
    panel.update_now()
    path = panel.add_test_case()
    assert seen[-1].key_box.currentData() == "expect"  # the harness selects it by name
    assert path is not None and load_suite(path).cases[-1].expect == ["sql-review"]
    oasis = panel_on(query_panel, "oasis")  # its rules select: `expect`
    oasis.load_request("code review please")
    path = oasis.add_test_case()
    assert seen[-1].key_box.currentData() == "expect"
    assert not seen[-1].list_box.isVisibleTo(seen[-1])  # oasis.yaml is listed already
    assert path is not None and path.endswith("oasis.yaml")
    last = load_suite(path).cases[-1]
    assert (last.mode, last.expect) == ("exact", ["code-review"])


def test_the_suite_is_shown_at_once_and_remembered_on_reopen(
    app_window: MainWindow,
    collection: Path,
    settings: QSettings,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On main the new suite was neither shown in Suites nor offered on reopen."""
    window = app_window
    seen: list[AddCaseDialog] = []
    answering(monkeypatch, seen, list_it=False)  # declined: the app keeps it
    window.query_dock.show()
    window.query_dock.raise_()
    panel = window.query_panel
    ask(panel, qtbot, "review my database migration for locking problems")
    path = panel.add_test_case()
    suite = str(collection / "suites" / "agentskills.yaml")
    assert path == suite
    runner = window.suite_runner
    assert runner.suite_box.currentData() == suite  # shown at once, and run
    window.suites_dock.show()
    window.suites_dock.raise_()
    qtbot.waitUntil(lambda: runner.report is not None and len(runner.report.results) == 1)
    assert runner.report is not None and runner.report.failed == 0
    assert (collection / "skillstudio.yaml").read_text() == CONFIG  # not listed: untouched
    assert AppSettings(settings).kept_suites(str(collection)) == [suite]
    window.close()
    again = open_window(qtbot, settings, collection)
    offered = [
        again.suite_runner.suite_box.itemData(i)
        for i in range(again.suite_runner.suite_box.count())
    ]
    assert offered == [suite]


def test_a_listed_suite_comes_back_from_skillstudio_yaml(
    app_window: MainWindow,
    collection: Path,
    settings: QSettings,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[AddCaseDialog] = []
    answering(monkeypatch, seen, list_it=True)
    app_window.query_dock.show()
    app_window.query_dock.raise_()
    panel = app_window.query_panel
    ask(panel, qtbot, "review my database migration for locking problems")
    path = panel.add_test_case()
    assert path is not None
    assert AppSettings(settings).kept_suites(str(collection)) == []  # in the config instead
    app_window.close()
    fresh = QSettings(str(collection.parent / "other.ini"), QSettings.Format.IniFormat)
    again = open_window(qtbot, fresh, collection)  # no settings of this app: the file says
    box = again.suite_runner.suite_box
    assert [box.itemData(i) for i in range(box.count())] == [path]


def test_claude_codes_likely_pick_is_written_as_a_case_that_passes(
    query_panel: QueryPanel,
    samples: Path,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The issue's case: on a Claude Code project the case was pre-filled `none`
    under `expect:` though the likely skill was shown (Claude Code's own `review`)."""
    from ....helpers import cli

    seen: list[AddCaseDialog] = []
    answering(monkeypatch, seen, list_it=False)
    panel = panel_on(query_panel, "claude-code")
    ask(panel, qtbot, "please look over my pull request")
    likely = panel.likely
    assert likely is not None and likely.likely, "a skill is shown as likely"
    top = likely.likely[0].name
    path = panel.add_test_case()
    assert seen[-1].expect.text() == top and seen[-1].key_box.currentData() == "expect_likely"
    assert path is not None and f"expect_likely: {top}\n" in Path(path).read_text()
    run = cli("test", path, "--project", str(samples / "claude-code"))
    assert run.code == 0, run.out  # the case holds (an agent's own skill is no unknown name)


# -- Issue 39: the app and `skillstudio test` judged the same suite differently. A folder ...
# detected as agentskills, read as claude-code (chosen in the status bar), Add as test
# case…: the skillstudio.yaml the app writes now says `profile: claude-code`, so
# `skillstudio test` passes the suite as F6 does; a file naming another profile is left
# and the message says so; and a file's profile wins over the one remembered for the
# folder when it is opened.
REQUEST = "please look over my pull request"  # Claude Code's own `review` is likely


def accept_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    def accept(dialog: AddCaseDialog) -> QDialog.DialogCode:
        dialog.list_box.setChecked(True)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(AddCaseDialog, "exec", accept)


def choose_profile(window: MainWindow, qtbot: QtBot, name: str) -> None:
    """The status bar's box set to `name`, the project read so."""
    box = window.project_profiles.profile_box
    with qtbot.waitSignal(window.project_profiles.switched, timeout=20_000):
        box.setCurrentIndex(box.findData(name))
    assert window.context.projects[0].profile.name == name


def add_case_and_run(window: MainWindow, qtbot: QtBot) -> tuple[str, int, int]:
    """Try a Request › Add as test case…, then F6: (the message, passed, failed)."""
    window.query_dock.show()
    window.query_dock.raise_()
    panel = window.query_panel
    ask(panel, qtbot, REQUEST)
    with qtbot.waitSignal(panel.said) as said:
        assert panel.add_test_case() is not None
    runner = window.suite_runner
    window.run_suite()
    qtbot.waitUntil(lambda: runner.report is not None and len(runner.report.results) == 1)
    assert runner.report is not None
    return str(said.args[0]), runner.report.passed, runner.report.failed


def test_the_reviewers_steps_pass_skillstudio_test_as_f6_does(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = plain_folder(tmp_path / "notes")
    accept_listing(monkeypatch)
    window = open_window(qtbot, settings, folder)
    assert window.context.projects[0].profile.name == "agentskills"  # detected
    choose_profile(window, qtbot, "claude-code")
    message, passed, failed = add_case_and_run(window, qtbot)
    assert (passed, failed) == (1, 0)  # F6
    assert message.endswith(
        "listed in skillstudio.yaml and profile: claude-code, so `skillstudio test` "
        "and CI read it as the app does"
    )
    config = (folder / "skillstudio.yaml").read_text()
    assert "\nprofile: claude-code\n" in config
    run = cli("test", cwd=folder)
    assert run.code == 0, run.out
    assert "against . (claude-code; " in run.out and "1 passed, 0 failed" in run.out
    lint = cli("lint", cwd=folder)
    assert lint.code == 0, lint.out


def test_a_file_naming_another_profile_is_left_and_the_message_says_so(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = plain_folder(tmp_path / "notes")
    own = "profile: agentskills  # the team's choice\n"
    (folder / "skillstudio.yaml").write_text(own)
    accept_listing(monkeypatch)
    window = open_window(qtbot, settings, folder)
    choose_profile(window, qtbot, "claude-code")
    message, _passed, _failed = add_case_and_run(window, qtbot)
    assert "its profile: agentskills differs from the app's choice (claude-code)" in message
    assert (
        folder / "skillstudio.yaml"
    ).read_text() == own + "suites:\n  - suites/claude-code.yaml\n"


def test_the_status_bar_follows_the_profile_the_file_names(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """On main a profile remembered for the folder overrode its skillstudio.yaml: the
    app read it as one profile, `skillstudio test` as another."""
    folder = plain_folder(tmp_path / "notes")
    (folder / "skillstudio.yaml").write_text("profile: claude-code\n")
    AppSettings(settings).set_folder_profile(str(folder), "codex")
    window = open_window(qtbot, settings, folder)
    project = window.context.projects[0]
    assert project.profile.name == "claude-code"
    box = window.project_profiles.profile_box
    assert box.currentText() == "Profile: auto → claude-code"
    assert "set by its skillstudio.yaml" in window.project_profiles.project_label.text()


def test_settings_writing_the_rules_records_the_profile_too(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """Settings › Advice rules is the other place the app writes skillstudio.yaml."""
    from ...dialogs.test_settings_dialog import set_rules

    folder = plain_folder(tmp_path / "notes")
    window = open_window(qtbot, settings, folder)
    choose_profile(window, qtbot, "claude-code")
    window.dialogs.ask_create_config = lambda question: True  # type: ignore[method-assign]
    set_rules(window, {"duplicate-name": "off"})
    messages: list[str] = []
    window.statusBar().messageChanged.connect(messages.append)
    with qtbot.waitSignal(window.project_profiles.switched, timeout=20_000):
        window.menu_actions.settings_action.trigger()
    config = (folder / "skillstudio.yaml").read_text()
    assert "duplicate-name: 'off'" in config and "\nprofile: claude-code\n" in config
    message = next(m for m in messages if m.startswith("Settings saved"))
    assert message.startswith("Settings saved; advice rules written to skillstudio.yaml")
    assert "and profile: claude-code" in message
    lint = cli("lint", "--format", "json", cwd=folder)
    assert lint.json["profile"] == "claude-code", lint.out


def test_a_case_the_estimate_would_fail_is_warned_about(
    collection_panel: QueryPanel, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second first-time reviewer saved an `expect_likely` case for a row Try a
    Request called unlikely; the suite judged it by a rule the panel did not show. The
    suite now fails such a case (the top pick is the first likely skill), and the
    dialog says so before it is saved."""
    panel = collection_panel
    ask(panel, qtbot, "write pytest tests, review sql migrations, build docker images, notes")
    seen: list[tuple[str, str, str]] = []

    def shown(dialog: AddCaseDialog) -> int:
        answer = dialog.answer()
        seen.append((dialog.warning.text(), answer.typed, answer.key))
        return 0  # cancelled

    monkeypatch.setattr(AddCaseDialog, "exec", shown)
    assert panel.likely is not None
    rows = panel.likely.candidates  # the rows, as the table shows them
    assert [r.name for r in rows][: len(panel.model.rows)] == [r.name for r in panel.model.rows]
    top = rows[0]
    assert top.band == "likely", [(r.name, r.band) for r in rows]
    panel.add_test_case()
    warning, typed, key = seen[-1]  # the likely skills, the top pick first: nothing to say
    assert warning == "" and typed.split(", ")[0] == top.name and key == "expect_likely"
    row = next(n for n, r in enumerate(rows) if r.band != "likely")
    panel.table.selectRow(row)
    chosen = rows[row]
    panel.add_test_case()
    warning, typed, key = seen[-1]
    assert typed == chosen.name and key == "expect_likely"
    assert chosen.chance is not None and top.chance is not None
    said = f"{chosen.name} is {chosen.band} (chance {round(100 * chosen.chance)} %) for this"
    assert said in warning
    pick = f"the estimate's top pick is {top.name} (chance {round(100 * top.chance)} %)"
    assert pick in warning and "fails until" in warning


def test_equal_estimates_in_two_bands_are_not_proposed_as_equal(
    collection_panel: QueryPanel, qtbot: QtBot
) -> None:
    """A reviewer saw two rows showing the same estimate, 1.34, one likely and one
    possible: the band reads the calibrated chance, which also weighs the lead and the
    share of the request the listing explains. The Band column shows the chance beside
    the band, and Add as test case, for the possible row, says both chances and that
    the equal figure is not what decides (issue 43)."""
    panel = collection_panel
    ask(panel, qtbot, "write pytest tests, review sql migrations, build docker images, notes")
    assert panel.likely is not None and panel.project is not None
    top, other = panel.likely.candidates[:2]
    # the reviewer's case: the same figure shown, a likely and a possible chance
    first = replace(top, strength=1.341, band="likely", chance=0.62)
    second = replace(other, strength=1.338, band="possible", chance=0.41)
    assert f"{first.strength:.2f}" == f"{second.strength:.2f}"
    assert band_text(first) == "likely · 62 %" and band_text(second) == "possible · 41 %"
    shown = LikelyResult("q", [first, second], 2)
    question = CaseQuestion("q", [], "", second.name, "expect_likely", panel.project)
    warning = estimate_warning(question, shown)
    assert f"{second.name} is possible (chance 41 %) for this request" in warning
    assert f"top pick is {first.name} (chance 62 %)" in warning
    assert "the same estimate, but the band reads the chance" in warning
    # a figure that differs says nothing of the sort
    apart = LikelyResult("q", [first, replace(second, strength=0.9)], 2)
    assert "the same estimate" not in estimate_warning(question, apart)


def test_a_skill_that_ties_with_another_of_another_band_is_said(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two skills with the same score for a request, one likely (the request says what
    its description says) and one possible: the likely one is proposed (the suite's
    top pick), and the dialog says the other ties rather than proposing one silently."""
    from ....test_likely import REVIEW
    from ...parts import query_panel_on

    folder = tmp_path / "books"
    (folder / "skills").mkdir(parents=True)
    (folder / "skillstudio.yaml").write_text("profile: agentskills\nroots: [skills]\n")
    skills = {
        **REVIEW,  # the same words in both; one description says one word twice
        "alpha-books": "archive invoice ledger reconcile quarterly vendor spreadsheet.",
        "bravo-books": "spreadsheet invoice ledger reconcile quarterly vendor spreadsheet.",
    }
    for name, description in skills.items():
        (folder / "skills" / name).mkdir()
        (folder / "skills" / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\n\nSteps.\n"
        )
    panel = query_panel_on(qtbot, folder)
    ask(panel, qtbot, "reconcile the quarterly vendor invoice ledger for the zorblat frobnicator")
    assert panel.likely is not None
    first, second = panel.likely.candidates[:2]
    assert first.score == second.score and (first.name, first.band) == ("alpha-books", "possible")
    assert (second.name, second.band) == ("bravo-books", "likely")
    seen: list[tuple[str, str]] = []

    def shown(dialog: AddCaseDialog) -> int:
        seen.append((dialog.warning.text(), dialog.answer().typed))
        return 0  # cancelled

    monkeypatch.setattr(AddCaseDialog, "exec", shown)
    panel.add_test_case()
    warning, typed = seen[-1]
    assert typed == "bravo-books"  # the likely one, which `skillstudio test` judges
    assert "bravo-books (likely) ties with alpha-books (possible)" in warning
    panel.query.setText("review a pull request for security issues")
    panel.update_now()
    qtbot.waitUntil(lambda: panel.likely is not None and "security" in panel.likely.query)
    panel.add_test_case()
    assert "ties with" not in seen[-1][0]  # no tie, nothing said


def test_another_folders_suites_are_not_proposed(tmp_path: Path) -> None:
    """Issue 39, round 3: the file a case last went to and the suite Suites showed were
    proposed (the last one first) though they lay in the folder open before."""
    first, second = write_collection(tmp_path / "a"), write_collection(tmp_path / "a-2")
    for folder in (first, second):
        (folder / "suites").mkdir()
        (folder / "suites" / "mine.yaml").write_text("cases: []\n", encoding="utf-8")
    theirs = str(first / "suites" / "mine.yaml")
    mine = str(second / "suites" / "mine.yaml")
    project = project_from_folder(str(second))
    assert suite_choices(project, theirs, theirs) == ([mine], mine)
    fresh = str(second / "suites" / "new.yaml")
    (second / "suites" / "new.yaml").write_text("cases: []\n", encoding="utf-8")
    assert suite_choices(project, theirs, fresh) == ([mine, fresh], fresh)  # its own: kept
    assert suite_choices(project, fresh, None) == ([mine, fresh], fresh)
