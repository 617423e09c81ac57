"""Tests of gui/panels/workbench/panel_layout.py (How Try a Request lays out its ranking
and details for the room its dock gives: side by side, or stacked (ranking above
details) when the panel is narrow and tall enough for both; in a short dock the
ranking's rows are one line each)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QLabel,
    QScrollArea,
)
from pytestqt.qtbot import QtBot

from skillstudio.gui.panels.workbench.query_panel import QUERY_MIN
from skillstudio.gui.window.main_window import MainWindow

from ...parts import ask, open_window, panel_on, tabs_whole, whole_rows, within_dock

HEADLINE = (
    "No skill is likely for this request; the closest, review-kit:security-review, is "
    "only possible (an estimate)."
)


@pytest.mark.parametrize("size", [(1280, 800), (1024, 640)])
def test_the_request_box_keeps_room_for_a_request(
    window: MainWindow, qtbot: QtBot, size: tuple[int, int]
) -> None:
    """On main, at 1024 px, the codex option's label ("Context window (tokens; 0 =
    unknown)") left the request 59 px, pegasus's 153 px: the option and "Add as test
    case…" now go under the request when they would leave it under QUERY_MIN."""
    window.resize(*size)
    window.focus_query_panel()
    panel = window.query_panel
    wide = []
    for number, project in enumerate(panel.context.projects):
        panel.project_box.setCurrentIndex(number)
        qtbot.wait(10)
        assert panel.query.width() >= QUERY_MIN, (project.profile.name, panel.query.width())
        assert panel.add_button.isVisible()
        if not panel.top_row.below:  # beside the request, on its row
            assert abs(panel.add_button.y() - panel.query.y()) < panel.query.height()
        else:  # under it
            assert panel.add_button.y() >= panel.query.y() + panel.query.height()
        if not panel.top_row.below:
            wide.append(project.profile.name)
    if size[0] == 1280:
        assert {"oasis", "codex", "pegasus"} <= set(wide)  # one row where there is room


@pytest.mark.parametrize("size", [(1280, 800), (1024, 640)])
def test_the_summary_takes_the_height_of_its_lines(
    window: MainWindow, qtbot: QtBot, size: tuple[int, int]
) -> None:
    """On main the one-line summary took 42 px (two lines at 1280 px: 98 px), height
    the ranking under it needed at 1024x640."""
    width, height = size
    window.resize(width, height)
    window.focus_query_panel()
    window.resizeDocks([window.query_dock], [height * 11 // 20], Qt.Orientation.Vertical)
    for profile, request in (
        ("oasis", "code review of the tests"),
        ("agentskills", "review this SQL migration for locking problems"),
    ):
        panel = panel_on(window.query_panel, profile)
        panel.load_request(request)
        summary = panel.summary

        def fitted(label: QLabel = summary) -> bool:
            return label.height() == label.heightForWidth(label.width())

        qtbot.waitUntil(fitted, timeout=3000)  # the layout settles in an event or two
        lines = summary.heightForWidth(summary.width())
        assert summary.text() and lines <= 3 * summary.fontMetrics().lineSpacing()


def test_try_a_request_keeps_to_its_dock_with_a_long_headline(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """At 1024x768 the ranking's long skill names asked 501 px beside the details' 240:
    the panel was 35 px wider than its dock, "Add as test case…" cut off."""
    win = open_window(qtbot, settings, samples)
    win.resize(1024, 768)
    win.size_docks()
    panel = win.query_panel
    win.focus_query_panel()
    names = [panel.project_box.itemText(i) for i in range(panel.project_box.count())]
    panel.project_box.setCurrentIndex(names.index("claude-code"))
    ask(panel, qtbot, "review my pull request")
    panel.summary.setText(HEADLINE)
    qtbot.wait(50)
    within_dock(panel)
    viewport = panel.parentWidget()
    assert viewport is not None
    button = panel.add_button
    right = button.mapTo(viewport, button.rect().topRight()).x()
    assert right < viewport.width()  # "Add as test case…" whole
    # A narrower dock: the panel follows (the details give up width).
    win.resizeDocks([win.tree_dock], [win.tree_dock.width() + 60], Qt.Orientation.Horizontal)
    qtbot.wait(50)
    within_dock(panel)


@pytest.mark.parametrize("size", [(1024, 768), (1366, 768)])
def test_a_short_dock_shows_rows_and_lines_and_the_advice_moves_nothing(
    app_window: MainWindow, collection: Path, qtbot: QtBot, size: tuple[int, int]
) -> None:
    """At 1024x768 and 1366x768 the panel stacked in its dock of about 190 px: 2 ranking
    rows and 3 lines of explanation, the rest under a scroll bar; the "would pick" line
    pushed the tabs down under the pointer. Then the first-run docks became a quarter
    of the height (for the editor's 60 %): a 60 px ranking, 1.5 lines. Try a Request
    now takes most of the window's height while it is used (issue 39, item 6)."""
    app_window.resize(*size)
    app_window.size_docks()  # the first-run dock sizes, for this window size
    assert app_window.open_skill(str(collection / "skills/terraform-plan/SKILL.md"))
    panel = app_window.query_panel
    app_window.focus_query_panel()
    ask(panel, qtbot, "write pytest tests, review sql migrations, build docker images, notes")
    qtbot.wait(50)
    area = panel.parentWidget()
    assert area is not None
    assert panel.height() <= area.height() + 1  # no scrolling of the whole panel
    assert app_window.query_dock.height() >= 0.6 * size[1]  # not the first-run quarter
    table = panel.table
    assert panel.model.rowCount() >= 5
    assert table.viewport().height() >= 4 * table.rowHeight(0)  # 4 rows and more
    lines = panel.explanation.viewport().height() / panel.explanation.fontMetrics().lineSpacing()
    assert lines >= 4
    for number in range(panel.details.count()):  # every detail tab opens, with room
        if panel.details.isTabVisible(number):
            panel.details.setCurrentIndex(number)
            page = panel.details.currentWidget()
            assert page.isVisible() and page.height() >= 90, panel.details.tabText(number)
    panel.details.setCurrentIndex(0)
    tabs_at = panel.details.mapTo(panel, panel.details.rect().topLeft())
    panel.for_open.setChecked(True)
    qtbot.wait(20)
    assert "instead of terraform-plan" in panel.explanation.toPlainText()
    assert panel.details.mapTo(panel, panel.details.rect().topLeft()) == tabs_at
    # Another request: the user's own height stays.
    app_window.resizeDocks([app_window.query_dock], [200], Qt.Orientation.Vertical)
    qtbot.wait(20)
    height = app_window.query_dock.height()
    ask(panel, qtbot, "build docker images")
    qtbot.wait(20)
    assert app_window.query_dock.height() == height


def test_the_panel_stacks_when_narrow_so_why_and_tiers_stay_readable(
    window: MainWindow, qtbot: QtBot
) -> None:
    """Below 900 px of panel width the details go under the ranking (issue 18, item 1)
    when the dock is tall enough for both (issue 30: in a short dock, stacked, they
    showed 2 rows and 3 lines): at 1024x640 the Why column and the tier text get most
    of the width, not half."""
    panel = panel_on(window.query_panel, "oasis")
    window.focus_query_panel()
    window.resizeDocks([window.query_dock], [420], Qt.Orientation.Vertical)
    panel.load_request("code review please, find bugs in my commit")
    panel.show_tier(2)
    tier_text = panel.tier_views[2].text
    sizes = {}
    for width, height in ((1024, 640), (1280, 800), (1024, 640)):
        window.resize(width, height)
        window.resizeDocks([window.query_dock], [420], Qt.Orientation.Vertical)
        qtbot.wait(50)
        stacked = panel.split.orientation() == Qt.Orientation.Vertical
        sizes[width] = (panel.width(), stacked, panel.table.columnWidth(4), tier_text.width())
        if width == 1024:
            assert panel.width() < 900 and stacked  # the switch is live, both ways
            # Ranking above details: both as wide as the panel (main: 144 and 279 px).
            assert panel.table.width() > panel.width() - 30
            assert panel.table.columnWidth(4) >= 300
            assert tier_text.width() >= 500
        else:
            assert panel.width() >= 900 and not stacked
            assert panel.table.columnWidth(4) >= 200
            assert tier_text.width() >= 400
    # The ranking keeps every row's reason in view: no horizontal scrolling in either.
    assert panel.table.horizontalScrollBar().maximum() == 0, sizes


def test_the_stacked_panel_fits_its_dock_without_scrolling(
    window: MainWindow, qtbot: QtBot
) -> None:
    """The wrapped summary asked for height-for-width, so the dock's scroll area gave
    the panel its whole preferred height (603 px in a 326 px dock) and the details
    were below the fold; both halves show now."""
    window.resize(1024, 640)
    window.focus_query_panel()
    window.resizeDocks([window.query_dock], [352], Qt.Orientation.Vertical)
    panel = panel_on(window.query_panel, "oasis")
    panel.load_request("code review of the tests")
    qtbot.wait(50)
    area = panel.parentWidget()
    assert area is not None
    assert panel.height() <= area.height() + 1
    table, details = panel.split.sizes()
    assert table >= 100 and details >= 100
    # A tier is not squeezed below its header, meter and text (it scrolls).
    panel_on(window.query_panel, "pegasus").load_request("deploy the release to staging")
    panel.show_tier(2)
    qtbot.wait(50)
    view = panel.tier_views[2]
    assert view.height() >= view.minimumSizeHint().height()  # never squeezed


def _try_at_1024(qtbot: QtBot, settings: QSettings, samples: Path) -> MainWindow:
    """Try a Request in use at 1024x768 on the samples' claude-code project."""
    win = open_window(qtbot, settings, samples, size=(1024, 768))
    skill = samples / "claude-code/plugins/review-kit/skills/security-review/SKILL.md"
    assert win.open_skill(str(skill))
    win.focus_query_panel()
    qtbot.waitUntil(lambda: win.query_dock.height() >= 0.6 * 768, timeout=2000)
    win.query_panel.load_request("code review please, find bugs in my commit")
    win.query_panel.update_now()
    # (the likely index is built off the GUI thread, beside the form's overlap index)
    qtbot.waitUntil(lambda: win.query_panel.model.rowCount() >= 5, timeout=10_000)
    qtbot.wait(50)
    return win


def test_headroom_at_1024_shows_four_rows_of_its_table(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """Stacked below the ranking, half the height showed Headroom's line and 1.5 rows
    of its table: with Headroom in front the ranking gives it most of the height
    (and takes its half back with the Explanation)."""
    win = _try_at_1024(qtbot, settings, samples)
    panel = win.query_panel
    assert panel.split.orientation() == Qt.Orientation.Vertical
    ranking_before = panel.table.height()
    panel.details.setCurrentWidget(panel.headroom)
    table = panel.headroom.table
    qtbot.waitUntil(lambda: table.rowCount() >= 4, timeout=10_000)
    qtbot.wait(50)
    assert whole_rows(table) >= 4, whole_rows(table)
    assert whole_rows(panel.table) >= 2  # the ranking still in view
    panel.details.setCurrentIndex(0)  # Explanation: the ranking's half again
    qtbot.wait(20)
    assert abs(panel.table.height() - ranking_before) <= 2
    assert whole_rows(panel.table) >= 4


def test_after_back_to_the_editor_the_details_are_not_drawn_over_the_ranking(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """At 1024x768, after View › Back to the Editor, the details beside the ranking had
    124 px: their tabs cut ("Explanation" under scroll arrows), drawn over the ranking's
    right edge. Lowered, the ranking is alone (the details collapsed); with its room
    back, the details return whole."""
    win = open_window(qtbot, settings, samples / "claude-code", size=(1024, 768))
    paths = sorted(p for r in win.context.registries for p in r.by_path)
    assert win.open_skill(paths[0])
    win.menu_actions.query_action.trigger()  # Ctrl+K
    panel = win.query_panel
    ask(panel, qtbot, "review my code for security bugs")
    qtbot.waitUntil(lambda: win.query_dock.height() >= 0.6 * 768, timeout=2000)
    win.back_to_editor()
    qtbot.waitUntil(lambda: win.query_dock.height() < 0.3 * 768, timeout=2000)
    qtbot.wait(50)

    def apart() -> None:
        table, details = panel.table, panel.details
        assert table.isVisible()
        right = table.mapTo(panel, table.rect().topRight()).x()
        assert right <= panel.width()
        if details.isVisible() and details.width() > 0:  # not collapsed
            assert tabs_whole(details.tabBar()) == []
            left = details.mapTo(panel, details.rect().topLeft()).x()
            top = details.mapTo(panel, details.rect().topLeft()).y()
            bottom = table.mapTo(panel, table.rect().bottomLeft()).y()
            assert left > right or top > bottom, (left, right, top, bottom)

    apart()
    win.menu_actions.query_action.trigger()  # its room again: the details with it
    qtbot.waitUntil(lambda: win.query_dock.height() >= 0.6 * 768, timeout=2000)
    qtbot.waitUntil(lambda: panel.details.width() >= 240, timeout=2000)
    apart()


def test_try_a_request_beside_an_open_skill_settles_its_layout(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """A narrow Try a Request (a skill open in front, the panel in a dock a few dozen
    pixels wide) set the ranking's minimum width from its columns at each resize of
    its Why column, and lowered it again to the dock's width: the table grew and
    shrank, its Why column resized, ~1,000 times a second for as long as the skill
    stayed open (20 ms of the GUI thread a keystroke at 10,000 skills). Once laid
    out, nothing resizes."""
    from tests.benchmarks.synth import generate

    generate(str(tmp_path / "synthetic"), 60)  # the app benchmark's skills
    win = open_window(qtbot, settings, tmp_path / "synthetic", "agentskills", (1200, 800))
    paths = sorted(p for r in win.context.registries for p in r.by_path)
    assert win.open_skill(paths[len(paths) // 2])
    panel = win.query_panel
    qtbot.wait(500)
    resized: list[int] = []
    header = panel.table.horizontalHeader()
    header.sectionResized.connect(lambda _column, _old, new: resized.append(new))
    qtbot.wait(300)
    area = panel.parentWidget()
    assert resized == [], (len(resized), resized[:4], panel.size(), area and area.size())


def test_the_tiers_tab_at_1024_shows_lines_of_the_listing(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """A reviewer's Tiers tab at 1024x768 showed 2 lines of the listing under its header
    and meter: with the tiers in front the ranking gives them most of the height (as
    for Headroom), and the header is the tier's title and size (what the tier is, in
    its tab's tooltip)."""
    win = _try_at_1024(qtbot, settings, samples)
    panel = win.query_panel
    ranking_before = panel.table.height()
    tiers = panel.details.tier_tabs
    panel.details.setCurrentWidget(tiers)
    tiers.setCurrentIndex(2)  # the listing
    qtbot.wait(50)
    view = panel.details.tier_views[2]
    assert view.text.isVisible() and view.text.line_count() >= 6
    page = tiers.currentWidget()
    assert isinstance(page, QScrollArea)
    assert not page.verticalScrollBar().isVisible()  # the listing scrolls, not its page
    lines = view.text.viewport().height() // view.text.fontMetrics().lineSpacing()
    assert lines >= 6, lines
    assert whole_rows(panel.table) >= 2  # the ranking still in view
    assert "baseline" not in view.header.text() and "chooses from" in tiers.tabToolTip(2)
    panel.details.setCurrentIndex(0)
    qtbot.wait(20)
    assert abs(panel.table.height() - ranking_before) <= 2
