"""Nothing typed is lost: two windows on one folder, and a save on a full disk."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from skillstudio.gui.window.main_window import MainWindow

WAIT = 5000


def second_window(qtbot: QtBot, tmp_path: Path, folder: Path) -> MainWindow:
    settings = QSettings(str(tmp_path / "second.ini"), QSettings.Format.IniFormat)
    other = MainWindow(settings)
    other.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(other)
    other.show()
    with qtbot.waitSignal(other.scan_finished, timeout=10_000):
        assert other.open_path(str(folder))
    assert other.watcher.ready.wait(10)
    return other


def test_two_windows_on_one_folder_never_overwrite_each_other(
    window: MainWindow, samples: Path, qtbot: QtBot, tmp_path: Path
) -> None:
    other = second_window(qtbot, tmp_path, samples)
    path = next(samples.rglob("commit/SKILL.md"))
    mine = window.open_skill(str(path))
    theirs = other.open_skill(str(path))
    assert mine is not None and theirs is not None
    qtbot.keyClicks(mine.source, "first window ")
    qtbot.keyClicks(theirs.source, "second window ")
    assert window.document_tabs.save_current()
    # The second window is told, keeps its text, and cannot save over the first one.
    qtbot.waitUntil(theirs.conflict_bar.isVisible, timeout=WAIT)
    assert theirs.document.text().startswith("second window ")
    assert not other.document_tabs.save_current()
    assert path.read_text().startswith("first window ")
    theirs.keep_button.click()  # the user decides: theirs wins, knowingly
    assert other.document_tabs.save_current()
    assert path.read_text().startswith("second window ")
    # The first window had saved, so its text is clean: it reloads the second's.
    qtbot.waitUntil(lambda: mine.document.text().startswith("second window "), timeout=WAIT)
    assert not mine.conflict_bar.isVisible()


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 kB tmpfs (root only); the test is skipped where it cannot be mounted."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
        capture_output=True,
    )
    if done.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_save_on_a_full_disk_keeps_the_file_and_the_text(
    qtbot: QtBot, tmp_path: Path, small_disk: Path
) -> None:
    skill = small_disk / "skills" / "full-disk" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    original = "---\nname: full-disk\ndescription: Tests saving when the disk is full.\n---\nBody\n"
    skill.write_text(original)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings)
    window.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(small_disk / "skills"), "agentskills")
    editor = window.open_skill(str(skill))
    assert editor is not None
    filler = os.open(small_disk / "filler", os.O_WRONLY | os.O_CREAT)  # fill the disk
    try:
        while os.write(filler, b"x" * 1024):
            pass
    except OSError:
        pass
    finally:
        os.close(filler)
    editor.source.moveCursor(editor.source.textCursor().MoveOperation.End)
    qtbot.keyClicks(editor.source, "A paragraph typed by the user. " * 10)
    assert not window.document_tabs.save_current()
    assert skill.read_text() == original, "the old file is intact"
    assert editor.document.text().endswith("typed by the user. "), "the typed text is kept"
    assert editor.message.isVisible() and editor.message.text()
    leftovers = [p for p in os.listdir(skill.parent) if p != "SKILL.md"]
    assert leftovers == [], "no half-written temporary file"
    os.remove(small_disk / "filler")
    assert window.document_tabs.save_current()
    assert skill.read_text().endswith("typed by the user. ")
