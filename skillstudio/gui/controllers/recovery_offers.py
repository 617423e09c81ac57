"""Unsaved text a crash left, offered back once the folder with its skill is open."""

from __future__ import annotations

from PySide6.QtCore import QObject

from ...core.editing import recovery
from ..dialogs.questions import Dialogs
from ..editor.skill_editor import SkillEditor
from ..models.app_context import AppContext
from .document_tabs import DocumentTabs


class RecoveryOffers(QObject):
    """Offers the recovery files of skills in the open folder, each once a session."""

    def __init__(
        self,
        folder: str,
        context: AppContext,
        documents: DocumentTabs,
        dialogs: Dialogs,
        parent: QObject | None = None,
    ) -> None:
        """`folder`: where the recovery files are (the RecoveryKeeper's)."""
        super().__init__(parent)
        self.folder = folder
        self.context = context
        self.documents = documents
        self.dialogs = dialogs
        self.offered: set[str] = set()  # recovery files offered this session

    def offer(self) -> None:
        """Offer the unsaved text of skills in the open folder that a crash left."""
        for found in recovery.pending(self.folder):
            if found.file in self.offered or not self._in_open_folder(found.source):
                continue  # offered already, or a file of another folder
            self.offered.add(found.file)
            answer = self.dialogs.ask_restore(found)
            if answer == "restore":
                self.restore(found)
            elif answer == "discard":
                recovery.remove(self.folder, found.source)

    def _in_open_folder(self, path: str) -> bool:
        """A skill read now, or any file inside the open folder however it is read (a
        profile that does not load it still gets its unsaved text back)."""
        return (
            self.context.registry_for(path) is not None
            or self.context.project_holding(path) is not None
        )

    def restore(self, found: recovery.Recovery) -> SkillEditor | None:
        """Put the recovered text into the skill's tab, unsaved (one undo step back
        to the file on disk)."""
        editor = self.documents.restore_text(found.source, found.text)
        if editor is not None:
            recovery.remove(self.folder, found.source)  # kept again from the tab
        else:  # (a file no profile here opens in a tab: a command file, say)
            self.dialogs.warning(
                f"{found.source} cannot be opened in a tab as the folder is read now; its "
                "unsaved text is kept and offered again at the next start. Read the "
                "project as the profile that loads it (the status bar's Profile box) "
                "to restore it."
            )
        return editor
