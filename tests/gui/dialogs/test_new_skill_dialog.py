"""Tests of gui/dialogs/new_skill_dialog.py (File › New Skill (and the tree's Rename… and
Duplicate…): says which folder the skill goes in, and turns what is typed into a valid
name as it is typed ("PDF Filler!" -> pdf-filler), keeping the typed words as the
heading; nothing typed is lost to a refusal (Rename asked in a plain text box, then
closed on a bad name with the text gone))."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from skillstudio.gui.dialogs.new_skill_dialog import NewSkillDialog
from skillstudio.gui.window.main_window import MainWindow


def test_a_bad_name_is_corrected_live_and_the_heading_keeps_the_typed_words(
    window: MainWindow, samples: Path, qtbot: QtBot, monkeypatch: object
) -> None:
    root = samples / "oasis" / "key_skills"
    warned: list[str] = []
    window.dialogs.warning = warned.append  # type: ignore[method-assign,assignment]
    seen: dict[str, str] = {}

    def typed(dialog: NewSkillDialog) -> bool:
        assert "key_skills" in dialog.where.text(), "says which folder it goes in"
        qtbot.keyClicks(dialog.name_box, "PDF Filler!")
        seen["result"] = dialog.result_label.text()
        assert dialog.name_box.text() == "PDF Filler!", "the text stays as typed"
        ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert ok.isEnabled()
        return True

    window.dialogs.ask_new_skill = typed  # type: ignore[method-assign,assignment]
    path = window.skill_actions.new_skill_in(str(root))
    assert "pdf-filler/SKILL.md" in seen["result"]
    assert path == str(root / "pdf-filler" / "SKILL.md")
    text = Path(path).read_text()
    assert ": pdf-filler\n" in text and "\n# PDF Filler\n" in text, text
    assert not warned


def test_an_existing_folder_keeps_ok_off_and_says_why(samples: Path, qtbot: QtBot) -> None:
    root = samples / "oasis" / "key_skills"
    dialog = NewSkillDialog(str(root))
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert not ok.isEnabled(), "nothing typed yet"
    dialog.name_box.setText("Code Review")
    assert dialog.name == "code-review" and not ok.isEnabled()
    assert "exists already" in dialog.result_label.text()
    dialog.name_box.setText("Code Review 2")
    assert ok.isEnabled() and dialog.title == "Code Review 2"


def test_rename_suggests_a_valid_name_as_typed_and_keeps_the_text(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    """Rename asked in a plain text box: "PDF Filler!" was refused after the box
    closed, the text gone. Now New Skill's dialog corrects it as it is typed."""
    path = samples / "mvp" / "skills" / "code-review" / "SKILL.md"
    warned: list[str] = []
    window.dialogs.warning = warned.append  # type: ignore[method-assign,assignment]
    window.dialogs.ask_text = lambda *a, **k: "PDF Filler!"  # type: ignore[method-assign]
    seen: dict[str, str] = {}

    def typed(dialog: NewSkillDialog) -> bool:
        assert dialog.windowTitle() == "Rename skill"
        assert dialog.name_box.text() == "code-review", "starts from its name"
        ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert ok.text() == "Rename" and not ok.isEnabled(), "the same name is no rename"
        dialog.name_box.clear()
        qtbot.keyClicks(dialog.name_box, "PDF Filler!")
        seen["result"] = dialog.result_label.text()
        assert dialog.name_box.text() == "PDF Filler!", "the text stays as typed"
        assert ok.isEnabled()
        return True

    window.dialogs.ask_new_skill = typed  # type: ignore[method-assign,assignment]
    renamed = window.skill_actions.rename_skill(str(path))
    assert "pdf-filler/" in seen.get("result", ""), seen
    assert renamed == str(samples / "mvp" / "skills" / "pdf-filler")
    assert "name: pdf-filler" in Path(renamed, "SKILL.md").read_text()
    assert not warned and not path.exists()


def test_typing_goes_to_the_name_when_there_are_several_places(samples: Path, qtbot: QtBot) -> None:
    """A third first-time reviewer's dialog opened with the focus on the folder box (two
    places): typing "PR Triage" changed the folder and left the name empty."""
    from skillstudio.core.editing.skill_ops import new_skill_places
    from skillstudio.core.projects.project import project_from_folder

    project = project_from_folder(str(samples / "claude-code"), "claude-code")
    places = new_skill_places(project.profile, project.roots)
    assert len(places) > 1
    roots = [p.folder for p in places]
    dialog = NewSkillDialog(roots[0], places=places)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.choice.isVisible()
    assert dialog.focusWidget() is dialog.name_box
    qtbot.keyClicks(dialog.name_box, "PR Triage")
    assert dialog.name_box.text() == "PR Triage"
    assert dialog.root == roots[0]  # the folder as it was
