"""Where a skill loads, per agent, and the listing's headroom, in the app (issue 30: the
agents and the listing headroom of docs/agents.md shown where the author works)."""

from __future__ import annotations

from PySide6.QtWidgets import QTableWidget
from pytestqt.qtbot import QtBot

from skillstudio.core.delivery.headroom import listing_headroom
from skillstudio.core.projects.agent_reach import agent_reach
from skillstudio.gui.editor.where_it_loads import WhereItLoads, reach_cells
from skillstudio.gui.window.main_window import MainWindow

from .test_workbench import panel_on


def cell(table: QTableWidget, row: int, column: int) -> str:
    item = table.item(row, column)
    assert item is not None
    return item.text()


def test_a_skill_says_where_each_agent_finds_it(window: MainWindow, qtbot: QtBot) -> None:
    path = next(
        p
        for r in window.registries
        for p in r.by_path
        if r.profile.name == "claude-code" and p.endswith("commit-message/SKILL.md")
    )
    editor = window.open_skill(path)
    assert editor is not None
    where = editor.findChild(WhereItLoads)
    assert where is not None
    titles = [editor.views.tabText(i) for i in range(editor.views.count())]
    assert titles == ["Form", "Source", "Preview", "Where it loads"]
    editor.views.setCurrentWidget(where)
    qtbot.waitUntil(lambda: bool(where.reaches), timeout=10_000)
    skill = editor.document.registry.by_path[path]
    expected = agent_reach(skill, where.base)
    rows = [
        [cell(where.table, row, c) for c in range(where.table.columnCount())]
        for row in range(where.table.rowCount())
    ]
    assert rows == [reach_cells(r) for r in expected]
    claude = next(row for row in rows if row[0] == "Claude Code")
    assert claude[1].startswith("yes") and ".claude/skills" in claude[2]
    assert claude[3] == "commit-message"
    assert any(row[1].startswith("no") for row in rows)  # some agent looks elsewhere
    assert "Found where it lies by" in where.summary.text()


def test_headroom_shows_the_set_against_the_listing_budget(
    window: MainWindow, qtbot: QtBot
) -> None:
    panel = panel_on(window, "claude-code")
    window.focus_query_panel()
    view = panel.headroom
    panel.details.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.room is not None, timeout=10_000)
    registry = panel.registry
    assert registry is not None
    expected = listing_headroom(registry, view.options())
    room = view.room
    assert room is not None
    assert (room.needed, room.budget, room.skills) == (
        expected.needed,
        expected.budget,
        expected.skills,
    )
    assert f"{room.needed:,} of {room.budget:,} characters" in view.line.text()
    # the Tiers tab counts the whole tier-2 text against the same budget: the line says
    # which of the two numbers the budget is about
    assert "The budget counts the skills' entries; Tiers counts the whole text." in (
        view.line.text()
    )
    assert view.table.rowCount() == len(expected.costs)
    # A small context window: a budget the set does not fit; who falls out is named.
    assert not view.window_row.isVisibleTo(view)  # the panel's own window option counts
    panel.option.setValue(5_000)
    qtbot.waitUntil(
        lambda: view.room is not None and view.room.budget != room.budget, timeout=10_000
    )
    small = view.room
    assert small is not None and small.budget is not None and small.budget < room.needed
    assert "over" in view.line.text()
    marked = [cell(view.table, r, 0) for r in range(view.table.rowCount())]
    assert any("(name only or cut)" in t or "(left out)" in t for t in marked)


def test_ask_a_model_is_a_tab_of_try_a_request(window: MainWindow, qtbot: QtBot) -> None:
    """The live check (docs/live.md) gets the request on screen and plans only when
    asked: nothing is sent without Send."""
    panel = panel_on(window, "claude-code")
    window.focus_query_panel()
    panel.load_request("write a commit message for these changes")
    assert panel.live.query == "write a commit message for these changes"
    assert panel.live.registry is panel.registry
    titles = [panel.details.tabText(i) for i in range(panel.details.count())]
    assert titles[-2:] == ["Headroom", "Ask a model"]
    panel.ask_a_model()
    assert panel.details.currentWidget() is panel.live_page
    assert "Name the model" in panel.live.status.text()  # no model named yet: nothing sent
    assert not panel.live.send_button.isEnabled()
