"""The cache of answers: one file per (endpoint URL, API, template version, the sha256
of the exact request bytes, run), so a suite checked with a model once replays offline
(`--offline`). The digest covers everything sent (model, temperature, system text,
tools and their schemas, max tokens, the listing and the request), so nothing that
changes the request can replay an answer to another one; the API and the endpoint are
in the key too, so answers from one API are never replayed as another's at one URL.
The template version (questions.TEMPLATE) changes what the bytes cannot show: how an
answer is read. An entry of an older key scheme (before the digest: `SCHEME`) is a
miss, never replayed.

An entry records the digest of the request it answers, the model id the server
reported, SkillStudio's version and the answer as received (redacted, bounded).

Where: `live/` in the user's cache folder (core/scanning/state_cache.py's rule:
`$XDG_CACHE_HOME/skillstudio`, else `~/.cache/skillstudio`), mode 0700, files 0600.
A file holds the answer as read (the pick, a bounded excerpt of the text, the tokens,
the date) and what it answers; never a key (answers are redacted before they get here)
or a header. It is untrusted on reading, as a skill file is (core/reading/safefs.py):
confined to the cache folder, a regular file (a FIFO, device or socket is refused
without being opened; the open is non-blocking and does not follow a link, and what
was opened is checked again), owned by the user, at most MAX_BYTES, JSON of the
expected shape; anything else is a miss.

Writing is confined the same way: the two-letter folder is opened (or made) inside the
cache folder without following a link (a folder that is a link, or not the user's, is
refused: nothing is written), and the entry is created and renamed through that open
folder, so a link swapped in for the folder or the entry never sends a write elsewhere.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import stat
from typing import Any

from ... import __version__
from ..model.paths import FileRefused
from ..reading.cache_files import cache_folder
from ..reading.safefs import check_regular, opened_inside
from .questions import Answer

MAX_BYTES = 64 * 1024
SCHEME = 2  # the key scheme: 2 is the request digest's; an entry without it is a miss
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_READ = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_FOLDER = _READ | getattr(os, "O_DIRECTORY", 0)
_WRITE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_AT = {os.open, os.mkdir, os.rename, os.unlink} <= os.supports_dir_fd  # openat() and co.


def request_digest(content: bytes) -> str:
    """The sha256 of the exact bytes of a request body (`request_sha256` in reports)."""
    return hashlib.sha256(content).hexdigest()


def answer_key(url: str, api: str, template: str, request_sha256: str, run: int) -> str:
    """The cache key of one run of one request: the endpoint's base URL, its API, the
    template version and the digest of the bytes sent."""
    parts = [SCHEME, url.rstrip("/"), api, template, request_sha256, run]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()


class AnswerCache:
    def __init__(self, folder: str | None = None) -> None:
        self.folder = folder or os.path.join(cache_folder(), "live")

    def _path(self, key: str) -> str:
        return os.path.join(self.folder, key[:2], key + ".json")

    def get(self, key: str) -> Answer | None:
        data = self._read(self._path(key))
        if data is None:
            return None
        try:
            found = json.loads(data)
        except (ValueError, RecursionError):
            return None
        if not isinstance(found, dict) or found.get("key") != key:
            return None
        if found.get("scheme") != SCHEME:  # an older scheme's entry: asked again
            return None
        answer = found.get("answer")
        return Answer.from_json(answer) if isinstance(answer, dict) else None

    def _read(self, path: str) -> bytes | None:
        """The bytes of a cache entry, or None (a miss) for anything but a regular file
        of the user's, inside the folder, of at most MAX_BYTES."""
        try:
            folder = os.path.realpath(self.folder)
            check_regular(path, folder)  # a FIFO or a link out is refused unopened
            fd = os.open(path, _READ)
        except OSError:
            return None
        try:
            st = os.fstat(fd)  # what was opened, not what the path named a moment before
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
                return None
            if hasattr(os, "getuid") and st.st_uid != os.getuid():
                return None
            opened_inside(fd, path, folder)
            data = os.read(fd, MAX_BYTES + 1)
        except OSError:  # FileRefused included (opened_inside)
            return None
        finally:
            os.close(fd)
        return data if len(data) <= MAX_BYTES else None

    def put(self, key: str, answer: Answer, about: dict[str, Any]) -> None:
        """Write the answer whole (a temporary file renamed over it), inside the cache
        folder only; failures are ignored (the cache is an aid, never the record). The
        entry names its key scheme and the SkillStudio version that wrote it."""
        if answer.error:
            return  # an error is not an answer: the next run asks again
        payload = {
            "key": key,
            "scheme": SCHEME,
            "skillstudio_version": __version__,
            **about,
            "answer": answer.to_json(),
        }
        data = json.dumps(payload, ensure_ascii=False, indent=1).encode("utf-8")
        name = key + ".json"
        temp = f"{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        try:
            os.makedirs(self.folder, mode=0o700, exist_ok=True)
            folder, where = self._subfolder(key[:2])
        except OSError:  # FileRefused included: a link, or a folder not the user's
            return
        at = {} if folder is None else {"dir_fd": folder}
        pair = {} if folder is None else {"src_dir_fd": folder, "dst_dir_fd": folder}
        try:
            fd = os.open(os.path.join(where, temp), _WRITE, 0o600, **at)
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(os.path.join(where, temp), os.path.join(where, name), **pair)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(where, temp), **at)
        finally:
            if folder is not None:
                os.close(folder)

    def _subfolder(self, name: str) -> tuple[int | None, str]:
        """The two-letter folder, made if missing and checked to be a folder of the
        user's inside the cache folder, not a link: (its descriptor, "") where files
        can be opened relative to one (the caller closes it), else (None, its path).
        OSError (FileRefused for a link or a stranger's folder) when it cannot be used."""
        root = os.path.realpath(self.folder)
        path = os.path.join(root, name)
        with contextlib.suppress(FileExistsError):
            os.mkdir(path, 0o700)
        if not _AT:  # no openat(): the folder itself is checked (a link is refused)
            st = os.lstat(path)
            if not stat.S_ISDIR(st.st_mode):
                raise FileRefused(path, "it is a link or not a folder")
            return None, path
        fd = os.open(path, _FOLDER)  # O_NOFOLLOW: a link in its place is not opened
        try:
            st = os.fstat(fd)
            if not stat.S_ISDIR(st.st_mode):
                raise FileRefused(path, "it is not a folder")
            if hasattr(os, "getuid") and st.st_uid != os.getuid():
                raise FileRefused(path, "it is not the user's")
            opened_inside(fd, path, root)  # where the kernel says the folder is
        except OSError:
            os.close(fd)
            raise
        return fd, ""
