"""Tests of gui/controllers/recovery_offers.py (Unsaved text a crash left, offered back
once the folder with its skill is open)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from skillstudio.core.editing import recovery
from skillstudio.gui.controllers import recovery_keeper as gui_recovery
from skillstudio.gui.infra.settings_store import AppSettings
from skillstudio.gui.window.main_window import MainWindow
from tests.helpers import skill_text, write

from ..parts import kept, open_and_wait, three_skills

REPO = Path(__file__).resolve().parents[3]


TYPED = "Typed before the crash: ünïcødé ✓ 名前 <b>&amp; $1"


def lines_until(proc: subprocess.Popen[str], prefix: str, timeout: float) -> str:
    """The first stdout line of `proc` starting with `prefix` (killed past `timeout`)."""
    found: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith(prefix):
                found.append(line)
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout)
    if not found:
        proc.kill()
        _, err = proc.communicate(timeout=10)
        pytest.fail(f"no {prefix!r} from the app within {timeout} s; stderr:\n{err[-3000:]}")
    return found[0]


def start(mode: str, env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.gui.recovery_driver", mode, *args],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_killed_app_offers_every_typed_byte_back(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    skill = three_skills(root)["beta"]
    original = skill.read_text()
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        HOME=str(tmp_path / "home"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        PYTHONPATH=str(REPO),
    )
    editing = start("edit", env, str(root), str(skill), TYPED)
    lines_until(editing, "KEPT", 60)
    os.kill(editing.pid, signal.SIGKILL)  # mid-edit: the text is modified, never saved
    editing.communicate(timeout=10)
    assert editing.returncode == -signal.SIGKILL
    assert skill.read_text() == original, "nothing was saved"
    kept = list((tmp_path / "data").rglob("recovery/*" + recovery.SUFFIX))
    assert len(kept) == 1, "the recovery file is in the user's state folder"

    png = tmp_path / "restore-dialog.png"
    restoring = start("restore", env, str(root), str(skill), str(png))
    result = json.loads(lines_until(restoring, "RESULT ", 60).removeprefix("RESULT "))
    restoring.communicate(timeout=10)
    assert result["text"] == original + TYPED, "every typed byte is back"
    assert result["modified"] is True, "restored as unsaved text, not written to the file"
    assert "\n+" + TYPED in result["diff"]
    assert png.stat().st_size > 10_000
    if os.environ.get("SKILLSTUDIO_SHOTS"):
        shutil.copy(png, os.environ["SKILLSTUDIO_SHOTS"])
    assert skill.read_text() == original


def test_later_keeps_the_offer_and_discard_removes_it(
    qtbot: QtBot, settings: QSettings, keeping: tuple[MainWindow, Path, dict[str, Path]]
) -> None:
    win, folder, skills = keeping
    recovery.write(str(folder), str(skills["gamma"]), "unsaved gamma", "")
    recovery.write(str(folder), str(skills["gamma"].parent / "gone" / "SKILL.md"), "x", "")
    asked: list[str] = []

    def answer(found: recovery.Recovery) -> str:
        asked.append(found.source)
        return "later"

    win.dialogs.ask_restore = answer  # type: ignore[method-assign]
    assert win.recovery_offers is not None
    win.recovery_offers.offer()
    assert asked == [str(skills["gamma"])], "only files whose source exists are offered"
    editor = win.open_skill(str(skills["gamma"]))  # opened and closed unchanged
    assert editor is not None
    qtbot.wait(300)
    win.document_tabs.close_tab(win.tabs.indexOf(editor))
    assert win.recovery is not None and win.recovery.flush()
    assert kept(folder, skills["gamma"]) == "unsaved gamma", "decided later: still there"
    win.recovery_offers.offered.clear()  # as at the next start
    win.dialogs.ask_restore = lambda found: "discard"  # type: ignore[method-assign]
    win.recovery_offers.offer()
    assert kept(folder, skills["gamma"]) is None


def test_damaged_recovery_files_are_ignored(tmp_path: Path) -> None:
    source = tmp_path / "SKILL.md"
    source.write_text("---\nname: a\n---\n")
    folder = tmp_path / "recovery"
    folder.mkdir()
    for name, data in {
        "not-json": b"\xff{",
        "list": b"[1]",
        "deep": b"[" * 100_000,
        "wrong-types": json.dumps({"format": 1, "source": 3, "saved_at": "x", "text": 1}).encode(),
    }.items():
        (folder / (name + recovery.SUFFIX)).write_bytes(data)
    os.mkfifo(folder / ("fifo" + recovery.SUFFIX))
    recovery.write(str(folder), str(source), "kept text", "abc", now=1.0)
    assert [(r.source, r.text, r.base_sha256) for r in recovery.pending(str(folder))] == [
        (str(source), "kept text", "abc")
    ]


def test_the_live_edits_of_another_running_window_are_not_offered(tmp_path: Path) -> None:
    source = tmp_path / "SKILL.md"
    source.write_text("---\nname: a\n---\n")
    folder = tmp_path / "recovery"
    path = recovery.write(str(folder), str(source), "another window's text", "")
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        record = json.loads(Path(path).read_text())
        Path(path).write_text(json.dumps({**record, "pid": other.pid}))
        assert recovery.pending(str(folder)) == [], "its writer still runs"
    finally:
        other.kill()
        other.wait()
    assert [r.text for r in recovery.pending(str(folder))] == ["another window's text"]


def test_restore_puts_the_text_in_the_tab_unsaved_and_keeps_it_from_there(
    qtbot: QtBot, keeping: tuple[MainWindow, Path, dict[str, Path]]
) -> None:
    win, folder, skills = keeping
    on_disk = skills["gamma"].read_text()
    recovered = on_disk + "Recovered line ✓\n"
    recovery.write(str(folder), str(skills["gamma"]), recovered, "")
    win.dialogs.ask_restore = lambda found: "restore"  # type: ignore[method-assign]
    assert win.recovery_offers is not None
    win.recovery_offers.offer()
    editor = win.documents[str(skills["gamma"])]
    assert editor.document.text() == recovered and editor.document.modified
    assert skills["gamma"].read_text() == on_disk, "nothing written to the skill"
    assert kept(folder, skills["gamma"]) is None, "the offered file is gone"
    qtbot.waitUntil(lambda: kept(folder, skills["gamma"]) == recovered)  # kept from the tab
    editor.document.text_document.undo()  # one step back to the disk text
    assert editor.document.text() == on_disk


# -- whatever profile reads the folder (issue 39, item 3) -----------------------------
def test_a_crashs_text_and_tabs_come_back_whatever_profile_reads_the_folder(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Edited while the folder was read as codex, crashed, and opened again under the
    default profile set to claude-code: the tab comes back and the unsaved text is
    offered, as a tab checked under claude-code (which reads docs/guide/ as a collection
    of the author's view, not as a folder it loads in place). On main before issue 39
    the text was offered only under the profile it was typed under."""
    monkeypatch.setattr(gui_recovery, "RECOVERY_DELAY_MS", 50)
    repo, folder = tmp_path / "repo", tmp_path / "recovery"
    write(repo, ".claude/skills/tables/SKILL.md", skill_text(name="tables"))
    guide = Path(write(repo, "docs/guide/SKILL.md", skill_text(name="guide")))
    on_disk = guide.read_text()
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    first = MainWindow(settings, recovery_folder=str(folder))
    first.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    open_and_wait(qtbot, first, str(repo), "codex")
    tables = repo / ".claude/skills/tables/SKILL.md"
    assert first.open_skill(str(tables)) is not None  # a tab left clean
    editor = first.open_skill(str(guide))
    assert editor is not None
    editor.source.moveCursor(QTextCursor.MoveOperation.End)
    editor.source.insertPlainText(TYPED)
    qtbot.waitUntil(lambda: kept(folder, guide) == on_disk + TYPED, timeout=5000)
    first.recovery = None  # the crash: no clean close, the journal stays as written
    first.hide()

    AppSettings(settings).set_default_profile("claude-code")
    second = MainWindow(settings, recovery_folder=str(folder))
    second.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(second)
    offered: list[str] = []

    def answer(found: recovery.Recovery) -> str:
        offered.append(found.source)
        return "restore"

    second.dialogs.ask_restore = answer  # type: ignore[method-assign]
    open_and_wait(qtbot, second, str(repo))
    assert second.context.projects[0].profile.name == "claude-code"
    qtbot.waitUntil(lambda: offered == [str(guide)], timeout=5000)
    restored = second.documents[str(guide)]
    assert restored.document.text() == on_disk + TYPED and restored.document.modified
    assert guide.read_text() == on_disk, "offered back, not written"
    assert second.tabs.indexOf(restored) >= 0
    assert set(second.documents) == {str(tables), str(guide)}, "the tabs kept without a close"


def test_a_file_that_opens_in_no_tab_is_offered_and_kept_with_a_reason(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """A command file's text under codex (which reads no command files): offered, and on
    Restore the user is told why no tab opens; the text stays for later."""
    repo, folder = tmp_path / "repo", tmp_path / "recovery"
    write(repo, ".agents/skills/tables/SKILL.md", skill_text(name="tables"))
    command = Path(write(repo, ".claude/commands/deploy.md", "Deploy the app.\n"))
    recovery.write(str(folder), str(command), "Deploy the app, then tag it.\n", "")
    window = MainWindow(settings, recovery_folder=str(folder))
    window.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(window)
    said: list[str] = []
    window.dialogs.ask_restore = lambda found: "restore"  # type: ignore[method-assign]
    window.dialogs.warning = said.append  # type: ignore[method-assign,assignment]
    open_and_wait(qtbot, window, str(repo), "codex")
    qtbot.waitUntil(lambda: len(said) == 1, timeout=5000)
    assert "cannot be opened in a tab" in said[0]
    assert kept(folder, command) == "Deploy the app, then tag it.\n", "kept for later"
