"""The leak check over a suite (`skillstudio test --leaks`): each case whose request
leaks a skill it expects (core/ranking/leaks.py), in any format a suite is read in
(core/projects/suite_formats.py). A case is checked against the skills it says should
be picked (`expect`, `expect_likely`, `expect_model`, a should-trigger, a skill-reach
expected skill); a case that says a skill must not be picked tests that on purpose."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..ranking.leaks import Leak, LeakCheck
from .suite_cases import Case, Suite


@dataclass(frozen=True, slots=True)
class CaseLeak:
    case: Case
    leak: Leak

    def to_json(self, path: str) -> dict[str, Any]:
        return {
            "suite": path,
            "line": self.case.line or None,
            "query": self.case.query,
            **self.leak.to_json(),
        }


def expected_skills(case: Case) -> list[str]:
    """The skills a case says should be picked, in the order it names them."""
    names: list[str] = []
    if case.mode not in ("not-triggers", "not-likely"):
        names += case.expect
    names += case.likely or []
    names += case.model or []
    return list(dict.fromkeys(names))


def suite_leaks(suite: Suite, check: LeakCheck) -> list[CaseLeak]:
    """The suite's leaking cases, in file order (one leak a case: the first skill)."""
    out: list[CaseLeak] = []
    for case in suite.cases:
        for name in expected_skills(case):
            leak = check.check(case.query, name)
            if leak is not None:
                out.append(CaseLeak(case, leak))
                break
    return out
