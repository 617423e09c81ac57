"""Form and source are two views of one document."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QComboBox, QLineEdit, QPlainTextEdit
from pytestqt.qtbot import QtBot

from skillstudio.gui.editor.field_widgets import TriggersEditor
from skillstudio.gui.editor.skill_editor import SkillEditor
from skillstudio.gui.window.main_window import MainWindow


def open_skill(window: MainWindow, samples: Path, rel: str) -> SkillEditor:
    editor = window.open_skill(str(samples / rel))
    assert editor is not None
    return editor


def test_form_edit_changes_only_that_value_in_the_source(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(window, samples, "oasis/key_skills/commit/SKILL.md")
    before = editor.document.text()
    priority = editor.form.fields["priority"].widget
    assert isinstance(priority, QLineEdit) and priority.text() == "60"
    priority.setFocus()
    priority.selectAll()
    qtbot.keyClicks(priority, "75")
    after = editor.document.text()
    changed = [
        (a, b) for a, b in zip(before.splitlines(), after.splitlines(), strict=True) if a != b
    ]
    assert changed == [("priority: 60", "priority: 75")]
    assert editor.document.modified
    assert window.tabs.tabText(window.tabs.currentIndex()).endswith("•")


def test_typing_in_one_field_is_one_undo_step(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(window, samples, "mvp/skills/code-review/SKILL.md")
    original = editor.document.text()
    description = editor.form.fields["description"].widget
    assert isinstance(description, QPlainTextEdit)
    description.setFocus()
    description.moveCursor(description.textCursor().MoveOperation.End)
    qtbot.keyClicks(description, " quickly")
    assert "severity quickly" in editor.document.text()
    editor.document.text_document.undo()
    assert editor.document.text() == original


def test_source_edit_refreshes_the_form(window: MainWindow, samples: Path, qtbot: QtBot) -> None:
    editor = open_skill(window, samples, "pegasus/skills/deploy/SKILL.md")
    context = editor.form.fields["context"].widget
    assert isinstance(context, QComboBox) and context.currentData() == "fork"
    text = editor.document.text().replace("context: fork", "context: inline")
    editor.source.setPlainText(text)
    assert context.currentData() == "inline"


def test_field_diagnostics_show_beside_the_field(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(window, samples, "agentskills/.agents/skills/release-notes/SKILL.md")
    name = editor.form.fields["name"].widget
    assert isinstance(name, QLineEdit)
    name.setFocus()
    name.selectAll()
    qtbot.keyClicks(name, "Release_Notes")
    qtbot.waitUntil(lambda: editor.form.fields["name"].note.isVisible(), timeout=2000)
    assert "lowercase" in editor.form.fields["name"].note.text()


def test_counter_turns_red_past_the_limit(window: MainWindow, samples: Path, qtbot: QtBot) -> None:
    editor = open_skill(window, samples, "agentskills/.agents/skills/sql-review/SKILL.md")
    field = editor.form.fields["description"]
    assert field.counter.text().endswith("/1024")
    assert isinstance(field.widget, QPlainTextEdit)
    field.widget.setFocus()
    field.widget.setPlainText("x" * 1030)
    assert field.counter.text() == "1030/1024" and "c62828" in field.counter.styleSheet()
    assert "x" * 1030 in editor.document.text()


def test_broken_yaml_disables_the_form_until_fixed(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(window, samples, "workspace/skills/safe-edit/SKILL.md")
    good = editor.document.text()
    editor.source.setPlainText(good.replace("name: safe-edit", "name: [broken"))
    assert editor.form.banner.isVisible()
    assert not editor.form.fields["description"].widget.isEnabled()
    editor.source.setPlainText(good)
    assert not editor.form.banner.isVisible()
    assert editor.form.fields["description"].widget.isEnabled()


def test_other_fields_are_listed_and_kept(window: MainWindow, samples: Path, qtbot: QtBot) -> None:
    path = samples / "mvp/skills/docs/api-reference/SKILL.md"
    path.write_text(path.read_text().replace("---\n# API", "owner: docs-team\n---\n# API", 1))
    window.reload()
    editor = open_skill(window, samples, "mvp/skills/docs/api-reference/SKILL.md")
    assert ("owner", "docs-team") in editor.form.other.rows()
    description = editor.form.fields["description"].widget
    assert isinstance(description, QPlainTextEdit)
    description.setFocus()
    qtbot.keyClicks(description, "!")
    assert window.document_tabs.save_current()
    assert "owner: docs-team" in path.read_text()


def test_text_or_list_fields_keep_their_shape(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(window, samples, "oasis/key_skills/code-review/SKILL.md")
    inputs = editor.form.fields["inputs"].widget
    assert isinstance(inputs, QPlainTextEdit)
    inputs.setFocus()
    inputs.moveCursor(inputs.textCursor().MoveOperation.End)
    qtbot.keyClicks(inputs, "\rtest logs")
    assert "  - changed files\n  - test logs\n" in editor.document.text()
    notes = editor.form.fields["safety_notes"].widget
    assert isinstance(notes, QPlainTextEdit)
    notes.setFocus()
    notes.moveCursor(notes.textCursor().MoveOperation.End)
    qtbot.keyClicks(notes, " Ask first.")
    assert "safety_notes: Read-only; never push or rewrite history while reviewing. Ask first." in (
        editor.document.text()
    )


def test_a_form_edit_after_an_emoji_lands_on_its_value(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    """The editor counts UTF-16 units, Python code points: an emoji (two units) before
    the edited value must not shift the edit onto the text after it."""
    path = samples / "oasis/key_skills/commit/SKILL.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("---\n", "---\n# 🎉🎉 release notes\n", 1), encoding="utf-8")
    editor = open_skill(window, samples, "oasis/key_skills/commit/SKILL.md")
    before = editor.document.text()
    priority = editor.form.fields["priority"].widget
    assert isinstance(priority, QLineEdit) and priority.text() == "60"
    priority.setFocus()
    priority.selectAll()
    qtbot.keyClicks(priority, "75")
    after = editor.document.text()
    assert after == before.replace("priority: 60", "priority: 75", 1)
    assert "# 🎉🎉 release notes" in after


def test_a_short_form_scrolls_rather_than_cut_its_boxes(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    """Issue 30 review: at 1024×768 with Problems open the form is short; its text
    boxes (Inputs, Outputs…) were squeezed to one line and their text cut."""
    window.resize(1024, 500)
    editor = open_skill(window, samples, "oasis/key_skills/code-review/SKILL.md")
    qtbot.wait(50)
    assert editor.form.viewport().height() < 300, "the form is short of room"
    for key, item in editor.form.fields.items():
        widget = item.widget
        assert widget.height() >= widget.sizeHint().height(), key
    inputs = editor.form.fields["inputs"].widget
    assert isinstance(inputs, QPlainTextEdit)
    inputs.setFocus()
    inputs.moveCursor(QTextCursor.MoveOperation.End)
    inputs.insertPlainText("\nmore\nand more")  # the box grows; the page with it
    qtbot.waitUntil(lambda: inputs.height() >= inputs.sizeHint().height() > 60)


def test_trigger_lists_go_under_each_other_rather_than_widen_the_form(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    """At 1024 the three trigger lists side by side made the form scroll sideways and
    cut the counters ("14/6"); there is room for them side by side at 1366."""
    window.resize(1024, 768)
    editor = open_skill(window, samples, "toolsets/.agent/skills/hello-extended/SKILL.md")
    form = editor.form
    page = form.widget()
    assert page is not None
    qtbot.waitUntil(lambda: page.width() <= form.viewport().width())
    counter = form.fields["name"].counter
    right = counter.mapTo(page, counter.rect().topRight()).x()
    assert counter.text() == "14/64" and right < form.viewport().width()
    triggers = form.fields["triggers"].widget
    assert isinstance(triggers, TriggersEditor) and not triggers.side_by_side
    window.resize(1366, 768)
    qtbot.waitUntil(lambda: triggers.side_by_side)
    assert page.width() <= form.viewport().width()
