"""Tests of gui/panels/suite_slices.py (A suite's cases run a few at a time between
events)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from skillstudio.core.ranking.match_index import MatchIndex
from skillstudio.core.scanning.registry import Registry
from skillstudio.gui.panels import suite_slices
from skillstudio.gui.panels.suite_runner import SuiteRunner


def test_a_suite_slice_starts_no_case_it_cannot_finish_in_time(
    suite_runner: SuiteRunner, samples: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A case takes 10-40 ms at 10,000 skills; on main a slice started another while
    under SLICE_MS, so a 15 ms slice held the event loop 30-80 ms. Cases of 10 ms:
    one a slice."""
    real = suite_slices.run_case

    def slow_case(*args: Any) -> Any:
        time.sleep(0.010)
        return real(*args)

    monkeypatch.setattr(suite_slices, "run_case", slow_case)
    suite = next(samples.glob("oasis/suites/*.yaml"))
    runner = suite_runner
    assert runner.open_suite(str(suite))
    runner.slices.timer.stop()  # the slices one by one
    counts = []
    while runner.slices.running:
        before = len(runner.slices.results)
        runner.slices.step()
        counts.append(len(runner.slices.results) - before)
    assert runner.report is not None and len(runner.report.results) == sum(counts) >= 3
    assert max(counts) == 1


def test_a_suite_run_prepares_and_reports_in_slices_of_their_own(
    suite_runner: SuiteRunner, samples: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 10,000 skills the first slice of a run synced the match index, listed the
    skill names and ran a case (54 ms); the last ran cases and then sized the tables
    (27 ms, 16 of them measuring the stretched request and note columns)."""
    monkeypatch.setattr(suite_slices, "SLICE_MS", 100_000)  # only the run's pauses
    events: list[str] = []
    real_case, real_index = suite_slices.run_case, suite_runner.context.match_index

    def case(*args: Any) -> Any:
        events.append("case")
        return real_case(*args)

    def index(registry: Registry) -> MatchIndex:
        events.append("index")
        return real_index(registry)

    monkeypatch.setattr(suite_slices, "run_case", case)
    runner = suite_runner
    monkeypatch.setattr(runner.context, "match_index", index)
    measured: list[int] = []
    real_resize = runner.cases.resizeColumnToContents
    monkeypatch.setattr(runner.cases, "resizeColumnToContents", measured.append)
    monkeypatch.setattr(runner.cases, "resizeColumnsToContents", lambda: measured.extend(range(99)))
    suite = next(samples.glob("oasis/suites/*.yaml"))
    assert runner.open_suite(str(suite))
    runner.slices.timer.stop()  # the slices one by one
    slices = []
    while runner.slices.running:
        events.clear()
        runner.slices.step()
        slices.append((list(events), runner.report is not None))
    assert slices[0] == (["index"], False)  # the preparation alone
    assert slices[-1] == ([], True)  # the report alone
    report = runner.report
    assert report is not None
    assert sum(e.count("case") for e, _ in slices) == len(report.results) >= 3
    header = runner.cases.horizontalHeader()
    stretched = {
        c for c in range(header.count()) if header.sectionResizeMode(c) == header.ResizeMode.Stretch
    }
    assert stretched and measured and stretched.isdisjoint(measured)
    for column in measured:
        real_resize(column)


def test_a_runs_end_shows_the_report_and_sizes_each_table_in_slices_of_their_own(
    suite_runner: SuiteRunner, samples: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 10,000 skills the slice after the last case reset the report's models and
    measured every table's columns: 50-70 ms, with every run again after a change on
    disk (the longest stall of a 1,000-file burst). Now each is a slice of its own."""
    monkeypatch.setattr(suite_slices, "SLICE_MS", 100_000)  # only the run's pauses
    runner = suite_runner
    events: list[str] = []
    runner.skills_model.modelReset.connect(lambda: events.append("report"))
    for name, view in (("cases", runner.cases), ("skills", runner.skills)):
        real = view.resizeColumnToContents

        def measure(column: int, name: str = name, real: Any = real) -> None:
            events.append(name)
            real(column)

        monkeypatch.setattr(view, "resizeColumnToContents", measure)
    finished: list[bool] = []
    runner.finished.connect(lambda: finished.append(True))
    suite = next(samples.glob("oasis/suites/*.yaml"))
    assert runner.open_suite(str(suite))
    runner.slices.timer.stop()  # the slices one by one
    slices = []
    while runner.slices.running:
        events.clear()
        runner.slices.step()
        if events:
            slices.append(set(events))
    assert [s for s in slices if s] == [{"report"}, {"cases"}, {"skills"}]
    assert finished == [True] and runner.report is not None
    assert "passed" in runner.summary.text()
