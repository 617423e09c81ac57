"""The skill tree's context menu and the operations it offers (new, rename, duplicate,
move to trash, reveal): each reloads the folder after it."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QPoint, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QInputDialog, QMenu, QMessageBox

from ..core.editing.archive import ArchiveError
from ..core.editing.round_trip import EditError
from ..core.editing.saving import SaveError
from ..core.editing.skill_ops import (
    OperationError,
    delete_to_trash,
    duplicate_skill,
    new_skill,
    rename_skill,
)
from ..core.projects.project import Project
from .archives import Archives
from .skill_editor import SkillEditor
from .skill_tree_model import KIND_ROLE, PATH_ROLE


class SkillActions(Archives):
    """MainWindow's skill operations (a part of MainWindow)."""

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
            menu.addSeparator()
            self.profile_menu(menu, path)
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

    def _on_new_skill(self) -> None:
        editor = self.tabs.currentWidget()
        roots = [root.path for r in self.registries for root in reversed(r.roots)]
        if isinstance(editor, SkillEditor):
            roots.insert(0, os.path.dirname(os.path.dirname(editor.document.path)))
        if roots:
            self.new_skill_in(roots[0])

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

    def trash_skill(self, path: str) -> str | None:
        editor = self.documents.get(path)
        if editor is not None:
            if editor.document.modified and not self._confirm_discard([editor]):
                return None
            self._untrack(editor)
            self.tabs.removeTab(self.tabs.indexOf(editor))
            self.documents.pop(path, None)
            self._retitle_tabs()
            editor.deleteLater()
        trashed = self._operation(lambda: delete_to_trash(os.path.dirname(path)))
        return trashed if isinstance(trashed, str) else None

    def reveal(self, path: str) -> None:
        folder = path if os.path.isdir(path) else os.path.dirname(path)
        QDesktopServices.openUrl(QUrl.fromLocalFile(folder))
