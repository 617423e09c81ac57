"""The skills competing with one skill (core/ranking/rivals.py): the form's "competes with"."""

from __future__ import annotations

import random
from typing import Any

from skillstudio.core.ranking.model_pick import LikelyIndex
from skillstudio.core.ranking.overlap import OVERLAP_MODEL, overlaps
from skillstudio.core.ranking.rivals import competing
from tests.test_overlap import SKILLS, collection

WORDS = (
    "review pull request diff bugs security style merge tune slow sql query index "
    "docker image build layer cache release notes changelog commit tag triage label"
).split()


def test_competing_gives_each_skill_the_pairs_overlap_lists(tmp_path: Any) -> None:
    rng = random.Random(19)
    skills = dict(SKILLS)
    for n in range(40):  # a crowd sharing words in every mix
        skills[f"mix-{n}"] = " ".join(rng.choice(WORDS) for _ in range(8)) + "."
    registry = collection(tmp_path, skills)
    index = LikelyIndex(registry, OVERLAP_MODEL)  # the index the app keeps for it
    pairs = overlaps(registry, threshold=0.3)
    assert pairs, "the collection has competing pairs"
    for skill in registry.active.values():
        expected = sorted(
            ((p.b if p.a.name == skill.name else p.a).name, round(p.score, 9))
            for p in pairs
            if skill.name in (p.a.name, p.b.name)
        )
        found = competing(index, skill.path, limit=100, threshold=0.3)
        assert sorted((s.name, round(x, 9)) for s, x in found) == expected, skill.name
        assert [x for _, x in found] == sorted((x for _, x in found), reverse=True)


def test_the_near_duplicate_competes_first_and_unknown_paths_have_none(tmp_path: Any) -> None:
    registry = collection(tmp_path, SKILLS)
    index = LikelyIndex(registry, OVERLAP_MODEL)  # the index the app keeps for it
    review = registry.active["pr-review"]
    found = competing(index, review.path)
    assert found and found[0][0].name == "merge-request-check"
    assert competing(index, str(tmp_path / "nowhere/SKILL.md")) == []
