"""Crash recovery files: the unsaved text of an open document, kept beside the user's
state so that a crash (a bug, a killed process, a power cut) loses at most the last
few seconds of typing.

One JSON file per document in a recovery folder (the app passes its state folder's
`recovery/`): the source path, when it was written, the SHA-256 of the disk bytes
the edits started from, and the text. Files are written atomically (temporary file,
fsync, rename) and removed once the text is saved, discarded or restored.

The text is private: files are created 0600 in a folder made 0700 (docs/commands.md
section 11). A folder that is not private is made so when this user owns it, and
refused otherwise; a folder that is a link is refused, never followed. Every read
and write goes through a descriptor of the folder that was checked.
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

FORMAT = 1
SUFFIX = ".recovery.json"
TEMP_SUFFIX = ".tmp"  # a file being written: `.<name>.<pid>.tmp`
FOLDER_MODE = 0o700
FILE_MODE = 0o600
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
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
        return _other_process_runs(self.pid)


def _other_process_runs(pid: int) -> bool:
    if not 0 < pid < 1 << 31 or pid == os.getpid() or os.name != "posix":
        return False
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


class FolderRefused(OSError):
    """The recovery folder cannot be used privately; the message says why."""


def _owner_ok(st: os.stat_result) -> bool:
    return not hasattr(os, "geteuid") or st.st_uid == os.geteuid()


def private_folder(folder: str, create: bool = True) -> int | None:
    """A descriptor of `folder` once it is private to this user (the caller closes it);
    None when it does not exist and `create` is False. A missing folder is made
    0700; one that is not private (made 0755 by another program, or by an older
    version) is made 0700 when this user owns it; a link, something that is not a
    folder, or a folder of another user is refused (FolderRefused)."""
    if create:
        os.makedirs(os.path.dirname(os.path.abspath(folder)), exist_ok=True)
        with contextlib.suppress(FileExistsError):
            os.mkdir(folder, FOLDER_MODE)
    try:
        st = os.lstat(folder)
    except FileNotFoundError:
        if create:
            raise
        return None
    if stat.S_ISLNK(st.st_mode):
        raise FolderRefused(f"{folder} is a link; recovery files are never written through one")
    if not stat.S_ISDIR(st.st_mode):
        raise FolderRefused(f"{folder} is not a folder")
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | _CLOEXEC
    try:
        fd = os.open(folder, flags)  # a link swapped in since the lstat fails here
    except OSError as exc:
        raise FolderRefused(f"{folder} cannot be opened as a folder ({exc.strerror})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISDIR(st.st_mode):
            raise FolderRefused(f"{folder} is not a folder")
        if not _owner_ok(st):
            raise FolderRefused(f"{folder} belongs to another user; unsaved text is not kept there")
        if stat.S_IMODE(st.st_mode) & 0o077:
            try:
                os.fchmod(fd, FOLDER_MODE)
            except OSError as exc:
                raise FolderRefused(
                    f"{folder} is readable by others and cannot be made private ({exc.strerror})"
                ) from None
    except BaseException:
        os.close(fd)
        raise
    return fd


def file_for(folder: str, source: str) -> str:
    """The recovery file of `source` in `folder` (one per source path)."""
    key = hashlib.sha256(os.path.abspath(source).encode("utf-8", "surrogateescape"))
    return os.path.join(folder, key.hexdigest()[:24] + SUFFIX)


def write(folder: str, source: str, text: str, base_sha256: str, now: float | None = None) -> str:
    """Record `text` as the unsaved state of `source`: atomic, in a file only this user
    can read (0600, in the private folder). Returns the file."""
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
    name = os.path.basename(path)
    dir_fd = private_folder(folder)
    assert dir_fd is not None  # (made when missing)
    temp = f".{name}.{os.getpid()}{TEMP_SUFFIX}"
    try:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp, dir_fd=dir_fd)  # a killed writer's of the same pid
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
        fd = os.open(temp, flags, FILE_MODE, dir_fd=dir_fd)
        try:
            with os.fdopen(fd, "wb") as fh:
                os.fchmod(fh.fileno(), FILE_MODE)  # whatever the umask
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=dir_fd)
            raise
        with contextlib.suppress(OSError):  # some file systems cannot fsync a folder
            os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
    return path


def remove(folder: str, source: str) -> None:
    """Forget the unsaved state of `source` (saved, discarded or restored); nothing
    is removed through a link or in a folder that is not this user's."""
    try:
        dir_fd = private_folder(folder, create=False)
    except FolderRefused:
        return
    if dir_fd is None:
        return
    try:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(os.path.basename(file_for(folder, source)), dir_fd=dir_fd)
    finally:
        os.close(dir_fd)


def read(path: str, dir_fd: int | None = None) -> Recovery | None:
    """A recovery file, or None when it is not one (damaged, foreign, too large, a
    link, another user's). With `dir_fd` (the checked folder), `path`'s name is
    opened in it. A file readable by others (an older version's) is made 0600."""
    name = os.path.basename(path) if dir_fd is not None else path
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW | _CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES or not _owner_ok(st):
            return None
        if stat.S_IMODE(st.st_mode) & 0o077:
            os.fchmod(fd, FILE_MODE)
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
    no longer runs (a crash's), oldest first. None from a folder that is a link or
    another user's; a folder or file readable by others is made private first."""
    try:
        dir_fd = private_folder(folder, create=False)
    except OSError:
        return []
    if dir_fd is None:
        return []
    try:
        names = sorted(os.listdir(dir_fd))
        _remove_stale_temps(dir_fd, names)
        found = [
            read(os.path.join(folder, name), dir_fd) for name in names if name.endswith(SUFFIX)
        ]
    except OSError:
        return []
    finally:
        os.close(dir_fd)
    return sorted(
        (r for r in found if r is not None and os.path.isfile(r.source) and not r.writer_running),
        key=lambda r: r.saved_at,
    )


def _remove_stale_temps(dir_fd: int, names: list[str]) -> None:
    """Remove the temporary files of writers that were killed mid-write."""
    for name in names:
        head, _, pid = name.removesuffix(TEMP_SUFFIX).rpartition(".")
        if not (name.startswith(".") and name.endswith(TEMP_SUFFIX) and head and pid.isdigit()):
            continue
        if len(pid) > 10 or _other_process_runs(int(pid)) or int(pid) == os.getpid():
            continue
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=dir_fd)


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
