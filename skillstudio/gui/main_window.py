"""MainWindow: skill tree, editor tabs, Problems panel, status bar."""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Callable, Iterator

from PySide6.QtCore import (
    QByteArray,
    QModelIndex,
    QPoint,
    QSettings,
    Qt,
    QTimer,
    QUrl,
    Signal,
)
from PySide6.QtGui import QAction, QCloseEvent, QDesktopServices, QKeySequence, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QHeaderView,
    QInputDialog,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QTableView,
    QTabWidget,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from .. import __version__
from ..core import recovery
from ..core.archive import ArchiveError, pack, unpack
from ..core.diagnostics import Diagnostic
from ..core.editing import EditError
from ..core.profiles import PROFILE_NAMES
from ..core.project import CONFIG_NAME, Project, UsageError, resolve_projects
from ..core.registry import Registry
from ..core.saving import SaveError
from ..core.skillops import (
    OperationError,
    delete_to_trash,
    duplicate_skill,
    new_skill,
    rename_skill,
)
from ..core.text import counted
from .file_view import FileView
from .file_watcher import FileWatcher
from .icons import app_icon
from .problems_model import DIAGNOSTIC_ROLE, ProblemsModel
from .recovery import RecoveryKeeper, RestoreDialog
from .scanner import ScanThread, one_line
from .skill_document import SkillDocument
from .skill_editor import SkillEditor
from .skill_tree_model import KIND_ROLE, PATH_ROLE, SkillTreeModel
from .suite_runner import SuiteRunner
from .workbench import QueryPanel

MAX_RECENT = 10
FILTER_DELAY_MS = 120
AUTO_EXPAND_MAX = 2000
REFRESH_SLICE_S = 0.015  # a refresh of many files runs in slices this long between events


def freeze_long_lived() -> None:
    """Move every object alive now (registries, match indexes, models) out of the
    cyclic collector's sight. They hold no reference cycles, so reference counting
    still frees them when replaced; without this, each full collection walks half
    a million objects at 10,000 skills: an 80-100 ms freeze at random moments
    while the user types."""
    gc.freeze()


class MainWindow(QMainWindow):
    """Signals:
    scan_finished(): a folder's scan completed and the views show it.
    """

    scan_finished = Signal()

    def __init__(
        self,
        settings: QSettings,
        parent: QWidget | None = None,
        recovery_folder: str | None = None,
    ) -> None:
        """`recovery_folder`: where unsaved text is kept for crash recovery (the app
        passes its state folder's recovery/; None keeps none, as in tests)."""
        super().__init__(parent)
        self.settings = settings
        self.recovery = RecoveryKeeper(recovery_folder, self) if recovery_folder else None
        if self.recovery is not None:
            self.recovery.failed.connect(lambda text: self.statusBar().showMessage(text, 15_000))
        self.interactive = True  # False (--smoke-test): warnings go to stderr, not a dialog
        self._offered: set[str] = set()  # recovery files offered this session
        self.projects: list[Project] = []
        self.registries: list[Registry] = []
        self.base = ""
        self.profile_override: str | None = None
        self.scan_thread: ScanThread | None = None
        self._refresh_job: Iterator[None] | None = None  # a refresh running in slices
        self._changed_paths: set[str] = set()  # changes seen while it runs
        self._refresh_paths: list[str] = []  # the changes the running refresh takes
        self._open_after_scan = ""  # a SKILL.md to open once the scan lands (an unpacked .skill)
        self._failures: list[Diagnostic] = []  # what failed in the app's own work, for Problems
        self.documents: dict[str, SkillEditor] = {}
        self.file_views: dict[str, FileView] = {}
        self.setWindowTitle("SkillStudio")
        self.setWindowIcon(app_icon())
        self.resize(1200, 780)

        self.tree_model = SkillTreeModel(self)
        self.filter_box = QLineEdit(self)
        self.filter_box.setPlaceholderText("Filter skills…")
        self.filter_box.setClearButtonEnabled(True)
        self.filter_timer = QTimer(self)
        self.filter_timer.setSingleShot(True)
        self.filter_timer.setInterval(FILTER_DELAY_MS)
        self.filter_timer.timeout.connect(self._apply_filter)
        self.filter_box.textChanged.connect(self.filter_timer.start)
        self.filter_box.returnPressed.connect(self._open_first_match)
        self.tree = QTreeView(self)
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setModel(self.tree_model)
        self.tree.activated.connect(self._on_tree_activated)
        self.tree.doubleClicked.connect(self._on_tree_activated)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._on_tree_menu)
        side = QWidget(self)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(4, 4, 4, 4)
        side_layout.addWidget(self.filter_box)
        side_layout.addWidget(self.tree)
        self.tree_dock = QDockWidget("Skills", self)
        self.tree_dock.setObjectName("skills-dock")
        self.tree_dock.setWidget(side)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.tree_dock)
        self.resizeDocks([self.tree_dock], [300], Qt.Orientation.Horizontal)

        self.tabs = QTabWidget(self)
        self.tabs.setTabsClosable(True)
        self.tabs.setMovable(True)
        self.tabs.setDocumentMode(True)
        self.tabs.tabCloseRequested.connect(self._on_tab_close_requested)
        self.setCentralWidget(self.tabs)

        self.problems_model = ProblemsModel(self)
        self.problems = QTableView(self)
        self.problems.setModel(self.problems_model)
        self.problems.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.problems.verticalHeader().hide()
        self.problems.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.problems.doubleClicked.connect(self._on_problem_activated)
        self.problems_dock = QDockWidget("Problems", self)
        self.problems_dock.setObjectName("problems-dock")
        self.problems_dock.setWidget(self.problems)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.problems_dock)
        self.query_panel = QueryPanel(self)
        self.query_dock = QDockWidget("Try a Request", self)
        self.query_dock.setObjectName("query-dock")
        self.query_dock.setWidget(self.query_panel)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.query_dock)
        self.tabifyDockWidget(self.problems_dock, self.query_dock)
        self.suite_runner = SuiteRunner(
            self.query_panel.index_for, lambda: self.query_panel.registry, self
        )
        self.suite_runner.request_chosen.connect(self.try_request)
        self.query_panel.case_added.connect(self.suite_runner.suite_changed)
        self.suites_dock = QDockWidget("Suites", self)
        self.suites_dock.setObjectName("suites-dock")
        self.suites_dock.setWidget(self.suite_runner)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.suites_dock)
        self.tabifyDockWidget(self.query_dock, self.suites_dock)
        self.problems_dock.raise_()
        self.watcher = FileWatcher(self)
        self.watcher.skills_changed.connect(self._on_files_changed)
        self.watcher.limited.connect(lambda text: self.statusBar().showMessage(text, 15_000))
        self.progress = QProgressBar(self)
        self.progress.setMaximumWidth(220)
        self.progress.setTextVisible(True)
        self.progress.setVisible(False)
        self.statusBar().addPermanentWidget(self.progress)
        self.profile_box = QComboBox(self)
        self.profile_box.setToolTip(
            "The skill system to read the folder as; Auto uses skillstudio.yaml or detection"
        )
        self.profile_box.addItem("Profile: auto", "")  # never None data (see form_view)
        for name in PROFILE_NAMES:
            self.profile_box.addItem(f"Profile: {name}", name)
        self.profile_box.currentIndexChanged.connect(self._on_profile_chosen)
        self.statusBar().addPermanentWidget(self.profile_box)
        self._actions()
        self.statusBar().showMessage("Ready")

    def restore_state(self) -> None:
        """Window geometry, docks and splitters as they were last closed."""
        geometry = self.settings.value("geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = self.settings.value("state")
        if isinstance(state, QByteArray):
            self.restoreState(state)

    # -- actions ----------------------------------------------------------------
    def _actions(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self.open_action = self._action(
            file_menu, "&Open Folder…", QKeySequence.StandardKey.Open, self._on_open
        )
        self._action(file_menu, "Open &Project…", "Ctrl+Shift+O", self._on_open_project)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        self._fill_recent_menu()
        self.new_action = self._action(
            file_menu, "&New Skill…", QKeySequence.StandardKey.New, self._on_new_skill
        )
        self._action(file_menu, "&Unpack .skill Archive…", None, self._on_unpack)
        file_menu.addSeparator()
        self.save_action = self._action(
            file_menu, "&Save", QKeySequence.StandardKey.Save, self.save_current
        )
        self.save_all_action = self._action(file_menu, "Save A&ll", "Ctrl+Shift+S", self.save_all)
        self.revert_action = self._action(file_menu, "Re&vert", None, self.revert_current)
        self.reload_action = self._action(
            file_menu, "&Reload Folder", QKeySequence.StandardKey.Refresh, self.reload
        )
        self.close_action = self._action(
            file_menu, "&Close Tab", QKeySequence.StandardKey.Close, self._close_current
        )
        file_menu.addSeparator()
        self._action(file_menu, "&Quit", QKeySequence.StandardKey.Quit, self.close)
        edit_menu = self.menuBar().addMenu("&Edit")
        self.undo_action = self._action(
            edit_menu, "&Undo", QKeySequence.StandardKey.Undo, lambda: self._undo(False)
        )
        self.redo_action = self._action(
            edit_menu, "&Redo", QKeySequence.StandardKey.Redo, lambda: self._undo(True)
        )
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        edit_menu.addSeparator()
        self.find_action = self._action(
            edit_menu, "&Find / Replace…", QKeySequence.StandardKey.Find, self._on_find
        )
        self.goto_action = self._action(edit_menu, "&Go to Line…", "Ctrl+L", self._on_go_to_line)
        self.filter_action = self._action(
            edit_menu, "Filter &Skills", "Ctrl+P", self.filter_box.setFocus
        )
        view_menu = self.menuBar().addMenu("&View")
        view_menu.addAction(self.tree_dock.toggleViewAction())
        view_menu.addAction(self.problems_dock.toggleViewAction())
        view_menu.addAction(self.query_dock.toggleViewAction())
        view_menu.addAction(self.suites_dock.toggleViewAction())
        self.query_action = self._action(
            view_menu, "&Try a Request", "Ctrl+K", self.focus_query_panel
        )
        self.run_suite_action = self._action(view_menu, "Run &Suite", "F6", self.run_suite)
        help_menu = self.menuBar().addMenu("&Help")
        self._action(help_menu, "&About SkillStudio", None, self._on_about)

    def _action(
        self,
        menu: QMenu,
        text: str,
        shortcut: QKeySequence.StandardKey | str | None,
        slot: Callable[[], object],
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    # -- projects ------------------------------------------------------------------
    def open_path(self, path: str, profile: str | None = None) -> bool:
        """Open a folder (or a project's folder); the scan runs in the background.

        `scan_finished` is emitted when the tree and Problems show the new folder.
        A `.skill` archive is unpacked first (see open_archive).
        """
        if path.endswith(".skill") and os.path.isfile(path):
            return self.open_archive(path)
        try:
            projects = resolve_projects([path], [], None, profile, os.getcwd())
            registries = [project.registry() for project in projects]
        except UsageError as exc:
            self.warn(str(exc))
            return False
        except Exception as exc:  # a core bug on the folder's configuration: say so, go on
            self.warn(f"Not opened: reading the project at {path} failed: {one_line(exc)}")
            return False
        if not self._close_all_documents():
            return False
        self._cancel_scan()
        self.watcher.stop()
        self._drop_refresh()
        self.projects = []
        self.registries = []
        self._failures = []
        self.profile_override = profile
        self.base = os.path.abspath(path)
        self._refresh_views()
        self.setWindowTitle(f"SkillStudio — {self.base}")
        self._remember_recent(self.base)
        self._sync_profile_box()
        thread = ScanThread(registries, self)
        thread.progressed.connect(self._on_scan_progress)
        thread.done.connect(lambda ok, t=thread, p=projects: self._on_scan_done(t, p, ok))
        self.scan_thread = thread
        self.progress.setRange(0, 0)
        self.progress.setVisible(True)
        self.statusBar().showMessage(f"Scanning {self.base}…")
        thread.start()
        return True

    def _on_scan_progress(self, done: int, total: int) -> None:
        if self.sender() is not self.scan_thread:
            return
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.progress.setFormat(f"{done:,} / {counted(total, 'skill')}")

    def _on_scan_done(self, thread: ScanThread, projects: list[Project], ok: bool) -> None:
        thread.wait()
        thread.deleteLater()
        if thread is not self.scan_thread:
            return  # a scan that was cancelled or replaced
        self.scan_thread = None
        self.progress.setVisible(False)
        if not ok:
            return  # cancelled
        self.projects = projects
        self.registries = thread.registries
        self._refresh_views()
        self.query_panel.set_projects(self.projects, self.registries, thread.indexes)
        self.suite_runner.set_projects(self.projects, self.registries)
        self.watcher.watch([root.path for r in self.registries for root in r.roots])
        for registry, message in thread.errors:
            where = registry.roots[0].path if registry.roots else self.base
            self._failed(f"{message}. It is read again when its files change (or F5).", where)
        freeze_long_lived()
        if self._open_after_scan:
            self.open_skill(self._open_after_scan)
            self._open_after_scan = ""
        if self.recovery is not None:
            QTimer.singleShot(0, self.offer_recoveries)
        self.scan_finished.emit()

    def _cancel_scan(self) -> None:
        thread = self.scan_thread
        if thread is not None:
            self.scan_thread = None
            thread.cancel()
            thread.wait()
            self.progress.setVisible(False)

    @property
    def scanning(self) -> bool:
        return self.scan_thread is not None

    def _close_all_documents(self) -> bool:
        modified = [e for e in self.documents.values() if e.document.modified]
        if modified and not self._confirm_discard(modified):
            return False
        for editor in self.documents.values():
            self._untrack(editor)
        for widget in [*self.documents.values(), *self.file_views.values()]:
            self.tabs.removeTab(self.tabs.indexOf(widget))
            widget.deleteLater()
        self.documents.clear()
        self.file_views.clear()
        return True

    def recent_folders(self) -> list[str]:
        stored = self.settings.value("recent", [], list)
        return [p for p in stored if isinstance(p, str)] if isinstance(stored, list) else []

    def _remember_recent(self, folder: str) -> None:
        recent = [p for p in self.recent_folders() if p != folder]
        self.settings.setValue("recent", [folder, *recent][:MAX_RECENT])

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        folders = [p for p in self.recent_folders() if os.path.isdir(p)]
        for number, folder in enumerate(folders, 1):
            label = f"&{number} {folder}" if number < 10 else folder
            action = self.recent_menu.addAction(label)
            action.triggered.connect(lambda _checked=False, f=folder: self.open_path(f))
        if not folders:
            self.recent_menu.addAction("No recent folders").setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear List", lambda: self.settings.setValue("recent", []))

    def _sync_profile_box(self) -> None:
        self.profile_box.blockSignals(True)
        index = self.profile_box.findData(self.profile_override or "")
        self.profile_box.setCurrentIndex(max(index, 0))
        self.profile_box.blockSignals(False)

    def _on_profile_chosen(self, _index: int) -> None:
        chosen = self.profile_box.currentData() or None
        if chosen != self.profile_override and self.base and not self.open_path(self.base, chosen):
            self._sync_profile_box()

    def reload(self) -> None:
        if self.scanning:
            return
        self._finish_refresh()
        self._failures = []
        for registry in self.registries:
            try:
                registry.refresh()
            except Exception as exc:  # a core bug: the other folders still reload
                where = registry.roots[0].path if registry.roots else self.base
                self._failed(f"Reloading failed: {one_line(exc)}", where)
        for editor in self.documents.values():
            if not editor.document.modified:
                editor.document.reload()
        self._refresh_views(rebuild=False)

    def focus_query_panel(self) -> None:
        self.query_dock.show()
        self.query_dock.raise_()
        self.query_panel.query.setFocus()
        self.query_panel.query.selectAll()

    def run_suite(self) -> None:
        self.suites_dock.show()
        self.suites_dock.raise_()
        self.suite_runner.run(rescan=True, force=True)

    def try_request(self, text: str) -> None:
        """A suite case's request, loaded into the Try a Request panel on its skills."""
        registry = self.suite_runner.registry
        if registry is not None and registry in self.registries:
            self.query_panel.project_box.setCurrentIndex(self.registries.index(registry))
        self.query_dock.show()
        self.query_dock.raise_()
        self.query_panel.load_request(text)
        self.query_panel.query.setFocus()

    def _refresh_views(self, rebuild: bool = True) -> None:
        """Tree and Problems after a scan (`rebuild`) or a refresh (rows kept if they can)."""
        bases = [p.base for p in self.projects]
        if rebuild:
            self.tree_model.set_registries(self.registries, bases)
            self._expand_roots()
        elif not self.tree_model.sync(self.registries, bases):
            self._expand_roots()  # skills came or went: the rows were rebuilt
        self._update_problems()
        if not rebuild:
            self.query_panel.skills_changed()
            self.suite_runner.skills_changed()

    def _expand_roots(self) -> None:
        """Roots open by themselves up to AUTO_EXPAND_MAX skills; a larger one (its
        first layout stalls for a quarter of a second at 10,000) opens when asked."""
        for row in range(self.tree_model.rowCount()):
            root = self.tree_model.index(row, 0)
            if self.tree_model.rowCount(root) <= AUTO_EXPAND_MAX:
                self.tree.expand(root)

    def _apply_filter(self) -> None:
        self.tree_model.set_filter(self.filter_box.text())
        self._expand_roots()

    def _open_first_match(self) -> None:
        """Enter in the filter box opens the first skill shown (Ctrl+P, type, Enter)."""
        self.filter_timer.stop()
        self._apply_filter()
        for row in range(self.tree_model.rowCount()):
            root = self.tree_model.index(row, 0)
            if self.tree_model.rowCount(root):
                first = self.tree_model.index(0, 0, root)
                self.tree.setCurrentIndex(first)
                self.open_skill(first.data(PATH_ROLE))
                return

    def _update_problems(self) -> None:
        diagnostics: list[Diagnostic] = list(self._failures)
        for project, registry in zip(self.projects, self.registries, strict=True):
            diagnostics.extend(project.diagnostics)
            diagnostics.extend(registry.diagnostics)
        self.problems_model.set_diagnostics(diagnostics, self.base)
        counts = self.problems_model.counts()
        skills = sum(len(r.skills) for r in self.registries)
        profiles = ", ".join(sorted({p.profile.name for p in self.projects}))
        errors, warnings = counts["error"], counts["warning"]
        self.statusBar().showMessage(
            f"{counted(skills, 'skill')} · {counted(errors, 'error')} · "
            f"{counted(warnings, 'warning')} · {profiles}"
        )
        if self._failures:
            self.statusBar().showMessage(self._failures[-1].message)

    def warn(self, message: str) -> None:
        """A warning in a dialog (on stderr when not interactive) and the status bar."""
        self.statusBar().showMessage(message, 30_000)
        if self.interactive:
            QMessageBox.warning(self, "SkillStudio", message)
        else:
            sys.stderr.write(f"skillstudio: {message}\n")

    def _failed(self, message: str, path: str) -> None:
        """Something failed in the app's own work (a core bug, or input no check
        foresaw): the window keeps what it shows and its watcher; the failure goes
        to Problems (an `internal` error on `path`) and the status bar."""
        self._failures.append(Diagnostic("internal", "error", message, path, 1, 1))
        del self._failures[:-20]  # a failure per change must not pile up
        self._update_problems()

    # -- documents -------------------------------------------------------------------
    def registry_for(self, path: str) -> Registry | None:
        for registry in self.registries:
            if path in registry.by_path:
                return registry
        return None

    def open_skill(self, path: str, line: int = 0, column: int = 1) -> SkillEditor | None:
        editor = self.documents.get(path)
        if editor is None:
            registry = self.registry_for(path)
            if registry is None:
                return None
            try:
                document = SkillDocument(path, registry, self)
            except OSError as exc:  # a FIFO, a device, or larger than core parses
                self.statusBar().showMessage(f"Not opened: {path}: {exc.strerror or exc}", 15_000)
                return None
            editor = SkillEditor(document, registry.profile, self)
            self.documents[path] = editor
            if self.recovery is not None:
                self.recovery.track(document)
            editor.file_link_clicked.connect(self.open_file)
            index = self.tabs.addTab(editor, self._tab_title(path, False))
            self.tabs.setTabToolTip(index, path)
            document.modified_changed.connect(
                lambda modified, p=path: self._on_modified(p, modified)
            )
            document.diagnostics_changed.connect(lambda _d, p=path: self._on_document_checked(p))
            self.query_panel.choose_project_of(path)
        self.tabs.setCurrentWidget(editor)
        if line:
            editor.views.setCurrentWidget(editor.source)
            editor.source.go_to(line, column)
        return editor

    def _on_document_checked(self, path: str) -> None:
        registry = self.registry_for(path)
        if registry is not None and path in registry.by_path:
            self.tree_model.update_skill(registry.by_path[path])
        self._update_problems()
        self.query_panel.skills_changed()  # the panel answers for the text on screen
        self.suite_runner.skills_changed()

    def _tab_title(self, path: str, modified: bool) -> str:
        return os.path.basename(os.path.dirname(path)) + (" •" if modified else "")

    def _on_modified(self, path: str, modified: bool) -> None:
        editor = self.documents.get(path)
        if editor is not None:
            self.tabs.setTabText(self.tabs.indexOf(editor), self._tab_title(path, modified))

    def save_current(self) -> bool:
        editor = self.tabs.currentWidget()
        if isinstance(editor, SkillEditor):
            editor.clear_message()
            return editor.document.save()
        return True

    def save_all(self) -> bool:
        return all(
            editor.document.save() for editor in self.documents.values() if editor.document.modified
        )

    def _close_current(self) -> None:
        index = self.tabs.currentIndex()
        if index >= 0:
            self._on_tab_close_requested(index)

    def _on_tab_close_requested(self, index: int) -> None:
        editor = self.tabs.widget(index)
        if isinstance(editor, FileView):
            self.tabs.removeTab(index)
            self.file_views.pop(editor.path, None)
            editor.deleteLater()
            return
        if not isinstance(editor, SkillEditor):
            return
        if editor.document.modified and not self._confirm_discard([editor]):
            return
        self._untrack(editor)
        self.tabs.removeTab(index)
        self.documents.pop(editor.document.path, None)
        editor.document.registry.reparse(editor.document.path)  # back to the file on disk
        editor.deleteLater()
        self._update_problems()

    def ask_save(self, names: str) -> str:
        """'save', 'discard' or 'cancel' for unsaved work (tests replace this method)."""
        answer = QMessageBox.question(
            self,
            "Unsaved changes",
            f"Save changes to {names}?",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Save:
            return "save"
        return "discard" if answer == QMessageBox.StandardButton.Discard else "cancel"

    def _confirm_discard(self, editors: list[SkillEditor]) -> bool:
        names = ", ".join(os.path.basename(os.path.dirname(e.document.path)) for e in editors)
        answer = self.ask_save(names)
        if answer == "save":
            return all(e.document.save() for e in editors)
        return answer == "discard"

    def closeEvent(self, event: QCloseEvent) -> None:
        modified = [e for e in self.documents.values() if e.document.modified]
        if modified and not self._confirm_discard(modified):
            event.ignore()
            return
        for editor in self.documents.values():
            self._untrack(editor)
        if self.recovery is not None:
            self.recovery.flush()
        self._cancel_scan()
        self._drop_refresh()
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("state", self.saveState())
        self.watcher.stop()
        event.accept()

    def _on_files_changed(self, paths: list[str]) -> None:
        """Files changed outside: refresh the registries in slices between events,
        then each affected open skill and the views. Changes that arrive while a
        refresh runs are taken by the next one."""
        self._changed_paths.update(paths)
        if self._refresh_job is None:
            self._start_refresh()

    def _start_refresh(self) -> None:
        paths = sorted(self._changed_paths)
        self._changed_paths.clear()
        self._refresh_paths = paths
        self._refresh_job = self._refresh_steps(paths)
        self._refresh_slice()

    def _refresh_steps(self, paths: list[str]) -> Iterator[None]:
        for registry in list(self.registries):
            # the watcher's paths spare the walk of the tree
            yield from registry.refresh_steps(paths)
            index = self.query_panel.indexes.get(id(registry))
            if index is not None:  # Try a Request's index, so that its answer is quick
                yield from index.sync_steps()
        changed = set(paths)
        for path, editor in list(self.documents.items()):
            folder = os.path.dirname(path) + os.sep
            if path in changed or any(p.startswith(folder) for p in changed):
                editor.document.on_disk_changed()
            elif editor.document.modified:
                editor.document.validate()  # the text on screen stays the registry's truth
        self._refresh_views(rebuild=False)
        freeze_long_lived()

    def _refresh_slice(self, seconds: float | None = None) -> None:
        """Run the refresh for up to `seconds` (REFRESH_SLICE_S), then let events in;
        with `seconds` infinite, to its end."""
        job = self._refresh_job
        if job is None:
            return
        deadline = time.perf_counter() + (REFRESH_SLICE_S if seconds is None else seconds)
        try:
            for _ in job:
                if time.perf_counter() > deadline:
                    QTimer.singleShot(0, self._refresh_slice)
                    return
        except Exception as exc:  # a core bug: keep the views as they were, keep watching
            self._refresh_job = None
            paths = self._refresh_paths or [self.base]
            changed = next((p for p in paths if p.endswith("SKILL.md")), paths[0])
            self._failed(
                f"Refreshing after a change to {os.path.basename(changed) or changed} failed: "
                f"{one_line(exc)}. The views show the skills as before; they are read again "
                "at the next change (or F5).",
                changed,
            )
        else:
            self._refresh_job = None
            done = set(self._refresh_paths)  # read again without failing this time
            if any(d.path in done for d in self._failures):
                self._failures = [d for d in self._failures if d.path not in done]
                self._update_problems()
        if self._changed_paths:
            self._start_refresh()

    def _finish_refresh(self) -> None:
        """Complete a refresh under way now, and those of changes seen meanwhile
        (before a reload or an operation changes the registries itself)."""
        while self._refresh_job is not None:
            self._refresh_slice(float("inf"))

    def _drop_refresh(self) -> None:
        """Forget a refresh under way (another folder is opened, the window closes)."""
        if self._refresh_job is not None:
            self._refresh_job.close()  # type: ignore[attr-defined]
            self._refresh_job = None
        self._changed_paths.clear()

    # -- skill operations ---------------------------------------------------------------
    def ask_text(self, title: str, label: str, text: str = "") -> str | None:
        """A line of text from the user, or None (tests replace this method)."""
        value, ok = QInputDialog.getText(self, title, label, text=text)
        return value.strip() if ok and value.strip() else None

    def _project_of(self, path: str) -> Project | None:
        for project, registry in zip(self.projects, self.registries, strict=True):
            if path in registry.by_path or any(r.path == path for r in registry.roots):
                return project
        return None

    def _on_tree_menu(self, pos: QPoint) -> None:
        index = self.tree.indexAt(pos)
        if not index.isValid():
            return
        kind, path = index.data(KIND_ROLE), index.data(PATH_ROLE)
        menu = QMenu(self)
        if kind == "root":
            menu.addAction("New Skill…", lambda: self.new_skill_in(path))
        elif kind == "skill":
            menu.addAction("Open", lambda: self.open_skill(path))
            menu.addAction(
                "New Skill Beside…",
                lambda: self.new_skill_in(os.path.dirname(os.path.dirname(path))),
            )
            menu.addAction("Rename…", lambda: self.rename_skill(path))
            menu.addAction("Duplicate…", lambda: self.duplicate_skill(path))
            menu.addAction("Export .skill…", lambda: self.export_skill(path))
            menu.addAction("Reveal in File Manager", lambda: self.reveal(path))
            menu.addSeparator()
            menu.addAction("Move to Trash", lambda: self.trash_skill(path))
        else:
            menu.addAction("Reveal in File Manager", lambda: self.reveal(path))
        menu.exec(self.tree.viewport().mapToGlobal(pos))

    def _operation(self, action: Callable[[], object]) -> object | None:
        try:
            result = action()
        except (OperationError, ArchiveError, SaveError, EditError, OSError) as exc:
            QMessageBox.warning(self, "SkillStudio", str(exc))
            return None
        self.reload()
        return result

    def new_skill_in(self, root: str) -> str | None:
        project = self._project_of(root)
        name = self.ask_text("New skill", "Name (lowercase letters, digits, hyphens):")
        if project is None or name is None:
            return None
        path = self._operation(lambda: new_skill(project.profile, root, name))
        if isinstance(path, str):
            self.open_skill(path)
            return path
        return None

    def rename_skill(self, path: str) -> str | None:
        editor = self.documents.get(path)
        if editor is not None and editor.document.modified:
            QMessageBox.warning(self, "SkillStudio", "Save or revert the skill before renaming it.")
            return None
        project = self._project_of(path)
        folder = os.path.dirname(path)
        name = self.ask_text("Rename skill", "New name:", os.path.basename(folder))
        if project is None or name is None:
            return None
        if editor is not None:
            self._on_tab_close_requested(self.tabs.indexOf(editor))
        target = self._operation(lambda: rename_skill(project.profile, folder, name))
        return target if isinstance(target, str) else None

    def duplicate_skill(self, path: str) -> str | None:
        project = self._project_of(path)
        folder = os.path.dirname(path)
        name = self.ask_text(
            "Duplicate skill", "Name of the copy:", os.path.basename(folder) + "-copy"
        )
        if project is None or name is None:
            return None
        target = self._operation(lambda: duplicate_skill(project.profile, folder, name))
        return target if isinstance(target, str) else None

    def export_skill(self, path: str) -> str | None:
        folder = os.path.dirname(path)
        default = os.path.join(os.path.dirname(folder), os.path.basename(folder) + ".skill")
        target, _ = QFileDialog.getSaveFileName(
            self, "Export skill", default, "Skill archives (*.skill)"
        )
        if not target:
            return None
        left_out: list[str] = []
        try:
            archive = pack(folder, target, left_out)
        except ArchiveError as exc:
            QMessageBox.warning(self, "SkillStudio", str(exc))
            return None
        if left_out:  # links and special files are never packed: say which
            QMessageBox.information(
                self, "SkillStudio", "Exported; not in the archive:\n" + "\n".join(left_out)
            )
        return archive

    def trash_skill(self, path: str) -> str | None:
        editor = self.documents.get(path)
        if editor is not None:
            if editor.document.modified and not self._confirm_discard([editor]):
                return None
            self._untrack(editor)
            self.tabs.removeTab(self.tabs.indexOf(editor))
            self.documents.pop(path, None)
            editor.deleteLater()
        trashed = self._operation(lambda: delete_to_trash(os.path.dirname(path)))
        return trashed if isinstance(trashed, str) else None

    def reveal(self, path: str) -> None:
        folder = path if os.path.isdir(path) else os.path.dirname(path)
        QDesktopServices.openUrl(QUrl.fromLocalFile(folder))

    # -- slots -----------------------------------------------------------------------
    def _on_tree_activated(self, index: QModelIndex) -> None:
        kind = index.data(KIND_ROLE)
        path = index.data(PATH_ROLE)
        if kind == "skill" and path:
            self.open_skill(path)
        elif kind == "file" and path:
            self.open_file(path)

    def open_file(self, path: str) -> QWidget | None:
        """A file inside a skill: SKILL.md opens the skill, anything else a read-only tab."""
        path = os.path.normpath(path)
        if os.path.isdir(path):
            path = os.path.join(path, "SKILL.md")
        if self.registry_for(path) is not None:
            return self.open_skill(path)
        view = self.file_views.get(path)
        if view is None:
            folder = self._skill_folder_of(path)
            if folder is None or not os.path.isfile(path):
                self.statusBar().showMessage(f"Not opened: {path} is not a file of a skill", 5000)
                return None
            view = FileView(path, folder, self)
            view.file_link_clicked.connect(self.open_file)
            self.file_views[path] = view
            index = self.tabs.addTab(view, os.path.basename(path))
            self.tabs.setTabToolTip(index, path)
        self.tabs.setCurrentWidget(view)
        return view

    def _skill_folder_of(self, path: str) -> str | None:
        for registry in self.registries:
            for skill_path in registry.by_path:
                folder = os.path.dirname(skill_path)
                if path.startswith(folder + os.sep):
                    return folder
        return None

    def _on_problem_activated(self, index: QModelIndex) -> None:
        diag = self.problems_model.index(index.row(), 0).data(DIAGNOSTIC_ROLE)
        if isinstance(diag, Diagnostic) and diag.path.endswith("SKILL.md"):
            self.open_skill(diag.path, diag.line, diag.column or 1)

    def _on_find(self) -> None:
        editor = self.tabs.currentWidget()
        if isinstance(editor, SkillEditor):
            editor.open_find()

    def _on_go_to_line(self) -> None:
        editor = self.tabs.currentWidget()
        if not isinstance(editor, SkillEditor):
            return
        count = editor.document.text_document.blockCount()
        line, ok = QInputDialog.getInt(self, "Go to line", f"Line (1-{count}):", 1, 1, count)
        if ok:
            editor.go_to_line(line)

    def _on_open(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Open a folder of skills", self.base)
        if folder:
            self.open_path(folder)

    def open_archive(self, archive: str) -> bool:
        """Unpack a `.skill` (where the user says) and open the folder it went into,
        with its SKILL.md in a tab. The archive itself is never changed."""
        root = self.ask_unpack_root(archive)
        if not root:
            return False
        try:
            folder = unpack(archive, root)
        except (ArchiveError, OSError) as exc:
            QMessageBox.warning(self, "SkillStudio", f"Not unpacked: {exc}")
            return False
        if not self.open_path(root):
            return False
        self._open_after_scan = os.path.join(folder, "SKILL.md")
        self.statusBar().showMessage(f"Unpacked {os.path.basename(archive)} into {folder}")
        return True

    def ask_unpack_root(self, archive: str) -> str | None:
        """The folder to unpack an archive into (tests replace this)."""
        folder = QFileDialog.getExistingDirectory(
            self,
            f"Unpack {os.path.basename(archive)} into which skills folder?",
            os.path.dirname(os.path.abspath(archive)),
        )
        return folder or None

    def _on_unpack(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Unpack a .skill archive", self.base, "Skill archives (*.skill)"
        )
        if path:
            self.open_archive(path)

    def _on_open_project(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Open a SkillStudio project", self.base, f"SkillStudio project ({CONFIG_NAME})"
        )
        if path:
            self.open_path(os.path.dirname(path))

    def _on_new_skill(self) -> None:
        editor = self.tabs.currentWidget()
        roots = [root.path for r in self.registries for root in reversed(r.roots)]
        if isinstance(editor, SkillEditor):
            roots.insert(0, os.path.dirname(os.path.dirname(editor.document.path)))
        if roots:
            self.new_skill_in(roots[0])

    def current_editor(self) -> SkillEditor | None:
        editor = self.tabs.currentWidget()
        return editor if isinstance(editor, SkillEditor) else None

    def _undo(self, redo: bool) -> None:
        editor = self.current_editor()
        if editor is not None:
            editor.undo(redo)

    def revert_current(self) -> None:
        editor = self.current_editor()
        if editor is None or not editor.document.modified:
            return
        if self.ask_revert(os.path.basename(os.path.dirname(editor.document.path))):
            editor.document.reload()

    def ask_revert(self, name: str) -> bool:
        """Whether to drop the unsaved edits of `name` (tests replace this method)."""
        answer = QMessageBox.question(
            self,
            "Revert",
            f"Discard the unsaved changes to {name} and reload it from disk?",
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Discard

    def _on_about(self) -> None:
        QMessageBox.about(
            self,
            "About SkillStudio",
            f"<b>SkillStudio {__version__}</b><p>Edit, validate and test agent skills offline.</p>",
        )

    # -- crash recovery ---------------------------------------------------------------
    def _untrack(self, editor: SkillEditor) -> None:
        """The tab closes: its recovery file goes when its unsaved text was discarded
        (a saved document has none left)."""
        if self.recovery is not None:
            self.recovery.untrack(editor.document.path, forget=editor.document.modified)

    def offer_recoveries(self) -> None:
        """Offer the unsaved text of skills in the open folder that a crash left."""
        if self.recovery is None:
            return
        for found in recovery.pending(self.recovery.folder):
            if found.file in self._offered or self.registry_for(found.source) is None:
                continue  # offered already, or a skill of another folder
            self._offered.add(found.file)
            answer = self.ask_restore(found)
            if answer == "restore":
                self.restore(found)
            elif answer == "discard":
                recovery.remove(self.recovery.folder, found.source)

    def ask_restore(self, found: recovery.Recovery) -> str:
        """'restore', 'discard' or 'later' (tests replace this method)."""
        dialog = RestoreDialog(found, self)
        dialog.exec()
        return dialog.answer

    def restore(self, found: recovery.Recovery) -> SkillEditor | None:
        """Put the recovered text into the skill's tab, unsaved (one undo step back
        to the file on disk)."""
        editor = self.open_skill(found.source)
        if editor is None or self.recovery is None:
            return None
        cursor = QTextCursor(editor.document.text_document)
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(found.text)
        editor.views.setCurrentWidget(editor.source)
        recovery.remove(self.recovery.folder, found.source)  # kept again from the tab
        return editor
