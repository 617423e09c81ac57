"""A first-time review at 1024x768 and 1366x768 (issue 30): the bottom panels never
grow wider than their dock, the form's notes coloured by their own severity, the
limit help only about a length, root labels cut only when they do not fit, the view
kept across a profile change, Suites › Open… starting at the suite shown."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QScrollArea, QWidget
from pytestqt.qtbot import QtBot

from skillstudio.gui.theme import set_preference

from .test_likely_app import ask
from .test_try_request_trust import opened

HEADLINE = (
    "No skill is likely for this request; the closest, review-kit:security-review, is "
    "only possible (an estimate)."
)


def within_dock(panel: QWidget) -> None:
    """The panel asks for no more width than its dock's area shows, nothing is behind a
    sideways scroll bar, and its right edge is on screen."""
    viewport = panel.parentWidget()
    assert viewport is not None
    area = viewport.parentWidget()
    assert isinstance(area, QScrollArea)
    room = area.viewport().width()
    assert panel.minimumSizeHint().width() <= room, (panel.minimumSizeHint(), room)
    assert area.horizontalScrollBar().maximum() == 0
    assert panel.width() <= room


def test_try_a_request_keeps_to_its_dock_with_a_long_headline(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """At 1024x768 the ranking's long skill names asked 501 px beside the details' 240:
    the panel was 35 px wider than its dock, "Add as test case…" cut off."""
    win = opened(qtbot, settings, samples)
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


def test_suites_keep_to_their_dock_after_the_theme_changes(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """After Settings › Theme › Dark the suite box asked for its whole name as its
    minimum: "Re-run on cha…", "Failures…" and the Note column were cut at 1024x768."""
    suites = samples / "claude-code" / "suites"
    long_name = suites / "claude-code-regressions-of-the-review-kit-plugin.yaml"
    long_name.write_text((suites / "claude-code.yaml").read_text(encoding="utf-8"))
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    win = opened(qtbot, settings, samples)
    win.resize(1024, 768)
    win.size_docks()
    win.suites_dock.show()
    win.suites_dock.raise_()
    runner = win.suite_runner
    assert runner.open_suite(str(long_name))
    qtbot.waitUntil(lambda: runner.report is not None, timeout=10_000)
    try:
        set_preference(app, "dark")
        qtbot.wait(50)
        within_dock(runner)
        box = runner.suite_box
        assert box.toolTip() == str(long_name)  # the whole path, where the name is cut
    finally:
        set_preference(app, "light")
