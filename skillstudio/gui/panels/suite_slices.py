"""A suite's cases run a few at a time between events: a slice holds the event loop at
most SLICE_MS, so a suite of hundreds of cases over 10,000 skills never freezes typing.
The suite runner (suite_runner.py) starts a run, shows each slice's results as they
come, and starts again when an edit makes a run stale."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from PySide6.QtCore import QObject, QTimer

from ...core.projects.project import Project
from ...core.projects.suite_cases import Suite
from ...core.projects.suites import CaseResult, run_case
from ...core.ranking.likely_index import LikelyIndex
from ...core.scanning.registry import Registry
from ..infra.one_line import one_line
from ..models.app_context import AppContext

SLICE_MS = 15  # the longest a batch of cases holds the event loop


class CaseSlices(QObject):
    """One run of a suite's cases, a slice at a time on a zero timer.

    `shown(first, results)`: the results of cases[first:first + len(results)], after
    each slice; `done(results, ms)`: every case ran, in `ms` milliseconds from the
    start; its steps (the report shown, each table sized) run a slice each;
    `failed(message)`: a case raised (a core bug), the run stopped there."""

    def __init__(
        self,
        context: AppContext,
        shown: Callable[[int, list[CaseResult]], None],
        done: Callable[[list[CaseResult], float], Iterator[None]],
        failed: Callable[[str], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.context = context
        self.shown, self.done, self.failed = shown, done, failed
        self.steps: Iterator[int] | None = None
        self.results: list[CaseResult] = []
        self.started = 0.0
        self.timer = QTimer(self)
        self.timer.setInterval(0)
        self.timer.timeout.connect(self.step)

    @property
    def running(self) -> bool:
        return self.steps is not None

    def start(self, suite: Suite, project: Project, registry: Registry) -> None:
        """A run of `suite`'s cases against `registry` from the first (one under way
        is dropped)."""
        self.results = []
        self.started = time.perf_counter()
        self.steps = self._cases(suite, project, registry)
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
        self.steps = None

    def _cases(self, suite: Suite, project: Project, registry: Registry) -> Iterator[int]:
        index = self.context.match_index(registry)  # brought up to date: 5-10 ms at 10,000 skills
        known = {s.name for s in registry.skills}
        options = project.options
        yield -1  # (-1: events come in before what follows) the first case
        likely = self._likely_index(suite, registry)
        for number, case in enumerate(suite.cases):
            self.results.append(run_case(case, registry, options, index, known, likely))
            yield number
        yield -1  # the report, then each table's sizes: a slice each, for together they
        # held the event loop 50-70 ms at 10,000 skills (the models' resets, 25 ms; the
        # columns measured, 25 ms), with every run again after a change on disk
        for _ in self.done(self.results, (time.perf_counter() - self.started) * 1000):
            yield -1

    def _likely_index(self, suite: Suite, registry: Registry) -> LikelyIndex | None:
        """The likely-candidates index the suite's estimate cases rank against, as a
        `match` request does: the open project's (kept current, built once and kept
        when it is not yet), else one built for this run; never one a case (at 10,000
        skills building one takes about a second). None when no case ranks."""
        if not any(c.ranks() for c in suite.cases):
            return None
        open_project = self.context.open_project_of(registry)
        likely = open_project.likely_index() if open_project is not None else None
        return likely if likely is not None else LikelyIndex(registry)

    def step(self) -> None:
        """One slice: cases while one more like the last still ends within SLICE_MS."""
        steps = self.steps
        if steps is None:
            self.timer.stop()
            return
        first = len(self.results)
        deadline = time.perf_counter() + SLICE_MS / 1000
        finished = False
        try:
            # A case takes 10-40 ms at 10,000 skills: the next one starts only if one
            # more like the last still ends within the slice (at least one a slice).
            took = 0.0
            while time.perf_counter() + took < deadline:
                began = time.perf_counter()
                step = next(steps, None)
                if step is None:
                    finished = True
                    break
                if step < 0:
                    break
                took = time.perf_counter() - began
        except Exception as exc:  # a core bug on some case or skill: stop, say where
            self.stop()
            self.shown(first, self.results[first:])
            self.failed(f"The run stopped at case {len(self.results) + 1}: {one_line(exc)}")
            return
        self.shown(first, self.results[first:])
        if finished:
            self.stop()

    def run_to_end(self) -> None:
        """Finish the run now (tests, and the smoke test)."""
        while self.steps is not None:
            self.step()
