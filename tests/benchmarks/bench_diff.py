"""`diff` against one `lint` of the same tree (issue 40 / docs/performance.md): a
synthetic repository of 1,000 skills (claude-code, a suite of 20 cases) committed,
then one skill's description changed in the working tree; whole processes, in one run:

  lint --no-cache  every SKILL.md read and checked (a CI job with no cache)
  lint             the same with the cache of what was read warm (its second run)
  diff             HEAD (read from git's objects into a temporary folder; its skills
                   whose folders did not change lent from the working tree's reading)
                   against the working tree (through the cache of what was read, warm)
  diff --no-cache  the same, the working tree read whole (a CI job with no cache)

It prints medians and the ratio diff / lint and asserts nothing (machines are noisy).
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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from tests.benchmarks.synth import make_skill  # noqa: E402

SETTLED_S = 2.1


def _write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)


def build(target: str, count: int) -> list[str]:
    """`count` claude-code skills under .claude/skills, a suite, committed; the names."""
    rng = random.Random(7)
    names = []
    for index in range(count):
        ident, text = make_skill(rng, index)
        lines = [
            f"name: {ident}" if line.startswith("name: ") else line for line in text.split("\n")
        ]
        lines = [line for line in lines if not line.startswith(("id: ", "priority: "))]
        _write(os.path.join(target, ".claude", "skills", ident, "SKILL.md"), "\n".join(lines))
        names.append(ident)
    cases = "".join(
        f'  - query: "{name.split("-", 2)[2]} help"\n    expect_likely: {name}\n'
        for name in names[:: max(1, count // 20)][:20]
    )
    _write(os.path.join(target, "suites", "main.yaml"), f"cases:\n{cases}")
    _write(
        os.path.join(target, "skillstudio.yaml"),
        "profile: claude-code\nbundled_skills: false\nsuites: [suites/main.yaml]\n",
    )
    git = ["git", "-C", target, "-c", "user.name=b", "-c", "user.email=b@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "synthetic"], check=True)
    return names


def change_one(target: str, name: str) -> None:
    path = os.path.join(target, ".claude", "skills", name, "SKILL.md")
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    start = text.index("description: ")
    end = text.index("\n", start)
    text = text[:start] + "description: Formats changelog files for a release." + text[end:]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def _time(cmd: list[str], env: dict[str, str], cwd: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env, cwd=cwd
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-diff-") as tmp:
        repo = os.path.join(tmp, "repo")
        names = build(repo, args.count)
        change_one(repo, names[len(names) // 2])
        env = dict(os.environ)
        env["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
        env["CLAUDE_CONFIG_DIR"] = os.path.join(tmp, "no-claude-home")
        env["PYTHONPATH"] = os.pathsep.join(
            [os.path.dirname(os.path.dirname(HERE)), env.get("PYTHONPATH", "")]
        )
        py = [sys.executable, "-m", "skillstudio"]
        runs = {
            "lint --no-cache": [*py, "lint", "--no-cache", "--format", "json"],
            "lint": [*py, "lint", "--format", "json"],
            "diff --no-cache": [*py, "diff", "--no-cache", "--format", "json"],
            "diff": [*py, "diff", "--format", "json"],
        }
        time.sleep(SETTLED_S)  # the cache keeps no file changed within 2 s of its reading
        _time(runs["lint"], env, repo)  # the cache warm, as a second run finds it
        medians = {
            label: statistics.median(_time(cmd, env, repo) for _ in range(args.repeat))
            for label, cmd in runs.items()
        }
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"{args.count:,} skills, one description changed; load average {load:.1f}")
        for label, seconds in medians.items():
            print(f"  {label:<16} {seconds:6.2f} s")
        cold = medians["lint --no-cache"]
        print(f"  diff --no-cache / lint --no-cache: {medians['diff --no-cache'] / cold:.2f} x")
        print(f"  diff / lint --no-cache: {medians['diff'] / cold:.2f} x")
        print(f"  diff / lint (warm):     {medians['diff'] / medians['lint']:.2f} x")


if __name__ == "__main__":
    main()
