"""core.recovery reads the skill on disk like every other untrusted file."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from skillstudio.core.editing import recovery
from skillstudio.core.editing.recovery import disk_state


def test_disk_state_of_a_fifo_answers_at_once(tmp_path: Path) -> None:
    """A SKILL.md replaced by a FIFO while the app was down: the restore offer must
    not block on it (a plain open() waits for a writer for ever)."""
    fifo = tmp_path / "SKILL.md"
    os.mkfifo(fifo)
    answer: list[tuple[str, str]] = []
    worker = threading.Thread(target=lambda: answer.append(disk_state(str(fifo))), daemon=True)
    worker.start()
    worker.join(5)
    assert answer == [("", "")]


def test_disk_state_reads_a_regular_file(tmp_path: Path) -> None:
    skill = tmp_path / "SKILL.md"
    skill.write_bytes("\ufeff---\nname: a\n---\nBody\n".encode())
    text, digest = disk_state(str(skill))
    assert text == "---\nname: a\n---\nBody\n"
    assert len(digest) == 64


# -- issue 25 item 13: unsaved text stays private --------------------------------------


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


@pytest.mark.parametrize("umask", [0o077, 0o022, 0o000])
def test_recovery_files_are_0600_in_a_folder_made_0700(tmp_path: Path, umask: int) -> None:
    """They were 0644 whatever the umask (even 077): anyone on the machine could read
    the unsaved text."""
    folder = tmp_path / "state" / "recovery"
    old = os.umask(umask)
    try:
        path = recovery.write(str(folder), str(tmp_path / "SKILL.md"), "private text", "")
    finally:
        os.umask(old)
    assert (_mode(folder), _mode(Path(path))) == (0o700, 0o600)
    assert [r.text for r in recovery.pending(str(folder))] == []  # (its source is gone)


def test_a_recovery_folder_another_program_made_0755_is_made_private(tmp_path: Path) -> None:
    folder = tmp_path / "recovery"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    source = tmp_path / "SKILL.md"
    source.write_text("on disk")
    older = folder / ("old" + recovery.SUFFIX)  # written by an older version: 0644
    recovery.write(str(tmp_path / "elsewhere"), str(source), "older text", "")
    os.replace(recovery.file_for(str(tmp_path / "elsewhere"), str(source)), older)
    os.chmod(older, 0o644)
    assert [r.text for r in recovery.pending(str(folder))] == ["older text"]
    assert (_mode(folder), _mode(older)) == (0o700, 0o600)
    os.chmod(folder, 0o755)
    recovery.write(str(folder), str(source), "newer text", "")
    assert _mode(folder) == 0o700


def test_a_recovery_folder_that_is_a_link_is_refused_never_followed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    source = tmp_path / "SKILL.md"
    source.write_text("on disk")
    planted = recovery.write(str(elsewhere), str(source), "planted text", "")
    folder = tmp_path / "recovery"
    folder.symlink_to(elsewhere)
    with pytest.raises(OSError, match="is a link"):
        recovery.write(str(folder), str(source), "unsaved text", "")
    assert recovery.pending(str(folder)) == []  # a link's files are not offered
    recovery.remove(str(folder), str(source))  # nor removed through it
    assert os.listdir(elsewhere) == [os.path.basename(planted)]
    assert recovery.read(planted) is not None and recovery.read(planted).text == "planted text"  # type: ignore[union-attr]


def test_a_recovery_folder_of_another_user_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "recovery"
    folder.mkdir(mode=0o700)
    monkeypatch.setattr(os, "geteuid", lambda: os.getuid() + 1)
    with pytest.raises(OSError, match="another user"):
        recovery.write(str(folder), str(tmp_path / "SKILL.md"), "unsaved text", "")
    assert os.listdir(folder) == []
