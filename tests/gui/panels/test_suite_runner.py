"""Tests of gui/panels/suite_runner.py (The suite runner: a suite's cases run against the
skills on screen, as they change)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QScrollArea,
    QStyle,
    QStyleOptionButton,
    QWidget,
)
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.open_project import OpenProject
from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.projects.suite_cases import case_notes
from skillstudio.core.projects.suite_leaks import suite_leaks
from skillstudio.core.projects.suite_scope import suite_project
from skillstudio.core.projects.suite_writing import add_case
from skillstudio.core.projects.suites import load_suite, run_suite
from skillstudio.core.ranking.leaks import LeakCheck
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.gui.editor.field_widgets import ListEditor
from skillstudio.gui.infra.theme import colour, set_preference
from skillstudio.gui.panels import suite_slices
from skillstudio.gui.panels.suite_runner import NO_SUITE, SuiteRunner
from skillstudio.gui.panels.workbench.add_case import CaseAnswer, CaseQuestion
from skillstudio.gui.window.main_window import MainWindow

from ..parts import (
    contrast,
    open_window,
    ran_suite,
    runner_on,
    within_dock,
    write_collection,
)


def indicator_edge_contrast(box: QWidget) -> float:
    """The contrast of a check box's indicator edge with the window behind it."""
    option = QStyleOptionButton()
    option.initFrom(box)
    rect = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    image = box.grab().toImage()
    window = box.palette().color(QPalette.ColorRole.Window)
    y = rect.center().y()
    return max(
        contrast(image.pixelColor(x, y), window) for x in range(rect.left(), rect.left() + 3)
    )


def statuses(runner: SuiteRunner) -> list[str]:
    model = runner.cases_model
    return [model.index(row, 0).data() for row in range(model.rowCount())]


# -- 3. the Suites dock ---------------------------------------------------------------------
def test_suites_dock_speaks_plainly_and_lines_up_its_tiers(
    suite_runner: SuiteRunner, samples: Path, qtbot: QtBot
) -> None:
    suite = samples / "oasis" / "suites" / "oasis.yaml"
    add_case(str(suite), "tidy up my history", ["commit"])  # fails, with a note
    runner = ran_suite(suite_runner, suite)
    tabs = runner.tabs
    titles = [tabs.tabText(n) for n in range(tabs.count())]
    assert titles == ["Cases", "Per skill: hits and misses", "Which skill won instead"]
    assert all(tabs.tabToolTip(n) for n in range(tabs.count()))
    assert "precision" in tabs.tabToolTip(1) and "Double-click" in tabs.tabToolTip(2)
    caption = runner.confusion_caption.text()  # the table's rows and columns, said
    assert caption.startswith("Rows: the skill a case expected. Columns: the skill picked")
    assert runner.failures_box.isVisibleTo(runner)  # beside the tabs, off the crowded top row
    skills = runner.skills_model
    headers = [skills.headerData(c, Qt.Orientation.Horizontal) for c in range(6)]
    assert not {"TP", "FP", "FN"} & set(headers)
    for column in range(1, 6):
        assert skills.headerData(column, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    # The Tier column: "3 (want 3)" and "3" start at one x, so the tiers line up.
    model = runner.cases_model
    tiers = [model.index(row, 4) for row in range(model.rowCount())]
    assert {model.data(i) for i in tiers} >= {"3", "3 (want 3)"}
    for index in tiers:
        align = model.data(index, Qt.ItemDataRole.TextAlignmentRole)
        assert align is None or not int(align) & int(Qt.AlignmentFlag.AlignRight)
    # The note is never cut without a way to read it: its text is in the row's tooltip.
    noted = [row for row in range(model.rowCount()) if model.data(model.index(row, 5))]
    assert noted
    for row in noted:
        note = model.data(model.index(row, 5))
        assert note in model.data(model.index(row, 5), Qt.ItemDataRole.ToolTipRole)


def test_suites_check_boxes_show_in_the_dark_palette(
    suite_runner: SuiteRunner, samples: Path, qtbot: QtBot, dark: QApplication
) -> None:
    """On main Fusion drew the unchecked box as a dark square on the dark window
    (its edge 1.1:1 against the window)."""
    runner = ran_suite(suite_runner, samples / "oasis" / "suites" / "oasis.yaml")
    runner.failures_box.setChecked(False)
    for box in (runner.failures_box, runner.auto_box):
        assert indicator_edge_contrast(box) >= 3


def test_a_failing_suite_case_stops_the_run_with_a_message(
    suite_runner: SuiteRunner, samples: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = suite_slices.run_case
    calls: list[int] = []

    def second_fails(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("injected failure in a case")
        return original(*args, **kwargs)

    monkeypatch.setattr(suite_slices, "run_case", second_fails)
    runner = suite_runner
    assert runner.open_suite(str(samples / "oasis/suites/oasis.yaml"))
    runner.run_to_end()  # no exception out of the runner's steps
    assert runner.summary.text().startswith("The run stopped at case 2: RuntimeError")
    monkeypatch.setattr(suite_slices, "run_case", original)
    assert runner.run(force=True)
    assert runner.run_to_end() is not None


def test_suites_keep_to_their_dock_after_the_theme_changes(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """After Settings › Theme › Dark the suite box asked for its whole name as its
    minimum: "Re-run on cha…", "Failures…" and the Note column were cut at 1024x768."""
    suites = samples / "claude-code" / "suites"
    long_name = suites / "claude-code-regressions-of-the-review-kit-plugin.yaml"
    long_name.write_text((suites / "claude-code.yaml").read_text(encoding="utf-8"))
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    win = open_window(qtbot, settings, samples)
    win.resize(1024, 768)
    win.size_docks()
    win.suites_dock.show()
    win.suites_dock.raise_()
    runner = win.suite_runner
    assert runner.open_suite(str(long_name))
    qtbot.waitUntil(lambda: runner.report is not None, timeout=10_000)
    try:
        set_preference(app, "dark")
        qtbot.wait(50)
        within_dock(runner)
        box = runner.suite_box
        assert box.toolTip() == str(long_name)  # the whole path, where the name is cut
    finally:
        set_preference(app, "light")


def test_suites_open_starts_at_the_suite_shown(
    suite_runner: SuiteRunner, samples: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With codex/suites/codex.yaml shown, Open… started in the first project's folder
    (skills/agentskills)."""
    asked: list[str] = []

    def ask(_parent: object, _title: str, start: str, *_a: object) -> tuple[str, str]:
        asked.append(start)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", ask)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", ask)
    runner = suite_runner
    runner.clear()
    runner.open_button.click()  # no suite: the project worked on (or the first)
    assert asked[-1] in {p.base for p in runner.projects}
    suite = samples / "codex" / "suites" / "codex.yaml"
    assert runner.open_suite(str(suite))
    runner.open_button.click()
    assert os.path.realpath(asked[-1]) == os.path.realpath(suite.parent)
    runner.new_button.click()
    assert os.path.realpath(os.path.dirname(asked[-1])) == os.path.realpath(suite.parent)


def test_the_projects_suites_are_offered_and_agree_with_the_engine(
    suite_runner: SuiteRunner, samples: Path, qtbot: QtBot
) -> None:
    runner = suite_runner
    offered = {runner.suite_box.itemData(i) for i in range(runner.suite_box.count())}
    listed = {str(p) for p in samples.glob("*/suites/*.yaml")}
    assert offered == listed, "every suite a skillstudio.yaml lists is in the box"
    for path in sorted(listed):
        ran_suite(suite_runner, Path(path))
        suite = load_suite(path)
        project = project_from_folder(str(Path(path).parent.parent))
        registry = project.registry()
        registry.scan()
        # as `skillstudio test` runs it: with the open project's indexes (its likely one
        # reads the listing as the agent shows it, the agent's own skills among it)
        opened = OpenProject(project, registry)
        index, likely = opened.match_index(), opened.likely_index()
        expected = run_suite(suite, registry, project.options, index, likely)
        report = runner.report
        assert report is not None and runner.project is not None
        assert runner.project.base == project.base
        assert [(r.got, r.passed, r.tier) for r in report.results] == [
            (r.got, r.passed, r.tier) for r in expected.results
        ], path
        assert report.per_skill == expected.per_skill
        assert report.confusion == expected.confusion
        wanted = ["· eval" if c.mode == "model" else "✓ pass" for c in suite.cases]
        assert statuses(runner) == wanted, "the samples' suites pass (expect_model: eval's)"
        model = wanted.count("· eval")
        judged = f"{len(suite.cases) - model} passed, 0 failed"
        assert runner.summary.text().startswith(
            judged + (f", {model} for eval (expect_model) · " if model else " · ")
        )


def test_a_failing_case_is_reported_and_opens_in_the_panel(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    path = samples / "oasis/suites/oasis.yaml"
    add_case(str(path), "tidy up my history", ["commit"])  # nothing triggers on this
    runner = runner_on(window, path, qtbot)
    report = runner.report
    assert report is not None and report.failed == 1
    assert runner.summary.text().startswith(f"{report.passed} passed, 1 failed")
    assert statuses(runner).count("✗ FAIL") == 1
    runner.failures_box.setChecked(True)
    model = runner.cases_model
    assert model.rowCount() == 1
    row = [model.index(0, c).data() for c in range(model.columnCount())]
    assert row[1:4] == ["tidy up my history", "commit", "none"]
    assert runner.skills_model.rows and dict(runner.skills_model.rows)["commit"]["fn"] == 1
    confusion = runner.confusion_model
    assert confusion.counts["commit"]["none"] == 1
    assert not confusion.agrees("commit", "none") and confusion.agrees("not commit", "none")
    runner.cases.doubleClicked.emit(model.index(0, 1))
    panel = window.query_panel
    assert panel.query.text() == "tidy up my history"
    assert panel.project is runner.project
    assert window.query_dock.isVisible()


def test_an_unsaved_trigger_edit_reruns_the_suite(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    path = samples / "oasis/suites/oasis.yaml"
    add_case(str(path), "tidy up my history", ["commit"])
    runner = runner_on(window, path, qtbot)
    assert runner.report is not None and runner.report.failed == 1
    editor = window.open_skill(str(samples / "oasis/key_skills/commit/SKILL.md"))
    assert editor is not None
    window.suites_dock.raise_()
    triggers = editor.form.fields["triggers"].widget
    assert isinstance(triggers, ListEditor)
    with qtbot.waitSignal(runner.finished, timeout=5000):
        triggers.add_item("tidy up my history")
    qtbot.waitUntil(lambda: runner.report is not None and runner.report.failed == 0)
    assert editor.document.modified, "the suite ran against the text on screen"
    # and says so: `skillstudio test` reads the file, which still fails the case
    assert runner.summary.text().startswith(
        f"{runner.report.passed} passed, 0 failed with 1 unsaved skill · "
    )
    with qtbot.waitSignal(runner.finished, timeout=5000):
        assert window.document_tabs.save_current()
    assert "unsaved" not in runner.summary.text() and "0 failed" in runner.summary.text()


def test_confusion_cell_lists_its_cases(
    suite_runner: SuiteRunner, samples: Path, qtbot: QtBot
) -> None:
    path = samples / "oasis/suites/oasis.yaml"
    add_case(str(path), "tidy up my history", ["commit"])
    runner = ran_suite(suite_runner, path)
    confusion = runner.confusion_model
    cell = confusion.index(confusion.expected.index("commit"), confusion.got.index("none"))
    assert cell.data() == "1"
    runner.confusion.doubleClicked.emit(cell)
    assert runner.tabs.currentWidget() is runner.cases
    assert runner.cases_model.rowCount() == 1 and runner.filter_note.isVisible()
    runner.filter_note.linkActivated.emit("all")
    assert runner.cases_model.rowCount() == len(load_suite(str(path)).cases)


def test_imports_an_eval_set_and_skill_lab_triggers(
    suite_runner: SuiteRunner, samples: Path, qtbot: QtBot, tmp_path: Path
) -> None:
    evals = samples / "oasis/evals/eval_set.json"
    evals.parent.mkdir()
    evals.write_text(
        json.dumps(
            [
                {"query": "please review this diff", "should_trigger": True},
                {"query": "what is the weather", "should_trigger": False},
                {"query": "commit my changes", "should_trigger": True},  # fails: not review
            ]
        )
    )
    asked: list[list[str]] = []

    def ask(path: str, names: list[str]) -> str:
        asked.append(names)
        return "code-review"

    suite_runner.ask_skill = ask  # type: ignore[method-assign]
    runner = ran_suite(suite_runner, evals)
    assert asked and "code-review" in asked[0], "the eval set names no skill: asked once"
    assert runner.suite is not None and runner.suite.kind == "eval_set"
    assert runner.project is not None and runner.project.profile.name == "oasis"
    assert statuses(runner) == ["✓ pass", "✓ pass", "✗ FAIL"]
    assert runner.cases_model.index(1, 2).data() == "not code-review"

    lab = samples / "oasis/triggers.yaml"
    lab.write_text(
        "skill: commit\ntest_cases:\n"
        "  - prompt: commit my changes with a good message\n    expected: trigger\n"
        "  - prompt: review this diff\n    expected: no_trigger\n"
    )
    runner = ran_suite(suite_runner, lab)
    assert runner.suite is not None and runner.suite.kind == "skill_lab"
    assert statuses(runner) == ["✓ pass", "✓ pass"]
    assert len(asked) == 1


def test_new_suite_then_add_a_case_from_the_panel(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    path = samples / "oasis/suites/more.yaml"
    runner = window.suite_runner
    window.suites_dock.show()
    window.suites_dock.raise_()
    runner.ask_new_path = lambda: str(path)  # type: ignore[method-assign]
    runner.new_button.click()
    assert path.exists() and load_suite(str(path)).cases == []
    assert runner.suite is not None and runner.suite.path == str(path)
    runner.new_button.click()  # an existing file is never replaced
    assert "already exists" in runner.summary.text()
    runner.run_to_end()
    panel = window.query_panel
    for number, project in enumerate(panel.context.projects):
        if project.profile.name == "oasis":
            panel.project_box.setCurrentIndex(number)
    offered: list[tuple[list[str], str]] = []

    def answer(question: CaseQuestion) -> CaseAnswer:
        offered.append((question.suites, question.default))
        return CaseAnswer(question.default, question.proposed, question.key)

    panel.ask_case = answer  # type: ignore[method-assign]
    panel.load_request("code review please")
    assert panel.add_test_case() == str(path)
    assert offered[0][1] == str(path)  # the suite the Suites panel shows, by default
    assert str(path) in offered[0][0]
    window.suites_dock.raise_()
    qtbot.waitUntil(lambda: runner.report is not None and len(runner.report.results) == 1)
    assert statuses(runner) == ["✓ pass"]


def test_a_bad_suite_is_reported_not_raised(
    suite_runner: SuiteRunner, samples: Path, qtbot: QtBot
) -> None:
    bad = samples / "oasis/suites/bad.yaml"
    bad.write_text("cases:\n  - query: [unclosed\n")
    runner = suite_runner
    assert not runner.open_suite(str(bad))
    assert "not valid YAML" in runner.summary.text() and "bad.yaml:" in runner.summary.text()
    assert runner.cases_model.rowCount() == 0


def test_a_hidden_runner_waits_until_shown(window: MainWindow, samples: Path, qtbot: QtBot) -> None:
    path = samples / "oasis/suites/oasis.yaml"
    runner = runner_on(window, path, qtbot)
    window.suites_dock.hide()
    add_case(str(path), "tidy up my history", ["commit"])
    runner.suite_changed(str(path))
    qtbot.wait(50)
    assert not runner.running and runner.report is not None and runner.report.failed == 0
    window.suites_dock.show()
    with qtbot.waitSignal(runner.finished, timeout=5000):
        window.suites_dock.raise_()
    assert runner.report is not None and runner.report.failed == 1


def test_a_suite_runs_against_the_project_the_cli_chooses(
    suite_runner: SuiteRunner, samples: Path, qtbot: QtBot
) -> None:
    """A suite inside an open project's folder but under a project of its own (a
    skillstudio.yaml nearer to it) runs against that project, as `skillstudio test`
    does; the app used to take the open project around it."""
    nested = samples / "oasis/nested"
    (nested / "toys/kite").mkdir(parents=True)
    (nested / "skillstudio.yaml").write_text("profile: pegasus\nroots: [toys]\n")
    (nested / "toys/kite/SKILL.md").write_text(
        "---\nname: kite\ndescription: Flies a kite on windy days.\n---\n\nHold on.\n"
    )
    suite = nested / "kite.yaml"
    suite.write_text('cases:\n  - query: "/kite"\n    expect: kite\n')
    runner = ran_suite(suite_runner, suite)
    expected = suite_project(load_suite(str(suite)), cwd=str(nested))
    assert runner.project is not None and runner.project.base == expected.base == str(nested)
    assert statuses(runner) == ["✓ pass"]


def test_opens_waza_trigger_tests_skill_reach_rows_and_negative_cases(
    suite_runner: SuiteRunner, samples: Path, qtbot: QtBot
) -> None:
    """Issue 28: the panel opens the new formats as the CLI reads them; a waza medium
    prompt counts half in the per-skill table; skill-reach neutral skills and
    `expect_not` read in the Expected column."""
    waza = samples / "oasis/evals/trigger_tests.yaml"
    waza.parent.mkdir()
    waza.write_text(
        "skill: commit\nshould_trigger_prompts:\n"
        "  - prompt: commit my changes with a good message\n    confidence: medium\n"
        "  - prompt: commit this\n"
        "  - prompt: tidy up my history\n    confidence: medium\n"  # fails: no trigger
        "should_not_trigger_prompts:\n  - prompt: review this diff\n"
    )
    runner = ran_suite(suite_runner, waza)
    assert runner.suite is not None and runner.suite.kind == "waza"
    assert statuses(runner) == ["✓ pass", "✓ pass", "✗ FAIL", "✓ pass"]
    skills = runner.skills_model
    row = [name for name, _stats in skills.rows].index("commit")
    assert [skills.index(row, c).data() for c in (3, 5)] == ["1.5", "0.5"]
    assert "waza trigger tests" in runner.summary.text()

    rows = samples / "oasis/queries.csv"
    rows.write_text(
        "id,text,kind,expected_skill,acceptable_skills\n"
        "r-1,please review this diff,implicit,code-review,\n"
        "r-2,commit this,out_of_scope,,commit\n"
    )
    runner = ran_suite(suite_runner, rows)
    assert runner.suite is not None and runner.suite.kind == "skill_reach"
    assert statuses(runner) == ["✓ pass", "✓ pass"]
    model = runner.cases_model
    assert [model.index(1, c).data() for c in (1, 2, 3)] == [
        "r-2: commit this",
        "none (neutral: commit)",
        "commit",
    ]

    negative = samples / "oasis/suites/negative.yaml"
    negative.write_text(
        'cases:\n  - query: "please review this diff"\n    expect_not: [write-tests]\n'
        "    not_in_top: 1\n"
    )
    runner = ran_suite(suite_runner, negative)
    assert statuses(runner) == ["✓ pass"]
    assert runner.cases_model.index(0, 2).data() == "not in the top 1: write-tests"


def test_the_note_column_shows_the_suites_comments_and_goes_when_empty(
    suite_runner: SuiteRunner, samples: Path, qtbot: QtBot
) -> None:
    """Issue 30 review: the Note column was empty while every case passed, though the
    suites say why a case is there in a comment beside it."""
    runner = ran_suite(suite_runner, samples / "claude-code/suites/claude-code.yaml")
    model = runner.cases_model
    notes = {model.index(r, 1).data(): model.index(r, 5).data() for r in range(model.rowCount())}
    assert notes["/review-kit:security-review"] == "plugin skills are named plugin:skill"
    assert notes["/standup alice"] == "a legacy .claude/commands file"
    assert not runner.cases.isColumnHidden(5)
    tip = model.index(1, 1).data(Qt.ItemDataRole.ToolTipRole)
    assert "Note: plugin skills are named plugin:skill" in tip
    plain = samples / "oasis/suites/plain.yaml"
    plain.write_text('cases:\n  - query: "please review this diff"\n    expect: code-review\n')
    ran_suite(suite_runner, plain)
    assert statuses(runner) == ["✓ pass"] and runner.cases.isColumnHidden(5), "no empty column"


def test_a_case_note_is_the_comment_beside_it_not_a_hash_in_its_text() -> None:
    lines = [
        "cases:",
        '  - query: "fix issue #12"   # a hash in the request',
        "    expect: none",
        "    # under the case: its note too",
        "  # above the next case: not this one's",
        "  - query: 'it''s # here'",
        "    expect: none",
    ]
    assert case_notes(lines, [2, 6]) == ["a hash in the request under the case: its note too", ""]


def test_a_suite_or_its_roots_outside_the_project_are_not_read(
    suite_runner: SuiteRunner, samples: Path, qtbot: QtBot, tmp_path: Path
) -> None:
    """Issue 34 item 4: the Suites panel reads a suite, and scans its roots, only inside
    the repository it belongs to (core/projects/suite_home.py), as `skillstudio test`
    does: a suite that is a link out of the project, or whose `roots:` lie outside it,
    is an error that says where, and nothing out there is read or run."""
    secret = "db.internal:5432:prod:admin:hunter2"
    outside = tmp_path / "outside"
    (outside / "skills/stolen").mkdir(parents=True)
    (outside / "skills/stolen/SKILL.md").write_text(
        f"---\nname: stolen\ndescription: {secret}\n---\n\nBody.\n"
    )
    (outside / "suite.yaml").write_text(f'cases:\n  - query: "{secret}"\n    expect: none\n')
    link = samples / "oasis/suites/link.yaml"
    link.symlink_to(outside / "suite.yaml")
    runner = suite_runner
    assert not runner.open_suite(str(link))
    assert "outside" in runner.summary.text() and secret not in runner.summary.text()
    assert runner.cases_model.rowCount() == 0
    far = samples / "oasis/suites/far.yaml"
    far.write_text(
        f"roots: [{outside / 'skills'}]\n" + 'cases:\n  - query: "x"\n    expect: none\n'
    )
    runner.open_suite(str(far))
    runner.run_to_end()
    assert "far.yaml:1:9: the suite's 'roots' names" in runner.summary.text()
    assert runner.project is None or all(
        "outside" not in root.path for root in runner.project.roots
    )


def test_the_suites_panel_shows_the_open_folders_suites(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    """After another folder was opened, the Suites panel still offered the samples'
    suites and their "3 passed … on agentskills"."""
    runner = window.suite_runner
    assert runner.suite_box.count() > 0  # the samples list their suites
    other = write_collection(tmp_path / "other")
    (other / "suites").mkdir()
    suite = other / "suites/own.yaml"
    suite.write_text("cases:\n  - query: draft release notes\n    expect: [release-notes]\n")
    (other / "skillstudio.yaml").write_text(
        "profile: agentskills\nroots: [skills]\nsuites: [suites/own.yaml]\n", encoding="utf-8"
    )
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(other))
    paths = [runner.suite_box.itemData(i) for i in range(runner.suite_box.count())]
    assert paths == [str(suite)]
    window.suites_dock.show()
    window.suites_dock.raise_()
    qtbot.waitUntil(lambda: runner.report is not None, timeout=10_000)
    assert "on other" in runner.summary.text()
    # A folder without suites: none, and the panel says how to start one.
    empty = write_collection(tmp_path / "bare")
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(empty))
    assert runner.suite_box.count() == 0 and runner.summary.text() == NO_SUITE
    assert runner.cases_model.rowCount() == 0


def test_estimate_cases_rank_against_one_likely_index_not_one_a_case(
    suite_runner: SuiteRunner, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A suite of estimate cases (`expect_likely`, `expect_not`) costs what as many
    `match` requests do: they rank against the open project's likely index, built
    once, never one a case (at 10,000 skills building one takes about a second);
    the results are the command line's."""
    suite = samples / "claude-code" / "suites" / "likely.yaml"
    queries = ["commit my staged changes", "write the standup notes", "review my pull request"]
    cases = "".join(f'  - query: "{q}"\n    expect_not: [no-such-skill]\n' for q in queries)
    cases += '  - query: "commit these changes"\n    expect_likely: commit-message\n'
    suite.write_text("cases:\n" + cases, encoding="utf-8")
    built: list[int] = []
    real_init = LikelyIndex.__init__

    def counting(self: LikelyIndex, *args: Any, **kwargs: Any) -> None:
        built.append(1)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(LikelyIndex, "__init__", counting)
    ran_suite(suite_runner, suite)
    report = suite_runner.report
    assert report is not None and len(report.results) == 4
    assert len(built) <= 1, f"{len(built)} likely indexes built for one run"
    ran_suite(suite_runner, suite)
    assert len(built) <= 1, "a second run reuses the open project's index"
    project = project_from_folder(str(samples / "claude-code"))
    registry = project.registry()
    registry.scan()
    # as `skillstudio test` runs it: the open project's indexes (the listing's view, the
    # agent's own skills among the competitors)
    opened = OpenProject(project, registry)
    expected = run_suite(
        load_suite(str(suite)), registry, project.options, likely_index=opened.likely_index()
    )
    report = suite_runner.report
    assert report is not None
    assert [(r.got, r.passed) for r in report.results] == [
        (r.got, r.passed) for r in expected.results
    ]


# -- leaking cases: marked as `skillstudio test --leaks` lists them -----------------------------
def test_leaking_cases_are_marked_with_why_as_test_leaks_lists_them(
    suite_runner: SuiteRunner, samples: Path, qtbot: QtBot
) -> None:
    """A case whose request names its skill passed like any other: nothing said that
    it tests nothing about triggering (`test --leaks` listed 3 of oasis's 8)."""
    suite = samples / "oasis/suites/oasis.yaml"
    runner = ran_suite(suite_runner, suite)
    qtbot.waitUntil(lambda: runner.leaks is not None, timeout=10_000)
    loaded = load_suite(str(suite))
    assert runner.project is not None and runner.registry is not None
    check = LeakCheck(runner.registry.active.values())
    expected = {found.case.line: found.leak.reason for found in suite_leaks(loaded, check)}
    assert len(expected) == 3  # what `skillstudio test --leaks` says of this suite
    model = runner.cases_model
    marked: dict[int, str] = {}
    for row in range(model.rowCount()):
        case = model.case_at(row)
        assert case is not None
        tip = model.index(row, 1).data(Qt.ItemDataRole.ToolTipRole)
        mark = model.index(row, 1).data(Qt.ItemDataRole.DecorationRole)
        assert (mark is not None) == tip.startswith("⚠ Leaks: this request ")
        if mark is not None:
            assert "measures less than it seems" in tip
            marked[case.line] = tip
    assert sorted(marked) == sorted(expected)
    for line, reason in expected.items():
        assert reason in marked[line]  # why: the skill and the words it names
    assert "names the skill code-review ('code review')" in marked[14]
    assert "⚠ 3 leaking cases" in runner.summary.text()
    assert runner.summary.text().startswith(f"{runner.report.passed} passed")  # type: ignore[union-attr]
    # run again with nothing changed: the marks stay, nothing is worked out again
    known = runner.leaks
    assert runner.run(force=True)
    runner.run_to_end()
    assert runner.leaks is known and not runner.leak_job.busy
    assert "⚠ 3 leaking cases" in runner.summary.text()
    # a suite whose requests leak nothing: no mark, nothing said
    ran_suite(runner, samples / "mvp/suites/mvp.yaml")
    qtbot.waitUntil(lambda: runner.leaks is not None, timeout=10_000)
    assert runner.leaks == {} and "leaking" not in runner.summary.text()
    rows = range(runner.cases_model.rowCount())
    assert all(model.index(r, 1).data(Qt.ItemDataRole.DecorationRole) is None for r in rows)


def test_the_verdict_takes_the_new_theme_at_once(
    suite_runner: SuiteRunner, samples: Path, switch_theme: Callable[[str], None]
) -> None:
    """Its green (or red bar) stayed the light theme's on a dark panel until the next run."""
    runner = ran_suite(suite_runner, samples / "oasis/suites/oasis.yaml")
    tone = "string" if runner.report is not None and runner.report.failed == 0 else "error_bg"
    assert colour(tone, dark=False) in runner.summary.styleSheet()
    switch_theme("dark")
    assert colour(tone, dark=True) in runner.summary.styleSheet()


def test_the_suites_panel_fits_its_dock_on_a_768_pixel_screen(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """The first window on a 1024x768 screen is 984x708: Suites showed a scroll bar
    beside its own table (its two-line verdict asked for height-for-width, and the
    dock's scroll area gave the panel that whole height); it fits now."""
    win = open_window(qtbot, settings, samples / "claude-code", size=(984, 708))
    win.suites_dock.show()
    win.suites_dock.raise_()
    qtbot.waitUntil(lambda: win.suite_runner.report is not None, timeout=10_000)
    qtbot.wait(100)
    area = win.suites_dock.widget()
    assert isinstance(area, QScrollArea)
    assert win.suite_runner.summary.text().count("·") >= 2  # the verdict, on two lines
    assert area.verticalScrollBar().maximum() == 0
    assert win.suite_runner.height() <= area.viewport().height()
