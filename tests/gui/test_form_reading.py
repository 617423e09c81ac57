"""The form reads at a glance (issue 18, item 12): plain-word messages under the field,
said once, a coloured outline, YAML spelling of defaults, compact lists with labelled
buttons, counters beside the field."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QComboBox, QLineEdit
from pytestqt.qtbot import QtBot

from skillstudio.core.profiles import get_profile
from skillstudio.gui.editor.field_widgets import KeyValueEditor, ListEditor
from skillstudio.gui.infra.theme import colour
from skillstudio.gui.window.main_window import MainWindow

from .test_form_view import open_skill


def type_name(qtbot: QtBot, name: QLineEdit, text: str) -> None:
    name.setFocus()
    name.selectAll()
    qtbot.keyClicks(name, text)


def test_name_messages_are_plain_words_said_once_under_an_outlined_field(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(window, samples, "mvp/skills/code-review/SKILL.md")
    field = editor.form.fields["name"]
    assert isinstance(field.widget, QLineEdit)
    assert "^" not in field.widget.toolTip() and "[a-z" not in field.widget.toolTip()
    type_name(qtbot, field.widget, "Code--Review")
    qtbot.waitUntil(lambda: field.note.isVisible(), timeout=3000)
    note = field.note.text()
    assert note == (
        "Must be lowercase letters, digits and hyphens; no double hyphen, none at the start or end."
    )
    assert "^" not in note and "Code--Review" not in note  # no regular expression, no value
    assert "border" in field.widget.styleSheet()
    assert colour("error_text") in field.widget.styleSheet()
    assert field.note.geometry().top() >= field.widget.geometry().bottom()  # under the field
    type_name(qtbot, field.widget, "code-review")
    qtbot.waitUntil(lambda: not field.note.isVisible(), timeout=3000)
    assert field.widget.styleSheet() == ""


def test_several_messages_do_not_repeat_the_value(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(window, samples, "agentskills/.agents/skills/sql-review/SKILL.md")
    field = editor.form.fields["name"]
    assert isinstance(field.widget, QLineEdit)
    type_name(qtbot, field.widget, "SQL--Review")
    qtbot.waitUntil(lambda: field.note.text().count("\n") >= 2, timeout=3000)
    lines = field.note.text().splitlines()
    assert "Must be lowercase." in lines and "Cannot contain consecutive hyphens." in lines
    assert "SQL--Review" not in field.note.text()
    # The Problems list keeps the whole message (it is read away from the field).
    problems = [d.message for d in editor.document.diagnostics if d.field == "name"]
    assert any("'SQL--Review'" in message for message in problems)


def test_unparsable_yaml_leaves_no_field_message_about_a_value_not_shown(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(window, samples, "agentskills/.agents/skills/sql-review/SKILL.md")
    field = editor.form.fields["name"]
    assert isinstance(field.widget, QLineEdit)
    type_name(qtbot, field.widget, "SQL--Review")
    qtbot.waitUntil(lambda: field.note.isVisible(), timeout=3000)
    text = editor.document.text()
    editor.source.setPlainText(text.replace("description:", "description: [broken", 1))
    qtbot.waitUntil(lambda: editor.form.banner.isVisible(), timeout=3000)
    qtbot.wait(400)  # validation of the broken text has run
    assert field.widget.text() == "" and not field.note.isVisible()
    assert field.widget.styleSheet() == ""


def test_defaults_are_spelled_as_yaml(window: MainWindow, samples: Path) -> None:
    spec = get_profile("pegasus").field("user-invocable")
    assert spec is not None and spec.default is True
    assert "Default: true." in spec.describe() and "True" not in spec.describe()
    editor = open_skill(window, samples, "pegasus/skills/deploy/SKILL.md")
    combo = editor.form.fields["user-invocable"].widget
    assert isinstance(combo, QComboBox)
    assert combo.itemText(0) == "(default: true)"


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


def test_counters_sit_beside_their_field(window: MainWindow, samples: Path) -> None:
    editor = open_skill(window, samples, "agentskills/.agents/skills/sql-review/SKILL.md")
    field = editor.form.fields["name"]
    widget, counter = field.widget.geometry(), field.counter.geometry()
    assert counter.left() >= widget.right()  # to the right, on the same line
    assert widget.top() <= counter.center().y() <= widget.bottom() + 2
