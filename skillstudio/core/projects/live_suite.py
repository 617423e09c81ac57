"""A suite's cases as the live checks ask them (core/live/stats.py's LiveCase), for
`skillstudio eval` and the app's Suites › Ask a model alike: `expect` (one of them),
`should_trigger` (that skill), `should not trigger` (anything but it), `expect_likely`
(one of them), `expect_not` (anything but those skills).
"""

from __future__ import annotations

from ..live.stats import LiveCase
from .suite_cases import Case


def live_cases(cases: list[Case], source: str) -> list[LiveCase]:
    """`cases` of the suite `source` (its name in reports) as live cases."""
    out = []
    for case in cases:
        if case.mode == "not-likely":  # expect_not: anything but those skills
            out.append(LiveCase(case.query, list(case.expect_not), True, case.line, source))
            continue
        negate = case.mode == "not-triggers"
        out.append(LiveCase(case.query, list(case.expect), negate, case.line, source))
    return out
