"""What a run looks at and what it writes, for its recording (cli/replay.py; docs/commands.md,
"The cache of what was read").

`Recorder`: every path the process looks at while it runs, with what `stat`/`lstat` said of
it at the first look: `os.stat`, `os.lstat`, `os.scandir` (and each `DirEntry.stat`),
`os.access`, `os.readlink` and `os.open` are wrapped for the run, and an audit hook sees
every `open` and folder listing (`os.listdir` included). A path is kept as the system was
asked it (not normalized: `link/../x` is beside the link's target). What cannot be named
(a call through a folder descriptor) or more than MAX_PATHS paths make the run incomplete.
Not recorded: the standard library, SkillStudio's own package (the recording's key covers
the code), the cache folder, /proc, /sys and the devices of /dev (/dev/shm is files).

`Tee` and `Transcript`: the text a run wrote to stdout and stderr, in order.

The standard library only: a served command loads nothing else.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

MAX_PATHS = 200_000  # more than this in one run: not recorded (~450 bytes a path held)
MAX_OUTPUT = 64 * 2**20  # characters of stdout + stderr kept at most
SHARED_MEMORY = "/dev/shm/"  # a folder of files under /dev (a scratch tree in memory)

Sig = list[int] | int
# the functions as they were before any recording wraps them
_STAT, _LSTAT = os.stat, os.lstat


def signature(path: str, follow: bool) -> Sig:
    """What `stat` (follow) or `lstat` says of a path: type, inode, device, size,
    modification and change times; the error number (negated) when it cannot."""
    try:
        st = _STAT(path) if follow else _LSTAT(path)
    except OSError as exc:
        return -(exc.errno or 1)
    except ValueError:  # a NUL in the name
        return -errno.EINVAL
    return [st.st_mode, st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


_ACTIVE: list[Recorder] = []  # the recorder the audit hook reports to (one per process)
_HOOKED = False


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if not _ACTIVE:
        return
    if event == "open":
        path, _mode, flags = args
        follow = not (isinstance(flags, int) and flags > 0 and flags & _NOFOLLOW)
        _ACTIVE[0].see(path, follow)
    elif event in ("os.scandir", "os.listdir"):
        if isinstance(args[0], int):  # a folder listed through a descriptor
            _ACTIVE[0].complete = False
        else:
            _ACTIVE[0].see(args[0] if args[0] is not None else ".", True, listed=True)


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class _Entry:
    """A `DirEntry` whose `stat` (and a followed link's type) is recorded."""

    __slots__ = ("_entry", "_recorder", "name", "path")

    def __init__(self, entry: os.DirEntry[str], recorder: Recorder) -> None:
        self._entry = entry
        self._recorder = recorder
        self.name = entry.name
        self.path = entry.path

    def __fspath__(self) -> str:
        return self.path

    def __repr__(self) -> str:
        return f"<_Entry {self.name!r}>"

    def inode(self) -> int:
        return self._entry.inode()

    def is_symlink(self) -> bool:
        return self._entry.is_symlink()

    def is_dir(self, *, follow_symlinks: bool = True) -> bool:
        if follow_symlinks and self._entry.is_symlink():
            self._recorder.see(self.path, True)
        return self._entry.is_dir(follow_symlinks=follow_symlinks)

    def is_file(self, *, follow_symlinks: bool = True) -> bool:
        if follow_symlinks and self._entry.is_symlink():
            self._recorder.see(self.path, True)
        return self._entry.is_file(follow_symlinks=follow_symlinks)

    def is_junction(self) -> bool:
        return False

    def stat(self, *, follow_symlinks: bool = True) -> os.stat_result:
        self._recorder.see(self.path, follow_symlinks)
        return self._entry.stat(follow_symlinks=follow_symlinks)


class _Listing:
    """`os.scandir`'s iterator, with its entries wrapped."""

    def __init__(self, inner: Any, recorder: Recorder) -> None:
        self._inner = inner
        self._recorder = recorder

    def __iter__(self) -> Iterator[_Entry]:
        return self

    def __next__(self) -> _Entry:
        return _Entry(next(self._inner), self._recorder)

    def __enter__(self) -> _Listing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._inner.close()


class Recorder:
    """Every path looked at while it runs, with what it was at its first look."""

    def __init__(self, cache_folder: str) -> None:
        self.seen: dict[tuple[str, bool], Sig] = {}
        self.listed: set[str] = set()  # the folders whose entries were listed
        self.complete = True
        # the standard library's and SkillStudio's own files (the key covers the code)
        # and the cache folder itself are not what a command read. Not the whole of
        # sys.prefix: a virtual environment made in the project folder (`python -m
        # venv .`) has the project's skills under it; the libraries in site-packages
        # are recorded as any other file (a few dozen paths)
        prefixes = {os.path.dirname(os.__file__), cache_folder}
        prefixes.add(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        skip = [os.path.join(os.path.realpath(p), "") for p in prefixes if p]
        # and the kernel's own files (a terminal's /dev/pts/N changes as it is written to)
        self._skip = (*skip, "/proc/", "/sys/", "/dev/")
        # the cache folder itself too: the state cache lists it (to prune) and writes to
        # it, which says nothing of what the command prints
        self._own = {cache_folder, os.path.realpath(cache_folder)}
        self._saved: dict[str, Any] = {}

    def see(self, path: Any, follow: bool, listed: bool = False) -> None:
        if isinstance(path, os.PathLike):
            path = os.fspath(path)
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if not isinstance(path, str):
            if isinstance(path, int):  # a descriptor: its file was opened by a path seen
                return
            self.complete = False
            return
        # the path as the system was asked, not normalized: `link/../x` is the `x` beside
        # the link's target, `link/` the target itself
        full = path if os.path.isabs(path) else os.path.join(os.getcwd(), path)
        if (
            f"{os.sep}.." not in full
            and (full.startswith(self._skip) or full in self._own)
            and not full.startswith(SHARED_MEMORY)  # (files like any other, in memory)
        ):
            return
        if listed:
            self.listed.add(full)
        key = (full, follow)
        if key not in self.seen:
            if len(self.seen) >= MAX_PATHS:
                self.complete = False
                return
            self.seen[key] = signature(full, follow)

    def start(self) -> None:
        global _HOOKED
        recorder = self
        real_stat, real_lstat = os.stat, os.lstat
        real_scandir, real_listdir = os.scandir, os.listdir
        real_open, real_access, real_readlink = os.open, os.access, os.readlink
        self._saved = {
            "stat": real_stat,
            "lstat": real_lstat,
            "scandir": real_scandir,
            "listdir": real_listdir,
            "open": real_open,
            "access": real_access,
            "readlink": real_readlink,
        }

        def stat_(path: Any, *, dir_fd: int | None = None, follow_symlinks: bool = True) -> Any:
            if dir_fd is not None:
                recorder.complete = False
            else:
                recorder.see(path, follow_symlinks)
            return real_stat(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks)

        def lstat_(path: Any, *, dir_fd: int | None = None) -> Any:
            if dir_fd is not None:
                recorder.complete = False
            else:
                recorder.see(path, False)
            return real_lstat(path, dir_fd=dir_fd)

        def scandir_(path: Any = ".") -> Any:
            if isinstance(path, int):
                recorder.complete = False
                return real_scandir(path)
            return _Listing(real_scandir(path), recorder)

        def open_(path: Any, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> Any:
            if dir_fd is not None:  # (its audit event names the file, not the folder)
                recorder.complete = False
            return real_open(path, flags, mode, dir_fd=dir_fd)

        def access_(path: Any, mode: int, *, dir_fd: int | None = None, **kw: Any) -> Any:
            # (no audit event): what it answers is in what `stat` says (the mode)
            if dir_fd is not None:
                recorder.complete = False
            else:
                recorder.see(path, kw.get("follow_symlinks", True))
            return real_access(path, mode, dir_fd=dir_fd, **kw)

        def readlink_(path: Any, *, dir_fd: int | None = None) -> Any:
            # (no audit event): a link pointed elsewhere is a new link (`lstat`)
            if dir_fd is not None:
                recorder.complete = False
            else:
                recorder.see(path, False)
            return real_readlink(path, dir_fd=dir_fd)

        os.stat, os.lstat, os.scandir = stat_, lstat_, scandir_
        os.open, os.access, os.readlink = open_, access_, readlink_
        os.listdir = real_listdir  # its audit event names the folder
        _ACTIVE[:] = [self]
        if not _HOOKED:
            sys.addaudithook(_audit)
            _HOOKED = True

    def stop(self) -> None:
        _ACTIVE.clear()
        if self._saved:
            os.stat = self._saved["stat"]
            os.lstat = self._saved["lstat"]
            os.scandir = self._saved["scandir"]
            os.listdir = self._saved["listdir"]
            os.open = self._saved["open"]
            os.access = self._saved["access"]
            os.readlink = self._saved["readlink"]
            self._saved = {}


class Transcript:
    """What a run wrote to its two streams, in order: [stream, text] parts (0 stdout,
    1 stderr), the writes to one stream in a row joined."""

    def __init__(self) -> None:
        self.parts: list[list[Any]] = []
        self.size = 0

    def add(self, index: int, text: str) -> None:
        if self.size > MAX_OUTPUT or not text:
            return
        self.size += len(text)
        if self.parts and self.parts[-1][0] == index:
            self.parts[-1][1].append(text)
        else:
            self.parts.append([index, [text]])

    def joined(self) -> list[list[Any]]:
        return [[index, "".join(texts)] for index, texts in self.parts]


class Tee(io.TextIOBase):
    """A text stream that writes through to another and keeps what was written (in
    the transcript it shares with the other stream)."""

    def __init__(self, inner: TextIO, transcript: Transcript, index: int) -> None:
        self.inner = inner
        self.transcript = transcript
        self.index = index
        self.failed = False

    def write(self, text: str) -> int:
        self.transcript.add(self.index, text)
        try:
            return self.inner.write(text)
        except Exception:
            self.failed = True
            raise

    def flush(self) -> None:
        try:
            self.inner.flush()
        except Exception:
            self.failed = True
            raise

    def isatty(self) -> bool:
        return self.inner.isatty()

    def fileno(self) -> int:
        return self.inner.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.inner.encoding

    def writable(self) -> bool:
        return True
