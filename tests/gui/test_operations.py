"""Skill operations from the tree: new, rename, duplicate, trash."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillstudio.gui.dialogs.new_skill_dialog import NewSkillDialog
from skillstudio.gui.editor.skill_editor import SkillEditor
from skillstudio.gui.window.main_window import MainWindow


def answer(window: MainWindow, monkeypatch: pytest.MonkeyPatch, *answers: str) -> None:
    queue = list(answers)
    monkeypatch.setattr(window.dialogs, "ask_text", lambda *a, **k: queue.pop(0))

    def typed(dialog: NewSkillDialog) -> bool:
        dialog.name_box.setText(queue.pop(0))
        return True

    monkeypatch.setattr(window.dialogs, "ask_new_skill", typed)


def test_new_skill_is_created_valid_and_opened(
    window: MainWindow, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = str(samples / "oasis/key_skills")
    answer(window, monkeypatch, "triage-bugs")
    path = window.skill_actions.new_skill_in(root)
    assert path is not None and Path(path).is_file()
    assert isinstance(window.tabs.currentWidget(), SkillEditor)
    assert window.statusBar().currentMessage().startswith("32 skills · 0 errors")
    registry = window.workspace.registry_for(path)
    assert registry is not None
    problems = [d.code for d in registry.by_path[path].all_diagnostics if d.severity != "info"]
    assert problems == ["description-placeholder"]  # valid, with its placeholder to replace


def test_rename_and_duplicate_keep_name_and_folder_together(
    window: MainWindow, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(samples / "mvp/skills/code-review/SKILL.md")
    answer(window, monkeypatch, "review-code", "review-code-2")
    renamed = window.skill_actions.rename_skill(path)
    assert renamed is not None and "name: review-code" in Path(renamed, "SKILL.md").read_text()
    copy = window.skill_actions.duplicate_skill(str(Path(renamed, "SKILL.md")))
    assert copy is not None and "name: review-code-2" in Path(copy, "SKILL.md").read_text()
    assert "0 errors · 0 warnings" in window.statusBar().currentMessage()


def test_rename_refuses_with_unsaved_edits(
    window: MainWindow, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(samples / "mvp/skills/code-review/SKILL.md")
    editor = window.open_skill(path)
    assert editor is not None
    editor.source.insertPlainText("unsaved ")
    answer(window, monkeypatch, "renamed")
    assert window.skill_actions.rename_skill(path) is None
    assert Path(path).is_file()


def test_trash_moves_the_folder(
    window: MainWindow, samples: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = samples / "workspace/skills/repo-survey/SKILL.md"
    trashed = window.skill_actions.trash_skill(str(path))
    assert trashed is not None and Path(trashed, "SKILL.md").is_file()
    assert not path.exists()
    assert window.statusBar().currentMessage().startswith("30 skills")
