"""The suite runner reports what the engine reports, live, for the skills on screen."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.projects.suite_cases import case_notes
from skillstudio.core.projects.suite_scope import suite_project
from skillstudio.core.projects.suites import add_case, load_suite, run_suite
from skillstudio.gui.field_widgets import ListEditor
from skillstudio.gui.main_window import MainWindow
from skillstudio.gui.suite_runner import SuiteRunner


def runner_on(window: MainWindow, suite: Path, qtbot: QtBot) -> SuiteRunner:
    window.suites_dock.show()
    window.suites_dock.raise_()
    runner = window.suite_runner
    qtbot.waitUntil(runner.isVisible)
    assert runner.open_suite(str(suite))
    runner.run_to_end()
    assert runner.report is not None
    return runner


def statuses(runner: SuiteRunner) -> list[str]:
    model = runner.cases_model
    return [model.index(row, 0).data() for row in range(model.rowCount())]


def test_the_projects_suites_are_offered_and_agree_with_the_engine(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    runner = window.suite_runner
    offered = {runner.suite_box.itemData(i) for i in range(runner.suite_box.count())}
    listed = {str(p) for p in samples.glob("*/suites/*.yaml")}
    assert offered == listed, "every suite a skillstudio.yaml lists is in the box"
    for path in sorted(listed):
        runner_on(window, Path(path), qtbot)
        suite = load_suite(path)
        project = project_from_folder(str(Path(path).parent.parent))
        registry = project.registry()
        registry.scan()
        expected = run_suite(suite, registry, project.options)
        report = runner.report
        assert report is not None and runner.project is not None
        assert runner.project.base == project.base
        assert [(r.got, r.passed, r.tier) for r in report.results] == [
            (r.got, r.passed, r.tier) for r in expected.results
        ], path
        assert report.per_skill == expected.per_skill
        assert report.confusion == expected.confusion
        assert statuses(runner) == ["✓ pass"] * len(suite.cases), "the samples' suites pass"
        assert runner.summary.text().startswith(f"{len(suite.cases)} passed, 0 failed")


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


def test_confusion_cell_lists_its_cases(window: MainWindow, samples: Path, qtbot: QtBot) -> None:
    path = samples / "oasis/suites/oasis.yaml"
    add_case(str(path), "tidy up my history", ["commit"])
    runner = runner_on(window, path, qtbot)
    confusion = runner.confusion_model
    cell = confusion.index(confusion.expected.index("commit"), confusion.got.index("none"))
    assert cell.data() == "1"
    runner.confusion.doubleClicked.emit(cell)
    assert runner.tabs.currentWidget() is runner.cases
    assert runner.cases_model.rowCount() == 1 and runner.filter_note.isVisible()
    runner.filter_note.linkActivated.emit("all")
    assert runner.cases_model.rowCount() == len(load_suite(str(path)).cases)


def test_imports_an_eval_set_and_skill_lab_triggers(
    window: MainWindow, samples: Path, qtbot: QtBot, tmp_path: Path
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

    window.suite_runner.ask_skill = ask  # type: ignore[method-assign]
    runner = runner_on(window, evals, qtbot)
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
    runner = runner_on(window, lab, qtbot)
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
    for number, project in enumerate(panel.projects):
        if project.profile.name == "oasis":
            panel.project_box.setCurrentIndex(number)
    offered: list[tuple[list[str], str]] = []

    def answer(query: str, suites: list[str], default: str, proposed: str) -> tuple[str, str]:
        offered.append((suites, default))
        return default, proposed

    panel.ask_case = answer  # type: ignore[method-assign]
    panel.load_request("code review please")
    assert panel.add_test_case() == str(path)
    assert offered[0][1] == str(path)  # the suite the Suites panel shows, by default
    assert str(path) in offered[0][0]
    window.suites_dock.raise_()
    qtbot.waitUntil(lambda: runner.report is not None and len(runner.report.results) == 1)
    assert statuses(runner) == ["✓ pass"]


def test_a_bad_suite_is_reported_not_raised(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    bad = samples / "oasis/suites/bad.yaml"
    bad.write_text("cases:\n  - query: [unclosed\n")
    window.suites_dock.show()
    window.suites_dock.raise_()
    runner = window.suite_runner
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
    window: MainWindow, samples: Path, qtbot: QtBot
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
    runner = runner_on(window, suite, qtbot)
    expected = suite_project(load_suite(str(suite)), cwd=str(nested))
    assert runner.project is not None and runner.project.base == expected.base == str(nested)
    assert statuses(runner) == ["✓ pass"]


def test_opens_waza_trigger_tests_skill_reach_rows_and_negative_cases(
    window: MainWindow, samples: Path, qtbot: QtBot
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
    runner = runner_on(window, waza, qtbot)
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
    runner = runner_on(window, rows, qtbot)
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
    runner = runner_on(window, negative, qtbot)
    assert statuses(runner) == ["✓ pass"]
    assert runner.cases_model.index(0, 2).data() == "not in the top 1: write-tests"


def test_the_note_column_shows_the_suites_comments_and_goes_when_empty(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    """Issue 30 review: the Note column was empty while every case passed, though the
    suites say why a case is there in a comment beside it."""
    runner = runner_on(window, samples / "claude-code/suites/claude-code.yaml", qtbot)
    model = runner.cases_model
    notes = {model.index(r, 1).data(): model.index(r, 5).data() for r in range(model.rowCount())}
    assert notes["/review-kit:security-review"] == "plugin skills are named plugin:skill"
    assert notes["/standup alice"] == "a legacy .claude/commands file"
    assert not runner.cases.isColumnHidden(5)
    tip = model.index(1, 1).data(Qt.ItemDataRole.ToolTipRole)
    assert "Note: plugin skills are named plugin:skill" in tip
    plain = samples / "oasis/suites/plain.yaml"
    plain.write_text('cases:\n  - query: "please review this diff"\n    expect: code-review\n')
    runner_on(window, plain, qtbot)
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
    window: MainWindow, samples: Path, qtbot: QtBot, tmp_path: Path
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
    window.suites_dock.show()
    window.suites_dock.raise_()
    runner = window.suite_runner
    qtbot.waitUntil(runner.isVisible)
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
