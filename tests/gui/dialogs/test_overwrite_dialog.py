"""Tests of gui/dialogs/overwrite_dialog.py (Save after Keep mine over a change on disk:
the diff and Overwrite / Reload from disk / Cancel)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from skillstudio.gui.dialogs.overwrite_dialog import OverwriteDialog


def test_each_button_answers_and_enter_or_esc_lose_nothing(qtbot: QtBot) -> None:
    diff = "--- SKILL.md on disk\n+++ unsaved changes\n@@ -1 +1 @@\n-theirs\n+mine"
    for button, answer in (("overwrite_button", "overwrite"), ("reload_button", "reload")):
        dialog = OverwriteDialog("safe-edit", diff)
        qtbot.addWidget(dialog)
        getattr(dialog, button).click()
        assert dialog.answer == answer
    dialog = OverwriteDialog("safe-edit", diff)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.diff_view.toPlainText() == diff
    assert dialog.cancel_button.isDefault()
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert dialog.answer == "cancel" and not dialog.isVisible()
