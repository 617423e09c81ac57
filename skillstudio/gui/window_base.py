"""What the main window's parts share: the state MainWindow sets up and the few of its
methods the parts call. The parts (tabs, skill actions, archives, menus) build on it in
a chain, so each is typed without knowing MainWindow."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import (
    QDockWidget,
    QLineEdit,
    QMainWindow,
    QMenu,
    QStackedWidget,
    QTabWidget,
)

if TYPE_CHECKING:
    from ..core.projects.project import Project
    from ..core.scanning.registry import Registry
    from .file_view import FileView
    from .file_watcher import FileWatcher
    from .overlap_map import OverlapMap
    from .recovery import RecoveryKeeper
    from .skill_editor import SkillEditor
    from .skill_tree_model import SkillTreeModel
    from .skill_tree_view import SkillTreeView
    from .suite_runner import SuiteRunner
    from .workbench import QueryPanel


class WindowBase(QMainWindow):
    """Declarations only (and the window's signals): MainWindow.__init__ creates
    all of it.

    Signals:
    scan_finished(): a folder's scan (or a project's, after a profile switch) completed
        and the views show it.
    refresh_finished(): a refresh after files changed on disk completed (or failed and
        said so) and every view shows its outcome; changes seen meanwhile are next.
    """

    scan_finished = Signal()
    refresh_finished = Signal()

    settings: QSettings
    base: str
    projects: list[Project]
    registries: list[Registry]
    recovery: RecoveryKeeper | None
    documents: dict[str, SkillEditor]
    file_views: dict[str, FileView]
    tabs: QTabWidget
    centre: QStackedWidget
    tree: SkillTreeView
    tree_model: SkillTreeModel
    filter_box: QLineEdit
    query_panel: QueryPanel
    suite_runner: SuiteRunner
    tree_dock: QDockWidget
    problems_dock: QDockWidget
    query_dock: QDockWidget
    suites_dock: QDockWidget
    overlap_dock: QDockWidget
    overlap_map: OverlapMap
    _open_after_scan: str
    watcher: FileWatcher
    # MainWindow's own methods that the parts call
    open_path: Callable[..., bool]
    reload: Callable[[], None]
    focus_query_panel: Callable[[], None]
    run_suite: Callable[[], None]
    _update_problems: Callable[[], None]
    _refresh_views: Callable[..., None]
    warn: Callable[[str], None]
    profile_menu: Callable[[QMenu, str], None]
