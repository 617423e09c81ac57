"""The window's shell on first run: room for the editor, the welcome page, menus, tabs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QTextCursor
from PySide6.QtWidgets import QApplication, QMenu, QTabBar, QToolButton
from pytestqt.qtbot import QtBot

from skillstudio.gui.infra.icons import STATUS, dark_palette, icon, status_icon
from skillstudio.gui.window.main_window import MainWindow


def fresh_window(qtbot: QtBot, settings: QSettings, width: int, height: int) -> MainWindow:
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.resize(width, height)
    win.show()
    qtbot.waitExposed(win)
    return win


@pytest.mark.parametrize(("width", "height"), [(1024, 640), (1280, 800)])
def test_the_editor_gets_most_of_the_height_on_first_run(
    qtbot: QtBot, settings: QSettings, samples: Path, width: int, height: int
) -> None:
    win = fresh_window(qtbot, settings, width, height)
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        win.open_path(str(samples))
    paths = sorted(p for r in win.registries for p in r.by_path if "code-review" in p)
    assert win.centre.height() >= 0.6 * win.height(), "the welcome page too"
    editor = win.open_skill(paths[0])
    assert editor is not None
    qtbot.wait(10)
    assert win.centre.height() >= 0.6 * win.height()
    # the tab's own content (form, source), not counting the tab bar: it was 57 %
    assert editor.height() >= 0.6 * win.height(), (editor.height(), win.height())
    win.focus_query_panel()  # Try a Request raised does not take the room back
    qtbot.wait(10)
    assert editor.height() >= 0.6 * win.height(), (editor.height(), win.height())
    assert 130 <= win.problems_dock.height() <= 250  # (its tab bar below it: 26 px more)
    if height == 800:  # the skills tree gets the window's height: 30 rows and more show
        # (it held every sample row until the samples grew to seven projects, 39 rows)
        rows = win.tree.viewport().height() // win.tree.sizeHintForRow(0)
        assert rows >= 30, rows


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
    assert win.base == str(samples)
    assert "Click a skill in the tree" in win.welcome.status.text()
    path = next(p for r in win.registries for p in r.by_path)
    win.open_skill(path)
    assert win.centre.currentWidget() is win.tabs
    win.document_tabs.close_current()
    assert win.centre.currentWidget() is win.welcome


def test_recent_folders_under_home_read_from_the_home_folder(
    qtbot: QtBot, settings: QSettings, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'~/skills', not '/home/someone/skills' (nor a generating machine's temporary
    folder in the screenshots): the welcome page and File › Recent; in full on hover."""
    monkeypatch.setenv("HOME", str(samples.parent))
    elsewhere = samples.parent.parent / "elsewhere"
    elsewhere.mkdir()
    settings.setValue("recent", [str(samples), str(elsewhere)])
    win = fresh_window(qtbot, settings, 1280, 800)
    text = win.welcome.recent.text()
    assert f">~{os.sep}skills<" in text and str(samples) not in text
    assert f">{elsewhere}<" in text  # outside the home folder: as it is
    assert str(samples) in win.welcome.recent.toolTip()
    win.recent.fill_menu(win.menu_actions.recent_menu, win.open_path)
    labels = [action.text() for action in win.menu_actions.recent_menu.actions()]
    assert labels[:2] == [f"&1 ~{os.sep}skills", f"&2 {elsewhere}"]
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        win.welcome.recent.linkActivated.emit("0")
    assert win.base == str(samples)  # opens the folder itself
    assert f"<b>~{os.sep}skills</b>" in win.welcome.status.text()


def test_welcome_page_opens_the_samples(qtbot: QtBot, settings: QSettings) -> None:
    win = fresh_window(qtbot, settings, 1024, 640)
    opened: list[str] = []
    win.welcome.folder_chosen.connect(opened.append)
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        win.welcome.open_samples.click()
    assert opened == [win.welcome.samples] and win.base == win.welcome.samples
    text = win.welcome.findChildren(type(win.welcome.status))
    shown = " ".join(label.text() for label in text)
    for words in ("Ctrl+P", "Ctrl+K", "F6", "breadcrumb", "full instructions"):
        assert words in shown


def test_menu_shortcuts(qtbot: QtBot, settings: QSettings) -> None:
    win = fresh_window(qtbot, settings, 1024, 640)
    assert {s.toString() for s in win.menu_actions.close_action.shortcuts()} == {
        "Ctrl+W",
        "Ctrl+F4",
    }
    assert win.menu_actions.quit_action.shortcut().toString() == "Ctrl+Q"
    assert win.menu_actions.query_action.shortcut().toString() == "Ctrl+K"
    assert win.menu_actions.run_suite_action.shortcut().toString() == "F6"
    assert win.menu_actions.filter_action.shortcut().toString() == "Ctrl+P"
    view = next(m for m in win.menuBar().findChildren(QMenu) if m.title() == "&View")
    texts = [a.text().replace("&", "") for a in view.actions() if not a.isSeparator()]
    assert texts.count("Try a Request") == 1, texts
    taken = [s.toString() for a in win.findChildren(QAction) for s in a.shortcuts()]
    assert len(taken) == len(set(taken)), "no shortcut is bound twice"


def test_ctrl_w_closes_the_tab(window: MainWindow, qtbot: QtBot) -> None:
    path = next(p for r in window.registries for p in r.by_path)
    window.open_skill(path)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window.tabs, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.tabs.count() == 0)


def test_empty_states_of_problems_and_suites(qtbot: QtBot, settings: QSettings) -> None:
    win = fresh_window(qtbot, settings, 1024, 640)
    assert win.problems.stack.currentWidget() is win.problems.empty
    assert win.problems.empty.text() == "No skills open yet."
    assert "New…" in win.suite_runner.summary.text()
    assert "Add as test case" in win.suite_runner.summary.text()


def test_tabs_with_the_same_name_show_their_project(window: MainWindow, qtbot: QtBot) -> None:
    reviews = sorted(p for r in window.registries for p in r.by_path if "code-review" in p)
    mvp = next(p for p in reviews if "/mvp/" in p)
    pegasus = next(p for p in reviews if "/pegasus/" in p)
    window.open_skill(mvp)
    assert window.tabs.tabText(0) == "code-review"  # alone: no project needed
    window.open_skill(pegasus)
    assert [window.tabs.tabText(i) for i in range(2)] == [
        "code-review · mvp",
        "code-review · pegasus",
    ]
    button = window.tabs.tabBar().tabButton(1, QTabBar.ButtonPosition.RightSide)
    assert isinstance(button, QToolButton) and button.text() == "×"
    button.click()  # the neutral close button closes its own tab
    assert window.tabs.count() == 1
    assert window.tabs.tabText(0) == "code-review"


def test_profile_switch_is_per_project_and_keeps_unsaved_tabs(
    window: MainWindow, qtbot: QtBot
) -> None:
    paths = sorted(p for r in window.registries for p in r.by_path)
    mvp = next(p for p in paths if "/mvp/" in p and "code-review" in p)
    oasis = next(p for p in paths if "/oasis/" in p and "commit" in p)
    other_profiles = {p.base: p.profile.name for p in window.projects if "/mvp" not in p.base}
    window.open_skill(oasis)
    editor = window.open_skill(mvp)
    assert editor is not None
    editor.source.moveCursor(QTextCursor.MoveOperation.End)
    editor.source.insertPlainText("\nUnsaved words.\n")
    # the box follows the project; the label says how the profile was chosen
    assert window.project_label.text() == "Project mvp is read as mvp: set by its skillstudio.yaml"
    assert "set by its skillstudio.yaml" in window.project_label.toolTip()
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        window.profile_box.setCurrentIndex(window.profile_box.findData("agentskills"))
    names = {p.base: p.profile.name for p in window.projects}
    assert next(n for b, n in names.items() if b.endswith("/mvp")) == "agentskills"
    assert {b: n for b, n in names.items() if not b.endswith("/mvp")} == other_profiles
    assert window.tabs.count() == 2, "no tab was closed"
    reopened = window.documents[mvp]
    assert reopened is not editor and reopened.document.registry.profile.name == "agentskills"
    assert reopened.document.text().endswith("\nUnsaved words.\n")
    assert reopened.document.modified
    assert window.tabs.currentWidget() is reopened and window.tabs.indexOf(reopened) == 1
    assert (
        window.project_label.text() == "Project mvp is read as agentskills: chosen for this folder"
    )
    window.tabs.setCurrentIndex(0)  # the oasis tab: the box shows oasis, on auto
    assert window.profile_box.currentData() == "" and window.project_label.text().startswith(
        "Project oasis is read as oasis"
    )


def test_a_root_context_menu_reads_its_project_as_another_profile(
    window: MainWindow, qtbot: QtBot
) -> None:
    root = next(r for r in window.registries if r.profile.name == "oasis").roots[0].path
    menu = QMenu()
    window.project_profiles.fill_menu(menu, root)
    (sub,) = [a.menu() for a in menu.actions() if a.menu() is not None]
    assert isinstance(sub, QMenu) and sub.title() == "Read oasis As"
    choice = next(a for a in sub.actions() if a.text() == "toolsets")
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        choice.trigger()
    assert sorted(p.profile.name for p in window.projects).count("toolsets") == 2


def test_tree_precedence_arrows_icons_and_following_the_tab(window: MainWindow) -> None:
    model = window.tree_model
    paths = {p[len(window.base) + 1 :]: p for r in window.registries for p in r.by_path}
    labels = [model.index(r, 0).data() for r in range(model.rowCount())]
    assert "toolsets · project · wins over user, bundled" in labels
    assert "toolsets · bundled · yields to user, project" in labels
    assert window.tree.textElideMode() == Qt.TextElideMode.ElideMiddle
    plain = model.index_of(paths["mvp/skills/docs/api-reference/SKILL.md"])
    with_files = model.index_of(paths["pegasus/skills/code-review/SKILL.md"])
    assert not model.hasChildren(plain), "no expand arrow without supporting files"
    assert model.hasChildren(with_files)
    tooltip = model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert "shadowed: a skill with the same name" in tooltip  # the legend
    window.open_skill(paths["mvp/skills/docs/api-reference/SKILL.md"])
    window.open_skill(paths["oasis/key_skills/commit/SKILL.md"])
    window.tabs.setCurrentIndex(0)
    assert window.tree.currentIndex() == plain, "the tree follows the current tab"


def test_status_icons_are_ours_and_drawn_for_the_palette(qapp: QApplication) -> None:
    for name in STATUS:
        light, dark = status_icon(name, False), status_icon(name, True)
        assert not light.isNull()
        assert light.pixmap(16).toImage() != dark.pixmap(16).toImage()
    assert icon("shadowed").cacheKey() == status_icon("shadowed", dark_palette()).cacheKey()
