"""What the runs say: per request the trigger rate (with its Wilson 95 % interval) and a
verdict, per skill precision, recall and F1, a confusion table, and agreement with the
offline estimate (top-1, and how often each band's skills are picked).

Rates are over runs that got an answer; a run that failed (network, malformed answer,
a cache miss offline) is counted apart as an error, never as "no skill", and never
makes N smaller: the verdict (`Rule.decide`) counts it both ways, and a case it could
turn is *inconclusive*. Rates pooled over several requests (per skill, agreement) are
widened for the runs of one request being alike (`pooled`, a design effect).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .questions import Answer

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95 % interval
Z95_ONE_SIDED = 1.6448536269514722  # of a one-sided 95 % bound (the verdict's)
MIN_ANSWERED = 3  # answered runs a verdict needs, by default
BANDS = ("likely", "possible", "unlikely")
NONE = "none"  # no skill picked (or expected)
ERROR = "error"


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion (None when n is 0). `successes` and `n`
    may be fractional: an effective count (`pooled`)."""
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


def _pc(value: float) -> str:
    return f"{value * 100:.0f} %"


PASS, FAIL, INCONCLUSIVE, SHOWN = "pass", "fail", "inconclusive", "shown"


@dataclass(frozen=True, slots=True)
class Verdict:
    """A case's state, why (one line), and the one-sided 95 % bounds it was judged on
    (None when too few runs answered to judge)."""

    state: str  # PASS, FAIL, INCONCLUSIVE, or SHOWN (a request without an expectation)
    why: str = ""
    bounds: tuple[float, float] | None = None

    @property
    def passed(self) -> bool | None:
        """True (pass; a request shown), False (fail), None (inconclusive)."""
        return None if self.state == INCONCLUSIVE else self.state != FAIL


@dataclass(frozen=True, slots=True)
class Rule:
    """When a case passes. Of its `runs` planned runs, `answered` got an answer and
    `hits` of those picked as expected. With fewer than `min_answered` answered runs it
    is inconclusive. Otherwise, with the one-sided 95 % Wilson bounds of the rate over
    all the planned runs, a run without an answer counted as a miss for the lower bound
    and as a hit for the upper one (never a smaller N): it passes when the lower bound
    reaches `bar`, fails when the upper bound is below it, and is inconclusive between
    (more runs needed, or the runs without an answer could turn it)."""

    bar: float = 0.5
    min_answered: int = MIN_ANSWERED

    def decide(self, hits: int, answered: int, runs: int) -> Verdict:
        missing = max(0, runs - answered)
        if not answered:
            return Verdict(INCONCLUSIVE, f"no run of {runs} got an answer")
        if answered < self.min_answered:
            return Verdict(
                INCONCLUSIVE,
                f"{answered} of {runs} runs answered; a verdict needs {self.min_answered}",
            )
        low = (wilson(hits, runs, Z95_ONE_SIDED) or (0.0, 1.0))[0]
        high = (wilson(hits + missing, runs, Z95_ONE_SIDED) or (0.0, 1.0))[1]
        bounds = (low, high)
        bar = _pc(self.bar)
        if low >= self.bar:
            return Verdict(PASS, f"at least {_pc(low)} at 95 % confidence (bar {bar})", bounds)
        if high < self.bar:
            return Verdict(FAIL, f"at most {_pc(high)} at 95 % confidence (bar {bar})", bounds)
        unanswered = (
            f"; {missing} of {runs} runs without an answer, counted both ways" if missing else ""
        )
        return Verdict(
            INCONCLUSIVE,
            f"{low * 100:.0f}-{_pc(high)} at 95 % confidence holds the bar {bar}: more runs "
            f"needed{unanswered}",
            bounds,
        )


def pooled(clusters: list[tuple[int, int]]) -> tuple[tuple[float, float] | None, float]:
    """The Wilson 95 % interval of a rate pooled over requests, each given as (successes,
    runs), and its design effect. The runs of one request are not independent samples
    (the same words, often the same answer), so the interval is that of an effective
    count, runs / D: D is the cluster-robust variance of the pooled rate over the
    binomial one, (C/(C-1))·Σ(yᵢ - p·mᵢ)² / (p(1-p)·n), at least 1 (runs of a request
    that vary as much as independent ones) and at most Σmᵢ²/n (every request's runs
    alike, each request counting once). When it cannot be measured (one request, or a
    rate of 0 or 1) D is that most."""
    sizes = [m for _, m in clusters if m > 0]
    n = sum(sizes)
    if not n:
        return None, 1.0
    k = sum(y for y, m in clusters if m > 0)
    p = k / n
    most = sum(m * m for m in sizes) / n
    c = len(sizes)
    if c > 1 and 0 < p < 1:
        robust = c / (c - 1) * sum((y - p * m) ** 2 for y, m in clusters if m > 0) / (n * n)
        design = min(max(robust / (p * (1 - p) / n), 1.0), most)
    else:
        design = most
    effective = n / design
    return wilson(p * effective, effective), design


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

    def verdict(self, rule: Rule) -> Verdict:
        """The rule's verdict over every planned run; a request without an expectation
        is shown (inconclusive when no run got an answer)."""
        valid = len(self.valid)
        if not self.case.judged:
            return Verdict(SHOWN) if valid else rule.decide(0, 0, len(self.answers))
        return rule.decide(self.hits, valid, len(self.answers))

    def passed(self, rule: Rule) -> bool | None:
        """None: inconclusive (a request without an expectation passes when answered)."""
        return self.verdict(rule).passed

    def picks(self) -> Counter[str]:
        return Counter((a.pick or NONE) if not a.error else ERROR for a in self.answers)

    def to_json(self, rule: Rule) -> dict[str, Any]:
        valid = len(self.valid)
        est = self.estimate
        verdict = self.verdict(rule)
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
            "passed": verdict.passed,
            "verdict": verdict.state,
            "why": verdict.why or None,
            "bounds": _rounded(verdict.bounds),
            "estimate": None if est is None else {"top": est.top},
        }


def per_skill(results: list[CaseRuns]) -> dict[str, dict[str, Any]]:
    """Precision, recall and F1 per skill over the answered runs: a run picking a skill
    it should is a true positive; picking one it should not, a false positive for it;
    a run of a case expecting skills that picks none of them, a false negative for each
    expected skill. The intervals are pooled over the requests (`pooled`): the runs of
    one request count as one cluster."""
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    # skill -> per request (true positives, picks) and (true positives, expected runs)
    picked: dict[str, list[tuple[int, int]]] = {}
    expected: dict[str, list[tuple[int, int]]] = {}
    for result in results:
        case = result.case
        if not case.judged:
            continue
        tp_i: Counter[str] = Counter()
        fp_i: Counter[str] = Counter()
        fn_i: Counter[str] = Counter()
        for answer in result.valid:
            pick = answer.pick
            if case.negate:
                if pick is not None and pick in case.expect:
                    fp_i[pick] += 1
                continue
            if pick is not None:
                (tp_i if pick in case.expect else fp_i)[pick] += 1
            if case.expect and pick not in case.expect:
                for name in case.expect:
                    fn_i[name] += 1
        for name in set(tp_i) | set(fp_i) | set(fn_i):
            picked.setdefault(name, []).append((tp_i[name], tp_i[name] + fp_i[name]))
            expected.setdefault(name, []).append((tp_i[name], tp_i[name] + fn_i[name]))
        tp.update(tp_i)
        fp.update(fp_i)
        fn.update(fn_i)
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(set(tp) | set(fp) | set(fn)):
        t, f_pos, f_neg = tp[name], fp[name], fn[name]
        precision, recall = _ratio(t, t + f_pos), _ratio(t, t + f_neg)
        f1 = (
            2 * precision * recall / (precision + recall)
            if precision is not None and recall is not None and precision + recall
            else None
        )
        precision_interval, precision_design = pooled(picked[name])
        recall_interval, recall_design = pooled(expected[name])
        out[name] = {
            "tp": t,
            "fp": f_pos,
            "fn": f_neg,
            "precision": precision,
            "recall": recall,
            "f1": f1,
            "precision_interval": _rounded(precision_interval),
            "recall_interval": _rounded(recall_interval),
            "design_effect": {
                "precision": round(precision_design, 4),
                "recall": round(recall_design, 4),
            },
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
    (`none` counts the runs picking no skill). The intervals are pooled over the
    requests (`pooled`)."""
    agree = runs = 0
    band_runs: Counter[str] = Counter()
    band_picked: Counter[str] = Counter()
    # per request, for the pooled intervals: (agreeing runs, runs); per band the same
    agree_clusters: list[tuple[int, int]] = []
    band_clusters: dict[str, list[tuple[int, int]]] = {band: [] for band in (*BANDS, NONE)}
    for result in results:
        est = result.estimate
        if est is None:
            continue
        present = set(est.bands.values())
        held = [band for band in BANDS if band in present or band == "unlikely"] + [NONE]
        answered = len(result.valid)
        agreed = sum(answer.pick == est.top for answer in result.valid)
        chose = Counter(NONE if a.pick is None else est.band(a.pick) for a in result.valid)
        agree, runs = agree + agreed, runs + answered
        agree_clusters.append((agreed, answered))
        band_picked.update(chose)
        for band, clusters in band_clusters.items():
            size = answered if band in held else 0
            band_runs[band] += size
            clusters.append((chose[band], size))
    bands = {
        band: {
            "picked": band_picked[band],
            "runs": band_runs[band],
            "rate": _ratio(band_picked[band], band_runs[band]),
            "interval": _rounded(pooled(band_clusters[band])[0]),
        }
        for band in (*BANDS, NONE)
    }
    return {
        "top1": {
            "agree": agree,
            "runs": runs,
            "rate": _ratio(agree, runs),
            "interval": _rounded(pooled(agree_clusters)[0]),
        },
        "bands": bands,
    }
