"""Tests of gui/panels/workbench/ranking_menu.py (The context menu of Try a Request's
ranking: open the skill of a row, ask why it was not picked, add the request as a test
case expecting it)."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from skillstudio.gui.panels.workbench.panel_parts import NamesModel
from skillstudio.gui.panels.workbench.ranking_menu import EXPLAIN, OPEN, WHY_NOT
from skillstudio.gui.window.main_window import MainWindow

from ...parts import ask


def test_the_ranking_has_a_context_menu_and_why_not_says_what_to_do(
    app_window: MainWindow, qtbot: QtBot
) -> None:
    """The "Why not" box read "(the selected row)"; the ranking had no context menu."""
    panel = app_window.query_panel
    app_window.focus_query_panel()
    box = panel.why_box
    assert box.itemText(0) == NamesModel.FIRST == "pick a skill…"
    ask(panel, qtbot, "write pytest tests, review sql migrations, build docker images, notes")
    assert box.isEnabled() and box.count() == 7
    rows = [c.name for c in panel.model.rows]
    last = len(rows) - 1
    menu = panel.ranking_menu(last)
    assert menu is not None and panel.ranking_menu(len(rows)) is None
    texts = [a.text() for a in menu.actions()]
    assert texts == [OPEN, WHY_NOT, f"Add as test case expecting {rows[last]}…"]
    first = panel.ranking_menu(0)
    assert first is not None and first.actions()[1].text() == EXPLAIN  # a likely one
    panel.details.setCurrentIndex(2)
    menu.actions()[1].trigger()  # why not this one: explained
    assert panel.details.currentIndex() == 0 and box.currentData() == rows[last]
    assert rows[last] in panel.explanation.toPlainText()
    proposed: list[str] = []
    panel.ask_case = lambda question: proposed.append(question.proposed)  # type: ignore[method-assign]
    menu.actions()[2].trigger()
    assert proposed == [rows[last]]
    with qtbot.waitSignal(panel.open_requested) as opened_path:
        menu.actions()[0].trigger()
    assert opened_path.args[0].endswith(f"{rows[last]}/SKILL.md")
    assert any(p.endswith(f"{rows[last]}/SKILL.md") for p in app_window.documents)
