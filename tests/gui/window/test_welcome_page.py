"""Tests of gui/window/welcome_page.py (WelcomePage: what the centre shows while no tab
is open, so the window explains itself)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QSettings
from PySide6.QtWidgets import (
    QLabel,
    QScrollArea,
)
from pytestqt.qtbot import QtBot

from skillstudio.gui.window.main_window import MainWindow

from ...helpers import REPO
from ..parts import fresh_window


# -- 4. the welcome page ----------------------------------------------------------------------
def test_welcome_page_says_what_each_way_in_opens(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    settings.setValue("recent", [str(samples)])
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.resize(1024, 640)
    win.show()
    qtbot.wait(50)  # the first-run dock sizes settle
    page = win.welcome
    lines = page.explained
    assert set(lines) == {page.open_folder, page.open_project, page.open_samples}
    for button, line in lines.items():
        assert isinstance(line, QLabel) and line.isVisible()
        left = line.mapTo(page, QPoint(0, 0))
        top = button.mapTo(page, QPoint(0, 0))
        assert left.x() > top.x() + button.width() - 1  # beside its button
        assert abs(left.y() - top.y()) < button.height()
    assert "detected" in lines[page.open_folder].text()
    assert "skillstudio.yaml" in lines[page.open_project].text()
    # the samples line names every agent the bundled samples have a project for (it
    # named three of thirteen, and a reviewer read that the others had none)
    shown = lines[page.open_samples].text()
    agents = [p.name for p in (Path(REPO) / "skills").iterdir() if p.is_dir()]
    named = [name for name in agents if f" {name}," in shown or f" {name} and" in shown]
    assert len(named) >= 13, shown
    # The tree beside it says why it is empty, instead of an empty box.
    assert win.tree.empty_text().startswith("No folder is open.")
    assert "Open Folder (Ctrl+O)" in win.tree.empty_text()
    scroll = page.findChild(QScrollArea)
    assert scroll is not None
    assert scroll.verticalScrollBar().maximum() == 0, "whole at 1024x640, shortcuts included"


def test_welcome_page_with_no_folder_and_no_tab(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    settings.setValue("recent", [str(samples)])
    win = fresh_window(qtbot, settings, 1280, 800)
    assert win.centre.currentWidget() is win.welcome
    assert "No folder is open" in win.welcome.status.text()
    assert str(samples) in win.welcome.recent.text()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        win.welcome.recent.linkActivated.emit("0")  # a recent folder, clicked
    assert win.context.base == str(samples)
    assert "Click a skill in the tree" in win.welcome.status.text()
    path = next(p for r in win.context.registries for p in r.by_path)
    win.open_skill(path)
    assert win.centre.currentWidget() is win.tabs
    win.document_tabs.close_current()
    assert win.centre.currentWidget() is win.welcome


def test_welcome_page_opens_the_samples(qtbot: QtBot, settings: QSettings) -> None:
    win = fresh_window(qtbot, settings, 1024, 640)
    opened: list[str] = []
    win.welcome.folder_chosen.connect(opened.append)
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        win.welcome.open_samples.click()
    assert opened == [win.welcome.samples] and win.context.base == win.welcome.samples
    text = win.welcome.findChildren(type(win.welcome.status))
    shown = " ".join(label.text() for label in text)
    for words in ("Ctrl+P", "Ctrl+K", "F6", "breadcrumb", "full instructions"):
        assert words in shown


def test_the_guide_promises_what_the_app_shows(window: MainWindow, samples: Path) -> None:
    guide = (Path(REPO) / "docs" / "guide.md").read_text(encoding="utf-8")
    text = " ".join(guide.split())
    assert "mvp: mvp (auto)" not in text
    assert '"Project notes is read as agentskills: detected from its folder layout"' in text
    assert '"Profile: auto → agentskills"' in text
    welcome = window.welcome.status.text()
    assert "Click a skill in the tree on the left to open it in a tab, or start below." in welcome
    assert "Click a skill in the tree on the left to open it in a tab, or start below." in text
    line = window.welcome.explained[window.welcome.open_samples].text()
    assert "seed/test systems" in line and "each agent" not in line
