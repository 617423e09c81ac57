"""Tests of gui/infra/deferred_until_shown.py (CatchUp, the app's one way to put a
widget's work off while it is not on screen): asked while hidden, the work runs once
when the widget is shown; on screen, at once or after its pause; a widget in a dock
behind another dock's tab counts as hidden (Qt says it is visible)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QWidget
from pytestqt.qtbot import QtBot

from skillstudio.gui.infra.deferred_until_shown import CatchUp
from skillstudio.gui.window.main_window import MainWindow


def test_panels_behind_another_dock_tab_wait_until_their_tab_is_chosen(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    """Qt 6 leaves a dock behind another dock's tab visible (moved out of sight), so on
    main the Try a Request panel answered after every scan and every edit while the
    user looked at Problems (at 10,000 skills: the listing and a 10,000-name list,
    100-200 ms at the end of a scan)."""
    panel, runner = window.query_panel, window.suite_runner
    assert window.problems.isVisible()
    assert panel.isVisible()  # what Qt says of the panel behind the Problems tab
    assert panel.result is None  # the scan's end did not answer for it
    answers: list[str] = []

    def answer() -> None:
        answers.append("answered")
        panel.update_now()

    panel.catch_up.work = answer
    window.open_skill(str(samples / "oasis/key_skills/commit/SKILL.md"))
    panel.skills_changed()
    assert not panel.timer.isActive() and panel.catch_up.stale
    assert runner.run() is False  # the suite runner behind its tab waits too
    window.focus_query_panel()
    qtbot.waitUntil(lambda: panel.result is not None)
    assert answers == ["answered"]  # once, when its tab was chosen
    panel.skills_changed()  # on screen: answered after the usual pause
    assert panel.timer.isActive()
    window.problems_dock.raise_()
    qtbot.waitUntil(lambda: not panel.catch_up.on_screen())


def test_asked_while_hidden_it_runs_once_when_shown(qtbot: QtBot) -> None:
    widget = QWidget()
    qtbot.addWidget(widget)
    ran: list[str] = []
    catch_up = CatchUp(widget, lambda: ran.append("work"))
    catch_up.now()
    catch_up.now()
    catch_up.soon()
    assert ran == [] and catch_up.stale and not catch_up.timer.isActive()
    widget.show()
    qtbot.waitExposed(widget)
    assert ran == ["work"] and not catch_up.stale  # once, for the three asks
    widget.hide()
    widget.show()
    assert ran == ["work"], "shown again with nothing asked: nothing to do"
    catch_up.now()
    assert ran == ["work", "work"]  # on screen: at once


def test_on_screen_soon_waits_for_a_pause_in_the_changes(qtbot: QtBot) -> None:
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.show()
    ran: list[str] = []
    catch_up = CatchUp(widget, lambda: ran.append("work"), delay_ms=30)
    for _ in range(5):
        catch_up.soon()
    assert ran == [] and catch_up.timer.isActive()
    qtbot.waitUntil(lambda: ran == ["work"])
    qtbot.wait(60)
    assert ran == ["work"]


def test_a_widget_behind_another_docks_tab_waits_for_its_tab(qtbot: QtBot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    window.setCentralWidget(QLabel("centre"))
    front, back = QDockWidget("Front", window), QDockWidget("Back", window)
    front.setObjectName("front")
    back.setObjectName("back")
    front.setWidget(QLabel("in front"))
    inner = QWidget()
    back.setWidget(inner)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, front)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, back)
    window.tabifyDockWidget(front, back)
    window.show()
    qtbot.waitExposed(window)
    front.raise_()
    qtbot.waitUntil(lambda: back.visibleRegion().isEmpty())
    ran: list[str] = []
    catch_up = CatchUp(inner, lambda: ran.append("work"))
    assert inner.isVisible(), "what Qt says of a widget behind another dock's tab"
    catch_up.now()
    assert ran == [] and catch_up.stale
    back.raise_()
    qtbot.waitUntil(lambda: ran == ["work"])
    front.raise_()
    qtbot.wait(20)
    back.raise_()
    qtbot.wait(20)
    assert ran == ["work"]
