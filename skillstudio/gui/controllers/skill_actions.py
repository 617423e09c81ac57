"""What the user does to skills as folders: new, rename, duplicate, move to trash,
reveal (the tree's context menu and File › New Skill). Each reloads the folder after."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QObject, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMenu

from ...core.editing.archive import ArchiveError
from ...core.editing.saving import SaveError
from ...core.editing.skill_ops import (
    NewSkillPlace,
    OperationError,
    delete_to_trash,
    duplicate_skill,
    new_skill,
    new_skill_places,
    place_of,
    rename_skill,
)
from ...core.reading.yaml_io import EditError
from ..dialogs.new_skill_dialog import NewSkillDialog
from ..dialogs.questions import Dialogs
from ..models.app_context import AppContext
from .archives import Archives
from .document_tabs import DocumentTabs


class SkillActions(QObject):
    """Skill operations; each runs in core, then `reload()` shows its outcome."""

    def __init__(
        self,
        context: AppContext,
        documents: DocumentTabs,
        archives: Archives,
        dialogs: Dialogs,
        reload: Callable[[], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.context = context
        self.documents = documents
        self.archives = archives
        self.dialogs = dialogs
        self.reload = reload

    def fill_menu(self, menu: QMenu, kind: str, path: str) -> None:
        """The tree's context menu of a row (`kind`: root, skill or file)."""
        if kind == "root":
            menu.addAction("New Skill…", lambda: self.new_skill_in(path))
        elif kind == "skill":
            menu.addAction("Open", lambda: self.documents.open_skill(path))
            menu.addAction(
                "New Skill Beside…",
                lambda: self.new_skill_in(os.path.dirname(os.path.dirname(path))),
            )
            menu.addAction("Rename…", lambda: self.rename_skill(path))
            menu.addAction("Duplicate…", lambda: self.duplicate_skill(path))
            menu.addAction("Export .skill…", lambda: self.archives.export_skill(path))
            menu.addAction("Reveal in File Manager", lambda: self.reveal(path))
            menu.addSeparator()
            menu.addAction("Move to Trash", lambda: self.trash_skill(path))
        else:
            menu.addAction("Reveal in File Manager", lambda: self.reveal(path))

    def _operation(self, action: Callable[[], object]) -> object | None:
        try:
            result = action()
        except (OperationError, ArchiveError, SaveError, EditError, OSError) as exc:
            self.dialogs.warning(str(exc))
            return None
        self.reload()
        return result

    def places(self, machine: bool = False) -> list[NewSkillPlace]:
        """Where a new skill is loaded, over every open project (highest precedence
        first); the machine's own folders (personal) only with `machine`."""
        found: list[NewSkillPlace] = []
        for registry in self.context.registries:
            found += new_skill_places(registry.profile, reversed(registry.roots), machine)
        return found

    def new_skill_in(self, folder: str) -> str | None:
        """A new skill in `folder` (a root, or the folder a skill is in: the tree's
        menu), named by the user and opened in a tab; a root whose skills go below it
        (a plugin) offers those."""
        places = self.places(machine=True)
        here = place_of(places, folder)
        if here is not None:
            return self._create([here])
        below = [p for p in places if os.path.normpath(p.root.path) == os.path.normpath(folder)]
        return self._create(below or self.places())

    def new_skill(self) -> str | None:
        """File › New Skill: beside the current tab's skill, else where the user chooses
        among the project's places (one place: it)."""
        places = self.places()
        current = self.documents.current_path()
        here = place_of(places, os.path.dirname(os.path.dirname(current))) if current else None
        return self._create([here] if here is not None else places)

    def _create(self, places: list[NewSkillPlace]) -> str | None:
        if not places:
            self.dialogs.warning(
                "Open a folder of skills first (File › Open Folder)."
                if not self.context.projects
                else "No folder of the open project is one an agent loads skills from."
            )
            return None
        window = self.documents.tabs.window()
        dialog = NewSkillDialog(places[0].folder, window, places=places)
        place = dialog.place if self.dialogs.ask_new_skill(dialog) else None
        if place is None:
            return None
        name, title = dialog.name, dialog.title
        path = self._operation(lambda: new_skill(place.profile, place.folder, name, title))
        if isinstance(path, str):
            self.documents.open_skill(path)
            return path
        return None

    def rename_skill(self, path: str) -> str | None:
        editor = self.documents.editors.get(path)
        if editor is not None and editor.document.modified:
            self.dialogs.warning("Save or revert the skill before renaming it.")
            return None
        project = self.context.project_of(path)
        folder = os.path.dirname(path)
        name = self._ask_name("rename", folder)
        if project is None or name is None:
            return None
        if editor is not None:
            self.documents.close_tab(self.documents.tabs.indexOf(editor))
        target = self._operation(lambda: rename_skill(project.profile, folder, name))
        return target if isinstance(target, str) else None

    def _ask_name(self, action: str, folder: str) -> str | None:
        """A new name for the skill in `folder`, corrected as it is typed ("PDF
        Filler!" -> pdf-filler) in New Skill's dialog; None when cancelled."""
        dialog = NewSkillDialog(
            os.path.dirname(folder), self.documents.tabs.window(), action, os.path.basename(folder)
        )
        return dialog.name if self.dialogs.ask_new_skill(dialog) else None

    def duplicate_skill(self, path: str) -> str | None:
        project = self.context.project_of(path)
        folder = os.path.dirname(path)
        name = self._ask_name("duplicate", folder)
        if project is None or name is None:
            return None
        target = self._operation(lambda: duplicate_skill(project.profile, folder, name))
        return target if isinstance(target, str) else None

    def trash_skill(self, path: str) -> str | None:
        if not self.documents.close_skill(path):
            return None
        trashed = self._operation(lambda: delete_to_trash(os.path.dirname(path)))
        return trashed if isinstance(trashed, str) else None

    def reveal(self, path: str) -> None:
        folder = path if os.path.isdir(path) else os.path.dirname(path)
        QDesktopServices.openUrl(QUrl.fromLocalFile(folder))
