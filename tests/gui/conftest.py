"""GUI fixtures: an isolated settings file and a copy of the bundled samples."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from skillstudio.gui.window.main_window import MainWindow

from ..helpers import SAMPLES


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A modal dialog would block an offscreen test run forever: answer them all."""
    for name in ("question", "warning", "information", "critical"):
        monkeypatch.setattr(QMessageBox, name, lambda *a, **k: QMessageBox.StandardButton.Cancel)
    monkeypatch.setattr(QMessageBox, "about", lambda *a, **k: None)


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def samples(tmp_path: Path) -> Path:
    target = tmp_path / "skills"
    shutil.copytree(SAMPLES, target)
    return target


@pytest.fixture
def window(qtbot: QtBot, settings: QSettings, samples: Path) -> MainWindow:
    win = MainWindow(settings)
    win.resize(1200, 780)  # the size these tests were written at (a first window fits its screen)
    # Closing at teardown with unsaved work asks; a real modal dialog would block.
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(samples))
    assert win.watcher.ready.wait(10), "the watches are in place before a test changes files"
    return win
