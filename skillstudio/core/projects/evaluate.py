"""Measure how well a ranking guesses the skill a user's request needs.

A request set is a YAML file (tests/eval/README.md describes the format):

    corpus: path/to/skills        # relative to the file; or give --root
    cases:
      - query: "write pytest tests with fixtures for this function"
        expect_likely: [python-testing-patterns]
        kind: direct              # direct | paraphrase | none
      - query: "what's the weather in Lisbon tomorrow"
        expect_likely: none

For each of three rankings, measured in the same run on the same registry, it
reports top-1 and top-3 accuracy over the cases that expect a skill (a case
passes when one of its acceptable skills comes first, or among the first
three), how often an acceptable skill is in the likely band, over the `none` cases
the share showing no likely skill, and over the cases marked `clear: true` (a person
sees the right skill at once) how often an acceptable skill is likely:

- `word count`: the heuristic of core/ranking/matching.py (one point per description
  word, twenty for the name); it has no bands, so "no likely skill" means no
  skill scored at all;
- `plain BM25`: one field of name and description, no stemming, no field
  weights, the same band cut-off;
- `likely`: the ranking of core/ranking/likely_ranking.py, as `match`, suites and the app use
  it: name, description (and when_to_use, triggers, argument-hint where the
  profile has them), their phrases, and the body's gist at a low weight;
- `fields only`: the same without the body's gist (what the model itself reads
  when it chooses), to show what the body brings.

Figures are given for the whole set and for its two halves (even-numbered
cases, which the ranking's weights were tuned on, and odd-numbered ones,
held out). Run: `python -m skillstudio.core.projects.evaluate SET.yaml [--root DIR]
[--profile NAME] [--project] [--format json] [--misses]`; `--project` ranks the folder
as `match` does in it (what the listing shows, the agent's own skills beside the
folder's).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import yaml

from ..model.text import counted
from ..ranking.estimate import FIELDS_MODEL, LIKELY_MODEL, PLAIN_BM25, Model
from ..ranking.likely_index import LikelyIndex
from ..ranking.likely_ranking import rank_likely
from ..ranking.match_index import MatchIndex
from ..ranking.matching import match
from ..reading import yaml_io
from ..reading.safefs import read_bytes
from ..scanning.registry import Registry

if TYPE_CHECKING:
    from .project import Project

MAX_SET_BYTES = 4 * 1024 * 1024


class SetError(Exception):
    """The request set cannot be read: the message says why."""


@dataclass(frozen=True, slots=True)
class Case:
    query: str
    expect: tuple[str, ...]  # empty: no skill should serve it
    kind: str
    number: int  # position in the file, from 0
    clear: bool = False  # a person sees the right skill at once (`clear: true`)


def load_set(path: str) -> tuple[list[Case], str | None]:
    """The cases of a request set and its corpus folder (absolute), if it names one."""
    try:
        text = read_bytes(path, None, MAX_SET_BYTES).decode("utf-8")
        data = yaml_io.load(text, yaml_io.SUITE)
    except yaml_io.YamlRefused as exc:
        raise SetError(f"{path}:{exc.line}:{exc.column}: {exc.message}") from None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise SetError(f"{path}: cannot be read ({exc.__class__.__name__}: {exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise SetError(f"{path}: expected a mapping with a 'cases' list")
    cases: list[Case] = []
    for number, item in enumerate(data["cases"]):
        if not isinstance(item, dict) or not isinstance(item.get("query"), str):
            raise SetError(f"{path}: case {number + 1} needs a 'query' text")
        expect = item.get("expect_likely")
        if expect == "none" or expect is None:
            names: tuple[str, ...] = ()
        elif isinstance(expect, str):
            names = (expect,)
        elif isinstance(expect, list) and all(isinstance(n, str) for n in expect):
            names = tuple(expect)
        else:
            raise SetError(f"{path}: case {number + 1}: expect_likely is a name, a list or none")
        kind = str(item.get("kind") or "direct")
        clear = item.get("clear") is True and bool(names)
        cases.append(Case(item["query"], names, "none" if not names else kind, number, clear))
    corpus = data.get("corpus")
    folder = None
    if isinstance(corpus, str):
        folder = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), corpus))
    return cases, folder


Ranker = Callable[[str], tuple[list[str], list[str]]]  # query -> (top 3, the likely ones)


def word_count_ranker(registry: Registry) -> Ranker:
    index = MatchIndex(registry)

    def rank(query: str) -> tuple[list[str], list[str]]:
        result = match(registry, query, index=index)
        names = [c.name for c in result.candidates[:3]]
        return names, names  # no bands: whatever scores counts as likely

    return rank


def likely_ranker(
    registry: Registry, model: Model = LIKELY_MODEL, index: LikelyIndex | None = None
) -> Ranker:
    """The likely ranking over `registry` (`index`: one built already, e.g. the one a
    project's `match` reads, with the listing's view and the agent's own skills)."""
    index = index or LikelyIndex(registry, model)

    def rank(query: str) -> tuple[list[str], list[str]]:
        result = rank_likely(index, query, top=3)
        return [c.name for c in result.candidates], [c.name for c in result.likely]

    return rank


RANKERS: tuple[tuple[str, Callable[[Registry], Ranker]], ...] = (
    ("word count", word_count_ranker),
    ("plain BM25", lambda registry: likely_ranker(registry, PLAIN_BM25)),
    ("likely", likely_ranker),
    ("fields only", lambda registry: likely_ranker(registry, FIELDS_MODEL)),
)


@dataclass(slots=True)
class Tally:
    top1: int = 0
    top3: int = 0
    expecting: int = 0
    in_likely: int = 0
    none_ok: int = 0
    nones: int = 0
    clear_ok: int = 0  # clear cases with an acceptable skill in the likely band
    clears: int = 0

    def add(self, case: Case, names: list[str], likely: list[str]) -> None:
        if not case.expect:
            self.nones += 1
            self.none_ok += not likely
            return
        self.expecting += 1
        self.in_likely += any(n in case.expect for n in likely)
        if case.clear:
            self.clears += 1
            self.clear_ok += any(n in case.expect for n in likely)
        self.top1 += bool(names) and names[0] in case.expect
        self.top3 += any(n in case.expect for n in names[:3])

    def to_json(self) -> dict[str, Any]:
        def share(a: int, b: int) -> float | None:
            return round(100 * a / b, 1) if b else None

        return {
            "top1": share(self.top1, self.expecting),
            "top3": share(self.top3, self.expecting),
            "in_likely": share(self.in_likely, self.expecting),
            "no_likely": share(self.none_ok, self.nones),
            "clear_likely": share(self.clear_ok, self.clears),
            "cases": self.expecting,
            "none_cases": self.nones,
            "clear_cases": self.clears,
        }


SPLITS: tuple[tuple[str, Callable[[Case], bool]], ...] = (
    ("all", lambda c: True),
    ("tuned (even)", lambda c: c.number % 2 == 0),
    ("held out (odd)", lambda c: c.number % 2 == 1),
    ("direct", lambda c: c.kind == "direct"),
    ("paraphrase", lambda c: c.kind == "paraphrase"),
)


def evaluate(
    registry: Registry,
    cases: Sequence[Case],
    misses: list[str] | None = None,
    likely_index: LikelyIndex | None = None,
) -> dict[str, Any]:
    """{ranking: {split: figures}} plus each ranking's median time per request
    (`likely_index`: the index the `likely` ranking reads, when not a plain one of
    `registry`: `--project`)."""
    report: dict[str, Any] = {
        "skills": len(registry.active),
        "requests": len(cases),
        "rankings": {},
    }
    for label, make in RANKERS:
        if label == "likely" and likely_index is not None:
            rank = likely_ranker(registry, index=likely_index)
        else:
            rank = make(registry)
        tallies = {split: Tally() for split, _ in SPLITS}
        times: list[float] = []
        for case in cases:
            start = time.perf_counter()
            names, likely = rank(case.query)
            times.append(time.perf_counter() - start)
            for split, chosen in SPLITS:
                if chosen(case):
                    tallies[split].add(case, names, likely)
            if misses is not None and label == "likely":
                wrong = (
                    bool(likely) if not case.expect else not any(n in case.expect for n in names)
                )
                if wrong:
                    misses.append(
                        f"#{case.number} [{case.kind}] {case.query!r}: "
                        f"expected {list(case.expect) or 'none'}, got {names}"
                    )
        times.sort()
        report["rankings"][label] = {
            "median_ms": round(1000 * times[len(times) // 2], 3) if times else None,
            **{split: tally.to_json() for split, tally in tallies.items()},
        }
    return report


def format_report(report: dict[str, Any]) -> str:
    requests, skills = counted(report["requests"], "request"), counted(report["skills"], "skill")
    lines = [f"{requests} over {skills}"]
    header = (
        f"{'ranking':<12} {'split':<16} {'top-1':>6} {'top-3':>6} {'in likely':>10} "
        f"{'no likely':>10} {'clear lik.':>10}"
    )
    lines.append(header)

    def pct(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}%"

    for label, splits in report["rankings"].items():
        for split, _ in SPLITS:
            fig = splits[split]
            lines.append(
                f"{label:<12} {split:<16} {pct(fig['top1']):>6} {pct(fig['top3']):>6} "
                f"{pct(fig['in_likely']):>10} {pct(fig['no_likely']):>10} "
                f"{pct(fig['clear_likely']):>10}"
            )
        lines.append(f"{label:<12} median {splits['median_ms']} ms per request")
    return "\n".join(lines)


def project_index(project: Project, registry: Registry) -> LikelyIndex | None:
    """The likely index `match` reads in `project` (the listing's view, the agent's own
    skills); None where the profile's model does not choose."""
    from .open_project import OpenProject

    return OpenProject(project, registry).likely_index()


def main(argv: Sequence[str] | None = None) -> int:
    from .project import UsageError, project_from_folder

    parser = argparse.ArgumentParser(
        prog="python -m skillstudio.core.projects.evaluate",
        description="Top-1, top-3 and no-likely-skill accuracy of three rankings on a request set.",
    )
    parser.add_argument("set", help="the request set (YAML; see tests/eval/README.md)")
    parser.add_argument("--root", help="the skills folder (default: the set's 'corpus')")
    parser.add_argument("--profile", default="agentskills")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--misses", action="store_true", help="list the likely ranking's misses")
    parser.add_argument(
        "--project",
        action="store_true",
        help="rank as `match` does in the folder as a project: what its listing shows of "
        "each skill and the agent's own skills beside them (the `likely` ranking only)",
    )
    args = parser.parse_args(argv)
    try:
        cases, corpus = load_set(args.set)
        folder = args.root or corpus
        if not folder or not os.path.isdir(folder):
            raise SetError(f"no skills folder: give --root (the set names {corpus!r})")
        project = project_from_folder(folder, args.profile)
    except (SetError, UsageError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    registry = project.registry()
    registry.scan()
    misses: list[str] | None = [] if args.misses else None
    index = project_index(project, registry) if args.project else None
    report = evaluate(registry, cases, misses, index)
    if args.format == "json":
        print(json.dumps(report, indent=2))
    else:
        print(format_report(report))
        for line in misses or []:
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
