"""Fixtures of the controllers' tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from skillstudio.gui.controllers import recovery_keeper as gui_recovery
from skillstudio.gui.window.main_window import MainWindow

from ..parts import three_skills


@pytest.fixture
def keeping(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[MainWindow, Path, dict[str, Path]]:
    monkeypatch.setattr(gui_recovery, "RECOVERY_DELAY_MS", 50)
    folder = tmp_path / "recovery"
    skills = three_skills(tmp_path / "skills")
    win = MainWindow(settings, recovery_folder=str(folder))
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(tmp_path / "skills"))
    return win, folder, skills
