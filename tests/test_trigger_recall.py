"""The likely estimate on a request sharing one clear trigger word with a skill
(issue 43): a description's trigger clause ("Use when …") read as a field of its own,
abbreviations read as the words they stand for (PR, repo, k8s …), and the lead of a
weak first candidate said without a contradiction. Fixture skills are written here,
in the shape of the corpus's descriptions, not copied from it."""

from __future__ import annotations

import os
from typing import Any

import pytest

from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.estimate import LEAD_FLOOR, Evidence, lead_text
from skillstudio.core.ranking.likely_explanation import explained_text, why_not_likely
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.ranking.likely_ranking import rank_likely
from skillstudio.core.ranking.trigger_clauses import trigger_text
from skillstudio.core.reading.skill_words import terms
from skillstudio.core.scanning.registry import Registry
from tests.helpers import CORPUS, skill_text, write

# (name, description, body): a workflow collection like the ones authors keep
WORKFLOW = {
    "root-cause-debugging": (
        "Use when you run into any bug, a failing test or behaviour you did not expect, "
        "before you propose a fix.",
        "Find the root cause first. Reproduce it, read the stack trace, form a hypothesis.",
    ),
    "plan-writing": (
        "Use when you have a spec or requirements for a multi-step task, before touching code.",
        "Write the plan as small steps: files to change, tests to write, commands to run.",
    ),
    "idea-shaping": (
        "You must use this before any creative work: features, components, new behaviour.",
        "Ask one question at a time. Propose two or three approaches. Page by page.",
    ),
    "asking-for-review": (
        "Use this skill when a change is ready for review, before you merge the pull request.",
        "Dispatch a reviewer with the diff range. Fix critical issues at once.",
    ),
    "verifying-work": (
        "Use when about to claim work is complete, fixed or passing, before committing.",
        "Run the command that proves the claim, read its output, then claim.",
    ),
    "worktrees": (
        "Use when starting feature work that needs isolation from the current workspace.",
        "Create a worktree in a checked directory, run setup, verify a clean baseline.",
    ),
}


def collection(tmp_path: Any, skills: dict[str, tuple[str, str]]) -> Registry:
    for name, (description, body) in skills.items():
        text = skill_text(name=name, description=description, _body=body)
        write(tmp_path, f"skills/{name}/SKILL.md", text)
    registry = project_from_folder(str(tmp_path / "skills"), "agentskills").registry()
    registry.scan()
    return registry


@pytest.mark.parametrize(
    ("description", "clause"),
    [
        ("Debugs things. Use when a test fails. Not more.", "a test fails"),
        (
            "Plans. Use this skill when the user asks for a plan; then stop.",
            "the user asks for a plan",
        ),
        ("Charts. Use it for sales charts. Fast.", "sales charts"),
        ("Exports models. Use after a run produces a checkpoint.", "a run produces a checkpoint"),
        ("Guide. This skill should be used when users want a new skill.", "users want a new skill"),
        ("Tarot. Triggers on card readings.", "card readings"),
        ("Writes notes when the user wants minutes of a meeting.", "minutes of a meeting"),
        ("Writes release notes from commits.", ""),
    ],
)
def test_trigger_clauses_are_found_in_the_corpus_wordings(description: str, clause: str) -> None:
    assert trigger_text(description) == clause


def test_a_trigger_clause_word_counts_in_a_field_of_its_own(tmp_path: Any) -> None:
    """'I found a bug …': the word 'bug' of the debugging skill's 'Use when …' clause
    counts from the trigger clause as well as the description, and ranks it first."""
    registry = collection(tmp_path, WORKFLOW)
    index = LikelyIndex(registry)
    query = "I found a bug: the login page crashes when I submit the form"
    result = rank_likely(index, query)
    assert result.candidates[0].name == "root-cause-debugging"
    lines = explained_text(
        why_not_likely(result, "root-cause-debugging", index, registry),
        registry.profile.selects_line(),
    )
    bug = next(line for line in lines if line.startswith("bug "))
    assert "description" in bug and "trigger clause" in bug
    plan = rank_likely(index, "write an implementation plan for the auth migration")
    assert plan.candidates[0].name == "plan-writing"


def test_abbreviations_read_as_the_words_they_stand_for(tmp_path: Any) -> None:
    """'PR' meets 'pull request' (and repo, k8s, e2e, db, config their long forms), in
    skills and requests alike; the reasons show the word read and the one typed: 'pull (pr)'."""
    assert terms("Open a PR on the repo, deploy to k8s") == terms(
        "open a pull request on the repository, deploy to kubernetes"
    )
    assert terms("e2e tests for the db config") == terms(
        "end-to-end tests for the database configuration"
    )
    # only standing alone: a name or command keeps its letters ("keep running
    # /babysit-prs" read as "pull requests" put Claude Code's loop beside its review)
    kept = terms("keep running /babysit-prs on pr-notes and db_url")
    assert {"prs", "pr", "db"} <= set(kept) and not {"pull", "databas"} & set(kept)
    registry = collection(tmp_path, WORKFLOW)
    result = rank_likely(LikelyIndex(registry), "review my code before I merge this PR")
    first = result.candidates[0]
    assert first.name == "asking-for-review"
    assert {"pull (pr)", "request (pr)", "merge", "review"} <= {r.term for r in first.reasons}


def weak(strength: float, lead: float) -> Evidence:
    return Evidence(strength, lead, 0.5, 0.0, False)


def test_the_lead_of_a_weak_first_candidate_is_not_called_behind(tmp_path: Any) -> None:
    """A lead is measured against half a distinctive word at least, so a first
    candidate weaker than that has a lead below 1: it read "It ranks first …
    behind the best skill (0.91×)". Now each case says what is true."""
    alone = lead_text(weak(0.455, 0.455 / LEAD_FLOOR), first=True)
    assert "behind" not in alone and "ahead of the others but weak" in alone
    assert "strength 0.46" in alone
    behind = lead_text(weak(0.4, 0.4 / 0.8), first=False)
    assert behind == "behind the best skill (0.50× its strength)"
    both = lead_text(weak(0.3, 0.3 / LEAD_FLOOR), first=False)
    assert both.startswith("behind a best skill as weak")
    assert lead_text(weak(1.2, 2.0), first=True) == "at least 2.0× the next skill's strength"
    # end to end: the first of a faint request
    registry = collection(tmp_path, WORKFLOW)
    index = LikelyIndex(registry)
    result = rank_likely(index, "my hypothesis")
    top = result.candidates[0]
    assert top.evidence is not None and top.evidence.lead < 1
    text = "\n".join(
        explained_text(
            why_not_likely(result, top.name, index, registry), registry.profile.selects_line()
        )
    )
    assert "It ranks first" in text and "behind" not in text


@pytest.mark.skipif(not os.path.isdir(CORPUS), reason="shared corpus absent")
def test_the_reviewers_requests_over_obra_superpowers() -> None:
    """The three reviewers' requests over the collection they used (skipped without
    the shared corpus): each skill ranks first, with the trigger clause's word or the
    PR read as a pull request among its reasons."""
    registry = project_from_folder(
        os.path.join(CORPUS, "obra-superpowers"), "agentskills"
    ).registry()
    registry.scan()
    index = LikelyIndex(registry)
    bug = rank_likely(index, "I found a bug: the login page crashes when I submit the form")
    assert bug.candidates[0].name == "systematic-debugging"
    lines = explained_text(
        why_not_likely(bug, "systematic-debugging", index, registry),
        registry.profile.selects_line(),
    )
    assert "trigger clause" in next(line for line in lines if line.startswith("bug "))
    plan = rank_likely(index, "write an implementation plan for the auth migration")
    assert plan.candidates[0].name == "writing-plans"
    review = rank_likely(index, "review my code before I merge this PR")
    assert review.candidates[0].name == "requesting-code-review"
    assert review.candidates[0].band == "likely"
    assert "request (pr)" in {r.term for r in review.candidates[0].reasons}
