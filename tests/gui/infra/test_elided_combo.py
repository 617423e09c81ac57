"""Tests of gui/infra/elided_combo.py: the Suites panel's suite box at 1024x768 shows a
long suite name elided in the middle (its folder and its file's name readable), the
whole path in its tooltip (Qt's box cut the end, where the suite's name is)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from skillstudio.gui.infra.elided_combo import ElidedCombo

from ..parts import open_window, write_collection

NAME = "release-checks-for-every-package-of-the-whole-monorepo.yaml"


def test_the_suite_box_at_1024_elides_a_long_name_in_the_middle(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    folder = write_collection(tmp_path / "collection")
    suite = folder / "suites" / NAME
    suite.parent.mkdir()
    suite.write_text('cases:\n  - query: "write pytest tests"\n    expect: []\n')
    win = open_window(qtbot, settings, folder, size=(1024, 768))
    win.suites_dock.show()
    win.suites_dock.raise_()
    runner = win.suite_runner
    qtbot.waitUntil(runner.isVisible)
    assert runner.open_suite(str(suite))
    qtbot.wait(20)
    box = runner.suite_box
    assert isinstance(box, ElidedCombo)
    whole = box.currentText()
    assert whole == f"collection/suites/{NAME}"
    shown = box.shown()
    assert "…" in shown and shown != whole
    head, tail = shown.split("…")
    assert whole.startswith(head) and whole.endswith(tail)
    assert head.startswith("collection") and tail.endswith("monorepo.yaml")
    assert box.fontMetrics().horizontalAdvance(shown) <= box.width()
    assert box.toolTip() == str(suite)  # the whole path
    assert runner.width() <= win.suites_dock.width()  # the row stays within its dock


def test_a_short_entry_is_drawn_whole(qtbot: QtBot) -> None:
    box = ElidedCombo()
    qtbot.addWidget(box)
    box.addItem("short.yaml")
    box.resize(300, 30)
    box.show()
    assert box.shown() == "short.yaml"
