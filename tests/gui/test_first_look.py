"""What a first-time user found still wrong in the screenshots (issue 18, the look
again): tier tabs cut, fields ending at different x, the Suites dock's jargon, tier
column and dark check boxes, the welcome page's unexplained buttons, the dark palette's
invisible License border and the status icons' contrast."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtGui import QColor, QIcon, QImage, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QScrollArea,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionButton,
    QStyleOptionViewItem,
    QToolButton,
    QWidget,
)
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.suites import add_case
from skillstudio.gui.infra.icons import STATUS, status_icon
from skillstudio.gui.infra.theme import apply_scheme, dark_palette
from skillstudio.gui.panels.root_label_delegate import fitted_root_label
from skillstudio.gui.panels.workbench.query_panel import QUERY_MIN
from skillstudio.gui.panels.workbench.tier_view import TierTabs, tier_title
from skillstudio.gui.window.main_window import MainWindow

from .test_form_view import open_skill
from .test_suite_runner import runner_on
from .test_workbench import panel_on


def luminance(colour: QColor) -> float:
    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(colour.red())
        + 0.7152 * channel(colour.green())
        + 0.0722 * channel(colour.blue())
    )


def contrast(a: QColor, b: QColor) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.fixture
def dark(qapp: QApplication) -> Iterator[QApplication]:
    apply_scheme(qapp, "dark")
    try:
        yield qapp
    finally:
        apply_scheme(qapp, "light")


# -- 1. the tier tabs ---------------------------------------------------------------------
@pytest.mark.parametrize("size", [(1280, 800), (1024, 640)])
def test_all_four_tier_tabs_are_whole_on_screen(
    window: MainWindow, qtbot: QtBot, size: tuple[int, int]
) -> None:
    """At 1280x800 the tiers sit beside the ranking, 477 px wide: on main the four
    titles asked for 573 px, and "3 · Full instructions — used for this request" was
    cut behind scroll buttons."""
    width, height = size
    window.resize(width, height)
    window.focus_query_panel()
    window.resizeDocks([window.query_dock], [height * 11 // 20], Qt.Orientation.Vertical)
    for profile, request, used in (
        ("oasis", "code review please, find bugs in my commit", 3),
        ("pegasus", "deploy the release to staging", 2),
    ):
        panel = panel_on(window, profile)
        panel.load_request(request)
        panel.show_tier(used)
        qtbot.wait(20)
        bar = panel.tier_tabs.tabBar()
        for number in range(4):
            rect = bar.tabRect(number)
            assert rect.left() >= 0 and rect.right() < bar.width(), (size, number, rect)
            assert rect.width() >= bar.tabSizeHint(number).width()  # not squeezed
            assert bar.tabText(number).startswith(str(number))
        scrolls = [b for b in bar.findChildren(QToolButton) if b.isVisible()]
        assert not scrolls, "no scroll buttons"
        assert [n for n in range(4) if "used" in bar.tabText(n)] == [used]
        tip = panel.tier_tabs.tabToolTip(used)
        assert tip.startswith(f"Tier {tier_title(used, True)}")  # the full title


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
    for number, project in enumerate(panel.projects):
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
        panel = panel_on(window, profile)
        panel.load_request(request)
        summary = panel.summary

        def fitted(label: QLabel = summary) -> bool:
            return label.height() == label.heightForWidth(label.width())

        qtbot.waitUntil(fitted, timeout=3000)  # the layout settles in an event or two
        lines = summary.heightForWidth(summary.width())
        assert summary.text() and lines <= 3 * summary.fontMetrics().lineSpacing()


def test_tier_titles_shorten_only_as_far_as_the_width_needs(qtbot: QtBot) -> None:
    tabs = TierTabs()
    qtbot.addWidget(tabs)
    for number in range(4):
        tabs.addTab(QWidget(), tier_title(number))
    tabs.set_used(3)
    tabs.resize(1200, 200)
    tabs.show()
    assert tabs.length == 0
    assert tabs.tabText(3) == "3 · Full instructions — used for this request"
    lengths = []
    for width in (520, 420, 300, 200):
        tabs.resize(width, 200)
        lengths.append(tabs.length)
        assert tabs.tabBar().sizeHint().width() <= width
        assert "used" in tabs.tabText(3)
    assert lengths == sorted(lengths) and lengths[-1] > 0


# -- 2. the form's fields end at one x -------------------------------------------------------
@pytest.mark.parametrize(
    "skill",
    [
        "agentskills/.agents/skills/sql-review/SKILL.md",  # line and text edits, a map
        "toolsets/src/_bundled_skills/hello-extended/SKILL.md",  # trigger lists
        "oasis/key_skills/commit/SKILL.md",  # no field has a limit: no counter column
    ],
)
def test_form_fields_end_at_one_x(window: MainWindow, samples: Path, skill: str) -> None:
    """On main each field ended where its counter began: Name at 1232, Description at
    1210, License at 1270, Compatibility at 1224 (1280 px window)."""
    window.resize(1280, 800)
    editor = open_skill(window, samples, skill)
    editor.views.setCurrentIndex(0)
    QApplication.processEvents()
    form = editor.form
    inner = form.widget()
    assert inner is not None
    widgets = [f.widget for f in form.fields.values() if f.widget.isVisible()] + [form.other]
    assert len(widgets) >= 5
    rights = {w.objectName(): w.mapTo(inner, QPoint(w.width(), 0)).x() for w in widgets}
    assert len(set(rights.values())) == 1, rights
    name = form.fields["name"]
    if name.spec.max_length is None:
        assert not any(f.counter.isVisible() for f in form.fields.values())
        assert max(rights.values()) >= inner.width() - 12  # the room goes to the fields
    else:
        assert name.counter.text()
        assert name.counter.geometry().left() >= name.widget.geometry().right()


# -- 3. the Suites dock ---------------------------------------------------------------------
def test_suites_dock_speaks_plainly_and_lines_up_its_tiers(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    suite = samples / "oasis" / "suites" / "oasis.yaml"
    add_case(str(suite), "tidy up my history", ["commit"])  # fails, with a note
    runner = runner_on(window, suite, qtbot)
    tabs = runner.tabs
    titles = [tabs.tabText(n) for n in range(tabs.count())]
    assert titles == ["Cases", "Per skill: hits and misses", "Which skill won instead"]
    assert all(tabs.tabToolTip(n) for n in range(tabs.count()))
    assert "precision" in tabs.tabToolTip(1) and "Double-click" in tabs.tabToolTip(2)
    caption = runner.confusion_caption.text()  # the table's rows and columns, said
    assert caption.startswith("Rows: the skill a case expected. Columns: the skill picked")
    assert runner.failures_box.isVisibleTo(runner)  # beside the tabs, off the crowded top row
    skills = runner.skills_model
    headers = [skills.headerData(c, Qt.Orientation.Horizontal) for c in range(6)]
    assert not {"TP", "FP", "FN"} & set(headers)
    for column in range(1, 6):
        assert skills.headerData(column, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    # The Tier column: "3 (want 3)" and "3" start at one x, so the tiers line up.
    model = runner.cases_model
    tiers = [model.index(row, 4) for row in range(model.rowCount())]
    assert {model.data(i) for i in tiers} >= {"3", "3 (want 3)"}
    for index in tiers:
        align = model.data(index, Qt.ItemDataRole.TextAlignmentRole)
        assert align is None or not int(align) & int(Qt.AlignmentFlag.AlignRight)
    # The note is never cut without a way to read it: its text is in the row's tooltip.
    noted = [row for row in range(model.rowCount()) if model.data(model.index(row, 5))]
    assert noted
    for row in noted:
        note = model.data(model.index(row, 5))
        assert note in model.data(model.index(row, 5), Qt.ItemDataRole.ToolTipRole)


def indicator_edge_contrast(box: QWidget) -> float:
    """The contrast of a check box's indicator edge with the window behind it."""
    option = QStyleOptionButton()
    option.initFrom(box)
    rect = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    image = box.grab().toImage()
    window = box.palette().color(QPalette.ColorRole.Window)
    y = rect.center().y()
    return max(
        contrast(image.pixelColor(x, y), window) for x in range(rect.left(), rect.left() + 3)
    )


def test_suites_check_boxes_show_in_the_dark_palette(
    window: MainWindow, samples: Path, qtbot: QtBot, dark: QApplication
) -> None:
    """On main Fusion drew the unchecked box as a dark square on the dark window
    (its edge 1.1:1 against the window)."""
    runner = runner_on(window, samples / "oasis" / "suites" / "oasis.yaml", qtbot)
    runner.failures_box.setChecked(False)
    for box in (runner.failures_box, runner.auto_box):
        assert indicator_edge_contrast(box) >= 3


def test_status_bar_message_is_not_cut_at_1024(window: MainWindow, qtbot: QtBot) -> None:
    """On main the eight profiles' names ran into the project label ("…, toolsets, v")."""
    window.resize(1024, 640)
    bar = window.statusBar()
    qtbot.waitUntil(lambda: bar.width() <= 1024, timeout=3000)
    qtbot.wait(20)
    message = bar.currentMessage()
    assert message.startswith("31 skills · 0 errors")
    permanent = [w for w in bar.findChildren(QWidget) if w.isVisible() and w.parent() is bar]
    room = min(w.geometry().left() for w in permanent if w.geometry().left() > 0)
    assert bar.fontMetrics().horizontalAdvance(message) + 12 <= room
    assert "toolsets" in bar.toolTip()


# -- 4. the welcome page ----------------------------------------------------------------------
def test_welcome_page_says_what_each_way_in_opens(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    settings.setValue("recent", [str(samples)])
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.resize(1024, 640)
    win.show()
    qtbot.wait(50)  # the first-run dock sizes settle
    page = win.welcome
    lines = page.explained
    assert set(lines) == {page.open_folder, page.open_project, page.open_samples}
    for button, line in lines.items():
        assert isinstance(line, QLabel) and line.isVisible()
        left = line.mapTo(page, QPoint(0, 0))
        top = button.mapTo(page, QPoint(0, 0))
        assert left.x() > top.x() + button.width() - 1  # beside its button
        assert abs(left.y() - top.y()) < button.height()
    assert "detected" in lines[page.open_folder].text()
    assert "skillstudio.yaml" in lines[page.open_project].text()
    # The tree beside it says why it is empty, instead of an empty box.
    assert win.tree.empty_text().startswith("No folder is open.")
    assert "Open Folder (Ctrl+O)" in win.tree.empty_text()
    scroll = page.findChild(QScrollArea)
    assert scroll is not None
    assert scroll.verticalScrollBar().maximum() == 0, "whole at 1024x640, shortcuts included"


# -- 5. the dark palette: the License border, the status icons -----------------------------------
def test_license_field_has_a_visible_border_in_the_dark_palette(
    window: MainWindow, samples: Path, dark: QApplication
) -> None:
    """On main the line edit's edge was the window colour darkened: #1f1f1f round a
    #1e1e1e box (1.0:1)."""
    editor = open_skill(window, samples, "agentskills/.agents/skills/sql-review/SKILL.md")
    editor.views.setCurrentIndex(0)
    field = editor.form.fields["license"].widget
    assert not field.hasFocus()
    image = field.grab().toImage()
    base = field.palette().color(QPalette.ColorRole.Base)
    window_colour = field.palette().color(QPalette.ColorRole.Window)
    y = image.height() // 2
    edge = max((image.pixelColor(x, y) for x in range(2)), key=lambda c: contrast(c, base))
    assert contrast(edge, base) >= 3 and contrast(edge, window_colour) >= 3


def main_colour(image: QImage) -> QColor:
    opaque = Counter(
        image.pixelColor(x, y).rgb()
        for x in range(image.width())
        for y in range(image.height())
        if image.pixelColor(x, y).alpha() > 220
    )
    return QColor.fromRgb(opaque.most_common(1)[0][0])


def test_status_icons_read_on_both_palettes_and_on_the_selection(qapp: QApplication) -> None:
    """Each icon's main colour has 3:1 against the view and the window of its palette
    (on main the light warning had 2.3:1); on a selected row an accent keeps its colour
    (on main the style's tint dulled it)."""
    light = qapp.style().standardPalette()
    for is_dark, palette in ((False, light), (True, dark_palette())):
        for name in STATUS:
            icon = status_icon(name, is_dark)
            colour = main_colour(icon.pixmap(32).toImage())
            for role in (QPalette.ColorRole.Base, QPalette.ColorRole.Window):
                assert contrast(colour, palette.color(role)) >= 3, (name, is_dark, role)
        error = status_icon("error", is_dark)
        selected = error.pixmap(32, QIcon.Mode.Selected).toImage()
        assert main_colour(selected) == main_colour(error.pixmap(32).toImage())


# -- the tree: a root keeps the words that tell it apart ------------------------------------
def shown_text(window: MainWindow, row: int) -> str:
    tree = window.tree
    index = tree.model().index(row, 0)
    option = QStyleOptionViewItem()
    tree.initViewItemOption(option)
    option.rect = tree.visualRect(index)
    delegate = tree.itemDelegateForIndex(index)
    assert isinstance(delegate, QStyledItemDelegate)
    delegate.initStyleOption(option, index)
    rect = tree.style().subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, tree)
    # what the style draws: the text elided to the text's rectangle, as the row asks
    return tree.fontMetrics().elidedText(option.text, option.textElideMode, rect.width() - 6)


def test_tree_roots_keep_their_names_when_cut(window: MainWindow, qtbot: QtBot) -> None:
    """On main the tree elided in the middle, which cut the root's own name out of
    "claude-code · plugin:review-kit · wins over project, commands" ("pl…roject,
    commands"): the three claude-code roots could not be told apart."""
    window.resize(1280, 800)
    qtbot.wait(20)
    model = window.tree.model()
    seen = {}
    for row in range(model.rowCount()):
        label = model.index(row, 0).data()
        project, root = label.split(" · ")[:2]
        text = shown_text(window, row)
        width = window.tree.visualRect(model.index(row, 0)).width()
        assert text.startswith(f"{project} · {root}"), (label, text)
        assert window.tree.fontMetrics().horizontalAdvance(text) <= width
        seen[label] = text
    assert window.tree.empty_text() == ""  # rows: nothing said over them
    cut = [label for label, text in seen.items() if text != label]
    assert any(label.startswith("claude-code · plugin:review-kit") for label in cut)


def test_fitted_root_label_shortens_the_precedence_words_first() -> None:
    def measure(text: str) -> int:
        return 7 * len(text)

    label = "toolsets · project · wins over user, bundled"
    assert fitted_root_label(label, 1000, measure) == label
    short = fitted_root_label(label, 7 * 32, measure)
    assert short.startswith("toolsets · project · wins") and short.endswith("…")
    assert measure(short) <= 7 * 32
    assert fitted_root_label(label, 7 * 22, measure) == "toolsets · project"
    assert fitted_root_label("codex · repository", 10, measure) == "codex · repository"
