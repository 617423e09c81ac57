"""The profile a project is read as, chosen per project (its context menu in the tree,
or the status-bar box, which follows the current project). Switching rescans that
project only and keeps the open tabs, their unsaved text included."""

from __future__ import annotations

import os

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QComboBox, QLabel, QMenu

from ..core.profiles import PROFILE_NAMES
from ..core.projects.project import (
    CONFIG_NAME,
    Project,
    UsageError,
    project_from_folder,
    projects_for_path,
)
from ..core.scanning.registry import Registry
from .scanner import ScanThread, one_line
from .skill_editor import SkillEditor
from .skill_tree_model import PATH_ROLE
from .window_menus import Menus


class ProjectProfiles(Menus):
    """MainWindow's per-project profiles (a part of MainWindow)."""

    profile_box: QComboBox
    project_label: QLabel
    profile_override: str | None
    _switch: ScanThread | None

    def _profile_box(self) -> None:
        self._switch = None
        self.project_label = QLabel(self)
        self.profile_box = QComboBox(self)
        self.profile_box.setToolTip(
            "The skill system the current project is read as; auto uses its "
            "skillstudio.yaml, else detection. Open tabs are kept."
        )
        self.profile_box.addItem("Profile: auto", "")  # never None data (see form_view)
        for name in PROFILE_NAMES:
            self.profile_box.addItem(f"Profile: {name}", name)
        self.profile_box.currentIndexChanged.connect(self._on_profile_chosen)
        self.statusBar().addPermanentWidget(self.project_label)
        self.statusBar().addPermanentWidget(self.profile_box)
        self.tabs.currentChanged.connect(self._sync_profile_box)
        self.tree.clicked.connect(self._sync_profile_box)

    def current_project(self) -> int:
        """The project of the current tab, else of the tree's current row, else the first."""
        editor = self.tabs.currentWidget()
        path = editor.document.path if isinstance(editor, SkillEditor) else ""
        if not path:
            path = self.tree.currentIndex().data(PATH_ROLE) or ""
        for number, registry in enumerate(self.registries):
            if path in registry.by_path or any(r.path == path for r in registry.roots):
                return number
        return 0

    def _sync_profile_box(self, *_args: object) -> None:
        """The box and its label show the current project's profile."""
        if not self.projects:
            self.project_label.setText("")
            self.profile_box.blockSignals(True)
            self.profile_box.setCurrentIndex(0)
            self.profile_box.blockSignals(False)
            return
        project = self.projects[self.current_project()]
        chosen = project.profile.name if project.profile_reason == "--profile" else ""
        self.profile_box.blockSignals(True)
        self.profile_box.setCurrentIndex(max(self.profile_box.findData(chosen), 0))
        self.profile_box.blockSignals(False)
        self.project_label.setText(project_status(project))
        self.project_label.setToolTip(
            f"{project.base}\nProfile {project.profile.name}: {project_reason(project)}"
        )

    def _on_profile_chosen(self, _index: int) -> None:
        if self.projects:
            self.set_project_profile(self.current_project(), self.profile_box.currentData() or None)
        else:
            self._sync_profile_box()

    def profile_menu(self, menu: QMenu, root: str) -> None:
        """'Read Project As' in a root's context menu."""
        number = next(
            (n for n, r in enumerate(self.registries) if any(x.path == root for x in r.roots)),
            None,
        )
        if number is None:
            return
        project = self.projects[number]
        sub = menu.addMenu(f"Read {os.path.basename(project.base)} As")
        for name in ("", *PROFILE_NAMES):
            action = sub.addAction(name or "auto (skillstudio.yaml or detection)")
            action.setCheckable(True)
            explicit = project.profile_reason == "--profile"
            action.setChecked(project.profile.name == name if explicit else not name)
            action.triggered.connect(
                lambda _c=False, n=number, p=name or None: self.set_project_profile(n, p)
            )

    def set_project_profile(self, number: int, profile: str | None) -> bool:
        """Read project `number` as `profile` (None: auto); the scan runs in the background
        and `scan_finished` is emitted when the views show it."""
        old = self.projects[number]
        try:
            if old.files:
                skill_md = next(path for paths in old.files.values() for path in paths)
                project = projects_for_path(skill_md, profile)[0]
            else:
                project = project_from_folder(old.base, profile)
            registry = project.registry()
        except (UsageError, StopIteration) as exc:
            self.warn(f"Not switched: {exc}")
            self._sync_profile_box()
            return False
        except Exception as exc:  # a core bug on the folder's configuration
            self.warn(f"Not switched: reading {old.base} failed: {one_line(exc)}")
            self._sync_profile_box()
            return False
        if self._switch is not None:
            self._switch.cancel()
        thread = ScanThread([registry], self)
        thread.done.connect(lambda ok, t=thread, o=old, p=project: self._on_switched(t, o, p, ok))
        self._switch = thread
        self.statusBar().showMessage(f"Reading {old.base} as {project.profile.name}…")
        thread.start()
        return True

    def _on_switched(self, thread: ScanThread, old: Project, project: Project, ok: bool) -> None:
        thread.wait()
        thread.deleteLater()
        if thread is not self._switch:
            return
        self._switch = None
        if not ok or old not in self.projects:
            return  # cancelled, or another folder was opened meanwhile
        number = self.projects.index(old)
        old_registry = self.registries[number]
        registry = thread.registries[0]
        self.projects[number] = project
        self.registries[number] = registry
        self._refresh_views()
        known = self.query_panel.indexes
        indexes = [known[id(r)] for r in self.registries if id(r) in known] + thread.indexes
        self.query_panel.set_projects(self.projects, self.registries, indexes)
        self.suite_runner.set_projects(self.projects, self.registries)
        self.overlap_map.set_projects(self.projects, self.registries)
        self.watcher.watch([root.path for r in self.registries for root in r.roots])
        self._reopen_tabs(old_registry, registry)
        self._sync_profile_box()
        self.scan_finished.emit()

    def _reopen_tabs(self, old: Registry, new: Registry) -> None:
        """Tabs of the switched project open again under the new rules, in place;
        unsaved text comes along (one undo step back to the file). A skill the new
        profile does not see keeps its tab as it was."""
        shown = self.tabs.currentWidget()
        for path, editor in list(self.documents.items()):
            if editor.document.registry is not old or path not in new.by_path:
                continue
            position = self.tabs.indexOf(editor)
            text = editor.document.text() if editor.document.modified else None
            if self.recovery is not None:
                self.recovery.untrack(path, forget=False)
            self.tabs.removeTab(position)
            del self.documents[path]
            editor.deleteLater()
            reopened = self.open_skill(path)
            if reopened is None:
                continue
            self.tabs.tabBar().moveTab(self.tabs.indexOf(reopened), position)
            if text is not None:
                cursor = QTextCursor(reopened.document.text_document)
                cursor.select(QTextCursor.SelectionType.Document)
                cursor.insertText(text)
            if shown is editor:
                shown = reopened
        if shown is not None:
            self.tabs.setCurrentWidget(shown)
        self._retitle_tabs()


def project_reason(project: Project) -> str:
    """Why the project is read as its profile, in words."""
    reason = project.profile_reason
    if reason == "--profile":
        return "chosen in this window (Profile box or the project's Read As menu)"
    if reason == CONFIG_NAME:
        return f"set by its {CONFIG_NAME}"
    return f"detected ({reason})" if reason else "detected"


def project_status(project: Project) -> str:
    """The status bar's line: which project, read as which profile, and how it was chosen."""
    how = {"--profile": "chosen", CONFIG_NAME: CONFIG_NAME}.get(project.profile_reason, "detected")
    return f"Project {os.path.basename(project.base)} read as {project.profile.name} ({how})"
