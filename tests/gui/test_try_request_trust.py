"""Try a Request and the form never contradict themselves (issue 30): advice about the
open skill only when asked, the explanation following the answer, "competes with" as
`skillstudio overlap` says, the Suites of the folder open, the "Loads in" line of the
text on screen, the description's fallback said, Add as test case asking where."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QInputDialog, QPlainTextEdit
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.suites import load_suite
from skillstudio.core.ranking.overlap import overlaps
from skillstudio.gui.editor.competes_line import CompetesLine
from skillstudio.gui.panels.suite_runner import NO_SUITE
from skillstudio.gui.window.main_window import MainWindow

from ..test_competes import ART
from .test_likely_app import ask, write_collection


@pytest.fixture(autouse=True)
def no_input_dialog(monkeypatch: pytest.MonkeyPatch) -> None:
    """An input dialog would block an offscreen run: cancelled."""
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("", False))


def opened(qtbot: QtBot, settings: QSettings, folder: Path) -> MainWindow:
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(folder))
    return win


@pytest.fixture
def collection(tmp_path: Path) -> Path:
    return write_collection(tmp_path / "collection")


@pytest.fixture
def app_window(qtbot: QtBot, settings: QSettings, collection: Path) -> MainWindow:
    return opened(qtbot, settings, collection)


def test_advice_about_the_open_skill_only_when_the_request_is_for_it(
    app_window: MainWindow, collection: Path, qtbot: QtBot
) -> None:
    """With release-notes open, a request about Python tests said the model "would pick
    pytest-writer instead of release-notes … make release-notes' description say …",
    as if every request were meant for the open tab; and under "No skill is likely" it
    named a merely possible skill as the one the model would pick."""
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
    ask(panel, qtbot, "check my python code")
    assert panel.summary.text().startswith("No skill is likely")
    text = panel.advice.text
    assert "would" not in text and "instead of" not in text
    assert text.startswith("No skill is likely for this request, release-notes included")
    # Another tab: the toggle goes off again.
    assert app_window.open_skill(str(collection / "skills/sql-review/SKILL.md"))
    assert not panel.for_open.isChecked() and not panel.advice.text


def test_the_explanation_follows_the_best_row_or_the_one_chosen(
    app_window: MainWindow, qtbot: QtBot
) -> None:
    """After a new request the selection stayed on the previous skill (explained as
    "unlikely" under "Likely: …") and the table kept its scroll position."""
    panel = app_window.query_panel
    app_window.focus_query_panel()
    ask(panel, qtbot, "check my python code")
    assert [c.name for c in panel.model.rows[:2]] == ["python-test-author", "pytest-writer"]
    panel.table.selectRow(1)  # the user chooses pytest-writer
    assert "pytest-writer" in panel.explanation_html()
    panel.skills_changed()  # a live re-rank of the same request keeps the user's row
    qtbot.waitUntil(lambda: not panel.timer.isActive(), timeout=5000)
    panel.update_now()
    assert panel.table.currentIndex().row() == 1
    # A new request: its best row, explained; the table at its top.
    panel.table.setMaximumHeight(50)  # too short for every row: it scrolls
    qtbot.waitUntil(lambda: panel.table.verticalScrollBar().maximum() > 0, timeout=3000)
    bar = panel.table.verticalScrollBar()
    bar.setValue(bar.maximum())
    ask(panel, qtbot, "review the tests")
    rows = [c.name for c in panel.model.rows]
    assert rows[0] == "sql-review" and "pytest-writer" in rows
    assert panel.table.currentIndex().row() == 0
    html = panel.explanation_html()
    assert "sql-review: possible" in html and "pytest-writer" not in html
    assert bar.value() == 0


def test_add_as_test_case_asks_where_and_keeps_the_headline(
    app_window: MainWindow, collection: Path, qtbot: QtBot
) -> None:
    """It wrote suites/<profile>.yaml without asking, expected "none" though a skill
    was shown as likely, and replaced the headline with "Added to …"."""
    panel = app_window.query_panel
    (collection / "suites").mkdir()
    mine = collection / "suites/mine.yaml"
    mine.write_text("cases: []\n", encoding="utf-8")
    app_window.focus_query_panel()
    ask(panel, qtbot, "review my database migration for locking problems")
    headline = panel.summary.text()
    assert headline.startswith("Likely: sql-review")
    asked: list[tuple[str, list[str], str, str]] = []

    def answer(query: str, suites: list[str], default: str, proposed: str) -> tuple[str, str]:
        asked.append((query, suites, default, proposed))
        return default, proposed

    panel.ask_case = answer  # type: ignore[method-assign]
    with qtbot.waitSignal(panel.said) as said:
        assert panel.add_test_case() == str(mine)
    query, suites, default, proposed = asked[0]
    assert query == "review my database migration for locking problems"
    assert suites == [str(mine)] and default == str(mine)  # the folder's suite, offered
    assert proposed == "sql-review"  # the skill shown as likely
    assert load_suite(str(mine)).cases[-1].expect == ["sql-review"]
    assert said.args == [f"Added to suites/mine.yaml: {query}"]
    assert panel.summary.text() == headline  # the answer's headline stays
    # A new file the user names: created there.
    other = collection / "suites/more.yaml"
    panel.ask_case = lambda query, suites, default, proposed: (str(other), "none")  # type: ignore[method-assign]
    assert panel.add_test_case() == str(other)
    assert load_suite(str(other)).cases[-1].expect == []


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


def test_competes_with_agrees_with_overlap(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """The form scored against Try a Request's index (bodies' words included), so its
    pairs and scores differed from the Overlap Map's and `skillstudio overlap`'s
    (here: "no other skill" where overlap lists generative-art at 0.34)."""
    folder = tmp_path / "art"
    (folder / "skills").mkdir(parents=True)
    (folder / "skillstudio.yaml").write_text("profile: agentskills\nroots: [skills]\n")
    for name, (description, body) in ART.items():
        (folder / "skills" / name).mkdir()
        (folder / "skills" / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\n{body}\n"
        )
    win = opened(qtbot, settings, folder)
    registry = win.registries[0]
    pairs = overlaps(registry)
    assert pairs, "the two art skills compete"
    for name in ART:
        editor = win.open_skill(str(folder / "skills" / name / "SKILL.md"))
        assert editor is not None
        line = editor.form.findChild(CompetesLine, "competes-with")
        assert line is not None

        def worked_out(line: CompetesLine = line) -> bool:
            return "working" not in line.text()

        qtbot.waitUntil(worked_out, timeout=10_000)
        expected = {
            (p.b.name if p.a.name == name else p.a.name): p.score
            for p in pairs
            if name in (p.a.name, p.b.name)
        }
        got = {s.name: x for s, x in line.competitors}
        assert got == pytest.approx(expected, abs=1e-9), name


def test_loads_in_follows_the_text_on_screen(window: MainWindow, qtbot: QtBot) -> None:
    """The line was worked out from the saved file: it said "Loads in … agentskills"
    above errors on screen, and "rejected by agentskills (description too long)" above
    "0 errors" until the tab changed."""
    path = next(
        p for r in window.registries for p in r.by_path if p.endswith("sql-review/SKILL.md")
    )
    editor = window.open_skill(path)
    assert editor is not None
    where = window.problems.where
    qtbot.waitUntil(lambda: "accepted by" in where.text(), timeout=10_000)
    assert "agentskills" in where.text().split(";")[0]
    field = editor.form.fields["description"].widget
    assert isinstance(field, QPlainTextEdit)
    original = field.toPlainText()
    field.setPlainText("x " * 700)  # 1,400 characters: over the standard's 1,024
    qtbot.waitUntil(
        lambda: "agentskills" in where.text().partition("rejected by")[2], timeout=10_000
    )
    assert "description too long" in where.toolTip()
    assert editor.document.modified  # unsaved text
    assert editor.document.save()  # saved as it is: still rejected
    qtbot.wait(100)
    assert "agentskills" in where.text().partition("rejected by")[2]
    field.setPlainText(original)
    qtbot.waitUntil(
        lambda: "agentskills" in where.text().split(";")[0] and "accepted by" in where.text(),
        timeout=10_000,
    )
    assert editor.document.save()
    qtbot.wait(100)
    assert "agentskills" in where.text().split(";")[0]


def test_a_description_left_out_under_claude_code_says_what_claude_reads(
    window: MainWindow, qtbot: QtBot
) -> None:
    """Deleting the description under claude-code said nothing, though Claude Code then
    reads the body's first paragraph (and nothing at all when that is missing too)."""
    path = next(
        p
        for r in window.registries
        for p in r.by_path
        if r.profile.name == "claude-code" and p.endswith("commit-message/SKILL.md")
    )
    editor = window.open_skill(path)
    assert editor is not None
    field = editor.form.fields["description"].widget
    assert isinstance(field, QPlainTextEdit)
    field.setPlainText("")
    qtbot.waitUntil(
        lambda: any(
            d.code == "field-missing" and "first paragraph" in d.message
            for d in editor.document.diagnostics
        ),
        timeout=10_000,
    )
    found = next(d for d in editor.document.diagnostics if d.code == "field-missing")
    assert found.severity == "info" and "uses the body's first paragraph" in found.message
    message = editor.form.fields["description"].note.text()
    assert "first paragraph" in message


@pytest.mark.parametrize("size", [(1024, 768), (1366, 768)])
def test_a_short_dock_shows_rows_and_lines_and_the_advice_moves_nothing(
    app_window: MainWindow, collection: Path, qtbot: QtBot, size: tuple[int, int]
) -> None:
    """At 1024x768 and 1366x768 the panel stacked in its dock of about 190 px: 2 ranking
    rows and 3 lines of explanation, the rest under a scroll bar; the "would pick" line
    pushed the tabs down under the pointer. Then the first-run docks became a quarter
    of the height (for the editor's 60 %): a 60 px ranking, 1.5 lines. The first answer
    now grows the dock (once, on first-run sizes), the editor keeping over half."""
    app_window.resize(*size)
    app_window.size_docks()  # the first-run dock sizes, for this window size
    assert app_window.open_skill(str(collection / "skills/terraform-plan/SKILL.md"))
    panel = app_window.query_panel
    app_window.focus_query_panel()
    ask(panel, qtbot, "write pytest tests, review sql migrations, build docker images, notes")
    qtbot.wait(50)
    area = panel.parentWidget()
    assert area is not None
    assert panel.height() <= area.height() + 1  # no scrolling of the whole panel
    assert app_window.query_dock.height() >= 230  # not held to the first-run quarter
    assert app_window.centre.height() >= 0.55 * size[1]  # the editor keeps the most
    table = panel.table
    assert panel.model.rowCount() >= 5
    assert table.viewport().height() >= 4 * table.rowHeight(0)  # 4 rows and more
    lines = panel.explanation.viewport().height() / panel.explanation.fontMetrics().lineSpacing()
    assert lines >= 4
    for number in range(panel.details.count()):  # every detail tab opens, with room
        if panel.details.isTabVisible(number):
            panel.details.setCurrentIndex(number)
            page = panel.details.currentWidget()
            assert page.isVisible() and page.height() >= 90, panel.details.tabText(number)
    panel.details.setCurrentIndex(0)
    tabs_at = panel.details.mapTo(panel, panel.details.rect().topLeft())
    panel.for_open.setChecked(True)
    qtbot.wait(20)
    assert "instead of terraform-plan" in panel.explanation.toPlainText()
    assert panel.details.mapTo(panel, panel.details.rect().topLeft()) == tabs_at
    # Another request: the dock grew once; the user's own height stays.
    app_window.resizeDocks([app_window.query_dock], [200], Qt.Orientation.Vertical)
    qtbot.wait(20)
    height = app_window.query_dock.height()
    ask(panel, qtbot, "build docker images")
    qtbot.wait(20)
    assert app_window.query_dock.height() == height


def test_loads_in_runs_one_job_at_a_time_the_newest_last(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each edit asks for the line again; on a skill that takes seconds to validate
    (issue 25's 100,000 links) a job per keystroke would fill the thread pool."""
    import threading
    import time

    from skillstudio.gui.panels import problems_panel

    running, most, calls = [0], [0], [0]
    lock = threading.Lock()
    real = problems_panel.portability

    def slow(skill: object) -> object:
        with lock:
            running[0] += 1
            calls[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(1.0)
        with lock:
            running[0] -= 1
        return real(skill)  # type: ignore[arg-type]

    monkeypatch.setattr(problems_panel, "portability", slow)
    path = next(
        p for r in window.registries for p in r.by_path if p.endswith("sql-review/SKILL.md")
    )
    editor = window.open_skill(path)
    assert editor is not None
    where = window.problems.where
    field = editor.form.fields["description"].widget
    assert isinstance(field, QPlainTextEdit)
    for n in range(6):
        field.setPlainText("x " * (600 + n * 20))  # each over the standard's 1,024
        qtbot.wait(350)
    qtbot.waitUntil(
        lambda: "agentskills" in where.text().partition("rejected by")[2], timeout=10_000
    )
    qtbot.waitUntil(lambda: running[0] == 0, timeout=10_000)
    qtbot.wait(300)  # nothing left waiting
    assert most[0] == 1
    assert calls[0] < 6  # the edits made meanwhile were worked out once, the newest
