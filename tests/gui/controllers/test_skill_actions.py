"""Tests of gui/controllers/skill_actions.py (What the user does to skills as folders:
new, rename, duplicate, move to trash, reveal (the tree's context menu and File › New
Skill). Each reloads the folder after)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from skillstudio.core.editing.skill_ops import OperationError
from skillstudio.gui.dialogs.new_skill_dialog import NewSkillDialog
from skillstudio.gui.dialogs.questions import Dialogs
from skillstudio.gui.editor.skill_editor import SkillEditor
from skillstudio.gui.window.main_window import MainWindow

from ..parts import Shell, actions_for


def answer(dialogs: Dialogs, monkeypatch: pytest.MonkeyPatch, *answers: str) -> None:
    queue = list(answers)
    monkeypatch.setattr(dialogs, "ask_text", lambda *a, **k: queue.pop(0))

    def typed(dialog: NewSkillDialog) -> bool:
        dialog.name_box.setText(queue.pop(0))
        return True

    monkeypatch.setattr(dialogs, "ask_new_skill", typed)


def test_new_skill_is_created_valid_and_opened(
    window: MainWindow, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = str(samples / "oasis/key_skills")
    answer(window.dialogs, monkeypatch, "triage-bugs")
    path = window.skill_actions.new_skill_in(root)
    assert path is not None and Path(path).is_file()
    assert isinstance(window.tabs.currentWidget(), SkillEditor)
    assert window.statusBar().currentMessage().startswith("52 skills · 0 errors")
    registry = window.context.registry_for(path)
    assert registry is not None
    problems = [d.code for d in registry.by_path[path].all_diagnostics if d.severity != "info"]
    assert problems == ["description-placeholder"]  # valid, with its placeholder to replace


def test_rename_and_duplicate_keep_name_and_folder_together(
    window: MainWindow, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(samples / "mvp/skills/code-review/SKILL.md")
    answer(window.dialogs, monkeypatch, "review-code", "review-code-2")
    renamed = window.skill_actions.rename_skill(path)
    assert renamed is not None and "name: review-code" in Path(renamed, "SKILL.md").read_text()
    copy = window.skill_actions.duplicate_skill(str(Path(renamed, "SKILL.md")))
    assert copy is not None and "name: review-code-2" in Path(copy, "SKILL.md").read_text()
    assert "0 errors · 0 warnings" in window.statusBar().currentMessage()


def test_rename_refuses_with_unsaved_edits(
    qtbot: QtBot, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shell = Shell(qtbot)
    actions, _reloads, _opened = actions_for(shell, samples)
    path = str(samples / "mvp/skills/code-review/SKILL.md")
    editor = actions.documents.open_skill(path)
    assert editor is not None
    editor.source.insertPlainText("unsaved ")
    answer(shell.dialogs, monkeypatch, "renamed")
    assert actions.rename_skill(path) is None
    assert Path(path).is_file()


def test_trash_moves_the_folder(
    window: MainWindow, samples: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = samples / "workspace/skills/repo-survey/SKILL.md"
    trashed = window.skill_actions.trash_skill(str(path))
    assert trashed is not None and Path(trashed, "SKILL.md").is_file()
    assert not path.exists()
    assert window.statusBar().currentMessage().startswith("50 skills")


def test_new_rename_and_duplicate_each_reload_once_and_open_the_new_skill(
    qtbot: QtBot, samples: Path
) -> None:
    shell = Shell(qtbot)
    actions, reloads, _opened = actions_for(shell, samples / "mvp")
    shell.dialogs.texts = ["triage-bugs", "triage-issues", "triage-issues-2"]
    path = actions.new_skill_in(str(samples / "mvp/skills"))
    assert path is not None and Path(path).is_file() and reloads == ["reload"]
    assert actions.documents.current_path() == path
    renamed = actions.rename_skill(path)
    assert renamed is not None and "name: triage-issues" in Path(renamed, "SKILL.md").read_text()
    assert path not in actions.documents.editors, "its tab closed before the folder moved"
    copy = actions.duplicate_skill(str(Path(renamed, "SKILL.md")))
    assert copy is not None and Path(copy, "SKILL.md").is_file()
    assert reloads == ["reload"] * 3
    assert shell.dialogs.asked == ["New skill", "Rename skill", "Duplicate skill"]


def test_a_failed_operation_warns_and_does_not_reload(
    qtbot: QtBot, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shell = Shell(qtbot)
    actions, reloads, _opened = actions_for(shell, samples / "mvp")
    shell.dialogs.texts = ["Not A Valid Name!"]  # corrected as typed: core refuses here

    def refuse(*_args: object) -> str:
        raise OperationError("the folder cannot be renamed")

    monkeypatch.setattr("skillstudio.gui.controllers.skill_actions.rename_skill", refuse)
    path = str(samples / "mvp/skills/code-review/SKILL.md")
    assert actions.rename_skill(path) is None
    assert reloads == [] and len(shell.dialogs.said) == 1


def test_trash_asks_about_unsaved_work_first(
    qtbot: QtBot, samples: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    shell = Shell(qtbot)
    actions, reloads, _opened = actions_for(shell, samples / "mvp")
    path = str(samples / "mvp/skills/code-review/SKILL.md")
    editor = actions.documents.open_skill(path)
    assert editor is not None
    editor.source.insertPlainText("unsaved ")
    shell.dialogs.save_answers = ["cancel", "discard"]
    assert actions.trash_skill(path) is None and Path(path).is_file() and reloads == []
    trashed = actions.trash_skill(path)
    assert trashed is not None and not Path(path).exists() and reloads == ["reload"]
    assert actions.documents.editors == {}


def test_the_tree_menu_offers_what_each_row_can_do(qtbot: QtBot, samples: Path) -> None:
    shell = Shell(qtbot)
    actions, _reloads, _opened = actions_for(shell, samples / "mvp")
    menus = {}
    for kind in ("root", "skill", "file"):
        menu = QMenu()
        actions.fill_menu(menu, kind, str(samples / "mvp/skills/code-review/SKILL.md"))
        menus[kind] = [a.text() for a in menu.actions() if not a.isSeparator()]
    assert menus["root"] == ["New Skill…"]
    assert menus["skill"] == [
        "Open",
        "New Skill Beside…",
        "Rename…",
        "Duplicate…",
        "Export .skill…",
        "Reveal in File Manager",
        "Move to Trash",
    ]
    assert menus["file"] == ["Reveal in File Manager"]
