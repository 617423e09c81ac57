"""Tests of gui/editor/form_view.py (FormView: the profile's fields as typed widgets, one
more view of the same text)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtGui import (
    QKeySequence,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
)
from pytestqt.qtbot import QtBot

from skillstudio.core.profiles import get_profile
from skillstudio.gui.editor.field_notes import MARKS, SeverityNote
from skillstudio.gui.editor.field_widgets import TriggersEditor
from skillstudio.gui.infra.theme import colour
from skillstudio.gui.window.main_window import MainWindow

from ..parts import (
    Editors,
    OpensSkills,
    open_skill,
)

SKILL = "claude-code/.claude/skills/commit-message/SKILL.md"


def _emptied_description(editors: OpensSkills, qtbot: QtBot, path: Path) -> tuple[str, str]:
    editor = editors.open_skill(str(path))
    assert editor is not None
    item = editor.form.fields["description"]
    box = item.widget
    assert isinstance(box, QPlainTextEdit)
    box.setFocus()
    box.clear()
    qtbot.waitUntil(lambda: item.note.isVisible())
    return item.note.text(), box.placeholderText()


def type_name(qtbot: QtBot, name: QLineEdit, text: str) -> None:
    name.setFocus()
    name.selectAll()
    qtbot.keyClicks(name, text)


def _described(editors: OpensSkills, qtbot: QtBot, path: Path, text: str) -> SeverityNote:
    editor = editors.open_skill(str(path))
    assert editor is not None
    item = editor.form.fields["description"]
    box = item.widget
    assert isinstance(box, QPlainTextEdit)
    box.setFocus()
    box.setPlainText(text)
    qtbot.waitUntil(lambda: item.note.isVisible() and "\n" in item.note.text(), timeout=5000)
    return item.note


def test_the_form_shows_claude_code_fields_with_their_help(editors: Editors, samples: Path) -> None:
    editor = editors.open_skill(str(samples / SKILL))
    assert editor is not None
    profile = get_profile("claude-code")
    for key in ("when_to_use", "argument-hint", "arguments", "disable-model-invocation", "effort"):
        field = editor.form.fields[key]
        spec = profile.field(key)
        assert spec is not None and field.widget.toolTip() == spec.describe()
        assert spec.help in field.widget.toolTip()


def test_the_form_shows_codex_fields_with_their_help(editors: Editors, samples: Path) -> None:
    editor = editors.open_skill(str(samples / "codex/.agents/skills/api-review/SKILL.md"))
    assert editor is not None
    fields = editor.form.fields
    assert list(fields) == ["name", "description", "metadata"]
    assert "1,024 characters Codex shows the first 1,021" in fields["description"].widget.toolTip()
    assert "short-description" in fields["metadata"].widget.toolTip()


def test_an_empty_description_says_what_the_agent_does_without_it(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    note, hint = _emptied_description(
        editors, qtbot, samples / "claude-code/.claude/skills/commit-message/SKILL.md"
    )
    assert "Claude Code uses the body's first paragraph" in note
    assert hint == "If empty: the body's first paragraph"
    note, hint = _emptied_description(
        editors, qtbot, samples / "agentskills/.agents/skills/release-notes/SKILL.md"
    )
    assert "does not load this skill while its description is empty: it is required" in note
    assert "add a line" not in note, "the source's wording, not the form's"
    assert hint == "Required"


def test_a_bad_name_is_quoted_once_in_problems_and_the_form(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    """ "'name' 'PDF_Tools' must be lowercase" quoted the key and the value alike;
    it reads "The name 'PDF_Tools' must be lowercase" (the form: "Must be …")."""
    editor = editors.open_skill(str(samples / "agentskills/.agents/skills/release-notes/SKILL.md"))
    assert editor is not None
    item = editor.form.fields["name"]
    box = item.widget
    assert isinstance(box, QLineEdit)
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, "PDF_Tools")
    qtbot.waitUntil(lambda: item.note.isVisible())
    messages = [d.message for d in editor.document.diagnostics if d.field == "name"]
    assert messages and all("'name' '" not in m for m in messages), messages
    assert any(m.startswith("The name 'PDF_Tools' must") for m in messages), messages
    assert item.note.text().startswith("Must "), item.note.text()


# -- 2. the form's fields end at one x -------------------------------------------------------
@pytest.mark.parametrize(
    "skill",
    [
        "agentskills/.agents/skills/sql-review/SKILL.md",  # line and text edits, a map
        "toolsets/src/_bundled_skills/hello-extended/SKILL.md",  # trigger lists
        "oasis/key_skills/commit/SKILL.md",  # no field has a limit: no counter column
    ],
)
def test_form_fields_end_at_one_x(window: MainWindow, samples: Path, skill: str) -> None:
    """On main each field ended where its counter began: Name at 1232, Description at
    1210, License at 1270, Compatibility at 1224 (1280 px window)."""
    window.resize(1280, 800)
    editor = open_skill(window, samples, skill)
    editor.views.setCurrentIndex(0)
    QApplication.processEvents()
    form = editor.form
    inner = form.widget()
    assert inner is not None
    widgets = [f.widget for f in form.fields.values() if f.widget.isVisible()] + [form.other]
    assert len(widgets) >= 5
    rights = {w.objectName(): w.mapTo(inner, QPoint(w.width(), 0)).x() for w in widgets}
    assert len(set(rights.values())) == 1, rights
    name = form.fields["name"]
    if name.spec.max_length is None:
        assert not any(f.counter.isVisible() for f in form.fields.values())
        assert max(rights.values()) >= inner.width() - 12  # the room goes to the fields
    else:
        assert name.counter.text()
        assert name.counter.geometry().left() >= name.widget.geometry().right()


def test_name_messages_are_plain_words_said_once_under_an_outlined_field(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(editors, samples, "mvp/skills/code-review/SKILL.md")
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
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(editors, samples, "agentskills/.agents/skills/sql-review/SKILL.md")
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
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(editors, samples, "agentskills/.agents/skills/sql-review/SKILL.md")
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


def test_defaults_are_spelled_as_yaml(editors: Editors, samples: Path) -> None:
    spec = get_profile("pegasus").field("user-invocable")
    assert spec is not None and spec.default is True
    assert "Default: true." in spec.describe() and "True" not in spec.describe()
    editor = open_skill(editors, samples, "pegasus/skills/deploy/SKILL.md")
    combo = editor.form.fields["user-invocable"].widget
    assert isinstance(combo, QComboBox)
    assert combo.itemText(0) == "(default: true)"


def test_counters_sit_beside_their_field(editors: Editors, samples: Path) -> None:
    editor = open_skill(editors, samples, "agentskills/.agents/skills/sql-review/SKILL.md")
    field = editor.form.fields["name"]
    widget, counter = field.widget.geometry(), field.counter.geometry()
    assert counter.left() >= widget.right()  # to the right, on the same line
    assert widget.top() <= counter.center().y() <= widget.bottom() + 2


def test_form_edit_changes_only_that_value_in_the_source(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(editors, samples, "oasis/key_skills/commit/SKILL.md")
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
    assert editors.tabs.tabText(editors.tabs.currentIndex()).endswith("•")


def test_typing_in_one_field_is_one_undo_step(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(editors, samples, "mvp/skills/code-review/SKILL.md")
    original = editor.document.text()
    description = editor.form.fields["description"].widget
    assert isinstance(description, QPlainTextEdit)
    description.setFocus()
    description.moveCursor(description.textCursor().MoveOperation.End)
    qtbot.keyClicks(description, " quickly")
    assert "severity quickly" in editor.document.text()
    editor.document.text_document.undo()
    assert editor.document.text() == original


def test_a_form_edit_and_the_source_typing_after_it_are_two_undo_steps(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    """A reviewer changed the description in the form, typed after it in the source,
    and one Ctrl+Z took back both (Qt joins an insertion typed where an edit block's
    insertion ended) and the tab went clean."""
    editor = open_skill(editors, samples, "mvp/skills/code-review/SKILL.md")
    original = editor.document.text()
    description = editor.form.fields["description"].widget
    assert isinstance(description, QPlainTextEdit)
    description.setFocus()
    description.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(description, " quickly")
    after_form = editor.document.text()
    assert "severity quickly\n" in after_form
    editor.views.setCurrentWidget(editor.source)
    editor.source.setFocus()
    cursor = editor.source.textCursor()
    cursor.setPosition(after_form.index("severity quickly") + len("severity quickly"))
    editor.source.setTextCursor(cursor)
    qtbot.keyClicks(editor.source, " I help you.")
    both = editor.document.text()
    assert "severity quickly I help you.\n" in both
    undo, redo = QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo
    press = QKeySequence(undo)[0]  # type: ignore[index]  # not in the stubs
    qtbot.keyClick(editor.source, press.key(), press.keyboardModifiers())
    assert editor.document.text() == after_form, "the typing alone is taken back"
    assert editor.document.modified, "the form's edit is still there: the tab stays dirty"
    assert description.toPlainText().endswith("severity quickly")
    qtbot.keyClick(editor.source, press.key(), press.keyboardModifiers())
    assert editor.document.text() == original
    assert not editor.document.modified
    line = original[: original.index("severity")].count("\n")
    assert editor.source.textCursor().blockNumber() == line, "where the form's edit was"
    again = QKeySequence(redo)[0]
    qtbot.keyClick(editor.source, again.key(), again.keyboardModifiers())
    assert editor.document.text() == after_form, "redo brings back one step at a time"
    qtbot.keyClick(editor.source, again.key(), again.keyboardModifiers())
    assert editor.document.text() == both


def test_source_edit_refreshes_the_form(editors: Editors, samples: Path, qtbot: QtBot) -> None:
    editor = open_skill(editors, samples, "pegasus/skills/deploy/SKILL.md")
    context = editor.form.fields["context"].widget
    assert isinstance(context, QComboBox) and context.currentData() == "fork"
    text = editor.document.text().replace("context: fork", "context: inline")
    editor.source.setPlainText(text)
    assert context.currentData() == "inline"


def test_field_diagnostics_show_beside_the_field(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(editors, samples, "agentskills/.agents/skills/release-notes/SKILL.md")
    name = editor.form.fields["name"].widget
    assert isinstance(name, QLineEdit)
    name.setFocus()
    name.selectAll()
    qtbot.keyClicks(name, "Release_Notes")
    qtbot.waitUntil(lambda: editor.form.fields["name"].note.isVisible(), timeout=2000)
    assert "lowercase" in editor.form.fields["name"].note.text()


def test_counter_turns_red_past_the_limit(editors: Editors, samples: Path, qtbot: QtBot) -> None:
    editor = open_skill(editors, samples, "agentskills/.agents/skills/sql-review/SKILL.md")
    field = editor.form.fields["description"]
    assert field.counter.text().endswith("/1024")
    assert isinstance(field.widget, QPlainTextEdit)
    field.widget.setFocus()
    field.widget.setPlainText("x" * 1030)
    assert field.counter.text() == "1030/1024" and "c62828" in field.counter.styleSheet()
    assert "x" * 1030 in editor.document.text()


def test_broken_yaml_disables_the_form_until_fixed(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(editors, samples, "workspace/skills/safe-edit/SKILL.md")
    good = editor.document.text()
    editor.source.setPlainText(good.replace("name: safe-edit", "name: [broken"))
    assert editor.form.banner.isVisible()
    assert not editor.form.fields["description"].widget.isEnabled()
    editor.source.setPlainText(good)
    assert not editor.form.banner.isVisible()
    assert editor.form.fields["description"].widget.isEnabled()


def test_other_fields_are_listed_and_kept(samples: Path, qtbot: QtBot) -> None:
    path = samples / "mvp/skills/docs/api-reference/SKILL.md"
    path.write_text(path.read_text().replace("---\n# API", "owner: docs-team\n---\n# API", 1))
    editors = Editors(qtbot, samples)  # the folder read with the change
    editor = open_skill(editors, samples, "mvp/skills/docs/api-reference/SKILL.md")
    assert ("owner", "docs-team") in editor.form.other.rows()
    description = editor.form.fields["description"].widget
    assert isinstance(description, QPlainTextEdit)
    description.setFocus()
    qtbot.keyClicks(description, "!")
    assert editors.documents.save_current()
    assert "owner: docs-team" in path.read_text()


def test_text_or_list_fields_keep_their_shape(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(editors, samples, "oasis/key_skills/code-review/SKILL.md")
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
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    """The editor counts UTF-16 units, Python code points: an emoji (two units) before
    the edited value must not shift the edit onto the text after it."""
    path = samples / "oasis/key_skills/commit/SKILL.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("---\n", "---\n# 🎉🎉 release notes\n", 1), encoding="utf-8")
    editor = open_skill(editors, samples, "oasis/key_skills/commit/SKILL.md")
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


@pytest.mark.parametrize(
    "rel",
    [
        "agentskills/.agents/skills/sql-review/SKILL.md",
        "codex/.agents/skills/release/changelog/SKILL.md",
    ],
)
def test_each_note_line_has_its_own_severitys_colour(
    editors: Editors, samples: Path, qtbot: QtBot, rel: str
) -> None:
    """ "Says what … but not when to use it" (an info) was red beside the length error
    (orange under codex, beside its warning)."""
    long_text = "Reviews SQL queries and migrations for correctness and locking risks. " * 17
    note = _described(editors, qtbot, samples / rel, long_text)
    severities = dict((line, severity) for severity, line in note.lines)
    assert "info" in severities.values() and set(severities.values()) - {"info"}
    shown = QLabel.text(note)  # the markup: one span a line
    for (severity, line), span in zip(note.lines, shown.split("<br>"), strict=True):
        name, mark = MARKS[severity]
        assert f"color:{colour(name)}" in span and mark in span, (severity, line, span)
    no_when = next(line for line, s in severities.items() if "not when" in line)
    assert severities[no_when] == "info"
    assert colour("key") != colour("error_text") != colour("list_mark")


def test_an_empty_description_is_not_told_about_its_length(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    """Under codex an empty description's note ended "Over 1,024 characters Codex shows
    the first 1,021 and '...'": about a length, of a field with none."""
    editor = editors.open_skill(str(samples / "codex/.agents/skills/release/changelog/SKILL.md"))
    assert editor is not None
    item = editor.form.fields["description"]
    box = item.widget
    assert isinstance(box, QPlainTextEdit)
    box.setFocus()
    box.clear()
    qtbot.waitUntil(lambda: item.note.isVisible(), timeout=5000)
    note = item.note.text()
    assert "it is required" in note and "the model chooses skills by it" in note
    assert "1,021" not in note and "characters" not in note


def test_a_description_left_out_under_claude_code_says_what_claude_reads(
    editors: Editors, qtbot: QtBot
) -> None:
    """Deleting the description under claude-code said nothing, though Claude Code then
    reads the body's first paragraph (and nothing at all when that is missing too)."""
    path = next(
        p
        for r in editors.context.registries
        for p in r.by_path
        if r.profile.name == "claude-code" and p.endswith("commit-message/SKILL.md")
    )
    editor = editors.open_skill(path)
    assert editor is not None
    field = editor.form.fields["description"].widget
    assert isinstance(field, QPlainTextEdit)
    field.setPlainText("")
    qtbot.waitUntil(
        lambda: any(
            d.code == "field-missing" and "first paragraph" in d.message
            for d in editor.document.diagnostics
        ),
        timeout=10_000,
    )
    found = next(d for d in editor.document.diagnostics if d.code == "field-missing")
    assert found.severity == "info" and "uses the body's first paragraph" in found.message
    message = editor.form.fields["description"].note.text()
    assert "first paragraph" in message


def test_typing_at_the_end_of_a_wrapped_description_keeps_its_wrapping(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    """Issue 39: a sentence appended in the form saved a 5-line description as one line."""
    path = samples / "mvp/skills/code-review/SKILL.md"
    wrapped = [
        "description: >-",
        "  Review code quality and risks in a change, with findings",
        "  ordered by severity, each with the line it is about and a",
        "  suggested fix.",
    ]
    text = path.read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.startswith("description:"))
    path.write_text(text.replace(old, "\n".join(wrapped)), encoding="utf-8")
    editor = open_skill(editors, samples, "mvp/skills/code-review/SKILL.md")
    description = editor.form.fields["description"].widget
    assert isinstance(description, QPlainTextEdit)
    description.setFocus()
    description.moveCursor(description.textCursor().MoveOperation.End)
    qtbot.keyClicks(description, " Say which findings block the merge.")
    lines = editor.document.text().splitlines()
    start = lines.index("description: >-")
    assert lines[start : start + 3] == wrapped[:3]  # the lines the edit did not reach
    assert lines[start + 3 : start + 5] == [
        "  suggested fix. Say which findings block the merge.",
        "---",
    ]


def test_notes_on_keys_no_field_declares_show_under_other_fields(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """Claude Code ignores `version` (an info): the note was in Problems only; it shows
    under the Other fields row that holds the key, quieter than a warning."""
    folder = tmp_path / "repo"
    path = folder / ".claude/skills/notes/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(
        "---\nname: notes\ndescription: Takes notes. Use when asked to note.\n"
        "version: 2\n---\n\n# Notes\n\nWrite them.\n",
        encoding="utf-8",
    )
    editors = Editors(qtbot, folder, "claude-code")
    editor = editors.open_skill(str(path))
    assert editor is not None
    note = editor.form.other_note
    qtbot.waitUntil(note.isVisible, timeout=5000)
    assert note.lines and all(severity == "info" for severity, _line in note.lines)
    assert note.text().startswith("'version' is not a Claude Code field"), note.text()
    assert "font-size:small" in QLabel.text(note)  # an info reads quieter than a warning


def test_a_theme_switch_recolours_counters_notes_and_outlines_at_once(
    editors: Editors, samples: Path, qtbot: QtBot, switch_theme: Callable[[str], None]
) -> None:
    """They kept the colours of the theme the form was built in until it was reopened."""
    editor = open_skill(editors, samples, "agentskills/.agents/skills/sql-review/SKILL.md")
    name = editor.form.fields["name"]
    assert isinstance(name.widget, QLineEdit)
    type_name(qtbot, name.widget, "Sql--Review")
    qtbot.waitUntil(lambda: name.note.isVisible(), timeout=3000)
    counter = editor.form.fields["description"].counter
    light, dark = colour("error_text", dark=False), colour("error_text", dark=True)
    assert light in name.widget.styleSheet()
    assert colour("muted", dark=False) in counter.styleSheet()
    switch_theme("dark")
    assert dark in name.widget.styleSheet() and light not in name.widget.styleSheet()
    assert colour("muted", dark=True) in counter.styleSheet()
    assert name.note.text().startswith("Must be lowercase")  # the same words, recoloured
    switch_theme("light")
    assert light in name.widget.styleSheet()


def test_a_change_on_disk_reaches_the_field_in_focus_of_a_saved_tab(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    """A reviewer's lost change: the cursor in Description of a saved tab, the file's
    description changed outside (sed, a checkout); the tab read it again but the
    focused field kept its old text, and the next keystroke and Ctrl+S wrote the old
    description back over the change on disk. The field shows the file's text, and the
    keystroke edits it."""
    path = samples / "mvp/skills/code-review/SKILL.md"
    editor = open_skill(editors, samples, "mvp/skills/code-review/SKILL.md")
    description = editor.form.fields["description"].widget
    assert isinstance(description, QPlainTextEdit)
    description.setFocus()
    qtbot.waitUntil(description.hasFocus, timeout=2000)
    old = description.toPlainText()
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(old.split()[0], "CHANGED-OUTSIDE", 1), encoding="utf-8")
    editor.document.on_disk_changed()
    assert "CHANGED-OUTSIDE" in description.toPlainText()
    description.moveCursor(description.textCursor().MoveOperation.End)
    qtbot.keyClicks(description, " now")
    assert editor.document.save()
    saved = path.read_text(encoding="utf-8")
    assert "CHANGED-OUTSIDE" in saved and " now" in saved
