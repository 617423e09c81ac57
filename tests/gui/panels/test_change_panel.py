"""File › Compare With… (issue 40): the Changes panel (a tab of the bottom panels) shows what
`skillstudio diff` reports; double-clicking a request opens Try a Request on it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.project import project_from_folder
from skillstudio.gui.panels import change_panel
from skillstudio.gui.panels.change_panel import QUERY, START, ChangePanel, profile_in_force

from ..parts import open_window, write_collection

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

QUERY_TEXT = "draft a message describing my staged changes"


def _skill(repo: Path, name: str, description: str) -> None:
    folder = repo / ".claude" / "skills" / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: {description}\n---\n\nSteps.\n"
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with a commit, then a description edit that breaks its suite case."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _skill(
        repo,
        "commit",
        "Writes commit messages. Use when asked to draft a message for staged changes.",
    )
    _skill(repo, "review", "Reviews pull requests. Use when asked to review a pull request.")
    (repo / "skillstudio.yaml").write_text(
        "profile: claude-code\nbundled_skills: false\nsuites: [suites/main.yaml]\n"
    )
    (repo / "suites").mkdir()
    (repo / "suites" / "main.yaml").write_text(
        f'cases:\n  - query: "{QUERY_TEXT}"\n    expect_likely: commit\n'
    )
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    for words in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "first"]):
        subprocess.run([*git, *words], check=True, capture_output=True)
    _skill(repo, "commit", "Formats changelog files. Use when asked to tidy a changelog.")
    _skill(repo, "review", "Reviews pull requests. Also drafts a message for staged changes.")
    return repo


def _regression_row(panel: ChangePanel) -> object:
    top = panel.tree.topLevelItem(0)
    assert top is not None
    rows = [top.child(i) for i in range(top.childCount())]
    return next(r for r in rows if r is not None and r.text(0).startswith("regression: "))


def test_the_panel_shows_the_report_and_offers_its_requests(qtbot: QtBot, repo: Path) -> None:
    panel = ChangePanel()
    qtbot.addWidget(panel)
    panel.compare("HEAD", False, str(repo))
    qtbot.waitUntil(lambda: panel.comparison is not None, timeout=30_000)
    # the suite case and the commit skill's own request, before the description changed
    assert "HEAD → working tree, read as claude-code: 2 regressions" in panel.status.text()
    row = _regression_row(panel)
    assert row.text(0) == f"regression: {QUERY_TEXT}"  # type: ignore[attr-defined]
    assert "commit" in row.text(1) and "(fails)" in row.text(2)  # type: ignore[attr-defined]
    with qtbot.waitSignal(panel.request_chosen) as chosen:
        panel.tree.itemDoubleClicked.emit(row, 0)
    assert chosen.args == [QUERY_TEXT]


def test_a_revision_that_names_nothing_is_said_plainly(qtbot: QtBot, repo: Path) -> None:
    panel = ChangePanel()
    qtbot.addWidget(panel)
    panel.compare("no-such-branch", False, str(repo))
    qtbot.waitUntil(lambda: panel.status.text().startswith("Not compared:"), timeout=30_000)
    assert "names no commit" in panel.status.text()


def test_compare_with_from_the_file_menu_then_try_a_request(
    qtbot: QtBot, settings: QSettings, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    win = open_window(qtbot, settings, repo)
    file_menu = next(m for m in win.menuBar().findChildren(QMenu) if m.title() == "&File")
    action = next(a for a in file_menu.actions() if a.text() == "Compare &With…")
    monkeypatch.setattr(change_panel.QInputDialog, "getItem", lambda *a: ("HEAD", True))
    action.trigger()
    panel = win.change_panel
    assert panel.dock is not None and panel.dock.isVisible()
    qtbot.waitUntil(lambda: panel.comparison is not None, timeout=30_000)
    row = _regression_row(panel)
    panel.tree.itemDoubleClicked.emit(row, 0)
    assert win.query_panel.query.text() == row.data(0, QUERY)  # type: ignore[attr-defined]
    assert win.query_dock.isVisible()


def test_try_a_request_shows_the_revisions_answer_beside_the_working_trees(
    qtbot: QtBot, settings: QSettings, repo: Path
) -> None:
    """Issue 40: a changed case opened in Try a Request shows both sides, the revision's
    labelled with it; another request, or the comparison closed, clears it."""
    win = open_window(qtbot, settings, repo)
    panel = win.change_panel
    assert panel.dock is not None and panel.before is not None
    panel.dock.show()
    panel.compare("HEAD", False, str(repo))
    qtbot.waitUntil(lambda: panel.comparison is not None, timeout=30_000)
    strip = panel.before
    assert strip.isHidden()  # nothing opened from the report yet
    panel.tree.itemDoubleClicked.emit(_regression_row(panel), 0)
    query_panel = win.query_panel
    assert query_panel.query.text() == QUERY_TEXT
    qtbot.waitUntil(lambda: query_panel.likely is not None, timeout=20_000)
    now = query_panel.likely.likely if query_panel.likely is not None else []
    assert now and now[0].name == "review"  # the working tree's winner
    assert query_panel.model.rows[0].name == "review"
    qtbot.waitUntil(lambda: strip.ranking is not None, timeout=20_000)
    assert strip.isVisible()
    assert strip.title.text().startswith("Before (HEAD): commit likely")
    assert "commit" in strip.body.text() and "Likely candidates" in strip.body.text()
    assert "review" not in strip.title.text()
    query_panel.query.setText("review my pull request")  # another request: no before side
    assert strip.isHidden() and strip.ranking is None and not strip.title.text()
    panel.tree.itemDoubleClicked.emit(_regression_row(panel), 0)  # again, then closed
    qtbot.waitUntil(lambda: strip.ranking is not None, timeout=20_000)
    panel.dock.close()
    assert strip.isHidden() and strip.ranking is None


def test_opening_another_folder_drops_the_comparison_of_the_folder_left(
    qtbot: QtBot, settings: QSettings, repo: Path, tmp_path: Path
) -> None:
    """Issue 39, round 3: the stale-state pattern of the suites (a first-time reviewer's
    MAJOR). On main the report of the folder left stayed in Changes after another folder
    was opened, and Try a Request kept showing that folder's revision beside the new
    folder's answer."""
    win = open_window(qtbot, settings, repo)
    panel = win.change_panel
    assert panel.dock is not None and panel.before is not None
    panel.dock.show()
    panel.compare("HEAD", False, str(repo))
    qtbot.waitUntil(lambda: panel.comparison is not None, timeout=30_000)
    panel.tree.itemDoubleClicked.emit(_regression_row(panel), 0)
    strip = panel.before
    qtbot.waitUntil(lambda: strip.ranking is not None, timeout=20_000)
    other = write_collection(tmp_path / "other")
    with qtbot.waitSignal(win.scan_finished, timeout=20_000):
        assert win.open_path(str(other))
    assert panel.comparison is None and panel.asked is None
    assert panel.tree.topLevelItemCount() == 0
    assert panel.status.text() == START
    assert strip.isHidden() and strip.ranking is None


def _tops(panel: ChangePanel) -> list[str]:
    return [panel.tree.topLevelItem(i).text(0) for i in range(panel.tree.topLevelItemCount())]  # type: ignore[union-attr]


def test_the_report_opens_in_the_bottom_area_read_as_the_profile_in_force(
    qtbot: QtBot, settings: QSettings, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 1024x768 Compare With… opened narrow under the tree; the report is a tab of
    the bottom panels, as wide as the editor, with its height. Its title said the
    profile the folder's files name after the user chose another in the status bar:
    the report is read as the profile in force, and made again after a switch."""
    win = open_window(qtbot, settings, repo, size=(1024, 768))
    with qtbot.waitSignal(win.scan_finished, timeout=20_000):
        assert win.project_profiles.set_project_profile(0, "agentskills")
    monkeypatch.setattr(change_panel.QInputDialog, "getItem", lambda *a: ("HEAD", True))
    win.change_panel.compare_with()
    panel, dock = win.change_panel, win.change_panel.dock
    assert dock is not None
    qtbot.waitUntil(lambda: panel.comparison is not None, timeout=30_000)
    qtbot.waitUntil(lambda: dock.height() >= 0.5 * 768, timeout=2000)
    assert win.dockWidgetArea(dock) == Qt.DockWidgetArea.BottomDockWidgetArea
    assert dock.width() >= win.width() - win.tree_dock.width() - 20
    assert win.tabifiedDockWidgets(dock)  # a tab among the bottom panels
    # the project at the repository's top is named by its folder, not "."
    assert _tops(panel) == ["repo/ (read as agentskills)"], _tops(panel)
    assert "read as agentskills" in panel.status.text()
    with qtbot.waitSignal(win.scan_finished, timeout=20_000):  # back to claude-code
        assert win.project_profiles.set_project_profile(0, "claude-code")
    qtbot.waitUntil(lambda: _tops(panel) == ["repo/ (read as claude-code)"], timeout=30_000)
    assert "read as claude-code" in panel.status.text()
    assert _regression_row(panel)  # the regressions of claude-code's reading


def test_the_profile_in_force_is_the_one_chosen_for_every_project(tmp_path: Path) -> None:
    """One profile chosen for every open project: the comparison reads both sides so;
    none chosen, or different ones: each project as it is detected (None)."""
    folder = str(tmp_path)
    chosen = [project_from_folder(folder, "codex"), project_from_folder(folder, "codex")]
    assert profile_in_force(chosen) == "codex"
    detected = project_from_folder(folder)
    assert detected.chosen_profile is None
    assert profile_in_force([detected]) is None
    assert profile_in_force([chosen[0], detected]) is None
    assert profile_in_force([chosen[0], project_from_folder(folder, "gemini")]) is None
    assert profile_in_force([]) is None
