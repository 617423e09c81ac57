"""An exception as one bounded line of text, for the status bar and Problems."""

from __future__ import annotations


def one_line(exc: BaseException, limit: int = 300) -> str:
    """An exception as one bounded line of text, for the status bar and Problems."""
    text = " ".join(str(exc).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
