"""Tests of gui/controllers/recovery_keeper.py (Crash recovery in the app: unsaved text
written to recovery files a moment after the last keystroke (on a worker thread), and
offered back at the next start (recovery_offers.py, with restore_dialog.py))."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from skillstudio.core.editing import recovery
from skillstudio.gui.controllers import recovery_keeper as gui_recovery

from ..parts import Editors, kept, three_skills


def test_the_recovery_file_follows_the_unsaved_text(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gui_recovery, "RECOVERY_DELAY_MS", 50)
    folder = tmp_path / "recovery"
    skills = three_skills(tmp_path / "skills")
    win = Editors(qtbot, tmp_path / "skills", recovery_folder=str(folder))
    editor = win.open_skill(str(skills["alpha"]))
    assert editor is not None
    qtbot.wait(300)
    assert kept(folder, skills["alpha"]) is None, "opening a skill keeps nothing"
    editor.source.appendPlainText("first edit")
    qtbot.waitUntil(lambda: kept(folder, skills["alpha"]) == editor.document.text())
    found = recovery.read(recovery.file_for(str(folder), str(skills["alpha"])))
    assert found is not None and editor.document.stamp is not None
    assert found.base_sha256 == editor.document.stamp.sha256
    assert found.source == str(skills["alpha"])
    assert win.documents.save_current()
    qtbot.waitUntil(lambda: kept(folder, skills["alpha"]) is None)  # saved: gone
    editor.source.appendPlainText("second edit")
    qtbot.waitUntil(lambda: kept(folder, skills["alpha"]) is not None)
    editor.document.text_document.undo()
    qtbot.waitUntil(lambda: kept(folder, skills["alpha"]) is None)  # back to the disk text
    editor.source.appendPlainText("third edit")
    qtbot.waitUntil(lambda: kept(folder, skills["alpha"]) is not None)
    win.documents.close_tab(win.tabs.indexOf(editor))  # discarded
    assert win.recovery is not None and win.recovery.flush()
    assert kept(folder, skills["alpha"]) is None


def test_a_recovery_folder_that_cannot_be_written_is_said(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gui_recovery, "RECOVERY_DELAY_MS", 50)
    blocked = tmp_path / "recovery"
    blocked.write_text("a file where the folder should be")
    skills = three_skills(tmp_path / "skills")
    win = Editors(qtbot, tmp_path / "skills", recovery_folder=str(blocked))
    editor = win.open_skill(str(skills["alpha"]))
    assert editor is not None and win.recovery is not None
    editor.source.appendPlainText("first")
    assert win.recovery.flush()
    qtbot.wait(200)
    with qtbot.waitSignal(win.recovery.failed, timeout=5000) as failed:
        editor.source.appendPlainText("second")
    assert "could not be kept for recovery" in failed.args[0]
    assert editor.document.text().endswith("first\nsecond")
