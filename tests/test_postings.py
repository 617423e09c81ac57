"""The likely index's postings (core/ranking/postings.py): a term one skill has is a row
of shared columns, a term of more skills its own arrays; both read alike, weigh alike
and cost no Python number of their own (issue 39: memory at 10,000 skills)."""

from __future__ import annotations

import sys
import tracemalloc
from typing import Any

from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.ranking.postings import Postings
from tests.helpers import skill_text, write


def _lists(bucket: Any) -> tuple[list[int], list[float]]:
    return list(bucket[0]), list(bucket[1])


def test_a_second_skill_moves_a_term_to_its_arrays_with_its_first_weight_and_idf() -> None:
    postings = Postings()
    postings.add("deploy", 3, 0.5, 2.0)
    postings.add("queue", 4, 0.125, 3.0)
    assert _lists(postings.raw("deploy")) == ([3], [0.5])
    assert postings.idf_used("deploy") == 2.0
    postings.add("deploy", 7, 0.25, 2.0)
    assert _lists(postings.raw("deploy")) == ([3, 7], [0.5, 0.25])
    assert postings.idf_used("deploy") == 2.0
    assert _lists(postings.raw("queue")) == ([4], [0.125])  # the row moved, read the same
    assert list(postings) == ["deploy", "queue"]  # first posted first, whatever the form
    postings.unpost("deploy", 3)
    assert _lists(postings.raw("deploy")) == ([7], [0.25])


def test_rows_are_dropped_renumbered_and_reweighed_as_arrays_are() -> None:
    postings = Postings()
    for number, term in enumerate(("alpha", "beta", "gamma")):
        postings.add(term, 5 + number, 0.75, 2.0)
    postings.drop("alpha")  # the last row takes its place
    assert "alpha" not in postings and len(postings) == 2
    assert _lists(postings.raw("gamma")) == ([7], [0.75])
    postings.renumber([0, 0, 0, 0, 0, 0, 1, 2])
    assert _lists(postings.raw("beta")) == ([1], [0.75])
    assert _lists(postings.raw("gamma")) == ([2], [0.75])
    # a new IDF: each weight multiplied by the ratio, as the arrays' are
    assert _lists(postings.read("beta", 3.0)) == ([1], [0.75 * (3.0 / 2.0)])
    assert postings.idf_used("beta") == 3.0
    postings.unpost("gamma", 1)  # not its skill: kept
    assert _lists(postings.raw("gamma")) == ([2], [0.75])
    postings.unpost("gamma", 2)  # emptied, its IDF kept (as two arrays emptied were)
    assert _lists(postings.raw("gamma")) == ([], []) and postings.idf_used("gamma") == 2.0
    assert _lists(postings.read("missing", 1.0)) == ([], [])


def test_a_term_one_skill_has_costs_no_python_number_and_little_memory() -> None:
    """Before, each such term held two arrays, their tuple and a float IDF: about 320
    bytes, and a (slot, weight) pair referenced the small ints 0 and 1 (the app's churn
    test counts them)."""
    zero, one = sys.getrefcount(0), sys.getrefcount(1)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        postings = Postings()
        terms = [f"term{n}" for n in range(20_000)]
        after_terms = tracemalloc.get_traced_memory()[0]
        for number, term in enumerate(terms):
            postings.add(term, number % 2, 0.5, 1.5)  # slots 0 and 1 only
        used = tracemalloc.get_traced_memory()[0] - after_terms
    finally:
        tracemalloc.stop()
    assert before <= after_terms
    assert used / len(terms) < 130, f"{used / len(terms):.0f} bytes a term"
    assert abs(sys.getrefcount(0) - zero) < 10 and abs(sys.getrefcount(1) - one) < 10


def test_the_index_reads_a_skills_own_words_from_rows(tmp_path: Any) -> None:
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
        slots, weights = index.bucket(term)
        assert len(slots) == 1 and weights[0] > 0
        assert index.weight(term, slots[0]) == weights[0]
    for term in shared:
        assert sorted(index.bucket(term)[0]) == [0, 1]
    vectors = index.vectors()
    for slot, doc in enumerate(index.slots):
        assert doc is not None and vectors[slot] == index.vector(doc.skill.path)
