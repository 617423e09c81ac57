"""The estimate reads what the agent's listing shows (issue 36; PRODUCT.md section 5,
"The estimate reads what the agent shows"): a skill whose description the budget drops
ranks by its name alone, a skill the budget leaves out is never a candidate, and the
explanation says what the model sees of it; a larger window gives the words back.

The set: 27 Claude Code skills of about 500-character descriptions (8,000-character
budget when the window is unknown: the last ones listed fall to a bare name), one of
them `triage-frontend-issues`, whose description alone holds the request's words.
"""

from __future__ import annotations

from pathlib import Path

from skillstudio.core.model.delivered import TierText
from skillstudio.core.projects.open_project import OpenProject
from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.ranking.likely_ranking import rank_likely

from .helpers import cli, skill_text, write
from .test_listing_budget import make_set

TRIAGE = "triage-frontend-issues"
REQUEST = "sort the incoming browser rendering complaints by severity"


def triage_set(base: Path, config: str = "") -> Path:
    """27 skills over Claude Code's budget, and `triage-frontend-issues` listed last
    (sorted path order): the first to lose its description."""
    make_set(base, 27, 60, config)
    description = (
        "Sort incoming browser rendering complaints by severity and route each to the right owner."
    )
    write(
        base, f".claude/skills/{TRIAGE}/SKILL.md", skill_text(name=TRIAGE, description=description)
    )
    return base


def opened(base: Path, profile: str = "claude-code") -> OpenProject:
    return OpenProject.read(project_from_folder(str(base), profile), gists=False)


def test_a_dropped_description_does_not_make_its_skill_likely(tmp_path: Path) -> None:
    project = opened(triage_set(tmp_path))
    view = project.listing_view()
    assert view is not None and view.shows(TRIAGE) == "name"  # over the budget
    index = project.likely_index()
    assert index is not None
    result = rank_likely(index, REQUEST)
    # the request's words are in the description only, which the model does not see
    assert TRIAGE not in [c.name for c in result.candidates]
    # asked by words of its name, it ranks by them, and says what the model sees
    named = rank_likely(index, "triage the frontend issues")
    first = named.candidates[0]
    assert first.name == TRIAGE
    assert "only its name is in the claude-code listing" in first.listing
    assert "8,000-character budget" in first.listing
    name_words = {"triag", "frontend", "issu"}  # (stems; pairs of them count too)
    assert all(set(r.stem.split()) <= name_words for r in first.reasons)


def test_the_same_skill_within_a_larger_window_is_likely(tmp_path: Path) -> None:
    project = opened(triage_set(tmp_path, "context_tokens: 1000000\n"))
    view = project.listing_view()
    assert view is not None and view.shows(TRIAGE) == "whole"
    index = project.likely_index()
    assert index is not None
    result = rank_likely(index, REQUEST)
    assert result.candidates[0].name == TRIAGE and result.candidates[0].band == "likely"
    assert result.candidates[0].listing == ""  # its whole entry: nothing to say


def test_the_window_of_use_window_moves_the_view(tmp_path: Path) -> None:
    """`use_window` (--context-tokens) changes what the index reads on its next sync."""
    project = opened(triage_set(tmp_path))
    index = project.likely_index()
    assert index is not None and TRIAGE not in [
        c.name for c in rank_likely(index, REQUEST).candidates
    ]
    project.use_window(1_000_000)
    index = project.likely_index()
    assert index is not None
    assert rank_likely(index, REQUEST).candidates[0].name == TRIAGE


def test_an_edit_that_frees_the_budget_gives_the_words_back(tmp_path: Path) -> None:
    """One skill's edit can give another its description: the index follows the
    listing at every sync, not only the skill edited."""
    base = triage_set(tmp_path)
    project = opened(base)
    index = project.likely_index()
    assert index is not None
    for i in range(27):  # every other description cut to a few words
        path = base / f".claude/skills/skill-{i:02d}/SKILL.md"
        project.edit(str(path), skill_text(name=f"skill-{i:02d}", description=f"Task {i}."))
    index = project.likely_index()
    assert index is not None
    first = rank_likely(index, REQUEST).candidates[0]
    assert first.name == TRIAGE and first.listing == ""


def test_a_skill_left_out_of_the_listing_is_never_a_candidate(tmp_path: Path) -> None:
    """A listing that leaves a skill out (Codex over its budget, a profile that stops
    at it): the index holds it not, so no request makes it a candidate."""
    project = opened(triage_set(tmp_path))
    names = [s.name for s in project.registry.active.values()]
    listing = TierText(2, "", budget=2_000, listed=[n for n in names if n != TRIAGE])
    index = LikelyIndex(project.registry, view=listing.view("codex"))
    triage = project.registry.active[TRIAGE]
    assert triage.path not in index.docs
    assert TRIAGE not in [c.name for c in rank_likely(index, "triage frontend issues").candidates]
    reason = index.omits(triage)
    assert reason is not None and "left out of the codex listing" in reason
    assert "the model cannot pick it" in reason


def test_match_at_a_larger_window_gives_the_words_back(tmp_path: Path) -> None:
    """`match --context-tokens` (and `--model`) moves the listing the estimate reads."""
    base = triage_set(tmp_path)
    args = ("match", REQUEST, "--profile", "claude-code", "--format", "json")
    names = [c["skill"] for c in cli(*args, cwd=base).json["candidates"]]
    assert TRIAGE not in names
    wide = cli(*args, "--context-tokens", "1000000", cwd=base).json["candidates"]
    assert wide[0]["skill"] == TRIAGE and wide[0]["band"] == "likely"


def test_match_says_what_the_model_sees(tmp_path: Path) -> None:
    base = triage_set(tmp_path)
    data = cli(
        "match",
        "triage the frontend issues",
        "--profile",
        "claude-code",
        "--format",
        "json",
        cwd=base,
    ).json
    first = data["candidates"][0]
    assert first["skill"] == TRIAGE
    assert "only its name is in the claude-code listing" in first["listing"]
    text = cli("match", "triage the frontend issues", "--profile", "claude-code", cwd=base).out
    assert "listing: only its name is in the claude-code listing" in text


def test_the_agents_own_skills_compete(tmp_path: Path) -> None:
    """Claude Code lists its own skills beside the user's (Profile.agent_skills): a
    request for "look over my pull request" weighs the built-in `review` against the
    user's pull-request skill; the built-in one is marked as the agent's own, and
    `bundled_skills: false` leaves it out as it leaves it out of the listing."""
    description = "Drafts the description of a pull request from its commits."
    write(
        tmp_path,
        ".claude/skills/pr-notes/SKILL.md",
        skill_text(name="pr-notes", description=description),
    )
    args = ("match", "look over my pull request", "--profile", "claude-code", "--format", "json")
    found = {c["skill"]: c for c in cli(*args, cwd=tmp_path).json["candidates"]}
    assert found["review"]["agent"] == "claude-code" and "agent" not in found["pr-notes"]
    # neither is well ahead of the other: neither is likely
    assert found["review"]["band"] != "likely" and found["pr-notes"]["band"] != "likely"
    # "PR" reads as "pull request" (issue 43: before, the built-in review had none of
    # this request's words but "review" and ranked nowhere near)
    merge = ("match", "review my code before I merge this PR", "--profile", "claude-code")
    review = next(
        c
        for c in cli(*merge, "--format", "json", cwd=tmp_path).json["candidates"]
        if c["skill"] == "review"
    )
    assert {"review", "pull (pr)", "request (pr)"} <= {r["term"] for r in review["reasons"]}
    assert review["band"] == "likely"  # (pr-notes keeps its letters: "pr" is in a name)
    text = cli(*merge, cwd=tmp_path).out
    assert "review (claude-code's own)" in text
    write(tmp_path, "skillstudio.yaml", "bundled_skills: false\n")
    alone = cli(*args, cwd=tmp_path).json["candidates"]
    assert [c["skill"] for c in alone] == ["pr-notes"]
