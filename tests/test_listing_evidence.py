"""A skill its listing does not explain (issue 43, round 3): when none of a request's
words is in what the agent lists of a skill (its name, description, trigger clause),
only in its body or its bundled markdown (references/*.md), a model choosing from the
listing would hardly pick it, so it is likely only with a high chance
(`Model.unlisted_p`); and its reasons say the words came from the body or bundled
files. Fixture skills are written here, not copied from the corpus."""

from __future__ import annotations

import os
from typing import Any

import pytest

from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.estimate import (
    LIKELY_MODEL,
    Evidence,
    TermWeight,
    band_of,
    evidence_text,
    probability,
    reason_text,
)
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.ranking.likely_ranking import rank_likely
from skillstudio.core.scanning.registry import Registry
from tests.helpers import CORPUS, skill_text, write

# (name, description, body, bundled reference or ""): build tooling skills
BUILDS = {
    "monorepo-builds": (
        "Speed up large monorepo builds with remote caching and hermetic toolchains.",
        "Configure the build graph, remote cache and toolchains for big repositories.",
        "# Details\n\n" + "Write a Dockerfile for each Node app of the repository. " * 2,
    ),
    "release-notes": (
        "Write release notes from merged changes, grouped by area.",
        "Collect merged changes since the last tag and group them by area.",
        "",
    ),
    "css-theming": (
        "Design tokens and themes for stylesheets, dark mode included.",
        "Define colour and spacing tokens once and derive the themes from them.",
        "",
    ),
    "sql-tuning": (
        "Tune slow SQL queries with indexes and query plans.",
        "Read the query plan, add the index that removes the scan, measure again.",
        "",
    ),
    "log-search": (
        "Search application logs for errors and correlate them with deploys.",
        "Filter by level and time window, then group errors by message.",
        "",
    ),
}

REQUEST = "write a Dockerfile for my Node app"


def collection(tmp_path: Any) -> Registry:
    for name, (description, body, bundled) in BUILDS.items():
        write(
            tmp_path,
            f"skills/{name}/SKILL.md",
            skill_text(name=name, description=description, _body=body),
        )
        if bundled:
            write(tmp_path, f"skills/{name}/references/details.md", bundled)
    registry = project_from_folder(str(tmp_path / "skills"), "agentskills").registry()
    registry.scan()
    return registry


def unexplained(hidden: float) -> Evidence:
    """Evidence of a first candidate a little ahead whose listing explains none of the
    request and whose body explains `hidden` of it (the reviewer's Bazel skill had
    strength 0.60, lead 1.2 and the body's 100 %: chance 71 %)."""
    return Evidence(0.6, 1.2, 0.0, hidden, False)


def test_a_skill_its_listing_does_not_explain_needs_a_high_chance_to_be_likely() -> None:
    """The band reads the calibrated chance, but a skill the listing explains none of
    is likely only from `unlisted_p`; the same evidence with a listing word is likely."""
    model = LIKELY_MODEL
    assert model.unlisted_p > model.likely_p
    body_only = unexplained(1.0)
    p = probability(model, body_only)
    assert model.likely_p <= p < model.unlisted_p  # likely by the chance alone
    assert band_of(model, body_only) == "possible"
    said = evidence_text(model, body_only, first=True)
    assert "its listing explains 0 % of the request" in said
    assert f"needs a chance of {round(100 * model.unlisted_p)} % to be likely" in said
    listed = Evidence(0.6, 1.2, 0.3, 0.7, False)
    assert probability(model, listed) >= model.likely_p
    assert band_of(model, listed) == "likely"
    assert "needs a chance" not in evidence_text(model, listed, first=True)
    sure = Evidence(2.0, 3.0, 0.0, 0.9, False)  # a body explaining it all, far ahead
    assert probability(model, sure) >= model.unlisted_p
    assert band_of(model, sure) == "likely"


def test_a_word_only_the_body_or_bundled_files_have_says_so() -> None:
    """The gist holds the body's words and the bundled markdown's as one: the reason
    says both, not "from the body" for a word of references/details.md."""
    assert reason_text(TermWeight("dockerfile", "dockerfil", 1.5, body=True)) == (
        "dockerfile 1.50 from the body or bundled files"
    )
    assert reason_text(TermWeight("node", "node", 0.6)) == "node 0.60"


def test_a_skill_only_its_bundled_file_matches_is_not_likely(tmp_path: Any) -> None:
    """Over a fixture collection, the monorepo skill's words for the request are all in
    its references/details.md: it ranks first, its listing explains 0 %, and it is
    not likely (it was, with its chance, before)."""
    registry = collection(tmp_path)
    result = rank_likely(LikelyIndex(registry), REQUEST)
    first = result.candidates[0]
    assert first.name == "monorepo-builds"
    assert first.evidence is not None and first.evidence.shown == 0
    assert first.evidence.hidden > 0.5 and all(r.body for r in first.reasons)
    assert first.chance is not None and first.chance >= LIKELY_MODEL.likely_p
    assert first.band == "possible" and not result.likely


@pytest.mark.skipif(not os.path.isdir(CORPUS), reason="shared corpus absent")
def test_the_reviewers_dockerfile_request_over_wshobson_agents() -> None:
    """The reviewer's request over wshobson-agents (skipped without the shared corpus):
    bazel-build-optimization, made first by words of its references/ only, is no
    longer likely, and its reasons say where the words are."""
    registry = project_from_folder(
        os.path.join(CORPUS, "wshobson-agents"), "agentskills"
    ).registry()
    registry.scan()
    result = rank_likely(LikelyIndex(registry), REQUEST)
    bazel = next(c for c in result.candidates if c.name == "bazel-build-optimization")
    assert bazel.evidence is not None and bazel.evidence.shown == 0
    assert bazel.band != "likely"
    assert "bazel-build-optimization" not in {c.name for c in result.likely}
    assert any("from the body or bundled files" in reason_text(r) for r in bazel.reasons)
