"""MainWindow: skill tree, editor tabs, Problems panel, status bar."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import cast

from PySide6.QtCore import (
    QByteArray,
    QModelIndex,
    QSettings,
    Qt,
    QTimer,
)
from PySide6.QtGui import QCloseEvent, QShowEvent, QTextCursor
from PySide6.QtWidgets import (
    QDockWidget,
    QLineEdit,
    QMessageBox,
    QProgressBar,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..core.editing import recovery
from ..core.model.diagnostics import Diagnostic
from ..core.model.text import counted
from ..core.projects.project import Project, UsageError, resolve_projects
from ..core.ranking.matching import MatchIndex
from ..core.scanning.registry import Registry
from .app import default_folder
from .centre import Centre, scrolled
from .file_view import FileView
from .file_watcher import FileWatcher
from .icons import app_icon
from .overlap_map import OverlapMap
from .problem_rows import ProblemRows
from .problems_model import ProblemsModel
from .problems_panel import ProblemsPanel
from .project_profiles import ProjectProfiles
from .recovery import RecoveryKeeper, RestoreDialog
from .refresh import SlicedRefresh, freeze_long_lived
from .scanner import ScanThread, one_line
from .skill_editor import SkillEditor
from .skill_tree_model import KIND_ROLE, PATH_ROLE, SkillTreeModel, TreeNodes, tree_nodes
from .skill_tree_view import SkillTreeView
from .suite_runner import SuiteRunner
from .welcome_page import WelcomePage
from .workbench import QueryPanel

FILTER_DELAY_MS = 120
FIRST_LAYOUT_MS = 50  # the tree's and Problems' first layout and paint, then the indexes
SWITCH_INTERVAL_S = 0.001  # how long a worker thread may keep the interpreter lock
AUTO_EXPAND_MAX = 2000


def problem_sources(
    projects: list[Project], registries: list[Registry], failures: list[Diagnostic]
) -> list[list[Diagnostic]]:
    """What Problems shows, list by list (see ProblemsModel.set_sources)."""
    sources = [failures]
    for project, registry in zip(projects, registries, strict=True):
        sources.append(project.diagnostics)
        sources.extend(registry.diagnostic_lists())
    return sources


class MainWindow(ProjectProfiles):
    """The window; its parts are the classes it builds on (see window_base.py)."""

    def __init__(
        self,
        settings: QSettings,
        parent: QWidget | None = None,
        recovery_folder: str | None = None,
    ) -> None:
        """`recovery_folder`: where unsaved text is kept for crash recovery (the app
        passes its state folder's recovery/; None keeps none, as in tests)."""
        super().__init__(parent)
        # Worker threads (scan, indexes, listings) hold the interpreter lock up to the
        # switch interval each time the GUI thread wants it, and Qt calls into Python
        # for every row it lays out: 1 ms instead of 5 ms, with Problems' smaller pages,
        # cut the stalls while a scan runs (bench_gui --profile agentskills, 10,000
        # skills: 138 -> 55 ms).
        sys.setswitchinterval(SWITCH_INTERVAL_S)
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
        self.scan_worker_chunks = 0  # of the last scan, read by reader processes (smoke test)
        self.refresher = SlicedRefresh(self)
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
        self.tree = SkillTreeView(lambda: self.base, self)
        self.tree.setModel(self.tree_model)
        self.tree.activated.connect(self._on_tree_activated)
        self.tree.doubleClicked.connect(self._on_tree_activated)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._on_tree_menu)
        self.tree.verticalScrollBar().valueChanged.connect(self._show_more_skills)
        self.tree.verticalScrollBar().rangeChanged.connect(self._show_more_skills)
        self.tree.expanded.connect(self._show_more_skills)
        side = QWidget(self)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(4, 4, 4, 4)
        side_layout.addWidget(self.filter_box)
        side_layout.addWidget(self.tree)
        self.tree_dock = QDockWidget("Skills", self)
        self.tree_dock.setObjectName("skills-dock")
        self.tree_dock.setWidget(side)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.tree_dock)

        self.tabs = QTabWidget(self)
        self.tabs.setTabsClosable(False)  # each tab gets a neutral close button (_add_tab)
        self.tabs.setMovable(True)
        self.tabs.setDocumentMode(True)
        self.tabs.tabCloseRequested.connect(self._on_tab_close_requested)
        self.tabs.currentChanged.connect(self._show_centre)
        self.welcome = WelcomePage(default_folder(), self)
        self.welcome.open_folder_requested.connect(self._on_open)
        self.welcome.open_project_requested.connect(self._on_open_project)
        self.welcome.folder_chosen.connect(self.open_path)
        self.centre = Centre(self)
        self.centre.addWidget(self.welcome)
        self.centre.addWidget(self.tabs)
        self.setCentralWidget(self.centre)
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)

        self.problems_model = ProblemsModel(self)
        self.problems = ProblemsPanel(self.problems_model, self)
        self.problems.problem_activated.connect(self.go_to_problem)
        self.tabs.currentChanged.connect(self._on_current_tab)
        self.problems_dock = QDockWidget("Problems", self)
        self.problems_dock.setObjectName("problems-dock")
        self.problems_dock.setWidget(scrolled(self.problems))
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.problems_dock)
        self.query_panel = QueryPanel(self)
        self.query_dock = QDockWidget("Try a Request", self)
        self.query_dock.setObjectName("query-dock")
        self.query_dock.setWidget(scrolled(self.query_panel))
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.query_dock)
        self.tabifyDockWidget(self.problems_dock, self.query_dock)
        self.suite_runner = SuiteRunner(
            self.query_panel.index_for, lambda: self.query_panel.registry, self
        )
        self.suite_runner.request_chosen.connect(self.try_request)
        self.query_panel.likely_indexes.failed.connect(lambda text: self._failed(text, self.base))
        self.query_panel.case_added.connect(self.suite_runner.suite_changed)
        self.suites_dock = QDockWidget("Suites", self)
        self.suites_dock.setObjectName("suites-dock")
        self.suites_dock.setWidget(scrolled(self.suite_runner))
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.suites_dock)
        self.tabifyDockWidget(self.query_dock, self.suites_dock)
        self.overlap_map = OverlapMap(self)  # worked out off the GUI thread, when shown
        self.overlap_map.open_requested.connect(self.open_skill)
        self.overlap_dock = QDockWidget("Overlap Map", self)
        self.overlap_dock.setObjectName("overlap-dock")
        self.overlap_dock.setWidget(self.overlap_map)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.overlap_dock)
        self.tabifyDockWidget(self.suites_dock, self.overlap_dock)
        self.overlap_dock.hide()  # opened from the View menu (its work is seconds at 10,000)
        self.problems_dock.raise_()
        # The panels behind the Problems tab wait until their own tab is chosen.
        self.query_panel.catch_up.follow(self.query_dock)
        self.suite_runner.catch_up.follow(self.suites_dock)
        self.watcher = FileWatcher(self)
        self.watcher.skills_changed.connect(self._on_files_changed)
        self.watcher.limited.connect(lambda text: self.statusBar().showMessage(text, 15_000))
        self.progress = QProgressBar(self)
        self.progress.setMaximumWidth(220)
        self.progress.setTextVisible(True)
        self.progress.setVisible(False)
        self.statusBar().addPermanentWidget(self.progress)
        self._profile_box()
        self._actions()
        self._sized = False  # the docks get their first-run sizes when first shown
        self._show_centre()
        self.statusBar().showMessage("Ready")

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._sized:
            self._sized = True
            self.size_docks()

    def size_docks(self) -> None:
        """First-run sizes: the editor gets most of the height (the bottom docks a
        third, 150-240 px) and the tree 300 px of the width."""
        height = min(max(self.height() * 3 // 10, 150), 240)
        self.resizeDocks([self.problems_dock], [height], Qt.Orientation.Vertical)
        self.resizeDocks([self.tree_dock], [300], Qt.Orientation.Horizontal)

    def _show_centre(self, _index: int = -1) -> None:
        """The welcome page while no tab is open."""
        if self.tabs.count():
            self.centre.setCurrentWidget(self.tabs)
            return
        self.welcome.set_state(self.base, self.recent_folders())
        self.centre.setCurrentWidget(self.welcome)

    def restore_state(self) -> None:
        """Window geometry, docks and splitters as they were last closed."""
        geometry = self.settings.value("geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = self.settings.value("state")
        if isinstance(state, QByteArray) and self.restoreState(state):
            self._sized = True  # the user's own sizes

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
        self.refresher.drop()
        self.projects = []
        self.registries = []
        self._failures = []
        self.profile_override = profile
        self.base = os.path.abspath(path)
        self._refresh_views()
        self.setWindowTitle(f"SkillStudio — {self.base}")
        self._remember_recent(self.base)
        self._show_centre()
        self._sync_profile_box()
        bases = [p.base for p in projects]
        model, base = self.problems_model, self.base
        filters = set(model.severities), model.only_path

        def prepare(regs: list[Registry]) -> tuple[TreeNodes, ProblemRows]:
            """The tree's rows and Problems' (off the GUI thread: 100-500 ms at 10,000)."""
            sources = problem_sources(projects, regs, [])
            rows = ProblemRows(sources, base, bases, *filters)
            rows.stamp = [(r, r.version) for r in regs]
            return tree_nodes(regs, bases), rows

        thread = ScanThread(registries, self, prepare)
        thread.progressed.connect(self._on_scan_progress)
        thread.scanned.connect(lambda t=thread, p=projects: self._on_scan_read(t, p))
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

    def _on_scan_read(self, thread: ScanThread, projects: list[Project]) -> None:
        """The skills are read: the tree now (its rows built by the scan thread), then
        Problems in the next turn of the event loop; the panels when it is `done`."""
        if thread is not self.scan_thread:
            return  # a scan that was cancelled or replaced
        self.progress.setVisible(False)
        self.projects = projects
        self.registries = thread.registries
        prepared = thread.prepared if isinstance(thread.prepared, tuple) else (None, None)
        nodes, rows = cast(tuple[TreeNodes | None, ProblemRows | None], prepared)
        self.tree_model.set_registries(self.registries, [p.base for p in projects], nodes)
        self._expand_roots()
        self._sync_profile_box()

        resume = thread.resume

        def problems() -> None:
            if self.projects is projects:  # (else another folder was opened meanwhile)
                self._update_problems(rows)
            QTimer.singleShot(FIRST_LAYOUT_MS, resume.set)  # then the match indexes

        QTimer.singleShot(0, problems)

    def _on_scan_done(self, thread: ScanThread, projects: list[Project], ok: bool) -> None:
        thread.wait()
        thread.deleteLater()
        if thread is not self.scan_thread:
            return  # a scan that was cancelled or replaced
        self.scan_thread = None
        self.progress.setVisible(False)
        self.scan_worker_chunks = thread.worker_chunks
        if not ok or self.projects is not projects:
            return  # cancelled
        indexes, errors = thread.indexes, thread.errors  # the thread object goes
        QTimer.singleShot(0, lambda: self._scan_landed(projects, indexes, errors))

    def _scan_landed(
        self, projects: list[Project], indexes: list[MatchIndex], errors: list[tuple[Registry, str]]
    ) -> None:
        if self.projects is not projects or self.scanning:
            return  # another folder was opened meanwhile
        self.query_panel.set_projects(self.projects, self.registries, indexes)
        self.suite_runner.set_projects(self.projects, self.registries)
        self.overlap_map.set_projects(self.projects, self.registries)
        self.watcher.watch([root.path for r in self.registries for root in r.roots])
        for registry, message in errors:
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
        if self._switch is not None:  # a profile switch of the folder being left
            self._switch.cancel()
            self._switch.wait()
            self._switch = None
        thread = self.scan_thread
        if thread is not None:
            self.scan_thread = None
            thread.cancel()
            thread.wait()
            self.progress.setVisible(False)

    @property
    def scanning(self) -> bool:
        return self.scan_thread is not None

    def reload(self) -> None:
        if self.scanning:
            return
        self.refresher.finish()
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
        if rebuild:
            self.tree_model.set_registries(self.registries, [p.base for p in self.projects])
            self._expand_roots()
        else:
            self._sync_tree()
        self._update_problems()
        if not rebuild:
            self.query_panel.skills_changed()
            self.suite_runner.skills_changed()
            self.overlap_map.skills_changed()

    def _sync_tree(self) -> None:
        """The tree after a refresh: its rows kept if they can (nothing to do when it
        shows the registries as they are)."""
        if not self.tree_model.sync(self.registries, [p.base for p in self.projects]):
            self._expand_roots()  # skills came or went: the rows were rebuilt

    def _expand_roots(self) -> None:
        """Roots open by themselves up to AUTO_EXPAND_MAX skills; a larger one (its
        first layout stalls for a quarter of a second at 10,000) opens when asked."""
        for row in range(self.tree_model.rowCount()):
            root = self.tree_model.index(row, 0)
            if self.tree_model.skill_count(root) <= AUTO_EXPAND_MAX:
                self.tree.expand(root)

    def _show_more_skills(self, *_args: object) -> None:
        """A large root's next page of skills once its last row shown comes into view."""
        model, bottom = self.tree_model, self.tree.viewport().height()
        for row in range(model.rowCount()):
            root = model.index(row, 0)
            if not self.tree.isExpanded(root) or not model.more_skills(root):
                continue
            last = model.index(model.rowCount(root) - 1, 0, root)
            if self.tree.visualRect(last).top() <= bottom:
                model.show_more(root)  # (the view's range changes: asked again)

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

    def _update_problems(self, prepared: ProblemRows | None = None) -> None:
        if (
            prepared is not None
            and not self._failures
            and prepared.stamp == [(r, r.version) for r in self.registries]
            and not self.problems_model.showing(self.base, [p.base for p in self.projects])
        ):  # the scan's rows, of registries unchanged since: no need to list them again
            self.problems_model.install(prepared)  # (30 ms less at 10,000 skills)
        else:
            self.problems_model.set_sources(
                problem_sources(self.projects, self.registries, self._failures),
                self.base,
                [p.base for p in self.projects],
                prepared,
            )
        self.problems.set_skill_count(sum(len(r.skills) for r in self.registries))
        counts = self.problems_model.counts()
        skills = sum(len(r.skills) for r in self.registries)
        names = sorted({p.profile.name for p in self.projects})
        # Eight names ran into the project label at 1024 px ("…, toolsets, v"): counted
        # past three, named in the tooltip (and each root in the tree says its own).
        profiles = ", ".join(names) if len(names) <= 3 else f"{len(names)} profiles"
        self.statusBar().setToolTip(", ".join(names))
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
        self.refresher.drop()
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("state", self.saveState())
        self.watcher.stop()
        event.accept()

    def _on_tree_activated(self, index: QModelIndex) -> None:
        kind = index.data(KIND_ROLE)
        path = index.data(PATH_ROLE)
        if kind == "skill" and path:
            self.open_skill(path)
        elif kind == "file" and path:
            self.open_file(path)

    def go_to_problem(self, diag: Diagnostic) -> None:
        if diag.path.endswith("SKILL.md"):
            self.open_skill(diag.path, diag.line, diag.column or 1)

    def _on_current_tab(self, _index: int) -> None:
        """Problems' "current skill only" and the tree follow the current tab."""
        editor = self.current_editor()
        path = editor.document.path if editor is not None else ""
        self.problems.set_current_path(path)
        self.query_panel.set_edited(path or None)  # "would pick X instead" of it
        row = self.tree_model.index_of(path) if path else QModelIndex()
        if row.isValid() and self.tree.currentIndex() != row:
            self.tree.setCurrentIndex(row)
            self.tree.scrollTo(row)

    # -- files changed outside (gui/refresh.py) ------------------------------------------
    def _on_files_changed(self, paths: list[str]) -> None:
        self.refresher.changed(paths)

    def _refresh_slice(self, seconds: float | None = None) -> None:
        """The refresh's timer slot: one slice (see SlicedRefresh.run_slice)."""
        self.refresher.run_slice(seconds)

    @property
    def _refresh_job(self) -> Iterator[bool | None] | None:
        return self.refresher.job

    @property
    def _changed_paths(self) -> set[str]:
        return self.refresher.pending

    # -- crash recovery ---------------------------------------------------------------
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
