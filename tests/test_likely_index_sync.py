"""A likely index kept current through edits scores exactly as a fresh build.

The app keeps one index per open project and syncs it per edit; the CLI builds one
afresh. Whatever the order of edits, additions, removals, the agent's own skills
and profile switches, the two give every skill the same score (issue 39).
"""

from __future__ import annotations

import os
import random
import shutil
from typing import Any

import pytest

from skillstudio.core.model.skills import Skill
from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.likely_index import LikelyIndex, snapped
from skillstudio.core.ranking.likely_ranking import scores
from skillstudio.core.scanning.registry import Registry
from tests.helpers import skill_text, write

WORDS = (
    "review pull request deploy build cache index query test browser login page react "
    "server github api docker image release notes commit message plugin playwright"
).split()
QUERIES = (
    "test my react app login page with playwright",
    "build an MCP server for the GitHub API",
    "please look over my pull request",
    "deploy the docker image",
)


def _words(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def _write(root: Any, rng: random.Random, name: str) -> None:
    fields = {
        "name": name,
        "description": _words(rng, 2, 25),
        "_body": _words(rng, 0, 60) + "\n",
    }
    write(root, f"skills/{name}/SKILL.md", skill_text(**fields))


def _registry(root: Any, profile: str) -> Registry:
    registry = project_from_folder(str(root / "skills"), profile).registry()
    registry.scan()
    return registry


def _own(root: Any, rng: random.Random) -> list[Skill]:
    """Skills standing for the agent's own (kept apart from the registry's)."""
    shutil.rmtree(root / "own", ignore_errors=True)
    for i in range(rng.randint(0, 4)):
        _write(root / "own", rng, f"own-{i}")
    if not (root / "own").exists():
        return []
    return list(_registry(root / "own", "agentskills").active.values())


def _fresh(registry: Registry, own: list[Skill]) -> LikelyIndex:
    index = LikelyIndex(None, profile=registry.profile)
    index.add_all([*registry.active.values(), *own])
    return index


def _all_scores(index: LikelyIndex) -> dict[tuple[str, str], float]:
    return {
        (query, path): score for query in QUERIES for path, score in scores(index, query).items()
    }


def _assert_same(got: LikelyIndex, want: LikelyIndex) -> None:
    mine, theirs = _all_scores(got), _all_scores(want)
    assert set(mine) == set(theirs)
    for key, value in theirs.items():
        assert abs(mine[key] - value) <= 1e-9, (key, mine[key], value)


@pytest.mark.parametrize("seed", range(4))
def test_synced_index_equals_a_fresh_build(tmp_path: Any, seed: int) -> None:
    rng = random.Random(seed)
    for i in range(12):
        _write(tmp_path, rng, f"s{i}")
    profile = "agentskills"
    registry = _registry(tmp_path, profile)
    index, own = LikelyIndex(registry), list[Skill]()
    for _step in range(30):
        roll = rng.random()
        if roll < 0.1:  # a profile switch: the app builds, then adds the agent's own
            profile = "claude-code" if profile == "agentskills" else "agentskills"
            registry = _registry(tmp_path, profile)
            index = _fresh(registry, [])
            index.registry = registry
            index.add_own(own)
        elif roll < 0.2:  # the agent's own skills change (another version, other options)
            own = _own(tmp_path, rng)
            index.add_own(own)
        else:
            name = f"s{rng.randrange(16)}"
            path = tmp_path / "skills" / name / "SKILL.md"
            if path.exists() and rng.random() < 0.3:
                os.remove(path)
                os.rmdir(path.parent)
            else:
                _write(tmp_path, rng, name)
            registry.refresh()
            index.sync()
        _assert_same(index, _fresh(registry, own))


def test_a_build_then_the_agents_own_equals_one_build(tmp_path: Any) -> None:
    """The CLI's index (the registry's skills, then the agent's own added) is a fresh
    build over both: adding skills one by one moves no weight off the build's."""
    rng = random.Random(11)
    for i in range(8):
        _write(tmp_path, rng, f"s{i}")
    registry = _registry(tmp_path, "agentskills")
    own = _own(tmp_path, random.Random(3)) or []
    index = LikelyIndex(registry)
    index.add_own(own)
    _assert_same(index, _fresh(registry, own))


def test_snapped_averages_are_steady_and_close() -> None:
    assert snapped(30.0) == snapped(30.0 + 1e-4)  # one edit among thousands: no reweigh
    for avg in (0.5, 3.0, 30.0, 333.3):
        assert abs(snapped(avg) - avg) <= 0.003 * avg
    assert snapped(0.0) == 1.0


@pytest.mark.parametrize("seed", range(3))
def test_a_deferred_reweigh_leaves_the_sync_cheap_and_its_job_makes_it_exact(
    tmp_path: Any, seed: int
) -> None:
    """The app's index (`defer_reweigh`) does not recompute every weight in a sync
    (1.3 s on the GUI thread at 10,000 skills, per keystroke for an edit going back
    and forth across a step): it says `reweigh_due`; the job's weights, put in, make
    it score as a fresh build again. A job overtaken by an edit is refused."""
    rng = random.Random(seed)
    for i in range(12):
        _write(tmp_path, rng, f"s{i}")
    registry = _registry(tmp_path, "agentskills")
    index = LikelyIndex(registry)
    index.defer_reweigh = True
    deferred = 0
    for _step in range(30):
        _write(tmp_path, rng, f"s{rng.randrange(14)}")
        registry.refresh()
        postings = index.postings
        index.sync()
        if not index.reweigh_due:
            _assert_same(index, _fresh(registry, []))
            continue
        deferred += 1
        assert index.postings is postings  # nothing recomputed in the sync
        job = index.weights_job()
        if rng.random() < 0.3:  # an edit lands before the job's answer: refused
            _write(tmp_path, rng, "s0")
            registry.refresh()
            index.sync()
            assert index.take_weights(job()) is None
            job = index.weights_job()
        assert index.take_weights(job()) is postings  # the replaced, for the caller to free
        assert not index.reweigh_due
        _assert_same(index, _fresh(registry, []))
    assert deferred >= 3  # the steps were crossed, as the test means
