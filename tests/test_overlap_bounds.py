"""Overlap's work is bounded (issue 25, item 7): descriptions in which every word is in
exactly the posting cap's number of skills made pairs by the million (55.7 s and 2.2 GB
at 10,000 skills). The bounds are counts, so they are asserted as counts here;
tests/benchmarks/bench_overlap.py measures the time and memory."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.model.text import words_of
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.ranking.overlap import (
    OVERLAP_MODEL,
    PAIR_WORK,
    RARE_MAX,
    SCORED_MAX,
    overlap_report,
)
from skillstudio.core.scanning.registry import Registry
from tests.benchmarks import bench_overlap
from tests.benchmarks.synth import adversarial_descriptions
from tests.helpers import cli
from tests.test_overlap import SKILLS, collection

COUNT = 1_000
TWINS = ("pr-review", "merge-request-check")  # a real near-duplicate pair among them


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Registry]:
    base = tmp_path_factory.mktemp("adversarial")
    skills = {
        f"adversarial-{i:04d}": text for i, text in enumerate(adversarial_descriptions(COUNT))
    }
    skills |= {name: SKILLS[name] for name in TWINS}
    return base, collection(base, skills)


def test_the_generator_puts_every_word_in_exactly_the_cap(hostile: Any) -> None:
    texts = adversarial_descriptions(COUNT)
    holders = Counter(word for text in texts for word in set(words_of(text)))
    assert set(holders.values()) == {RARE_MAX}
    assert len(holders) == COUNT * 24 // RARE_MAX


def test_adversarial_descriptions_cost_a_bounded_number_of_pairs(hostile: Any) -> None:
    _, registry = hostile
    index = LikelyIndex(registry, OVERLAP_MODEL)
    # what the rare words would have cost: a pair update per two skills sharing one
    unbounded = sum(
        df * (df - 1) // 2 for t, df in index.df.items() if 2 <= df <= RARE_MAX and " " not in t
    )
    assert unbounded > 2 * PAIR_WORK
    report = overlap_report(registry, index=index)
    assert 0 < report.tried <= PAIR_WORK
    assert report.scored <= SCORED_MAX
    assert report.bounds.rare_cap < RARE_MAX
    assert report.bounds.words_left == COUNT * 24 // RARE_MAX
    # the rarest words still pair skills: the real near-duplicates are found
    assert [{p.a.name, p.b.name} for p in report.pairs] == [set(TWINS)]


def test_the_output_says_what_the_bounds_left_out(hostile: Any) -> None:
    base, _ = hostile
    run = cli("overlap", "skills", "--profile", "agentskills", cwd=base)
    assert run.code == 0, run.err
    assert "Bounded: 240 words shared by more than 99 skills paired none of them" in run.out
    data = cli("overlap", "skills", "--profile", "agentskills", "--format", "json", cwd=base).json
    assert data["bounded"] == [
        {
            "rare_cap": 99,
            "words_not_paired": 240,
            "pairs_not_scored": 0,
            "pairs_not_listed": 0,
            "skills_crowded": 0,
        }
    ]
    lint = cli("lint", "skills", "--profile", "agentskills", "--format", "json", cwd=base).json
    notes = [d for d in lint["diagnostics"] if d["code"] == "description-overlap"]
    bounded = [d for d in notes if d["skill"] is None]
    assert len(bounded) == 1 and "the overlap check was bounded here" in bounded[0]["message"]
    assert sorted(d["skill"] for d in notes if d["skill"]) == sorted(TWINS)


def test_an_ordinary_collection_is_not_bounded(tmp_path: Path) -> None:
    report = overlap_report(collection(tmp_path, SKILLS))
    assert not report.bounds.cut and report.bounds.rare_cap == RARE_MAX
    run = cli("overlap", "skills", "--profile", "agentskills", cwd=tmp_path)
    assert "Bounded" not in run.out
    assert "bounded" not in cli("overlap", "skills", "--format", "json", cwd=tmp_path).json


def test_the_benchmark_measures_each_command_against_list(tmp_path: Path) -> None:
    figures = bench_overlap.run([40], str(tmp_path))
    assert [(f.folder, f.command) for f in figures] == [
        (folder, command)
        for folder in ("adversarial", "copies")
        for command in ("list", "lint", "overlap")
    ]
    assert all(f.seconds > 0 and f.peak_mb > 10 for f in figures)
    copies = next(f for f in figures if f.folder == "copies" and f.command == "overlap")
    assert "Bounded: 435 pairs not listed" in copies.last_line  # of 780: 345 listed
    assert "× list" in bench_overlap.report(figures)
