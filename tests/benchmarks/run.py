"""Run every benchmark and print one report (figures and ratios from one run).

Usage: python tests/benchmarks/run.py [--count N] [--repeat R] [--workdir DIR]
skills-ref comparisons run when SKILLS_REF_PYTHON names an interpreter with
skills-ref 0.1.1 (scripts/dev.sh bench sets it up).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from tests.benchmarks import bench_gui, bench_match, bench_scan  # noqa: E402


def machine() -> str:
    cores = os.cpu_count() or 1
    return f"{platform.machine()}, {cores} cores, Python {platform.python_version()}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workdir")
    args = parser.parse_args()
    print(f"SkillStudio benchmarks on {machine()}")
    result = bench_scan.run(
        args.count, args.repeat, os.environ.get("SKILLS_REF_PYTHON"), args.workdir
    )
    print(bench_scan.report(result))
    for count in sorted({1000, args.count}):
        print(bench_match.report(bench_match.run(count, args.workdir)))
    for count in sorted({1000, args.count}):
        print(bench_gui.report(bench_gui.run(count, args.workdir)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
