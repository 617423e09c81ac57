"""MainWindow: lays out the skill tree, the editor tabs and the panels, and wires the
controllers that do the work (threads.py says which thread each part runs on)."""

from __future__ import annotations

import os
import sys

from PySide6.QtCore import QEvent, QPoint, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QShowEvent, QStatusTipEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QProgressBar,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...core.delivery.headroom import LISTING_OVER_BUDGET
from ...core.model.diagnostics import Diagnostic
from ...core.projects.config import CONFIG_NAME
from ...core.ranking.match_index import MatchIndex
from ..controllers.archives import Archives
from ..controllers.document_tabs import DocumentTabs
from ..controllers.project_profiles import ProjectProfiles
from ..controllers.quick_fixes import ProblemFixes
from ..controllers.recovery_keeper import RecoveryKeeper
from ..controllers.recovery_offers import RecoveryOffers
from ..controllers.refresh import SlicedRefresh, freeze_long_lived
from ..controllers.scan_controller import Landed, Scanning
from ..controllers.skill_actions import SkillActions
from ..controllers.skill_views import SkillViews
from ..controllers.tree_controller import SkillTree
from ..dialogs.questions import Dialogs
from ..dialogs.settings_dialog import edit_settings
from ..editor.file_view import FileView
from ..editor.skill_editor import SkillEditor
from ..editor.source_editor import SourceEditor
from ..infra.collector import collect_on_gui_thread
from ..infra.file_watcher import FileWatcher
from ..infra.focus_return import FocusReturn
from ..infra.icons import app_icon
from ..infra.places import samples_folder
from ..infra.recent_folders import RecentFolders
from ..infra.scan_thread import ScanRead
from ..infra.settings_store import AppSettings
from ..models.app_context import AppContext
from ..models.problems_model import ProblemsModel
from ..models.skill_tree_model import KIND_ROLE, PATH_ROLE, SkillTreeModel
from ..panels.change_panel import attach as attach_changes
from ..panels.overlap_map import OverlapMap
from ..panels.problems_panel import ProblemsPanel
from ..panels.scrolled import scrolled
from ..panels.skill_tree_view import SkillTreeView
from ..panels.suite_live import attach as attach_suite_live
from ..panels.suite_runner import SuiteRunner
from ..panels.workbench.query_panel import QueryPanel
from . import geometry
from .bottom_room import BottomRoom
from .centre import Centre
from .folder_switch import close_folder, open_folder
from .kept_tabs import KeptTabs
from .menus import Commands, build_menus
from .status_line import StatusLine
from .welcome_page import WelcomePage

SWITCH_INTERVAL_S = 0.001  # how long a worker thread may keep the interpreter lock


class MainWindow(QMainWindow):
    """The window lays out its widgets and connects its controllers; they decide:
    `context` (what is open), `scans` (scan threads and the hand-over of their
    registries), `refresher` (changes on disk, F5), `views` and `skill_tree` (what
    the tree, Problems and the status line show), `document_tabs` (open skills and
    files), `skill_actions` and `archives` (operations on skill folders),
    `project_profiles` (the profile per project), `recovery_offers`, and `dialogs`
    (every question asked: tests answer them there).

    Signals:
    scan_finished(): a folder's scan (or a project's, after a profile switch) completed
        and the views show it.
    refresh_finished(): a refresh after files changed on disk completed (or failed and
        said so) and every view shows its outcome; changes seen meanwhile are next.
    """

    scan_finished = Signal()
    refresh_finished = Signal()

    def __init__(
        self,
        settings: QSettings,
        parent: QWidget | None = None,
        recovery_folder: str | None = None,
        context: AppContext | None = None,
    ) -> None:
        """`recovery_folder`: where unsaved text is kept for crash recovery (the app
        passes its state folder's recovery/; None keeps none, as in tests); `context`:
        what is open (app.main() builds it; a window of its own by default)."""
        super().__init__(parent)
        # Worker threads (scan, indexes, listings) hold the interpreter lock up to the
        # switch interval each time the GUI thread wants it, and Qt calls into Python
        # for every row it lays out: 1 ms instead of 5 ms, with Problems' smaller pages,
        # cut the stalls while a scan runs (bench_gui --profile agentskills, 10,000
        # skills: 138 -> 55 ms).
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        collect_on_gui_thread()  # never in a worker: it would destroy GUI objects there
        self.settings = settings
        self.app_settings = AppSettings(settings)
        self.context = context if context is not None else AppContext(self)
        self.dialogs = Dialogs(self)
        self.focus_return = FocusReturn(self)  # shortcuts work after a dialog, with no WM
        self.recent = RecentFolders(settings)
        self.recovery = RecoveryKeeper(recovery_folder, self) if recovery_folder else None
        self._open_after_scan = ""  # a SKILL.md to open once the scan lands (an unpacked .skill)
        self.setWindowTitle("SkillStudio")
        self.setWindowIcon(app_icon())
        self.setStatusBar(StatusLine(self))  # messages cut after a word, never over the rest
        screen = self.screen()
        if screen is not None:  # within the screen it opens on (restore_state may move it)
            self.setGeometry(geometry.first_geometry(screen.availableGeometry()))
        self._lay_out()
        self.bottom_room = BottomRoom(self, self.bottom_docks(), settings)
        self.bottom_room.least["query-dock"] = lambda: self.query_panel.fit.least_room(
            self.query_panel
        )
        self._make_controllers()
        self._connect()
        self.menu_actions = build_menus(
            self,
            self._commands(),
            self.recent,
            self.open_path,
            # Try a Request's entry is its own (Ctrl+K)
            [self.tree_dock, *(d for d in self.bottom_docks() if d is not self.query_dock)],
            self.overlap_dock,
        )
        self._sized = False  # first-run sizes when shown
        self._apply_settings()
        self.show_centre()
        self.statusBar().showMessage("Ready")

    # -- layout ----------------------------------------------------------------------
    def _lay_out(self) -> None:
        self.tree_model = SkillTreeModel(self)
        self.filter_box = QLineEdit(self)
        self.filter_box.setPlaceholderText("Filter skills…")
        self.filter_box.setClearButtonEnabled(True)
        self.tree = SkillTreeView(lambda: self.context.base, self)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        side = QWidget(self)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(4, 4, 4, 4)
        side_layout.addWidget(self.filter_box)
        side_layout.addWidget(self.tree)
        self.tree_dock = self._dock(
            "Skills", "skills-dock", side, Qt.DockWidgetArea.LeftDockWidgetArea
        )

        self.tabs = QTabWidget(self)
        self.tabs.setTabsClosable(False)  # each tab gets a neutral close button (DocumentTabs)
        self.tabs.setMovable(True)
        self.tabs.setDocumentMode(True)
        self.welcome = WelcomePage(samples_folder(), self)
        self.centre = Centre(self)
        self.centre.addWidget(self.welcome)
        self.centre.addWidget(self.tabs)
        self.setCentralWidget(self.centre)
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)

        bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        self.problems_model = ProblemsModel(self)
        self.problems = ProblemsPanel(self.problems_model, self)
        # no scroll area: the list scrolls itself (two nested scroll bars at 1024 px)
        self.problems_dock = self._dock("Problems", "problems-dock", self.problems, bottom)
        self.query_panel = QueryPanel(self.context, self)
        self.query_dock = self._dock(
            "Try a Request", "query-dock", scrolled(self.query_panel), bottom
        )
        self.tabifyDockWidget(self.problems_dock, self.query_dock)
        self.suite_runner = SuiteRunner(self.context, self)
        self.suite_live = attach_suite_live(self.suite_runner)  # its Ask a model tab
        self.suites_dock = self._dock("Suites", "suites-dock", scrolled(self.suite_runner), bottom)
        self.tabifyDockWidget(self.query_dock, self.suites_dock)
        self.overlap_map = OverlapMap(self.context, self)  # worked out off the GUI thread
        self.overlap_dock = self._dock("Overlap Map", "overlap-dock", self.overlap_map, bottom)
        self.tabifyDockWidget(self.suites_dock, self.overlap_dock)
        self.overlap_dock.hide()  # opened from the View menu (its work is seconds at 10,000)
        self.change_panel = attach_changes(  # a tab after the Overlap Map's, hidden too
            self,
            lambda: self.context.base,
            self.try_request,
            lambda: self.context.projects,
            self.overlap_dock,
        )
        self.problems_dock.raise_()  # the panels behind its tab wait until theirs is chosen

        self.progress = QProgressBar(self)
        self.progress.setMaximumWidth(220)
        self.progress.setTextVisible(True)
        self.progress.setVisible(False)
        self.statusBar().addPermanentWidget(self.progress)

    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _make_controllers(self) -> None:
        context, dialogs, status = self.context, self.dialogs, self.statusBar()
        self.watcher = FileWatcher(self)
        self.skill_tree = SkillTree(self.tree, self.tree_model, self.filter_box, self)
        self.views = SkillViews(
            context, self.skill_tree, self.problems_model, self.problems, status, self
        )
        self.document_tabs = DocumentTabs(self.tabs, context, dialogs, status, self.recovery, self)
        self.recovery_offers = (
            RecoveryOffers(self.recovery.folder, context, self.document_tabs, dialogs, self)
            if self.recovery is not None
            else None
        )
        self.scans = Scanning(context, self.progress, status, self)
        self.tree.reading = lambda: self.scans.busy  # "Reading the folder…" meanwhile
        self.refresher = SlicedRefresh(
            context, self.views, self.document_tabs, context.built_indexes, self
        )
        self.archives = Archives(dialogs, status, self._open_unpacked, lambda: context.base, self)
        self.kept_tabs = KeptTabs(self.app_settings, self.tabs)
        self.skill_actions = SkillActions(
            context,
            self.document_tabs,
            self.archives,
            dialogs,
            self.reload,
            self,
            self.app_settings.endpoints,
        )
        self.project_profiles = ProjectProfiles(
            context,
            self.scans,
            self.document_tabs,
            dialogs,
            lambda: self.document_tabs.current_path() or self.skill_tree.current_path(),
            self._show_projects,
            self,
        )
        self.skill_actions.created.connect(self._reveal_made)
        status.addPermanentWidget(self.project_profiles.project_label)
        status.addPermanentWidget(self.project_profiles.profile_box)

    def _connect(self) -> None:
        status = self.statusBar()
        if self.recovery is not None:
            self.recovery.failed.connect(lambda text: status.showMessage(text, 15_000))
        self.watcher.skills_changed.connect(self.refresher.changed)
        self.watcher.limited.connect(lambda text: status.showMessage(text, 15_000))
        self.refresher.finished.connect(self.refresh_finished)
        self.scans.read.connect(self._on_scan_read)
        self.scans.landed.connect(self._on_scan_landed)
        self.project_profiles.switched.connect(self.scan_finished)
        self.project_profiles.switched.connect(self.change_panel.profile_switched)
        self.project_profiles.chosen.connect(self.app_settings.set_folder_profile)
        self.project_profiles.recorded.connect(lambda said: self.statusBar().showMessage(said))
        self.project_profiles.remembered = self.app_settings.folder_profile  # its words
        self.tabs.currentChanged.connect(self._on_current_tab)
        self.tree.clicked.connect(self.project_profiles.sync_box)
        self.tree.customContextMenuRequested.connect(self._on_tree_menu)
        self.skill_tree.skill_activated.connect(self.open_skill)
        self.skill_tree.file_activated.connect(self.document_tabs.open_file)
        self.welcome.open_folder_requested.connect(self._on_open)
        self.welcome.open_project_requested.connect(self._on_open_project)
        self.welcome.folder_chosen.connect(self.open_path)
        self.problems.problem_activated.connect(self._on_problem_activated)
        self.problem_fixes = ProblemFixes(
            self.problems, self.document_tabs.editors, self.open_skill, self.context
        )
        self.document_tabs.skill_opened.connect(self.context.choose_project_of)
        self.document_tabs.skill_checked.connect(self.views.skill_checked)
        self.document_tabs.room_wanted.connect(self.bottom_room.back_to_editor)
        self.document_tabs.skill_closed.connect(lambda _path: self.views.update_problems())
        self.document_tabs.skill_closed.connect(
            lambda _path: self.kept_tabs.follow(self.context.base)
        )
        for panel in (self.query_panel, self.suite_runner, self.overlap_map):
            self.views.skills_changed.connect(panel.skills_changed)
        self.context.likely_indexes.failed.connect(
            lambda text: self.views.fail(text, self.context.base)
        )
        self.query_panel.case_added.connect(self.suite_runner.suite_changed)
        self.query_panel.said.connect(lambda text: self.statusBar().showMessage(text, 15_000))
        self.query_panel.current_suite = self.suite_runner.shown_suite
        self.query_panel.remember_suite = self.app_settings.keep_suite  # not listed: kept
        self.suite_runner.kept_suites = self.app_settings.kept_suites
        self.suite_runner.unsaved = self.document_tabs.unsaved_in
        self.query_panel.open_requested.connect(self.open_skill)
        self.suite_runner.request_chosen.connect(self.try_request)
        self.overlap_map.open_requested.connect(self.open_skill)

    def _commands(self) -> Commands:
        documents = self.document_tabs
        return Commands(
            open_folder=self._on_open,
            open_project=self._on_open_project,
            new_skill=self.skill_actions.new_skill,
            unpack=self.archives.unpack,
            compare_with=self.change_panel.compare_with,
            save=documents.save_current,
            save_all=documents.save_all,
            revert=documents.revert_current,
            reload=self.reload,
            close_tab=documents.close_current,
            close_folder=self.close_folder,
            quit=self.close,
            undo=lambda: documents.undo(False),
            redo=lambda: documents.undo(True),
            find=documents.find,
            go_to_line=documents.go_to_line,
            filter_skills=self.filter_box.setFocus,
            settings=self.edit_settings,
            wrap_lines=self.wrap_source_lines,
            show_view=documents.show_view,
            try_request=self.focus_query_panel,
            back_to_editor=self.back_to_editor,
            run_suite=self.run_suite,
            user_guide=self.dialogs.user_guide,
            shortcuts=self.dialogs.keyboard_shortcuts,
            about=self.dialogs.about,
        )

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._sized:
            self._sized = True
            self.size_docks()

    def size_docks(self) -> None:
        """First-run sizes: the tree's width, the bottom panels' height for the one
        in front."""
        geometry.first_tree_width(self, self.tree_dock)
        self.bottom_room.fit()

    def bottom_docks(self) -> list[QDockWidget]:
        """The panels that share the bottom dock area's height (bottom_room.py)."""
        docks = [self.problems_dock, self.query_dock, self.suites_dock, self.overlap_dock]
        return docks + ([self.change_panel.dock] if self.change_panel.dock is not None else [])

    def back_to_editor(self) -> None:
        """View › Back to the Editor (Ctrl+Shift+E): the bottom panels down to a
        quarter of the height, the keyboard in the editor."""
        self.bottom_room.back_to_editor()
        editor = self.tabs.currentWidget()
        if editor is not None:
            editor.setFocus()

    def restore_state(self) -> None:
        """Window geometry, docks and splitters as they were last closed."""
        if geometry.restore_window(self, self.settings):
            self._sized = True  # the user's own sizes

    def show_centre(self) -> None:
        """The welcome page while no tab is open."""
        self.bottom_room.follow_centre(not self.tabs.count())
        if self.tabs.count():
            self.centre.setCurrentWidget(self.tabs)
            return
        self.welcome.set_state(self.context.base, self.recent.folders())
        self.centre.setCurrentWidget(self.welcome)

    # -- the window's public face (app.py, tests, benchmarks) ------------------------------
    @property
    def documents(self) -> dict[str, SkillEditor]:
        """The open skills' tabs by SKILL.md path (DocumentTabs.editors)."""
        return self.document_tabs.editors

    @property
    def file_views(self) -> dict[str, FileView]:
        return self.document_tabs.file_views

    @property
    def scanning(self) -> bool:
        """A folder's scan runs (Scanning.busy)."""
        return self.scans.busy

    @property
    def profile_box(self) -> QComboBox:
        return self.project_profiles.profile_box

    @property
    def project_label(self) -> QLabel:
        return self.project_profiles.project_label

    def open_skill(self, path: str, line: int = 0, column: int = 1) -> SkillEditor | None:
        """The skill's tab, opened if need be (DocumentTabs.open_skill)."""
        return self.document_tabs.open_skill(path, line, column)

    def open_path(self, path: str, profile: str | None = None) -> bool:
        """Open a folder (or a project's folder); the scan runs in the background
        (folder_switch.open_folder). `scan_finished` is emitted when the tree and
        Problems show the new folder."""
        return open_folder(self, path, profile)

    def close_folder(self) -> bool:
        """File › Close Folder (folder_switch.close_folder); False if the user kept the
        tabs."""
        return close_folder(self)

    def edit_settings(self) -> None:
        """Edit › Settings; the theme and the context window apply at once."""
        number = self.project_profiles.current_project()
        projects = self.context.projects
        project = projects[number] if number < len(projects) else None
        default = self.app_settings.default_profile()
        message = edit_settings(
            self.app_settings,
            project.base if project is not None else "",
            self,
            self.dialogs.ask_settings,
            self.dialogs.ask_create_config,
            lambda: self.project_profiles.reread(number),
            project.chosen_profile if project is not None else None,
        )
        if message:
            self._apply_settings()
            self.statusBar().showMessage(message, 10_000)
            self.project_profiles.follow_default(default, self.app_settings.default_profile())

    def _apply_settings(self) -> None:
        self.query_panel.apply_settings(self.app_settings)  # context window, endpoints
        self.suite_live.set_endpoints(self.app_settings.endpoints())
        self.suite_live.keep_in(self.app_settings)  # Request as, remembered per project
        wrap = bool(self.settings.value("wrap_source", True, bool))  # prose reads wrapped
        self.menu_actions.wrap_action.setChecked(wrap)
        if SourceEditor.wrap != wrap:  # setChecked emits nothing when the box already agrees
            self.wrap_source_lines(wrap)

    def wrap_source_lines(self, on: bool) -> None:
        """View › Wrap Long Lines in Source, for every Source tab and the next ones."""
        self.settings.setValue("wrap_source", on)
        SourceEditor.wrap = on
        for editor in self.documents.values():
            editor.source.apply_wrap()

    def _reveal_made(self, path: str) -> None:
        """A skill just made, shown in the tree even where the filter hid it."""
        said = self.skill_tree.reveal(path)
        if said:
            self.statusBar().showMessage(said, 10_000)

    def reload(self) -> None:
        """Read the folder again now (F5), unless its scan runs."""
        if not self.scanning:
            self.refresher.reload()

    def focus_query_panel(self) -> None:
        self.bottom_room.bring(self.query_dock)  # with most of the height
        self.query_panel.query.setFocus()
        self.query_panel.query.selectAll()

    def run_suite(self) -> None:
        self.bottom_room.bring(self.suites_dock)
        self.suite_runner.run(rescan=True, force=True)

    def try_request(self, text: str) -> None:
        """A suite case's request, loaded into the Try a Request panel on its skills."""
        registry = self.suite_runner.registry
        if registry is not None and registry in self.context.registries:
            self.context.choose(self.context.registries.index(registry))
        self.bottom_room.bring(self.query_dock)
        self.query_panel.load_request(text)
        self.query_panel.query.setFocus()

    # -- wiring ------------------------------------------------------------------------
    def _on_scan_read(self, read: ScanRead) -> None:
        self.views.show_scan(read.prepared, read.resume)
        self.project_profiles.sync_box()

    def _on_scan_landed(self, landed: Landed) -> None:
        self.give_panels(landed.indexes)
        for registry, message in landed.errors:
            where = registry.roots[0].path if registry.roots else self.context.base
            self.views.fail(f"{message}. It is read again when its files change (or F5).", where)
        freeze_long_lived()
        self.tree.viewport().update()  # an empty tree says why, now that reading ended
        geometry.fit_tree(self, self.tree_dock, self.tree.roots_width())
        self.kept_tabs.landed(self.context.base, self.document_tabs.open_file)
        if self._open_after_scan:
            self.open_skill(self._open_after_scan)
            self._open_after_scan = ""
        if self.recovery_offers is not None:
            QTimer.singleShot(0, self.recovery_offers.offer)
        self.scan_finished.emit()

    def give_panels(self, indexes: list[MatchIndex]) -> None:
        """The context's projects are complete (`indexes`: the match indexes built for
        them): the panels are told (they follow the context), the watcher watches them."""
        self.context.adopt_indexes(indexes)
        self.context.announce()
        self.watcher.watch(self.context.roots())

    def _show_projects(self, indexes: list[MatchIndex]) -> None:
        """A project was read as another profile: every view and panel shows it."""
        self.views.refresh()
        self.give_panels(indexes)

    def _open_unpacked(self, folder: str, skill_md: str) -> bool:
        if not self.open_path(folder):
            return False
        self._open_after_scan = skill_md
        return True

    def _on_open(self) -> None:
        folder = self.dialogs.ask_folder("Open a folder of skills", self.context.base)
        if folder:
            self.open_path(folder)

    def _on_open_project(self) -> None:
        path = self.dialogs.ask_file(
            "Open a SkillStudio project",
            self.context.base,
            f"SkillStudio project ({CONFIG_NAME})",
        )
        if path:
            self.open_path(os.path.dirname(path))

    def _on_current_tab(self, _index: int) -> None:
        """The welcome page when no tab is left; Problems' "current skill only", Try a
        Request's "instead", the tree and the profile box follow the current tab."""
        self.show_centre()
        self.kept_tabs.follow(self.context.base)  # (a crash keeps the tab list)
        path = self.document_tabs.current_path()
        self.views.follow(path)
        self.query_panel.set_edited(path or None)  # "would pick X instead" of it
        self.project_profiles.sync_box()

    def _on_problem_activated(self, diag: Diagnostic) -> None:
        if diag.path.endswith("SKILL.md"):
            self.open_skill(diag.path, diag.line, diag.column or 1)
        elif diag.code == LISTING_OVER_BUDGET:  # the whole listing: Headroom shows it
            registry = self.views.listing_registry(diag)
            if registry in self.context.registries:
                self.context.choose(self.context.registries.index(registry))
            self.bottom_room.bring(self.query_dock)
            self.query_panel.details.setCurrentWidget(self.query_panel.headroom)

    def _on_tree_menu(self, pos: QPoint) -> None:
        index = self.tree.indexAt(pos)
        if not index.isValid():
            return
        kind, path = index.data(KIND_ROLE), index.data(PATH_ROLE)
        menu = QMenu(self)
        self.skill_actions.fill_menu(menu, kind, path)
        if kind == "root":
            menu.addSeparator()
            self.project_profiles.fill_menu(menu, path)
        menu.exec(self.tree.viewport().mapToGlobal(pos))

    def event(self, event: QEvent) -> bool:
        """A menu's empty status tip would clear the summary line (N skills · N
        errors) for good; the menus have no tips, so an empty one is dropped."""
        if isinstance(event, QStatusTipEvent) and not event.tip():
            return True
        return super().event(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.document_tabs.release():
            event.ignore()
            return
        self.scans.cancel()
        self.refresher.drop()
        self.kept_tabs.remember(self.context.base)
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("state", self.saveState(geometry.STATE_VERSION))
        self.bottom_room.save()
        self.watcher.stop()
        event.accept()
