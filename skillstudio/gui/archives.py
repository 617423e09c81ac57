"""`.skill` archives in the app: export a skill, unpack one and open where it went."""

from __future__ import annotations

import os

from PySide6.QtWidgets import QFileDialog, QMessageBox

from ..core.editing.archive import ArchiveError, pack, unpack
from .document_tabs import DocumentTabs


class Archives(DocumentTabs):
    """MainWindow's archive actions (a part of MainWindow)."""

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
