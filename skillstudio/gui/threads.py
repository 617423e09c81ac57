"""Threads of the app: NOTE PLACEHOLDER."""

from __future__ import annotations

from ..core.registry import Registry


def snapshot(registry: Registry) -> Registry:
    """A registry holding `registry`'s active skills as they are now, for an index
    built on another thread: the GUI thread replaces skills, never changes one it
    holds, so the copy's skills stay as they were. Its version is the original's,
    so that an index built from it and then pointed at the original catches up
    with `sync()` on what changed meanwhile."""
    copy = Registry(registry.profile, [], gists=registry.gists)
    copy.active = dict(registry.active)
    copy.version = registry.version
    return copy
