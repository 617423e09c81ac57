"""Overlap and lint on adversarial descriptions (docs/performance.md: bounded pairs,
≤ 3 s and ≤ 300 MB at 3,000 skills), against `list` of the same folder in the same run.

    python tests/benchmarks/bench_overlap.py [--counts 3000 10000] [--workdir DIR] [--normal]
                                             [--against CHECKOUT]

Each folder is made by `synth.generate_adversarial` (every word of every description
in exactly 100 skills, the posting cap of overlap's candidate search: issue 25, item 7)
and, as a second hostile shape, `synth.generate_copies` (the same description in
every skill: issue 25, item 6). `--normal` adds `overlap` of the realistic synthetic
skills (target at 10,000: ≤ 10 s). Each command runs in a process of its own, as a
user runs it: wall time, and peak RSS from `wait4`. `--against` runs the same
commands with another checkout's code (main, before a change) in the same run, each
command of the two in turn. Prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, REPO)

from tests.benchmarks.synth import generate, generate_adversarial, generate_copies  # noqa: E402


@dataclass
class Figure:
    code: str  # "this" checkout, or the one measured against
    folder: str  # adversarial, copies or normal
    count: int
    command: str
    seconds: float
    peak_mb: float
    last_line: str  # what the command said last (the pair count, or what was bounded)


def measure(argv: list[str], code: str = REPO) -> tuple[float, float, str]:
    """(wall seconds, peak RSS in MB, the output's last line) of `skillstudio ARGV`,
    run with the checkout `code`."""
    env = dict(os.environ, PYTHONPATH=code)
    cmd = [sys.executable, "-m", "skillstudio", *argv]
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        lines = out.read().decode("utf-8", "replace").strip().splitlines()
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(argv)} exited {proc.returncode}: {lines[-5:]}")
    peak = usage.ru_maxrss / 1024  # kilobytes on Linux
    return seconds, peak, lines[-1] if lines else ""


def run_folder(
    kind: str, count: int, root: str, commands: tuple[str, ...], codes: dict[str, str]
) -> list[Figure]:
    """The commands on one folder, `list` first, each under every checkout in turn."""
    scope = ["--profile", "agentskills"]
    out = []
    for command in commands:
        where = ["--root", root] if command == "list" else [root]  # (list takes no PATH)
        for label, code in codes.items():
            seconds, peak, last = measure([command, *where, *scope], code)
            out.append(Figure(label, kind, count, command, seconds, peak, last))
    return out


def run(
    counts: list[int], workdir: str, normal: bool = False, against: str | None = None
) -> list[Figure]:
    codes = {"this": REPO} | ({"against": os.path.abspath(against)} if against else {})
    figures: list[Figure] = []
    for count in counts:
        for kind, make in (("adversarial", generate_adversarial), ("copies", generate_copies)):
            folder = os.path.join(workdir, f"{kind}-{count}")
            root = os.path.join(folder, "skills")
            if not os.path.isdir(root):
                make(folder, count)
            measure(["list", "--root", root])  # read once: every command finds it cached
            figures += run_folder(kind, count, root, ("list", "lint", "overlap"), codes)
        if normal:
            folder = os.path.join(workdir, f"synthetic-{count}")
            root = os.path.join(folder, "key_skills")
            if not os.path.isdir(root):
                generate(folder, count)
            measure(["list", "--root", root])
            figures += run_folder("normal", count, root, ("list", "overlap"), codes)
    return figures


def report(figures: list[Figure]) -> str:
    lines = [
        "Overlap and lint on hostile descriptions (each a process of its own; "
        "target at 3,000: ≤ 3 s and ≤ 300 MB; overlap of 10,000 normal skills ≤ 10 s)",
        f"  {'code':<8} {'folder':<12} {'skills':>7} {'command':<8} {'time':>8} "
        f"{'peak RSS':>9} {'× list':>7}  last line",
    ]
    lists = {(f.code, f.folder, f.count): f.seconds for f in figures if f.command == "list"}
    for f in figures:
        base = lists.get((f.code, f.folder, f.count))
        ratio = f"{f.seconds / base:6.1f}×" if base else "      —"
        lines.append(
            f"  {f.code:<8} {f.folder:<12} {f.count:>7,} {f.command:<8} {f.seconds:>6.2f} s "
            f"{f.peak_mb:>6.0f} MB {ratio}  {f.last_line[:100]}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[3000, 10_000])
    parser.add_argument("--workdir", default=None, help="where the folders are made (kept)")
    parser.add_argument("--normal", action="store_true", help="overlap of normal skills too")
    parser.add_argument("--against", default=None, help="another checkout, run in turn")
    args = parser.parse_args(argv)
    workdir = args.workdir or tempfile.mkdtemp(prefix="skillstudio-bench-overlap-")
    print(report(run(args.counts, workdir, args.normal, args.against)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
