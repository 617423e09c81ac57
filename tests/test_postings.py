"""The likely index's postings (core/ranking/postings.py): a term one skill has is a
(slot, weight) pair, a term of more skills two flat arrays, read alike."""

from __future__ import annotations

import sys
from array import array
from typing import Any

from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.ranking.postings import Postings, holders, post, renumbered, scaled, unpost
from tests.helpers import skill_text, write


def test_a_term_one_skill_has_is_a_pair_and_a_second_makes_it_arrays() -> None:
    postings: Postings = {}
    post(postings, "deploy", 3, 0.5)
    assert postings["deploy"] == (3, 0.5)
    assert holders(postings["deploy"]) == ((3,), (0.5,))
    post(postings, "deploy", 7, 0.25)
    slots, values = postings["deploy"]
    assert isinstance(slots, array) and isinstance(values, array)
    assert (list(slots), list(values)) == ([3, 7], [0.5, 0.25])
    unpost(postings, "deploy", 3)
    assert [list(part) for part in holders(postings["deploy"])] == [[7], [0.25]]


def test_a_pair_is_removed_renumbered_and_rescaled_as_the_arrays_are() -> None:
    postings: Postings = {}
    post(postings, "solo", 5, 0.75)
    assert renumbered(postings["solo"], [0, 0, 0, 0, 0, 2]) == (2, 0.75)
    assert scaled(postings["solo"], 2.0) == (5, 1.5)
    unpost(postings, "solo", 4)  # not its skill: kept
    assert postings["solo"] == (5, 0.75)
    unpost(postings, "solo", 5)
    assert [list(part) for part in holders(postings["solo"])] == [[], []]


def test_the_index_keeps_a_skills_own_words_as_pairs_and_reads_them(tmp_path: Any) -> None:
    for name, animal in (("a", "zebras"), ("b", "giraffes")):
        told = f"Reviews release notes for {animal}."
        write(tmp_path, f"{name}/SKILL.md", skill_text(name=name, description=told))
    registry = project_from_folder(str(tmp_path), "agentskills").registry()
    registry.scan()
    index = LikelyIndex(registry)
    own = [t for t, df in index.df.items() if df == 1]
    shared = [t for t, df in index.df.items() if df == 2]
    assert own and shared
    for term in own:
        slot, weight = index.postings[term]
        assert isinstance(slot, int) and isinstance(weight, float)
        assert index.bucket(term) == ((slot,), (weight,)) and weight > 0
    for term in shared:
        assert all(isinstance(part, array) for part in index.postings[term])
    pair = sys.getsizeof(index.postings[own[0]]) + sys.getsizeof(1.0)
    arrays = sum(map(sys.getsizeof, index.postings[shared[0]])) + sys.getsizeof((0, 0))
    assert pair < arrays / 2  # what the pair is for
