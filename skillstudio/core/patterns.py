"""Regular expressions from skill files: compiled with bounds, checked once for speed,
and run under a time budget shared by every pattern of one request.

A pattern is untrusted text. Compiling one can raise more than `re.error` (a
repeat count past the engine's limit raises OverflowError, thousands of nested
groups RecursionError), and running one can take exponential time. So:
nesting is bounded before the parser sees the text, every compile error is a
reason and never an exception, each search has a per-pattern timeout, and one
request's searches share a total budget (300 patterns of 50 ms each would
otherwise take 15 s).
"""

from __future__ import annotations

import functools
import re
import time
from dataclasses import dataclass, field
from typing import Any

import regex

from .text import counted

PATTERN_TIMEOUT = 0.05  # seconds one search may take
REQUEST_BUDGET = 0.2  # seconds all the searches of one request may take together
MAX_GROUP_DEPTH = 100  # nested groups; the parsers recurse once per level
SLOW_CHECK_TIMEOUT = 0.01  # seconds on SLOW_SAMPLE before lint calls a pattern slow
SLOW_CACHE_SIZE = 10_000


def _sample() -> str:
    """About 1 KB of text shaped to make backtracking patterns show themselves: long
    runs of one character, of words and of separators, each ended by a character
    that breaks the run."""
    runs = [
        "deploy the app and review the pull request for the release notes ",
        "a" * 48 + "!",
        "x" * 48 + "!",
        "0" * 48 + "!",
        " " * 48 + "!",
        "ab" * 24 + "!",
        "word " * 10 + "!",
        "a-b_c." * 8 + "!",
        "\t\n" * 12 + "!",
        "Aa1 " * 12 + "!",
    ]
    text = "".join(runs)
    while len(text) < 1024:
        text += text
    return text[:1024]


SLOW_SAMPLE = _sample()


def shown(source: str, limit: int = 60) -> str:
    """A pattern as quoted in a message: cut when long (a message stays one line)."""
    flat = source.replace("\n", "\\n").replace("\r", "\\r")
    return flat if len(flat) <= limit else flat[:limit] + f"… ({counted(len(source), 'character')})"


def group_depth(source: str) -> int:
    """The deepest nesting of groups, without parsing (escapes and classes skipped)."""
    depth = deepest = 0
    in_class = False
    escaped = False
    for char in source:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")" and depth:
            depth -= 1
    return deepest


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def pattern_problem(source: str) -> str | None:
    """Why `source` is not a usable regular expression, in words; None when it is."""
    depth = group_depth(source)
    if depth > MAX_GROUP_DEPTH:
        return f"it nests groups {depth:,} deep; at most {MAX_GROUP_DEPTH} are supported"
    try:
        re.compile(source)
    except re.error as exc:
        return f"it is not a valid regular expression: {exc}"
    except OverflowError as exc:  # a{4294967296}
        return f"a repeat count is too large ({_one_line(exc)})"
    except (RecursionError, MemoryError, ValueError, TypeError) as exc:
        return f"it cannot be compiled ({type(exc).__name__}: {_one_line(exc)})"
    return None


@functools.lru_cache(maxsize=4096)
def compile_pattern(source: str) -> Any:
    """The pattern as matching runs it (case-insensitive), or None when it cannot be."""
    if group_depth(source) > MAX_GROUP_DEPTH:
        return None
    try:
        return regex.compile(source, regex.IGNORECASE)
    except (regex.error, OverflowError, RecursionError, MemoryError, ValueError, TypeError):
        return None


_SLOW: dict[str, bool] = {}  # pattern text -> slow on SLOW_SAMPLE (bounded, reset when full)


def slow_known(source: str) -> bool | None:
    """The cached verdict of `is_slow`, or None when the pattern was not checked yet."""
    return _SLOW.get(source)


def is_slow(source: str) -> bool:
    """Whether the pattern takes over SLOW_CHECK_TIMEOUT on SLOW_SAMPLE. Checked once
    per pattern text (re-validation on every keystroke reads the cache); a timeout
    is tried a second time, so a busy machine does not make a fast pattern slow."""
    known = _SLOW.get(source)
    if known is not None:
        return known
    compiled = compile_pattern(source)
    slow = False
    if compiled is not None:
        slow = True
        for _ in range(2):
            try:
                compiled.search(SLOW_SAMPLE, timeout=SLOW_CHECK_TIMEOUT)
            except TimeoutError:
                continue
            slow = False
            break
    if len(_SLOW) >= SLOW_CACHE_SIZE:
        _SLOW.clear()
    _SLOW[source] = slow
    return slow


@dataclass(slots=True)
class PatternBudget:
    """The time the patterns of one request may take together."""

    seconds: float = REQUEST_BUDGET
    spent: float = 0.0
    skipped: int = 0  # patterns not tried once the budget was spent
    stopped: list[str] = field(default_factory=list)  # "'pattern' of skill" that timed out

    def search(self, source: str, text: str, label: str) -> bool | None:
        """Whether the pattern is found in `text`; None when it was stopped, not tried
        or cannot be compiled (lint reports that). Compiling counts against the budget."""
        left = self.seconds - self.spent
        if left <= 0:
            self.skipped += 1
            return None
        started = time.perf_counter()
        try:
            compiled = compile_pattern(source)
            if compiled is None:
                return None
            left = self.seconds - (self.spent + time.perf_counter() - started)
            return compiled.search(text, timeout=max(min(PATTERN_TIMEOUT, left), 0.001)) is not None
        except TimeoutError:
            self.stopped.append(label)
            return None
        finally:
            self.spent += time.perf_counter() - started

    def notes(self) -> list[str]:
        """What the result must say about patterns that were stopped or not tried."""
        out: list[str] = []
        if self.stopped:
            named = ", ".join(self.stopped[:3])
            more = f" and {len(self.stopped) - 3} more" if len(self.stopped) > 3 else ""
            out.append(
                f"Pattern {named}{more} took too long (over {PATTERN_TIMEOUT * 1000:.0f} ms, "
                "or past the request's budget) and was stopped (pattern-invalid)."
            )
        if self.skipped:
            out.append(
                f"The pattern budget of {self.seconds * 1000:.0f} ms for one request is spent; "
                f"{counted(self.skipped, 'pattern')} not tried. "
                "`skillstudio lint` names the slow patterns (pattern-invalid)."
            )
        return out
