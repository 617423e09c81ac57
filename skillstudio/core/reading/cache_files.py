"""The cache folder and its files (docs/commands.md, "The cache of what was read"): where
it is, its key, and a signed file read and written whole. The standard library only, so
that a command served from the cache (cli/replay.py) imports nothing else.

`$XDG_CACHE_HOME/skillstudio`, else `~/.cache/skillstudio`: a folder of mode 0700 owned
by the user, files of mode 0600 written whole or not at all (a temporary file renamed).
A file is untrusted input like any other: read only if it is a regular file owned by
the user, of at most MAX_CACHE_BYTES, whose HMAC-SHA256 under the folder's key matches;
its payload is JSON (nothing in it is ever run or unpickled).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import stat
import time
from collections.abc import Mapping
from typing import Any, Self

MAGIC = b"skillstudio-cache 1\n"
SUFFIX = ".cache"
KEY_NAME = "key"
KEY_BYTES = 32
MAX_CACHE_BYTES = 256 * 2**20  # a cache file larger than this is not read
MAX_FILES = 200  # cache files kept (the least recently used go)
OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def cache_folder(environ: Mapping[str, str] = os.environ) -> str:
    """`$XDG_CACHE_HOME/skillstudio`, else `~/.cache/skillstudio` (a relative
    XDG_CACHE_HOME is ignored, as the XDG specification says)."""
    base = environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "skillstudio")


def _owned(st: os.stat_result) -> bool:
    """Owned by this user and closed to others (where the system has owners)."""
    if not hasattr(os, "getuid"):
        return True
    return st.st_uid == os.getuid() and not st.st_mode & 0o077


class CacheFolder:
    """The cache folder and its key; `open()` is None where it cannot be used."""

    def __init__(self, folder: str, key: bytes) -> None:
        self.folder = folder
        self.key = key

    @classmethod
    def open(cls, folder: str | None = None) -> Self | None:
        folder = folder or cache_folder()
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            st = os.lstat(folder)
            if not stat.S_ISDIR(st.st_mode):
                return None  # a link or a file where the folder should be: not used
            if hasattr(os, "getuid") and st.st_uid != os.getuid():
                return None
            if st.st_mode & 0o077:
                os.chmod(folder, 0o700)
            key = _read_key(folder) or _new_key(folder)
        except (OSError, ValueError):
            return None
        return cls(folder, key) if key else None

    def read(self, name: str) -> dict[str, Any] | None:
        """The payload of a cache file, if it is ours and whole."""
        path = os.path.join(self.folder, name)
        try:
            fd = os.open(path, OPEN_FLAGS)
        except OSError:
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or not _owned(st) or st.st_size > MAX_CACHE_BYTES:
                return None
            chunks, left = [], st.st_size + 1
            while left > 0:
                chunk = os.read(fd, left)
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
        except OSError:
            return None
        finally:
            os.close(fd)
        data = b"".join(chunks)
        head = len(MAGIC) + 64 + 1
        if len(data) > st.st_size or not data.startswith(MAGIC) or data[head - 1 : head] != b"\n":
            return None
        payload = memoryview(data)[head:]
        mac = hmac.new(self.key, payload, hashlib.sha256).hexdigest().encode()
        if not hmac.compare_digest(mac, data[len(MAGIC) : head - 1]):
            return None
        try:
            found = json.loads(bytes(payload))
        except (ValueError, RecursionError):
            return None
        if not isinstance(found, dict):
            return None
        with contextlib.suppress(OSError, NotImplementedError):
            os.utime(path, follow_symlinks=False)  # used now: `prune` keeps the most used
        return found

    def write(self, name: str, payload: dict[str, Any]) -> None:
        """Write a cache file whole (a temporary file renamed over it), mode 0600."""
        body = json.dumps(payload, separators=(",", ":"), check_circular=False).encode()
        if len(body) > MAX_CACHE_BYTES - 200:
            return
        mac = hmac.new(self.key, body, hashlib.sha256).hexdigest().encode()
        path = os.path.join(self.folder, name)
        temp = f"{path}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(MAGIC + mac + b"\n" + body)
            os.replace(temp, path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            return
        self.prune()

    def prune(self, keep: int = MAX_FILES) -> None:
        """Remove the least recently used cache files beyond `keep`, and temporary files
        a killed process left (older than a minute)."""
        try:
            with os.scandir(self.folder) as found:
                entries = [(e, e.stat(follow_symlinks=False)) for e in found]
        except OSError:
            return
        now = time.time()
        files = []
        for entry, st in entries:
            if entry.name.endswith(SUFFIX):
                files.append((st.st_mtime, entry.path))
            elif entry.name.endswith(".tmp") and now - st.st_mtime > 60:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
        files.sort()
        for _, path in files[: max(0, len(files) - keep)]:
            with contextlib.suppress(OSError):
                os.unlink(path)


def _read_key(folder: str) -> bytes | None:
    try:
        fd = os.open(os.path.join(folder, KEY_NAME), OPEN_FLAGS)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not _owned(st) or st.st_size != KEY_BYTES:
            return None
        key = os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    return key if len(key) == KEY_BYTES else None


def _new_key(folder: str) -> bytes | None:
    """A new random key (an unusable one is replaced: every cache file made with it is
    then refused and written again). Two processes that race both end with the key
    that is in place."""
    path = os.path.join(folder, KEY_NAME)
    temp = f"{path}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(secrets.token_bytes(KEY_BYTES))
        try:
            os.link(temp, path)  # only where no key is (two processes: the first wins)
        except FileExistsError:
            if _read_key(folder) is None:
                os.replace(temp, path)
        except OSError:
            os.replace(temp, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)
    return _read_key(folder)
