"""Tests of gui/controllers/skill_views.py (What the window shows of the open registries:
the tree, Problems (with what failed in the app's own work) and the status line; the
panels are told when skills change)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QWidget,
)
from pytestqt.qtbot import QtBot

from skillstudio.gui.controllers import skill_views
from skillstudio.gui.models import problems_model
from skillstudio.gui.models.problem_rows import ProblemRows
from skillstudio.gui.window.main_window import MainWindow
from tests.helpers import CORPUS, lint_json, skill_text, write

from ..parts import open_tab, open_window


def test_status_bar_message_is_not_cut_at_1024(window: MainWindow, qtbot: QtBot) -> None:
    """On main the eight profiles' names ran into the project label ("…, toolsets, v")."""
    window.resize(1024, 640)
    bar = window.statusBar()
    qtbot.waitUntil(lambda: bar.width() <= 1024, timeout=3000)
    qtbot.wait(20)
    message = bar.currentMessage()
    assert message.startswith("51 skills · 0 errors")
    permanent = [w for w in bar.findChildren(QWidget) if w.isVisible() and w.parent() is bar]
    room = min(w.geometry().left() for w in permanent if w.geometry().left() > 0)
    assert bar.fontMetrics().horizontalAdvance(message) + 12 <= room
    assert "toolsets" in bar.toolTip()


def test_problems_installs_the_scan_threads_rows_without_listing_them_again(
    qtbot: QtBot, settings: QSettings, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Listing every skill's diagnostics again and comparing them with the scan's rows
    took 25-45 ms of the GUI thread at the end of a 10,000-skill scan: the registries'
    versions say the rows are current. A registry changed meanwhile: listed again."""
    on_gui: list[bool] = []
    real = skill_views.problem_sources

    def recording(*args: Any) -> Any:
        if args[1]:  # (opening a folder first empties Problems)
            on_gui.append(threading.current_thread() is threading.main_thread())
        return real(*args)

    monkeypatch.setattr(skill_views, "problem_sources", recording)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(samples))
    assert on_gui == [False]  # once, in the scan thread
    rows = win.problems_model._state
    shown = len(win.problems_model.shown())
    assert shown > 0
    win.context.registries[0].version += 1  # (an edit between the scan and the rows' install)
    win.problems_model._state = ProblemRows([], "", [], set(), "")  # (another folder's)
    win.views.update_problems(rows)
    assert on_gui == [False, True]
    assert len(win.problems_model.shown()) == shown


def test_problems_are_sorted_and_grouped_by_the_scan_thread_and_kept_in_place(
    qtbot: QtBot, settings: QSettings, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first rows are built off the GUI thread; a keystroke re-reading one skill
    does not build them again (it compares that skill's lists only)."""
    built: list[bool] = []

    class Recording(ProblemRows):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            built.append(threading.current_thread() is threading.main_thread())
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(skill_views, "ProblemRows", Recording)
    monkeypatch.setattr(problems_model, "ProblemRows", Recording)
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    built.clear()  # (the empty window's rows)
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(samples))
    assert False in built and built[built.index(False) :] == [False]  # the last, off-thread
    shown = len(win.problems_model.shown())
    assert shown and win.problems_model.counts() == win.problems_model._state.counts
    built.clear()
    editor = win.open_skill(str(samples / "oasis/key_skills/commit/SKILL.md"))
    assert editor is not None
    text = editor.document.text()
    editor.document.text_document.setPlainText(text.replace("id: commit", "id: Commit_Bad"))
    editor.document.validate()
    assert any(d.skill == "Commit_Bad" for d in win.problems_model.shown())  # updated
    editor.document.text_document.setPlainText(text)
    editor.document.validate()
    assert len(win.problems_model.shown()) == shown
    assert built == []  # never built again on the GUI thread


# -- the counts of the status line and Problems (issue 39, item 5) ----------------------
def _cli_counts(folder: Path, *options: str) -> dict[str, int]:
    summary = lint_json("-v", *options, str(folder))["summary"]
    return {"error": summary["errors"], "warning": summary["warnings"], "info": summary["infos"]}


def _app_counts(window: MainWindow) -> dict[str, int]:
    counts = window.problems_model.all_counts()
    return {severity: counts.get(severity, 0) for severity in ("error", "warning", "info")}


@pytest.mark.parametrize("profile", [None, "claude-code", "codex", "agentskills"])
def test_problems_counts_what_lint_v_counts_for_the_same_profile(
    qtbot: QtBot, settings: QSettings, collection: Path, profile: str | None
) -> None:
    expected = _cli_counts(collection, *(["--profile", profile] if profile else []))
    window = open_window(qtbot, settings, collection, profile)
    try:
        qtbot.waitUntil(lambda: _app_counts(window) == expected, timeout=10_000)
    finally:
        print(profile, expected, _app_counts(window), window.statusBar().currentMessage())


def _three(folder: Path) -> Path:
    """Two skills that share a name (a warning on each, an error on the one whose
    folder is named otherwise) and one with an error of its own."""
    same = "Formats tables in markdown documents. Use when asked to format a table."
    write(folder, "skills/one/SKILL.md", skill_text(name="one", description=same))
    write(folder, "skills/two/SKILL.md", skill_text(name="one", description=same))
    bad = "---\nname: Three Things\ndescription: x\n---\nBody.\n"
    write(folder, "skills/three/SKILL.md", bad)
    return folder


def test_the_status_line_counts_the_whole_project_whatever_problems_shows(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    folder = _three(tmp_path / "three")
    cli = _cli_counts(folder)
    assert cli["error"] >= 2 and cli["warning"] >= 2
    window = open_window(qtbot, settings, folder)
    expected = f"3 skills · {cli['error']} errors · {cli['warning']} warnings"
    qtbot.waitUntil(lambda: _app_counts(window) == cli, timeout=10_000)
    assert window.statusBar().currentMessage().startswith(expected)
    open_tab(window, folder / "skills/one/SKILL.md")  # (one warning, no error)
    window.problems.current_only.setChecked(True)
    assert window.problems.model.only_path.endswith("one/SKILL.md")
    window.views.update_problems()
    assert window.statusBar().currentMessage().startswith(expected)
    warnings = window.problems.toggles["warning"].text()
    assert warnings == f"1 of {cli['warning']} warnings", "its share of the project's"


def test_the_status_line_follows_an_edit_at_once(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    folder = _three(tmp_path / "three")
    window = open_window(qtbot, settings, folder)
    editor = open_tab(window, folder / "skills/two/SKILL.md")
    editor.source.setPlainText(editor.document.text().replace("name: one", "name: two"))
    qtbot.waitUntil(lambda: not editor.document.pending, timeout=5000)
    assert editor.document.save()
    after = _cli_counts(folder)  # lint of the text now saved: the fix took two warnings
    message = window.statusBar().currentMessage()
    assert message.startswith(f"3 skills · {after['error']} error")
    assert f" · {after['warning']} warning" in message
    assert _app_counts(window)["warning"] == after["warning"]


def test_the_status_line_with_no_folder_open(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    window = open_window(qtbot, settings, _three(tmp_path / "three"))
    assert window.close_folder()
    assert window.statusBar().currentMessage() == "No folder open"


@pytest.mark.parametrize("repository", ["anthropics-skills", "obra-superpowers"])
def test_problems_counts_what_lint_v_counts_on_the_corpus(
    qtbot: QtBot, settings: QSettings, repository: str
) -> None:
    folder = Path(CORPUS) / repository
    if not folder.is_dir():
        pytest.skip("the corpus is not here")
    expected = _cli_counts(folder)
    window = open_window(qtbot, settings, folder)
    qtbot.waitUntil(lambda: _app_counts(window) == expected, timeout=20_000)
    message = window.statusBar().currentMessage()
    assert f"{expected['error']} error" in message and f"{expected['warning']} warning" in message
