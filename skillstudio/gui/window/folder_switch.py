"""Opening a folder in the window and closing it (File › Open Folder, Close Folder):
what the window drops of the folder it leaves, and what it starts for the new one.

The folder's projects are worked out off the GUI thread (a walk of every folder below
it at 10,000 skills takes 100-250 ms) while the window keeps painting
(infra/background.py's answer_meanwhile)."""

from __future__ import annotations

import os
from functools import partial
from typing import Protocol

from ...core.projects.project import Project, UsageError, resolve_projects
from ...core.ranking.match_index import MatchIndex
from ..controllers.archives import Archives
from ..controllers.document_tabs import DocumentTabs
from ..controllers.project_profiles import ProjectProfiles, with_remembered
from ..controllers.refresh import SlicedRefresh
from ..controllers.scan_controller import Scanning
from ..controllers.skill_views import SkillViews
from ..dialogs.questions import Dialogs
from ..infra.background import answer_meanwhile
from ..infra.file_watcher import FileWatcher
from ..infra.recent_folders import RecentFolders
from ..infra.settings_store import AppSettings
from ..models.app_context import AppContext
from ..panels.change_panel import ChangePanel
from ..panels.overlap_map import OverlapMap
from ..panels.suite_runner import SuiteRunner
from .kept_tabs import KeptTabs


class MainWindow(Protocol):
    """What of the main window (window/main_window.py) opening and closing a folder
    uses (a protocol: the main window imports this module, not the other way round)."""

    archives: Archives
    dialogs: Dialogs
    app_settings: AppSettings
    context: AppContext
    recent: RecentFolders
    suite_runner: SuiteRunner
    overlap_map: OverlapMap
    change_panel: ChangePanel
    kept_tabs: KeptTabs
    document_tabs: DocumentTabs
    scans: Scanning
    watcher: FileWatcher
    refresher: SlicedRefresh
    views: SkillViews
    project_profiles: ProjectProfiles

    def show_centre(self) -> None: ...

    def give_panels(self, indexes: list[MatchIndex]) -> None: ...

    def setWindowTitle(self, title: str) -> None: ...


def open_folder(window: MainWindow, path: str, profile: str | None = None) -> bool:
    """Open a folder (or a project's folder) in `window`; the scan runs in the
    background. False when it is not opened (said why), or the user kept the tabs of
    the folder open now. A `.skill` archive is unpacked first (Archives.open_archive)."""
    if path.endswith(".skill") and os.path.isfile(path):
        return window.archives.open_archive(path)
    found, error = answer_meanwhile(partial(_projects_at, path, profile, os.getcwd()))
    if isinstance(found, UsageError):
        window.dialogs.warn(str(found))
        return False
    if error is not None:  # a core bug on the folder's configuration: say so, go on
        window.dialogs.warn(f"Not opened: reading the project at {path} failed: {error}")
        return False
    projects = found
    registries = [project.registry(track_files=True) for project in projects]
    if profile is None:  # as chosen for each project's folder before (Settings)
        store = window.app_settings
        projects = with_remembered(projects, store.folder_profile, store.default_profile())
        registries = [project.registry(track_files=True) for project in projects]
    if not _leave_folder(window, os.path.abspath(path)):
        return False
    window.suite_runner.clear()  # the previous folder's suites go at once
    window.overlap_map.clear()  # and its pairs
    window.change_panel.clear()  # and its comparison
    window.kept_tabs.expect(window.context.base)
    _show_folder(window)
    window.setWindowTitle(f"SkillStudio — {window.context.base}")
    window.recent.remember(window.context.base)
    window.scans.start(projects, registries, window.views.scan_preparer(projects))
    return True


def close_folder(window: MainWindow) -> bool:
    """File › Close Folder: its tabs closed (unsaved work asked about) and kept for its
    next opening, the welcome page shown; False if the user kept the tabs."""
    if not _leave_folder(window, ""):
        return False
    window.change_panel.clear()
    _show_folder(window)
    window.give_panels([])
    window.setWindowTitle("SkillStudio")
    return True


def _leave_folder(window: MainWindow, folder: str) -> bool:
    """The open folder's tabs closed and kept for its next opening, its scan, watcher
    and refresh stopped, `folder` made the open one ("" none); False (nothing changed)
    if the user kept the tabs."""
    window.kept_tabs.remember(window.context.base)
    closed = window.document_tabs.close_all()
    window.kept_tabs.release()
    if not closed:
        return False
    window.scans.cancel()
    window.watcher.stop()
    window.refresher.drop()
    window.context.open(folder)
    return True


def _show_folder(window: MainWindow) -> None:
    """The views, the centre (welcome page or tabs) and the profile box follow the
    folder now open."""
    window.views.clear_failures()
    window.views.refresh()
    window.show_centre()
    window.project_profiles.sync_box()


def _projects_at(path: str, profile: str | None, cwd: str) -> list[Project] | UsageError:
    """The projects of a folder opened (off the GUI thread: answer_meanwhile), or why
    there are none."""
    try:
        return resolve_projects([path], [], None, profile, cwd)
    except UsageError as exc:
        return exc
