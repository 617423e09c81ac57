"""SkillDocument: one open SKILL.md — its text, its stamp on disk, its diagnostics."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QTextBlockFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import QPlainTextDocumentLayout

from ...core.editing import recovery
from ...core.editing.saving import (
    SaveConflict,
    SaveError,
    Stamp,
    atomic_write,
    encode,
    read_regular,
)
from ...core.editing.saving import stamp as disk_stamp
from ...core.model.diagnostics import Diagnostic
from ...core.model.document import Document
from ...core.model.skills import Skill
from ...core.reading.frontmatter import MAX_FILE_BYTES
from ...core.scanning.loading import read_unsaved
from ...core.scanning.registry import Registry
from ..infra.background import LatestJob
from ..infra.one_line import one_line

VALIDATE_DELAY_MS = 120
# A text this small is validated on the GUI thread: every check of it, the link
# check's markdown parse included (25-40 µs a block or link), stays well under the
# 50 ms a keystroke may take. A larger one is validated on a worker (every per-skill
# check) and the registry takes the result on the GUI thread (docs/development.md).
SYNC_CHARS = 16_000
SYNC_LINES = 1_000


def end_undo_step(cursor: QTextCursor) -> None:
    """Close the undo step `cursor`'s edit block is making (call it before
    endEditBlock): what is typed next is a step of its own. Qt joins an insertion typed
    where a block's last insertion ended to that block, so one Ctrl+Z took back a form
    edit and the source typing after it. A block format merged with nothing changes
    nothing, and as the block's last command it joins with no typing."""
    cursor.mergeBlockFormat(QTextBlockFormat())


class SkillDocument(QObject):
    """The text on screen is the truth; validation runs on it, debounced.

    Signals:
        diagnostics_changed(list): the document's diagnostics after an edit or save.
        modified_changed(bool): unsaved edits appeared or were saved / reverted.
        save_failed(str): a save did not happen; the text is kept.
        load_failed(str): a reload was refused (what is on disk is not a readable file).
        disk_conflict(str): the file changed (or vanished) on disk under unsaved edits,
            or vanished under a saved text.
        disk_settled(): the file on disk is the tab's again (read again, or back as it
            was saved: a checkout deletes a file and writes it anew), so what
            disk_conflict said no longer holds.
    """

    diagnostics_changed = Signal(list)
    modified_changed = Signal(bool)
    save_failed = Signal(str)
    load_failed = Signal(str)
    disk_conflict = Signal(str)
    disk_settled = Signal()

    def __init__(self, path: str, registry: Registry, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.registry = registry
        # where a save may write (core/model/confinement.py): the folder opened that its
        # root lies in
        skill = registry.by_path.get(path)
        root = skill.root if skill is not None else None
        self.base = (root.base or root.path) if root else os.path.dirname(os.path.dirname(path))
        self.text_document = QTextDocument(self)
        self.text_document.setDocumentLayout(QPlainTextDocumentLayout(self.text_document))
        self.bom = False
        self.stamp: Stamp | None = None
        # Keep mine was chosen over a change on disk: the SHA-256 of the text the tab
        # had read before it (a save asks first, unless the disk holds that text again)
        self.kept_over: str | None = None
        # Save after Keep mine: the diff from the disk to the text on screen, answered
        # 'overwrite', 'reload' or 'cancel' (DocumentTabs asks the user)
        self.ask_overwrite: Callable[[str], str] = lambda _diff: "cancel"
        self.diagnostics: list[Diagnostic] = []
        self.installed: Skill | None = None  # the skill its last validation put in
        self._parsed: tuple[str, Document] | None = None  # the text on screen, read
        self.job = LatestJob(self)  # a large text's validation: the newest lands
        self.closed = False  # its tab closed: it no longer speaks for the file (close())
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(VALIDATE_DELAY_MS)
        self._timer.timeout.connect(self.validate)
        self.text_document.contentsChanged.connect(self._timer.start)
        self.text_document.contentsChanged.connect(self._follow_saved)
        self._saved = ""  # the text last read or saved: the tab is modified while it differs
        self._saved_units = 0  # its length as the document counts (UTF-16 code units)
        self.text_document.modificationChanged.connect(self.modified_changed)
        try:
            self.load()
        except OSError:
            self.setParent(None)  # not kept by the window it was made for
            raise

    @property
    def saved(self) -> str:
        """The text last read or saved (the tab is modified while its text differs)."""
        return self._saved

    @saved.setter
    def saved(self, text: str) -> None:
        self._saved = text
        self._saved_units = len(text.encode("utf-16-le")) // 2

    @property
    def modified(self) -> bool:
        return self.text_document.isModified()

    @property
    def checking(self) -> bool:
        """A worker validates the newest text."""
        return self.job.busy

    @property
    def pending(self) -> bool:
        """An edit is not validated yet (its pause runs, or a worker validates it)."""
        return self._timer.isActive() or self.checking

    def text(self) -> str:
        return self.text_document.toPlainText()

    def parsed(self) -> Document:
        """The text on screen read as the file would be (frontmatter and body split,
        the YAML loaded): once per change of the text, shared by the form, the
        preview and the validation (a keystroke parses the YAML once). Read it, do
        not change it (the validation works on a copy)."""
        return self._read(self.text())

    def _read(self, text: str) -> Document:
        if self._parsed is None or self._parsed[0] != text:
            self._parsed = (text, read_unsaved(self.path, text))
        return self._parsed[1]

    def load(self) -> None:
        """(Re)read the file; the undo history starts afresh. OSError when it is not a
        regular file or is larger than core parses (nothing is changed then)."""
        raw, mtime_ns = read_regular(self.path, MAX_FILE_BYTES)
        self.stamp = Stamp.of_bytes(raw, mtime_ns)
        self.kept_over = None
        text = raw.decode("utf-8", errors="replace")
        self.bom = text.startswith("\ufeff")
        if self.bom:
            text = text[1:]
        self.saved = text
        self.text_document.setPlainText(text)
        self.text_document.setModified(False)
        self.validate()

    def reload(self) -> bool:
        """load(), saying why not (the text on screen is kept) instead of raising;
        read, the tab holds the disk's text again (disk_settled)."""
        try:
            self.load()
        except OSError as exc:
            self.load_failed.emit(f"Not reloaded: the file {exc.strerror or exc}.")
            return False
        self.disk_settled.emit()
        return True

    def _follow_saved(self) -> None:
        """The modified mark follows the text: an edit (a fix, typing, a paste) that
        brings it back to the text last read or saved leaves it unmodified (its undo
        history kept). The lengths first: a keystroke in a long text compares no text."""
        document = self.text_document
        if (
            document.isModified()
            and document.characterCount() == self._saved_units + 1  # + the last block's end
            and self.text() == self.saved
        ):
            document.setModified(False)

    def matches_disk(self) -> bool:
        """The text on screen is the file's on disk now: the tab takes the file's stamp
        and is unmodified (the disk settled on its text: F5, a change on disk). False
        when they differ or the file cannot be read."""
        try:
            raw, mtime_ns = read_regular(self.path, MAX_FILE_BYTES)
        except OSError:
            return False
        if raw.decode("utf-8", errors="replace").removeprefix("\ufeff") != self.text():
            return False
        self.stamp = Stamp.of_bytes(raw, mtime_ns)
        self.kept_over = None
        self.saved = self.text()
        self.text_document.setModified(False)
        self.disk_settled.emit()
        return True

    def on_disk_changed(self) -> None:
        """The file changed outside: reload a clean document, warn about a modified one.

        The app's own saves arrive here too; they match the stamp and are ignored.
        """
        if self.closed:
            return
        try:
            raw, _mtime_ns = read_regular(self.path, MAX_FILE_BYTES)
        except FileNotFoundError:
            self.disk_conflict.emit("The file was deleted on disk. Saving will create it again.")
            return
        except OSError as exc:
            if self.modified:
                self.disk_conflict.emit(
                    f"The file on disk was replaced by one that cannot be read ({exc.strerror}). "
                    "Keep mine, then save, to put your text back."
                )
            return
        if self.stamp is not None and Stamp.of_bytes(raw, 0).sha256 == self.stamp.sha256:
            self.validate()
            self.disk_settled.emit()
            return
        if self.modified and not self.matches_disk():
            self.validate()  # the registry answers for the text on screen, not the disk
            self.disk_conflict.emit("The file changed on disk while you were editing it.")
        elif not self.modified:
            self.reload()

    def keep_mine(self) -> None:
        """Keep the text on screen; the next save shows what it would overwrite on disk
        and asks (`ask_overwrite`) before it does."""
        read = self.stamp.sha256 if self.stamp is not None else None  # what the tab read
        self.stamp = disk_stamp(self.path)
        if self.stamp is None:
            self.kept_over = None  # deleted: nothing on disk to lose
        elif self.kept_over is None:  # kept twice: still the text last read or saved
            self.kept_over = read

    def _overwrite_answer(self) -> str:
        """'overwrite' when saving loses nothing of the disk's (deleted, or the same text
        as on screen), else the user's answer to the diff from the disk to the screen."""
        try:
            raw, _mtime_ns = read_regular(self.path, MAX_FILE_BYTES)
        except OSError:
            return "overwrite"  # gone or unreadable: the save says what it finds
        disk = raw.decode("utf-8", errors="replace").removeprefix("\ufeff")
        if disk == self.text() or Stamp.of_bytes(raw, 0).sha256 == self.kept_over:
            return "overwrite"  # nothing of another program's would be lost
        return self.ask_overwrite(recovery.diff(disk, self.text(), self.path))

    def validate(self) -> None:
        self._reparse(self.text())

    def revalidate(self) -> None:
        """After a refresh that left its file alone: validated again only when the
        registry no longer holds the skill its text made (a full walk read the file),
        else its findings between skills taken as they are now (at 10,000 skills a
        validation, with Problems and the tree updated, is 20-40 ms of a refresh)."""
        skill = self.registry.by_path.get(self.path)
        if skill is None or skill is not self.installed:
            self.validate()
        elif skill.all_diagnostics != self.diagnostics:
            self.diagnostics = skill.all_diagnostics
            self.diagnostics_changed.emit(self.diagnostics)

    def _reparse(self, text: str | None) -> None:
        """The registry re-validates the text on screen (or, None, the file): here when
        the text is small, else on a worker (see SYNC_CHARS). Not once its tab closed:
        the registry reads the file again then, and a closed tab's text (discarded,
        perhaps) must not take its place."""
        if self.closed:
            return
        shown = self.text() if text is None else text
        parsed = self._read(text) if text is not None else None
        if len(shown) > SYNC_CHARS or shown.count("\n", 0, SYNC_CHARS) > SYNC_LINES:
            self._reparse_off_thread(text, parsed)
            return
        self.job.drop()  # a larger text's validation under way is out of date
        self.installed = None
        try:
            skill = self.registry.reparse(self.path, text, parsed)
        except Exception as exc:  # a core bug on this text: say so, keep the text
            self.diagnostics = [internal_error(self.path, exc)]
        else:
            self.diagnostics = skill.all_diagnostics if skill is not None else []
            self.installed = skill if text is not None else None
        self.diagnostics_changed.emit(self.diagnostics)

    def _reparse_off_thread(self, text: str | None, parsed: Document | None) -> None:
        registry = self.registry
        previous = registry.by_path.get(self.path)
        job = registry.rebuild_job(self.path, text, parsed)
        if job is None or previous is None:
            self.job.drop()
            return

        def landed(skill: Skill | None, error: str | None) -> None:
            if skill is None:
                self.diagnostics = [internal_error(self.path, RuntimeError(error))]
            elif registry.install(skill, previous) is None:
                self._reparse(text)  # a refresh replaced it meanwhile: once more
                return
            else:
                self.diagnostics = skill.all_diagnostics
                self.installed = skill if text is not None else None
            self.diagnostics_changed.emit(self.diagnostics)

        self.job.submit(job, landed)

    def close(self) -> None:
        """The tab is closing: no pending validation lands after this, and no later one
        starts (a refresh under way may still hold the tab)."""
        self._timer.stop()
        self.job.drop()
        self.closed = True

    def save(self) -> bool:
        """Atomic save; refuses to overwrite a change made on disk since loading, and
        after Keep mine asks before writing over the disk's text (Reload: the disk's
        text in the tab instead, nothing saved)."""
        if self.kept_over is not None:
            answer = self._overwrite_answer()
            if answer == "reload":
                self.reload()
                return False
            if answer != "overwrite":
                self.save_failed.emit("cancelled: the file on disk is kept as it is")
                return False
        try:
            data = encode(self.text(), self.bom)  # a link is written through, inside base
            self.stamp = atomic_write(self.path, data, self.stamp, base=self.base)
        except SaveConflict as exc:
            self.save_failed.emit(str(exc))
            return False
        except SaveError as exc:
            self.save_failed.emit(str(exc))
            return False
        self.kept_over = None
        self.saved = self.text()
        self.text_document.setModified(False)
        self._reparse(None)
        self.disk_settled.emit()
        return True


def internal_error(path: str, exc: Exception) -> Diagnostic:
    return Diagnostic(
        "internal", "error", f"SkillStudio failed on this text: {one_line(exc)}", path, 1, 1
    )
