"""Suite speed (issue 36): a suite case costs what a `match` request costs.

On one synthetic registry (agentskills: the model chooses, so suites rank the likely
candidates), in one run: the median time of one case of a suite of every kind of case
(`expect_likely`, `expect_not`, `should_trigger`, an exact selection), run by
`run_suite` as `skillstudio test` runs it, against the median time of answering the
same request as `match` does (the keyword match and the likely ranking, indexes
built). Prints the two and their ratio; asserts nothing.

    PYTHONPATH=. python tests/benchmarks/bench_suite.py [--count 10000] [--cases 1000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from skillstudio.core.projects.project import project_from_folder  # noqa: E402
from skillstudio.core.projects.suite_cases import Case, Suite  # noqa: E402
from skillstudio.core.projects.suites import run_suite  # noqa: E402
from skillstudio.core.ranking.likely_index import LikelyIndex  # noqa: E402
from skillstudio.core.ranking.likely_ranking import rank_likely  # noqa: E402
from skillstudio.core.ranking.match_index import MatchIndex  # noqa: E402
from skillstudio.core.ranking.matching import match  # noqa: E402
from tests.benchmarks.bench_match import queries  # noqa: E402
from tests.benchmarks.synth import generate  # noqa: E402


def suite_of(requests: list[str], names: list[str]) -> Suite:
    """A case of each kind in turn, naming skills of the registry."""
    cases = []
    for number, query in enumerate(requests):
        name = names[number % len(names)]
        kind = number % 4
        if kind == 0:
            cases.append(Case(query, [name], "likely"))
        elif kind == 1:
            cases.append(Case(query, [], "not-likely", expect_not=[name]))
        elif kind == 2:
            cases.append(Case(query, [name], "triggers"))
        else:
            cases.append(Case(query, [], "exact"))
    return Suite("bench.yaml", cases)


def run(count: int, cases: int, workdir: str | None = None) -> dict[str, float]:
    base = workdir or tempfile.mkdtemp(prefix="skillstudio-bench-")
    folder = os.path.join(base, f"synthetic-{count}")
    if not os.path.isdir(folder):
        generate(folder, count)
    registry = project_from_folder(folder, "agentskills").registry()
    registry.scan()
    requests = (queries(count=cases) * (cases // 200 + 1))[:cases]
    names = [s.name for s in registry.active.values()]
    suite = suite_of(requests, names)
    index, likely = MatchIndex(registry), LikelyIndex(registry)
    per_request = []
    for query in requests:  # what `match` does for a request, indexes built
        t0 = time.perf_counter()
        match(registry, query, index=index)
        rank_likely(likely, query)
        per_request.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    report = run_suite(suite, registry, index=index, likely_index=likely)
    suite_s = time.perf_counter() - t0
    assert len(report.results) == cases
    request_ms = statistics.median(per_request) * 1000
    case_ms = suite_s * 1000 / cases
    return {"skills": count, "cases": cases, "request_ms": request_ms, "case_ms": case_ms}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--cases", type=int, default=1_000)
    args = parser.parse_args(argv)
    got = run(args.count, args.cases)
    ratio = got["case_ms"] / got["request_ms"]
    print(
        f"{got['skills']:,} skills, {got['cases']:,} cases: a case {got['case_ms']:.2f} ms "
        f"(mean), a match request {got['request_ms']:.2f} ms (median): {ratio:.2f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
