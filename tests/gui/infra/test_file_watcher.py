"""Tests of gui/infra/file_watcher.py (FileWatcher: watchdog events gathered into one
debounced `skills_changed(paths)`)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from pytestqt.qtbot import QtBot

from skillstudio.gui.infra.file_watcher import FileWatcher, in_git
from skillstudio.gui.window.main_window import MainWindow

from ..parts import open_tab, skill_path

WAIT = 10_000


def test_git_s_own_files_send_no_refresh(qtbot: QtBot, tmp_path: Path) -> None:
    """Every git command rewrites files in .git (a checkout of one file: the index, its
    lock, the logs); none is read by a scan, and each sent the refresh on a walk of
    every root. What the checkout changes in the working tree still comes."""
    folder = tmp_path / "repo"
    (folder / "skills/a").mkdir(parents=True)
    (folder / ".git/logs").mkdir(parents=True)
    watcher = FileWatcher(debounce_ms=50)
    watcher.watch([str(folder)], wait=True)
    seen: list[str] = []
    watcher.skills_changed.connect(seen.extend)
    (folder / ".git/index.lock").write_text("index")
    os.replace(folder / ".git/index.lock", folder / ".git/index")
    (folder / ".git/logs/HEAD").write_text("checkout")
    (folder / "skills/a/SKILL.md").write_text("---\nname: a\ndescription: d\n---\n")
    qtbot.waitUntil(lambda: str(folder / "skills/a/SKILL.md") in seen, timeout=WAIT)
    qtbot.wait(200)  # anything later in the same burst
    watcher.stop()
    assert seen and not [p for p in seen if ".git" in p]
    # A folder opened inside a folder that happens to be named .git is watched as usual.
    assert not in_git("/x/.git/skills/a/SKILL.md", ["/x/.git/skills"])
    assert in_git("/x/sub/.git", ["/x"]) and not in_git("/x/sub/.gitignore", ["/x"])


def test_own_save_does_not_echo(window: MainWindow, samples: Path, qtbot: QtBot) -> None:
    path = skill_path(samples, "release-notes")
    editor = open_tab(window, path)
    qtbot.keyClicks(editor.source, "x")
    assert window.document_tabs.save_current()
    deadline = time.monotonic() + 0.8
    while time.monotonic() < deadline:
        qtbot.wait(50)
    assert not editor.conflict_bar.isVisible()
    assert editor.document.text().startswith("x")
