"""Tests of gui/dialogs/restore_dialog.py (The question put for each recovery file at
start: restore, discard or decide later, with what the unsaved text changes in the
file on disk)."""

from __future__ import annotations

import time
from pathlib import Path

from pytestqt.qtbot import QtBot

from skillstudio.core.editing.recovery import Recovery
from skillstudio.gui.dialogs.restore_dialog import RestoreDialog
from skillstudio.gui.infra.theme import colour


def test_the_recovery_diff_is_coloured(qtbot: QtBot, tmp_path: Path) -> None:
    source = tmp_path / "s" / "SKILL.md"
    source.parent.mkdir()
    source.write_text("---\nname: s\ndescription: Old.\n---\n\nBody\n")
    text = "---\nname: s\ndescription: New.\n---\n\nBody\n"
    found = Recovery(str(tmp_path / "r.json"), str(source), time.time(), "", text)
    dialog = RestoreDialog(found)
    qtbot.addWidget(dialog)
    document = dialog.diff_view.document()
    backgrounds = {}
    block = document.begin()
    while block.isValid():
        for fmt in block.layout().formats():
            backgrounds[block.text()] = fmt.format.background().color().name()
        block = block.next()
    assert backgrounds.get("+description: New.") == colour("diff_add_bg")
    assert backgrounds.get("-description: Old.") == colour("diff_del_bg")
