"""Tests of gui/window/bottom_room.py (the bottom panels share one height and the panel
in front sets it) and of what it is for, at 1024x768 (issue 39, item 6): Try a Request
showed one ranking row and cut tabs ("anation"), Problems 1.5 rows, Where it loads'
"Limits broken" column was off-screen, a narrowed tree cut names mid-word."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, QSettings, Qt
from PySide6.QtWidgets import QLabel, QStyleOptionViewItem, QTabBar
from pytestqt.qtbot import QtBot

from skillstudio.gui.editor.where_it_loads import COLUMNS, WhereItLoads
from skillstudio.gui.infra.column_fit import fair_widths
from skillstudio.gui.panels.root_label_delegate import word_elided
from skillstudio.gui.window.bottom_room import _kept
from skillstudio.gui.window.main_window import MainWindow

from ..parts import ask, open_window, tabs_whole, whole_rows, write_collection

SMALL = (1024, 768)


def test_try_a_request_at_1024_shows_four_rows_and_its_tabs_whole(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    folder = write_collection(tmp_path / "collection")
    win = open_window(qtbot, settings, folder, size=SMALL)
    assert win.open_skill(str(folder / "skills/pytest-writer/SKILL.md"))
    win.menu_actions.query_action.trigger()  # Ctrl+K
    panel = win.query_panel
    ask(panel, qtbot, "write pytest tests, review sql migrations, build docker images, notes")
    qtbot.waitUntil(lambda: win.query_dock.height() >= 0.6 * SMALL[1], timeout=2000)
    qtbot.wait(50)
    assert panel.model.rowCount() >= 5
    table = panel.table
    assert whole_rows(table) >= 4, whole_rows(table)
    assert tabs_whole(panel.details.tabBar()) == []
    why = panel.details.why_box  # the "Why not" box whole, with lines of explanation
    assert why.isVisible() and why.height() >= why.sizeHint().height()
    lines = panel.explanation.viewport().height() / panel.explanation.fontMetrics().lineSpacing()
    assert lines >= 4
    area = panel.parentWidget()
    assert area is not None and panel.height() <= area.height() + 1  # no scroll of it all
    # The editor keeps a view of its form; View › Back to the Editor gives it the room.
    assert win.centre.height() >= 150
    win.back_to_editor()
    qtbot.wait(20)
    assert win.centre.height() >= 0.6 * SMALL[1]


def write_problems(folder: Path, count: int) -> Path:
    """A collection of `count` skills whose names the agentskills profile rejects."""
    (folder / "skills").mkdir(parents=True)
    (folder / "skillstudio.yaml").write_text("profile: agentskills\nroots: [skills]\n")
    for number in range(count):
        skill = folder / "skills" / f"tool-{number}"
        skill.mkdir()
        (skill / "SKILL.md").write_text(
            f"---\nname: Tool_{number}\ndescription: Does the job number {number}.\n---\n\nSteps.\n"
        )
    return folder


def test_problems_at_1024_shows_five_rows(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    folder = write_problems(tmp_path / "collection", 8)
    win = open_window(qtbot, settings, folder, size=SMALL)
    assert win.open_skill(str(folder / "skills/tool-0/SKILL.md"))
    win.problems_dock.raise_()
    win.problems.current_only.setChecked(False)
    win.problems.view.expandAll()
    qtbot.wait(50)
    assert win.problems_model.rowCount() >= 1
    assert whole_rows(win.problems.view) >= 5, whole_rows(win.problems.view)
    assert win.centre.height() >= 0.45 * SMALL[1]  # and the editor keeps about half


def test_where_it_loads_at_1024_shows_every_column(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """A skill that breaks limits (a long name and description) and sits where several
    agents look: every column within the tab, no sideways scrolling; a column hidden
    from the header's menu comes back from it."""
    folder = tmp_path / "repo"
    skill = folder / ".claude" / "skills" / "a-rather-long-skill-name"
    skill.mkdir(parents=True)
    long_name = "a-rather-long-skill-name-" + "x" * 60
    words = " ".join(["Reviews the changes and reports every finding in detail."] * 30)
    (skill / "SKILL.md").write_text(
        f"---\nname: {long_name}\ndescription: {words}\nmodel: opus\n---\n\nSteps.\n"
    )
    win = open_window(qtbot, settings, folder, size=SMALL)
    editor = win.open_skill(str(skill / "SKILL.md"))
    assert editor is not None
    tab = editor.findChild(WhereItLoads)
    assert tab is not None
    editor.views.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: bool(tab.reaches), timeout=5000)
    qtbot.wait(50)
    table = tab.table
    cells = [table.item(row, 5) for row in range(table.rowCount())]
    assert any(cell is not None and cell.text() for cell in cells)  # limits
    header = table.horizontalHeader()
    right = max(header.sectionPosition(c) + header.sectionSize(c) for c in range(len(COLUMNS)))
    assert right <= table.viewport().width()
    assert table.horizontalScrollBar().maximum() == 0
    menu = tab.columns.columns_menu()
    actions = menu.actions()
    assert [a.text() for a in actions] == list(COLUMNS)
    actions[4].setChecked(False)  # Ignores hidden: the others get its room
    assert table.isColumnHidden(4)
    assert tab.columns.columns_menu().actions()[4].isChecked() is False
    tab.columns.columns_menu().actions()[4].setChecked(True)
    assert not table.isColumnHidden(4)
    assert table.horizontalScrollBar().maximum() == 0


def test_fair_widths_share_the_room_among_the_wide_columns() -> None:
    assert fair_widths([40, 300, 500], 600) == [40, 280, 280]
    assert fair_widths([40, 100, 120], 600) == [40, 100, 120]  # all fit: as wanted
    assert fair_widths([40, 100, 700, 900], 700) == [40, 100, 280, 280]
    assert fair_widths([300, 300], 50) == [60, 60]  # never below the least


def test_a_narrowed_tree_cuts_names_after_a_whole_word(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    def measure(text: str) -> int:
        return 7 * len(text)

    name = "review-kit:security-review"
    assert word_elided(name, 7 * len(name), measure) == name
    assert word_elided(name, 7 * 22, measure) == "review-kit:security-…"
    assert word_elided(name, 7 * 15, measure) == "review-kit:…"
    assert word_elided("reviewing", 30, measure) == "reviewing"  # one word: the view cuts
    folder = write_collection(tmp_path / "collection")
    win = open_window(qtbot, settings, folder, size=SMALL)
    win.resizeDocks([win.tree_dock], [150], Qt.Orientation.Horizontal)
    qtbot.wait(20)
    tree, model = win.tree, win.tree.model()
    root = model.index(0, 0)
    win.tree.expand(root)
    cut = []
    for row in range(model.rowCount(root)):
        index = model.index(row, 0, root)
        shown = drawn_text(win, index)
        if shown != index.data():
            cut.append(shown)
            assert shown.endswith(("-…", "_…", ":…")), shown  # after a whole word
            assert index.data() in str(index.data(Qt.ItemDataRole.ToolTipRole))
    assert cut, "the tree was narrow enough to cut a name"
    assert tree.fontMetrics().horizontalAdvance(cut[0]) <= tree.visualRect(root).width()


def drawn_text(win: MainWindow, index: QModelIndex) -> str:
    """The row's text as the tree's delegate hands it to the style."""
    option = QStyleOptionViewItem()
    win.tree.initViewItemOption(option)
    option.rect = win.tree.visualRect(index)
    win.tree.itemDelegate().initStyleOption(option, index)  # type: ignore[attr-defined]
    return option.text


def test_kept_heights_are_read_back_within_bounds() -> None:
    assert _kept('{"query-dock": 0.5, "nothing": 0.3}') == {"query-dock": 0.5}
    assert _kept('{"problems-dock": 5}') == {"problems-dock": 0.85}
    assert _kept("not json") == {} and _kept("[1]") == {} and _kept("") == {}


def test_the_detail_tabs_are_whole_for_every_project_at_1366(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """At 1366x768 the details beside the ranking cut "Ask a model" under the scroll
    arrows where long names widen the ranking (claude-code) or the Session tab shows
    (toolsets): the details go below the ranking instead, their labels whole."""
    win = open_window(qtbot, settings, samples, size=(1366, 768))
    win.focus_query_panel()
    panel = win.query_panel
    qtbot.waitUntil(lambda: win.query_dock.height() >= 0.6 * 768, timeout=2000)
    for number, project in enumerate(win.context.projects):
        panel.project_box.setCurrentIndex(number)
        panel.load_request("review my code please")
        panel.update_now()
        qtbot.wait(20)
        assert tabs_whole(panel.details.tabBar()) == [], project.profile.name


def test_try_a_request_gets_its_height_back_when_used_after_back_to_the_editor(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """After View › Back to the Editor, clicking Try a Request's tab (in front already)
    or into its request box showed two ranking rows: the panel is used again, so it
    gets its height back (four rows and more at 1024x768)."""
    folder = write_collection(tmp_path / "collection")
    win = open_window(qtbot, settings, folder, size=SMALL)
    assert win.open_skill(str(folder / "skills/pytest-writer/SKILL.md"))
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    win.menu_actions.query_action.trigger()  # Ctrl+K
    panel = win.query_panel
    ask(panel, qtbot, "write pytest tests, review sql migrations, build docker images, notes")
    tall = 0.6 * SMALL[1]
    qtbot.waitUntil(lambda: win.query_dock.height() >= tall, timeout=2000)

    def lowered() -> None:
        win.back_to_editor()
        qtbot.waitUntil(lambda: win.query_dock.height() < 0.3 * SMALL[1], timeout=2000)
        qtbot.wait(20)
        assert whole_rows(panel.table) < 4

    lowered()
    bar = next(
        b
        for b in win.findChildren(QTabBar)
        if b.parent() is win and "Try a Request" in [b.tabText(i) for i in range(b.count())]
    )
    number = [bar.tabText(i) for i in range(bar.count())].index("Try a Request")
    assert bar.currentIndex() == number  # in front already: no tab switch to follow
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(number).center())
    qtbot.waitUntil(lambda: win.query_dock.height() >= tall, timeout=2000)
    qtbot.wait(20)
    assert whole_rows(panel.table) >= 4
    lowered()
    qtbot.mouseClick(panel.query, Qt.MouseButton.LeftButton)  # the keyboard in the panel
    qtbot.waitUntil(lambda: win.query_dock.height() >= tall, timeout=2000)
    qtbot.wait(20)
    assert whole_rows(panel.table) >= 4


def test_a_profile_switch_keeps_the_bottom_panels_height(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """At 1366x768 a reviewer switched the profile in the status bar: the Form grew and
    Try a Request shrank to about 170 px, the Headroom text cut mid-sentence. The
    bottom panel keeps its height; Headroom's wrapped text is whole. (Not reproduced
    here, offscreen: a guard.)"""
    win = open_window(qtbot, settings, samples, size=(1366, 768))
    skill = samples / "claude-code/plugins/review-kit/skills/security-review/SKILL.md"
    assert win.open_skill(str(skill))
    win.focus_query_panel()
    qtbot.waitUntil(lambda: win.query_dock.height() >= 0.6 * 768, timeout=2000)
    panel = win.query_panel
    panel.details.setCurrentWidget(panel.headroom)
    qtbot.wait(100)
    before = win.query_dock.height()
    box = win.profile_box
    for name in ("mvp", "agentskills", "codex"):
        index = box.findData(name)
        assert index >= 0
        box.setCurrentIndex(index)
        qtbot.wait(150)
        assert abs(win.query_dock.height() - before) <= 2, (name, win.query_dock.height(), before)
        for label in panel.headroom.findChildren(QLabel):
            if label.isVisible() and label.wordWrap() and label.text():
                width = label.contentsRect().width()
                needed = label.heightForWidth(label.width())
                assert needed <= label.height() + 1, (label.text()[:60], width, needed)


def test_a_height_dragged_at_1366_shows_the_detail_tabs_at_1024_after_a_restart(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """The reviewer dragged Try a Request down at 1366x768, restarted at 1024x768 and
    pressed Ctrl+K: the ranking alone, Explanation, Tiers, Activation, Headroom and
    Ask a model gone with nothing saying they exist, until the edge was dragged up."""
    folder = write_collection(tmp_path / "collection")
    request = "write pytest tests, review sql migrations, build docker images"
    first = open_window(qtbot, settings, folder, size=(1366, 768))
    first.menu_actions.query_action.trigger()  # Ctrl+K
    qtbot.waitUntil(lambda: first.query_dock.height() >= 0.6 * 768, timeout=2000)
    qtbot.wait(20)
    first.resizeDocks([first.query_dock], [300], Qt.Orientation.Vertical)  # dragged down
    qtbot.wait(20)
    assert abs(first.query_dock.height() - 300) <= 30
    first.close()  # the state and the dragged share are saved
    assert "query-dock" in str(settings.value("panel_heights"))

    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.restore_state()
    win.resize(*SMALL)  # the screen it opens on now
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=20_000):
        assert win.open_path(str(folder))
    assert win.open_skill(str(folder / "skills/pytest-writer/SKILL.md"))
    win.menu_actions.query_action.trigger()  # Ctrl+K
    panel = win.query_panel
    ask(panel, qtbot, request)
    qtbot.wait(100)
    details = panel.details
    bar = details.tabBar()
    assert bar.isVisible() and tabs_whole(bar) == []
    assert details.width() >= bar.sizeHint().width()
    page = details.currentWidget()
    assert page is not None and page.visibleRegion().boundingRect().height() >= 60
    assert whole_rows(panel.table) >= 3  # and the ranking keeps rows
