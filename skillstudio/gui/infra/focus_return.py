"""The keyboard comes back to the window when one of its dialogs closes.

A window manager gives the focus back to a dialog's parent when the dialog closes.
Without one (an X server with no window manager: Xvfb, some kiosk and remote
sessions), X drops the input focus to the root window: the main window still gets
typed text from a pointer-root focus, but Qt sees no active window, so no shortcut
fires. A first-time reviewer pressed Ctrl+S after Go to Line and nothing was saved,
with no message. So when the focus leaves a widget for none and that widget's
window has just been hidden or deleted (a dialog closed; never another application
taking the focus: the widget it left is then still shown), the window asks for the
focus again, unless another of the application's windows has it by then.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget
from shiboken6 import isValid


class FocusReturn(QObject):
    """Gives `window` the focus back when a dialog closes into no focus."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self.focus_moved)

    def focus_moved(self, old: QWidget | None, now: QWidget | None) -> None:
        """The keyboard focus moved from `old` to `now` (None: no widget of ours)."""
        if now is None and old is not None and old.window() is not self.window:
            # (the dialog is still shown while its focus is cleared: look once it is not)
            QTimer.singleShot(0, lambda: self.take_back(old))

    def take_back(self, old: QWidget) -> None:
        """Activate the window if the widget that lost the focus is gone or hidden (its
        dialog closed) and no window of the application has the focus."""
        if isValid(old) and old.isVisible():
            return  # (a widget still shown lost it: the user went to another application)
        idle = QApplication.activeWindow() is None and QApplication.activeModalWidget() is None
        if idle and self.window.isVisible():
            self.window.activateWindow()
