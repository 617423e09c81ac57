"""The window's shell between runs: the first window's size on the screen it opens
on, the tabs kept per folder, and the Settings dialog applied."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QByteArray, QRect, QSettings, QSize, Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QTabWidget, QWidget

from .settings_dialog import SettingsDialog
from .settings_store import AppSettings
from .theme import set_preference
from .workbench.panel_layout import DOCK_ROOM

# The first window: at most this big, and within the screen's free area less a margin
# for the window frame and title bar (a 768-pixel laptop screen has about 740 free).
FIRST_MAX = QSize(1280, 860)
FRAME_MARGIN = QSize(40, 60)


TREE_WIDTH = 300  # px of the tree's first width...
CENTRE_KEEPS = 940  # ...and to what it may grow for its roots' labels: the rest of the
# window less this (at 1280 px more cost Try a Request its one row for codex)


def first_dock_sizes(window: QMainWindow, bottom: QDockWidget, side: QDockWidget) -> None:
    """First-run sizes: the editor's tab gets at least 60 % of the height (the bottom
    docks a quarter, 150-240 px: a third left it 57 % at 1024x640), the tree 300 px."""
    height = min(max(window.height() // 4, 150), 240)
    window.resizeDocks([bottom], [height], Qt.Orientation.Vertical)
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


def room_for_answers(window: QMainWindow, dock: QDockWidget) -> None:
    """Try a Request's first answer on first-run sizes (a quarter showed 2 rows): its
    dock grows to DOCK_ROOM, at most 2/5 of the height."""
    window.resizeDocks([dock], [min(DOCK_ROOM, window.height() * 2 // 5)], Qt.Orientation.Vertical)


def restore_window(window: QMainWindow, settings: QSettings) -> bool:
    """Geometry, docks and splitters as last closed; True if the docks were restored."""
    geometry = settings.value("geometry")
    if isinstance(geometry, QByteArray):
        window.restoreGeometry(geometry)
    state = settings.value("state")
    return isinstance(state, QByteArray) and window.restoreState(state)


def first_geometry(available: QRect) -> QRect:
    """The first window's frame-less geometry, centred in the screen's `available` area."""
    width = max(min(FIRST_MAX.width(), available.width() - FRAME_MARGIN.width()), 640)
    height = max(min(FIRST_MAX.height(), available.height() - FRAME_MARGIN.height()), 480)
    left = available.left() + max((available.width() - width) // 2, 0)
    top = available.top() + max((available.height() - height) // 2, 0)
    return QRect(left, top, width, height)


def tab_paths(tabs: QTabWidget) -> tuple[list[str], str]:
    """The files open in `tabs` (each tab's tooltip is its path), and the current one."""
    paths = [tabs.tabToolTip(number) for number in range(tabs.count())]
    current = tabs.currentIndex()
    return [p for p in paths if p], (paths[current] if 0 <= current < len(paths) else "")


def remember_tabs(store: AppSettings, folder: str, tabs: QTabWidget) -> None:
    """Keep the tabs open in `folder` for the next time it is opened (unsaved text is
    the recovery's: only the paths are kept here)."""
    if folder:
        paths, current = tab_paths(tabs)
        views = []
        for number in range(tabs.count()):
            if tabs.tabToolTip(number):
                inner = getattr(tabs.widget(number), "views", None)
                views.append(inner.tabText(inner.currentIndex()) if inner is not None else "")
        store.set_open_tabs(folder, paths, views)
        store.settings.setValue("open_tabs_current", current)


def restore_tabs(store: AppSettings, folder: str, open_file: Callable[[str], object]) -> int:
    """Open the tabs kept for `folder` that are still files inside it; how many opened."""
    base = os.path.realpath(folder)
    current = store.settings.value("open_tabs_current", "")
    views = store.open_tab_views(folder)
    opened = 0
    for path in store.open_tabs(folder):
        real = os.path.realpath(path)
        inside = os.path.commonpath([base, real]) == base and os.path.isfile(real)
        tab = open_file(path) if inside else None
        if tab is not None:
            opened += 1
            show_view(tab, views.get(path) or "Form")
    if isinstance(current, str) and current in store.open_tabs(folder):
        open_file(current)
    return opened


def show_view(tab: object, name: str) -> None:
    """A skill's tab on the view called `name` (the Form when there is none so called):
    each restored tab opens on the view it was left on, whatever opening it did."""
    inner = getattr(tab, "views", None)
    if not isinstance(inner, QTabWidget):
        return
    names = [inner.tabText(number) for number in range(inner.count())]
    inner.setCurrentIndex(names.index(name) if name in names else 0)


def edit_settings(
    store: AppSettings,
    folder: str,
    parent: QWidget,
    ask: Callable[[SettingsDialog], bool],
    ask_create: Callable[[str], bool],
    rules_changed: Callable[[], object],
) -> str:
    """Edit › Settings for the project in `folder`: the dialog (`ask(dialog)`: shown,
    True on OK), and on OK the theme applied at once and `rules_changed()` called when
    its skillstudio.yaml's advice rules were written; a message for the status bar ("" when
    cancelled)."""
    dialog = SettingsDialog(store, folder, parent, ask_create)
    if not ask(dialog):
        return ""
    message = dialog.apply()
    if dialog.rules_written:
        rules_changed()
    app = QApplication.instance()
    if isinstance(app, QApplication):
        set_preference(app, store.theme())
    return message or "Settings saved"
