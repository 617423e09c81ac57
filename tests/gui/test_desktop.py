"""Desktop integration inside the app: its icon, and .skill archives opened from a file
manager (the desktop entry passes the archive's path)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from skillstudio.core.editing.archive import pack
from skillstudio.gui.infra.icons import ICON_SIZES, app_icon
from skillstudio.gui.window.main_window import MainWindow


def test_the_window_carries_the_app_icon_at_every_size(window: MainWindow) -> None:
    sizes = sorted(s.width() for s in window.windowIcon().availableSizes())
    assert sizes == sorted(ICON_SIZES)
    image = app_icon().pixmap(16, 16).toImage()
    corner, middle = image.pixelColor(0, 0), image.pixelColor(8, 8)
    assert corner.alpha() < 128 and middle.alpha() == 255, "rounded corners, opaque middle"


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


def test_smoke_test_option_paints_and_checks_the_window(tmp_path: Path) -> None:
    shot = tmp_path / "smoke.png"
    done = subprocess.run(
        [sys.executable, "-m", "skillstudio", "gui", "--smoke-test", "--screenshot", str(shot)],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "smoke test: ok" in done.stdout and "31 skills" in done.stdout
    assert shot.stat().st_size > 10_000
    assert not (tmp_path / ".config").exists(), "the user's settings were not written"


def test_export_names_what_it_left_out_and_hostile_archives_are_refused(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests import hostile

    folder = tmp_path / "special"
    folder.mkdir()
    (folder / "SKILL.md").write_text(hostile.skill("special"))
    os.mkfifo(folder / "pipe")  # packing it hung the app on main
    target = tmp_path / "out" / "special.skill"  # in a folder that does not exist yet
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda _w, _t, text: said.append(text))
    monkeypatch.setattr(QMessageBox, "warning", lambda _w, _t, text: said.append(text))
    assert window.archives.export_skill(str(folder / "SKILL.md")) == str(target)
    assert "pipe: left out, it is a FIFO" in said[-1]
    archives = hostile.make_archives(str(tmp_path / "archives"))
    window.dialogs.ask_unpack_root = lambda archive: str(tmp_path / "root")  # type: ignore[method-assign]
    for case in ("crc", "clash", "deep-path", "dot-top"):
        assert not window.archives.open_archive(archives[case])
        assert said[-1].startswith("Not unpacked: "), said[-1]
    assert os.listdir(tmp_path / "root") == []
