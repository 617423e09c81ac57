"""The cache of what was read: each skill's state (scanning/skill_state.py) as the last
scan of the same roots under the same profile left it, so that a second `lint` or
`match` of an unchanged repository parses and checks no SKILL.md again
(docs/performance.md, "Cache of what was read").

Where: `$XDG_CACHE_HOME/skillstudio`, else `~/.cache/skillstudio`: a folder of mode
0700 owned by the user, files of mode 0600 written whole or not at all (a temporary
file renamed). One file per registry, named after its roots and its profile with the
profile's settings (`profile_key`); inside, the code it was made by (`tool_key`).

A state is served only when nothing it was made from changed:
- its SKILL.md: the same path, size, modification and change times (ns), inode and
  device (a file edited, swapped for another or moved is read again);
- every other path its checks looked at (reading/looked.py), as `lstat` sees it
  (or still absent);
- the code (the version and the stat of every module of the core) and the profile;
- a state read without its gist (where the model chooses) serves only a scan that
  needs none.
What changed less than RACY_NS before it was read is not stored: two writes within
one tick of the file system's clock can leave a file with the same times.

The cache is untrusted input like any file: it is read only if it is a regular file
owned by the user, of at most MAX_CACHE_BYTES, whose HMAC under this folder's key
matches, and each state in it only if it has the shape this code writes
(skill_state.well_formed); anything else is ignored and the file written again.
Nothing in it is ever run or unpickled (JSON). It is never a source of truth for
writes: only the commands that read (lint, list, show, match, prompt, activate,
overlap, headroom, test) use it; set, new, pack, unpack and the app read the files
themselves.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import json
import os
import secrets
import stat
import sys
import time
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ..model.scan import Found
from ..model.skills import Root, Skill
from ..profile import Profile
from .skill_state import from_json, skill_from_state, skill_state, to_json, well_formed

FORMAT = 1
MAGIC = b"skillstudio-cache 1\n"
SUFFIX = ".cache"
KEY_NAME = "key"
KEY_BYTES = 32
MAX_CACHE_BYTES = 256 * 2**20  # a cache file larger than this is not read
MAX_FILES = 200  # cache files kept (the least recently used go)
RACY_NS = 2 * 10**9  # FAT's 2 s clock; local file systems tick every few ms
OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
MISSING = 0  # the signature of a path that is not there

Signature = list[int] | int


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


@lru_cache(maxsize=1)
def tool_key() -> str:
    """The code that makes a state: the version and the size and modification time of
    every module of the core (a changed check reads every skill again); in a frozen
    bundle, the executable's."""
    package = sys.modules.get("skillstudio")
    digest = hashlib.sha256(str(getattr(package, "__version__", "")).encode())
    core = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    stack = [core]
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
            elif entry.name.endswith((".py", ".pyc")):
                st = entry.stat()
                digest.update(f"{entry.path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    if getattr(sys, "frozen", False):
        with contextlib.suppress(OSError):
            st = os.stat(sys.executable)
            digest.update(f"{sys.executable}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    return digest.hexdigest()


def profile_key(profile: Profile) -> str:
    """The profile and its settings: its class and the repr of each public attribute of
    the instance (`upload`, codex's settings). Private attributes are memos."""
    cls = type(profile)
    settings = sorted(
        (name, repr(value))
        for name, value in getattr(profile, "__dict__", {}).items()
        if not name.startswith("_")
    )
    return json.dumps([cls.__module__, cls.__qualname__, profile.name, settings])


def signature(path: str) -> Signature:
    """What `lstat` says of a path: type, inode, device, size and times; MISSING when it
    is not there, the error number when it cannot be looked at."""
    try:
        st = os.lstat(path)
    except OSError as exc:
        return MISSING if exc.errno in (errno.ENOENT, errno.ENOTDIR) else -(exc.errno or 1)
    except ValueError:  # a NUL in the name
        return -1
    return [st.st_mode, st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _file_key(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev, st.st_ctime_ns]


class StateCache:
    """The cache folder and its key; `open()` is None where it cannot be used."""

    def __init__(self, folder: str, key: bytes) -> None:
        self.folder = folder
        self.key = key

    @classmethod
    def open(cls, folder: str | None = None) -> StateCache | None:
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

    def scan(self, profile: Profile, roots: list[Root]) -> ScanCache:
        """The cache of one registry's scan."""
        return ScanCache(self, profile, roots)

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
        return found if isinstance(found, dict) else None

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


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


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


class ScanCache:
    """The cached states of one registry (its profile and roots): `lookup` before the
    scan reads, `store` after."""

    def __init__(self, cache: StateCache, profile: Profile, roots: list[Root]) -> None:
        self.cache = cache
        self.profile = profile
        self.roots = [[r.path, r.label, r.precedence, r.collection, r.base] for r in roots]
        self.head = {"format": FORMAT, "tool": tool_key(), "profile": profile_key(profile)}
        ident = json.dumps([self.head["profile"], self.roots]).encode()
        self.name = hashlib.sha256(ident).hexdigest()[:40] + SUFFIX
        self.kept: dict[str, Any] = {}  # the entries served, by path
        self.total = 0  # entries in the file as read
        self.stale = False  # a file is there that is not (or no longer) usable

    def _entries(self) -> dict[str, Any]:
        payload = self.cache.read(self.name)
        self.stale = payload is None and os.path.lexists(os.path.join(self.cache.folder, self.name))
        if payload is None:
            return {}
        head = {key: payload.get(key) for key in self.head}
        entries = payload.get("entries")
        if head != self.head or payload.get("roots") != self.roots or not isinstance(entries, dict):
            self.stale = True  # another version of the code, or (a hash collision) other roots
            return {}
        self.total = len(entries)
        return entries

    def lookup(self, found: list[tuple[Root, Found]], gist: bool) -> list[Skill | None]:
        """Per file found, its skill as cached when nothing it was made from changed."""
        try:
            entries = self._entries()
        except (OSError, ValueError, RecursionError, MemoryError):
            entries = {}
        out: list[Skill | None] = []
        signatures: dict[str, Signature] = {}  # each path looked at once per scan
        for root, item in found:
            entry = entries.get(item.path)
            skill = None
            if entry is not None:
                try:
                    skill = self._served(root, item, entry, gist, signatures)
                except Exception:  # a cache file we wrote, but not as this code reads it
                    skill = None
            if skill is not None:
                self.kept[item.path] = entry
            out.append(skill)
        return out

    def _served(
        self,
        root: Root,
        item: Found,
        entry: list[Any],
        gist: bool,
        signatures: dict[str, Signature],
    ) -> Skill | None:
        size, mtime_ns, _ino, _dev, _ctime, gisted, looked, state = entry
        if size != item.size or mtime_ns != item.mtime_ns or (gist and not gisted):
            return None
        if _file_key(os.stat(item.path)) != entry[:5]:
            return None
        for path, before in looked:
            now = signatures.get(path)
            if now is None:
                now = signatures[path] = signature(path)
            if now != before:
                return None
        if not well_formed(state):
            return None
        skill = skill_from_state(from_json(state), root)
        if skill.path != item.path:
            return None
        if not gist:
            skill.gist = ""  # as a scan without gists leaves it
        return skill

    def store(
        self,
        found: list[tuple[Root, Found]],
        skills: list[Skill],
        looked: list[list[str]],
        gist: bool,
    ) -> None:
        """Write the cache again when the scan read anything: the entries served, and the
        skills read (`found[i]` gave `skills[i]`, whose checks looked at `looked[i]`)
        that are settled (not changed within RACY_NS) and plain JSON. The cache never
        fails a scan: what cannot be written is not."""
        try:
            self._store(found, skills, looked, gist)
        except (OSError, ValueError, TypeError, RecursionError, MemoryError):
            return

    def _store(
        self,
        found: list[tuple[Root, Found]],
        skills: list[Skill],
        looked: list[list[str]],
        gist: bool,
    ) -> None:
        entries = dict(self.kept)
        limit = time.time_ns() - RACY_NS
        whole = gist or not self.profile.model_chooses  # (where the rules select: no gist)
        for (_, item), skill, paths in zip(found, skills, looked, strict=True):
            entry = _entry(item, skill, paths, whole, limit)
            if entry is not None:
                entries[item.path] = entry
        if len(entries) == len(self.kept) == self.total and not self.stale:
            return  # nothing new, nothing gone
        self.cache.write(self.name, {**self.head, "roots": self.roots, "entries": entries})


def _settled(sig: Signature, limit: int) -> bool:
    return not isinstance(sig, list) or max(sig[4], sig[5]) < limit


def _entry(item: Found, skill: Skill, paths: list[str], gist: bool, limit: int) -> Any:
    """A skill's cache entry, or None when it is not to be kept: it failed (an internal
    error is tried again), could not be read (a refusal is cheap to make again), changed
    since it was read or too recently, or is not plain JSON."""
    if skill.mtime_ns != item.mtime_ns or not skill.doc.readable:
        return None
    try:
        st = os.stat(item.path)
    except OSError:
        return None
    key = _file_key(st)
    if key[:2] != [skill.size, skill.mtime_ns] or max(st.st_mtime_ns, st.st_ctime_ns) >= limit:
        return None
    looked = []
    for path in dict.fromkeys(paths):
        sig = signature(path)
        if not _settled(sig, limit):
            return None
        looked.append([path, sig])
    state = to_json(skill_state(skill))
    if state is None:
        return None
    return [*key, int(gist), looked, state]
