"""The watcher's inotify watches leave the trees a scan skips unwatched
(gui/infra/pruned_watch.py), and watchdog's warnings stay off the terminal."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from skillstudio.gui.infra.file_watcher import FileWatcher
from skillstudio.gui.infra.pruned_watch import PRUNED

pytestmark = pytest.mark.skipif(
    not (sys.platform.startswith("linux") and PRUNED), reason="inotify's watches (Linux)"
)
WAIT = 10_000


def _watches() -> int:
    """The inotify watches this process holds (one `inotify wd:` line each)."""
    count = 0
    for fd in os.listdir("/proc/self/fdinfo"):
        try:
            with open(f"/proc/self/fdinfo/{fd}") as fh:
                count += sum(line.startswith("inotify wd:") for line in fh)
        except OSError:
            continue
    return count


def test_git_node_modules_and_venvs_get_no_watch(qtbot: QtBot, tmp_path: Path) -> None:
    folder = tmp_path / "repo"
    (folder / "skills/a/scripts").mkdir(parents=True)
    for n in range(40):  # a repository's .git holds hundreds of folders
        (folder / f".git/objects/{n:02x}").mkdir(parents=True)
    (folder / "node_modules/left-pad/lib").mkdir(parents=True)
    (folder / "skills/a/.venv/lib").mkdir(parents=True)
    before = _watches()
    watcher = FileWatcher(debounce_ms=50)
    watcher.watch([str(folder)], wait=True)
    # repo, skills, skills/a, skills/a/scripts: nothing of .git, node_modules, .venv
    assert _watches() - before == 4
    seen: list[str] = []
    watcher.skills_changed.connect(seen.extend)
    (folder / "skills/b").mkdir()  # a folder made later is watched, a .git in it is not
    (folder / "skills/b/.git/refs").mkdir(parents=True)
    (folder / "skills/b/SKILL.md").write_text("---\nname: b\ndescription: d\n---\n")
    qtbot.waitUntil(lambda: str(folder / "skills/b/SKILL.md") in seen, timeout=WAIT)
    assert _watches() - before == 5
    watcher.stop()


def test_a_folder_moved_out_and_back_prints_nothing(
    qtbot: QtBot,
    tmp_path: Path,
    capfd: pytest.CaptureFixture[str],
    recwarn: pytest.WarningsRecorder,
) -> None:
    folder = tmp_path / "repo"
    (folder / "skills/a/refs").mkdir(parents=True)
    outside = tmp_path / "elsewhere"
    watcher = FileWatcher(debounce_ms=50)
    watcher.watch([str(folder)], wait=True)
    seen: list[str] = []
    watcher.skills_changed.connect(seen.extend)
    for _ in range(2):
        os.replace(folder / "skills/a", outside)
        qtbot.wait(100)
        os.replace(outside, folder / "skills/a")
        qtbot.waitUntil(lambda: str(folder / "skills/a") in seen, timeout=WAIT)
        seen.clear()
    (folder / "skills/a/refs/x").write_text("x")  # still watched after the round trips
    qtbot.waitUntil(lambda: str(folder / "skills/a/refs/x") in seen, timeout=WAIT)
    watcher.stop()
    out, err = capfd.readouterr()
    assert "Warning" not in out + err and "Traceback" not in out + err
    # watchdog warned from its thread that a callback was set twice, at each move back
    assert not [w for w in recwarn.list if issubclass(w.category, RuntimeWarning)]
