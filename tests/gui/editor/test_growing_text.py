"""Tests of gui/editor/growing_text.py (A form's text box as tall as its text: two lines
empty, growing with what is written up to a limit (then it scrolls). An empty
Compatibility box was as tall as a Description of 1,068 characters)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from ..parts import Editors


def test_an_empty_text_box_is_not_taller_than_a_long_description(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    path = samples / "agentskills" / ".agents" / "skills" / "release-notes" / "SKILL.md"
    editor = editors.open_skill(str(path))
    assert editor is not None
    description = editor.form.fields["description"].widget
    compatibility = editor.form.fields["compatibility"].widget
    assert isinstance(description, QPlainTextEdit) and isinstance(compatibility, QPlainTextEdit)
    description.setPlainText("Reviews SQL. " * 82)  # 1,066 characters
    qtbot.waitUntil(lambda: description.height() >= description.sizeHint().height())  # laid out
    assert compatibility.toPlainText() == ""
    assert compatibility.height() < description.height(), (
        compatibility.height(),
        description.height(),
    )
    assert compatibility.height() >= 2 * compatibility.fontMetrics().lineSpacing()
