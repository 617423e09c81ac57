"""Memory freed by Python handed back to the system once a large piece of work ends.

A scan, a likely index or the overlap notes at 10,000 skills make and drop millions
of short-lived objects, many of them in a worker thread. What they free larger than
Python's own small-object pools goes back to the C library's heaps (one per thread
that allocated), which keep it: the process stays that much larger though nothing
uses it. glibc's `malloc_trim(0)` gives the free pages of every heap back (10 MB
of the app's 300 MB resident at 10,000 skills, measured with bench_gui.py). Elsewhere
(macOS, Windows, musl) there is no such call and nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from collections.abc import Callable

_trim: list[Callable[[int], int] | None] = []  # found once: glibc's malloc_trim, or None


def _malloc_trim() -> Callable[[int], int] | None:
    if not _trim:
        found = None
        if sys.platform.startswith("linux"):
            try:
                found = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
                found.argtypes = [ctypes.c_size_t]
                found.restype = ctypes.c_int
            except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
                found = None
        _trim.append(found)
    return _trim[0]


def return_free_memory() -> bool:
    """Give the C library's free pages back to the system; whether it could (glibc).
    The call lets go of the interpreter lock while it runs (a few milliseconds at
    10,000 skills)."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
