"""Path comparisons that read nothing from disk, and the error for a file not read
(reading/safefs.py resolves and opens)."""

from __future__ import annotations

import os


def is_within(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or lies below it, both normalised (not resolved)."""
    path = os.path.normpath(path)
    folder = os.path.normpath(folder)
    return path == folder or path.startswith(folder + os.sep)


def is_inside(path: str, base: str) -> bool:
    """Whether the resolved `path` is `base` or lies below it (both resolved)."""
    return path == base or path.startswith(base.rstrip(os.sep) + os.sep)


class FileRefused(OSError):
    """A file that was not read; `reason` says why in plain words."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(reason)
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return self.reason
