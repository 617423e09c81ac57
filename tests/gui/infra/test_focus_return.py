"""Tests of gui/infra/focus_return.py (the keyboard comes back to the window when one
of its dialogs closes, where no window manager gives it back)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QDialog, QLineEdit, QMainWindow, QVBoxLayout
from pytestqt.qtbot import QtBot

from skillstudio.gui.infra import focus_return
from skillstudio.gui.infra.focus_return import FocusReturn


def no_window_manager(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> tuple[QMainWindow, FocusReturn, list[int]]:
    """A shown window with its FocusReturn, as on an X server with no window manager:
    nothing is active once a dialog closes. The list counts the window's requests for
    the focus; only the focus moves a test makes reach the FocusReturn."""
    window = QMainWindow()
    qtbot.addWidget(window)
    window.show()
    returned = FocusReturn(window)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    app.focusChanged.disconnect(returned.focus_moved)
    monkeypatch.setattr(focus_return.QApplication, "activeWindow", staticmethod(lambda: None))
    asked: list[int] = []
    monkeypatch.setattr(window, "activateWindow", lambda: asked.append(1))
    return window, returned, asked


def dialog_of(window: QMainWindow) -> tuple[QDialog, QLineEdit]:
    dialog = QDialog(window)
    edit = QLineEdit(dialog)
    QVBoxLayout(dialog).addWidget(edit)
    return dialog, edit


def test_a_closed_dialog_gives_the_focus_back_to_the_window(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    window, returned, asked = no_window_manager(qtbot, monkeypatch)
    dialog, edit = dialog_of(window)
    dialog.show()
    returned.focus_moved(edit, None)  # Qt clears the focus while the dialog is still shown
    dialog.hide()  # (Escape: the dialog closed)
    qtbot.waitUntil(lambda: asked == [1], timeout=2_000)


def test_the_focus_leaving_for_another_application_is_left_alone(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    window, returned, asked = no_window_manager(qtbot, monkeypatch)
    dialog, edit = dialog_of(window)
    dialog.show()
    returned.focus_moved(edit, None)  # the dialog stays shown: another application took it
    own = QLineEdit(window)
    window.setCentralWidget(own)
    returned.focus_moved(own, None)  # the window's own widget: the user left the window
    qtbot.wait(50)
    QApplication.processEvents()
    assert asked == []
    dialog.hide()
