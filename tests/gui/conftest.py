"""GUI fixtures: an isolated settings file and a copy of the bundled samples."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from skillstudio.gui.dialogs.overwrite_dialog import OverwriteDialog
from skillstudio.gui.infra.theme import apply_scheme, set_preference
from skillstudio.gui.panels.suite_runner import SuiteRunner
from skillstudio.gui.panels.workbench.query_panel import QueryPanel
from skillstudio.gui.window.main_window import MainWindow

from ..helpers import SAMPLES
from .parts import (
    WINDOW_SIZE,
    Editors,
    TreeParts,
    open_window,
    query_panel_on,
    suite_runner_on,
    write_collection,
)


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A modal dialog would block an offscreen test run forever: answer them all."""
    for name in ("question", "warning", "information", "critical"):
        monkeypatch.setattr(QMessageBox, name, lambda *a, **k: QMessageBox.StandardButton.Cancel)
    monkeypatch.setattr(QMessageBox, "about", lambda *a, **k: None)
    monkeypatch.setattr(OverwriteDialog, "exec", lambda self: 0)  # answered: cancel


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
    win.resize(*WINDOW_SIZE)  # a first window fits its screen instead
    # Closing at teardown with unsaved work asks; a real modal dialog would block.
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(samples))
    assert win.watcher.ready.wait(10), "the watches are in place before a test changes files"
    return win


@pytest.fixture
def collection(tmp_path: Path) -> Path:
    """A project of six skills where the model chooses (parts.COLLECTION)."""
    return write_collection(tmp_path / "collection")


@pytest.fixture
def app_window(qtbot: QtBot, settings: QSettings, collection: Path) -> MainWindow:
    """A window that has opened the collection."""
    return open_window(qtbot, settings, collection)


@pytest.fixture
def dark(qapp: QApplication) -> Iterator[QApplication]:
    """The dark palette for the test, the light one after."""
    apply_scheme(qapp, "dark")
    try:
        yield qapp
    finally:
        apply_scheme(qapp, "light")


@pytest.fixture
def switch_theme(qapp: QApplication) -> Iterator[Callable[[str], None]]:
    """Settings › Theme's switch while the app runs (set_preference, then the events
    it posts, as back in the event loop); light after."""

    def switch(theme: str) -> None:
        set_preference(qapp, theme)
        qapp.processEvents()

    try:
        yield switch
    finally:
        set_preference(qapp, "light")
        set_preference(qapp, "system")
        apply_scheme(qapp, "light")


@pytest.fixture
def query_panel(qtbot: QtBot, samples: Path) -> QueryPanel:
    """Try a Request over the samples' projects, without a window."""
    return query_panel_on(qtbot, samples)


@pytest.fixture
def collection_panel(qtbot: QtBot, collection: Path) -> QueryPanel:
    """Try a Request over the collection, without a window."""
    return query_panel_on(qtbot, collection)


@pytest.fixture
def editors(qtbot: QtBot, samples: Path) -> Editors:
    """Skill tabs over the samples, without a window."""
    return Editors(qtbot, samples)


@pytest.fixture
def tree_parts(qtbot: QtBot, samples: Path) -> TreeParts:
    """The skill tree over the samples, without a window."""
    return TreeParts(qtbot, samples)


@pytest.fixture
def suite_runner(qtbot: QtBot, samples: Path) -> SuiteRunner:
    """The suite runner over the samples, without a window."""
    return suite_runner_on(qtbot, samples)
