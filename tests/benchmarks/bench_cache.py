"""The cache of what was read (issue 27 / docs/performance.md): cold against warm `lint`
and `match` on a synthetic repository of 3,000 skills, against a process that only
stats the same files, all in one run.

  stat      a Python process that walks the tree and stats every SKILL.md
  cold      the command with an empty cache folder (reads every file, writes the cache)
  warm      the same command again (median of `repeat` runs)
  no-cache  the command with --no-cache (every file read, nothing written: main before)
  1 edited  the command after one SKILL.md was edited (that file read again, the other
            states from the cache, the command run: no recording holds)
  warm is the command served from its recording (cli/replay.py) once a run recorded it.

for the synthetic oasis project, and the same folder read as agentskills (where the
model chooses: gists, likely candidates, overlap notes). Each command gets a cache
folder of its own, so that each cold run is cold. It prints medians and ratios and
asserts nothing (machines are noisy).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from tests.benchmarks.synth import generate  # noqa: E402

STAT = r"""
import os, sys
count = 0
for dirpath, dirnames, filenames in os.walk(sys.argv[1]):
    if "SKILL.md" in filenames:
        os.stat(os.path.join(dirpath, "SKILL.md"))
        count += 1
print(count)
"""
QUERY = "review the deploy and write the changelog"
SETTLED_S = 2.1  # the cache keeps no file changed within 2 s of its reading (RACY_NS)


@dataclass
class Figures:
    """One command under one profile: seconds, whole process."""

    cold: float
    warm: float
    no_cache: float
    edited: float = 0.0  # after one SKILL.md was edited: that skill read, the rest from the cache


@dataclass
class CacheResult:
    count: int
    stat: float
    figures: dict[str, Figures] = field(default_factory=dict)  # "lint oasis" -> figures

    def worst_warm(self, profile: str) -> float:
        return max(f.warm for name, f in self.figures.items() if name.endswith(profile))


def _time(cmd: list[str], env: dict[str, str], cwd: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env, cwd=cwd
    )
    return time.perf_counter() - start


def _touch(root: str, index: int) -> None:
    """One SKILL.md edited (a line added to its body), as an author saving one skill."""
    folders = sorted(d for d, _, f in os.walk(root) if "SKILL.md" in f)
    with open(os.path.join(folders[index % len(folders)], "SKILL.md"), "a") as out:
        out.write("\nOne more line.\n")


def _settle(root: str) -> None:
    """Wait until the newest file is older than the cache's racy window."""
    newest = max(
        os.stat(os.path.join(d, "SKILL.md")).st_ctime
        for d, _, f in os.walk(root)
        if "SKILL.md" in f
    )
    time.sleep(max(0.0, newest + SETTLED_S - time.time()))


def run(count: int = 3000, repeat: int = 5, workdir: str | None = None) -> CacheResult:
    base = workdir or tempfile.mkdtemp(prefix="skillstudio-bench-")
    project = os.path.join(base, f"synthetic-{count}")
    if not os.path.isdir(project):
        generate(project, count)
    root = os.path.join(project, "key_skills")
    _settle(root)
    py = sys.executable
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(HERE)), env.get("PYTHONPATH", "")]
    ).rstrip(os.pathsep)
    _time([py, "-c", STAT, root], env, project)  # warm the page cache
    stats = [_time([py, "-c", STAT, root], env, project) for _ in range(repeat)]
    result = CacheResult(count, statistics.median(stats))
    commands = {"lint": ["lint", "--format", "json"], "match": ["match", QUERY, "--format", "json"]}
    for profile in ("oasis", "agentskills"):
        for name, args in commands.items():
            cmd = [py, "-m", "skillstudio", *args, "--profile", profile]
            own = dict(env, XDG_CACHE_HOME=tempfile.mkdtemp(prefix="cache-", dir=base))
            cold = _time(cmd, own, project)
            _settle(root)  # (the cold run read every file: none changed since)
            _time(cmd, own, project)  # the run that records the command (cli/replay.py)
            warm, bare, edited = [], [], []
            for _ in range(repeat):  # interleaved: drift in the machine's speed hits both
                warm.append(_time(cmd, own, project))
                bare.append(_time([*cmd, "--no-cache"], own, project))
            for index in range(repeat):  # last: an edit ends what the recording holds
                _touch(root, index)
                edited.append(_time(cmd, own, project))
            result.figures[f"{name} {profile}"] = Figures(
                cold, statistics.median(warm), statistics.median(bare), statistics.median(edited)
            )
            _settle(root)
    return result


def report(result: CacheResult) -> str:
    lines = [
        f"Cache of what was read, {result.count:,} synthetic skills (whole processes, medians)",
        f"  a process that only stats every SKILL.md: {result.stat:.3f} s",
        f"  {'command':<20} {'no cache':>9} {'cold':>9} {'1 edited':>9} {'warm':>9}"
        "  warm vs stat-only",
    ]
    for name, fig in result.figures.items():
        lines.append(
            f"  {name:<20} {fig.no_cache:>7.3f} s {fig.cold:>7.3f} s {fig.edited:>7.3f} s "
            f"{fig.warm:>7.3f} s  {fig.warm / result.stat:.1f} × (target ≤ 0.5 s and ≤ 2 ×)"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workdir")
    args = parser.parse_args(argv)
    result = run(args.count, args.repeat, args.workdir)
    print(report(result))
    return {"count": result.count, "stat": result.stat, **result.figures}


if __name__ == "__main__":
    main()
