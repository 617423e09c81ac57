"""Tests of gui/editor/field_widgets.py (Editors for structured fields: lists, trigger
groups, string maps, other keys)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QListWidget
from pytestqt.qtbot import QtBot

from skillstudio.gui.editor.field_widgets import KeyValueEditor, ListEditor, TriggersEditor

from ..parts import Editors, open_skill


def diff(before: str, after: str) -> tuple[list[str], list[str]]:
    """Lines only in `before`, lines only in `after`."""
    a, b = before.splitlines(), after.splitlines()
    return [x for x in a if x not in b], [y for y in b if y not in a]


def type_into_new_item(qtbot: QtBot, items: ListEditor, text: str) -> None:
    items.buttons.add.click()
    editor = items.list.findChild(QLineEdit)
    assert editor is not None, "the new item opens for typing"
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: text in items.items(), timeout=2000)  # the commit is queued


def test_empty_lists_are_one_line_with_labelled_buttons(qtbot: QtBot) -> None:
    items = ListEditor("keyword")
    qtbot.addWidget(items)
    items.show()
    buttons = items.buttons
    assert [b.text() for b in (buttons.add, buttons.remove, buttons.up, buttons.down)] == [
        "Add",
        "Remove",
        "Up",
        "Down",
    ]
    assert not items.list.isVisible() and buttons.empty.text() == "No keywords yet."
    assert items.sizeHint().height() <= buttons.add.sizeHint().height() + 8
    items.set_value(["one", "two"])
    assert items.list.isVisible() and not buttons.empty.isVisible()
    assert buttons.up.isVisible() and buttons.remove.isVisible()
    assert items.list.height() >= 2 * items.list.sizeHintForRow(0)
    pairs = KeyValueEditor("entry")
    qtbot.addWidget(pairs)
    pairs.show()
    assert not pairs.table.isVisible() and pairs.buttons.empty.text() == "No entries yet."
    assert pairs.sizeHint().height() <= pairs.buttons.add.sizeHint().height() + 8


def test_list_editor_adds_removes_and_reorders_items(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(editors, samples, "oasis/key_skills/commit/SKILL.md")
    triggers = editor.form.fields["triggers"].widget
    assert isinstance(triggers, ListEditor)
    assert triggers.items() == ["commit this", "write a commit message", "commit my changes"]
    original = editor.document.text()

    type_into_new_item(qtbot, triggers, "save my work")
    assert diff(original, editor.document.text()) == ([], ["  - save my work"])

    triggers.list.setCurrentRow(0)
    triggers.buttons.remove.click()
    removed, added = diff(original, editor.document.text())
    assert removed == ["  - commit this"] and added == ["  - save my work"]

    triggers.list.setCurrentRow(2)
    triggers.buttons.up.click()
    qtbot.waitUntil(
        lambda: (
            editor.document.registry.by_path[editor.document.path].raw["triggers"]
            == ["write a commit message", "save my work", "commit my changes"]
        ),
        timeout=2000,
    )
    # three discrete edits, three undo steps back to the file as it was
    for _ in range(3):
        editor.undo()
    assert editor.document.text() == original
    assert triggers.items() == ["commit this", "write a commit message", "commit my changes"]


def test_toolsets_trigger_groups_edit_one_list_in_place(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(editors, samples, "toolsets/src/_bundled_skills/log-triage/SKILL.md")
    groups = editor.form.fields["triggers"].widget
    assert isinstance(groups, TriggersEditor)
    assert groups.lists["keywords"].items() == ["logs", "log file", "traceback"]
    assert groups.lists["patterns"].items() == []
    original = editor.document.text()
    type_into_new_item(qtbot, groups.lists["verbs"], "diagnose")
    assert diff(original, editor.document.text()) == (
        ['  verbs: ["triage"]'],
        ['  verbs: ["triage", "diagnose"]'],
    )
    type_into_new_item(qtbot, groups.lists["patterns"], r"why did .* fail")
    qtbot.waitUntil(
        lambda: (
            editor.document.registry.by_path[editor.document.path].raw["triggers"]
            == {
                "keywords": ["logs", "log file", "traceback"],
                "verbs": ["triage", "diagnose"],
                "patterns": ["why did .* fail"],
            }
        ),
        timeout=2000,
    )
    assert 'keywords: ["logs", "log file", "traceback"]' in editor.document.text()


def test_metadata_map_and_other_fields_edit_their_keys(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(editors, samples, "agentskills/.agents/skills/release-notes/SKILL.md")
    metadata = editor.form.fields["metadata"].widget
    assert isinstance(metadata, KeyValueEditor)
    assert metadata.rows() == [("author", "skillstudio"), ("version", "1.0")]
    original = editor.document.text()
    item = metadata.table.item(0, 1)
    assert item is not None
    item.setText("docs team")
    assert diff(original, editor.document.text()) == (
        ["  author: skillstudio"],
        ["  author: docs team"],
    )

    other = editor.form.other
    assert other.rows() == []
    other.add_row()
    key_item, value_item = other.table.item(0, 0), other.table.item(0, 1)
    assert key_item is not None and value_item is not None
    value_item.setText("3")
    key_item.setText("reviewers")
    assert "\nreviewers: 3\n---\n" in editor.document.text()
    qtbot.waitUntil(
        lambda: editor.document.registry.by_path[editor.document.path].raw.get("reviewers") == 3,
        timeout=2000,
    )
    other.table.setCurrentCell(0, 0)
    other.remove_current()
    assert "reviewers" not in editor.document.text()


def test_metadata_entry_edit_writes_that_entry_only(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    """One entry edited in the app is the same dotted-key edit as `set KEY.ENTRY=VALUE`:
    the other entries keep their text, their YAML type and their comments."""
    path = samples / "agentskills/.agents/skills/release-notes/SKILL.md"
    text = path.read_text(encoding="utf-8")
    head, _, rest = text.partition("metadata:\n")
    rest = rest.split("---\n", 1)[1]
    path.write_text(
        head
        + "metadata:\n  author: skillstudio  # team\n  version: 1.10\n  build: 7\n---\n"
        + rest,
        encoding="utf-8",
    )
    editor = open_skill(editors, samples, "agentskills/.agents/skills/release-notes/SKILL.md")
    metadata = editor.form.fields["metadata"].widget
    assert isinstance(metadata, KeyValueEditor)
    original = editor.document.text()
    item = metadata.table.item(0, 1)
    assert item is not None
    item.setText("docs team")
    assert diff(original, editor.document.text()) == (
        ["  author: skillstudio  # team"],
        ["  author: docs team  # team"],
    )
    metadata.table.setCurrentCell(2, 0)
    metadata.remove_current()
    assert "build" not in editor.document.text()
    assert "  version: 1.10\n" in editor.document.text()


def test_ctrl_z_in_a_field_undoes_the_document(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(editors, samples, "oasis/key_skills/commit/SKILL.md")
    original = editor.document.text()
    priority = editor.form.fields["priority"].widget
    assert isinstance(priority, QLineEdit)
    priority.setFocus()
    priority.selectAll()
    qtbot.keyClicks(priority, "75")
    triggers = editor.form.fields["triggers"].widget
    assert isinstance(triggers, ListEditor)
    triggers.list.setCurrentRow(0)
    triggers.buttons.remove.click()
    assert "priority: 75" in editor.document.text()
    priority.setFocus()
    qtbot.keyClick(priority, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert "  - commit this" in editor.document.text()  # the last step: the removal
    assert "priority: 75" in editor.document.text()
    qtbot.keyClick(priority, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert editor.document.text() == original
    assert priority.text() == "60", "the focused field shows the undone value"
    qtbot.keyClick(
        priority,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert "priority: 75" in editor.document.text() and priority.text() == "75"


def test_list_items_are_keyboard_reachable(editors: Editors, samples: Path, qtbot: QtBot) -> None:
    editor = open_skill(editors, samples, "oasis/key_skills/commit/SKILL.md")
    triggers = editor.form.fields["triggers"].widget
    assert isinstance(triggers, ListEditor)
    assert isinstance(triggers.focusProxy(), QListWidget)
    triggers.list.setFocus()
    triggers.list.setCurrentRow(1)
    qtbot.keyClick(triggers.list, Qt.Key.Key_F2)
    line = triggers.list.findChild(QLineEdit)
    assert line is not None
    line.selectAll()
    qtbot.keyClicks(line, "write the commit message")
    qtbot.keyClick(line, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "write the commit message" in triggers.items(), timeout=2000)
    assert "  - write the commit message\n" in editor.document.text()
