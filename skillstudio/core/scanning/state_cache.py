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
- a state recorded without its gist (by `lint`, where the model chooses) serves a scan
  that needs one too: the gist alone is worked out from the file (unchanged since),
  and the state is stored with it, so `lint`, `list`, `show` and `match` share one
  recorded result.
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
import json
import os
import sys
import time
from functools import lru_cache
from typing import Any

from ..model.scan import Found
from ..model.skills import Root, Skill
from ..profile import Profile
from ..reading.cache_files import (  # noqa: F401 (the folder's names, as before the split)
    KEY_BYTES,
    MAGIC,
    MAX_CACHE_BYTES,
    SUFFIX,
    CacheFolder,
    cache_folder,
)
from .parallel import skill_gist
from .skill_state import from_json, skill_from_state, skill_state, to_json, well_formed

FORMAT = 1
RACY_NS = 2 * 10**9  # FAT's 2 s clock; local file systems tick every few ms
MISSING = 0  # the signature of a path that is not there

Signature = list[int] | int


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


class StateCache(CacheFolder):
    """The cache folder, with the scans of registries."""

    def scan(self, profile: Profile, roots: list[Root]) -> ScanCache:
        """The cache of one registry's scan."""
        return ScanCache(self, profile, roots)


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
        self.gisted = 0  # entries served that got their gist in this scan
        # before anything is read: a file is settled by its age when it was read, not
        # when a long scan ended (cli/replay.py settles the same way)
        self.started = time.time_ns()

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

    def looked_of(self, path: str) -> list[str]:
        """The paths the checks of a skill served from the cache looked at (a registry
        that tracks them: scanning/folder_changes.py)."""
        entry = self.kept.get(path)
        return [str(looked[0]) for looked in entry[6]] if entry is not None else []

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
        if size != item.size or mtime_ns != item.mtime_ns:
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
        elif not gisted:  # recorded by a scan without gists (lint): the gist alone is read
            made = skill_gist(item.path, mtime_ns, size, skill.doc.body_offset, root.boundary)
            if made is None:
                return None
            skill.gist = made
            state = to_json(skill_state(skill))
            if state is None:
                return None
            entry[5:] = [1, looked, state]  # (stored whole from now on)
            self.gisted += 1
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
        limit = self.started - RACY_NS
        whole = gist or not self.profile.model_chooses  # (where the rules select: no gist)
        for (_, item), skill, paths in zip(found, skills, looked, strict=True):
            entry = _entry(item, skill, paths, whole, limit)
            if entry is not None:
                entries[item.path] = entry
        if len(entries) == len(self.kept) == self.total and not self.stale and not self.gisted:
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
