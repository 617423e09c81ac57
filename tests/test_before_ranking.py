"""The revision's answer to one request of a change report (issue 40,
core/projects/before_ranking.py): ranked from the reading the comparison kept, after
the revision's copy is gone, and agreeing with the report's own before column."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from skillstudio.core.projects.before_ranking import before_project, rank_before
from skillstudio.core.projects.change_sides import Reading, compare_revisions

from .test_diff import QUERY, skill
from .test_diff import repo as repo  # the fixture: two skills, a suite, one commit

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _broken(folder: Path) -> None:
    """The commit skill's description no longer speaks of staged changes; review's does."""
    skill(folder, "commit", "Formats changelog files. Use when asked to tidy a changelog.")
    skill(folder, "review", "Reviews pull requests. Also drafts a message for staged changes.")


def test_the_before_side_answers_as_the_report_did(repo: Path) -> None:
    folder = repo
    _broken(folder)
    comparison = compare_revisions(["HEAD"], Reading(str(folder), workers=1))
    side = comparison.before
    assert side is not None and side.label == "HEAD"
    assert not os.path.exists(side.top)  # the revision's copy is removed: nothing re-read
    project = comparison.to_json()["projects"][0]
    case = next(c for c in project["cases"] if c["query"] == QUERY)
    assert case["status"] == "regression"
    ranking = rank_before(side, project["path"], project["profile"], QUERY)
    assert ranking is not None and ranking.label == "HEAD"
    assert ranking.likely is not None
    winner = ranking.likely.likely[0]
    assert winner.name == case["before"]["likely"] == "commit"
    assert winner.band == "likely" and winner.strength > 0
    assert ranking.text.splitlines()[1].startswith("Likely candidates")
    assert "commit" in ranking.text.splitlines()[2]
    assert [s for s, _ in ranking.selected] == case["before"]["selected"]
    # the working tree answers otherwise: the after column's likely skill
    assert case["after"]["likely"] != "commit"
    assert ranking.to_json()["likely"]["candidates"][0]["skill"] == "commit"


def test_a_project_the_revision_lacks_has_no_before_answer(repo: Path) -> None:
    folder = repo
    comparison = compare_revisions(["HEAD"], Reading(str(folder), workers=1))
    assert comparison.before is not None
    project = comparison.to_json()["projects"][0]
    assert before_project(comparison.before, project["path"], project["profile"]) is not None
    assert before_project(comparison.before, "elsewhere", project["profile"]) is None
    assert rank_before(comparison.before, project["path"], "codex", QUERY) is None
