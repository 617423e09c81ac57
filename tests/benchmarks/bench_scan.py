"""Scan + validate benchmark (issue 2 / docs/performance.md, first row).

Measured in one run, on the same synthetic folder:
  floor     a Python process that walks the tree and reads every SKILL.md
  lint      the whole `skillstudio lint --format json` process
  ref       skills-ref 0.1.1's in-process `validate()` over every skill folder
  rescan    Registry.refresh() after one file changed, against a full scan
Prints medians of `repeat` runs and the ratios; it asserts nothing (machines are noisy).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from tests.benchmarks.synth import generate  # noqa: E402

FLOOR = r"""
import os, sys
total = 0
for dirpath, dirnames, filenames in os.walk(sys.argv[1]):
    if "SKILL.md" in filenames:
        with open(os.path.join(dirpath, "SKILL.md"), "rb") as fh:
            total += len(fh.read())
print(total)
"""

REF = r"""
import os, sys, time
from pathlib import Path
from skills_ref.validator import validate
root = sys.argv[1]
dirs = sorted(os.path.join(root, d) for d in os.listdir(root))
start = time.perf_counter()
for d in dirs:
    validate(Path(d))
print(time.perf_counter() - start)
"""


@dataclass
class ScanResult:
    count: int
    floor: float
    lint: float
    ref: float | None
    full_scan: float
    rescan: float

    def rows(self) -> list[tuple[str, str, str]]:
        out = [
            ("files read (floor), whole process", f"{self.floor:.3f} s", ""),
            (
                "skillstudio lint --format json, whole process",
                f"{self.lint:.3f} s",
                f"{self.lint / self.floor:.2f} × floor (target ≤ 3)",
            ),
        ]
        if self.ref is not None:
            out.append(
                (
                    "skills-ref 0.1.1 validate(), in-process",
                    f"{self.ref:.3f} s",
                    f"lint is {self.ref / self.lint:.1f} × faster (target ≥ 25)",
                )
            )
        out += [
            ("Registry.scan(), in-process", f"{self.full_scan:.3f} s", ""),
            (
                "Registry.refresh() after one file changed",
                f"{self.rescan * 1000:.1f} ms",
                f"{100 * self.rescan / self.full_scan:.1f} % of a full scan (target < 5 %)",
            ),
        ]
        return out


def _time(cmd: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run(
    count: int, repeat: int = 3, ref_python: str | None = None, workdir: str | None = None
) -> ScanResult:
    from skillstudio.core.projects.project import project_from_folder

    base = workdir or tempfile.mkdtemp(prefix="skillstudio-bench-")
    project_dir = os.path.join(base, f"synthetic-{count}")
    if not os.path.isdir(project_dir):
        generate(project_dir, count)
    root = os.path.join(project_dir, "key_skills")
    py = sys.executable
    _time([py, "-c", FLOOR, root], 1)  # warm the page cache
    # --no-cache: the scan itself (bench_cache.py measures the cache of what was read)
    lint_cmd = [py, "-m", "skillstudio", "lint", "--format", "json", "--project", project_dir]
    lint_cmd.append("--no-cache")
    # Interleaved, so that drift in the machine's speed hits both sides alike.
    floors, lints = [], []
    for _ in range(repeat):
        floors.append(_time([py, "-c", FLOOR, root], 1))
        lints.append(_time(lint_cmd, 1))
    floor, lint = statistics.median(floors), statistics.median(lints)
    ref: float | None = None
    if ref_python:
        proc = subprocess.run([ref_python, "-c", REF, root], capture_output=True, text=True)
        if proc.returncode == 0:
            ref = float(proc.stdout.strip())
    project = project_from_folder(project_dir)
    registry = project.registry()
    victim = None
    scans, rescans = [], []
    for index in range(repeat):
        start = time.perf_counter()
        registry.scan()
        scans.append(time.perf_counter() - start)
        victim = victim or registry.skills[len(registry.skills) // 2].path
        with open(victim, "a", encoding="utf-8") as fh:
            fh.write(f"\nEdit {index}.\n")
        os.utime(victim, ns=(time.time_ns(), time.time_ns() + (index + 1) * 10**9))
        start = time.perf_counter()
        changed = registry.refresh()
        rescans.append(time.perf_counter() - start)
        assert changed.changed == [victim], changed
    full = statistics.median(scans)
    return ScanResult(count, floor, lint, ref, full, statistics.median(rescans))


def report(result: ScanResult) -> str:
    lines = [f"Scan + validate, {result.count:,} synthetic skills"]
    width = max(len(r[0]) for r in result.rows())
    for label, value, ratio in result.rows():
        lines.append(f"  {label:<{width}}  {value:>10}  {ratio}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workdir")
    args = parser.parse_args(argv)
    result = run(args.count, args.repeat, os.environ.get("SKILLS_REF_PYTHON"), args.workdir)
    print(report(result))
    return result.__dict__


if __name__ == "__main__":
    main()
