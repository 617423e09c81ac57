"""Tests of gui/editor/source_editor.py (SourceEditor: the SKILL.md text with line
numbers and diagnostics underlined)."""

from __future__ import annotations

from PySide6.QtWidgets import QPlainTextEdit

from skillstudio.gui.window.main_window import MainWindow


def test_source_can_wrap_long_lines(window: MainWindow) -> None:
    path = next(p for r in window.context.registries for p in r.by_path)
    editor = window.open_skill(path)
    assert editor is not None
    assert editor.source.lineWrapMode() == QPlainTextEdit.LineWrapMode.NoWrap
    window.menu_actions.wrap_action.setChecked(True)
    assert editor.source.lineWrapMode() == QPlainTextEdit.LineWrapMode.WidgetWidth
    assert window.settings.value("wrap_source", False, bool) is True
    window.menu_actions.wrap_action.setChecked(False)
