"""CatchUp (gui/infra/deferred_until_shown.py), the app's one way to put a widget's
work off while it is not on screen: asked while hidden, the work runs once when the
widget is shown; on screen, at once or after its pause; a widget in a dock behind
another dock's tab counts as hidden (Qt says it is visible)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QWidget
from pytestqt.qtbot import QtBot

from skillstudio.gui.infra.deferred_until_shown import CatchUp


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
