"""The window's tabs: open skills (editors) and files of skills (read-only views):
opening, saving, closing with unsaved work, undo and revert, and what a change on
disk does to an open tab."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from functools import partial

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QStatusBar, QTabBar, QTabWidget, QToolButton, QWidget

from ...core.model.skills import shown_name
from ...core.reading.safefs import check_regular
from ...core.scanning.registry import Registry
from ..dialogs.questions import Dialogs
from ..editor.competes_line import CompetesLine
from ..editor.file_view import FileView
from ..editor.skill_editor import SkillEditor
from ..editor.where_it_loads import WhereItLoads
from ..infra.one_line import one_line
from ..models.app_context import AppContext
from ..models.skill_document import SkillDocument
from .quick_fixes import FieldFixes
from .recovery_keeper import RecoveryKeeper


class DocumentTabs(QObject):
    """The open skills and files, one tab each, in `tabs`.

    Signals:
    skill_opened(str): a skill got its tab (the SKILL.md path).
    skill_checked(str): an open skill was validated again (its text on screen is
        the registry's truth: the tree row, Problems and the panels follow it).
    skill_closed(str): a skill's tab closed (its registry reads the file on disk again).
    room_wanted(): a skill's Where it loads tab was chosen: a table that wants the
        editor's room (beside Try a Request at 1024x768 it showed 1.5 rows).
    """

    skill_opened = Signal(str)
    skill_checked = Signal(str)
    skill_closed = Signal(str)
    room_wanted = Signal()

    def __init__(
        self,
        tabs: QTabWidget,
        context: AppContext,
        dialogs: Dialogs,
        status_bar: QStatusBar,
        recovery: RecoveryKeeper | None,
        parent: QObject | None = None,
    ) -> None:
        """`context`: what is open (its likely indexes are what the "competes with" line
        scores with); `recovery`: keeps the unsaved text of every open skill (None keeps
        none)."""
        super().__init__(parent)
        self.tabs = tabs
        self.context = context
        self.dialogs = dialogs
        self.status_bar = status_bar
        self.recovery = recovery
        self.editors: dict[str, SkillEditor] = {}  # SKILL.md path -> its tab
        self.file_views: dict[str, FileView] = {}  # file path -> its tab
        tabs.tabCloseRequested.connect(self.close_tab)

    # -- opening ---------------------------------------------------------------------
    def open_skill(self, path: str, line: int = 0, column: int = 1) -> SkillEditor | None:
        """The skill's tab (opened if it was not), made current; at `line` in the
        source view when given."""
        editor = self.editors.get(path)
        if editor is None:
            registry = self.context.registry_for(path) or self._lone_registry(path)
            if registry is None:
                return None
            try:
                document = SkillDocument(path, registry, self)
            except OSError as exc:  # a FIFO, a device, or larger than core parses
                self.status_bar.showMessage(f"Not opened: {path}: {exc.strerror or exc}", 15_000)
                return None
            document.ask_overwrite = partial(self._ask_overwrite, document)
            editor = SkillEditor(document, registry.profile, self.tabs)
            self.editors[path] = editor
            if self.recovery is not None:
                self.recovery.track(document)
            editor.file_link_clicked.connect(self.open_file)
            if registry.profile.model_chooses:  # "competes with" under the description
                competes = CompetesLine(document, self.context.likely_indexes, editor.form)
                if editor.form.add_below("description", competes):
                    competes.open_requested.connect(self.open_skill)
            FieldFixes(editor.form, document, registry.profile)  # "Fix: …" under a field
            number = self.context.project_number(path)
            base = self.context.projects[number].base if number is not None else None
            where = WhereItLoads(document, base, editor)
            editor.views.addTab(where, "Where it loads")
            editor.views.currentChanged.connect(
                lambda _i, e=editor, w=where: (
                    self.room_wanted.emit() if e.views.currentWidget() is w else None
                )
            )
            self._add_tab(editor, path)
            document.modified_changed.connect(lambda _modified, p=path: self._on_modified(p))
            document.diagnostics_changed.connect(lambda _d, p=path: self.skill_checked.emit(p))
            document.diagnostics_changed.connect(lambda _d, p=path: self._on_modified(p))
            self.skill_opened.emit(path)
        self.tabs.setCurrentWidget(editor)
        if line:
            editor.views.setCurrentWidget(editor.source)
            editor.source.go_to(line, column)
        return editor

    def _lone_registry(self, path: str) -> Registry | None:
        """A SKILL.md inside the open folder that the profile in force does not read
        (a tab kept, a crash's text, from another reading of the folder): opened all
        the same, checked under that profile, and the status bar says so."""
        project = self.context.project_holding(path)
        registry = project.lone_registry(path) if project is not None else None
        if project is not None and registry is not None:
            self.status_bar.showMessage(
                f"Opened {path}: {project.profile.name} does not load it from here "
                f"(checked as {project.profile.name} all the same).",
                15_000,
            )
        return registry

    def open_file(self, path: str) -> QWidget | None:
        """A file inside a skill: SKILL.md opens the skill, anything else a read-only tab."""
        path = os.path.normpath(path)
        if os.path.isdir(path):
            path = os.path.join(path, "SKILL.md")
        if self.context.registry_for(path) is not None or os.path.basename(path) == "SKILL.md":
            return self.open_skill(path)
        view = self.file_views.get(path)
        if view is None:
            folder = self.context.skill_folder_of(path)
            if folder is None:
                self.status_bar.showMessage(f"Not opened: {path} is not a file of a skill", 5000)
                return None
            try:  # resolved inside the skill folder and a regular file (the view reads it so)
                check_regular(path, folder)
            except OSError as exc:
                self.status_bar.showMessage(f"Not opened: {path}: {exc}", 15_000)
                return None
            view = FileView(path, folder, self.tabs)
            view.file_link_clicked.connect(self.open_file)
            self.file_views[path] = view
            self._add_tab(view, path)
        self.tabs.setCurrentWidget(view)
        return view

    def current_editor(self) -> SkillEditor | None:
        editor = self.tabs.currentWidget()
        return editor if isinstance(editor, SkillEditor) else None

    def current_path(self) -> str:
        """The SKILL.md of the current tab, "" when it is no skill's."""
        editor = self.current_editor()
        return editor.document.path if editor is not None else ""

    def _add_tab(self, widget: QWidget, path: str) -> None:
        """A tab with a neutral close button (the style's red one on the current tab
        reads as an error mark)."""
        index = self.tabs.addTab(widget, "")
        self.tabs.setTabToolTip(index, path)
        button = QToolButton(self.tabs)
        button.setText("×")
        button.setAutoRaise(True)
        button.setToolTip("Close (Ctrl+W)")
        button.clicked.connect(lambda: self.close_tab(self.tabs.indexOf(widget)))
        self.tabs.tabBar().setTabButton(index, QTabBar.ButtonPosition.RightSide, button)
        self._retitle()

    def _retitle(self) -> None:
        """Tab titles: the skill's name as the tree shows it (a file's name), with the
        project's folder after it where two tabs would read the same, and • when unsaved."""
        names: dict[QWidget, tuple[str, str]] = {}  # tab -> (name, path)
        for path, editor in self.editors.items():
            skill = editor.document.registry.by_path.get(path)
            names[editor] = (shown_name(skill, path), path)
        for path, view in self.file_views.items():
            names[view] = (os.path.basename(path), path)
        taken = [name for name, _path in names.values()]
        for widget, (name, path) in names.items():
            title = name
            if taken.count(name) > 1:
                title = f"{name} · {self.context.project_name(path)}"
            if isinstance(widget, SkillEditor) and widget.document.modified:
                title += " •"
            self.tabs.setTabText(self.tabs.indexOf(widget), title)

    def _on_modified(self, path: str) -> None:
        if path in self.editors:
            self._retitle()

    def _ask_overwrite(self, document: SkillDocument, diff: str) -> str:
        """Save after Keep mine over a change on disk: the user sees the diff and says."""
        name = shown_name(document.registry.by_path.get(document.path), document.path)
        return self.dialogs.ask_overwrite(name, diff)

    def show_view(self, number: int) -> None:
        """View › Form / Source / Preview / Where It Loads (Ctrl+1…4): that view of the
        open skill, focused."""
        editor = self.current_editor()
        if editor is not None and 0 <= number < editor.views.count():
            editor.views.setCurrentIndex(number)
            editor.views.currentWidget().setFocus()

    # -- editing ---------------------------------------------------------------------
    def save_current(self) -> bool:
        editor = self.current_editor()
        if editor is not None:
            editor.clear_message()
            return editor.document.save()
        return True

    def save_all(self) -> bool:
        return all(
            editor.document.save() for editor in self.editors.values() if editor.document.modified
        )

    def undo(self, redo: bool = False) -> None:
        editor = self.current_editor()
        if editor is not None:
            editor.undo(redo)

    def revert_current(self) -> None:
        editor = self.current_editor()
        if editor is None or not editor.document.modified:
            return
        if self.dialogs.ask_revert(os.path.basename(os.path.dirname(editor.document.path))):
            editor.document.reload()

    def find(self) -> None:
        editor = self.current_editor()
        if editor is not None:
            editor.open_find()

    def go_to_line(self) -> None:
        editor = self.current_editor()
        if editor is None:
            return
        line = self.dialogs.ask_line(editor.document.text_document.blockCount())
        if line is not None:
            editor.go_to_line(line)

    def restore_text(self, path: str, text: str) -> SkillEditor | None:
        """Open the skill with `text` in place of the file's, unsaved (one undo step
        back to the file on disk), in its source view."""
        editor = self.open_skill(path)
        if editor is not None:
            _replace_text(editor, text)
            editor.views.setCurrentWidget(editor.source)
        return editor

    # -- closing ---------------------------------------------------------------------
    def close_current(self) -> None:
        index = self.tabs.currentIndex()
        if index >= 0:
            self.close_tab(index)

    def close_tab(self, index: int) -> None:
        """Close the tab at `index` (unsaved work asked about first); a skill's
        registry reads its file on disk again."""
        editor = self.tabs.widget(index)
        if isinstance(editor, FileView):
            self.tabs.removeTab(index)
            self.file_views.pop(editor.path, None)
            editor.deleteLater()
            self._retitle()
            return
        if not isinstance(editor, SkillEditor):
            return
        if editor.document.modified and not self.confirm_discard([editor]):
            return
        path = editor.document.path
        self._remove(editor)
        editor.document.registry.reparse(path)  # back to the file on disk
        self.skill_closed.emit(path)

    def close_skill(self, path: str) -> bool:
        """Close the skill's tab, if open, before its folder goes (unsaved work asked
        about first); False if the user kept it."""
        editor = self.editors.get(path)
        if editor is None:
            return True
        if editor.document.modified and not self.confirm_discard([editor]):
            return False
        self._remove(editor)
        return True

    def close_all(self) -> bool:
        """Close every tab (another folder is opened); False if the user kept them."""
        modified = [e for e in self.editors.values() if e.document.modified]
        if modified and not self.confirm_discard(modified):
            return False
        for editor in self.editors.values():
            self._untrack(editor)
            editor.document.close()
        for widget in [*self.editors.values(), *self.file_views.values()]:
            self.tabs.removeTab(self.tabs.indexOf(widget))
            widget.deleteLater()
        self.editors.clear()
        self.file_views.clear()
        return True

    def release(self) -> bool:
        """The window closes: unsaved work asked about (False: the user kept it), then
        the recovery files of the open skills settled and written."""
        modified = [e for e in self.editors.values() if e.document.modified]
        if modified and not self.confirm_discard(modified):
            return False
        for editor in self.editors.values():
            self._untrack(editor)
        if self.recovery is not None:
            self.recovery.flush()
        return True

    def confirm_discard(self, editors: list[SkillEditor]) -> bool:
        """Ask about unsaved work: True when it was saved or may be dropped."""
        names = ", ".join(os.path.basename(os.path.dirname(e.document.path)) for e in editors)
        answer = self.dialogs.ask_save(names)
        if answer == "save":
            return all(e.document.save() for e in editors)
        return answer == "discard"

    def _remove(self, editor: SkillEditor) -> None:
        self._untrack(editor)
        editor.document.close()  # its pending validation never lands
        self.tabs.removeTab(self.tabs.indexOf(editor))
        self.editors.pop(editor.document.path, None)
        self._retitle()
        editor.deleteLater()

    def _untrack(self, editor: SkillEditor) -> None:
        """The tab closes: its recovery file goes when its unsaved text was discarded
        (a saved document has none left)."""
        if self.recovery is not None:
            self.recovery.untrack(editor.document.path, forget=editor.document.modified)

    # -- the registries changed ----------------------------------------------------------
    def reopen_tabs(self, old: Registry, new: Registry) -> None:
        """Tabs of a project read as another profile open again under the new rules,
        in place; unsaved text comes along (one undo step back to the file). A skill
        the new profile does not see keeps its tab as it was, and so does one whose file
        cannot be read at this moment (deleted, replaced by a FIFO): its tab never
        closes with its text."""
        shown = self.tabs.currentWidget()
        for path, editor in list(self.editors.items()):
            if editor.document.registry is not old or path not in new.by_path:
                continue
            position = self.tabs.indexOf(editor)
            text = editor.document.text() if editor.document.modified else None
            view = editor.views.tabText(editor.views.currentIndex())  # Source stays Source
            if self.recovery is not None:
                self.recovery.untrack(path, forget=False)
            del self.editors[path]
            reopened = self.open_skill(path)  # a tab of its own first, then the old one goes
            if reopened is None:  # the file cannot be read now: the tab stays, text and all
                self.editors[path] = editor
                if self.recovery is not None:
                    self.recovery.track(editor.document)
                continue
            self.tabs.removeTab(self.tabs.indexOf(editor))
            editor.document.close()  # (a refresh under way may still hold it)
            editor.deleteLater()
            self.tabs.tabBar().moveTab(self.tabs.indexOf(reopened), position)
            if text is not None:
                _replace_text(reopened, text)
            names = [reopened.views.tabText(n) for n in range(reopened.views.count())]
            if view in names:
                reopened.views.setCurrentIndex(names.index(view))
            if shown is editor:
                shown = reopened
        if shown is not None:
            self.tabs.setCurrentWidget(shown)
        self._retitle()

    def unsaved_in(self, registry: Registry | None) -> int:
        """The tabs with unsaved edits whose text `registry` holds (what a suite run on
        it reads, where `skillstudio test` reads the files)."""
        return sum(
            1
            for editor in self.editors.values()
            if editor.document.modified and editor.document.registry is registry
        )

    def reload_unmodified(self) -> None:
        """Every tab without unsaved edits reads its file again (Reload); one whose
        edits are the file's text now is unmodified again."""
        for editor in self.editors.values():
            if not editor.document.modified:
                editor.document.reload()
            else:
                editor.document.matches_disk()

    def changed_on_disk(
        self, paths: list[str], failed: Callable[[str, Exception], None]
    ) -> Iterator[bool]:
        """A refresh's step over the tabs after files changed outside: a tab whose
        skill folder changed reads its file again (or says it conflicts with unsaved
        edits); an unsaved one validates again if the refresh read its file (its text
        stays the registry's truth). Yields True after each (each updates Problems and
        the tree: 10-30 ms at 10,000 skills).

        Events run between the steps: a tab closed (or opened again as another
        profile) since is left alone. An unexpected error on one tab is said on it,
        and told to `failed(path, error)`; the tab keeps its text and the other tabs
        go on."""
        changed = set(paths)
        for path, editor in list(self.editors.items()):
            if self.editors.get(path) is not editor:
                continue  # closed meanwhile: its registry reads the file on disk
            folder = os.path.dirname(path) + os.sep
            document = editor.document
            try:
                if path in changed or any(p.startswith(folder) for p in changed):
                    document.on_disk_changed()
                elif document.modified:
                    document.revalidate()
                else:
                    continue
            except Exception as exc:  # a bug on this file: this tab says so, the rest go on
                document.load_failed.emit(
                    f"Reading the file again failed ({one_line(exc)}); the text shown is "
                    "kept. Reload (F5) tries again."
                )
                failed(path, exc)
            yield True


def _replace_text(editor: SkillEditor, text: str) -> None:
    cursor = QTextCursor(editor.document.text_document)
    cursor.select(QTextCursor.SelectionType.Document)
    cursor.insertText(text)
