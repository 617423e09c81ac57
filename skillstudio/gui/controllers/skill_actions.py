"""What the user does to skills as folders: new, rename, duplicate, move to trash,
reveal (the tree's context menu and File › New Skill). Each reloads the folder after."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMenu, QWidget

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
from ...core.projects.agent_reach import place_loaders
from ...core.reading.yaml_io import EditError
from ..dialogs.new_skill_dialog import NewSkillDialog
from ..dialogs.questions import Dialogs
from ..dialogs.suggest_dialog import SuggestDialog
from ..infra.settings_store import Endpoint as Configured
from ..models.app_context import AppContext
from .archives import Archives
from .document_tabs import DocumentTabs


class SkillActions(QObject):
    """Skill operations; each runs in core, then `reload()` shows its outcome.

    Signals:
    created(str): the SKILL.md of a skill just made (new or duplicated), read already.
    """

    created = Signal(str)

    def __init__(
        self,
        context: AppContext,
        documents: DocumentTabs,
        archives: Archives,
        dialogs: Dialogs,
        reload: Callable[[], None],
        parent: QObject | None = None,
        endpoints: Callable[[], list[Configured]] = list,
    ) -> None:
        super().__init__(parent)
        self.context = context
        self.documents = documents
        self.archives = archives
        self.dialogs = dialogs
        self.reload = reload
        self.endpoints = endpoints  # Settings › Model endpoints (Suggest Requests…)

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
            menu.addAction("Suggest Requests…", lambda: self.suggest_requests(path))
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
        return place_loaders(found)

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
        """File › New Skill: where the user chooses among the project's places, the
        current tab's skill's first and chosen (it was the only one: no choice)."""
        places = self.places()
        current = self.documents.current_path()
        here = place_of(places, os.path.dirname(os.path.dirname(current))) if current else None
        if here is None:
            return self._create(places)
        return self._create([here] + [p for p in places if p is not here], beside=here.folder)

    def _create(self, places: list[NewSkillPlace], beside: str = "") -> str | None:
        if not places:
            self.dialogs.warning(
                "Open a folder of skills first (File › Open Folder)."
                if not self.context.projects
                else "No folder of the open project is one an agent loads skills from."
            )
            return None
        window = self.documents.tabs.window()
        dialog = NewSkillDialog(places[0].folder, window, places=places, beside=beside)
        place = dialog.place if self.dialogs.ask_new_skill(dialog) else None
        if place is None:
            return None
        name, title = dialog.name, dialog.title
        path = self._operation(lambda: new_skill(place.profile, place.folder, name, title))
        if isinstance(path, str):
            editor = self.documents.open_skill(path)
            self.created.emit(path)  # (shown in the tree, the filter cleared if it hid it)
            if editor is not None:  # the placeholder description, the first to replace
                editor.focus_field("description")
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
        if not isinstance(target, str):
            return None
        self.created.emit(os.path.join(target, "SKILL.md"))
        return target

    def trash_skill(self, path: str) -> str | None:
        if not self.documents.close_skill(path):
            return None
        trashed = self._operation(lambda: delete_to_trash(os.path.dirname(path)))
        return trashed if isinstance(trashed, str) else None

    def suggest_dialog(self, path: str) -> SuggestDialog | None:
        """Suggest Requests… for the skill at `path` (its SKILL.md), its suite the first
        one the project lists, else suites/NAME.yaml in the project; None when the
        skill is not active in a project read."""
        registry = self.context.registry_for(path)
        skill = next((s for s in registry.skills if s.path == path), None) if registry else None
        if registry is None or skill is None or registry.active.get(skill.name) is not skill:
            return None
        project = self.context.project_of(path)
        listed = project.config.suites if project is not None and project.config else []
        base = project.base if project is not None else os.path.dirname(path)
        suite = listed[0] if listed else os.path.join(base, "suites", f"{skill.name}.yaml")
        parent = self.parent()
        owner = parent if isinstance(parent, QWidget) else None
        indexes = self.context.likely_indexes
        return SuggestDialog(registry, skill, indexes, self.endpoints(), suite, owner)

    def suggest_requests(self, path: str) -> None:
        dialog = self.suggest_dialog(path)
        if dialog is None:
            self.dialogs.warning("This skill is not loaded (a problem, or another wins its name).")
            return
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()

    def reveal(self, path: str) -> None:
        folder = path if os.path.isdir(path) else os.path.dirname(path)
        QDesktopServices.openUrl(QUrl.fromLocalFile(folder))
