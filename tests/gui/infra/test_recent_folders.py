"""Tests of gui/infra/recent_folders.py (The folders opened last, kept in the settings
(File › Open Recent, the welcome page))."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from ..parts import fresh_window


def test_recent_folders_under_home_read_from_the_home_folder(
    qtbot: QtBot, settings: QSettings, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'~/skills', not '/home/someone/skills' (nor a generating machine's temporary
    folder in the screenshots): the welcome page and File › Recent; in full on hover."""
    monkeypatch.setenv("HOME", str(samples.parent))
    elsewhere = samples.parent.parent / "elsewhere"
    elsewhere.mkdir()
    settings.setValue("recent", [str(samples), str(elsewhere)])
    win = fresh_window(qtbot, settings, 1280, 800)
    text = win.welcome.recent.text()
    assert f">~{os.sep}skills<" in text and str(samples) not in text
    assert f">{elsewhere}<" in text  # outside the home folder: as it is
    assert str(samples) in win.welcome.recent.toolTip()
    win.recent.fill_menu(win.menu_actions.recent_menu, win.open_path)
    labels = [action.text() for action in win.menu_actions.recent_menu.actions()]
    assert labels[:2] == [f"&1 ~{os.sep}skills", f"&2 {elsewhere}"]
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        win.welcome.recent.linkActivated.emit("0")
    assert win.context.base == str(samples)  # opens the folder itself
    assert f"<b>~{os.sep}skills</b>" in win.welcome.status.text()
