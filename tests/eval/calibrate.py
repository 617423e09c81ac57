"""Fit the likely ranking's bands as probabilities, and show band against observed rate.

For every case of the tuning halves of the labelled request sets given (the even-
numbered cases; a set listed with `--check` is only measured, never fitted on), the
likely ranking's first three candidates are taken with their `Evidence` (strength,
lead over the best other skill, share of the request's words explained, whether the
request says what the description says: core/ranking/estimate.py) and a label: is the
candidate one of the case's acceptable skills. A logistic model of the label is fitted
(Newton's method, a small ridge), and for each set and half the bands it gives are set
against how often a candidate of that band was acceptable.

With `--collections WEIGHT`, every case is also ranked within each collection of the
set's corpus alone (each folder of its top level holding skills: one repository, as a
user opens it), its acceptable skills being those of that collection; where none of
them lies there, the case is a request no skill serves, the commonest one in daily
use (a request for a skill the open repository does not have). Those rows of the
fitted cases weigh WEIGHT, and each set prints how often such a request showed no
likely skill.

    .venv/bin/python tests/eval/calibrate.py tests/eval/corpus_requests.yaml \\
        --check tests/eval/fresh_requests.yaml --none-weight 3 --collections 0.05

It prints the weights to put in `Model.calibration` (core/ranking/estimate.py) and the
tables docs/performance.md shows. A plain script (no pytest test): it runs the ranking
on corpora that may be absent (a set whose corpus is missing is skipped, said so).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import replace

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from skillstudio.core.projects.evaluate import Case, load_set  # noqa: E402
from skillstudio.core.projects.project import project_from_folder  # noqa: E402
from skillstudio.core.ranking.estimate import (  # noqa: E402
    LIKELY_MODEL,
    Model,
    likely_chance,
    probability,
)
from skillstudio.core.ranking.likely_index import LikelyIndex  # noqa: E402
from skillstudio.core.ranking.likely_ranking import rank_likely  # noqa: E402

Row = tuple[tuple[float, ...], int, int, bool]  # features, label, rank, case expects a skill


def rows_of(
    index: LikelyIndex, cases: Sequence[Case], names: set[str] | None = None
) -> dict[int, list[Row]]:
    """case number -> its first three candidates' features and labels (`names`: the
    skills of the collection ranked, when it is not the whole corpus)."""
    out: dict[int, list[Row]] = {}
    for case in cases:
        accepted = set(case.expect) if names is None else set(case.expect) & names
        result = rank_likely(index, case.query, top=3)
        out[case.number] = [
            (c.evidence.features(), int(c.name in accepted), rank, bool(accepted))
            for rank, c in enumerate(result.candidates)
            if c.evidence is not None
        ]
    return out


def index_of(folder: str, profile: str) -> LikelyIndex:
    """The likely index of the skills under `folder`, without a calibration."""
    registry = project_from_folder(folder, profile).registry()
    registry.scan()
    return LikelyIndex(registry, replace(LIKELY_MODEL, calibration=None))


Alone = tuple[set[str], dict[int, list[Row]]]  # a collection's skills, `rows_of` it


def collections_rows(corpus: str, cases: Sequence[Case], profile: str) -> list[Alone]:
    """Each collection of `corpus` (a folder of its top level holding skills) ranked
    alone: its skills' names and `rows_of` it."""
    out = []
    for name in sorted(os.listdir(corpus)):
        folder = os.path.join(corpus, name)
        if name.startswith(".") or not os.path.isdir(folder):
            continue
        index = index_of(folder, profile)
        names = {doc.skill.name for doc in index.docs.values()}
        if names:
            out.append((names, rows_of(index, cases, names)))
    return out


def fit(
    rows: list[Row],
    none_weight: float = 1.0,
    ridge: float = 0.5,
    steps: int = 50,
    extra: Sequence[Row] = (),
    extra_weight: float = 1.0,
) -> tuple[float, ...]:
    """Logistic regression by Newton's method (the intercept not penalised); the
    candidates of requests no skill serves count `none_weight` times (they are few in
    the sets, and a likely skill where none serves misleads most); `extra` rows (the
    collections ranked alone) count `extra_weight` times each."""
    weighted = [(row, 1.0 if row[3] else none_weight) for row in rows]
    weighted += [(row, extra_weight) for row in extra]
    size = len(rows[0][0])
    w = [0.0] * size
    for _ in range(steps):
        grad = [0.0] * size
        hess = [[0.0] * size for _ in range(size)]
        for (x, y, _rank, _expects), k in weighted:
            z = sum(a * b for a, b in zip(w, x, strict=True))
            p = 1 / (1 + math.exp(-max(min(z, 50), -50)))
            for i in range(size):
                grad[i] += k * (p - y) * x[i]
                for j in range(size):
                    hess[i][j] += k * p * (1 - p) * x[i] * x[j]
        for i in range(1, size):
            grad[i] += ridge * w[i]
            hess[i][i] += ridge
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return tuple(round(v, 3) for v in w)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[col][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


BINS = ((0.0, 0.1), (0.1, 0.2), (0.2, 0.35), (0.35, 0.5), (0.5, 0.65), (0.65, 0.8), (0.8, 1.01))


def table(model: Model, rows: list[Row]) -> list[str]:
    """Per band of the calibrated chance: candidates, mean chance, observed rate."""
    from skillstudio.core.ranking.estimate import Evidence

    lines = []
    for low, high in BINS:
        chances, hits = [], 0
        for x, y, _rank, _exp in rows:
            evidence = Evidence.of(x)
            p = probability(model, evidence)
            if low <= p < high:
                chances.append(p)
                hits += y
        if chances:
            mean = sum(chances) / len(chances)
            lines.append(
                f"    chance {low:.2f}-{min(high, 1):.2f}: {len(chances):4d} candidates, "
                f"mean {100 * mean:5.1f} %, acceptable {100 * hits / len(chances):5.1f} %"
            )
    return lines


def summary(model: Model, by_case: dict[int, list[Row]], cases: Sequence[Case]) -> str:
    """Top-1 called likely when right, no likely where none serves, likely-but-wrong."""
    return summary_of(model, [(by_case.get(case.number, []), bool(case.expect)) for case in cases])


def summary_of(model: Model, requests: Sequence[tuple[list[Row], bool]]) -> str:
    """`summary` over requests given as (their rows, whether a skill serves them)."""
    right_likely = right = none_clear = nones = wrong_likely = likely_calls = 0
    from skillstudio.core.ranking.estimate import Evidence

    for rows, expects in requests:
        bands = []
        for x, y, _rank, _exp in rows:
            evidence = Evidence.of(x)
            bands.append((likely_chance(model, evidence, probability(model, evidence)), y))
        likely = [y for is_likely, y in bands if is_likely]
        likely_calls += len(likely)
        wrong_likely += likely.count(0)
        if not expects:
            nones += 1
            none_clear += not likely
        elif rows and rows[0][1]:
            right += 1
            right_likely += bands[0][0]
    return (
        f"right first and likely {right_likely}/{right}, none shown as none "
        f"{none_clear}/{nones}, likely calls wrong {wrong_likely}/{likely_calls}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="+", help="sets whose even-numbered cases are fitted on")
    parser.add_argument("--check", action="append", default=[], help="a set only measured")
    parser.add_argument("--profile", default="agentskills")
    parser.add_argument("--none-weight", type=float, default=1.0)
    parser.add_argument(
        "--collections",
        type=float,
        metavar="WEIGHT",
        help="rank the cases within each collection too; those rows weigh WEIGHT",
    )
    args = parser.parse_args(argv)
    data: list[tuple[str, bool, list[Case], dict[int, list[Row]]]] = []
    alone: dict[str, list[Alone]] = {}  # set path -> its collections
    for path, fitted in [*((p, True) for p in args.sets), *((p, False) for p in args.check)]:
        cases, corpus = load_set(path)
        if not corpus or not os.path.isdir(corpus):
            print(f"skipped {path}: its corpus {corpus!r} is absent")
            continue
        data.append((path, fitted, cases, rows_of(index_of(corpus, args.profile), cases)))
        if args.collections is not None:
            alone[path] = collections_rows(corpus, cases, args.profile)
    train = [
        row
        for _path, fitted, cases, by_case in data
        if fitted
        for case in cases
        if case.number % 2 == 0
        for row in by_case[case.number]
    ]
    extra = [
        row
        for path, fitted, cases, _by_case in data
        if fitted
        for _names, by_case in alone.get(path, [])
        for case in cases
        if case.number % 2 == 0
        for row in by_case[case.number]
    ]
    weights = fit(train, args.none_weight, extra=extra, extra_weight=args.collections or 0.0)
    model = replace(LIKELY_MODEL, calibration=weights)
    print(f"calibration = {weights}  (fitted on {len(train)} + {len(extra)} candidates)")
    for path, fitted, cases, by_case in data:
        halves = (
            (("tuning (even)", 0), ("held out (odd)", 1))
            if fitted
            else (("all (never fitted)", None),)
        )
        for label, parity in halves:
            chosen = [c for c in cases if parity is None or c.number % 2 == parity]
            rows = [row for c in chosen for row in by_case[c.number]]
            print(f"{os.path.basename(path)} {label}: {summary(model, by_case, chosen)}")
            print("\n".join(table(model, rows)))
            if path in alone:
                requests = [
                    (rows[c.number], bool(names & set(c.expect)))
                    for names, rows in alone[path]
                    for c in chosen
                ]
                print(f"  each collection alone: {summary_of(model, requests)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
