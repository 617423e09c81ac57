"""The bottom panels' height: Problems, Try a Request, Suites, the Overlap Map and
Changes are tabs of one dock area that shares one height, and the panel in front sets
it. Try a Request takes most of the window while it is used (its ranking, explanation
and tabs whole), Problems a third and more (five rows and more at 768 px), and View ›
Back to the Editor gives the editor its room again, until the panel in front is used
again (its tab clicked, or the keyboard in it). A height the user drags is that panel's own from
then on (kept between runs), as a share of the window's height."""

from __future__ import annotations

import json
from collections.abc import Callable

from PySide6.QtCore import QObject, QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QTabBar, QWidget

# The share of the window's height each panel's dock gets when it comes to the front
# (by its object name). At 1024x768 a quarter showed Problems' 1.5 rows and Try a
# Request's one ranking row, its tabs cut ("anation") until the edge was dragged.
SHARES = {
    "problems-dock": 0.42,
    "query-dock": 0.68,
    "suites-dock": 0.58,
    "overlap-dock": 0.58,
    "change-dock": 0.58,  # File › Compare With…'s report
}
EDITOR_SHARE = 0.25  # Back to the Editor: the panels' share then (the editor gets the rest)
LEAST, MOST = 0.12, 0.85  # a remembered share is kept within these
KEY = "panel_heights"  # the settings key of the user's own shares


class BottomRoom(QObject):
    """Sizes the bottom dock area for the panel in front (`front`)."""

    def __init__(self, window: QMainWindow, docks: list[QDockWidget], settings: QSettings) -> None:
        super().__init__(window)
        self.window, self.docks, self.settings = window, docks, settings
        self.shares: dict[str, float] = dict(SHARES)
        self.shares.update(_kept(str(settings.value(KEY, "", str))))
        self.front: QDockWidget | None = None
        self.welcome = False  # the welcome page is shown: Problems (empty) a quarter
        self.asked = 0  # the height asked for last, and the one the dock got
        self.got = 0  # (measured once laid out; another one then is the user's drag)
        self.lowered = False  # Back to the Editor lowered the panel in front
        self.bars: list[QTabBar] = []  # the docks' tab bars watched for a click
        # a panel's least height (of its dock's contents) by the dock's name: a share
        # kept from a wider screen is raised to it (Try a Request's details' tabs)
        self.least: dict[str, Callable[[], int]] = {}
        for dock in docks:
            dock.visibilityChanged.connect(
                lambda visible, d=dock: self._on_visible(d) if visible else None
            )
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus)

    def _on_visible(self, dock: QDockWidget) -> None:
        """A panel came to the front (its tab chosen, or shown from the View menu)."""
        if dock.isFloating() or dock is self.front:
            return
        self.remember()
        self.front = dock
        self.lowered = False
        QTimer.singleShot(0, lambda: self.fit(dock))  # once the tab group has switched

    def _on_focus(self, _old: QWidget | None, new: QWidget | None) -> None:
        """The keyboard went into the panel Back to the Editor lowered: its height back
        (after Ctrl+Shift+E, a click in Try a Request's box showed two ranking rows)."""
        front = self.front
        if self.lowered and front is not None and new is not None and front.isAncestorOf(new):
            self.bring(front)

    def _on_tab(self, bar: QTabBar, number: int) -> None:
        """A dock's tab clicked: the lowered panel in front gets its height back (another
        panel's tab brings that one, with its own)."""
        front = self.front
        if self.lowered and front is not None and bar.tabText(number) == front.windowTitle():
            self.bring(front)

    def _watch_tabs(self) -> None:
        """Each tab bar of the window's docks (Qt makes them as docks are tabbed)
        watched for clicks."""
        direct = Qt.FindChildOption.FindDirectChildrenOnly
        for bar in self.window.findChildren(QTabBar, options=direct):
            if not any(bar is seen for seen in self.bars):
                self.bars.append(bar)
                bar.tabBarClicked.connect(lambda number, b=bar: self._on_tab(b, number))

    def bring(self, dock: QDockWidget) -> None:
        """`dock` shown in front with its own height (also when it was in front already,
        after Back to the Editor)."""
        dock.show()
        dock.raise_()
        if dock is not self.front:
            self.remember()
        self.front = dock
        self.lowered = False
        QTimer.singleShot(0, lambda: self.fit(dock))

    def remember(self) -> None:
        """The panel in front keeps the height the user dragged it to (if they did)."""
        front, height = self.front, self.window.height()
        if front is None or not self._at_bottom(front) or height <= 0 or not self.got:
            return
        if abs(front.height() - self.got) > 4:  # not the height it was given: dragged
            asked = front.height() + self.asked - self.got  # its tab bar's too
            self.shares[front.objectName()] = min(max(asked / height, LEAST), MOST)

    def fit(self, dock: QDockWidget | None = None) -> None:
        """The dock area as high as the front panel's share of the window."""
        dock = dock or self.front
        if dock is None or not self._at_bottom(dock) or not dock.isVisible():
            return
        self.front = dock
        share = self.shares.get(dock.objectName(), SHARES["problems-dock"])
        if self.welcome and dock.objectName() == "problems-dock":
            share = min(share, EDITOR_SHARE)
        self._resize(dock, share)

    def follow_centre(self, welcome: bool) -> None:
        """The centre shows the welcome page (`welcome`) or the editor's tabs: Problems
        in front gets its height for the one shown (the page whole at 1024x640)."""
        if welcome != self.welcome:
            self.remember()
            self.welcome = welcome
            self.fit()

    def back_to_editor(self) -> None:
        """The editor's room again: the panels down to EDITOR_SHARE (the front one's
        own share is kept for its next turn in front)."""
        self.remember()
        if self.front is not None and self._at_bottom(self.front):
            share = min(EDITOR_SHARE, self.shares[self.front.objectName()])
            self._resize(self.front, share, least=False)  # the editor's room, as asked
            self.lowered = True
            self._watch_tabs()

    def save(self) -> None:
        """The user's own shares, for the next run."""
        self.remember()
        self.settings.setValue(KEY, json.dumps(self.shares))

    def _at_bottom(self, dock: QDockWidget) -> bool:
        """Docked in the bottom area (a panel the user moved aside or floated keeps
        the size they gave it)."""
        bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        return not dock.isFloating() and self.window.dockWidgetArea(dock) == bottom

    def _resize(self, dock: QDockWidget, share: float, least: bool = True) -> None:
        height = round(self.window.height() * share)
        self.window.resizeDocks([dock], [height], Qt.Orientation.Vertical)
        self.asked, self.got = height, 0
        QTimer.singleShot(0, lambda: self._measure(dock, least))

    def _measure(self, dock: QDockWidget, least: bool) -> None:
        if dock is not self.front or not dock.isVisible():
            return
        self.got = dock.height()
        short = self._short_of_least(dock) if least else 0
        if short > 0:  # raised (once) to the least its panel needs, within MOST
            share = min((self.asked + short) / max(self.window.height(), 1), MOST)
            if round(self.window.height() * share) > self.asked:
                self._resize(dock, share, least=False)

    def _short_of_least(self, dock: QDockWidget) -> int:
        """How many px `dock`'s contents lack of the least height its panel needs."""
        least, inner = self.least.get(dock.objectName()), dock.widget()
        if least is None or inner is None:
            return 0
        return least() - inner.height()


def _kept(text: str) -> dict[str, float]:
    """The shares saved by BottomRoom.save (nothing if they are not readable)."""
    try:
        kept = json.loads(text) if text else {}
    except ValueError:
        return {}
    if not isinstance(kept, dict):
        return {}
    return {
        name: min(max(float(share), LEAST), MOST)
        for name, share in kept.items()
        if name in SHARES and isinstance(share, int | float)
    }
