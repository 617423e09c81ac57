"""The likely candidates in the app (issue 19): bands and term weights in Try a Request,
"competes with" under the description, the overlap map, "would pick X instead"."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from skillstudio.core.model.skills import Skill
from skillstudio.core.ranking.estimate import LikelyCandidate
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.ranking.likely_ranking import likely
from skillstudio.core.ranking.overlap import overlaps
from skillstudio.gui.competes_line import CompetesLine
from skillstudio.gui.main_window import MainWindow
from skillstudio.gui.theme import colour
from skillstudio.gui.workbench.query_panel import QueryPanel
from tests import hostile

# A small collection where the model chooses; two skills say nearly the same thing.
SKILLS = {
    "pytest-writer": "Writes pytest unit tests for Python functions, with fixtures and "
    "parametrized cases. Use when asked to add or write tests for Python code.",
    "python-test-author": "Writes unit tests for Python functions with pytest, fixtures "
    "and parametrized cases. Use when asked to write tests for Python code.",
    "sql-review": "Reviews SQL queries and migrations for correctness, index use and "
    "locking risks. Use when a change touches database migrations.",
    "release-notes": "Drafts release notes and a changelog from merged pull requests and "
    "commit messages, grouped by feature and fix.",
    "docker-build": "Builds and slims Docker images with multi-stage Dockerfiles, layer "
    "caching and base image choice.",
    "terraform-plan": "Reads a Terraform plan and explains which cloud resources change, "
    "which are replaced and what could break.",
}


def write_collection(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "skillstudio.yaml").write_text(
        "profile: agentskills\nroots: [skills]\n", encoding="utf-8"
    )
    for name, description in SKILLS.items():
        skill = folder / "skills" / name
        skill.mkdir(parents=True)
        (skill / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nSteps.\n"
        )
    return folder


@pytest.fixture
def collection(tmp_path: Path) -> Path:
    return write_collection(tmp_path / "collection")


@pytest.fixture
def app_window(qtbot: QtBot, settings: QSettings, collection: Path) -> MainWindow:
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(collection))
    return win


def ask(panel: QueryPanel, qtbot: QtBot, request: str) -> None:
    """Type a request and wait for the likely candidates (their index lands off-thread)."""
    panel.query.setText(request)
    qtbot.waitUntil(
        lambda: panel.likely is not None and panel.likely.query == request, timeout=10_000
    )


def test_bands_and_term_weights_for_a_profile_where_the_model_chooses(
    app_window: MainWindow, qtbot: QtBot
) -> None:
    panel = app_window.query_panel
    app_window.focus_query_panel()
    request = "review my database migration for locking problems"
    ask(panel, qtbot, request)
    registry = panel.registry
    assert registry is not None
    expected = likely(registry, request)
    model = panel.model
    assert [c.name for c in model.rows] == [c.name for c in expected.candidates]
    first = model.rows[0]
    assert isinstance(first, LikelyCandidate) and first.name == "sql-review"
    assert model.headerData(3, Qt.Orientation.Horizontal) == "Band"
    assert "estimate" in str(model.headerData(2, Qt.Orientation.Horizontal, 3)).lower()
    band = model.index(0, 3)
    assert band.data() == "likely" == first.band
    assert band.data(Qt.ItemDataRole.BackgroundRole) == QColor(colour("band_likely"))
    assert panel.summary.text().startswith("Likely: sql-review (an estimate")
    text = panel.explanation_html()
    assert "sql-review: likely" in text and "an estimate" in text
    assert "<th>term</th><th>field</th><th>weight</th>" in text
    top = first.reasons[0]
    assert top.term == "review"  # in the name and the description (and the body): all said
    assert "<code>review</code></td><td>name, description" in text
    assert f"{top.weight:.2f}" in text
    # a request no skill serves: no likely skill, said in the summary
    ask(panel, qtbot, "what is the weather in Lisbon tomorrow")
    assert all(c.band != "likely" for c in panel.model.rows if isinstance(c, LikelyCandidate))
    assert panel.summary.text().startswith("No skill is likely")
    # explicit invocation keeps its meaning: the invoked skill is selected, first
    panel.query.setText("/docker-build for the api image")
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.selected == ["docker-build"])
    assert panel.model.rows[0].name == "docker-build"


def test_requests_that_would_pick_another_skill_instead(
    app_window: MainWindow, collection: Path, qtbot: QtBot
) -> None:
    panel = app_window.query_panel
    editor = app_window.open_skill(str(collection / "skills/release-notes/SKILL.md"))
    assert editor is not None
    app_window.focus_query_panel()
    panel.for_open.setChecked(True)  # the requests below are meant for release-notes
    ask(panel, qtbot, "write pytest tests for this python function")
    assert panel.advice.text
    text = panel.advice.text
    assert "instead of release-notes" in text
    assert "pytest-writer" in text or "python-test-author" in text
    ask(panel, qtbot, "draft release notes from the merged pull requests")
    assert not panel.advice.text  # the edited skill comes first: nothing instead


def test_competes_with_line_updates_as_the_description_is_typed(
    app_window: MainWindow, collection: Path, qtbot: QtBot
) -> None:
    editor = app_window.open_skill(str(collection / "skills/release-notes/SKILL.md"))
    assert editor is not None
    line = editor.form.findChild(CompetesLine, "competes-with")
    assert line is not None
    qtbot.waitUntil(lambda: "no other skill" in line.text(), timeout=10_000)
    field = editor.form.fields["description"].widget
    assert isinstance(field, QPlainTextEdit)
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "Writes pytest unit tests for Python functions with fixtures")
    qtbot.waitUntil(lambda: "python-test-author" in line.text(), timeout=5000)
    names = [skill.name for skill, _ in line.competitors]
    assert set(names) == {"pytest-writer", "python-test-author"}
    # the scores `skillstudio overlap` gives the pairs, for the text on screen
    registry = editor.document.registry
    expected = {
        (p.b.name if p.a.name == "release-notes" else p.a.name): p.score
        for p in overlaps(registry)
        if "release-notes" in (p.a.name, p.b.name)
    }
    assert {s.name: x for s, x in line.competitors} == pytest.approx(expected, abs=1e-9)
    assert f"({line.competitors[0][1]:.2f})" in line.text()
    assert not editor.document.path.endswith("pytest-writer/SKILL.md")
    # a name is a link that opens that skill
    target = next(s.path for s, _ in line.competitors if s.name == "pytest-writer")
    line.linkActivated.emit(target)
    current = app_window.document_tabs.current_editor()
    assert current is not None and current.document.path == target


def test_overlap_map_lists_the_overlapping_pair_first_and_opens_it(
    app_window: MainWindow, collection: Path, qtbot: QtBot
) -> None:
    view = app_window.overlap_map
    assert not app_window.overlap_dock.isVisible()
    with qtbot.waitSignal(view.computed, timeout=10_000):
        app_window.menu_actions.overlap_action.trigger()  # View > Overlap Map
        app_window.overlap_dock.raise_()
    registry = view.registry
    assert registry is not None
    expected = overlaps(registry)
    assert [(p.a.name, p.b.name) for p in view.pairs] == [(p.a.name, p.b.name) for p in expected]
    model = view.pairs_model
    assert {model.index(0, 1).data(), model.index(0, 2).data()} == SKILLS_PAIR
    assert model.index(0, 3).data() == f"{expected[0].score:.2f}"
    assert "pytest" in model.index(0, 4).data()
    # the matrix: both skills, the cell of the pair, in their cluster's colour
    matrix = view.matrix_model
    names = [name for _path, name in matrix.skills]
    assert set(names) >= SKILLS_PAIR
    row, column = names.index("pytest-writer"), names.index("python-test-author")
    assert matrix.score(row, column) == pytest.approx(expected[0].score)
    assert matrix.index(row, column).data(Qt.ItemDataRole.BackgroundRole) is not None
    # a click on a name opens that skill
    table = view.pairs_view
    cell = model.index(0, 2)
    qtbot.mouseClick(
        table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(cell).center()
    )
    current = app_window.document_tabs.current_editor()
    assert current is not None
    assert current.document.path == model.path_at(0, 2)
    # and the map follows the skills: a third near-duplicate joins the cluster
    copy = collection / "skills/pytest-helper"
    copy.mkdir()
    (copy / "SKILL.md").write_text(
        "---\nname: pytest-helper\ndescription: " + SKILLS["pytest-writer"] + "\n---\n\nSteps.\n",
        encoding="utf-8",
    )
    qtbot.waitUntil(
        lambda: any("pytest-helper" in (p.a.name, p.b.name) for p in view.pairs), timeout=10_000
    )


SKILLS_PAIR = {"pytest-writer", "python-test-author"}


def test_suite_requests_that_would_pick_another_skill(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
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
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(folder))
    panel = win.query_panel
    win.focus_query_panel()
    ask(panel, qtbot, "draft release notes")  # the index has landed
    assert not panel.advice.text
    win.open_skill(str(folder / "skills/release-notes/SKILL.md"))
    found = panel.suite_requests_instead()
    assert [query for query, _ in found] == ["add pytest tests for this python function"]
    assert found[0][1] in SKILLS_PAIR
    assert panel.advice.text
    assert "Suite requests that would pick another skill than release-notes" in (panel.advice.text)


def test_markup_in_a_description_is_shown_as_text(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    folder = write_collection(tmp_path / "marked")
    for name in ("html-markup", "html-markup-copy"):
        target = folder / "skills" / name / "SKILL.md"
        target.parent.mkdir()
        target.write_text(hostile.skill(name, hostile.HTML_DESCRIPTION), encoding="utf-8")
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(folder))
    panel = win.query_panel
    win.focus_query_panel()
    ask(panel, qtbot, "review my pull request for bugs")
    index = next(i for i, c in enumerate(panel.model.rows) if c.name == "html-markup")
    panel.table.selectRow(index)
    text = panel.explanation_html()
    assert "&lt;script&gt;" in text and "<script" not in text and "<img" not in text
    assert "href='https://example.com" not in text
    editor = win.open_skill(str(folder / "skills/html-markup/SKILL.md"))
    assert editor is not None
    line = editor.form.findChild(CompetesLine, "competes-with")
    assert line is not None
    qtbot.waitUntil(lambda: "html-markup-copy" in line.text(), timeout=10_000)
    assert "<script" not in line.text() and "example.com" not in line.text()
    with qtbot.waitSignal(win.overlap_map.computed, timeout=10_000):
        win.menu_actions.overlap_action.trigger()
    pairs = win.overlap_map.pairs_model
    assert {pairs.index(0, 1).data(), pairs.index(0, 2).data()} == {
        "html-markup",
        "html-markup-copy",
    }


def test_the_likely_index_is_built_off_the_gui_thread(
    qtbot: QtBot, settings: QSettings, collection: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built_on: list[threading.Thread] = []
    add_all = LikelyIndex.add_all

    def recording(self: LikelyIndex, skills: Iterable[Skill]) -> None:
        built_on.append(threading.current_thread())
        add_all(self, skills)

    monkeypatch.setattr(LikelyIndex, "add_all", recording)
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(collection))
    panel = win.query_panel
    win.focus_query_panel()
    ask(panel, qtbot, "review my database migration")
    editor = win.open_skill(str(collection / "skills/sql-review/SKILL.md"))
    assert editor is not None
    with qtbot.waitSignal(win.overlap_map.computed, timeout=10_000):
        win.menu_actions.overlap_action.trigger()
    assert len(built_on) == 2  # Try a Request's (shared by "competes with") and the map's
    assert all(thread is not threading.main_thread() for thread in built_on)


def test_why_not_says_where_a_skill_ranks_among_the_likely_candidates(
    app_window: MainWindow, qtbot: QtBot
) -> None:
    panel = app_window.query_panel
    app_window.focus_query_panel()
    ask(panel, qtbot, "review my database migration for locking problems")
    panel.why_box.setCurrentIndex(panel.why_box.findData("release-notes"))
    text = panel.explanation_html()
    assert "Why not release-notes?" in text and "None of the request's distinctive" in text
    ask(panel, qtbot, "write pytest tests for python functions")
    second = panel.model.rows[1].name
    panel.why_box.setCurrentIndex(panel.why_box.findData(second))
    text = panel.explanation_html()
    first = panel.model.rows[0].name
    assert f"Why not {second}?</b> It ranks 2," in text
    assert f"{first} ranks first" in text
    assert "<th>term</th><th>field</th><th>weight</th>" in text  # its own words' weights
