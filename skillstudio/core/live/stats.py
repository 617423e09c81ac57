"""What the runs say: per request the trigger rate (with its Wilson 95 % interval), per
skill precision, recall and F1, a confusion table, and agreement with the offline
estimate (top-1, and how often each band's skills are picked).

Counts are over runs that got an answer; a run that failed (network, malformed answer,
a cache miss offline) is counted apart as an error, never as "no skill".
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .questions import Answer

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95 % interval
BANDS = ("likely", "possible", "unlikely")
NONE = "none"  # no skill picked (or expected)
ERROR = "error"


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion (None when n is 0)."""
    if n <= 0:
        return None
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _ratio(k: int, n: int) -> float | None:
    return k / n if n else None


def _rounded(value: tuple[float, float] | None) -> list[float] | None:
    return [round(value[0], 4), round(value[1], 4)] if value else None


@dataclass(slots=True)
class LiveCase:
    """One request and what a run should pick: one of `expect` (empty: no skill), or,
    with `negate`, anything but those skills."""

    query: str
    expect: list[str]
    negate: bool = False
    line: int = 0
    source: str = ""  # the suite it comes from
    judged: bool = True  # False: a request asked without an expectation (picks shown)

    def label(self) -> str:
        if not self.judged:
            return "(no expectation)"
        names = ", ".join(self.expect) or NONE
        return f"not {names}" if self.negate else names

    def hit(self, pick: str | None) -> bool:
        if not self.judged:
            return False
        if self.negate:
            return pick not in self.expect
        return pick in self.expect if self.expect else pick is None


@dataclass(slots=True)
class Estimate:
    """The offline ranking of a request: its top candidate if likely, and each band."""

    top: str | None
    bands: dict[str, str] = field(default_factory=dict)  # skill -> band (the ranked ones)

    def band(self, name: str) -> str:
        return self.bands.get(name, "unlikely")


@dataclass(slots=True)
class CaseRuns:
    case: LiveCase
    answers: list[Answer]
    estimate: Estimate | None = None

    @property
    def valid(self) -> list[Answer]:
        return [a for a in self.answers if not a.error]

    @property
    def hits(self) -> int:
        return sum(self.case.hit(a.pick) for a in self.valid)

    def passed(self, pass_rate: float) -> bool | None:
        """None: no run got an answer (a request without an expectation passes)."""
        valid = len(self.valid)
        if not valid:
            return None
        return self.hits / valid >= pass_rate if self.case.judged else True

    def picks(self) -> Counter[str]:
        return Counter((a.pick or NONE) if not a.error else ERROR for a in self.answers)

    def to_json(self, pass_rate: float) -> dict[str, Any]:
        valid = len(self.valid)
        est = self.estimate
        return {
            "query": self.case.query,
            "expect": self.case.label() if self.case.judged else None,
            "suite": self.case.source or None,
            "line": self.case.line or None,
            "runs": [a.to_json() for a in self.answers],
            "picks": dict(self.picks().most_common()),
            "answered": valid,
            "hits": self.hits,
            "rate": _ratio(self.hits, valid),
            "interval": _rounded(wilson(self.hits, valid)),
            "passed": self.passed(pass_rate),
            "estimate": None if est is None else {"top": est.top},
        }


def per_skill(results: list[CaseRuns]) -> dict[str, dict[str, Any]]:
    """Precision, recall and F1 per skill over the answered runs: a run picking a skill
    it should is a true positive; picking one it should not, a false positive for it;
    a run of a case expecting skills that picks none of them, a false negative for each
    expected skill."""
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    for result in results:
        case = result.case
        if not case.judged:
            continue
        for answer in result.valid:
            pick = answer.pick
            if case.negate:
                if pick is not None and pick in case.expect:
                    fp[pick] += 1
                continue
            if pick is not None:
                (tp if pick in case.expect else fp)[pick] += 1
            if case.expect and pick not in case.expect:
                for name in case.expect:
                    fn[name] += 1
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(set(tp) | set(fp) | set(fn)):
        t, f_pos, f_neg = tp[name], fp[name], fn[name]
        precision, recall = _ratio(t, t + f_pos), _ratio(t, t + f_neg)
        f1 = (
            2 * precision * recall / (precision + recall)
            if precision is not None and recall is not None and precision + recall
            else None
        )
        out[name] = {
            "tp": t,
            "fp": f_pos,
            "fn": f_neg,
            "precision": precision,
            "recall": recall,
            "f1": f1,
            "precision_interval": _rounded(wilson(t, t + f_pos)),
            "recall_interval": _rounded(wilson(t, t + f_neg)),
        }
    return out


def confusion(results: list[CaseRuns]) -> dict[str, dict[str, int]]:
    """Expected (label) -> picked (name, `none` or `error`) -> runs (judged cases)."""
    table: dict[str, Counter[str]] = {}
    for result in results:
        if not result.case.judged:
            continue
        table.setdefault(result.case.label(), Counter()).update(result.picks())
    return {label: dict(row.most_common()) for label, row in table.items()}


def agreement(results: list[CaseRuns]) -> dict[str, Any]:
    """How the model's picks agree with the offline estimate: top-1 (the estimate's
    likely first, or no skill when none is likely, against each answered run), and per
    band, of the runs where that band held a skill, how many picked one of its skills
    (`none` counts the runs picking no skill)."""
    agree = runs = 0
    band_runs: Counter[str] = Counter()
    band_picked: Counter[str] = Counter()
    for result in results:
        est = result.estimate
        if est is None:
            continue
        present = set(est.bands.values())
        for answer in result.valid:
            runs += 1
            agree += answer.pick == est.top
            for band in BANDS:
                if band in present or band == "unlikely":
                    band_runs[band] += 1
            band_runs[NONE] += 1
            if answer.pick is None:
                band_picked[NONE] += 1
            else:
                band_picked[est.band(answer.pick)] += 1
    bands = {
        band: {
            "picked": band_picked[band],
            "runs": band_runs[band],
            "rate": _ratio(band_picked[band], band_runs[band]),
            "interval": _rounded(wilson(band_picked[band], band_runs[band])),
        }
        for band in (*BANDS, NONE)
    }
    return {
        "top1": {
            "agree": agree,
            "runs": runs,
            "rate": _ratio(agree, runs),
            "interval": _rounded(wilson(agree, runs)),
        },
        "bands": bands,
    }
