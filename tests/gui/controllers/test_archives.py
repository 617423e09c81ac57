"""Tests of gui/controllers/archives.py (`.skill` archives in the app: export a skill,
unpack one and open where it went)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from skillstudio.core.editing.archive import pack
from skillstudio.gui.controllers.archives import Archives
from skillstudio.gui.dialogs.questions import Dialogs
from skillstudio.gui.window.main_window import MainWindow

from ..parts import Shell, actions_for


def test_opening_a_skill_archive_unpacks_it_and_opens_the_skill(
    window: MainWindow, samples: Path, qtbot: QtBot, tmp_path: Path
) -> None:
    archive = pack(str(samples / "oasis/key_skills/commit"), str(tmp_path / "commit.skill"))
    before = Path(archive).read_bytes()
    target = tmp_path / "mine"
    window.dialogs.ask_unpack_root = lambda archive: str(target)  # type: ignore[method-assign]
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(archive)
    skill = target / "commit" / "SKILL.md"
    assert skill.read_bytes() == (samples / "oasis/key_skills/commit/SKILL.md").read_bytes()
    assert str(skill) in window.documents, "the unpacked skill is open in a tab"
    assert Path(archive).read_bytes() == before
    # A second time the folder exists: refused with a message, nothing overwritten.
    skill.write_text(skill.read_text() + "\nmine\n")
    assert not window.archives.open_archive(archive)
    assert skill.read_text().endswith("\nmine\n")
    window.dialogs.ask_unpack_root = lambda archive: None  # type: ignore[method-assign]
    assert not window.archives.open_archive(archive), "cancelled"


def test_export_names_what_it_left_out_and_hostile_archives_are_refused(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests import hostile

    shell = Shell(qtbot)
    dialogs = Dialogs(shell.window)  # the real questions, answered below through Qt's
    archives = Archives(dialogs, shell.status, lambda root, skill_md: True, lambda: "")

    folder = tmp_path / "special"
    folder.mkdir()
    (folder / "SKILL.md").write_text(hostile.skill("special"))
    os.mkfifo(folder / "pipe")  # packing it hung the app on main
    target = tmp_path / "out" / "special.skill"  # in a folder that does not exist yet
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda _w, _t, text: said.append(text))
    monkeypatch.setattr(QMessageBox, "warning", lambda _w, _t, text: said.append(text))
    assert archives.export_skill(str(folder / "SKILL.md")) == str(target)
    assert "pipe: left out, it is a FIFO" in said[-1]
    made = hostile.make_archives(str(tmp_path / "archives"))
    dialogs.ask_unpack_root = lambda archive: str(tmp_path / "root")  # type: ignore[method-assign]
    for case in ("crc", "clash", "deep-path", "dot-top"):
        assert not archives.open_archive(made[case])
        assert said[-1].startswith("Not unpacked: "), said[-1]
    assert os.listdir(tmp_path / "root") == []


def test_an_archive_is_unpacked_where_asked_and_its_skill_opened_after_the_scan(
    qtbot: QtBot, samples: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shell = Shell(qtbot)
    actions, _reloads, opened = actions_for(shell, samples / "mvp")
    target = tmp_path / "code-review.skill"
    monkeypatch.setattr(shell.dialogs, "ask_new_file", lambda *a: str(target))
    archive = actions.archives.export_skill(str(samples / "mvp/skills/code-review/SKILL.md"))
    assert archive == str(target) and target.is_file()
    root = tmp_path / "unpacked"
    root.mkdir()
    monkeypatch.setattr(shell.dialogs, "ask_unpack_root", lambda archive: str(root))
    assert actions.archives.open_archive(str(target))
    assert opened == [str(root / "code-review/SKILL.md")]
    assert Path(opened[0]).is_file()
