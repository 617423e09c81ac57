"""What a skill's checks looked at on disk besides its SKILL.md: the files and folders
whose state can change the skill's result (a link target that may vanish, a plugin
manifest that names it, agents/openai.yaml, the bundled markdown of its gist).

Code that looks at the disk while one skill is read and checked names the path with
`looked_at` (the path whether or not it exists: its appearing counts too). While a
`recording()` is open (the scan does, for the cache of what was read,
core/scanning/state_cache.py) the paths are collected; otherwise a call costs a
context-variable lookup. tests/test_state_cache.py traces every file-system call of
the checks and fails when one is not named here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_RECORD: ContextVar[list[str] | None] = ContextVar("skillstudio_looked", default=None)


def looked_at(*paths: str) -> None:
    """Note paths whose state the check in progress depends on."""
    record = _RECORD.get()
    if record is not None:
        record.extend(paths)


@contextmanager
def recording() -> Iterator[list[str]]:
    """Collect the paths `looked_at` names until the block ends (nested: the inner
    block's paths are its own)."""
    paths: list[str] = []
    token = _RECORD.set(paths)
    try:
        yield paths
    finally:
        _RECORD.reset(token)
