"""A read-only command run again on what it read, unchanged: its output served from the
cache folder (docs/commands.md, "The cache of what was read"; docs/performance.md).

A command that only reads (`READ_ONLY`, none of `WRITES` among its words, by any prefix
argparse would take: `--no-ca` is --no-cache) is *recorded* when it runs: every path the
process looks at while the command runs (cli/recorder.py: each stat, lstat, folder
listing, open, access and readlink, as the process's own calls make them) is kept with
what `stat`/`lstat` said of it (type, inode, device, size, modification and change times
in ns, or the error), beside the text the command wrote to stdout and stderr, in order,
and its exit code. The next run of the same command (the same words, folder,
environment, terminal, user and groups, and SkillStudio code and libraries: the key,
also kept in the recording) looks at each of those paths again, the same way, and only
when every one is as it was does it write the recorded output instead of running: a
file edited, swapped, moved, added to or removed from a folder that was listed, or a
path that appeared where none was, changes what one of those calls says, and the
command runs.

Not recorded, so never served: a run that started worker processes (they read files
this process does not see), that wrote to a closed pipe, ended with an error of usage
(2) or an interruption, looked at a path through a folder descriptor, or looked at more
than MAX_PATHS paths; a run where anything it looked at changed less than SETTLED_NS
before the run started (a file system's clock tick could hide a second write, and a long
run must not make a file read early look settled); a run that met
an error of the moment (a stat error other than LASTING, or an answer naming one of
PASSING: an I/O error, too many open files), which would be served after it cleared.
The recording is a file of the cache folder (reading/cache_files.py): signed, owned by
the user, JSON; `--no-cache` neither reads nor writes it. It is never a source of truth
for writes: no command that writes is recorded. Any error of the cache runs the command,
unrecorded; a closed stdout or stderr is never served to.

This module imports the standard library, reading/cache_files.py and cli/recorder.py
only: a served command loads nothing else.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import stat
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from ..core.reading.cache_files import CacheFolder
from .recorder import MAX_OUTPUT, Recorder, Tee, Transcript, signature

FORMAT = 2
# the commands that only read (never `test`: suites may ask a model; never `set`, `new`,
# `pack`, `unpack`), and the words that make a command write or bypass the cache
READ_ONLY = frozenset(
    {"lint", "list", "show", "match", "prompt", "activate", "headroom", "overlap"}
)
WRITES = ("--fix", "--unsafe-fixes", "--dry-run", "--no-cache", "--junit", "--output", "-o")
SETTLED_NS = 2 * 10**9  # as the state cache's RACY_NS: FAT's 2 s clock
# the environment that does not change what a command prints (the shell's bookkeeping)
VOLATILE_ENV = frozenset({"_", "OLDPWD", "SHLVL", "PWD"})
PREFIX = "replay-"
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


def _bytes(text: str) -> bytes:
    """Text as bytes for a digest; a file name that is not UTF-8 (its bytes decoded as
    surrogates) included."""
    return text.encode("utf-8", "surrogatepass")


def _code_digest(update: Callable[[bytes], Any]) -> None:
    """SkillStudio's own code: what `lstat` says of every file of the package (size,
    times, inode), and the folders its libraries are installed in (a frozen bundle: its
    executable)."""
    if getattr(sys, "frozen", False):
        update(_bytes(repr(signature(sys.executable, True))))
        return
    # the libraries: a package installed, removed or upgraded changes its folder's entries
    for place in sys.path:
        if place and place.startswith((sys.prefix, sys.base_prefix)):
            update(_bytes(f"{place}\0{signature(place, True)}\n"))
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
        self.started = 0  # when the recording started (ns)

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
            now = signature(path, follow)
            if isinstance(now, list) and isinstance(sig, list) and len(sig) == 3:
                now = now[:3]
            if now != sig:
                return None
        return payload

    # ---------------------------------------------------------------- recording
    def record(self) -> None:
        # workers started by an earlier command of this process are not this run's
        parallel = sys.modules.get("skillstudio.core.scanning.parallel")
        if parallel is not None:
            parallel.WORKERS_STARTED = False  # type: ignore[attr-defined]
        # (before anything is looked at: what counts is how old a file was when it was
        # looked at, not when a long run ended)
        self.started = time.time_ns()
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
        limit = self.started - SETTLED_NS
        listed = recorder.listed
        for (path, follow), sig in recorder.seen.items():
            now = signature(path, follow)
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
