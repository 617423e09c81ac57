"""What the controllers' own tests build them from, without a main window: a
workspace read from a folder, answers to the dialogs, a tab widget and a status bar."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QMainWindow, QStatusBar, QTabWidget
from pytestqt.qtbot import QtBot

from skillstudio.core.editing import recovery
from skillstudio.core.projects.project import resolve_projects
from skillstudio.gui.controllers.document_tabs import DocumentTabs
from skillstudio.gui.dialogs.questions import Dialogs
from skillstudio.gui.infra.likely_jobs import LikelyIndexes
from skillstudio.gui.infra.workspace import Workspace


class Answers(Dialogs):
    """Dialogs that answer from queues and note what was asked or said."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.interactive = False
        self.asked: list[str] = []
        self.said: list[str] = []
        self.save_answers: list[str] = []
        self.texts: list[str | None] = []
        self.revert = True

    def ask_save(self, names: str) -> str:
        self.asked.append(f"save {names}")
        return self.save_answers.pop(0)

    def ask_revert(self, name: str) -> bool:
        self.asked.append(f"revert {name}")
        return self.revert

    def ask_text(self, title: str, label: str, text: str = "") -> str | None:
        self.asked.append(title)
        return self.texts.pop(0)

    def ask_new_skill(self, dialog: QDialog) -> bool:
        """The next text typed into New Skill's dialog; OK pressed if it is enabled."""
        self.asked.append(dialog.windowTitle())
        text = self.texts.pop(0)
        if text is None:
            return False
        dialog.name_box.setText(text)  # type: ignore[attr-defined]
        ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)  # type: ignore[attr-defined]
        return bool(ok.isEnabled())

    def ask_restore(self, found: recovery.Recovery) -> str:
        self.asked.append(f"restore {found.source}")
        return "restore"

    def warn(self, message: str) -> None:
        self.said.append(message)

    def warning(self, message: str) -> None:
        self.said.append(message)

    def inform(self, message: str) -> None:
        self.said.append(message)


def workspace_of(folder: Path, profile: str | None = None) -> Workspace:
    """The folder's projects, scanned here (as a scan thread would have)."""
    projects = resolve_projects([str(folder)], [], None, profile, os.getcwd())
    registries = [project.registry() for project in projects]
    for registry in registries:
        registry.scan()
    workspace = Workspace()
    workspace.open(str(folder))
    workspace.install(projects, registries)
    return workspace


class Shell:
    """A bare window holding what the controllers are given: tabs, a status bar,
    the dialogs' answers and the likely indexes."""

    def __init__(self, qtbot: QtBot) -> None:
        self.window = QMainWindow()
        qtbot.addWidget(self.window)
        self.tabs = QTabWidget(self.window)
        self.window.setCentralWidget(self.tabs)
        self.status: QStatusBar = self.window.statusBar()
        self.dialogs = Answers(self.window)
        self.likely = LikelyIndexes(self.window)

    def documents(self, workspace: Workspace) -> DocumentTabs:
        return DocumentTabs(
            self.tabs, workspace, self.dialogs, self.status, self.likely, None, self.window
        )
