"""Tests of gui/infra/column_fit.py (a table's columns fitted to the table's width:
fair shares for the wide ones, and RoomFor's column that keeps its share)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

from ..parts import open_window


def test_a_suites_request_column_is_readable_at_1024(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """At 1024x768 with the skill tree at 37 % of the width, the Suites' Request column
    was ~60 px (it shared what "Expected" and "Got", sized to their contents, left
    with the Note): it keeps 40 % of the table, the others share the rest, and no
    column is off the right edge."""
    win = open_window(qtbot, settings, samples / "claude-code", size=(1024, 768))
    win.resizeDocks([win.tree_dock], [380], Qt.Orientation.Horizontal)
    win.suites_dock.show()
    win.suites_dock.raise_()
    runner = win.suite_runner
    qtbot.waitUntil(lambda: runner.report is not None, timeout=10_000)
    qtbot.wait(50)
    table = runner.cases
    header = table.horizontalHeader()
    room = table.viewport().width()
    assert room < 660  # the tree has its 37 %
    request = header.sectionSize(1)
    assert request >= 0.38 * room and request >= 200, (request, room)
    shown = [c for c in range(header.count()) if not table.isColumnHidden(c)]
    right = max(header.sectionPosition(c) + header.sectionSize(c) for c in shown)
    assert right <= room + 1
    assert table.horizontalScrollBar().maximum() == 0
    assert all(header.sectionSize(c) >= 40 for c in shown)
    width = win.width()  # a wider window: the request takes the width it frees
    win.resize(1366, 768)
    qtbot.waitUntil(lambda: table.viewport().width() > room + 200, timeout=2000)
    assert header.sectionSize(1) > request
    win.resize(width, 768)
