"""Reading thousands of skill files in worker processes.

A scan of 10,000 skills parses for about 2 s on one core; the work is split in
chunks that worker processes take in order while the calling thread takes them
from the end (so nothing waits while the workers start, and a machine where
they cannot start still reads everything). The CLI starts its workers with
`fork` (it has no threads); the app with `spawn` (or `forkserver`), as forking a
process with Qt's threads running is unsafe. What a worker sends back is a
compact state per skill (model.skill_state), rebuilt here.

The workers read the same untrusted files with the same bounded code as the
caller would; they import nothing of the skill folder either. A worker that
dies or cannot be reached costs time, not skills: its chunks are read here. A
worker ends with the process that started it, even one killed with SIGKILL.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ..checking.validate import validate_skill
from ..model.scan import Found
from ..model.skills import Root, Skill
from ..profile import Profile
from ..reading.frontmatter import BOM, MAX_FILE_BYTES, read_bounded, read_document
from ..reading.looked import recording
from ..reading.skill_words import gist_of_skill
from .loading import FAILED, build_skill
from .skill_state import skill_from_state, skill_state

if TYPE_CHECKING:  # (imported when workers start: a scan of a few files needs no process)
    from concurrent.futures import Future, ProcessPoolExecutor

PARALLEL_MIN_FILES = 2000  # below this many files a second process costs more than it saves
PARALLEL_MIN_GISTS = 500  # (a gist costs about twice as much as the rest of reading a skill)
CHUNK_FILES = 100  # files per piece of work (about 20 ms of parsing; its answer: 130 KB)
POLL_S = 0.05  # how often a caller waiting for a worker checks whether it should stop

T = TypeVar("T")
R = TypeVar("R")


def load_skill(
    root: Root,
    found: Found,
    profile: Profile,
    keep_text: bool,
    gist: bool,
    real_root: str | None = None,
    looked: list[list[str]] | None = None,
) -> Skill:
    """Read, parse and validate one SKILL.md. The file opened must lie inside the
    root (`real_root`: its resolved path, when the caller worked it out once for many
    files; realpath costs 20 µs): a link out swapped in since discovery is not read.
    `looked`: where to add the paths its checks looked at (reading/looked.py)."""
    stamp = (found.mtime_ns, found.size)
    base = real_root or os.path.realpath(root.boundary)

    def read() -> Any:
        return read_document(found.path, found.size, base)

    if looked is None:
        return build_skill(root, found.path, stamp, profile, keep_text, read, validate_skill, gist)
    with recording() as paths:
        skill = build_skill(root, found.path, stamp, profile, keep_text, read, validate_skill, gist)
    looked.append(paths)
    return skill


def load_chunk(
    profile: Profile,
    roots: list[Root],
    flags: tuple[bool, bool],
    record: bool,
    items: list[tuple[str, Found]],
) -> list[tuple[str, tuple[object, ...], list[str]]]:
    """Worker side of a parallel scan: (root path, compact skill state, the paths its
    checks looked at when `record`) per file."""
    by_path = {root.path: root for root in roots}
    reals = real_roots(roots)
    out: list[tuple[str, tuple[object, ...], list[str]]] = []
    gc.disable()  # nothing built here outlives the call, and none of it has cycles
    try:
        for root_path, found in items:
            looked: list[list[str]] | None = [] if record else None
            skill = load_skill(by_path[root_path], found, profile, *flags, reals[root_path], looked)
            out.append((root_path, skill_state(skill), looked[0] if looked else []))
        return out
    finally:
        gc.enable()


def real_roots(roots: list[Root]) -> dict[str, str]:
    """Each root's resolved path, worked out once for the many files read under it."""
    return {root.path: os.path.realpath(root.boundary) for root in roots}


def skill_gist(
    path: str, mtime_ns: int, size: int, body_offset: int, root: str, real_root: str = ""
) -> str | None:
    """The gist (reading/skill_words.py) of the skill file at `path` as the scan read it (its
    modification time and size; its body from `body_offset`, a character offset in
    its text): the YAML is not parsed again. None when the file changed since (its
    refresh works the gist out), cannot be read as it was, or the file opened lies
    outside its `root` (`real_root`: its resolved path; a link swapped in after the
    scan)."""
    try:
        if size > MAX_FILE_BYTES:
            return None
        raw = read_bounded(path, size, real_root or os.path.realpath(root))
        after = os.stat(path)
    except OSError:  # (FileRefused too: not a regular file)
        return None
    if (after.st_mtime_ns, after.st_size) != (mtime_ns, size) or len(raw) != size:
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    text = text[1:] if text.startswith(BOM) else text
    return gist_of_skill(text[body_offset:], path) if text else ""


def gist_chunk(items: list[tuple[str, int, int, int, str]]) -> list[str | None]:
    """Worker side of `fill_gists`."""
    reals: dict[str, str] = {}
    return [
        skill_gist(
            *item, reals.get(item[4]) or reals.setdefault(item[4], os.path.realpath(item[4]))
        )
        for item in items
    ]


PR_SET_PDEATHSIG = 1  # linux/prctl.h
PARENT_POLL_S = 0.25  # how often a worker checks that the process that started it lives


def _worker_start(nice: int, parent: int, pdeathsig: bool) -> None:
    """A worker's first steps: it ends with the process that started it (`parent`),
    even one killed with SIGKILL (`timeout`, a cancelled CI job), and runs below its
    caller's priority (where the system has one)."""
    if parent:
        _die_with(parent, pdeathsig)
    if nice and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(nice)


def _die_with(parent: int, pdeathsig: bool) -> None:
    """Without this a worker of a killed parent waits for work on its pipe for ever,
    with ppid 1 (its siblings hold the pipe's other end open). Linux: the kernel
    sends SIGKILL when the parent goes (`pdeathsig`: asked only of workers started by
    the parent's main thread, as the signal comes when the *thread* that started the
    worker ends). Everywhere: a thread that ends the worker when its parent is no
    longer the one that started it. The parent may be gone already (before prctl
    took effect): then the worker ends at once."""
    if pdeathsig and sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


# whether this process started worker processes (their file reads are theirs)
WORKERS_STARTED = False


class Workers:
    """Worker processes for the large jobs of one scan, started when first given work;
    `close()` when done (or use `with`). `count` processes at most, started with
    `method` ("fork" only where the caller runs no threads). Where processes cannot
    be started, the caller does the work itself."""

    def __init__(self, count: int, method: str, steal: str = "always", nice: int = 0) -> None:
        """`steal`: when the calling thread takes chunks no worker was given (see
        `map_chunks`): "always", "until-started" or "never". `nice`: how much lower
        the workers' scheduling priority is (the app's: below its window's)."""
        self.count, self.method, self.steal, self.nice = count, method, steal, nice
        self.pool: ProcessPoolExecutor | None = None
        self.unusable = count < 1
        self.answered = [0, 0]  # chunks done by the workers, and here

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        pool, self.pool = self.pool, None
        self.unusable = True
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def _started(self) -> ProcessPoolExecutor | None:
        """The pool, made on first use (not before a scan knows it is large: making one
        starts a helper process of multiprocessing's own)."""
        if self.pool is None and not self.unusable:
            import multiprocessing

            global WORKERS_STARTED
            WORKERS_STARTED = True  # (cli/replay.py: the workers' reads are not seen here)
            from concurrent.futures import ProcessPoolExecutor

            try:
                context = multiprocessing.get_context(self.method)
                # the workers' parent is this process with fork and spawn (forkserver's
                # are children of its server, which ends with this process)
                parent = os.getpid() if self.method in ("fork", "spawn") else 0
                on_main = threading.current_thread() is threading.main_thread()
                self.pool = ProcessPoolExecutor(
                    self.count,
                    mp_context=context,
                    initializer=_worker_start,
                    initargs=(self.nice, parent, on_main),
                )
            except (ValueError, OSError, NotImplementedError):
                self.unusable = True
        return self.pool

    def map_chunks(
        self,
        work: Callable[..., R],
        args: Sequence[Any],
        chunks: list[T],
        local: Callable[[T], R],
        done: Callable[[int, R], None],
        stop: Callable[[], bool] = lambda: False,
    ) -> None:
        """`done(i, work(*args, chunks[i]))` for every chunk, in order. The workers are
        given chunks from the front, a few more than they are at a time; this thread
        runs `local(chunk)` on chunks from the back that no worker was given while it
        waits (with `self.steal` "until-started", only until the first worker's answer
        is in; "never": only when the workers cannot run). A chunk whose worker failed
        is run here too. `stop()` is asked between chunks; True ends the job."""
        pool = self._started()
        window = 2 * self.count
        given: dict[int, Future[R]] = {}
        ready: dict[int, R] = {}  # chunks run here, out of order
        front, back, index = 0, len(chunks), 0  # [back, end) are this thread's
        try:
            while index < len(chunks):
                if stop():
                    return
                while pool is not None and front < back and len(given) < window:
                    try:
                        given[front] = pool.submit(work, *args, chunks[front])
                    except Exception:  # (BrokenProcessPool: a worker died)
                        pool = None
                        break
                    front += 1
                if index in ready:
                    done(index, ready.pop(index))
                    index += 1
                    continue
                future = given.get(index)
                if future is None:  # nobody was given it (no workers): here, then
                    ready[index] = self._here(local, chunks[index])
                    back = max(back, index + 1)
                    front = max(front, index + 1)
                    continue
                if future.done():
                    del given[index]
                    try:
                        result = future.result()
                        self.answered[0] += 1
                    except Exception:  # a worker died or its answer did not arrive
                        result = self._here(local, chunks[index])
                    done(index, result)
                    index += 1
                    continue
                steal = self.steal == "always" or (
                    self.steal == "until-started" and not self.answered[0]
                )
                if steal and back > front:
                    back -= 1
                    ready[back] = self._here(local, chunks[back])
                else:
                    from concurrent.futures import wait as wait_futures

                    wait_futures([future], timeout=POLL_S)
        finally:
            for future in given.values():
                future.cancel()

    def _here(self, local: Callable[[T], R], chunk: T) -> R:
        self.answered[1] += 1
        return local(chunk)


def chunked(items: Sequence[T]) -> list[list[T]]:
    size = CHUNK_FILES
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def load_parallel(
    workers: Workers,
    profile: Profile,
    roots: list[Root],
    found: list[tuple[Root, Found]],
    flags: tuple[bool, bool],
    progress: Callable[[int], None] | None = None,
    looked: list[list[str]] | None = None,
) -> list[Skill]:
    """Every file of `found` read, in order, by `workers` and this thread (`looked`:
    where to add, in the same order, the paths each one's checks looked at)."""
    by_path = {root.path: root for root in roots}
    chunks = chunked([(root.path, item) for root, item in found])
    parts: list[list[Skill]] = [[] for _ in chunks]
    paths_of: list[list[list[str]]] = [[] for _ in chunks]
    record = looked is not None
    read = 0

    reals = real_roots(roots)

    def local(chunk: list[tuple[str, Found]]) -> list[Any]:  # (Skills; a worker's: states)
        paths: list[list[str]] = []
        skills = [
            load_skill(by_path[path], item, profile, *flags, reals[path], paths if record else None)
            for path, item in chunk
        ]
        return [(skill, paths[i] if record else []) for i, skill in enumerate(skills)]

    def done(index: int, result: list[Any]) -> None:
        nonlocal read
        if result and not isinstance(result[0][0], Skill):  # states from a worker
            result = [
                (skill_from_state(state, by_path[path]), paths) for path, state, paths in result
            ]
        parts[index] = [skill for skill, _ in result]
        paths_of[index] = [paths for _, paths in result]
        read += len(result)
        if progress is not None:
            progress(read)

    workers.map_chunks(load_chunk, (profile, roots, flags, record), chunks, local, done)
    if looked is not None:
        looked.extend(paths for part in paths_of for paths in part)
    return [skill for part in parts for skill in part]


def fill_gists(
    skills: list[Skill], workers: Workers | None, stop: Callable[[], bool] = lambda: False
) -> int:
    """Work out the gist of every skill read without one (skills of a profile where
    the model chooses, from a scan that showed them first: `Registry.scan(defer_gists=True)`),
    in `workers` and here. Each Skill
    gets its gist set once, in place, before anything ranks with it; a file that
    changed meanwhile keeps none until its refresh. Returns how many were set."""
    todo = [s for s in skills if not s.gist and s.mtime_ns != FAILED and s.doc.readable]
    chunks = chunked(todo)
    filled = 0

    def done(index: int, gists: list[str | None]) -> None:
        nonlocal filled
        for skill, gist in zip(chunks[index], gists, strict=True):
            if gist:
                skill.gist = gist
                filled += 1

    items = [
        [(s.path, s.mtime_ns, s.size, s.doc.body_offset, s.root.boundary) for s in chunk]
        for chunk in chunks
    ]
    runner = workers if workers is not None and len(todo) >= PARALLEL_MIN_GISTS else None
    runner = runner or Workers(0, "spawn")
    runner.map_chunks(gist_chunk, (), items, gist_chunk, done, stop)
    return filled
