"""The skills competing with one skill (core/ranking/rivals.py): the form's "competes with"."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from skillstudio.core.projects.open_project import OpenProject
from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.ranking.overlap import OVERLAP_MODEL, overlap_report, overlaps
from skillstudio.core.ranking.rivals import competing, with_own
from tests.helpers import CORPUS, skill_text, write
from tests.test_overlap import SKILLS, collection

# Two skills whose descriptions share rare words; the other skills' bodies use them
# too (the likely ranking's index reads the bodies' gists: there they are common).
ART = {
    "poster-design": (
        "Designs posters with gradients, typography, layout, colour palette, exported "
        "as png images or vector svg.",
        "Sketch it. Render it.",
    ),
    "generative-art": (
        "Creates generative particle art with gradients; png images using typography, "
        "a colour palette, vector svg and layout.",
        "Seed it. Draw it.",
    ),
    "chart-maker": (
        "Makes charts from CSV data with matplotlib.",
        "Use a colour palette. Save a png image. Layout and typography of the png "
        "image with the colour palette.",
    ),
    "web-frontend": (
        "Builds web frontend pages in HTML and CSS.",
        "Pick a colour palette and typography. Export png images of the layout.",
    ),
    "sql-review": (
        "Reviews SQL queries and migrations for locking risks.",
        "Colour palette of the report, png images of the plan, layout and typography.",
    ),
    "release-notes": (
        "Drafts release notes from merged pull requests.",
        "A png image per release with the colour palette, layout, typography.",
    ),
}


WORDS = (
    "review pull request diff bugs security style merge tune slow sql query index "
    "docker image build layer cache release notes changelog commit tag triage label"
).split()


def test_competing_gives_each_skill_the_pairs_overlap_lists(tmp_path: Any) -> None:
    rng = random.Random(19)
    skills = dict(SKILLS)
    for n in range(40):  # a crowd sharing words in every mix
        skills[f"mix-{n}"] = " ".join(rng.choice(WORDS) for _ in range(8)) + "."
    registry = collection(tmp_path, skills)
    index = LikelyIndex(registry)  # the likely index the app keeps
    pairs = overlaps(registry, threshold=0.3)
    assert pairs, "the collection has competing pairs"
    for skill in registry.active.values():
        expected = sorted(
            ((p.b if p.a.name == skill.name else p.a).name, round(p.score, 9))
            for p in pairs
            if skill.name in (p.a.name, p.b.name)
        )
        found = competing(index, skill.path, limit=100, threshold=0.3)
        assert sorted((s.name, round(x, 9)) for s, x in found) == expected, skill.name
        assert [x for _, x in found] == sorted((x for _, x in found), reverse=True)


def test_the_near_duplicate_competes_first_and_unknown_paths_have_none(tmp_path: Any) -> None:
    registry = collection(tmp_path, SKILLS)
    index = LikelyIndex(registry)  # the likely index the app keeps
    review = registry.active["pr-review"]
    found = competing(index, review.path)
    assert found and found[0][0].name == "merge-request-check"
    assert competing(index, str(tmp_path / "nowhere/SKILL.md")) == []


def test_the_likely_index_gives_overlaps_pairs_and_scores_whatever_the_bodies(
    tmp_path: Any,
) -> None:
    """The likely index also reads the bodies' gists: its document counts made words
    the art skills share common (the other skills' bodies use them), and the form said
    0.15 where `overlap` said 0.34 (issue 30, item 4). Counted as overlap's own index
    counts them, the pair and its score are overlap's."""
    for name, (description, body) in ART.items():
        text = skill_text(name=name, description=description, _body=f"# {name}\n\n{body}\n")
        write(tmp_path, f"skills/{name}/SKILL.md", text)
    registry = project_from_folder(str(tmp_path / "skills"), "agentskills").registry()
    registry.scan()
    index = LikelyIndex(registry)  # the likely index the app keeps (bodies included)
    pairs = overlaps(registry, threshold=0.3)
    assert [(p.a.name, p.b.name) for p in pairs] == [("generative-art", "poster-design")]
    for skill in registry.active.values():
        expected = sorted(
            ((p.b if p.a.name == skill.name else p.a).name, round(p.score, 9))
            for p in pairs
            if skill.name in (p.a.name, p.b.name)
        )
        found = competing(index, skill.path, limit=100, threshold=0.3)
        assert sorted((s.name, round(x, 9)) for s, x in found) == expected, skill.name
    # an edit that moves a word out of the body keeps the counts right
    art = registry.active["chart-maker"]
    index.remove(art.path)
    index.add(art)
    assert competing(index, registry.active["poster-design"].path, limit=100, threshold=0.3)


WSHOBSON = os.path.join(CORPUS, "wshobson-agents")


@pytest.mark.skipif(not os.path.isdir(WSHOBSON), reason="no ../shared/corpus")
def test_on_wshobson_agents_the_forms_pairs_are_overlaps_for_every_skill() -> None:
    """A reviewer's claude-code project of 181 skills: the form said "no other skill"
    for parallel-debugging where `overlap` and the Overlap Map listed debugging-strategies
    and parallel-feature-development (it read Try a Request's index: the listing's cut
    descriptions, Claude Code's own skills in the counts; 96 of the 181 skills differed).
    Over the overlap index with Claude Code's own skills beside it, the project's pairs
    are overlap's for every skill, and the own skills are weighed without changing them."""
    project = OpenProject.read(project_from_folder(WSHOBSON, "claude-code"), gists=False)
    registry = project.registry
    assert len(registry.active) >= 150
    report = overlap_report(registry)
    index = project.likely_index(OVERLAP_MODEL)
    assert index is not None and not index.own
    own = registry.profile.agent_skills(registry.profile.own_options)
    assert {"review", "security-review"} <= {skill.name for skill in own}
    counted = len(index.docs)
    mine: dict[str, dict[str, float]] = {path: {} for path in registry.by_path}
    for pair in report.pairs:
        mine[pair.a.path][pair.b.name] = pair.score
        mine[pair.b.path][pair.a.name] = pair.score
    owns = {}
    for skill in registry.active.values():
        found = with_own(index, skill.path, own, limit=100)
        project_pairs = {s.name: x for s, x in found if not s.fields.get("agent_skill")}
        assert project_pairs == pytest.approx(mine[skill.path], abs=0.005), skill.name
        owns[skill.name] = [s.name for s, _ in found if s.fields.get("agent_skill")]
    assert len(index.docs) == counted  # the own skills were never counted
    assert mine[registry.active["parallel-debugging"].path].keys() == {
        "debugging-strategies",
        "parallel-feature-development",
    }
    assert "review" in owns["multi-reviewer-patterns"]


def test_the_agents_own_skills_are_weighed_against_the_projects_counts_untouched(
    tmp_path: Any,
) -> None:
    """Claude Code's own skills compete with the project's (a copy of one's description
    is the same text: 1.0), scored against the project's counts, which they never enter:
    the project's pairs stay `overlap`'s."""
    registry = collection(tmp_path, SKILLS, "claude-code")
    own = registry.profile.agent_skills(registry.profile.own_options)
    simplify = next(skill for skill in own if skill.name == "simplify")
    write(
        tmp_path,
        "skills/tidy-up/SKILL.md",
        skill_text(name="tidy-up", description=simplify.description),
    )
    registry = project_from_folder(str(tmp_path / "skills"), "claude-code").registry()
    registry.scan()
    index = LikelyIndex(registry, OVERLAP_MODEL)
    counts, docs = dict(index.df), len(index.docs)
    tidy = registry.active["tidy-up"].path
    found = with_own(index, tidy, own, limit=100)
    assert found[0][0] is simplify and found[0][1] == pytest.approx(1.0)
    assert all(s.fields.get("agent_skill") for s, _ in found)  # no project pair here
    assert dict(index.df) == counts and len(index.docs) == docs
    review = registry.active["pr-review"].path
    expected = {
        (p.b if p.a.name == "pr-review" else p.a).name: p.score
        for p in overlaps(registry)
        if "pr-review" in (p.a.name, p.b.name)
    }
    got = with_own(index, review, own, limit=100)
    project = {s.name: x for s, x in got if not s.fields.get("agent_skill")}
    assert project == pytest.approx(expected, abs=1e-9)
