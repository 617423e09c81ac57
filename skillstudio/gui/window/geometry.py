"""The window's size between runs: the first window's size on the screen it opens on,
the tree's first width, and the geometry and docks restored as last closed."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QRect, QSettings, QSize, Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow

# The first window: at most this big, and within the screen's free area less a margin
# for the window frame and title bar (a 768-pixel laptop screen has about 740 free).
FIRST_MAX = QSize(1280, 860)
FRAME_MARGIN = QSize(40, 60)
# The version of the docks' saved layout: one saved before is not restored (version 0:
# the bottom panels a quarter of the height, Try a Request with one ranking row at
# 1024x768; version 1: the Changes panel beside the tree, too narrow for its report).
STATE_VERSION = 2


TREE_WIDTH = 300  # px of the tree's first width...
CENTRE_KEEPS = 940  # ...and to what it may grow for its roots' labels: the rest of the
# window less this (at 1280 px more cost Try a Request its one row for codex)


def first_tree_width(window: QMainWindow, side: QDockWidget) -> None:
    """First-run sizes: the tree 300 px (the bottom docks' height: bottom_room.py)."""
    window.resizeDocks([side], [TREE_WIDTH], Qt.Orientation.Horizontal)
    side.setProperty("first-width", TREE_WIDTH)


def fit_tree(window: QMainWindow, dock: QDockWidget, wanted: int) -> None:
    """On first-run sizes (the user has not moved the tree's edge), the tree as wide as
    its widest root label needs (`wanted` px), leaving CENTRE_KEEPS px to the rest: at 1366 px
    "claude-code · project · wins over co…" was cut beside 800 px of welcome page."""
    first = dock.property("first-width")
    if not isinstance(first, int) or abs(dock.width() - first) > 2:
        return
    width = min(wanted, max(window.width() - CENTRE_KEEPS, TREE_WIDTH))
    if width > dock.width():
        window.resizeDocks([dock], [width], Qt.Orientation.Horizontal)
        dock.setProperty("first-width", width)


def restore_window(window: QMainWindow, settings: QSettings) -> bool:
    """Geometry, docks and splitters as last closed; True if the docks were restored."""
    geometry = settings.value("geometry")
    if isinstance(geometry, QByteArray):
        window.restoreGeometry(geometry)
    state = settings.value("state")
    return isinstance(state, QByteArray) and window.restoreState(state, STATE_VERSION)


def first_geometry(available: QRect) -> QRect:
    """The first window's frame-less geometry, centred in the screen's `available` area."""
    width = max(min(FIRST_MAX.width(), available.width() - FRAME_MARGIN.width()), 640)
    height = max(min(FIRST_MAX.height(), available.height() - FRAME_MARGIN.height()), 480)
    left = available.left() + max((available.width() - width) // 2, 0)
    top = available.top() + max((available.height() - height) // 2, 0)
    return QRect(left, top, width, height)
