"""Tests of gui/window/menus.py (The main window's menu bar, built from the commands the
window and its controllers offer; its actions are kept for the shortcuts' tests and
the welcome page)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QMenu,
    QTabBar,
    QWidget,
)
from pytestqt.qtbot import QtBot

from skillstudio.gui.editor.skill_editor import SkillEditor
from skillstudio.gui.window.main_window import MainWindow

from ..parts import fresh_window, open_and_wait, open_tab, skill_path


def _front_tab(window: MainWindow, title: str) -> bool:
    """Whether a dock tab bar shows `title` as its current tab."""
    for bar in window.findChildren(QTabBar):
        for index in range(bar.count()):
            if bar.tabText(index) == title:
                return bar.currentIndex() == index
    return False


def test_recent_folders_menu_reopens_a_folder(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    open_and_wait(qtbot, window, str(samples / "mvp"))
    assert window.recent.folders()[:2] == [str(samples / "mvp"), str(samples)]
    window.menu_actions.recent_menu.aboutToShow.emit()
    actions = [a for a in window.menu_actions.recent_menu.actions() if str(samples) in a.text()]
    assert [a.text().split(" ", 1)[1] for a in actions] == [str(samples / "mvp"), str(samples)]
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        actions[1].trigger()
    assert window.context.base == str(samples)
    assert sum(len(r.skills) for r in window.context.registries) == 51


def test_the_overlap_map_opened_from_view_comes_to_the_front(
    window: MainWindow, qtbot: QtBot
) -> None:
    assert not window.overlap_dock.isVisible()
    window.menu_actions.overlap_action.trigger()  # View › Overlap Map
    qtbot.waitUntil(lambda: window.overlap_map.isVisible())
    assert _front_tab(window, "Overlap Map")
    window.problems_dock.raise_()
    qtbot.waitUntil(lambda: _front_tab(window, "Problems"))
    window.menu_actions.overlap_action.trigger()  # hidden…
    window.menu_actions.overlap_action.trigger()  # …and shown again: in front again
    qtbot.waitUntil(lambda: _front_tab(window, "Overlap Map"))


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
    path = next(p for r in window.context.registries for p in r.by_path)
    window.open_skill(path)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window.tabs, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.tabs.count() == 0)


def test_try_a_request_shows_its_dock_and_takes_the_request(window: MainWindow) -> None:
    """(What the panel answers is tested on the panel alone: panels/workbench/.)"""
    window.menu_actions.query_action.trigger()
    assert window.query_panel.query.hasFocus() or window.query_dock.isVisible()


def test_ctrl_1_to_4_switch_the_open_skills_views(window: MainWindow, qtbot: QtBot) -> None:
    """No key switched Form / Source / Preview: Ctrl+1…4 do, listed in View (and so in
    Help › Keyboard Shortcuts), bound once in the whole window."""
    path = next(p for r in window.context.registries for p in r.by_path)
    editor = window.open_skill(path)
    assert editor is not None
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    actions = window.menu_actions.editor_view_actions
    assert [a.shortcut().toString() for a in actions] == ["Ctrl+1", "Ctrl+2", "Ctrl+3", "Ctrl+4"]
    for number, key in enumerate((Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_3, Qt.Key.Key_4)):
        qtbot.keyClick(window.tabs, key, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda n=number: editor.views.currentIndex() == n)  # type: ignore[misc]
    assert editor.views.currentWidget() is editor.views.widget(3)
    qtbot.keyClick(window.tabs, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: editor.views.currentWidget() is editor.source)
    taken = [s.toString() for a in window.findChildren(QAction) for s in a.shortcuts()]
    assert len(taken) == len(set(taken)), "no shortcut is bound twice"


class _Reached(QObject):
    """Notes each action a shortcut reached, and stops it there (no dialog, no quit)."""

    def __init__(self, actions: list[QAction]) -> None:
        super().__init__()
        self.reached: list[QAction] = []
        for action in actions:
            action.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Shortcut and isinstance(watched, QAction):
            self.reached.append(watched)
            return True
        return super().eventFilter(watched, event)


def _focused(window: MainWindow, editor: SkillEditor, where: str) -> QWidget:
    """The Source editor, a Form line edit or text box, or the request box, focused."""
    widget: QWidget
    if where == "source":
        editor.views.setCurrentWidget(editor.source)
        widget = editor.source
    elif where == "request":
        window.menu_actions.query_action.trigger()
        widget = window.query_panel.query
    else:
        editor.views.setCurrentWidget(editor.form)
        widget = editor.form.fields[where].widget
    widget.setFocus()
    return widget


def _undoing(event_key: QKeySequence) -> bool:
    """The key is the platform's undo or redo: a text box's own (in the Form and the
    Source, the skill's one history, as Edit › Undo; docs/guide.md)."""
    combo = event_key[0]  # type: ignore[index]  # QKeySequence.__getitem__ is not in the stubs
    pressed = QKeyEvent(QEvent.Type.KeyPress, combo.key(), combo.keyboardModifiers())
    return pressed.matches(QKeySequence.StandardKey.Undo) or pressed.matches(
        QKeySequence.StandardKey.Redo
    )


@pytest.mark.parametrize("where", ["source", "name", "description", "request"])
def test_every_menu_shortcut_works_whatever_has_the_focus(
    window: MainWindow, samples: Path, qtbot: QtBot, where: str
) -> None:
    """A reviewer found Ctrl+, doing nothing in the Source (xdotool's `key ctrl+,` sends
    no comma: 'No such key name'); each key of the menus reaches its action from the
    Source, a Form field and the request box, but for undo / redo, which a text box
    takes for its own text."""
    editor = open_tab(window, skill_path(samples, "code-review"))
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    actions = [a for a in window.findChildren(QAction) if a.shortcuts()]
    assert len(actions) > 20, "every menu with its keys"
    reached = _Reached(actions)
    kept = []
    for action in actions:
        for keys in action.shortcuts():
            widget = _focused(window, editor, where)
            qtbot.waitUntil(widget.hasFocus)
            action.setEnabled(True)  # Save with nothing to save: its key still arrives
            reached.reached.clear()
            combo = keys[0]  # type: ignore[index]  # QKeySequence.__getitem__ is not in the stubs
            qtbot.keyClick(widget, combo.key(), combo.keyboardModifiers())
            if reached.reached != [action]:
                kept.append(keys.toString())
                assert _undoing(keys), f"{keys.toString()} ({action.text()}) in {where}"
    assert kept, "undo and redo stay the text box's"


def test_ctrl_comma_opens_settings_with_the_source_editor_focused(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    editor = open_tab(window, skill_path(samples, "code-review"))
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    editor.views.setCurrentWidget(editor.source)
    editor.source.setFocus()
    qtbot.waitUntil(editor.source.hasFocus)
    shown: list[QWidget] = []
    pressed = [False]

    def close_it() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is not None:
            shown.append(dialog)
            dialog.close()
        elif not pressed[0]:  # the key is still on its way
            QTimer.singleShot(20, close_it)

    QTimer.singleShot(0, close_it)
    qtbot.keyClick(editor.source, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    pressed[0] = True
    assert [type(d).__name__ for d in shown] == ["SettingsDialog"]
    assert not editor.document.modified, "the key typed nothing"


def test_the_changes_panel_has_its_view_entry(window: MainWindow, qtbot: QtBot) -> None:
    """Every panel had an entry in View but Changes (it came back only by File ›
    Compare With…, which compares again): its entry shows it in front, in the tabs'
    order after the Overlap Map's, and hides it again."""
    view = next(m for m in window.menuBar().findChildren(QMenu) if m.title() == "&View")
    texts = [a.text().replace("&", "") for a in view.actions() if not a.isSeparator()]
    assert texts[:5] == ["Skills", "Problems", "Suites", "Overlap Map", "Changes"], texts
    dock = window.change_panel.dock
    assert dock is not None and not dock.isVisible()
    shown = next(a for a in view.actions() if a.text() == "C&hanges")  # Alt+V, H
    shown.trigger()
    qtbot.waitUntil(lambda: window.change_panel.isVisible())
    assert _front_tab(window, "Changes")
    shown.trigger()
    qtbot.waitUntil(lambda: not dock.isVisible())
