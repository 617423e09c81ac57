"""Tests of gui/infra/deferred_until_shown.py (Work a hidden widget puts off until it is
shown (the Try a Request panel and the suite runner): at 10,000 skills an answer costs
70-75 ms, which typing elsewhere should not pay for while the widget is not on
screen)."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from skillstudio.gui.window.main_window import MainWindow


def test_panels_behind_another_dock_tab_wait_until_their_tab_is_chosen(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    """Qt 6 leaves a dock behind another dock's tab visible (moved out of sight), so on
    main the Try a Request panel answered after every scan and every edit while the
    user looked at Problems (at 10,000 skills: the listing and a 10,000-name list,
    100-200 ms at the end of a scan)."""
    panel, runner = window.query_panel, window.suite_runner
    assert window.problems.isVisible()
    assert panel.isVisible()  # what Qt says of the panel behind the Problems tab
    assert panel.result is None  # the scan's end did not answer for it
    answers: list[str] = []

    def answer() -> None:
        answers.append("answered")
        panel.update_now()

    panel.catch_up.work = answer
    window.open_skill(str(samples / "oasis/key_skills/commit/SKILL.md"))
    panel.skills_changed()
    assert not panel.timer.isActive() and panel.catch_up.stale
    assert runner.run() is False  # the suite runner behind its tab waits too
    window.focus_query_panel()
    qtbot.waitUntil(lambda: panel.result is not None)
    assert answers == ["answered"]  # once, when its tab was chosen
    panel.skills_changed()  # on screen: answered after the usual pause
    assert panel.timer.isActive()
    window.problems_dock.raise_()
    qtbot.waitUntil(lambda: not panel.catch_up.on_screen())
