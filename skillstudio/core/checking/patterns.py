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
import warnings
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any

import regex

from ..model.text import counted

PATTERN_TIMEOUT = 0.05  # seconds one search may take
REQUEST_BUDGET = 0.2  # CPU seconds all the searches of one request may take together
WALL_FACTOR = 5  # and at most this many times as much wall time (a loaded machine)
MAX_GROUP_DEPTH = 100  # nested groups; the parsers recurse once per level
MAX_REPEAT = 1000  # one counted repeat, a{m,n}: the engine writes it out m or n times
MAX_EXPANSION = 10_000  # counted repeats nested inside each other, multiplied
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


_COUNT = re.compile(r"\{(\d*)(?:,(\d*))?\}")


@dataclass(frozen=True, slots=True)
class Shape:
    """What a pattern asks of the engine, read without parsing it."""

    depth: int  # deepest nesting of groups (the parsers recurse once per level)
    largest: int  # the largest repeat count, as {m}, {m,} or {m,n}
    expansion: int  # the largest product of counts nested inside each other


def pattern_shape(source: str) -> Shape:
    """Group depth and counted repeats (escapes and classes skipped). The `regex`
    engine writes a counted repeat out in full: a{9999999} took 2.6 GB and 6 s, and
    (a{1000}){1000} a million nodes, so counts are bounded before it sees them."""
    stack = [1]  # per open group: the largest expansion inside it so far
    depth = deepest = largest = 0
    last = 1  # expansion of the item just read (an atom or a closed group)
    in_class = escaped = False
    position, size = 0, len(source)
    while position < size:
        char = source[position]
        position += 1
        if escaped:
            escaped, last = False, 1
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class, last = True, 1
        elif char == "(":
            depth += 1
            deepest = max(deepest, depth)
            stack.append(1)
        elif char == ")" and depth:
            depth -= 1
            last = stack.pop()
            stack[-1] = max(stack[-1], last)
        elif char == "{" and (count := _COUNT.match(source, position - 1)):
            numbers = [int(n) for n in count.groups() if n and len(n) <= 12] or [0]
            if any(n and len(n) > 12 for n in count.groups()):
                numbers.append(10**12)
            times = max(numbers)
            largest = max(largest, times)
            stack[-1] = max(stack[-1], last * max(times, 1))
            position = count.end()
        else:
            last = 1
    return Shape(deepest, largest, max(stack))


def group_depth(source: str) -> int:
    """The deepest nesting of groups."""
    return pattern_shape(source).depth


def _shape_problem(source: str) -> str | None:
    shape = pattern_shape(source)
    if shape.depth > MAX_GROUP_DEPTH:
        return f"it nests groups {shape.depth:,} deep; at most {MAX_GROUP_DEPTH} are supported"
    if shape.largest > MAX_REPEAT:
        count = f"{shape.largest:,}" if shape.largest < 10**12 else "more than 12 digits"
        return f"a repeat count of {count} is over the limit of {MAX_REPEAT:,}"
    if shape.expansion > MAX_EXPANSION:
        return (
            f"its counted repeats nested inside each other make {shape.expansion:,} copies; "
            f"at most {MAX_EXPANSION:,} are supported"
        )
    return None


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


@functools.lru_cache(maxsize=4096)
def pattern_problem(source: str) -> str | None:
    """Why `source` is not a usable regular expression, in words; None when it is."""
    shaped = _shape_problem(source)
    if shaped is not None:
        return shaped
    try:
        with warnings.catch_warnings():  # "possible nested set" is not the user's concern
            warnings.simplefilter("ignore")
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
    if _shape_problem(source) is not None:
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
    """The time the patterns of one request may take together.

    Counted in this thread's CPU time, not wall time: on a loaded machine a 50 ms
    search can take 200 ms of wall time, and the budget would then be spent by the
    first slow pattern, skipping every other skill's (a result that changed with
    the machine's load). Each search is still stopped by its wall-time timeout."""

    seconds: float = REQUEST_BUDGET
    spent: float = 0.0  # CPU seconds
    wall: float = 0.0  # wall-clock seconds
    skipped: int = 0  # patterns not tried once the budget was spent
    stopped: list[str] = field(default_factory=list)  # "'pattern' of skill" that timed out

    def search(self, source: str, text: str, label: str) -> bool | None:
        """Whether the pattern is found in `text`; None when it was stopped, not tried
        or cannot be compiled (lint reports that). Compiling counts against the budget."""
        left = self.seconds - self.spent
        if left <= 0 or self.wall >= self.seconds * WALL_FACTOR:
            self.skipped += 1
            return None
        started, wall_started = time.thread_time(), time.perf_counter()
        try:
            compiled = compile_pattern(source)
            if compiled is None:
                return None
            left = self.seconds - (self.spent + time.thread_time() - started)
            return compiled.search(text, timeout=max(min(PATTERN_TIMEOUT, left), 0.001)) is not None
        except TimeoutError:
            self.stopped.append(label)
            return None
        finally:
            self.spent += time.thread_time() - started
            self.wall += time.perf_counter() - wall_started

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


def search_in_turns(
    per_skill: list[list[tuple[str, str]]],
    slow: set[tuple[str, str]],
    names: dict[str, str],
    text: str,
    notes: list[str],
) -> list[tuple[str, str]]:
    """(path, pattern) of each pattern found in `text`, all run under one PatternBudget:
    taken in turns, one pattern of each skill at a time (a skill with hundreds of slow
    patterns cannot spend the budget before the others get a turn), and those that
    ran out of time before (`slow`, kept by the caller's index) go last."""
    ordered: list[tuple[str, str]] = []
    late: list[tuple[str, str]] = []
    for turn in zip_longest(*per_skill):
        for entry in turn:
            if entry is not None:
                (late if entry in slow else ordered).append(entry)
    budget = PatternBudget()
    hits: list[tuple[str, str]] = []
    for path, source in ordered + late:
        label = f"'{shown(source, 40)}' of {names[path]}"
        found = budget.search(source, text, label)
        if found is None and budget.stopped and budget.stopped[-1] is label:
            slow.add((path, source))
        if found:
            hits.append((path, source))
    notes.extend(budget.notes())
    return hits
