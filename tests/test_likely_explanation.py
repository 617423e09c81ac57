"""Tests of core/ranking/likely_explanation.py.

The advice for a request meant for the open skill (issue 39, round 4: with "This
request is for the open skill" ticked, the app told the author of a debugging skill
that its description "needs the request's distinctive words" for "there is a bug in
the checkout": the word it lacked was the shop's own 'checkout').

`match --explain` where the model chooses (`ranking_explained`): a reviewer found its
text explained mostly the keyword heuristic, with no chance (only the JSON had
"chance"), while the app leads with "likely · 72 %" and "Why likely". The text now
leads with the estimate as the app's Explanation gives it (band · chance, why that
band, the first one's words), the keyword heuristic after it, marked secondary; the
JSON keys stay as they were."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.likely_explanation import (
    open_skill_words,
    request_specifics,
    unsaid_phrases,
)
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.ranking.likely_ranking import rank_likely
from tests.helpers import cli, skill_text, write
from tests.test_likely import REVIEW, collection

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
EXPLAIN_QUERY = "review this pull request for security issues"
ARGS = ("match", EXPLAIN_QUERY, "--root", "skills", "--profile", "agentskills")


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


def test_explain_leads_with_the_band_its_chance_and_why(tmp_path: Path) -> None:
    collection(tmp_path, REVIEW)
    data = cli(*ARGS, "--explain", "--format", "json", cwd=tmp_path).json
    top = data["likely"][0]
    assert top["skill"] == "code-review" and top["band"] == "likely"
    percent = round(100 * top["chance"])
    lines = cli(*ARGS, "--explain", cwd=tmp_path).out.splitlines()
    heading = lines.index(
        "Why each is ranked so (an estimate, as Try a Request's Explanation says it):"
    )
    keywords = next(i for i, line in enumerate(lines) if line.startswith("Keyword heuristic"))
    assert lines[heading - 1].startswith("  likely") and heading < keywords
    assert keywords == next(i for i, line in enumerate(lines) if "points:" in line) - 2
    assert lines[heading + 1].startswith(f"  code-review: likely · {percent} % (an estimate, ")
    assert lines[heading + 2].startswith(f"    why likely: chance about {percent} %; ")
    assert lines[heading + 3].split() == ["term", "field", "weight"]
    assert "secondary" in lines[keywords]
    explained = lines[heading:keywords]
    assert sum("Estimated from the skills' own words" in line for line in explained) == 1


def test_explain_keeps_the_json_and_plain_match_its_text(tmp_path: Path) -> None:
    collection(tmp_path, REVIEW)
    plain = cli(*ARGS, "--format", "json", cwd=tmp_path).json
    explained = cli(*ARGS, "--explain", "--format", "json", cwd=tmp_path).json
    assert explained.keys() == plain.keys()
    assert [c.keys() for c in explained["likely"]] == [c.keys() for c in plain["likely"]]
    assert "Why each is ranked so" not in cli(*ARGS, cwd=tmp_path).out


def test_where_triggers_choose_explain_has_no_estimate(tmp_path: Path) -> None:
    collection(tmp_path, REVIEW, **{name: {"triggers": [name]} for name in REVIEW})
    args = ("match", "code-review please", "--root", "skills", "--profile", "oasis")
    run = cli(*args, "--explain", cwd=tmp_path)
    assert run.out.startswith("selected: ") and "Why each is ranked so" not in run.out
