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


def test_a_long_line_of_the_diff_wraps_inside_the_dialog(qtbot: QtBot, tmp_path: Path) -> None:
    """A description of 400 characters ran off the right edge: the line wraps, in its
    colour, with no sideways scrolling, and the dialog fits a 1024×768 screen."""
    source = tmp_path / "s" / "SKILL.md"
    source.parent.mkdir()
    source.write_text("---\nname: s\ndescription: Old.\n---\n\nBody\n")
    long = "Reviews code for bugs and style. " * 12
    text = f"---\nname: s\ndescription: {long}\n---\n\nBody\n"
    found = Recovery(str(tmp_path / "r.json"), str(source), time.time(), "", text)
    dialog = RestoreDialog(found)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.width() <= 1024 and dialog.height() <= 768
    view = dialog.diff_view
    block = view.document().findBlock(view.toPlainText().index("+description"))
    assert block.text().startswith("+description") and block.layout().lineCount() > 1
    assert view.horizontalScrollBar().maximum() == 0  # nothing to scroll sideways to
    colours = {f.format.background().color().name() for f in block.layout().formats()}
    assert colours == {colour("diff_add_bg")}
