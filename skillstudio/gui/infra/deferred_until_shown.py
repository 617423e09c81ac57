"""Work a hidden widget puts off until it is shown (the Try a Request panel and the
suite runner): at 10,000 skills an answer costs 70-75 ms, which typing elsewhere
should not pay for while the widget is not on screen."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QDockWidget, QWidget


class CatchUp:
    """`stale`: the widget's answer is out of date and `work` runs when it is next
    shown (call `shown()` from its showEvent); `work` itself clears it.

    A widget in a dock behind another dock's tab is not hidden (Qt 6 moves it out of
    sight and isVisible() stays true): `follow(dock)` takes the dock's own word for
    whether its tab is the one shown."""

    def __init__(self, widget: QWidget, work: Callable[[], object], stale: bool = False) -> None:
        self.widget = widget
        self.work = work
        self.stale = stale
        self._dock_shown: bool | None = None  # what the dock said last, once followed

    def follow(self, dock: QDockWidget) -> None:
        self._dock_shown = dock.isVisible() and not dock.visibleRegion().isEmpty()
        dock.visibilityChanged.connect(self._on_dock_visibility)

    def _on_dock_visibility(self, shown: bool) -> None:
        self._dock_shown = shown
        if shown:
            self.shown()

    def on_screen(self) -> bool:
        return self.widget.isVisible() and self._dock_shown is not False

    def soon(self, timer: QTimer) -> None:
        """Something changed: start `timer` (which leads to `work`) if the widget is on
        screen, else note it for when it is shown."""
        if self.on_screen():
            timer.start()
        else:
            self.stale = True

    def now(self) -> None:
        """Something changed: `work` now if the widget is on screen, else when shown."""
        if self.on_screen():
            self.work()
        else:
            self.stale = True

    def shown(self) -> None:
        if self.stale and self.on_screen():
            self.work()
