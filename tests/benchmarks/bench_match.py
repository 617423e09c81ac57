"""Match latency benchmark (docs/performance.md: ≤ 1 ms at 1,000, ≤ 10 ms at 10,000 skills).

The indexed matcher is timed against a naive loop that applies the same oasis
rules skill by skill, on the same registry and requests, in one run.
Prints medians; asserts nothing.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from skillstudio.core.model.matches import STOPWORDS  # noqa: E402
from skillstudio.core.model.text import normalize  # noqa: E402
from skillstudio.core.projects.project import project_from_folder  # noqa: E402
from skillstudio.core.ranking.likely_index import LikelyIndex  # noqa: E402
from skillstudio.core.ranking.likely_ranking import rank_likely  # noqa: E402
from skillstudio.core.ranking.match_index import MatchIndex  # noqa: E402
from skillstudio.core.ranking.matching import match  # noqa: E402
from skillstudio.core.ranking.overlap import overlaps  # noqa: E402
from skillstudio.core.scanning.registry import Registry  # noqa: E402
from tests.benchmarks.synth import VERBS, generate, word  # noqa: E402


def naive(registry: Registry, query: str) -> list[tuple[int, str]]:
    """The seed's algorithm as a plain loop over every skill (the baseline)."""
    norm = f" {normalize(query)} "
    words = set(norm.split())
    scores = []
    for skill in registry.active.values():
        score = 0
        for trig in skill.fields["triggers_normalized"]:
            if trig and f" {trig} " in norm:
                score += 10
        keywords = {w for w in normalize(skill.description).split() if w not in STOPWORDS}
        score += len(keywords & words)
        name = normalize(str(skill.fields["name"]))
        if name and f" {name} " in norm:
            score += 20
        if score:
            scores.append((score, skill.name))
    scores.sort(reverse=True)
    return scores


@dataclass
class MatchFigures:
    count: int
    indexed_ms: float
    naive_ms: float
    index_build_ms: float
    update_ms: float
    likely_ms: float = 0.0  # the likely ranking (ranking/likely_ranking.py), same requests
    likely_build_ms: float = 0.0
    likely_update_ms: float = 0.0
    overlap_s: float = 0.0  # every competing pair of the collection, index build included
    overlap_pairs: int = 0
    step: StepFigures | None = None  # an edit that moves a snapped average


@dataclass
class StepFigures:
    """One edit moving a snapped average field length: every likely weight recomputed.
    The app's index (`defer_reweigh`) leaves that to a worker (gui/infra/likely_jobs.py)."""

    reweigh_ms: float  # the recomputation in the sync (the CLI's index; the app's before)
    deferred_sync_ms: float  # the app's sync: on the GUI thread
    copy_ms: float  # `weights_job()`: the copies the worker reads, on the GUI thread
    worker_ms: float  # the worker's recomputation (off the GUI thread)
    take_ms: float  # `take_weights`: the new weights put in, on the GUI thread


def step_crossed(chooser: Registry, ranker: LikelyIndex, path: str, text: str) -> StepFigures:
    """Edit `path`'s description by enough words to move its snapped average (0.5 % of
    the sum over every skill), then time the sync both ways."""
    words = sum(len(s.description.split()) for s in chooser.active.values())
    extra = " ".join(f"stepword{n}" for n in range(words // 100 + 50))
    edited = text.replace("description: ", f"description: {extra} ", 1)
    chooser.reparse(path, edited)
    ranker.defer_reweigh = True
    t0 = time.perf_counter()
    ranker.sync()
    deferred = time.perf_counter() - t0
    assert ranker.reweigh_due, "the edit moved no snapped average"
    t0 = time.perf_counter()
    work = ranker.weights_job()
    copy = time.perf_counter() - t0
    t0 = time.perf_counter()
    weights = work()
    worker = time.perf_counter() - t0
    t0 = time.perf_counter()
    replaced = ranker.take_weights(weights)  # (the app frees them on a worker)
    take = time.perf_counter() - t0
    assert replaced is not None
    chooser.reparse(path, text)  # back across the step: what a sync paid before
    ranker.defer_reweigh = False
    t0 = time.perf_counter()
    ranker.sync()
    reweigh = time.perf_counter() - t0
    return StepFigures(reweigh * 1000, deferred * 1000, copy * 1000, worker * 1000, take * 1000)


def queries(seed: int = 3, count: int = 200) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        words = [word(rng) for _ in range(rng.randint(4, 14))]
        words.insert(rng.randint(0, len(words)), rng.choice(VERBS))
        out.append("please " + " ".join(words))
    return out


def run(count: int, workdir: str | None = None) -> MatchFigures:
    base = workdir or tempfile.mkdtemp(prefix="skillstudio-bench-")
    folder = os.path.join(base, f"synthetic-{count}")
    if not os.path.isdir(folder):
        generate(folder, count)
    registry = project_from_folder(folder).registry()
    registry.scan()
    start = time.perf_counter()
    index = MatchIndex(registry)
    build = time.perf_counter() - start
    requests = queries()
    indexed, plain = [], []
    # Rounds of the 200 requests, each side in turn: interleaving request by request
    # would time the matcher right after the naive loop has filled the caches and
    # the young generations with its own garbage (measured: twice as slow).
    for _ in range(3):
        for query in requests:
            t0 = time.perf_counter()
            match(registry, query, index=index)
            indexed.append(time.perf_counter() - t0)
        for query in requests:
            t0 = time.perf_counter()
            naive(registry, query)
            plain.append(time.perf_counter() - t0)
    # The likely ranking is for profiles where the model chooses: the same folder
    # read as agentskills, so each skill has its body's gist (core/reading/skill_words.py).
    chooser = project_from_folder(folder, "agentskills").registry()
    chooser.scan()
    start = time.perf_counter()
    ranker = LikelyIndex(chooser)
    likely_build = time.perf_counter() - start
    ranked = []
    for _ in range(3):
        for query in requests:
            t0 = time.perf_counter()
            rank_likely(ranker, query)
            ranked.append(time.perf_counter() - t0)
    victim = registry.skills[len(registry.skills) // 2]
    with open(victim.path, encoding="utf-8") as fh:
        text = fh.read()
    updates, likely_updates = [], []
    for index_round in range(5):
        # a changed description: both indexes re-read the skill
        edited = text.replace("description: ", f"description: edit{index_round} ")
        registry.reparse(victim.path, edited)
        chooser.reparse(victim.path, edited)
        t0 = time.perf_counter()
        index.sync()
        updates.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        ranker.sync()
        likely_updates.append(time.perf_counter() - t0)
    step = step_crossed(chooser, ranker, victim.path, text)
    start = time.perf_counter()
    pairs = overlaps(chooser)
    overlap_s = time.perf_counter() - start
    return MatchFigures(
        count,
        statistics.median(indexed) * 1000,
        statistics.median(plain) * 1000,
        build * 1000,
        statistics.median(updates) * 1000,
        statistics.median(ranked) * 1000,
        likely_build * 1000,
        statistics.median(likely_updates) * 1000,
        overlap_s,
        len(pairs),
        step,
    )


def report(figures: MatchFigures) -> str:
    target = 1.0 if figures.count <= 1000 else 10.0
    return "\n".join(
        [
            f"Match one request, {figures.count:,} skills (median of 3 rounds of 200 requests)",
            f"  indexed matcher        {figures.indexed_ms:8.3f} ms  (target ≤ {target:g} ms)",
            f"  naive loop, same rules {figures.naive_ms:8.3f} ms  "
            f"indexed is {figures.naive_ms / figures.indexed_ms:.1f} × faster",
            f"  index build            {figures.index_build_ms:8.1f} ms; "
            f"one skill changed: {figures.update_ms:.2f} ms to update",
            f"  likely candidates      {figures.likely_ms:8.3f} ms  (BM25F, bands, reasons; "
            f"target ≤ {target:g} ms)",
            f"  likely index build     {figures.likely_build_ms:8.1f} ms; "
            f"one skill changed: {figures.likely_update_ms:.2f} ms to update",
            f"  overlap, every pair    {figures.overlap_s:8.2f} s   ({figures.overlap_pairs} "
            f"competing pairs; target at 10,000 ≤ 10 s)",
        ]
        + (step_lines(figures.step) if figures.step is not None else [])
    )


def step_lines(step: StepFigures) -> list[str]:
    return [
        f"  a snapped average moved {step.reweigh_ms:7.1f} ms to reweigh in the sync (the "
        "CLI's index)",
        f"    the app's (deferred)  {step.deferred_sync_ms:7.1f} ms sync + "
        f"{step.copy_ms:.1f} ms copies + {step.take_ms:.1f} ms to put the weights in on the "
        f"GUI thread; {step.worker_ms:.0f} ms on a worker",
    ]


if __name__ == "__main__":
    for n in (1000, 10_000):
        print(report(run(n, sys.argv[1] if len(sys.argv) > 1 else None)))
