"""The questions the window asks and the messages it shows, in one place that tests
answer instead of a person."""

from __future__ import annotations

import os
import sys

from PySide6.QtCore import qVersion
from PySide6.QtWidgets import QDialog, QFileDialog, QInputDialog, QMainWindow, QMessageBox

from ... import __version__
from ...core.editing import recovery
from .help_window import HelpWindow, docs_folder
from .overwrite_dialog import OverwriteDialog
from .restore_dialog import RestoreDialog
from .shortcuts_window import ShortcutsWindow

TITLE = "SkillStudio"


class Dialogs:
    """Every modal question and message of the window's controllers. A test (or the
    smoke test) replaces a method with its answer: `window.dialogs.ask_save =
    lambda names: "discard"`."""

    def __init__(self, window: QMainWindow) -> None:
        self.window = window
        self.interactive = True  # False (--smoke-test): warnings go to stderr, not a dialog
        self.guide: HelpWindow | None = None  # Help › User Guide, once opened
        self.shortcuts: ShortcutsWindow | None = None  # Help › Keyboard Shortcuts

    # -- questions -------------------------------------------------------------------
    def ask_save(self, names: str) -> str:
        """'save', 'discard' or 'cancel' for unsaved work."""
        answer = QMessageBox.question(
            self.window,
            "Unsaved changes",
            f"Save changes to {names}?",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Save:
            return "save"
        return "discard" if answer == QMessageBox.StandardButton.Discard else "cancel"

    def ask_revert(self, name: str) -> bool:
        """Whether to drop the unsaved edits of `name`."""
        answer = QMessageBox.question(
            self.window,
            "Revert",
            f"Discard the unsaved changes to {name} and reload it from disk?",
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Discard

    def ask_create_config(self, question: str) -> bool:
        """Whether to create a project's skillstudio.yaml (Settings › Advice rules)."""
        answer = QMessageBox.question(
            self.window,
            "Create skillstudio.yaml",
            question,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Yes

    def ask_record_profile(self, question: str) -> bool:
        """Whether to write the profile chosen in the app to the project's skillstudio.yaml."""
        answer = QMessageBox.question(
            self.window,
            "Profile for the command line",
            question,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def ask_text(self, title: str, label: str, text: str = "") -> str | None:
        """A line of text from the user, or None."""
        value, ok = QInputDialog.getText(self.window, title, label, text=text)
        return value.strip() if ok and value.strip() else None

    def ask_line(self, count: int) -> int | None:
        """A line number from 1 to `count`, or None."""
        line, ok = QInputDialog.getInt(self.window, "Go to line", f"Line (1-{count}):", 1, 1, count)
        return line if ok else None

    def ask_settings(self, dialog: QDialog) -> bool:
        """Edit › Settings shown; True when the user pressed OK."""
        return dialog.exec() == QDialog.DialogCode.Accepted

    def ask_new_skill(self, dialog: QDialog) -> bool:
        """New Skill's dialog (also Rename's and Duplicate's) shown; True on OK."""
        return dialog.exec() == QDialog.DialogCode.Accepted

    def ask_restore(self, found: recovery.Recovery) -> str:
        """'restore', 'discard' or 'later' for text a crash left."""
        dialog = RestoreDialog(found, self.window)
        dialog.exec()
        return dialog.answer

    def ask_overwrite(self, name: str, diff: str) -> str:
        """'overwrite', 'reload' or 'cancel': Save after Keep mine, the file on disk
        holding text the tab does not (`diff`: from the disk to the tab's text)."""
        dialog = OverwriteDialog(name, diff, self.window)
        dialog.exec()
        return dialog.answer

    def ask_unpack_root(self, archive: str) -> str | None:
        """The folder to unpack an archive into."""
        folder = QFileDialog.getExistingDirectory(
            self.window,
            f"Unpack {os.path.basename(archive)} into which skills folder?",
            os.path.dirname(os.path.abspath(archive)),
        )
        return folder or None

    def ask_folder(self, title: str, start: str) -> str | None:
        return QFileDialog.getExistingDirectory(self.window, title, start) or None

    def ask_file(self, title: str, start: str, kinds: str) -> str | None:
        """An existing file to open (`kinds`: the dialog's filter)."""
        path, _ = QFileDialog.getOpenFileName(self.window, title, start, kinds)
        return path or None

    def ask_new_file(self, title: str, default: str, kinds: str) -> str | None:
        """Where to write a new file."""
        path, _ = QFileDialog.getSaveFileName(self.window, title, default, kinds)
        return path or None

    # -- messages --------------------------------------------------------------------
    def warn(self, message: str) -> None:
        """A warning in a dialog (on stderr when not interactive) and the status bar."""
        self.window.statusBar().showMessage(message, 30_000)
        if self.interactive:
            QMessageBox.warning(self.window, TITLE, message)
        else:
            sys.stderr.write(f"skillstudio: {message}\n")

    def warning(self, message: str) -> None:
        """A warning in a dialog only (an operation the user asked for failed)."""
        QMessageBox.warning(self.window, TITLE, message)

    def inform(self, message: str) -> None:
        QMessageBox.information(self.window, TITLE, message)

    def user_guide(self) -> None:
        """Help › User Guide: docs/guide.md in a window of its own (one, raised again)."""
        folder = docs_folder()
        if folder is None:
            QMessageBox.information(
                self.window, "User Guide", "The documentation is not installed with this copy."
            )
            return
        if self.guide is None:
            self.guide = HelpWindow(folder, self.window)
        self.guide.show()
        self.guide.raise_()
        self.guide.activateWindow()

    def keyboard_shortcuts(self) -> None:
        """Help › Keyboard Shortcuts: read from the menus' actions each time."""
        if self.shortcuts is None:
            self.shortcuts = ShortcutsWindow(self.window)
        self.shortcuts.fill()
        self.shortcuts.show()
        self.shortcuts.raise_()

    def about(self) -> None:
        QMessageBox.about(
            self.window,
            "About SkillStudio",
            f"<b>SkillStudio {__version__}</b><p>Edit, validate and test agent skills "
            f"offline.</p><p>Python {sys.version.split()[0]}, Qt {qVersion()}. Skill files "
            "are read, never run. Help › User Guide has the documentation; Help › Keyboard "
            "Shortcuts the keys.</p>",
        )
