"""Path comparisons that read nothing from disk (reading/safefs.py resolves and opens)."""

from __future__ import annotations

import os


def is_within(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or lies below it, both normalised (not resolved)."""
    path = os.path.normpath(path)
    folder = os.path.normpath(folder)
    return path == folder or path.startswith(folder + os.sep)
