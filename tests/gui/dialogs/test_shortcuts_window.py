"""Tests of gui/dialogs/shortcuts_window.py (Help › Keyboard Shortcuts: every shortcut of
the window's actions, read from the actions themselves (so the list never disagrees
with the keys))."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence

from skillstudio.gui.dialogs.settings_dialog import cell_text
from skillstudio.gui.dialogs.shortcuts_window import shortcut_rows
from skillstudio.gui.window.main_window import MainWindow


# -- Help ------------------------------------------------------------------------------
def test_keyboard_shortcuts_are_read_from_the_actions(window: MainWindow) -> None:
    window.menu_actions.shortcuts_action.trigger()
    shown = window.dialogs.shortcuts
    assert shown is not None and shown.isVisible()
    table = [
        tuple(cell_text(shown.table, r, c) for c in range(3)) for r in range(shown.table.rowCount())
    ]
    native = QKeySequence.SequenceFormat.NativeText
    save = window.menu_actions.save_action.shortcut().toString(native)
    assert ("File", "Save", save) in table
    assert any(r[1] == "Try a Request" and "Ctrl+K" in r[2] for r in table)
    window.menu_actions.find_action.setShortcut(QKeySequence("Ctrl+Alt+J"))
    assert any(r[1] == "Find / Replace…" and r[2] == "Ctrl+Alt+J" for r in shortcut_rows(window))
