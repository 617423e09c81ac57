"""Tests of gui/controllers/skill_actions.py (What the user does to skills as folders:
new, rename, duplicate, move to trash, reveal (the tree's context menu and File › New
Skill). Each reloads the folder after)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox, QMenu, QPlainTextEdit
from pytestqt.qtbot import QtBot

from skillstudio.core.editing.skill_ops import OperationError
from skillstudio.gui.dialogs.new_skill_dialog import NewSkillDialog
from skillstudio.gui.dialogs.questions import Dialogs
from skillstudio.gui.editor.skill_editor import SkillEditor
from skillstudio.gui.window.main_window import MainWindow

from ...helpers import skill_text, write
from ..parts import Shell, actions_for, open_tab, open_window, skill_names


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
    # valid, with its placeholders to replace: the description's and the body's steps
    assert problems == ["description-placeholder", "body-placeholder"]


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
        "Suggest Requests…",
        "Reveal in File Manager",
        "Move to Trash",
    ]
    assert menus["file"] == ["Reveal in File Manager"]


# -- File › New Skill in a plugin repository (issue 39, item 1) ------------------------
def _plugin(base: Path, name: str, skills: tuple[str, ...]) -> None:
    write(base, ".claude-plugin/plugin.json", json.dumps({"name": name, "version": "1.0.0"}))
    for skill in skills:
        write(base, f"skills/{skill}/SKILL.md", skill_text(name=skill))


def _market(base: Path) -> Path:
    plugins = [{"name": p, "source": f"./plugins/{p}"} for p in ("docs", "ops")]
    market = {"name": "team", "owner": {"name": "Team"}, "plugins": plugins}
    write(base, ".claude-plugin/marketplace.json", json.dumps(market))
    _plugin(base / "plugins/docs", "docs", ("write-guides",))
    _plugin(base / "plugins/ops", "ops", ("deploy-apps", "watch-logs"))
    return base


def _typed(window: MainWindow, text: str) -> list[NewSkillDialog]:
    """New Skill's dialog answered with `text` (OK when it is enabled); the dialogs shown."""
    shown: list[NewSkillDialog] = []

    def ask(dialog: QDialog) -> bool:
        assert isinstance(dialog, NewSkillDialog)
        shown.append(dialog)
        dialog.name_box.setText(text)
        return dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()

    window.dialogs.ask_new_skill = ask  # type: ignore[method-assign]
    return shown


def test_ctrl_n_with_a_tab_open_makes_the_skill_in_the_plugins_skills_folder(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    repo = tmp_path / "plugin"
    _plugin(repo, "demo", ("alpha-one", "beta-two"))
    window = open_window(qtbot, settings, repo)
    assert len(skill_names(window)) == 2
    editor = open_tab(window, repo / "skills/alpha-one/SKILL.md")
    shown = _typed(window, "Release notes")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    editor.source.setFocus()
    QTest.keyClick(editor.source, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert [d.root for d in shown] == [str(repo / "skills")], "the dialog came, in skills/"
    made = repo / "skills/release-notes/SKILL.md"
    assert made.is_file() and not (repo / "release-notes").exists()
    assert sorted(skill_names(window)) == [
        "demo:" + n for n in ("alpha-one", "beta-two", "release-notes")
    ]
    assert window.document_tabs.current_path() == str(made)


def test_new_skill_with_no_tab_targets_the_plugin_not_the_repository_root(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    repo = tmp_path / "plugin"
    _plugin(repo, "demo", ("alpha-one",))
    window = open_window(qtbot, settings, repo)
    shown = _typed(window, "release-notes")
    window.menu_actions.new_action.trigger()
    assert len(shown) == 1 and shown[0].root == str(repo / "skills")
    assert "plugin:demo" in shown[0].where.text(), "it says which agent loads it"
    assert (repo / "skills/release-notes/SKILL.md").is_file()
    assert len(skill_names(window)) == 2


def test_new_skill_in_a_marketplace_asks_which_plugin_and_uses_the_choice(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    repo = _market(tmp_path / "market")
    window = open_window(qtbot, settings, repo)
    assert len(skill_names(window)) == 3
    shown: list[NewSkillDialog] = []

    def ask(dialog: QDialog) -> bool:
        assert isinstance(dialog, NewSkillDialog)
        shown.append(dialog)
        labels = [dialog.choice.itemText(i) for i in range(dialog.choice.count())]
        assert dialog.choice.isVisibleTo(dialog) and len(labels) == 2
        pick = next(i for i, text in enumerate(labels) if "plugin:ops" in text)
        dialog.choice.setCurrentIndex(pick)
        dialog.name_box.setText("rotate-keys")
        return True

    window.dialogs.ask_new_skill = ask  # type: ignore[method-assign]
    made = window.skill_actions.new_skill()
    assert made == str(repo / "plugins/ops/skills/rotate-keys/SKILL.md")
    assert shown[0].place is not None and shown[0].place.root.label == "plugin:ops"
    assert len(skill_names(window)) == 4
    assert window.document_tabs.current_path() == made


def test_new_skill_beside_a_plugin_skill_stays_in_its_plugin(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    repo = _market(tmp_path / "market")
    window = open_window(qtbot, settings, repo)
    shown = _typed(window, "tail-logs")
    open_tab(window, repo / "plugins/ops/skills/watch-logs/SKILL.md")
    made = window.skill_actions.new_skill()
    assert made == str(repo / "plugins/ops/skills/tail-logs/SKILL.md")
    assert shown[0].choice.currentIndex() == 0, "the current skill's root, chosen"


def test_new_skill_with_a_tab_open_offers_every_place_the_open_skills_first(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """With a tab open the folder was fixed to its skill's root: no other plugin could
    be chosen without closing every tab."""
    repo = _market(tmp_path / "market")
    window = open_window(qtbot, settings, repo)
    open_tab(window, repo / "plugins/ops/skills/watch-logs/SKILL.md")
    shown: list[NewSkillDialog] = []

    def ask(dialog: QDialog) -> bool:
        assert isinstance(dialog, NewSkillDialog)
        shown.append(dialog)
        labels = [dialog.choice.itemText(i) for i in range(dialog.choice.count())]
        assert dialog.choice.isVisibleTo(dialog) and len(labels) == 2
        assert "plugin:ops, beside the open skill" in labels[0]  # first, said, and chosen
        assert dialog.place is not None and dialog.place.root.label == "plugin:ops"
        assert "plugin:docs)" in labels[1]  # who loads each place
        dialog.choice.setCurrentIndex(1)
        dialog.name_box.setText("style-guide")
        return True

    window.dialogs.ask_new_skill = ask  # type: ignore[method-assign]
    made = window.skill_actions.new_skill()
    assert len(shown) == 1
    assert made == str(repo / "plugins/docs/skills/style-guide/SKILL.md")
    assert window.document_tabs.current_path() == made


def test_new_skill_with_no_folder_open_says_what_to_do(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    window = open_window(qtbot, settings, _market(tmp_path / "market"))
    assert window.close_folder()
    said: list[str] = []
    window.dialogs.warning = said.append  # type: ignore[method-assign,assignment]
    shown = _typed(window, "anything")
    window.menu_actions.new_action.trigger()
    assert shown == [] and said == ["Open a folder of skills first (File › Open Folder)."]


def test_a_roots_menu_new_skill_goes_in_that_root(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The personal folder (the machine's, not the project's) from its own menu."""
    home = tmp_path / "home"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    write(home, ".claude/skills/mine/SKILL.md", skill_text(name="mine"))
    repo = tmp_path / "plugin"
    _plugin(repo, "demo", ("alpha-one",))
    window = open_window(qtbot, settings, repo)
    shown = _typed(window, "notes")
    personal = str(home / ".claude/skills")
    made = window.skill_actions.new_skill_in(personal)
    assert made == str(home / ".claude/skills/notes/SKILL.md")
    assert shown[0].where.text().startswith("In <b>") and "personal" in shown[0].where.text()
    assert window.skill_actions.new_skill_in(str(repo)) == str(repo / "skills/notes/SKILL.md")


def test_a_new_skill_shows_in_a_filtered_tree_and_says_the_filter_was_cleared(
    window: MainWindow, samples: Path, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    """With "review" in the filter box a new skill "triage-bugs" was made and opened
    but had no row: the tree seemed not to have it."""
    window.filter_box.setText("review")
    qtbot.waitUntil(lambda: window.tree_model.filter_text == "review")
    root = str(samples / "oasis/key_skills")
    answer(window.dialogs, monkeypatch, "triage-bugs", "triage-bugs-2")
    path = window.skill_actions.new_skill_in(root)
    assert path is not None
    assert window.filter_box.text() == "" and window.tree_model.filter_text == ""
    assert window.skill_tree.current_path() == path  # its row shown and selected
    said = "Filter \u201creview\u201d cleared to show the new skill."
    assert window.statusBar().currentMessage() == said
    assert window.filter_box.placeholderText() == said  # kept when the status line changes
    # a skill the filter shows keeps the filter: nothing to clear, nothing said
    window.filter_box.setText("triage")
    qtbot.waitUntil(lambda: window.tree_model.filter_text == "triage")
    assert window.filter_box.placeholderText() == "Filter skills…"  # typed in: said
    copy = window.skill_actions.duplicate_skill(path)
    assert copy is not None and window.skill_tree.current_path() == str(Path(copy, "SKILL.md"))
    assert window.filter_box.text() == "triage"
    assert "cleared" not in window.statusBar().currentMessage()


def test_a_new_skill_puts_the_cursor_in_its_description_with_the_placeholder_selected(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """A reviewer's day: after File › New Skill the keyboard was in "Filter skills…",
    not in the new skill's placeholder description, the first thing to replace."""
    repo = tmp_path / "plugin"
    _plugin(repo, "demo", ("alpha-one",))
    window = open_window(qtbot, settings, repo)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.skill_tree.filter_box.setFocus()  # where the reviewer had been
    _typed(window, "release-notes")
    window.menu_actions.new_action.trigger()
    editor = window.tabs.currentWidget()
    assert isinstance(editor, SkillEditor)
    assert window.document_tabs.current_path() == str(repo / "skills/release-notes/SKILL.md")
    field = editor.form.fields["description"].widget
    assert isinstance(field, QPlainTextEdit)
    qtbot.wait(50)  # the tree's reveal and the scan's end, after the tab opened
    assert QApplication.focusWidget() is field
    cursor = field.textCursor()
    assert field.toPlainText() and cursor.selectedText() == field.toPlainText()
    QTest.keyClicks(field, "Drafts release notes")
    assert field.toPlainText() == "Drafts release notes"
