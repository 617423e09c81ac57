"""Work a hidden widget puts off until it is shown (the Try a Request panel and the
suite runner): at 10,000 skills an answer costs 70-75 ms, which typing elsewhere
should not pay for while the widget is not on screen."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget


class CatchUp:
    """`stale`: the widget's answer is out of date and `work` runs when it is next
    shown (call `shown()` from its showEvent); `work` itself clears it."""

    def __init__(self, widget: QWidget, work: Callable[[], object], stale: bool = False) -> None:
        self.widget = widget
        self.work = work
        self.stale = stale

    def soon(self, timer: QTimer) -> None:
        """Something changed: start `timer` (which leads to `work`) if the widget is on
        screen, else note it for when it is shown."""
        if self.widget.isVisible():
            timer.start()
        else:
            self.stale = True

    def now(self) -> None:
        """Something changed: `work` now if the widget is on screen, else when shown."""
        if self.widget.isVisible():
            self.work()
        else:
            self.stale = True

    def shown(self) -> None:
        if self.stale:
            self.work()
