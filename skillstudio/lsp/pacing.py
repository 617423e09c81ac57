"""When an open document is checked after it changes (docs/lsp.md, "Large files").

Every handler runs on the server's one event loop, and pygls reads the next message
only when the handler before it has returned: a check run inside `didChange` makes
every later key wait for it, and 20 keys sent while one check runs are then checked
20 times, each on a text already out of date. So a change only records that the
document is due: the check runs from a timer on the same loop, on the text the
document has when the timer fires (the latest text wins). Each change moves the
timer back, so a burst of changes read one after another is checked once or twice.

A document checked within the keystroke budget is checked at once after a change
that follows a quiet spell (no delay added to a key typed by hand); a change that
arrives within SETTLE of its last check, or while a check is waiting, waits SETTLE
more: long enough for the changes already sent to be read first, so a burst is
checked once or twice. A large document (LARGE characters or more), or one whose last
RECENT checks each took longer than SLOW, is checked when typing pauses (PAUSE without
a change), and at least every MAX_WAIT while changes keep coming: a key costs the
server only the edit of its copy of the text, and the editor is told once, the first
time, why its diagnostics follow after a pause.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core.model.diagnostics import one_line
from ..core.reading.frontmatter import human_size

log = logging.getLogger(__name__)

BUDGET = 0.050  # s: a keystroke's budget (docs/performance.md)
SETTLE = 0.010  # s: the delay of a check after a change, for a document checked fast
SLOW = 2 * BUDGET  # s: checks that all took longer make the next one wait for a pause
RECENT = 3  # checks looked at: one slow check (a busy machine) does not count
PAUSE = 0.300  # s without a change before a large or slow document is checked
MAX_WAIT = 2.0  # s: changes that keep coming still get a check this often
LARGE = 256 * 1024  # characters from which a document is checked after a pause


@dataclass(slots=True)
class Due:
    """A check waiting on its timer, and when the first change it covers arrived."""

    timer: asyncio.TimerHandle
    since: float


@dataclass(slots=True)
class Pacer:
    """The timers of the open documents' checks (`check(uri)` runs one)."""

    check: Callable[[str], None]
    due: dict[str, Due] = field(default_factory=dict)
    took: dict[str, deque[float]] = field(default_factory=dict)  # uri -> s its checks took
    ended: dict[str, float] = field(default_factory=dict)  # uri -> loop time it ended
    told: set[str] = field(default_factory=set)  # documents the editor was told about

    def paused(self, uri: str, size: int) -> bool:
        """Whether the document is checked only when typing pauses."""
        recent = self.took.get(uri)
        return size >= LARGE or (
            recent is not None and len(recent) == RECENT and min(recent) > SLOW
        )

    def changed(self, uri: str, size: int) -> None:
        """The document changed (`size`: its characters now): its check is due."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a direct call): checked at once
            self.check(uri)
            return
        now = loop.time()
        waiting = self.due.pop(uri, None)
        since = now
        if waiting is not None:  # in a burst: the check moves back
            waiting.timer.cancel()
            since = waiting.since
            when = now + (PAUSE if self.paused(uri, size) else SETTLE)
        elif self.paused(uri, size):
            when = now + PAUSE
        else:  # the first change after a quiet spell: at once, unless just checked
            when = max(now, self.ended.get(uri, now) + SETTLE)
        self.due[uri] = Due(loop.call_at(min(when, since + MAX_WAIT), self._fire, uri), since)

    def now(self, uri: str) -> None:
        """Check the document at once (opened): a check it was waiting for is dropped."""
        self.drop(uri)
        self.check(uri)

    def drop(self, uri: str) -> None:
        waiting = self.due.pop(uri, None)
        if waiting is not None:
            waiting.timer.cancel()

    def closed(self, uri: str) -> None:
        self.drop(uri)
        self.took.pop(uri, None)
        self.ended.pop(uri, None)

    def timed(self, uri: str, seconds: float) -> None:
        """A check of the document took `seconds` and has just ended."""
        self.took.setdefault(uri, deque(maxlen=RECENT)).append(seconds)
        with contextlib.suppress(RuntimeError):  # (no loop: a direct call)
            self.ended[uri] = asyncio.get_running_loop().time()

    def first_pause(self, uri: str, size: int) -> bool:
        """Whether the editor is to be told now that this document is checked after a
        pause (once a session for each document)."""
        if uri in self.told or not self.paused(uri, size):
            return False
        self.told.add(uri)
        return True

    def _fire(self, uri: str) -> None:
        self.due.pop(uri, None)
        try:
            self.check(uri)
        except Exception as exc:  # a bug on one document never stops the others' timers
            log.error("skillstudio: %s", one_line(exc))


def pause_notice(path: str, size: int, took: float) -> str:
    """What the editor shows, once, for a document checked after a pause (`size`: its
    bytes, `took`: seconds its check took)."""
    name = os.path.join(os.path.basename(os.path.dirname(path)), os.path.basename(path))
    return (
        f"SkillStudio: {name} is {human_size(size)} and its check takes "
        f"{took * 1000:,.0f} ms (a keystroke's budget is {BUDGET * 1000:.0f} ms): it is "
        f"checked when you pause typing ({PAUSE * 1000:.0f} ms without a change), not "
        "after every key."
    )
