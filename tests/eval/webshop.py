"""The web shop's requests (webshop_requests.yaml) in the project they were written for.

A small web shop whose author keeps seven corpus skills in `.claude/skills`: this
builds that project in a temporary folder from the shared corpus (each skill's folder
copied whole) and runs the set under the claude-code profile, where the model chooses
from the listing, through the evaluator the other sets use
(skillstudio.core.projects.evaluate), its `likely` ranking reading the project as
`match` does there (`--project`: the listing's view, Claude Code's own skills beside
the seven). It prints the evaluator's table, then the reviewer's count: the first
likely skill is the expected one, or no skill is likely where none serves. Without the
corpus it says so and exits 0.

    PYTHONPATH=. .venv/bin/python tests/eval/webshop.py [--misses] [--format json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from skillstudio.core.projects.evaluate import (  # noqa: E402
    Case,
    evaluate,
    format_report,
    load_set,
    project_index,
)
from skillstudio.core.projects.project import project_from_folder  # noqa: E402
from skillstudio.core.ranking.likely_index import LikelyIndex  # noqa: E402
from skillstudio.core.ranking.likely_ranking import rank_likely  # noqa: E402
from skillstudio.core.scanning.registry import Registry  # noqa: E402

SET = os.path.join(HERE, "webshop_requests.yaml")
PROFILE = "claude-code"
# the project's skills: (collection folder of the corpus, the skill's folder inside it)
SKILLS = (
    ("obra-superpowers/skills", "systematic-debugging"),
    ("obra-superpowers/skills", "test-driven-development"),
    ("obra-superpowers/skills", "writing-plans"),
    ("obra-superpowers/skills", "requesting-code-review"),
    ("obra-superpowers/skills", "brainstorming"),
    ("anthropics-skills", "webapp-testing"),
    ("anthropics-skills", "frontend-design"),
)


def build_project(corpus: str, folder: str) -> str:
    """The web shop's project in `folder` (its seven skills copied from `corpus` into
    .claude/skills, an app.py beside them); returns `folder`. Raises FileNotFoundError
    when the corpus lacks one of them."""
    skills = os.path.join(folder, ".claude", "skills")
    os.makedirs(skills, exist_ok=True)
    for collection, name in SKILLS:
        source = os.path.join(corpus, collection, name)
        if not os.path.isfile(os.path.join(source, "SKILL.md")):
            raise FileNotFoundError(source)
        shutil.copytree(source, os.path.join(skills, name), symlinks=True)
    with open(os.path.join(folder, "app.py"), "w", encoding="utf-8") as out:
        out.write("# the shop's app\n")
    return folder


def open_project(folder: str) -> tuple[Registry, LikelyIndex]:
    """The project in `folder` read under PROFILE, and the likely index `match` reads
    there: what the listing shows of each skill, Claude Code's own skills beside them."""
    project = project_from_folder(folder, PROFILE)
    registry = project.registry()
    registry.scan()
    index = project_index(project, registry)
    assert index is not None  # (the model chooses under claude-code)
    return registry, index


def picks(index: LikelyIndex, cases: Sequence[Case]) -> tuple[int, list[str]]:
    """How many cases the likely ranking gets right as the reviewer counts it (the first
    likely skill is an acceptable one; a `none` case: no likely skill), and a line per
    case: its first candidate with band and chance, marked where it is wrong."""
    right, lines = 0, []
    for case in cases:
        result = rank_likely(index, case.query, top=3)
        likely = result.likely
        ok = likely[0].name in case.expect if case.expect and likely else not likely
        ok = ok and bool(case.expect) == bool(likely)
        right += ok
        first = result.candidates[0] if result.candidates else None
        got = (
            f"{first.name} {first.band} {100 * (first.chance or 0):.0f} %"
            if first is not None
            else "nothing ranked"
        )
        want = ", ".join(case.expect) or "none"
        lines.append(f"{'  ' if ok else 'x '}#{case.number} {case.query!r}: {want} <- {got}")
    return right, lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--misses", action="store_true", help="list the likely ranking's misses")
    args = parser.parse_args(argv)
    cases, corpus = load_set(SET)
    if not corpus or not os.path.isdir(corpus):
        print(f"skipped: no corpus at {corpus}")
        return 0
    with tempfile.TemporaryDirectory(prefix="webshop-") as tmp:
        registry, index = open_project(build_project(corpus, tmp))
        misses: list[str] | None = [] if args.misses else None
        report = evaluate(registry, cases, misses, index)
        right, lines = picks(index, cases)
    report["right_pick_or_none"] = right
    if args.format == "json":
        print(json.dumps(report, indent=2))
    else:
        print(format_report(report))
        total = len(cases)
        print(f"first likely skill right, or none likely where none serves: {right} of {total}")
        print("\n".join(lines))
        for line in misses or []:
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
