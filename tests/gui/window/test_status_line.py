"""Tests of gui/window/status_line.py: at 1024x768 a long passing message is cut after a
whole word with "…" before the project line and the profile box, the whole text in the
bar's tooltip (Qt's own bar cut it mid-word against the project line, no way to read
the rest)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from skillstudio.gui.panels.root_label_delegate import BREAKS
from skillstudio.gui.window.status_line import StatusLine

from ..parts import open_window, write_collection

LONG = (
    "Added to /home/someone/skills/oasis/suites/oasis.yaml: the case 'code review please, "
    "find bugs in my commit' expects code-review; listed in skillstudio.yaml"
)


def test_a_long_message_is_cut_after_a_word_before_the_permanent_widgets(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    folder = write_collection(tmp_path / "collection")
    win = open_window(qtbot, settings, folder, size=(1024, 768))
    bar = win.statusBar()
    assert isinstance(bar, StatusLine)
    bar.showMessage(LONG, 15_000)
    qtbot.wait(20)
    assert bar.currentMessage() == LONG  # the whole message stays the bar's
    shown = bar.shown()
    assert shown != LONG and shown.endswith("…")
    assert LONG.startswith(shown[:-1])
    kept = shown[:-1]
    assert kept[-1] in BREAKS or LONG[len(kept)] == " ", shown  # cut where a word ends
    assert bar.toolTip() == LONG + "\n" + bar.own_tip if bar.own_tip else LONG
    label = win.project_label
    assert label.isVisible()
    drawn_right = 6 + bar.fontMetrics().horizontalAdvance(shown)
    assert drawn_right <= label.x()  # never over the project line (nor the profile box)
    bar.setToolTip("claude-code, codex")  # the bar's own (the summary's profiles)...
    assert bar.toolTip() == LONG + "\nclaude-code, codex"  # ...after the whole message
    bar.showMessage("Saved", 15_000)  # a short one: whole, the bar's own tooltip alone
    assert bar.shown() == "Saved" and bar.toolTip() == "claude-code, codex"
    win.resize(1366, 768)  # wider: more of it, cut again only if it must be
    qtbot.waitUntil(lambda: win.width() == 1366)
    bar.showMessage(LONG, 15_000)
    assert len(bar.shown()) > len(shown) or bar.shown() == LONG


def test_a_single_long_word_is_cut_where_it_must_be(qtbot: QtBot) -> None:
    bar = StatusLine()
    qtbot.addWidget(bar)
    bar.resize(200, 24)
    bar.show()
    bar.showMessage("x" * 400)
    shown = bar.shown()
    assert shown.endswith("…") and bar.fontMetrics().horizontalAdvance(shown) <= bar.room()


def test_the_resting_text_comes_back_when_a_passing_message_ends(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """Reviewer R1: after "Add as test case"'s message (15 s) the bar's left side
    stayed blank until the next refresh; the project's counts come back now."""
    folder = write_collection(tmp_path / "collection")
    win = open_window(qtbot, settings, folder, size=(1024, 768))
    bar = win.statusBar()
    assert isinstance(bar, StatusLine)
    summary = win.views.summary()
    qtbot.waitUntil(lambda: bar.currentMessage() == summary)
    shown: list[str] = []  # what the bar holds at each change, blank moments included
    bar.messageChanged.connect(lambda _text: shown.append(bar.currentMessage()))
    bar.showMessage(LONG, 200)  # (the app's own are 10-30 s)
    assert bar.currentMessage() == LONG
    qtbot.waitUntil(lambda: bar.currentMessage() != LONG, timeout=5_000)
    assert bar.currentMessage() == summary
    assert "" not in shown  # (on main: blank until a refresh showed the counts again)
    assert bar.shown() == summary or summary.startswith(bar.shown()[:-1])


def test_a_message_without_a_timeout_is_the_new_resting_text(qtbot: QtBot) -> None:
    bar = StatusLine()
    qtbot.addWidget(bar)
    bar.show()
    bar.showMessage("3 skills · 0 errors")
    bar.showMessage("Saved", 100)
    bar.showMessage("4 skills · 1 error")  # (a refresh while it shows: replaces it)
    qtbot.wait(300)
    assert bar.currentMessage() == "4 skills · 1 error"
    bar.showMessage("Saved", 100)
    bar.showMessage("")  # cleared on purpose: nothing comes back
    qtbot.wait(300)
    assert bar.currentMessage() == ""
