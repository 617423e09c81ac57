"""Tests of gui/panels/workbench/query_panel.py against the CLI: Try a Request's
estimate is `skillstudio match`'s, whatever the panels opened, the theme and the
profile (issue 39: the app showed 1.36 where match said 1.34, on the same files)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from skillstudio.gui.window.main_window import MainWindow
from tests.helpers import CORPUS, cli

from ...parts import ask, open_window, write_collection

REQUESTS = (
    "test my react app login page with playwright",
    "build an MCP server for the GitHub API",
    "please look over my pull request",
    "review the sql migration",
)


def _cli(folder: Path, request: str, profile: str) -> dict[str, tuple[float, float]]:
    run = cli("match", request, "--profile", profile, "--format", "json", cwd=folder)
    assert run.code in (0, 1), run.err
    return {c["skill"]: (c["score"], c["strength"]) for c in run.json["likely"]}


def _app(window: MainWindow, qtbot: QtBot, request: str) -> dict[str, tuple[float, float]]:
    panel = window.query_panel
    window.query_dock.show()
    window.query_dock.raise_()  # (a hidden panel waits until shown)
    ask(panel, qtbot, "hello")  # (the same request again would not re-rank)
    ask(panel, qtbot, request)
    assert panel.likely is not None
    return {c.name: (round(c.score, 3), round(c.strength, 3)) for c in panel.likely.candidates}


def _agrees(window: MainWindow, qtbot: QtBot, folder: Path, profile: str) -> None:
    for request in REQUESTS:
        assert _app(window, qtbot, request) == _cli(folder, request, profile), request


def _made_and_deleted(window: MainWindow, qtbot: QtBot, folder: Path) -> None:
    """A skill made, ranked and deleted, and another's description edited for good
    (a few words: the average lengths move a little), each read again with F5."""
    existing = sorted(folder.rglob("SKILL.md"))[0]
    made = existing.parent.parent / "made-here" / "SKILL.md"
    made.parent.mkdir()
    made.write_text("---\nname: made-here\ndescription: Review a login page.\n---\n\n# Made\n")
    text = existing.read_text(encoding="utf-8")
    steps = (
        lambda: None,
        lambda: shutil.rmtree(made.parent),
        lambda: existing.write_text(text.replace("description: ", "description: sql api ", 1)),
    )
    for step in steps:
        step()
        window.reload()  # F5
        qtbot.wait(300)
        _app(window, qtbot, REQUESTS[0])


def _check(
    qtbot: QtBot, settings: QSettings, folder: Path, switch_theme: Callable[[str], None]
) -> None:
    window = open_window(qtbot, settings, folder, "agentskills")
    _agrees(window, qtbot, folder, "agentskills")
    _made_and_deleted(window, qtbot, folder)
    _agrees(window, qtbot, folder, "agentskills")
    window.menu_actions.overlap_action.trigger()  # View > Overlap Map
    qtbot.waitUntil(lambda: window.overlap_map.isVisible(), timeout=10_000)
    switch_theme("dark")
    _agrees(window, qtbot, folder, "agentskills")
    index = window.profile_box.findData("claude-code")
    with qtbot.waitSignal(window.scan_finished, timeout=20_000):
        window.profile_box.setCurrentIndex(index)
    _agrees(window, qtbot, folder, "claude-code")
    switch_theme("light")
    _agrees(window, qtbot, folder, "claude-code")


def test_try_a_request_scores_as_match_does(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, switch_theme: Callable[[str], None]
) -> None:
    _check(qtbot, settings, write_collection(tmp_path / "collection"), switch_theme)


def test_try_a_request_scores_as_match_does_on_the_corpus(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, switch_theme: Callable[[str], None]
) -> None:
    source = os.path.join(CORPUS, "anthropics-skills")
    if not os.path.isdir(source):
        pytest.skip("the shared corpus is not here")
    folder = tmp_path / "anthropics-skills"
    shutil.copytree(source, folder)
    _check(qtbot, settings, folder, switch_theme)
