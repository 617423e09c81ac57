"""Issue 30's polish: Tiers opens on the tier in use, the status summary outlives a
menu, the recovery diff in colour, the Overlap Map's project box whole, an empty text
box no taller than a long Description."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtGui import QStatusTipEvent
from PySide6.QtWidgets import QApplication, QPlainTextEdit
from pytestqt.qtbot import QtBot

from skillstudio.core.editing.recovery import Recovery
from skillstudio.gui.dialogs.restore_dialog import RestoreDialog
from skillstudio.gui.infra.theme import colour
from skillstudio.gui.window.main_window import MainWindow

from ..helpers import skill_text, write
from .test_workbench import panel_on


def test_tiers_open_on_the_tier_in_use(window: MainWindow, qtbot: QtBot) -> None:
    window.focus_query_panel()
    panel = panel_on(window, "oasis")
    panel.load_request("code review please, find bugs in my commit")
    panel.update_now()
    used = panel.tier_tabs.used
    assert used is not None and used > 0
    assert panel.tier_tabs.currentIndex() == used, "not '0 · Nothing'"
    panel.tier_tabs.tabBarClicked.emit(1)
    panel.tier_tabs.setCurrentIndex(1)
    panel.load_request("deploy to staging")
    panel.update_now()
    assert panel.tier_tabs.currentIndex() == 1, "the tab the user picked stays"


def test_the_status_summary_outlives_a_menu(window: MainWindow) -> None:
    summary = window.statusBar().currentMessage()
    assert "skills" in summary
    QApplication.sendEvent(window, QStatusTipEvent(""))  # a menu opened and closed
    assert window.statusBar().currentMessage() == summary


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


def test_the_overlap_maps_project_box_is_whole_at_1024(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    """It was cut to "anthropi▾" on a collection with a long name (the box kept the
    width of what it held when first shown)."""
    window.resize(1024, 640)
    window.overlap_dock.show()
    window.overlap_dock.raise_()
    box = window.overlap_map.project_box
    qtbot.waitUntil(lambda: box.count() > 0)
    qtbot.wait(20)
    folder = tmp_path / "anthropic-skills-collection"
    for name in ("pdf-filler", "pdf-reader"):
        write(folder, f"{name}/SKILL.md", skill_text(name=name, description=f"Use {name}."))
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        window.open_path(str(folder))
    qtbot.waitUntil(lambda: box.count() > 0)
    qtbot.wait(20)
    widest = max(box.fontMetrics().horizontalAdvance(box.itemText(n)) for n in range(box.count()))
    assert box.width() >= widest + 20, (box.width(), widest)


def test_an_empty_text_box_is_not_taller_than_a_long_description(
    window: MainWindow, samples: Path
) -> None:
    path = samples / "agentskills" / ".agents" / "skills" / "release-notes" / "SKILL.md"
    editor = window.open_skill(str(path))
    assert editor is not None
    description = editor.form.fields["description"].widget
    compatibility = editor.form.fields["compatibility"].widget
    assert isinstance(description, QPlainTextEdit) and isinstance(compatibility, QPlainTextEdit)
    description.setPlainText("Reviews SQL. " * 82)  # 1,066 characters
    QApplication.processEvents()
    assert compatibility.toPlainText() == ""
    assert compatibility.height() < description.height(), (
        compatibility.height(),
        description.height(),
    )
    assert compatibility.height() >= 2 * compatibility.fontMetrics().lineSpacing()
