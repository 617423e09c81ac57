"""`.skill` archives in the app: export a skill, unpack one and open where it went."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QStatusBar

from ...core.editing.archive import ArchiveError, pack, unpack
from ..dialogs.questions import Dialogs

KINDS = "Skill archives (*.skill)"


class Archives(QObject):
    """Export and unpack `.skill` archives (the archive itself is never changed)."""

    def __init__(
        self,
        dialogs: Dialogs,
        status_bar: QStatusBar,
        open_folder: Callable[[str, str], bool],
        folder: Callable[[], str],
        parent: QObject | None = None,
    ) -> None:
        """`open_folder(folder, skill_md)`: open `folder` in the window and, once it is
        scanned, `skill_md` in a tab (False: not opened). `folder()`: the folder open
        now, where the dialogs start."""
        super().__init__(parent)
        self.dialogs = dialogs
        self.status_bar = status_bar
        self.open_folder = open_folder
        self.folder = folder

    def export_skill(self, path: str) -> str | None:
        """Pack the skill of SKILL.md `path` where the user says; the archive's path."""
        folder = os.path.dirname(path)
        default = os.path.join(os.path.dirname(folder), os.path.basename(folder) + ".skill")
        target = self.dialogs.ask_new_file("Export skill", default, KINDS)
        if not target:
            return None
        left_out: list[str] = []
        try:
            archive = pack(folder, target, left_out)
        except ArchiveError as exc:
            self.dialogs.warning(str(exc))
            return None
        if left_out:  # links and special files are never packed: say which
            self.dialogs.inform("Exported; not in the archive:\n" + "\n".join(left_out))
        return archive

    def open_archive(self, archive: str) -> bool:
        """Unpack a `.skill` (where the user says) and open the folder it went into,
        with its SKILL.md in a tab."""
        root = self.dialogs.ask_unpack_root(archive)
        if not root:
            return False
        try:
            folder = unpack(archive, root)
        except (ArchiveError, OSError) as exc:
            self.dialogs.warning(f"Not unpacked: {exc}")
            return False
        if not self.open_folder(root, os.path.join(folder, "SKILL.md")):
            return False
        self.status_bar.showMessage(f"Unpacked {os.path.basename(archive)} into {folder}")
        return True

    def unpack(self) -> None:
        """File › Unpack: an archive chosen in a dialog."""
        path = self.dialogs.ask_file("Unpack a .skill archive", self.folder(), KINDS)
        if path:
            self.open_archive(path)
