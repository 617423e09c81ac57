"""A read-only command run again on what it read, unchanged: its output served from the
cache folder (docs/commands.md, "The cache of what was read"; docs/performance.md).

A command that only reads (`READ_ONLY`, none of `WRITES` among its words) is *recorded*
when it runs: every path the process looks at while the command runs (each `stat`,
`lstat`, folder listing and open, as the process's own calls make them: `os.stat`,
`os.lstat`, `os.scandir`, `os.listdir` and `DirEntry.stat` are wrapped for the run, and an
audit hook sees every `open`) is kept with what `stat`/`lstat` said of it (type, inode,
device, size, modification and change times in ns, or the error), beside the exact bytes
the command wrote to stdout and stderr and its exit code. The next run of the same
command (the same words, folder, environment, terminal and SkillStudio code) looks at
each of those paths again, the same way, and only when every one is as it was does it
write the recorded output instead of running: a file edited, swapped, moved, added to or
removed from a folder that was listed, or a path that appeared where none was, changes
what one of those calls says, and the command runs.

Not recorded, so never served: a run that started worker processes (they read files
this process does not see), that wrote to a closed pipe, ended with an error of usage
(2) or an interruption, looked at a path through a folder descriptor, or looked at more
than MAX_PATHS paths; a run where anything it looked at changed less than SETTLED_NS
before it ended (a file system's clock tick could hide a second write). The recording
is a file of the cache folder (reading/cache_files.py): signed, owned by the user, JSON;
`--no-cache` neither reads nor writes it. It is never a source of truth for writes: no
command that writes is recorded.

This module imports the standard library and reading/cache_files.py only: a served
command loads nothing else.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import json
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO

from ..core.reading.cache_files import CacheFolder

FORMAT = 2
# the commands that only read (never `test`: suites may ask a model; never `set`, `new`,
# `pack`, `unpack`), and the words that make a command write or bypass the cache
READ_ONLY = frozenset(
    {"lint", "list", "show", "match", "prompt", "activate", "headroom", "overlap"}
)
WRITES = ("--fix", "--unsafe-fixes", "--dry-run", "--no-cache", "--junit", "--output", "-o")
MAX_PATHS = 500_000  # more than this in one run: not recorded
MAX_OUTPUT = 64 * 2**20  # characters of stdout + stderr kept at most
SETTLED_NS = 2 * 10**9  # as the state cache's RACY_NS: FAT's 2 s clock
# the environment that does not change what a command prints (the shell's bookkeeping)
VOLATILE_ENV = frozenset({"_", "OLDPWD", "SHLVL", "PWD"})
PREFIX = "replay-"
SHARED_MEMORY = "/dev/shm/"  # a folder of files under /dev (a scratch tree in memory)
# what `stat` answers of a path for as long as it is as it is (missing, not a folder, a
# loop, a name too long, refused by its mode, which is in what its folder's `stat` says):
# any other error is of the moment (an I/O error of a network file system, too many open
# files, EPERM: macOS's privacy settings, a sandbox) and a run that met one is not recorded
LASTING = frozenset(
    -getattr(errno, name)
    for name in ("ENOENT", "ENOTDIR", "ELOOP", "ENAMETOOLONG", "EACCES", "EINVAL")
    if hasattr(errno, name)
)
# the errors of the moment, as a run's output would name them (a file that could not be
# read "(Input/output error)"): an answer that says one is not recorded
PASSING = tuple(
    os.strerror(getattr(errno, name))
    for name in (
        "EIO",
        "EPERM",
        "EMFILE",
        "ENFILE",
        "ENOMEM",
        "EAGAIN",
        "EINTR",
        "ETIMEDOUT",
        "ESTALE",
        "EBUSY",
        "ENOBUFS",
        "ENOLCK",
        "EDEADLK",
        "ETXTBSY",
        "ECONNRESET",
        "EHOSTDOWN",
        "EHOSTUNREACH",
        "ENETDOWN",
        "ENETUNREACH",
        "ENOLINK",
        "EREMOTEIO",
    )
    if hasattr(errno, name)
)

Sig = list[int] | int
# the functions as they were before any recording wraps them
_STAT, _LSTAT = os.stat, os.lstat


def _sig(path: str, follow: bool) -> Sig:
    """What `stat` (follow) or `lstat` says of a path: type, inode, device, size,
    modification and change times; the error number (negated) when it cannot."""
    try:
        st = _STAT(path) if follow else _LSTAT(path)
    except OSError as exc:
        return -(exc.errno or 1)
    except ValueError:  # a NUL in the name
        return -errno.EINVAL
    return [st.st_mode, st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _bytes(text: str) -> bytes:
    """Text as bytes for a digest; a file name that is not UTF-8 (its bytes decoded as
    surrogates) included."""
    return text.encode("utf-8", "surrogatepass")


def _code_digest(update: Callable[[bytes], Any]) -> None:
    """SkillStudio's own code: what `lstat` says of every file of the package (size,
    times, inode), and the folders its libraries are installed in (a frozen bundle: its
    executable)."""
    if getattr(sys, "frozen", False):
        update(_bytes(repr(_sig(sys.executable, True))))
        return
    # the libraries: a package installed, removed or upgraded changes its folder's entries
    for place in sys.path:
        if place and place.startswith((sys.prefix, sys.base_prefix)):
            update(_bytes(f"{place}\0{_sig(place, True)}\n"))
    stack = [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as found:
                entries = sorted(found, key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name == "__pycache__":
                continue
            if entry.is_dir(follow_symlinks=False):
                stack.append(entry.path)
            else:
                st = entry.stat(follow_symlinks=False)
                sig = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
                update(_bytes(f"{entry.path}\0{sig}\n"))


def _credentials() -> tuple[Any, ...]:
    """The user and groups the process reads as (a user added to a group may read a
    folder that was refused: nothing in the folder changed)."""
    try:
        return (os.getuid(), os.geteuid(), os.getgid(), os.getegid(), sorted(os.getgroups()))
    except (AttributeError, OSError):  # (Windows)
        return ()


def _terminal(stream: TextIO) -> str:
    try:
        if stream.isatty():
            size = os.get_terminal_size(stream.fileno())
            return f"tty {size.columns}x{size.lines}"
    except (OSError, ValueError, AttributeError):
        pass
    return "-"


class Plan:
    """One invocation that may be served or recorded."""

    def __init__(self, argv: Sequence[str], cwd: str, folder: CacheFolder) -> None:
        self.argv = list(argv)
        self.cwd = cwd
        self.folder = folder
        digest = hashlib.sha256(_bytes(f"skillstudio-replay {FORMAT}\0{sys.version}\0"))
        _code_digest(digest.update)
        environment = sorted((k, v) for k, v in os.environ.items() if k not in VOLATILE_ENV)
        digest.update(_bytes(json.dumps([self.argv, cwd, environment])))
        digest.update(_bytes(f"{_terminal(sys.stdout)}\0{_terminal(sys.stderr)}"))
        digest.update(_bytes(repr(_credentials())))  # what the process may read
        # the whole key is in the recording too: one renamed or copied to another
        # command's name is not that command's answer
        self.key = digest.hexdigest()
        self.name = PREFIX + self.key[:40] + ".cache"
        self.recorder: Recorder | None = None

    @classmethod
    def for_argv(cls, argv: Sequence[str]) -> Plan | None:
        """A plan for a read-only command, None for any other (or without a usable cache
        folder, or a working folder that cannot be named)."""
        words = [word for word in argv if not word.startswith("-")]
        if not words or words[0] not in READ_ONLY:
            return None
        if any(_writes(word) for word in argv):
            return None
        if "-" in argv:  # something read from standard input
            return None
        try:
            cwd = os.getcwd()
        except OSError:
            return None
        folder = CacheFolder.open()
        return cls(argv, cwd, folder) if folder is not None else None

    # ------------------------------------------------------------------ serving
    def replay(self, out: TextIO, err: TextIO) -> int | None:
        """Write the recorded output and return its exit code, if every path the
        recorded run looked at is as it was; else None (nothing written)."""
        payload = self.holds()
        return None if payload is None else serve(payload, out, err)

    def holds(self) -> dict[str, Any] | None:
        """The recording of this command, if it is whole and everything its run
        looked at is as it was."""
        payload = self.folder.read(self.name)
        if not _well_formed(payload) or payload is None or payload["key"] != self.key:
            return None
        for (path, follow), sig in zip(payload["paths"], payload["sigs"], strict=True):
            now = _sig(path, follow)
            if isinstance(now, list) and isinstance(sig, list) and len(sig) == 3:
                now = now[:3]
            if now != sig:
                return None
        return payload

    # ---------------------------------------------------------------- recording
    def record(self) -> None:
        self.recorder = Recorder(self.folder.folder)
        self.recorder.start()

    def finish(self, code: int, parts: list[list[Any]], clean: bool) -> None:
        """Store the run's recording (`parts`: what it wrote, [stream, text] in order,
        0 for stdout, 1 for stderr), if it may be served again."""
        recorder = self.recorder
        if recorder is None:
            return
        recorder.stop()
        parallel = sys.modules.get("skillstudio.core.scanning.parallel")
        workers = bool(getattr(parallel, "WORKERS_STARTED", False))  # reads we did not see
        if not clean or workers or code not in (0, 1) or not recorder.complete:
            return
        if sum(len(text) for _, text in parts) > MAX_OUTPUT:
            return
        if any(error in text for _, text in parts for error in PASSING):
            return  # an answer of the moment (a read that failed, not a file's fault)
        paths, sigs = [], []
        limit = time.time_ns() - SETTLED_NS
        listed = recorder.listed
        for (path, follow), sig in recorder.seen.items():
            now = _sig(path, follow)
            if isinstance(now, list) and stat.S_ISDIR(now[0]) and path not in listed:
                # a folder looked at, not listed (an ancestor, a link's target): what it
                # is matters, not when its entries last changed (each entry looked up
                # by name is a path of its own)
                now, sig = now[:3], sig[:3] if isinstance(sig, list) else sig
                if now != sig:
                    return
            elif now != sig:
                return  # it changed while the command ran
            elif isinstance(now, list) and max(now[4], now[5]) > limit:
                return  # changed too recently to tell a second change from it
            elif isinstance(now, int) and now not in LASTING:
                return  # an error of the moment
            paths.append([path, follow])
            sigs.append(now)
        self.folder.write(
            self.name,
            {
                "format": FORMAT,
                "key": self.key,
                "paths": paths,
                "sigs": sigs,
                "parts": parts,
                "code": code,
            },
        )


def serve(payload: dict[str, Any], out: TextIO, err: TextIO) -> int:
    """Write a recording's output, each part to the stream the run wrote it to and in
    the same order; its exit code."""
    streams = (out, err)
    try:
        for index, text in payload["parts"]:
            streams[index].write(text)
            streams[index].flush()
    except BrokenPipeError:
        pass
    return int(payload["code"])


def _writes(word: str) -> bool:
    """Whether a word of the command line is one of WRITES as argparse would take it:
    a long option by any prefix of its name (`--no-ca` is --no-cache), a short one
    with its value attached or among other short options (`-ofile`, `-vo file`)."""
    if word.startswith("--"):
        name = word.split("=", 1)[0]
        return len(name) > 2 and any(flag.startswith(name) for flag in WRITES)
    if word.startswith("-") and len(word) > 1:
        letters = word[1:].split("=", 1)[0]
        return any(flag[1] in letters for flag in WRITES if not flag.startswith("--"))
    return False


def _well_formed(payload: dict[str, Any] | None) -> bool:
    if payload is None or payload.get("format") != FORMAT:
        return False
    paths, sigs = payload.get("paths"), payload.get("sigs")
    if not isinstance(paths, list) or not isinstance(sigs, list) or len(paths) != len(sigs):
        return False
    if not isinstance(payload.get("key"), str):
        return False
    parts = payload.get("parts")
    if not isinstance(parts, list) or not all(
        isinstance(part, list)
        and len(part) == 2
        and part[0] in (0, 1)
        and type(part[0]) is int
        and isinstance(part[1], str)
        for part in parts
    ):
        return False
    if payload.get("code") not in (0, 1) or type(payload.get("code")) is not int:
        return False  # (only these are recorded)
    for item in paths:
        if not (
            isinstance(item, list)
            and len(item) == 2
            and isinstance(item[0], str)
            and isinstance(item[1], bool)
        ):
            return False
    return all(
        (isinstance(sig, int) and not isinstance(sig, bool))
        or (isinstance(sig, list) and len(sig) in (3, 6) and all(type(x) is int for x in sig))
        for sig in sigs
    )


# ------------------------------------------------------------------------ recorder
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
            self.seen[key] = _sig(full, follow)

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


def run(argv: Sequence[str], command: Callable[[list[str]], int]) -> int:
    """Serve `argv` from its recording, else run `command(argv)` (recording it when it
    only reads)."""
    try:
        plan = Plan.for_argv(argv)
        payload = plan.holds() if plan is not None else None
    except Exception:  # the cache never fails a command: it runs, unrecorded
        plan = payload = None
    if plan is None:
        return command(list(argv))
    if payload is not None and sys.stdout is not None and sys.stderr is not None:
        return serve(payload, sys.stdout, sys.stderr)  # (a closed one: the command says so)
    transcript = Transcript()
    out, err = Tee(sys.stdout, transcript, 0), Tee(sys.stderr, transcript, 1)
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    plan.record()
    code = 2
    clean = False
    try:
        code = command(list(argv))
        clean = True
    finally:
        sys.stdout, sys.stderr = saved
        clean = clean and not (out.failed or err.failed)
        if plan.recorder is not None:
            plan.recorder.stop()
    # a recording that cannot be kept costs the next run its speed, nothing else
    with contextlib.suppress(Exception):
        plan.finish(code, transcript.joined(), clean)
    return code
