"""`skillstudio test` ranks with the indexes `match` uses (issue 36, speed of suites):
read and indexed once per project, whatever number of suites or cases run against it,
so a case costs what a request costs (tests/benchmarks/bench_suite.py measures it);
and its estimate is `match`'s (the same listing view, the same bands)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.ranking import likely_index, match_index

from .helpers import cli, skill_text, write
from .test_listing_estimate import TRIAGE, triage_set

SKILLS = {
    "pdf-forms": "Fill in PDF forms and extract their fields.",
    "sql-tuning": "Tune slow SQL queries with indexes in PostgreSQL.",
    "docker-build": "Build small Docker images with multi-stage builds.",
}


def counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many likely and match indexes are built from now on."""
    built = {"likely": 0, "match": 0}
    for key, cls in (("likely", likely_index.LikelyIndex), ("match", match_index.MatchIndex)):
        init = cls.__init__

        def counted(self: Any, *args: Any, _init: Any = init, _key: str = key, **kw: Any) -> None:
            built[_key] += 1
            _init(self, *args, **kw)

        monkeypatch.setattr(cls, "__init__", counted)
    return built


def test_two_suites_on_one_project_build_each_index_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, description in SKILLS.items():
        write(tmp_path, f"skills/{name}/SKILL.md", skill_text(name=name, description=description))
    cases = "\n".join(
        f'  - query: "{q}"\n    expect_likely: [{n}]'
        for q, n in (
            ("fill this pdf form", "pdf-forms"),
            ("my postgresql queries are slow", "sql-tuning"),
            ("shrink my docker image", "docker-build"),
        )
    )
    write(tmp_path, "a.yaml", f"cases:\n{cases}\n")
    write(
        tmp_path,
        "b.yaml",
        f"cases:\n{cases}\n  - query: 'fill pdf'\n    expect_not: [sql-tuning]\n",
    )
    built = counting(monkeypatch)
    args = ("test", "a.yaml", "b.yaml", "skills", "--profile", "agentskills", "--format", "json")
    run = cli(*args, cwd=tmp_path)
    assert run.code == 0, run.out + run.err
    assert [c["passed"] for c in run.json["cases"]] == [True] * 7
    # before: each suite built its own of each (2 + 2); a case none
    assert built == {"likely": 1, "match": 1}


def test_a_suite_estimates_as_match_does(tmp_path: Path) -> None:
    """A suite on a Claude Code set over its budget reads the listing as `match`: the
    skill whose description is dropped is not likely from that description's words."""
    base = triage_set(tmp_path)
    request = "sort the incoming browser rendering complaints by severity"
    write(base, "s.yaml", f'cases:\n  - query: "{request}"\n    expect_likely: [{TRIAGE}]\n')
    run = cli("test", "s.yaml", "--profile", "claude-code", "--format", "json", cwd=base)
    data = run.json
    assert data["cases"][0]["passed"] is False  # top three do not hold it
    ranked = cli("match", request, "--profile", "claude-code", "--format", "json", cwd=base).json
    assert TRIAGE not in [c["skill"] for c in ranked["candidates"][:3]]
    assert data["cases"][0]["got"] == [c["skill"] for c in ranked["candidates"][:3]]
