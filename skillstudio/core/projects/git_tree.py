"""A repository's tree at a revision, read from git's objects (`skillstudio diff`).

git runs as a subprocess with fixed arguments: `rev-parse` finds the repository and the
commit, `ls-tree -r -z -l` lists the files, `cat-file --batch` gives their bytes. Nothing
is checked out: the work tree and the index are never written (GIT_OPTIONAL_LOCKS=0, so
that not even an index refresh happens). The files are written into a private temporary
folder under the user's cache (`TreeCopy`, removed when closed), bounded as the reading
layer bounds a folder: at most `max_files` regular files, each at most `max_bytes` (a
larger one is written empty and named in `skipped`), `max_total` bytes in all; links,
submodules and any path that would leave the folder are not written.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO

from ..model.scan import DEFAULT_MAX_FOLDERS
from ..reading.cache_files import cache_folder
from ..reading.safefs import DEFAULT_MAX_BYTES

MAX_FILES = DEFAULT_MAX_FOLDERS * 4  # regular files written from one revision
MAX_TOTAL = 256 * 1024 * 1024  # bytes written from one revision
TIMEOUT = 60.0  # seconds any one git command may take
MAX_DEPTH = 64  # folders a written path may go down (a tree may nest thousands)
NAME_MAX = 255  # bytes in one name (what most file systems take)
MAX_SKIPPED = 100  # paths named in `skipped`; the rest only counted
REGULAR = ("100644", "100755")  # a symlink (120000) or a submodule (160000) is not written
STALE_S = 3600.0  # a copy older than this, left by a run that was killed, is removed
GONE = ".gone"  # a copy set aside, being removed
_REMOVE = "import shutil, sys; shutil.rmtree(sys.argv[1], ignore_errors=True)"


class GitError(Exception):
    """git is missing, the folder is not in a repository, or a revision is unknown: the
    command line answers with a plain message and exit 2."""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0", GIT_PAGER="cat", LC_ALL="C")
    return env


def git_output(
    top: str, *args: str, data: bytes | None = None, env: dict[str, str] | None = None
) -> bytes:
    """What `git -C top ARGS` writes (GitError when it fails); never a pager, a prompt,
    an fsmonitor hook or an optional lock."""
    try:
        done = subprocess.run(
            ["git", "-C", top, "-c", "core.fsmonitor=false", *args],
            input=data,
            capture_output=True,
            env=env or _env(),
            timeout=TIMEOUT,
            check=False,
        )
    except FileNotFoundError:
        raise GitError("git is not installed (or not on PATH)") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {args[0]} took longer than {TIMEOUT:.0f} seconds") from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(said[-1] if said else f"git {args[0]} failed")
    return done.stdout


def worktree_output(top: str, *args: str) -> bytes:
    """`git_output` for a command that reads the work tree (`git diff REV`): git would
    run the clean filter a `.gitattributes` names for each file it hashes, a program
    the repository's config chooses; each such filter is set empty, which git skips."""
    try:
        keys = git_output(
            top, "config", "-z", "--name-only", "--get-regexp", r"^filter\..*\.(clean|process)$"
        )
    except GitError:  # (exit 1: no filter configured)
        keys = b""
    env = _env()
    count = env.get("GIT_CONFIG_COUNT", "")
    n = int(count) if count.isdigit() else 0  # (after the user's own, if any)
    for key in keys.split(b"\0"):  # (not -c: a driver's name may hold '=')
        if key:
            env[f"GIT_CONFIG_KEY_{n}"] = key.decode("utf-8", "surrogateescape")
            env[f"GIT_CONFIG_VALUE_{n}"] = ""
            n += 1
    env["GIT_CONFIG_COUNT"] = str(n)
    return git_output(top, *args, env=env)


def repository_top(folder: str) -> str:
    """The top folder of the repository `folder` is in (GitError if none)."""
    if not os.path.isdir(folder):
        raise GitError(f"{folder}: not a folder")
    try:
        out = git_output(folder, "rev-parse", "--show-toplevel")
    except GitError as exc:
        if "not a git repository" in str(exc).lower():
            raise GitError(f"{folder} is not inside a git repository") from None
        raise
    return os.path.realpath(out.decode("utf-8", "surrogateescape").strip())


def is_revision(top: str, word: str) -> bool:
    """Whether `word` names a commit in the repository."""
    try:
        resolve(top, word)
    except GitError:
        return False
    return True


def resolve(top: str, revision: str) -> str:
    """The commit id `revision` names (a branch, a tag, a hash, `HEAD~1`, ...)."""
    if not revision or revision.startswith("-") or "\0" in revision:
        raise GitError(f"'{revision}' is not a revision")
    try:
        out = git_output(
            top, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}"
        )
    except GitError:
        raise GitError(f"'{revision}' names no commit in this repository") from None
    return out.decode("ascii", "replace").strip()


def branches(top: str, limit: int = 50) -> list[str]:
    """The repository's branches and tags, most recently committed first (at most
    `limit`): what "Compare with…" offers."""
    out = git_output(
        top,
        "for-each-ref",
        f"--count={limit}",
        "--sort=-committerdate",
        "--format=%(refname:short)",
        "refs/heads",
        "refs/tags",
    )
    return [line for line in out.decode("utf-8", "replace").splitlines() if line]


@dataclass(slots=True)
class TreeCopy:
    """The files of one commit, written under `folder` (the repository's top)."""

    commit: str
    folder: str
    files: int = 0
    bytes: int = 0
    skipped: list[str] = field(default_factory=list)  # too large, or over the bounds
    unnamed: int = 0  # more skipped, past MAX_SKIPPED (a tree of a million files)

    def skip(self, path: str) -> None:
        if len(self.skipped) < MAX_SKIPPED:
            self.skipped.append(path)
        else:
            self.unnamed += 1

    def close(self, background: bool = False) -> None:
        """The copy removed. `background`: moved aside at once, then removed by a child
        process that outlives the command (removing a thousand folders takes seconds on
        some disks); what such a child leaves, killed, the next `copy_tree` removes."""
        holder = os.path.dirname(self.folder)
        if background and not getattr(sys, "frozen", False):  # (a bundle has no -c)
            gone = holder + GONE
            try:
                os.rename(holder, gone)
                subprocess.Popen(
                    [sys.executable, "-c", _REMOVE, gone],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
                return
            except OSError:
                holder = gone if os.path.isdir(gone) else holder
        shutil.rmtree(holder, ignore_errors=True)

    def __enter__(self) -> TreeCopy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _entries(top: str, commit: str) -> Iterator[tuple[str, int, str]]:
    """(object id, size, path) of each regular file of the commit's tree (read from
    git's listing one record at a time: a tree of a million files is not held twice)."""
    out = git_output(top, "ls-tree", "-r", "-z", "-l", "--full-tree", commit)
    start = 0
    while start < len(out):
        end = out.find(b"\0", start)
        end = len(out) if end < 0 else end
        head, _, path = out[start:end].partition(b"\t")
        start = end + 1
        parts = head.split()
        if len(parts) != 4 or parts[1] != b"blob" or parts[0].decode() not in REGULAR:
            continue
        size = int(parts[3]) if parts[3].isdigit() else 0
        yield parts[2].decode("ascii"), size, path.decode("utf-8", "surrogateescape")


def _confined(folder: str, path: str) -> str | None:
    """Where `path` (as git lists it) goes under `folder`; None if it would leave it."""
    parts = path.split("/")
    if path.startswith("/") or any(p in ("", ".", "..") or "\\" in p for p in parts):
        return None
    if any(p.lower() == ".git" for p in parts):  # (as git's own checkout refuses: a
        return None  # .git/config in the copy would name programs git runs there)
    if len(parts) > MAX_DEPTH or any(len(os.fsencode(p)) > NAME_MAX for p in parts):
        return None
    return os.path.join(folder, *parts)


def copy_tree(
    top: str,
    commit: str,
    *,
    max_files: int = MAX_FILES,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_total: int = MAX_TOTAL,
    parent: str | None = None,
) -> TreeCopy:
    """The commit's regular files written into a new private folder (under `parent`,
    default the user's cache folder); the caller closes it."""
    parent = parent or os.path.join(cache_folder(), "diff")
    os.makedirs(parent, mode=0o700, exist_ok=True)
    _sweep(parent)
    holder = tempfile.mkdtemp(prefix="rev-", dir=parent)
    copy = TreeCopy(commit, os.path.join(holder, "tree"))
    try:
        os.mkdir(copy.folder, 0o700)
        wanted: list[tuple[str, str]] = []
        total = 0
        for oid, size, path in _entries(top, commit):
            target = _confined(copy.folder, path)
            if target is None:
                continue
            if len(wanted) >= max_files or size > max_bytes or total + size > max_total:
                copy.skip(path)
                if size > max_bytes and len(wanted) < max_files:
                    _write(target, b"", copy)  # there, as a file the reader says is empty
                continue
            total += size
            wanted.append((oid, target))
        _fill(top, wanted, copy)
    except BaseException:
        copy.close()
        raise
    return copy


def _sweep(parent: str) -> None:
    """Copies left behind: set aside a minute ago or more, or older than STALE_S."""
    now = time.time()
    for entry in os.scandir(parent):
        if not entry.name.startswith("rev-") or not entry.is_dir(follow_symlinks=False):
            continue
        age = now - entry.stat(follow_symlinks=False).st_mtime
        if age > STALE_S or (entry.name.endswith(GONE) and age > 60):
            shutil.rmtree(entry.path, ignore_errors=True)


def _write(target: str, data: bytes, copy: TreeCopy) -> bool:
    """`data` written at `target`; False (the path in `copy.skipped`) where the tree
    names it twice, or as both a file and a folder."""
    try:
        os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(target, flags, 0o600)
    except OSError:
        copy.skip(os.path.relpath(target, copy.folder))
        return False
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    return True


def _fill(top: str, wanted: list[tuple[str, str]], copy: TreeCopy) -> None:
    """Each wanted object's bytes (one `cat-file --batch`) written to its place."""
    if not wanted:
        return
    request = "".join(f"{oid}\n" for oid, _ in wanted).encode("ascii")
    try:
        proc = subprocess.Popen(
            ["git", "-C", top, "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=_env(),
        )
    except FileNotFoundError:
        raise GitError("git is not installed (or not on PATH)") from None
    assert proc.stdin is not None and proc.stdout is not None
    try:
        # fed from a thread: git answers while it reads, and both pipes are bounded
        feeder = threading.Thread(target=_feed, args=(proc.stdin, request), daemon=True)
        feeder.start()
        for _oid, target in wanted:
            data = _object(proc.stdout)
            if _write(target, data, copy):
                copy.files += 1
                copy.bytes += len(data)
    finally:
        proc.stdout.close()
        try:
            proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _feed(stream: IO[bytes], data: bytes) -> None:
    try:
        stream.write(data)
        stream.close()
    except OSError:  # git stopped reading (it failed): the reader reports it
        pass


def _object(stream: IO[bytes]) -> bytes:
    header = stream.readline().split()
    if len(header) != 3 or header[1] != b"blob":
        raise GitError("git cat-file gave an unexpected answer")
    size = int(header[2])
    data = stream.read(size)
    stream.read(1)  # the newline after each object
    if len(data) != size:
        raise GitError("git cat-file stopped early")
    return data
