"""Trigger phrases (issue 39, round 4): a phrase of a skill's "Use when …" clause or
name said in the request counts, whatever the IDF of its words in a collection of
related skills; failure/failing and a few other forms meet as one stem. Fixture
skills are written here, in the shape of a workflow collection's descriptions, not
copied from the corpus."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.estimate import FIELDS_MODEL, likely_text
from skillstudio.core.ranking.likely_explanation import explained_text, why_not_likely
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.ranking.likely_ranking import REQUEST_STOPWORDS, rank_likely
from skillstudio.core.ranking.trigger_phrases import (
    Phrase,
    best_hit,
    hit,
    phrases_of,
    request_positions,
)
from skillstudio.core.reading.skill_words import terms
from skillstudio.core.scanning.registry import Registry
from tests.helpers import CORPUS
from tests.test_likely import collection as likely_collection

# A collection whose bodies all talk of tests, bugs and failures (as a workflow
# collection's do): those words weigh almost nothing by IDF here.
SHARED = "Run the tests. A bug or a failing test means stop. Fix failures before you go on."
WORKFLOW = {
    "root-cause-debugging": (
        "Use when you meet any bug, a test failure or behaviour you did not expect, "
        "before you propose a fix.",
        "Reproduce first, then read the stack trace and form one hypothesis. " + SHARED,
    ),
    "writing-a-plan": (
        "Use when you have a spec or requirements for a multi-step task, before touching code.",
        "Break the work into small steps: files to change, commands to run. " + SHARED,
    ),
    "asking-for-review": (
        "Use when a change is ready, before you merge it or after a large refactor.",
        "Send the diff range to a reviewer; merge after the last merge conflict is gone. " + SHARED,
    ),
    "verifying-work": (
        "Use when about to claim work is complete, fixed or passing, before committing.",
        "Run the command that proves the claim and read its output. " + SHARED,
    ),
    "idea-shaping": (
        "You must use this before any creative work: features, components, new behaviour.",
        "Ask one question at a time, then propose two approaches. " + SHARED,
    ),
    "parallel-agents": (
        "Use when facing several independent tasks that share no state.",
        "Give each agent one task and the files it may touch. " + SHARED,
    ),
    "finishing-a-branch": (
        "Use when the work is done and every test passes, to decide how to integrate it.",
        "Offer to open a pull request, keep the branch or discard it. " + SHARED,
    ),
    "test-first": (
        "Use when implementing any feature, before writing the code that does it.",
        "Write one test, watch it fail, write the least code that passes. " + SHARED,
    ),
    "isolated-workspace": (
        "Use when starting feature work that needs a workspace of its own.",
        "Make a worktree in an ignored folder and check a clean baseline. " + SHARED,
    ),
    "running-a-plan": (
        "Use when you have a written plan to carry out in a separate session.",
        "Load the plan, review it, do the tasks in batches with checkpoints. " + SHARED,
    ),
}


def collection(tmp_path: Any, skills: dict[str, tuple[str, str]]) -> Registry:
    """test_likely's collection, each skill with a body of its own."""
    return likely_collection(
        tmp_path,
        {name: description for name, (description, _body) in skills.items()},
        **{name: {"_body": body} for name, (_description, body) in skills.items()},
    )


def positions(query: str) -> dict[str, list[float]]:
    return request_positions(query, REQUEST_STOPWORDS)


def test_forms_the_stemmer_leaves_apart_meet() -> None:
    assert terms("test failure") == terms("tests failing") == terms("test fails")
    assert terms("the debugger") == terms("debugging")
    assert terms("a broken build") == terms("breaks the build")
    # (no fold beyond the table: 'installer' and 'install' were one stem already)
    assert terms("installer") == terms("install")


def test_a_trigger_clause_is_split_into_phrases_and_the_name_is_one() -> None:
    description = (
        "Checks releases. Use when you meet any bug, a test failure or unexpected "
        "behaviour; before proposing fixes."
    )
    found = {p.text: p for p in phrases_of("root-cause-debugging", description)}
    assert found["root cause debugging"].rule == "name"
    assert found["a test failure"] == Phrase("a test failure", ("test", "fail"), "trigger")
    assert {"you meet any bug", "unexpected behaviour"} <= set(found)
    assert not any("proposing" in text for text in found)  # (the clause ends at ';')
    # shown without the description's quotes and emphasis, nor a dash left at an end
    marked = phrases_of("x", 'Use when building "UI components" - or *REST APIs*.')
    assert [p.text for p in marked] == ["building UI components", "REST APIs"]
    assert "checks releases" not in found  # (outside the "Use when" clause)
    assert phrases_of("linear", "Manage issues in Linear. Use for tickets.") == ()  # one word


def test_a_file_name_is_one_word_of_the_window() -> None:
    # issue 39 round 4's web shop: "test_cart.py" read as three words (test, cart, py)
    # put 'failing' five words after 'tests', out of the phrase's window of four
    failure = Phrase("test failure", ("test", "fail"), "trigger")
    assert hit(failure, positions("tests in test_cart.py started failing after the last merge"))
    assert hit(failure, positions("the add-to-cart tests started failing"))
    spots = positions("open test_cart.py parser")
    assert spots["test"] == [1] and 1 < spots["cart"][0] < spots["py"][0] < 2  # one place
    assert spots["parser"] == [2]
    # a name written as one hyphenated word still reads in its order
    name = Phrase("webapp testing", ("webapp", "test"), "name")
    assert hit(name, positions("use webapp-testing on the shop"))
    assert not hit(name, positions("use testing-webapp on the shop"))
    # and a phrase's words in separate written words keep counting each
    assert not hit(failure, positions("tests: a_b.py c_d.py e_f.py g_h.py then failing"))


def test_a_phrase_is_said_in_any_order_within_a_window() -> None:
    failure = Phrase("test failure", ("test", "fail"), "trigger")
    assert hit(failure, positions("my tests started failing after the merge"))
    assert hit(failure, positions("it fails on the unit tests"))
    far = "the tests of the parser and of the lexer and of the printer all fail"
    assert not hit(failure, positions(far))
    assert not hit(failure, positions("the tests pass"))
    # a name's words in its order: "code review … pull request" is no request for review
    name = Phrase("requesting code review", ("request", "code", "review"), "name")
    assert hit(name, positions("requesting a code review of this change"))
    assert not hit(name, positions("I got code review feedback on my pull request"))
    longer = Phrase("a test failure in ci", ("test", "fail", "ci"), "trigger")
    assert best_hit((failure, longer), positions("tests failing in CI")) == longer


def test_a_long_request_is_read_in_linear_time() -> None:
    """A request repeating a phrase's words thousands of times (untrusted, pasted)
    is read by a sliding window, not by trying every combination."""
    phrase = Phrase("a b c d", ("alpha", "beta", "gamma", "delta"), "trigger")
    spread = {s: list(range(i, 40_000, 40)) for i, s in enumerate(("alpha", "beta", "gamma"))}
    spread["delta"] = [39_999]
    started = time.perf_counter()
    assert not hit(phrase, spread)
    assert time.perf_counter() - started < 1.0


def test_a_phrase_of_the_trigger_clause_outweighs_an_incidental_rare_word(
    tmp_path: Any,
) -> None:
    """The reviewers' request: 'merge' is rare in the collection and 'test', 'fail'
    are everywhere, so the review skill came first; the debugging skill's clause says
    'test failure', which the request says too: it ranks first, with the phrase among
    its reasons (the JSON's rule 'trigger', and in the explanation). (Likely over the
    real collection: the corpus test below; here most of the request's words are in no
    skill, which the band reads against it.)"""
    registry = collection(tmp_path, WORKFLOW)
    index = LikelyIndex(registry)
    query = "my tests started failing after the last merge, help me find out why"
    result = rank_likely(index, query)
    first = result.candidates[0]
    assert first.name == "root-cause-debugging" and first.band != "unlikely"
    assert first.evidence is not None and first.evidence.lead > 1
    said = next(r for r in first.to_json()["reasons"] if r["rule"] == "trigger")
    assert said["term"] == "a test failure"
    assert "'a test failure' (its trigger clause)" in likely_text(result)
    lines = explained_text(
        why_not_likely(result, first.name, index, registry), registry.profile.selects_line()
    )
    assert any("trigger clause, as a phrase" in line for line in lines)
    # the skill's name said as a phrase, in its order
    plan = rank_likely(index, "write an implementation plan for the auth migration")
    assert (plan.candidates[0].name, plan.candidates[0].band) == ("writing-a-plan", "likely")
    assert "name" in {r.rule for r in plan.candidates[0].reasons}
    assert not any(
        r.rule == "name" for r in rank_likely(index, "plan what to write").candidates[0].reasons
    )


def test_the_baselines_read_no_phrases(tmp_path: Any) -> None:
    """The fields-only model (what the model reads: no trigger field) stays as it was."""
    index = LikelyIndex(collection(tmp_path, WORKFLOW), FIELDS_MODEL)
    result = rank_likely(index, "my tests started failing after the last merge")
    assert all(r.rule == "term" for c in result.candidates for r in c.reasons)


@pytest.mark.skipif(not os.path.isdir(CORPUS), reason="shared corpus absent")
def test_the_reviewers_requests_are_likely_over_obra_superpowers() -> None:
    """Round 4's reviewers' requests over the collection they used (skipped without
    the shared corpus)."""
    registry = project_from_folder(
        os.path.join(CORPUS, "obra-superpowers"), "agentskills"
    ).registry()
    registry.scan()
    index = LikelyIndex(registry)
    for query, name in (
        (
            "my tests started failing after the last merge, help me find out why",
            "systematic-debugging",
        ),
        ("write an implementation plan for the auth migration", "writing-plans"),
    ):
        first = rank_likely(index, query).candidates[0]
        assert (first.name, first.band) == (name, "likely"), query
