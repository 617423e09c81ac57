"""Opening untrusted files and walking untrusted folders (docs/development.md).

Every file the project reads from a skill folder, an archive, a suite or a
configuration goes through `read_bytes` / `check_regular`: the path is resolved,
confined to a base folder, `stat`ed before it is opened (a FIFO, device,
socket, folder or link loop is refused without opening it), opened with
O_NONBLOCK (a file swapped for a FIFO between the check and the open cannot
block) and checked again with `fstat`, then read with a byte bound. What was
opened is checked, not only what the path named a moment before: the open file
itself must lie inside the base folder (`opened_inside`: where the kernel says the
descriptor is), so a link swapped in between the check and the open is refused.
`walk` lists a tree without recursion and without following links.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Iterator
from itertools import islice

from ..model.paths import FileRefused, is_inside
from ..model.text import counted

DEFAULT_MAX_BYTES = 1024 * 1024
OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


class FileMissing(FileRefused, FileNotFoundError):
    """The path does not exist (also a FileNotFoundError)."""


def kind(mode: int) -> str:
    """What a non-regular file is, in words ("a FIFO (named pipe)", "a folder"...)."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a link"
    return "not a regular file"


class FileOutside(FileRefused):
    """The path resolves (or the file opened lies) outside the folder it belongs to."""


def confine(path: str, base: str | None, base_real: str | None = None) -> str:
    """The real path of `path`; refused when it resolves outside `base` (whose real
    path is `base_real` when the caller has it) or loops."""
    try:
        real = os.path.realpath(path, strict=True)
    except FileNotFoundError:
        raise FileMissing(path, "it does not exist") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FileRefused(path, "it is a link that loops back on itself") from None
        raise FileRefused(path, f"it cannot be resolved ({exc.strerror})") from None
    if base is not None and not is_inside(real, base_real or os.path.realpath(base)):
        raise FileOutside(path, f"it is a link to {real}, outside {base}")
    return real


def _proc_fd_path(fd: int) -> str | None:
    """Linux: the path of an open file from /proc/self/fd (2 µs; None without /proc)."""
    try:
        where = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None
    where = where.removesuffix(" (deleted)")  # replaced or removed since it was opened
    return where if where.startswith("/") else None


def _getpath_fd_path(fd: int) -> str | None:
    """macOS and the BSDs: the path of an open file from fcntl(F_GETPATH)."""
    import fcntl

    try:
        raw = fcntl.fcntl(fd, fcntl.F_GETPATH, bytes(1024))  # type: ignore[attr-defined]
    except OSError:
        return None
    return os.fsdecode(raw.split(b"\0", 1)[0]) or None


def _fd_path_finder() -> Callable[[int], str | None] | None:
    if os.path.isdir("/proc/self/fd"):
        return _proc_fd_path
    try:
        import fcntl
    except ImportError:
        return None
    return _getpath_fd_path if hasattr(fcntl, "F_GETPATH") else None


fd_path = _fd_path_finder()


def opened_inside(fd: int, path: str, base_real: str) -> None:
    """Refuse (FileOutside) the open file `fd`, opened as `path`, unless it lies inside
    the resolved folder `base_real`. The descriptor's own path is asked of the kernel,
    so a link swapped in for the file, or for any folder above it, between a check
    and the open is caught. Where the system cannot tell, the resolved path must be
    inside and be this very file (same device and inode)."""
    where = fd_path(fd) if fd_path is not None else None
    if where is None:
        where = os.path.realpath(path)
        try:
            opened, there = os.fstat(fd), os.stat(where)
        except OSError as exc:
            raise FileRefused(path, f"it cannot be read ({exc.strerror})") from None
        if (opened.st_dev, opened.st_ino) != (there.st_dev, there.st_ino):
            raise FileRefused(path, "it was replaced while it was being opened")
    if not is_inside(where, base_real):
        raise FileOutside(path, f"it is a link to {where}, outside {base_real}")


def check_regular(path: str, base: str | None = None) -> os.stat_result:
    """`stat` of a confined regular file (links followed inside `base`), else refused."""
    real = confine(path, base)
    try:
        st = os.stat(real)
    except OSError as exc:
        raise FileRefused(path, f"it cannot be read ({exc.strerror})") from None
    if not stat.S_ISREG(st.st_mode):
        raise FileRefused(path, f"it is {kind(st.st_mode)}, not a regular file")
    return st


def open_regular(path: str, base: str | None = None) -> tuple[int, os.stat_result]:
    """A read-only descriptor (non-blocking) of a confined regular file, and its fstat.

    The caller closes it. Raises FileRefused (an OSError) with a plain reason.
    """
    base_real = os.path.realpath(base) if base is not None else None
    real = confine(path, base, base_real)
    try:
        fd = os.open(real, OPEN_FLAGS)
    except OSError as exc:
        raise FileRefused(path, f"it cannot be opened ({exc.strerror})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileRefused(path, f"it is {kind(st.st_mode)}, not a regular file")
        if base_real is not None:  # what was opened, not what `real` named a moment before
            opened_inside(fd, path, base_real)
    except OSError as exc:
        os.close(fd)
        if isinstance(exc, FileRefused):
            raise
        raise FileRefused(path, f"it cannot be read ({exc.strerror})") from None
    return fd, st


def read_file(
    path: str,
    base: str | None = None,
    limit: int = DEFAULT_MAX_BYTES,
    truncate: bool = False,
) -> tuple[bytes, os.stat_result]:
    """The bytes of a confined regular file, at most `limit`, and its fstat.

    A larger file is refused, or with `truncate` its first `limit` bytes are
    returned. Raises FileRefused (an OSError) with a plain reason.
    """
    fd, st = open_regular(path, base)
    try:
        if st.st_size > limit and not truncate:
            raise FileRefused(
                path, f"it is {counted(st.st_size, 'byte')}; at most {limit:,} are read"
            )
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            try:
                chunk = os.read(fd, min(limit + 1 - total, 1 << 20))
            except BlockingIOError:  # a special file behind a regular-looking name
                raise FileRefused(path, "it is not a regular file (reading would wait)") from None
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        if isinstance(exc, FileRefused):
            raise
        raise FileRefused(path, f"it cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        if not truncate:
            raise FileRefused(path, f"it grew past {counted(limit, 'byte')} while being read")
        data = data[:limit]
    return data, st


def read_bytes(
    path: str,
    base: str | None = None,
    limit: int = DEFAULT_MAX_BYTES,
    truncate: bool = False,
) -> bytes:
    """`read_file` without the stat."""
    return read_file(path, base, limit, truncate)[0]


def walk(
    top: str, max_depth: int | None = None
) -> Iterator[tuple[str, list[str], list[os.DirEntry[str]]]]:
    """(folder, subfolder names, file entries) top-down, sorted, without recursion.

    Links are never followed (a link to a folder is listed among the files, as
    a link); the caller may prune the subfolder list in place. Folders that
    cannot be listed are skipped.
    """
    stack: list[tuple[str, int]] = [(top, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        subfolders: list[str] = []
        files: list[os.DirEntry[str]] = []
        for entry in entries:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_dir = False
            if is_dir:
                subfolders.append(entry.name)
            else:
                files.append(entry)
        yield folder, subfolders, files
        if max_depth is not None and depth >= max_depth:
            continue
        stack.extend((os.path.join(folder, name), depth + 1) for name in reversed(subfolders))


def walk_plain(
    top: str, max_depth: int, max_folders: int, skip: frozenset[str] = frozenset()
) -> Iterator[tuple[str, list[str], list[os.DirEntry[str]]]]:
    """`walk` over the folders a person keeps, bounded: hidden folders and those named
    in `skip` are not entered, and at most `max_folders` folders are listed."""
    for folder, subfolders, files in islice(walk(top, max_depth), max_folders):
        subfolders[:] = [n for n in subfolders if not n.startswith(".") and n not in skip]
        yield folder, subfolders, files


def is_regular(entry: os.DirEntry[str]) -> bool:
    """A regular file, not a link to one (False when it cannot be told)."""
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False


def remove_tree(path: str) -> None:
    """Delete a folder tree without recursion (shutil.rmtree recurses once per level
    on Python 3.11); links are removed, never followed. Errors are ignored."""
    stack: list[tuple[str, bool]] = [(path, False)]
    while stack:
        folder, expanded = stack.pop()
        if expanded:  # its contents are gone (or cannot go): the folder itself
            with contextlib.suppress(OSError):
                os.rmdir(folder)
            continue
        stack.append((folder, True))
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append((entry.path, False))
                else:
                    os.unlink(entry.path)
            except OSError:
                pass
