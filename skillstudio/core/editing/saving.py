"""Atomic saves that never lose data and never silently overwrite an external change."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
import tempfile
from dataclasses import dataclass

from ..model.confinement import write_target
from ..reading.safefs import read_file

TEMP_PREFIX = ".skillstudio-"
TEMP_SUFFIX = ".tmp"


class SaveError(Exception):
    """The save did not happen; the old file is untouched. The message says why."""


class SaveConflict(SaveError):
    """The file changed on disk since it was read; saving would overwrite that change."""


@dataclass(frozen=True, slots=True)
class Stamp:
    """What a file looked like when it was read: mtime, size and content hash."""

    mtime_ns: int
    size: int
    sha256: str

    @staticmethod
    def of_bytes(data: bytes, mtime_ns: int) -> Stamp:
        return Stamp(mtime_ns, len(data), hashlib.sha256(data).hexdigest())


COMPARE_MAX_BYTES = 64 * 1024 * 1024  # a larger file on disk is not hashed
NOT_A_FILE = Stamp(0, -1, "")  # what stands on disk is not a regular file we could read


def read_regular(path: str, limit: int) -> tuple[bytes, int]:
    """The bytes and mtime of `path` (links followed) when it is a regular file of at
    most `limit` bytes; OSError otherwise (FileNotFoundError when it is gone). Never
    waits: a FIFO or a device put where a file was (by another program, or a
    downloaded skill) is refused, not read (core/reading/safefs.py)."""
    data, st = read_file(path, None, limit)
    return data, st.st_mtime_ns


def stamp(path: str) -> Stamp | None:
    """The file's current stamp, None when it does not exist, NOT_A_FILE when what is
    there cannot be read as a file (a FIFO, a device, too large)."""
    try:
        data, mtime_ns = read_regular(path, COMPARE_MAX_BYTES)
    except FileNotFoundError:
        return None
    except OSError:
        return NOT_A_FILE
    return Stamp.of_bytes(data, mtime_ns)


def changed_since(path: str, expected: Stamp | None) -> bool:
    """Whether the file's content differs from `expected`: the hash decides, so a
    same-size rewrite within one mtime tick is caught and a touched but identical
    file is not a conflict."""
    current = stamp(path)
    if expected is None:
        return current is not None
    if current is None:
        return True
    return current.size != expected.size or current.sha256 != expected.sha256


def _clean_stale_temps(folder: str, name: str) -> None:
    """Remove temporary files a killed writer left beside `name` (their pid is gone)."""
    prefix = f"{TEMP_PREFIX}{name}."
    try:
        entries = os.listdir(folder)
    except OSError:
        return
    for entry in entries:
        if not (entry.startswith(prefix) and entry.endswith(TEMP_SUFFIX)):
            continue
        pid_text = entry[len(prefix) :].split(".", 1)[0]
        try:
            pid = int(pid_text)
            os.kill(pid, 0)
            continue  # its writer is still running
        except (ValueError, ProcessLookupError):
            pass
        except (PermissionError, OverflowError):  # not ours to judge: a number too big for a pid
            continue
        with contextlib.suppress(OSError):
            os.remove(os.path.join(folder, entry))


def atomic_write(
    path: str,
    data: bytes,
    expected: Stamp | None = None,
    *,
    check: bool = True,
    base: str | None = None,
) -> Stamp:
    """Write `data` to `path` atomically: a temporary file in the same folder, flushed
    and fsynced, then renamed over the target; permissions are kept.

    With `check`, refuses (SaveConflict) when the file on disk no longer matches
    `expected` (None = it must not exist). Never leaves a temporary file behind on
    failure, and cleans up after writers that were killed. With `base` (the folder
    the file was opened from), a link is written through to its target, which must
    resolve inside `base` (core/model/confinement.py); else SaveError and nothing is written.
    """
    if base is not None:
        try:
            path = write_target(path, base)
        except OSError as exc:
            raise SaveError(f"cannot save {path}: {exc}") from None
    folder = os.path.dirname(os.path.abspath(path))
    name = os.path.basename(path)
    if check and changed_since(path, expected):
        raise SaveConflict(
            f"{path} changed on disk since it was opened; reload it or save your text elsewhere "
            "(nothing was written)"
        )
    _clean_stale_temps(folder, name)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = 0o644
    except OSError as exc:
        raise SaveError(f"cannot save {path}: {exc.strerror}") from None
    try:
        fd, tmp = tempfile.mkstemp(
            prefix=f"{TEMP_PREFIX}{name}.{os.getpid()}.", suffix=TEMP_SUFFIX, dir=folder
        )
    except OSError as exc:
        raise SaveError(_why(path, exc)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        if isinstance(exc, OSError):
            raise SaveError(_why(path, exc)) from None
        raise
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass  # some file systems cannot fsync a folder; the rename is done
    st = os.stat(path)
    return Stamp.of_bytes(data, st.st_mtime_ns)


def _why(path: str, exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return f"cannot save {path}: the disk is full (your text is kept; free space and retry)"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"cannot save {path}: the folder is not writable ({exc.strerror})"
    return f"cannot save {path}: {exc.strerror or exc}"


def encode(text: str, bom: bool = False) -> bytes:
    """Text as a SKILL.md stores it (UTF-8, the BOM kept when the file had one)."""
    if bom and not text.startswith("\ufeff"):
        text = "\ufeff" + text
    return text.encode("utf-8")
