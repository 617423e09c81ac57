"""Request intents (issue 39, round 6): a request that says a skill's intent in other
words ("the page crashes", "let's think through …") counts the intent's words at a
reduced weight, shown with what said them. Fixture skills are written here, in the
shape of a workflow collection's descriptions, not copied from the corpus."""

from __future__ import annotations

from typing import Any

import pytest

from skillstudio.core.ranking import likely_ranking
from skillstudio.core.ranking.estimate import FIELDS_MODEL, reason_text
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.ranking.likely_ranking import INTENT_WEIGHT, rank_likely
from skillstudio.core.ranking.request_intents import request_intents
from tests.test_trigger_phrases import WORKFLOW, collection


def test_wordings_of_a_broken_thing_say_bug_and_debug() -> None:
    assert request_intents("the login page crashes when I submit") == [
        ("bug", ["crashes"]),
        ("debug", ["crashes"]),
    ]
    # every wording that said it, in the request's order, as the request typed it
    said = dict(request_intents("checkout throws a 500 and it DOESN'T work"))
    assert said["bug"] == ["throws", "500", "DOESN'T work"]
    assert dict(request_intents("users get logged out randomly, no idea why"))["debug"] == [
        "randomly",
        "no idea why",
    ]
    # a design to think through; trying it in a browser
    assert dict(request_intents("let's think through how gift cards should work")) == {
        "brainstorm": ["think through", "how gift cards should work"],
        "design": ["think through", "how gift cards should work"],
    }
    assert dict(request_intents("click through the signup flow"))["browser"] == ["click through"]


def test_only_whole_words_say_an_intent() -> None:
    # parts of other words, numbers that are no HTTP status, plain requests: nothing
    assert request_intents("write a thrower class and an errorless parser") == []
    assert request_intents("resize the logo to 5000 pixels, or 50") == []
    assert request_intents("write an implementation plan for the auth migration") == []
    assert request_intents("") == []


@pytest.fixture
def workflow(tmp_path: Any) -> LikelyIndex:
    return LikelyIndex(collection(tmp_path, WORKFLOW))


def test_a_crash_reaches_the_debugging_skill_and_says_why(workflow: LikelyIndex) -> None:
    # no word of the request is in root-cause-debugging's listing: before, another
    # skill ranked first on a body word (or none scored) and nothing was likely
    result = rank_likely(workflow, "the checkout page crashes when the cart is empty")
    first = result.candidates[0]
    assert first.name == "root-cause-debugging"
    said = {r.term: r for r in first.reasons}
    bug = said["bug (from 'crashes')"]
    assert bug.rule == "term" and bug.source == ("crash",)
    # at INTENT_WEIGHT of what the word itself weighs for the skill
    plain = rank_likely(workflow, "the checkout page has a bug when the cart is empty")
    own = next(r for r in plain.candidates[0].reasons if r.term == "bug")
    assert bug.weight == pytest.approx(INTENT_WEIGHT * own.weight)
    assert reason_text(bug) == f"bug (from 'crashes') {bug.weight:.2f}"
    assert first.to_json()["reasons"][0]["term"].endswith("(from 'crashes')")
    # the word that said it is explained by the listing, not counted as unknown
    assert first.evidence is not None and first.evidence.shown > 0


def test_the_request_s_own_word_is_not_counted_twice(workflow: LikelyIndex) -> None:
    result = rank_likely(workflow, "I found a bug: the page crashes")
    first = result.candidates[0]
    reasons = [r.term for r in first.reasons]
    assert first.name == "root-cause-debugging"
    assert "bug" in reasons and not any(t.startswith("bug (from") for t in reasons)
    assert "debug (from 'crashes')" in reasons  # (its name's word)


def test_intents_are_off_at_weight_zero_and_for_the_baselines(
    workflow: LikelyIndex, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    query = "the checkout page crashes when the cart is empty"
    with_intents = rank_likely(workflow, query).candidates[0]
    monkeypatch.setattr(likely_ranking, "INTENT_WEIGHT", 0.0)
    without = rank_likely(workflow, query)
    assert not any("(from" in r.term for c in without.candidates for r in c.reasons)
    assert not without.candidates or without.candidates[0].score < with_intents.score
    monkeypatch.undo()
    fields = LikelyIndex(collection(tmp_path / "f", WORKFLOW), FIELDS_MODEL)
    plain = rank_likely(fields, query).candidates
    assert not any("(from" in r.term for c in plain for r in c.reasons)


def test_a_description_ranked_as_a_request_is_read_as_written(workflow: LikelyIndex) -> None:
    # suggest's neighbours rank a skill's own description: skills are read as they are
    description = "Use when the build crashes or throws errors"
    read = rank_likely(workflow, description).candidates
    assert any("(from" in r.term for c in read for r in c.reasons)
    written = rank_likely(workflow, description, request=False).candidates
    assert not any("(from" in r.term for c in written for r in c.reasons)
