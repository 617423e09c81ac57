"""`lint --profile all` against one `lint`, and the first `list` after a `lint`
(issue 38), on a generated catalogue of 134 Agent Skills skills: the CPU time of
whole processes (user + system), steadier than wall time on a shared machine.

The catalogue: `catalogue/<category>/<skill>/SKILL.md` (134 skills in 6 categories,
each with a 3-12 KB body and a `references/guide.md` of about 16 KB: what the body
gist reads), beside one `.claude/skills/<skill>` the project's root reads. Two
figures, medians of `repeat` runs:

  all/lint     `lint --profile all` / `lint`, both cold (`--no-cache`), run in the
               project (the catalogue's skills are answered for under --profile all)
               and on the catalogue given as the path (every skill checked by both);
               target ≤ 2 ×
  list/lint    the first `list` after a `lint` that recorded its states, against a
               `lint` served from those states (output not recorded: another format);
               target ≈ 1 × (one recorded result serves both), and against a cold `list`

Usage: python tests/benchmarks/bench_profiles.py [--count 134] [--repeat 3] [--workdir D]
Nothing is asserted (machines are noisy).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from tests.benchmarks.synth import _sentence, word  # noqa: E402

CATEGORIES = ("analysis", "biology", "chemistry", "data", "imaging", "writing")
SETTLED_S = 2.1  # the state cache keeps no file changed within 2 s of its reading


def generate(target: str, count: int = 134, seed: int = 38) -> str:
    """The project folder: the catalogue and one skill the root reads."""
    rng = random.Random(seed)
    for index in range(count):
        name = f"{word(rng)}-{word(rng)}-{index}".lower()
        folder = os.path.join(target, "catalogue", CATEGORIES[index % len(CATEGORIES)], name)
        os.makedirs(os.path.join(folder, "references"), exist_ok=True)
        lines = [f"# {name}", ""]
        for step in range(rng.randint(40, 140)):
            lines.append("## " + _sentence(rng, 2, 5) if step % 9 == 0 else _sentence(rng, 8, 30))
            lines.append("")
        lines.append("Read [the guide](references/guide.md) before you start.")
        text = (
            f"---\nname: {name}\ndescription: Handles {word(rng)} and {word(rng)} records. "
            f"Use when the user asks to {word(rng)} them.\n---\n\n" + "\n".join(lines) + "\n"
        )
        with open(os.path.join(folder, "SKILL.md"), "w", encoding="utf-8") as fh:
            fh.write(text)
        guide = " ".join(word(rng) for _ in range(2500))
        with open(os.path.join(folder, "references", "guide.md"), "w", encoding="utf-8") as fh:
            fh.write("# Guide\n\n" + guide + "\n")
    own = os.path.join(target, ".claude", "skills", "one")
    os.makedirs(own, exist_ok=True)
    with open(os.path.join(own, "SKILL.md"), "w", encoding="utf-8") as fh:
        fh.write("---\nname: one\ndescription: Sorts the inbox. Use when asked to.\n---\nSort.\n")
    time.sleep(SETTLED_S)  # (settled: the state cache keeps what it reads)
    return target


@dataclass
class ProfilesResult:
    count: int
    lint: float  # in the project, cold
    every: float  # --profile all in the project, cold
    lint_path: float  # the catalogue given as the path, cold
    every_path: float
    warm_lint: float  # served from recorded states
    first_list: float  # the first list after that lint
    cold_list: float

    def ratios(self) -> dict[str, float]:
        return {
            "all/lint (project)": self.every / self.lint,
            "all/lint (catalogue path)": self.every_path / self.lint_path,
            "first list/warm lint": self.first_list / self.warm_lint,
            "first list/cold list": self.first_list / self.cold_list,
        }


def _time(cmd: list[str], env: dict[str, str], cwd: str) -> float:
    """The process's CPU time (user + system; wall time where the system gives none):
    on a machine shared with other jobs it moves far less than the wall clock."""
    try:
        import resource
    except ImportError:  # (not on Windows)
        resource = None  # type: ignore[assignment]
    before = resource.getrusage(resource.RUSAGE_CHILDREN) if resource else None
    start = time.perf_counter()
    subprocess.run(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env, cwd=cwd
    )
    if resource is None or before is None:
        return time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run(count: int = 134, repeat: int = 3, workdir: str | None = None) -> ProfilesResult:
    base = workdir or tempfile.mkdtemp(prefix="skillstudio-bench-")
    project = os.path.join(base, f"catalogue-{count}")
    if not os.path.isdir(project):
        generate(project, count)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(HERE)), env.get("PYTHONPATH", "")]
    ).rstrip(os.pathsep)
    tool = [sys.executable, "-m", "skillstudio"]

    def cold(*args: str) -> float:
        return statistics.median(
            _time([*tool, *args, "--no-cache"], env, project) for _ in range(repeat)
        )

    lint, every = cold("lint"), cold("lint", "--profile", "all")
    lint_path = cold("lint", "catalogue")
    every_path = cold("lint", "catalogue", "--profile", "all")
    warm, first = [], []
    for _ in range(repeat):
        own = dict(env, XDG_CACHE_HOME=tempfile.mkdtemp(prefix="cache-", dir=base))
        _time([*tool, "lint", "catalogue", "--format", "json"], own, project)  # records states
        warm.append(_time([*tool, "lint", "catalogue"], own, project))  # states, not output
        first.append(_time([*tool, "list", "catalogue"], own, project))
    return ProfilesResult(
        count,
        lint,
        every,
        lint_path,
        every_path,
        statistics.median(warm),
        statistics.median(first),
        cold("list", "catalogue"),
    )


def report(result: ProfilesResult) -> str:
    lines = [
        f"--profile all and shared recorded results, a catalogue of {result.count} skills "
        "(CPU seconds of whole processes, medians)",
        f"  lint {result.lint:.3f} s, lint --profile all {result.every:.3f} s (in the project)",
        f"  lint {result.lint_path:.3f} s, lint --profile all {result.every_path:.3f} s "
        "(the catalogue as the path)",
        f"  lint from recorded states {result.warm_lint:.3f} s, first list after it "
        f"{result.first_list:.3f} s, cold list {result.cold_list:.3f} s",
    ]
    targets = {"all/lint": "≤ 2 ×", "first list/warm lint": "≈ 1 ×"}
    for name, value in result.ratios().items():
        target = next((t for key, t in targets.items() if name.startswith(key)), "")
        lines.append(f"  {name:<28} {value:5.2f} ×  {f'(target {target})' if target else ''}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=134)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workdir")
    args = parser.parse_args(argv)
    result = run(args.count, args.repeat, args.workdir)
    print(report(result))
    return {"count": result.count, **result.ratios()}


if __name__ == "__main__":
    main()
