"""Tests of gui/models/problem_rows.py (ProblemRows: the Problems list's rows worked out
without Qt, kept current in place)."""

from __future__ import annotations

import random

from skillstudio.core.model.diagnostics import Diagnostic
from skillstudio.gui.models.problem_rows import ProblemRows


def _rows_of(rows: ProblemRows) -> list[list[tuple[str, ...]]]:
    return [[(d.code, d.message, d.path, str(d.line)) for d in group] for group in rows.rows]


def test_problem_rows_updated_in_place_equal_rows_built_again() -> None:
    """At 10,000 agentskills skills Problems holds 60,000 diagnostics: sorting and
    grouping them all took 100-480 ms per keystroke or file changed. Only the lists
    that changed are compared now and the rows updated in place; after each of many
    random changes they equal the rows built from scratch."""
    rng = random.Random(18)
    codes = ["unknown-field", "name-format", "field-missing"]

    def findings(skill: int) -> list[Diagnostic]:
        return [
            Diagnostic(
                rng.choice(codes),
                rng.choice(["error", "warning", "info"]),
                rng.choice(["Add a field.", "Rename it.", f"Skill {skill} only."]),
                f"/p/s{skill}/SKILL.md",
                rng.randint(1, 4),
                1,
                skill=f"s{skill}",
            )
            for _ in range(rng.randint(0, 3))
        ]

    sources = [findings(n) for n in range(40)]
    for severities, only in [({"error", "warning", "info"}, ""), ({"warning"}, "/p/s3/SKILL.md")]:
        rows = ProblemRows(sources, "/p", ["/p"], severities, only)
        for _ in range(60):
            sources = list(sources)
            for n in rng.sample(range(40), rng.randint(1, 3)):
                sources[n] = findings(n) if rng.random() < 0.8 else list(sources[n])
            changes = rows.changes(sources)
            assert changes is not None
            rows.update(*changes)
            fresh = ProblemRows(sources, "/p", ["/p"], severities, only)
            assert _rows_of(rows) == _rows_of(fresh)
            assert rows.counts == fresh.counts and rows.codes() == fresh.codes()
    assert rows.changes(sources) == ([], [])  # nothing changed: nothing to do
    assert rows.changes([*sources, []]) is None  # skills came: built again


def test_problem_rows_keep_their_rows_when_many_skills_are_re_read_unchanged() -> None:
    """A burst (a git checkout) re-reads 1,000 skills whose findings do not change:
    6,000 equal diagnostics at 10,000 agentskills skills. They are compared, not built
    again (which took 130-230 ms); a large real change is built again."""
    first = [
        [Diagnostic("name-format", "error", f"Bad {n}.", f"/p/{n}/SKILL.md", 1, 1)]
        for n in range(3000)
    ]
    rows = ProblemRows(first, "/p", ["/p"], {"error"}, "")
    again = [[Diagnostic(**{f: getattr(d, f) for f in d.__slots__}) for d in s] for s in first]
    assert again[0][0] is not first[0][0]
    assert rows.changes(again) == ([], [])
    fixed: list[list[Diagnostic]] = [[] for _ in first]
    assert rows.changes(fixed) is None  # 3,000 gone: built again
