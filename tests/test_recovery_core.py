"""core.recovery reads the skill on disk like every other untrusted file."""

from __future__ import annotations

import os
import threading
from pathlib import Path

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
