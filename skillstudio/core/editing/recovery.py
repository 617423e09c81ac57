"""Crash recovery files: the unsaved text of an open document, kept beside the user's
state so that a crash (a bug, a killed process, a power cut) loses at most the last
few seconds of typing.

One JSON file per document in a recovery folder (the app passes its state folder's
`recovery/`): the source path, when it was written, the SHA-256 of the disk bytes
the edits started from, and the text. Files are written atomically (temporary file,
fsync, rename) and removed once the text is saved, discarded or restored.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import os
import stat
import time
from dataclasses import dataclass

from ..model.text import counted
from ..reading.safefs import read_bytes
from .saving import atomic_write

FORMAT = 1
SUFFIX = ".recovery.json"
MAX_BYTES = 64 * 1024 * 1024  # a recovery file larger than this is not read
DIFF_MAX_LINES = 5_000  # lines of the diff shown when offering a restore
DIFF_MAX_CHARS = 2_000_000  # longer texts are not compared line by line


@dataclass(frozen=True, slots=True)
class Recovery:
    """One recovery file: `text` is what was on screen, unsaved, at `saved_at`."""

    file: str  # the recovery file itself
    source: str  # the SKILL.md the text belongs to
    saved_at: float  # seconds since the epoch
    base_sha256: str  # of the disk bytes the edits started from ("" when unknown)
    text: str
    pid: int = 0  # the process that wrote it

    @property
    def writer_running(self) -> bool:
        """Whether the app that wrote this file still runs (another window's live
        edits, not a crash's leftovers). Checked on POSIX only."""
        if self.pid <= 0 or self.pid == os.getpid() or os.name != "posix":
            return False
        try:
            os.kill(self.pid, 0)  # signal 0: only asks whether the process exists
        except ProcessLookupError:
            return False
        except OSError:
            return True  # exists, owned by someone else
        return True


def file_for(folder: str, source: str) -> str:
    """The recovery file of `source` in `folder` (one per source path)."""
    key = hashlib.sha256(os.path.abspath(source).encode("utf-8", "surrogateescape"))
    return os.path.join(folder, key.hexdigest()[:24] + SUFFIX)


def write(folder: str, source: str, text: str, base_sha256: str, now: float | None = None) -> str:
    """Record `text` as the unsaved state of `source`; atomic. Returns the file."""
    os.makedirs(folder, mode=0o700, exist_ok=True)
    record = {
        "format": FORMAT,
        "source": os.path.abspath(source),
        "saved_at": time.time() if now is None else now,
        "base_sha256": base_sha256,
        "text": text,
        "pid": os.getpid(),
    }
    data = json.dumps(record, ensure_ascii=False).encode("utf-8", "surrogatepass")
    path = file_for(folder, source)
    atomic_write(path, data, check=False)
    return path


def remove(folder: str, source: str) -> None:
    """Forget the unsaved state of `source` (saved, discarded or restored)."""
    with contextlib.suppress(FileNotFoundError):
        os.remove(file_for(folder, source))


def read(path: str) -> Recovery | None:
    """A recovery file, or None when it is not one (damaged, foreign, too large)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        record = json.loads(raw.decode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError):
        return None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        return None
    source, saved_at = record.get("source"), record.get("saved_at")
    base, text = record.get("base_sha256", ""), record.get("text")
    pid = record.get("pid", 0)
    if not (
        isinstance(source, str)
        and isinstance(saved_at, int | float)
        and isinstance(base, str)
        and isinstance(text, str)
        and isinstance(pid, int)
    ):
        return None
    return Recovery(path, source, float(saved_at), base, text, pid)


def pending(folder: str) -> list[Recovery]:
    """Recovery files in `folder` whose source file still exists and whose writer
    no longer runs (a crash's), oldest first."""
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(SUFFIX))
    except OSError:
        return []
    found = [read(os.path.join(folder, name)) for name in names]
    return sorted(
        (r for r in found if r is not None and os.path.isfile(r.source) and not r.writer_running),
        key=lambda r: r.saved_at,
    )


def disk_state(source: str) -> tuple[str, str]:
    """The source's text on disk now (decoded as the editor does) and its SHA-256;
    ("", "") when it cannot be read."""
    try:  # a regular file only: a FIFO put in its place must not block the start
        raw = read_bytes(source, None, MAX_BYTES, truncate=True)
    except OSError:
        return "", ""
    text = raw.decode("utf-8", errors="replace").removeprefix("\ufeff")
    return text, hashlib.sha256(raw).hexdigest()


def diff(disk: str, recovered: str, source: str) -> str:
    """A unified diff from the text on disk to the recovered text (bounded)."""
    if len(disk) + len(recovered) > DIFF_MAX_CHARS:
        return f"(too large to compare: {counted(len(recovered), 'character')} of unsaved text)"
    lines = list(
        difflib.unified_diff(
            disk.splitlines(),
            recovered.splitlines(),
            f"{os.path.basename(source)} on disk",
            "unsaved changes",
            lineterm="",
            n=2,
        )
    )
    if len(lines) > DIFF_MAX_LINES:
        more = len(lines) - DIFF_MAX_LINES
        lines = [*lines[:DIFF_MAX_LINES], f"… {counted(more, 'more line')}"]
    return "\n".join(lines) if lines else "(no difference from the file on disk)"
