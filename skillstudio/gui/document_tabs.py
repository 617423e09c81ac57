"""The main window's tabs: open skills (editors) and files of skills (read-only views),
saving, closing with unsaved work, undo and revert."""

from __future__ import annotations

import os

from PySide6.QtWidgets import QMessageBox, QTabBar, QToolButton, QWidget

from ..core.scanning.registry import Registry
from .competes_line import CompetesLine
from .file_view import FileView
from .skill_document import SkillDocument
from .skill_editor import SkillEditor
from .window_base import WindowBase


class DocumentTabs(WindowBase):
    """MainWindow's documents and tabs (a part of MainWindow)."""

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
            if registry.profile.model_chooses:  # "competes with" under the description
                competes = CompetesLine(document, self.query_panel.likely_indexes, editor.form)
                if editor.form.add_below("description", competes):
                    competes.open_requested.connect(self.open_skill)
            self._add_tab(editor, path)
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
        self.overlap_map.skills_changed()

    def _add_tab(self, widget: QWidget, path: str) -> None:
        """A tab with a neutral close button (the style's red one on the current tab
        reads as an error mark)."""
        index = self.tabs.addTab(widget, "")
        self.tabs.setTabToolTip(index, path)
        button = QToolButton(self.tabs)
        button.setText("×")
        button.setAutoRaise(True)
        button.setToolTip("Close (Ctrl+W)")
        button.clicked.connect(lambda: self._on_tab_close_requested(self.tabs.indexOf(widget)))
        self.tabs.tabBar().setTabButton(index, QTabBar.ButtonPosition.RightSide, button)
        self._retitle_tabs()

    def _retitle_tabs(self) -> None:
        """Tab titles: the skill's folder name (a file's name), with the project's
        folder after it where two tabs would read the same, and • when unsaved."""
        names: dict[QWidget, tuple[str, str]] = {}  # tab -> (name, path)
        for path, editor in self.documents.items():
            names[editor] = (os.path.basename(os.path.dirname(path)), path)
        for path, view in self.file_views.items():
            names[view] = (os.path.basename(path), path)
        taken = [name for name, _path in names.values()]
        for widget, (name, path) in names.items():
            title = name
            if taken.count(name) > 1:
                title = f"{name} · {self._project_name(path)}"
            if isinstance(widget, SkillEditor) and widget.document.modified:
                title += " •"
            self.tabs.setTabText(self.tabs.indexOf(widget), title)

    def _project_name(self, path: str) -> str:
        folders = [p.base for p in self.projects if path.startswith(p.base + os.sep)]
        return os.path.basename(max(folders, key=len)) if folders else os.path.dirname(path)

    def _on_modified(self, path: str, modified: bool) -> None:
        if path in self.documents:
            self._retitle_tabs()

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
            self._retitle_tabs()
            return
        if not isinstance(editor, SkillEditor):
            return
        if editor.document.modified and not self._confirm_discard([editor]):
            return
        self._untrack(editor)
        self.tabs.removeTab(index)
        self.documents.pop(editor.document.path, None)
        self._retitle_tabs()
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
            self._add_tab(view, path)
        self.tabs.setCurrentWidget(view)
        return view

    def _skill_folder_of(self, path: str) -> str | None:
        for registry in self.registries:
            for skill_path in registry.by_path:
                folder = os.path.dirname(skill_path)
                if path.startswith(folder + os.sep):
                    return folder
        return None

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

    def _untrack(self, editor: SkillEditor) -> None:
        """The tab closes: its recovery file goes when its unsaved text was discarded
        (a saved document has none left)."""
        if self.recovery is not None:
            self.recovery.untrack(editor.document.path, forget=editor.document.modified)
