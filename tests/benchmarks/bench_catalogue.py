"""Issue 38's author's view at scale: `lint` of a catalogue
`cli-tool/components/skills/<category>/<skill>/SKILL.md` (900 skills in 30 categories,
a third of them one or two folders deeper) beside the repository's `.claude/commands`,
now checked whole (on main: the command alone and one `unreached` note per category).

  stat      a Python process that walks the tree and stats every SKILL.md
  cold      `lint` with an empty cache folder (reads every file, writes the cache)
  warm      `lint` again
  all cold  `lint --profile all` with an empty cache folder (every agent's answer, the
            in-place `unreached` notes)
  all warm  the same again

Each figure is the median of `repeat` runs (each cold run with a cache folder of its
own), in CPU seconds of the whole process (user + system: steadier than the wall clock
on a shared machine; bench_profiles.py measures the same way). It prints seconds and
ratios and asserts nothing (machines are noisy):

    PYTHONPATH=. python tests/benchmarks/bench_catalogue.py [SKILLS] [REPEAT]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from tests.benchmarks.bench_profiles import _time as cpu_time  # noqa: E402

STAT = r"""
import os, sys
count = 0
for dirpath, dirnames, filenames in os.walk(sys.argv[1]):
    if "SKILL.md" in filenames:
        os.stat(os.path.join(dirpath, "SKILL.md"))
        count += 1
print(count)
"""
CATEGORIES = 30
SETTLED_S = 2.1  # the cache keeps no file changed within 2 s of its reading
WORDS = (
    "review",
    "deploy",
    "migrate",
    "profile",
    "document",
    "translate",
    "index",
    "audit",
    "format",
    "bundle",
)


def write_catalogue(repo: str, count: int) -> int:
    """The catalogue of `count` skills (valid, varied words) and a `.claude/commands`
    file; returns how many SKILL.md were written."""
    os.makedirs(os.path.join(repo, ".git"), exist_ok=True)
    commands = os.path.join(repo, ".claude", "commands")
    os.makedirs(commands, exist_ok=True)
    with open(os.path.join(commands, "ship.md"), "w", encoding="utf-8") as fh:
        fh.write("---\ndescription: Ships the branch. Use when it is ready.\n---\n\nShip.\n")
    base = os.path.join(repo, "cli-tool", "components", "skills")
    for index in range(count):
        category = f"category-{index % CATEGORIES:02d}"
        verb, noun = WORDS[index % len(WORDS)], WORDS[(index // len(WORDS)) % len(WORDS)]
        name = f"{verb}-{noun}-{index:04d}"
        deeper = ["", "extra", os.path.join("extra", "more")][index % 3]
        folder = os.path.join(base, category, deeper, name)
        os.makedirs(folder, exist_ok=True)
        body = "\n".join(f"{n + 1}. Step {n + 1} of {name}: {verb} the {noun}." for n in range(40))
        with open(os.path.join(folder, "SKILL.md"), "w", encoding="utf-8") as fh:
            fh.write(
                f"---\nname: {name}\ndescription: Helps {verb} the {noun} of item {index} in "
                f"a project. Use when someone asks to {verb} {noun} number {index}.\n---\n\n"
                f"# {name}\n\n{body}\n"
            )
    return count


@dataclass
class Figures:
    count: int
    stat: float
    cold: float
    warm: float
    all_cold: float
    all_warm: float
    skills_checked: int


def _output(cmd: list[str], env: dict[str, str], cwd: str) -> str:
    done = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    return done.stdout


def run(count: int = 900, repeat: int = 3, workdir: str | None = None) -> Figures:
    base = tempfile.mkdtemp(prefix="bench-catalogue-", dir=workdir)
    repo = os.path.join(base, "templates")
    write_catalogue(repo, count)
    time.sleep(SETTLED_S)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(HERE)))
    py = sys.executable
    _output([py, "-c", STAT, repo], env, base)  # the page cache warm
    stat = statistics.median(cpu_time([py, "-c", STAT, repo], env, base) for _ in range(repeat))
    lint = [py, "-m", "skillstudio", "lint", repo]
    out = _output(lint, dict(env, XDG_CACHE_HOME=tempfile.mkdtemp(dir=base)), base)
    summary = out.strip().splitlines()[-1] if out.strip() else ""
    checked = int(summary.split(" ", 1)[0].replace(",", "")) if summary else 0
    figures: dict[str, float] = {}
    for key, extra in (("", []), ("all_", ["--profile", "all"])):
        colds, warms = [], []
        for _ in range(repeat):
            own = dict(env, XDG_CACHE_HOME=tempfile.mkdtemp(prefix="cache-", dir=base))
            colds.append(cpu_time([*lint, *extra], own, base))
            warms.append(cpu_time([*lint, *extra], own, base))
        figures[f"{key}cold"] = statistics.median(colds)
        figures[f"{key}warm"] = statistics.median(warms)
    return Figures(
        count + 1,
        stat,
        figures["cold"],
        figures["warm"],
        figures["all_cold"],
        figures["all_warm"],
        checked,
    )


def report(fig: Figures) -> str:
    floor = fig.stat or 1e-9
    lines = [
        f"catalogue of {fig.count:,} files ({fig.count - 1:,} SKILL.md in {CATEGORIES} "
        f"categories, one command): lint checked {fig.skills_checked:,} skills",
        f"  stat floor          {fig.stat:7.3f} s",
        f"  lint cold           {fig.cold:7.3f} s  {fig.cold / floor:6.1f} × floor",
        f"  lint warm           {fig.warm:7.3f} s  {fig.warm / floor:6.1f} × floor, "
        f"{fig.warm / fig.cold:.2f} of cold",
        f"  --profile all cold  {fig.all_cold:7.3f} s  {fig.all_cold / fig.cold:6.2f} × lint cold",
        f"  --profile all warm  {fig.all_warm:7.3f} s  {fig.all_warm / fig.warm:6.2f} × lint warm",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    count = int(argv[0]) if argv else 900
    repeat = int(argv[1]) if len(argv) > 1 else 3
    print(report(run(count, repeat)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
