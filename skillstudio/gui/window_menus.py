"""The main window's menus and their dialogs (open, recent folders, find, go to line, about)."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QInputDialog,
    QMenu,
    QMessageBox,
)

from .. import __version__
from ..core.projects.project import CONFIG_NAME
from .skill_actions import SkillActions
from .skill_editor import SkillEditor
from .welcome_page import home_relative

MAX_RECENT = 10


class Menus(SkillActions):
    """MainWindow's menu bar (a part of MainWindow)."""

    def _actions(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self.open_action = self._action(
            file_menu, "&Open Folder…", QKeySequence.StandardKey.Open, self._on_open
        )
        self._action(file_menu, "Open &Project…", "Ctrl+Shift+O", self._on_open_project)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        self._fill_recent_menu()
        self.new_action = self._action(
            file_menu, "&New Skill…", QKeySequence.StandardKey.New, self._on_new_skill
        )
        self._action(file_menu, "&Unpack .skill Archive…", None, self._on_unpack)
        file_menu.addSeparator()
        self.save_action = self._action(
            file_menu, "&Save", QKeySequence.StandardKey.Save, self.save_current
        )
        self.save_all_action = self._action(file_menu, "Save A&ll", "Ctrl+Shift+S", self.save_all)
        self.revert_action = self._action(file_menu, "Re&vert", None, self.revert_current)
        self.reload_action = self._action(
            file_menu, "&Reload Folder", QKeySequence.StandardKey.Refresh, self.reload
        )
        self.close_action = self._action(file_menu, "&Close Tab", "Ctrl+W", self._close_current)
        self.close_action.setShortcuts([QKeySequence("Ctrl+W"), QKeySequence("Ctrl+F4")])
        file_menu.addSeparator()
        self.quit_action = self._action(file_menu, "&Quit", "Ctrl+Q", self.close)
        edit_menu = self.menuBar().addMenu("&Edit")
        self.undo_action = self._action(
            edit_menu, "&Undo", QKeySequence.StandardKey.Undo, lambda: self._undo(False)
        )
        self.redo_action = self._action(
            edit_menu, "&Redo", QKeySequence.StandardKey.Redo, lambda: self._undo(True)
        )
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        edit_menu.addSeparator()
        self.find_action = self._action(
            edit_menu, "&Find / Replace…", QKeySequence.StandardKey.Find, self._on_find
        )
        self.goto_action = self._action(edit_menu, "&Go to Line…", "Ctrl+L", self._on_go_to_line)
        self.filter_action = self._action(
            edit_menu, "Filter &Skills", "Ctrl+P", self.filter_box.setFocus
        )
        view_menu = self.menuBar().addMenu("&View")
        # One entry per panel: Try a Request's (Ctrl+K) shows it and focuses its box.
        view_menu.addAction(self.tree_dock.toggleViewAction())
        view_menu.addAction(self.problems_dock.toggleViewAction())
        view_menu.addAction(self.suites_dock.toggleViewAction())
        self.overlap_action = self.overlap_dock.toggleViewAction()
        self.overlap_action.setText("&Overlap Map")
        view_menu.addAction(self.overlap_action)
        view_menu.addSeparator()
        self.query_action = self._action(
            view_menu, "&Try a Request", "Ctrl+K", self.focus_query_panel
        )
        self.run_suite_action = self._action(view_menu, "Run &Suite", "F6", self.run_suite)
        help_menu = self.menuBar().addMenu("&Help")
        self._action(help_menu, "&About SkillStudio", None, self._on_about)

    def _action(
        self,
        menu: QMenu,
        text: str,
        shortcut: QKeySequence.StandardKey | str | None,
        slot: Callable[[], object],
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def recent_folders(self) -> list[str]:
        stored = self.settings.value("recent", [], list)
        return [p for p in stored if isinstance(p, str)] if isinstance(stored, list) else []

    def _remember_recent(self, folder: str) -> None:
        recent = [p for p in self.recent_folders() if p != folder]
        self.settings.setValue("recent", [folder, *recent][:MAX_RECENT])

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        folders = [p for p in self.recent_folders() if os.path.isdir(p)]
        for number, folder in enumerate(folders, 1):
            shown = home_relative(folder).replace("&", "&&")
            label = f"&{number} {shown}" if number < 10 else shown
            action = self.recent_menu.addAction(label)
            action.triggered.connect(lambda _checked=False, f=folder: self.open_path(f))
        if not folders:
            self.recent_menu.addAction("No recent folders").setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear List", lambda: self.settings.setValue("recent", []))

    def _on_open(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Open a folder of skills", self.base)
        if folder:
            self.open_path(folder)

    def _on_open_project(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Open a SkillStudio project", self.base, f"SkillStudio project ({CONFIG_NAME})"
        )
        if path:
            self.open_path(os.path.dirname(path))

    def _on_find(self) -> None:
        editor = self.tabs.currentWidget()
        if isinstance(editor, SkillEditor):
            editor.open_find()

    def _on_go_to_line(self) -> None:
        editor = self.tabs.currentWidget()
        if not isinstance(editor, SkillEditor):
            return
        count = editor.document.text_document.blockCount()
        line, ok = QInputDialog.getInt(self, "Go to line", f"Line (1-{count}):", 1, 1, count)
        if ok:
            editor.go_to_line(line)

    def _on_about(self) -> None:
        QMessageBox.about(
            self,
            "About SkillStudio",
            f"<b>SkillStudio {__version__}</b><p>Edit, validate and test agent skills offline.</p>",
        )
