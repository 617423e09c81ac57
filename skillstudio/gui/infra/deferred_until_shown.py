"""Work a widget puts off while it is not on screen: `CatchUp`, the app's one way to
do it (Try a Request, the suite runner, the Overlap Map, the listing headroom, a
tier's text, the activation's skill list, a skill's "Where it loads"). At 10,000
skills an answer of Try a Request costs 70-75 ms, the Overlap Map's seconds, which
typing elsewhere should not pay for while the widget is hidden."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QDockWidget, QWidget


class CatchUp(QObject):
    """Runs `work` for `widget` now or, while it is not on screen, once when it is
    next shown (it watches the widget's show events: no showEvent to write).

    `stale`: the widget's answer is out of date; `run()` clears it (call
    `run()`, or clear `stale` in `work`, when the widget answers by other ways).
    `timer` (single-shot, `delay_ms`) leads to `run()`: `soon()` starts it.

    A widget in a dock behind another dock's tab is not hidden (Qt 6 moves it out of
    sight and isVisible() stays true): the first dock among its ancestors is
    followed, its own word taken for whether its tab is the one shown."""

    def __init__(
        self,
        widget: QWidget,
        work: Callable[[], object],
        delay_ms: int = 0,
        stale: bool = False,
    ) -> None:
        super().__init__(widget)
        self.widget = widget
        self.work = work
        self.stale = stale
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(delay_ms)
        self.timer.timeout.connect(self.run)
        self._dock: QDockWidget | None = None
        self._dock_shown: bool | None = None  # what the dock said last, once followed
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show and watched is self.widget:
            self.shown()
        return False

    def _follow(self) -> None:
        """Follow the widget's dock once it is in one."""
        if self._dock is not None:
            return
        parent = self.widget.parentWidget()
        while parent is not None and not isinstance(parent, QDockWidget):
            parent = parent.parentWidget()
        if parent is None:
            return
        self._dock = parent
        self._dock_shown = parent.isVisible() and not parent.visibleRegion().isEmpty()
        parent.visibilityChanged.connect(self._on_dock_visibility)

    def _on_dock_visibility(self, shown: bool) -> None:
        self._dock_shown = shown
        if shown:
            self.shown()

    def on_screen(self) -> bool:
        self._follow()
        return self.widget.isVisible() and self._dock_shown is not False

    def soon(self, delay_ms: int | None = None) -> None:
        """Something changed: `work` after the timer's pause (`delay_ms` if given) if
        the widget is on screen, else once when it is shown."""
        if self.on_screen():
            if delay_ms is None:
                self.timer.start()
            else:
                self.timer.start(delay_ms)
        else:
            self.stale = True

    def now(self) -> None:
        """Something changed: `work` now if the widget is on screen, else when shown."""
        if self.on_screen():
            self.run()
        else:
            self.stale = True

    def run(self) -> None:
        self.timer.stop()
        self.stale = False
        self.work()

    def shown(self) -> None:
        if self.stale and self.on_screen():
            self.run()
