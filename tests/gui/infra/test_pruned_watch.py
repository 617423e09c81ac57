"""The watcher's inotify watches leave the trees a scan skips unwatched
(gui/infra/pruned_watch.py), and watchdog's warnings stay off the terminal."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from skillstudio.core.reading.safefs import remove_tree
from skillstudio.gui.infra import pruned_watch
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


def _chain(top: Path, levels: int) -> Path:
    """A folder `levels` deep below `top` (d/d/d/...), made one level at a time."""
    folder = top
    for _ in range(levels):
        folder = folder / "d"
        folder.mkdir(parents=True)
    return folder


def test_a_tree_deeper_than_python_recurses_is_watched_down_to_the_bound(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """1,100 nested folders: the walk has no recursion to run out of (watchdog's own
    os.walk raised RecursionError and the watcher fell back to 6 levels); folders
    down to MAX_DEPTH are watched, the app says what is not, and a .git on the way
    stays unwatched."""
    folder = tmp_path / "repo"
    _chain(folder, 1_100)
    for n in range(20):
        (folder / f"d/.git/objects/{n:02x}").mkdir(parents=True)
    messages: list[str] = []
    before = _watches()
    watcher = FileWatcher(debounce_ms=50)
    watcher.limited.connect(messages.append)
    try:
        watcher.watch([str(folder)], wait=True)
        assert _watches() - before == pruned_watch.MAX_DEPTH + 1  # repo and 24 levels
        qtbot.waitUntil(lambda: bool(messages), timeout=WAIT)
        assert messages == [
            f"Changes in folders more than {pruned_watch.MAX_DEPTH} levels deep are not "
            "watched; use Reload (F5) there."
        ]
        seen: list[str] = []
        watcher.skills_changed.connect(seen.extend)
        # a deep folder moved in later: bounded too, and the watch's thread goes on
        _chain(tmp_path / "staging/later", 1_100)
        os.replace(tmp_path / "staging/later", folder / "d/later")
        changed = folder / "d/d/SKILL.md"
        changed.write_text("---\nname: d\ndescription: d\n---\n")
        qtbot.waitUntil(lambda: str(changed) in seen, timeout=WAIT)
        # later (level 2) and the 22 levels below it down to 24
        assert _watches() - before == (pruned_watch.MAX_DEPTH + 1) + (pruned_watch.MAX_DEPTH - 1)
    finally:
        watcher.stop()
        remove_tree(str(tmp_path))  # (pytest's clean-up recurses once per level)


def test_the_folder_bound_is_kept_and_named(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pruned_watch, "MAX_FOLDERS", 5)
    folder = tmp_path / "wide"
    for n in range(12):
        (folder / f"skill-{n:02}/references").mkdir(parents=True)
    messages: list[str] = []
    before = _watches()
    watcher = FileWatcher(debounce_ms=50)
    watcher.limited.connect(messages.append)
    watcher.watch([str(folder)], wait=True)
    try:
        assert _watches() - before == 5
        qtbot.waitUntil(lambda: bool(messages), timeout=WAIT)
        assert "folders past the first 5 are not watched" in messages[0]
    finally:
        watcher.stop()
