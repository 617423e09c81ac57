"""Tier 2 (the listing of every skill) written in slices between events.

At 10,000 skills the listing takes 30 ms (oasis) to 180 ms (agentskills, its XML
entries) to write; in one piece it paused the window each time a skill changed
while the Tiers tab's listing was shown, or when that tab was opened.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from typing import Any

from PySide6.QtCore import QObject, QTimer

from ....core.delivery.tiers import listing_steps
from ....core.model.delivered import TierText
from ....core.model.text import counted
from ....core.scanning.registry import Registry
from ...infra.one_line import one_line

LISTING_SLICE_S = 0.012  # one slice of the listing, then events
Job = tuple[Registry, int, Generator[None, None, TierText]]


class ListingWriter(QObject):
    """`start(registry, options)` writes the listing (`want`, then `write_wanted` when
    its tab is shown); `done(registry, version, tier)` gets it (a failure is said in
    the tier's note), `version` the registry's when it started: the caller drops a
    listing of skills changed meanwhile. A new start replaces one being written."""

    def __init__(
        self,
        done: Callable[[Registry, int, TierText], None],
        waiting: Callable[[str], None],
        parent: QObject,
    ) -> None:
        """`waiting(text)`: what to say meanwhile, when a listing takes more than a slice."""
        super().__init__(parent)
        self.done = done
        self.waiting = waiting
        self.job: Job | None = None
        self.wanted: tuple[Registry, dict[str, Any]] | None = None

    def want(self, registry: Registry, options: dict[str, Any]) -> None:
        """The listing to write when asked (its tab shown, or shown already)."""
        self.wanted = (registry, options)

    def write_wanted(self) -> None:
        if self.wanted is not None:
            registry, options = self.wanted
            self.wanted = None
            self.start(registry, options)

    def start(self, registry: Registry, options: dict[str, Any]) -> None:
        """Begin (the first slice runs now: a cached or small listing is done at once)."""
        self.job = (registry, registry.version, listing_steps(registry, options))
        self.run_slice(self.job)
        if self.job is not None:
            self.waiting(f"Writing the listing of {counted(len(registry.active), 'skill')}…")

    def cancel(self) -> None:
        self.job = None

    def finish(self) -> None:
        """Write the rest of a listing under way now (tests)."""
        if self.job is not None:
            self.run_slice(self.job, float("inf"))

    def run_slice(self, job: Job, seconds: float | None = None) -> None:
        if self.job is not job:
            return  # replaced or cancelled
        registry, version, steps = job
        deadline = time.perf_counter() + (LISTING_SLICE_S if seconds is None else seconds)
        try:
            next(steps)  # at least one step a slice
            while time.perf_counter() < deadline:
                next(steps)
        except StopIteration as finished:
            tier: TierText = finished.value
        except Exception as exc:  # a core bug: said in the tab, the panel goes on
            tier = TierText(2, "", note=f"Writing the listing failed: {one_line(exc)}")
        else:
            QTimer.singleShot(0, self, lambda: self.run_slice(job))
            return
        self.job = None
        self.done(registry, version, tier)
