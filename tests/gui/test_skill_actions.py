"""SkillActions and Archives on their own: the operations on skill folders, what they
ask, the tabs they close, the reload after each, and the tree's context menu."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from skillstudio.core.editing.skill_ops import OperationError
from skillstudio.gui.controllers.archives import Archives
from skillstudio.gui.controllers.skill_actions import SkillActions

from .parts import Shell, workspace_of


def actions_for(shell: Shell, folder: Path) -> tuple[SkillActions, list[str], list[str]]:
    """The actions over `folder`, with the reloads and the folders asked to open noted."""
    workspace = workspace_of(folder)
    documents = shell.documents(workspace)
    reloads: list[str] = []
    opened: list[str] = []

    def reload() -> None:
        reloads.append("reload")
        for registry in workspace.registries:
            registry.refresh()

    def open_folder(root: str, skill_md: str) -> bool:
        opened.append(skill_md)
        return True

    archives = Archives(shell.dialogs, shell.status, open_folder, lambda: str(folder))
    actions = SkillActions(workspace, documents, archives, shell.dialogs, reload)
    return actions, reloads, opened


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


def test_an_archive_is_unpacked_where_asked_and_its_skill_opened_after_the_scan(
    qtbot: QtBot, samples: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shell = Shell(qtbot)
    actions, _reloads, opened = actions_for(shell, samples / "mvp")
    target = tmp_path / "code-review.skill"
    monkeypatch.setattr(shell.dialogs, "ask_new_file", lambda *a: str(target))
    archive = actions.archives.export_skill(str(samples / "mvp/skills/code-review/SKILL.md"))
    assert archive == str(target) and target.is_file()
    root = tmp_path / "unpacked"
    root.mkdir()
    monkeypatch.setattr(shell.dialogs, "ask_unpack_root", lambda archive: str(root))
    assert actions.archives.open_archive(str(target))
    assert opened == [str(root / "code-review/SKILL.md")]
    assert Path(opened[0]).is_file()
