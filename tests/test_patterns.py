"""Skill regular expressions (core/checking/patterns.py) and `$N` placeholders with huge N."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillstudio.core.checking import patterns
from skillstudio.core.checking.patterns import (
    MAX_GROUP_DEPTH,
    PatternBudget,
    compile_pattern,
    group_depth,
    is_slow,
    pattern_problem,
)
from skillstudio.core.profiles.pegasus import substitute_pegasus

from .helpers import diag, lint_json, write


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ("a{4294967296}", "repeat count of 4,294,967,296 is over the limit"),
        ("a{" + "9" * 5000 + "}", "more than 12 digits"),
        ("a{9999999}", "over the limit of 1,000"),  # regex wrote it out: 2.6 GB, 6 s
        ("(a{1000}){1000}", "make 1,000,000 copies"),
        ("(?:(?:x{100}y){100}z){100}", "make 1,000,000 copies"),
        ("(" * 5000 + ")" * 5000, "nests groups 5,000 deep"),
        ("(" * 5000, "nests groups"),
        ("(unclosed", "not a valid regular expression"),
    ],
)
def test_a_pattern_the_engine_cannot_take_is_a_reason_not_an_exception(
    source: str, words: str
) -> None:
    problem = pattern_problem(source)
    assert problem is not None and words in problem
    assert compile_pattern(source) is None


def test_ordinary_patterns_pass_and_depth_ignores_escapes_and_classes() -> None:
    for source in (
        r"\bdeploy\b",
        r"review (the )?pull request",
        r"[(]+\(x\)",
        "(a(b(c)))",
        r"\d{4}-\d{2}",
        "(.{0,100}){100}",
        r"a\{99999}",
        "[{]{5}",
    ):
        assert pattern_problem(source) is None and compile_pattern(source) is not None
    assert group_depth(r"\(\(\([(((]") == 0
    assert group_depth("(" * MAX_GROUP_DEPTH + ")" * MAX_GROUP_DEPTH) == MAX_GROUP_DEPTH
    assert pattern_problem("(" * MAX_GROUP_DEPTH + "a" + ")" * MAX_GROUP_DEPTH) is None


def test_slow_patterns_are_found_once_and_fast_ones_are_not_flagged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert is_slow("(.|..)+(?!)(?#slow test)")
    assert not is_slow(r"\bdeploy (the )?app\b(?#fast test)")
    compiled: list[str] = []
    real = patterns.compile_pattern

    def counted(source: str) -> object:
        compiled.append(source)
        return real(source)

    monkeypatch.setattr(patterns, "compile_pattern", counted)
    assert is_slow("(.|..)+(?!)(?#slow test)")  # cached: no second compile or search
    assert compiled == []


def test_the_budget_stops_at_its_total_and_says_how_many_were_not_tried() -> None:
    slow = "(.|..)+(?!)"
    budget = PatternBudget(seconds=0.12)
    text = "x" * 40
    outcomes = [budget.search(slow, text, f"'p{n}' of s") for n in range(50)]
    assert all(found is None for found in outcomes)
    assert 1 <= len(budget.stopped) <= 4 and budget.skipped == 50 - len(budget.stopped)
    notes = " ".join(budget.notes())
    assert "'p0' of s" in notes and f"{budget.skipped} patterns not tried" in notes
    assert budget.search("x", text, "late") is None  # spent is spent


def test_the_budget_counts_cpu_time_so_load_does_not_skip_skills(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a loaded machine each search took more wall time than CPU time, the budget
    (counted in wall time) ran out after the first slow pattern and the next skill's
    patterns were skipped: a flaky suite test, and answers that changed with load.
    The budget counts CPU time; wall time is only capped at WALL_FACTOR x budget."""
    clock = [0.0]

    def loaded_wall_clock() -> float:  # every reading 0.25 s later: a busy machine
        clock[0] += 0.25
        return clock[0]

    monkeypatch.setattr(patterns.time, "perf_counter", loaded_wall_clock)
    budget = PatternBudget(seconds=0.2)
    assert budget.search("fine", "a fine text", "'fine' of a") is True
    assert budget.search("text", "a fine text", "'text' of b") is True  # not skipped
    assert budget.skipped == 0
    for n in range(10):  # the wall-time cap still ends it
        budget.search("x", "x", f"'{n}' of c")
    assert budget.skipped > 0 and budget.wall >= 0.2 * patterns.WALL_FACTOR


def test_lint_points_at_the_pattern_and_cuts_a_long_one(tmp_path: Path) -> None:
    write(
        tmp_path,
        "skills/huge/SKILL.md",
        "---\nname: huge\ndescription: d\ntriggers:\n  patterns:\n"
        "    - ok\n    - 'a{4294967296}'\n---\nBody\n",
    )
    data = lint_json(str(tmp_path / "skills"), "--profile", "toolsets")
    found = diag(data, "pattern-invalid")
    assert (found["line"], found["column"]) == (7, 7)
    assert "a{4294967296}" in found["message"] and "over the limit" in found["message"]


@pytest.mark.parametrize("digits", [10, 4301, 5000])
def test_a_placeholder_index_past_every_argument_stays_as_written(digits: int) -> None:
    index = "9" * digits
    body = f"Use ${index} and $ARGUMENTS[{index}] and $1."
    out, notes = substitute_pegasus(body, "first second")
    assert out == f"Use ${index} and $ARGUMENTS[{index}] and second."
    assert notes == []
