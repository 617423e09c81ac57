"""Tests of gui/window/main_window.py (MainWindow: lays out the skill tree, the editor
tabs and the panels, and wires the controllers that do the work (threads.py says which
thread each part runs on))."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtGui import QStatusTipEvent
from PySide6.QtWidgets import (
    QApplication,
    QMessageBox,
)
from pytestqt.qtbot import QtBot

from skillstudio.core.ranking.matching import match
from skillstudio.core.reading.skill_files import skill_body
from skillstudio.gui.editor.skill_editor import SkillEditor
from skillstudio.gui.models.skill_tree_model import KIND_ROLE
from skillstudio.gui.window import folder_switch as folder_switch_module
from skillstudio.gui.window import main_window
from skillstudio.gui.window.main_window import MainWindow

from ...helpers import lint_json
from ...test_listing_budget import CODE as BUDGET
from ...test_listing_budget import make_set
from ...test_manifest_strings import make_case
from ...test_toy_profile import toy_project  # noqa: F401 - the fixture, registered here
from ..faults import shown
from ..parts import (
    all_rows,
    big_folder_and_window,
    fresh_window,
    open_and_wait,
    open_first,
    open_window,
    three_skills,
)

SKILL = """---
name: {name}
description: {text}
---

# {name}

Steps.
"""


def other_folder(tmp_path: Path) -> Path:
    """A folder of two Claude Code skills that compete, and no suites."""
    base = tmp_path / "other"
    for name, text in (
        ("pdf-forms", "Fill in PDF forms and extract their fields. Use for PDF form work."),
        ("pdf-fields", "Extract the fields of PDF forms and fill them in. Use for PDF forms."),
    ):
        folder = base / ".claude" / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(SKILL.format(name=name, text=text), encoding="utf-8")
    return base


def shown_texts(window: MainWindow) -> str:
    """Every text the two panels show: their boxes, summaries, tables."""
    runner, overlap = window.suite_runner, window.overlap_map
    texts = [runner.summary.text(), overlap.status.text()]
    for box in (runner.suite_box, overlap.project_box):
        texts += [f"{box.itemText(i)} {box.itemData(i)}" for i in range(box.count())]
    for model in (runner.cases_model, runner.skills_model, overlap.pairs_model):
        for row in range(model.rowCount()):
            for column in range(model.columnCount()):
                texts.append(str(model.index(row, column).data()))
    texts += [f"{p.a.path} {p.b.path}" for p in overlap.pairs]
    return "\n".join(texts)


def two_projects(tmp_path: Path) -> Path:
    """A folder of two projects, each with two skills that compete."""
    base = tmp_path / "two"
    for project, words in (("forms", "PDF forms"), ("sheets", "spreadsheet formulas")):
        (base / project).mkdir(parents=True)
        (base / project / "skillstudio.yaml").write_text(
            "profile: claude-code\nroots: [.claude/skills]\n", encoding="utf-8"
        )
        for name in ("one", "two"):
            folder = base / project / ".claude" / "skills" / f"{project}-{name}"
            folder.mkdir(parents=True)
            text = f"Work with {words} - fill, check and fix {words}. Use for {words}."
            (folder / "SKILL.md").write_text(
                SKILL.format(name=f"{project}-{name}", text=text), encoding="utf-8"
            )
    return base


def test_a_new_folder_replaces_a_scan_in_progress_and_closing_does_not_hang(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, samples: Path
) -> None:
    folder, window = big_folder_and_window(qtbot, settings, tmp_path, 400)
    assert window.open_path(str(folder))
    open_and_wait(qtbot, window, str(samples / "oasis"))
    assert sum(len(r.skills) for r in window.context.registries) == 4
    assert window.open_path(str(folder))
    window.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    assert window.close()
    assert not window.scanning


def test_window_shows_tree_problems_and_status(window: MainWindow) -> None:
    skills = [i for i in all_rows(window.tree_model) if i.data(KIND_ROLE) == "skill"]
    assert len(skills) == 51
    assert "51 skills · 0 errors · 0 warnings" in window.statusBar().currentMessage()
    assert window.problems_model.rowCount() == 2  # the two 'shadowed' notes


def test_edit_break_yaml_see_problem_then_fix_and_save(window: MainWindow, qtbot: QtBot) -> None:
    editor = open_first(window, "safe-edit")
    path = editor.document.path
    original = Path(path).read_text(encoding="utf-8")
    cursor = editor.source.textCursor()
    cursor.setPosition(len("---\nname: safe-edit"))
    editor.source.setTextCursor(cursor)
    qtbot.keyClicks(editor.source, ": oops")
    assert window.tabs.tabText(window.tabs.currentIndex()).endswith("•")
    qtbot.waitUntil(
        lambda: any(d.code == "yaml-invalid" for d in editor.document.diagnostics), timeout=2000
    )
    assert any(d.code == "yaml-invalid" for d in window.problems_model.shown())
    assert (
        "1 warnings" in window.statusBar().currentMessage()
        or "error" in window.statusBar().currentMessage()
    )
    editor.source.undo()
    qtbot.waitUntil(lambda: not editor.document.diagnostics, timeout=2000)
    assert Path(path).read_text(encoding="utf-8") == original  # nothing written yet
    cursor = editor.source.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    editor.source.setTextCursor(cursor)
    qtbot.keyClicks(editor.source, "Added line.")
    assert window.document_tabs.save_current()
    assert Path(path).read_text(encoding="utf-8") == original + "Added line."
    assert not window.tabs.tabText(window.tabs.currentIndex()).endswith("•")


def test_closing_with_unsaved_work_asks(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    editor = open_first(window, "test-first-fix")
    qtbot.keyClicks(editor.source, "draft ")
    answers = ["cancel", "discard"]
    monkeypatch.setattr(window.dialogs, "ask_save", lambda names: answers.pop(0))
    window.document_tabs.close_tab(window.tabs.currentIndex())
    assert window.tabs.count() == 1  # cancelled: still open, text kept
    assert editor.document.text().startswith("draft ")
    window.document_tabs.close_tab(window.tabs.currentIndex())
    assert window.tabs.count() == 0
    registry = editor.document.registry
    assert "draft" not in skill_body(registry.by_path[editor.document.path])


def test_problem_double_click_opens_the_line(window: MainWindow, samples: Path) -> None:
    path = samples / "agentskills/.agents/skills/release-notes/SKILL.md"
    path.write_text(path.read_text().replace("name: release-notes", "name: Release_Notes"))
    window.reload()
    model = window.problems_model
    row = next(r for r in range(model.rowCount()) if model.index(r, 1).data() == "name-format")
    window.problems.view.doubleClicked.emit(model.index(row, 2))
    editor = window.tabs.currentWidget()
    assert isinstance(editor, SkillEditor)
    assert editor.source.textCursor().blockNumber() == 1  # line 2: the name


def test_the_listings_note_is_lints_and_its_double_click_shows_headroom(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """The `listing-over-budget` note is about the whole listing: Problems shows it where
    `lint` does (skillstudio.yaml's line that sets the window), and a double-click
    brings Try a Request with its Headroom tab (which skills lose what), not a skill."""
    base = make_set(tmp_path / "set", 27, 60, "profile: claude-code\ncontext_tokens: 200000\n")
    (expected,) = [d for d in lint_json(cwd=base)["diagnostics"] if d["code"] == BUDGET]
    window = open_window(qtbot, settings, base)
    model = window.problems_model
    qtbot.waitUntil(lambda: any(d.code == BUDGET for d in model.shown()), timeout=20_000)
    (note,) = [d for d in model.shown() if d.code == BUDGET]
    assert note.to_json() == expected  # path, line 2, column 1, no field, no skill
    assert model.where(note) == "set › skillstudio.yaml › line 2"
    row = next(r for r in range(model.rowCount()) if model.index(r, 1).data() == BUDGET)
    tabs = window.tabs.count()
    window.problems.view.doubleClicked.emit(model.index(row, 2))
    panel = window.query_panel
    assert panel.details.currentWidget() is panel.headroom
    assert not window.query_dock.visibleRegion().isEmpty()  # brought to the front
    assert window.tabs.count() == tabs  # no skill opened for a note about them all


def test_screenshot(window: MainWindow, tmp_path: Path) -> None:
    open_first(window, "code-review")
    image = window.grab()
    assert not image.isNull() and image.width() > 600
    assert image.save(str(tmp_path / "main-window.png"))


@pytest.mark.parametrize("bad", ["nul", "surrogate"])
def test_the_app_opens_a_marketplace_with_a_bad_source(
    qtbot: QtBot, tmp_path: Path, bad: str
) -> None:
    repo, manifest, _field = make_case(tmp_path, "marketplace", "source", bad)
    window = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(repo))
    names = {skill.name for registry in window.context.registries for skill in registry.skills}
    assert "good:g" in names
    found = [
        d
        for project in window.context.projects
        for d in project.diagnostics
        if d.path == manifest and d.code == "field-invalid"
    ]
    assert len(found) == 1


def test_another_folder_leaves_nothing_of_the_first_in_suites_and_overlap(
    window: MainWindow, samples: Path, tmp_path: Path, qtbot: QtBot
) -> None:
    runner, overlap = window.suite_runner, window.overlap_map
    window.suites_dock.show()
    window.suites_dock.raise_()
    qtbot.waitUntil(lambda: runner.report is not None, timeout=10_000)
    assert "passed" in runner.summary.text()
    assert runner.shown_suite() is not None
    window.overlap_dock.show()
    window.overlap_dock.raise_()
    qtbot.waitUntil(lambda: overlap.shown_for is not None, timeout=20_000)
    before = shown_texts(window)
    assert str(samples) in before  # the first folder's suites and pairs are shown
    other = other_folder(tmp_path)
    assert window.open_path(str(other))
    # at once, while the new folder is read: nothing of the first
    assert str(samples) not in shown_texts(window)
    assert "passed" not in runner.summary.text()
    assert runner.shown_suite() is None, "Add as Test Case offers no suite of the old folder"
    assert window.query_panel.current_suite() is None
    qtbot.waitUntil(lambda: not window.scanning, timeout=10_000)
    qtbot.waitUntil(lambda: overlap.shown_for is not None, timeout=20_000)
    after = shown_texts(window)
    assert str(samples) not in after
    assert runner.suite_box.count() == 0 and runner.report is None
    assert {p.a.path for p in overlap.pairs} <= {
        str(other / ".claude/skills/pdf-forms/SKILL.md"),
        str(other / ".claude/skills/pdf-fields/SKILL.md"),
    }
    assert all(
        str(overlap.project_box.itemData(i)).startswith(str(other))
        for i in range(overlap.project_box.count())
    )


def test_the_overlap_map_follows_the_project_worked_on(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    base = two_projects(tmp_path)
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(base))
    panel, overlap = window.query_panel, window.overlap_map
    window.overlap_dock.show()
    window.overlap_dock.raise_()
    assert panel.project_box.count() == 2
    for number in (0, 1, 0):
        panel.project_box.setCurrentIndex(number)
        assert overlap.project_box.currentData() == panel.project_box.currentData()
        registry = overlap.registry
        assert registry is not None and registry is panel.registry
        root = overlap.project_box.currentData()
        # until this project's pairs land, no other project's pairs are shown
        assert all(p.a.path.startswith(root) for p in overlap.pairs)
        shown = (id(registry), registry.version)  # (and the threshold: the first one)
        qtbot.waitUntil(lambda s=shown: (overlap.shown_for or ())[:2] == s, timeout=20_000)  # type: ignore[misc]
        assert overlap.pairs, "the two skills of each project compete"
        assert all(p.a.path.startswith(root) and p.b.path.startswith(root) for p in overlap.pairs)


def test_another_folder_drops_the_pairs_of_the_first_at_once(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    first = two_projects(tmp_path)
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(first))
    overlap = window.overlap_map
    window.overlap_dock.show()
    window.overlap_dock.raise_()
    qtbot.waitUntil(lambda: bool(overlap.pairs), timeout=20_000)
    assert str(first) in shown_texts(window)
    assert window.open_path(str(other_folder(tmp_path)))
    assert str(first) not in shown_texts(window)  # while the new folder is read
    qtbot.waitUntil(lambda: not window.scanning, timeout=10_000)
    qtbot.waitUntil(lambda: overlap.shown_for is not None, timeout=20_000)
    assert str(first) not in shown_texts(window)


def test_the_suites_panel_follows_the_project_worked_on(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    runner, panel = window.suite_runner, window.query_panel
    window.suites_dock.show()
    window.suites_dock.raise_()
    for profile in ("oasis", "claude-code", "oasis"):
        number = next(n for n, p in enumerate(panel.context.projects) if p.profile.name == profile)
        panel.project_box.setCurrentIndex(number)
        own = str(samples / profile / "suites" / f"{profile}.yaml")
        assert runner.suite_box.currentData() == own
        qtbot.waitUntil(
            lambda own=own: runner.report is not None and runner.suite is not None  # type: ignore[misc]
            and runner.suite.path == own,
            timeout=10_000,
        )  # fmt: skip
        assert f"on {profile}" in runner.summary.text()
    # hidden: the project's suite is shown without another suite's results (it runs when shown)
    window.suites_dock.hide()
    panel.project_box.setCurrentIndex(0)
    assert runner.suite_box.currentData() == str(samples / "agentskills/suites/agentskills.yaml")
    assert runner.report is None and "passed" not in runner.summary.text()


def test_the_status_summary_outlives_a_menu(window: MainWindow) -> None:
    summary = window.statusBar().currentMessage()
    assert "skills" in summary
    QApplication.sendEvent(window, QStatusTipEvent(""))  # a menu opened and closed
    assert window.statusBar().currentMessage() == summary


def test_a_folder_whose_configuration_breaks_the_core_is_refused_not_fatal(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warnings.append(str(a[2])))
    good = tmp_path / "good"
    three_skills(good)
    win = open_window(qtbot, settings, good)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("a 5,000-digit max_skills, as a core bug would meet it")

    monkeypatch.setattr(folder_switch_module, "resolve_projects", broken)
    assert win.open_path(str(tmp_path)) is False  # no exception out of the app
    assert warnings and "5,000-digit" in warnings[0]
    assert win.context.registries and shown(win, good / "alpha" / "SKILL.md"), (
        "the open folder stays"
    )


# -- Close Folder, tabs kept ---------------------------------------------------------------
def test_close_folder_shows_the_welcome_page(window: MainWindow) -> None:
    path = next(p for r in window.context.registries for p in r.by_path)
    window.open_skill(path)
    assert window.menu_actions.close_folder_action.text().replace("&", "") == "Close Folder"
    window.menu_actions.close_folder_action.trigger()
    assert window.context.base == "" and not window.context.registries and not window.documents
    assert window.centre.currentWidget() is window.welcome
    assert window.tree_model.rowCount() == 0
    assert "No folder is open" in window.welcome.status.text()


def test_empty_states_of_problems_and_suites(qtbot: QtBot, settings: QSettings) -> None:
    win = fresh_window(qtbot, settings, 1024, 640)
    assert win.problems.stack.currentWidget() is win.problems.empty
    assert win.problems.empty.text() == "No skills open yet."
    assert "New…" in win.suite_runner.summary.text()
    assert "Add as test case" in win.suite_runner.summary.text()


def test_worker_threads_hand_the_interpreter_lock_back_within_a_millisecond(
    window: MainWindow,
) -> None:
    """The scan, index and listing workers held the lock up to 5 ms (Python's default)
    each time the GUI thread asked for it; Qt calls into Python per row it lays out."""
    assert sys.getswitchinterval() == pytest.approx(main_window.SWITCH_INTERVAL_S)
    assert main_window.SWITCH_INTERVAL_S <= 0.001


def test_the_app_reads_edits_and_answers_with_a_profile_it_never_names(
    qtbot: QtBot,
    settings: QSettings,
    toy_project: Path,  # noqa: F811
) -> None:
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(toy_project))
    registry = win.context.registries[0]
    assert registry.profile.name == "toy"
    assert sorted(registry.active) == ["kite", "yoyo"]

    # the form is built from the toy's own declared fields
    editor = win.open_skill(str(toy_project / "toys" / "kite" / "SKILL.md"))
    assert editor is not None
    assert {"name", "description", "cues"} <= set(editor.form.fields)
    assert editor.form.fields["cues"].widget.isVisibleTo(editor.form)

    # Try a Request: the toy's rules select (a cue scores 10, 10 selects)
    panel = win.query_panel
    win.menu_actions.query_action.trigger()
    request = "let us fly a kite today"
    qtbot.keyClicks(panel.query, request)
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.query == request)
    assert panel.result is not None
    expected = match(registry, request, options=panel.options())
    assert panel.result.selected == expected.selected == ["kite"]
    assert "kite" in panel.summary.text()


def test_the_window_keeps_painting_while_a_folder_is_resolved(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39, item 9: resolving the folder opened (a walk of every folder below it,
    100-250 ms at 10,000 skills) ran on the GUI thread before the scan began, one
    stall. It runs off it now: a 10 ms timer keeps ticking meanwhile, on the GUI
    thread, and the walk runs on another; a broken folder is still refused."""
    good = tmp_path / "good"
    three_skills(good)
    real = folder_switch_module.resolve_projects
    walked_on: list[bool] = []

    def slow(*args: Any, **kwargs: Any) -> Any:
        walked_on.append(threading.current_thread() is threading.main_thread())
        time.sleep(0.3)  # a long walk (sleeping: the GIL is free for the GUI thread)
        return real(*args, **kwargs)

    monkeypatch.setattr(folder_switch_module, "resolve_projects", slow)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    ticks: list[bool] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(
        lambda: ticks.append(threading.current_thread() is threading.main_thread())
    )
    timer.start()
    with qtbot.waitSignal(win.scan_finished, timeout=20_000):
        assert win.open_path(str(good))
        during = len(ticks)
    timer.stop()
    assert walked_on == [False]
    assert during >= 5 and all(ticks), f"{during} ticks in the 300 ms walk"
    assert shown(win, good / "alpha" / "SKILL.md")
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warnings.append(str(a[2])))
    assert win.open_path(str(tmp_path / "missing")) is False
    assert warnings and "no such file or folder" in warnings[0]
    assert shown(win, good / "alpha" / "SKILL.md"), "the open folder stays"
