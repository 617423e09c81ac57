"""Tests of core/ranking/likely_explanation.py's advice for a request meant for the
open skill (issue 39, round 4: with "This request is for the open skill" ticked, the app
told the author of a debugging skill that its description "needs the request's
distinctive words" for "there is a bug in the checkout": the word it lacked was the
shop's own 'checkout')."""

from __future__ import annotations

from typing import Any

from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.likely_explanation import (
    open_skill_words,
    request_specifics,
    unsaid_phrases,
)
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.ranking.likely_ranking import rank_likely
from tests.helpers import skill_text, write

SKILLS = {
    "bug-hunting": (
        "Finds the root cause before any fix. Use when encountering any bug, a test "
        "failure or unexpected behavior.",
        "Reproduce it, read the stack trace, bisect the change that broke it.",
    ),
    "shop-testing": (
        "Drives a local web app in a headless browser and takes screenshots.",
        "Open the checkout in the browser, press the buttons, read the console.",
    ),
    "plan-writing": (
        "Writes an implementation plan in small steps before code is touched.",
        "Each step names its files and its test.",
    ),
}


def index_of(tmp_path: Any) -> LikelyIndex:
    for name, (description, body) in SKILLS.items():
        text = skill_text(name=name, description=description, _body=body)
        write(tmp_path, f"skills/{name}/SKILL.md", text)
    registry = project_from_folder(str(tmp_path / "skills"), "agentskills").registry()
    registry.scan()
    return LikelyIndex(registry)


def test_the_project_s_words_are_not_what_the_open_skill_lacks(tmp_path: Any) -> None:
    index = index_of(tmp_path)
    registry = index.registry
    assert registry is not None
    skill = registry.get("bug-hunting")
    assert skill is not None
    query = "there is a bug in the checkout of the wishlist"
    assert not rank_likely(index, query).likely  # (the advice's case: none is likely)
    # 'checkout' only a body has, 'wishlist' no skill: the user's project, either way;
    # 'bug' is in a listing
    assert request_specifics(index, query) == ["checkout", "wishlist"]
    # what the skill's trigger clause names and the request does not say
    unsaid = ["encountering any bug", "a test failure", "unexpected behavior"]
    assert unsaid_phrases(index, skill, query) == unsaid
    advice = open_skill_words(index, skill, query)
    assert advice.startswith(
        "the request does not say what its trigger clause names ('encountering any bug', "
        "'a test failure', 'unexpected behavior'); the request's words no skill's listing "
        "has (checkout, wishlist) need not be added to the description"
    )
    assert "distinctive words" not in advice
    # a phrase the request says is not one it lacks
    said = "a test failure in the checkout"
    assert unsaid_phrases(index, skill, said) == ["encountering any bug", "unexpected behavior"]


def test_a_skill_without_a_trigger_clause_is_told_to_use_the_users_words(
    tmp_path: Any,
) -> None:
    index = index_of(tmp_path)
    registry = index.registry
    assert registry is not None
    skill = registry.get("plan-writing")
    assert skill is not None
    assert unsaid_phrases(index, skill, "plan the gift cards") == []
    advice = open_skill_words(index, skill, "plan the gift cards")
    assert advice.startswith(
        "for the model to pick plan-writing, its description needs the words users type; "
        "the request's words no skill's listing has (gift, cards)"
    )
    # a request all of whose words some listing has: nothing said of specifics
    assert open_skill_words(index, skill, "write a plan") == (
        "for the model to pick plan-writing, its description needs the words users type"
    )
