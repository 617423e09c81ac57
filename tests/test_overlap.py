"""Overlap (core/ranking/overlap.py, `skillstudio overlap`, lint's description-overlap)."""

from __future__ import annotations

import itertools
import math
import os
import random
from typing import Any

import pytest

from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.ranking.overlap import (
    LINT_THRESHOLD,
    OVERLAP_MODEL,
    overlaps,
)
from skillstudio.core.ranking.resemblance import NEAR, resemblance, shingles
from skillstudio.core.ranking.rivals import competing
from skillstudio.core.reading.skill_words import terms, with_phrases
from skillstudio.core.scanning.registry import Registry
from tests.helpers import CORPUS, cli, skill_text, write

SKILLS = {
    # the deliberate near-duplicates
    "pr-review": "Review a pull request diff for bugs, security holes and style before merging.",
    "merge-request-check": "Check a pull request diff for bugs and security holes before merging.",
    # the rest share a word or two with them at most
    "sql-tuning": "Tune slow SQL queries with indexes and query plans in PostgreSQL.",
    "docker-build": "Build small Docker images with multi-stage builds and layer caching.",
    "release-notes": "Draft release notes and a changelog from the commits since a tag.",
    "style-guide": "Apply the team's writing style to documentation pages.",
    "bug-triage": "Triage incoming bug reports: label, deduplicate and assign them.",
}


def collection(tmp_path: Any, skills: dict[str, str], profile: str = "agentskills") -> Registry:
    for name, description in skills.items():
        write(tmp_path, f"skills/{name}/SKILL.md", skill_text(name=name, description=description))
    registry = project_from_folder(str(tmp_path / "skills"), profile).registry()
    registry.scan()
    return registry


def test_the_deliberate_near_duplicates_are_the_top_pair(tmp_path: Any) -> None:
    pairs = overlaps(collection(tmp_path, SKILLS), threshold=0.05)
    top = pairs[0]
    assert {top.a.name, top.b.name} == {"pr-review", "merge-request-check"}
    assert top.score > 0.5
    assert all(p.score < top.score for p in pairs[1:])
    words = [term for term, _ in top.shared]
    assert {"pull", "request", "diff", "security"} <= set(words)
    weights = [w for _, w in top.shared]
    assert weights == sorted(weights, reverse=True)


def _naive(index: LikelyIndex) -> dict[frozenset[str], float]:
    """Every pair's score, the slow way: the cosine of the two term-weight vectors,
    or, when higher, how much of a request of each one's name words the other scores,
    or the descriptions' resemblance, when NEAR or more."""
    vectors = {doc.skill.name: index.vector(doc.skill.path) for doc in index.docs.values()}
    texts = {doc.skill.name: shingles(doc.skill.description) for doc in index.docs.values()}
    names = {
        doc.skill.name: [
            t
            for t in index.fields(doc.skill).get("name", ())
            if t in vectors[doc.skill.name] and not t.isdigit()  # a number names nothing
        ]
        for doc in index.docs.values()
    }

    # what each description says (words and phrases): a term of both names that
    # neither description says is a naming convention, left out of the pair's score
    said = {
        doc.skill.name: set(with_phrases(terms(doc.skill.description), True))
        for doc in index.docs.values()
    }

    def answered(a: str, b: str, naming: set[str]) -> float:
        words = [t for t in names[a] if t not in naming]
        whole = sum(vectors[a][t] for t in words)
        return sum(vectors[b].get(t, 0.0) for t in words) / whole if whole else 0.0

    out = {}
    for a, b in itertools.combinations(sorted(vectors), 2):
        va, vb = vectors[a], vectors[b]
        naming = (set(names[a]) & set(names[b])) - said[a] - said[b]
        words_a = {t: w for t, w in va.items() if " " not in t}  # phrases: the probe's
        words_b = {t: w for t, w in vb.items() if " " not in t and t not in naming}
        dot = sum(w * words_b.get(t, 0.0) for t, w in words_a.items())
        norm = math.sqrt(
            sum(w * w for w in words_a.values()) * sum(w * w for w in words_b.values())
        )
        near = resemblance(texts[a], texts[b])
        out[frozenset((a, b))] = max(
            dot / norm,
            math.sqrt(answered(a, b, naming) * answered(b, a, naming)),
            near if near >= NEAR else 0.0,
        )
    return out


def test_scores_are_exact_and_strong_pairs_are_all_found(tmp_path: Any) -> None:
    rng = random.Random(11)
    common = "review deploy test build cache index query plan report".split()
    rare = [f"w{i}" for i in range(200)]
    skills = {}
    for i in range(60):
        words = [rng.choice(common) for _ in range(4)] + [rng.choice(rare) for _ in range(5)]
        # names of a common and a rare word, so the name probe pairs some
        skills[f"{rng.choice(common)}-{rng.choice(rare)}-{i:02d}"] = " ".join(words)
    first = sorted(skills)[7]
    skills["twin-a"] = skills[first] + " extra"
    skills["twin-b"] = skills[first]
    registry = collection(tmp_path, skills)
    found = {frozenset((p.a.name, p.b.name)): p.score for p in overlaps(registry, threshold=0.4)}
    naive = _naive(LikelyIndex(registry, OVERLAP_MODEL))
    for pair, score in found.items():
        assert score == pytest.approx(naive[pair])
    strong = {pair for pair, score in naive.items() if score >= 0.6}
    assert strong and strong <= set(found)
    assert frozenset((first, "twin-b")) in found


def test_overlap_command_text_and_json(tmp_path: Any) -> None:
    collection(tmp_path, SKILLS)
    run = cli("overlap", "skills", "--profile", "agentskills", cwd=tmp_path)
    assert run.code == 0, run.err
    first = run.out.splitlines()[0]
    assert "merge-request-check  ~  pr-review" in first and "shared: " in first
    listed = len([line for line in run.out.splitlines() if "  ~  " in line])
    assert listed >= 1
    noun = "pair" if listed == 1 else "pairs"
    assert f"{listed} competing {noun} among 7 skills" in run.out
    data = cli("overlap", "skills", "--profile", "agentskills", "--format", "json", cwd=tmp_path)
    pairs = data.json["pairs"]
    assert pairs[0]["skills"] == ["merge-request-check", "pr-review"]
    assert {s["term"] for s in pairs[0]["shared"]} >= {"pull", "diff"}
    assert data.json["estimate"] is True
    assert cli("overlap", "skills", "--threshold", "2", cwd=tmp_path).code == 2


def test_lint_reports_near_duplicates_as_info(tmp_path: Any) -> None:
    collection(tmp_path, SKILLS)
    data = cli("lint", "skills", "--profile", "agentskills", "--format", "json", cwd=tmp_path).json
    notes = [d for d in data["diagnostics"] if d["code"] == "description-overlap"]
    assert sorted(d["skill"] for d in notes) == ["merge-request-check", "pr-review"]
    assert all(d["severity"] == "info" and d["field"] == "description" for d in notes)
    on_review = next(d for d in notes if d["skill"] == "pr-review")
    assert "merge-request-check" in on_review["message"] and "pull" in on_review["message"]
    assert on_review["line"] >= 2  # the description's own line
    assert data["summary"]["errors"] == 0


def test_lint_has_no_overlap_notes_where_triggers_choose(tmp_path: Any) -> None:
    for name, description in SKILLS.items():
        write(
            tmp_path,
            f"skills/{name}/SKILL.md",
            skill_text(name=name, description=description, triggers=[name]),
        )
    data = cli("lint", "skills", "--profile", "oasis", "--format", "json", cwd=tmp_path).json
    assert not [d for d in data["diagnostics"] if d["code"] == "description-overlap"]


@pytest.mark.skipif(not os.path.isdir(CORPUS), reason="no ../shared/corpus")
def test_on_the_corpus_the_known_near_duplicates_are_listed() -> None:
    registry = project_from_folder(CORPUS, "agentskills").registry()
    registry.scan()
    pairs = {frozenset((p.a.name, p.b.name)) for p in overlaps(registry)}
    for a, b in [
        ("react-native-architecture", "react-native-design"),
        ("systematic-debugging", "debugging-strategies"),
        ("python-testing-patterns", "temporal-python-testing"),
    ]:
        assert frozenset((a, b)) in pairs
    # the code-review and the testing skills among the strongest pairs (before: the
    # code-review ones were not listed at all, cosines 0.08-0.14)
    top = [frozenset((p.a.name, p.b.name)) for p in overlaps(registry)[:20]]
    for a, b in [
        ("code-review-excellence", "requesting-code-review"),
        ("code-review-excellence", "receiving-code-review"),
        ("receiving-code-review", "requesting-code-review"),
        ("javascript-testing-patterns", "python-testing-patterns"),
        ("python-testing-patterns", "temporal-python-testing"),
    ]:
        assert frozenset((a, b)) in top


def test_skills_named_for_one_subject_compete_when_a_description_says_it(tmp_path: Any) -> None:
    skills = dict(SKILLS)
    del skills["merge-request-check"]  # pr-review's twin
    # one description says the subject both names share; the other says only when
    skills["code-review-feedback"] = "Use when acting on the code review comments left for you."
    skills["code-review-request"] = "Use before merging, to ask a colleague for a second look."
    pairs = overlaps(collection(tmp_path, skills), threshold=0.05)
    assert {pairs[0].a.name, pairs[0].b.name} == {"code-review-feedback", "code-review-request"}
    assert pairs[0].score > 0.4
    assert "code review" in [term for term, _ in pairs[0].shared]


def test_words_only_the_names_share_are_a_naming_convention(tmp_path: Any) -> None:
    """Two skills whose names end alike and whose descriptions say different things do
    not compete (a first-time reviewer's pair was rated 0.55, "shared: driven, driven
    development, development"); a request would use the descriptions' words."""
    skills = dict(SKILLS)
    skills["subagent-driven-development"] = (
        "Use when a written plan's steps can each be handed to a fresh helper agent."
    )
    skills["test-driven-development"] = (
        "Use before changing behaviour: write a failing check first, then the code."
    )
    registry = collection(tmp_path, skills)
    pairs = overlaps(registry, threshold=0.05)
    named = [p for p in pairs if {p.a.name, p.b.name} == set(list(skills)[-2:])]
    assert not named or named[0].score < 0.1
    assert not any("driven" in term for p in pairs for term, _ in p.shared)
    # the app's form (core/ranking/rivals.py) scores the pair alike
    index = LikelyIndex(registry, OVERLAP_MODEL)
    index.sync()
    path = next(s.path for s in registry.active.values() if s.name == "test-driven-development")
    assert "subagent-driven-development" not in [s.name for s, _ in competing(index, path)]


@pytest.mark.skipif(not os.path.isdir(CORPUS), reason="no ../shared/corpus")
def test_on_the_corpus_names_ending_alike_do_not_compete() -> None:
    root = os.path.join(CORPUS, "obra-superpowers")
    registry = project_from_folder(root, "agentskills").registry()
    registry.scan()
    pairs = {frozenset((p.a.name, p.b.name)): p for p in overlaps(registry)}
    assert frozenset(("subagent-driven-development", "test-driven-development")) not in pairs
    # one of the two says "code review": the subject both names share, still a pair
    kept = pairs[frozenset(("receiving-code-review", "requesting-code-review"))]
    assert kept.score >= LINT_THRESHOLD


def test_copies_of_one_description_are_all_paired(tmp_path: Any) -> None:
    skills = dict(SKILLS)
    for i in range(4):
        skills[f"copy-{i}"] = "Summarise a meeting transcript into decisions and action items."
    pairs = overlaps(collection(tmp_path, skills))
    copies = [p for p in pairs if p.a.name.startswith("copy-") and p.b.name.startswith("copy-")]
    assert len(copies) == 4 * 3 // 2
    assert pairs[: len(copies)] == copies  # the strongest pairs of the collection


def test_shared_words_are_shown_as_the_descriptions_write_them(tmp_path: Any) -> None:
    """A word's stem is shown in a form a description uses, even when a skill listed
    before the pair has that stem only in its body's gist ("tested" there)."""
    body = "# Notes\n\n" + "It was tested. " * 5
    write(
        tmp_path,
        "skills/a-notes/SKILL.md",
        skill_text(name="a-notes", description="Notes.", _body=body),
    )
    for name in ("b-one", "c-two"):
        text = skill_text(name=name, description="Flaky testing of widget gizmos and sprockets.")
        write(tmp_path, f"skills/{name}/SKILL.md", text)
    registry = project_from_folder(str(tmp_path / "skills"), "agentskills").registry()
    registry.scan()
    (pair,) = overlaps(registry)
    assert {pair.a.name, pair.b.name} == {"b-one", "c-two"}
    assert "testing" in [term for term, _ in pair.shared]


def test_overlap_and_lint_read_no_gist_and_find_the_same_pairs(tmp_path: Any) -> None:
    """`overlap` and `lint` never rank likely candidates: their registries skip the
    gists (and the bundled markdown's reading), and the pairs are the same."""
    registry = collection(tmp_path, SKILLS)
    assert all(s.gist for s in registry.skills)
    plain = project_from_folder(str(tmp_path / "skills"), "agentskills").registry(gists=False)
    plain.scan()
    assert not any(s.gist for s in plain.skills)
    plain.reparse(plain.skills[0].path)
    assert not any(s.gist for s in plain.skills)

    def listed(reg: Registry) -> list[tuple[str, str, float]]:
        return [(p.a.name, p.b.name, p.score) for p in overlaps(reg)]

    assert listed(plain) == listed(registry) and listed(plain)


def test_an_indexs_phrase_is_one_string_however_often_read(tmp_path: Any) -> None:
    """An index counts a skill's terms, then posts them from a second reading: each
    reading's phrase was a string of its own (2-3 MB an index at 10,000 skills). Now
    the document counts and the postings hold one string, the overlap index's too."""
    one = with_phrases(terms("rotate signing keys"), True)
    two = with_phrases(terms("rotate signing keys"), True)
    phrase = next(p for p in one if " " in p)
    assert next(p for p in two if p == phrase) is phrase
    for word in ("alpha", "beta", "gamma"):
        told = f"Rotates signing keys for the {word} service."
        name = f"rotate-signing-{word}"
        write(tmp_path, f"{name}/SKILL.md", skill_text(name=name, description=told))
    registry = project_from_folder(str(tmp_path), "agentskills").registry()
    registry.scan()
    likely, overlap = LikelyIndex(registry), LikelyIndex(registry, OVERLAP_MODEL)
    phrases = [t for t in likely.postings if " " in t]
    assert phrases
    counted = {t: t for t in likely.df}
    shared = {t: t for t in overlap.postings}
    assert all(counted[t] is t for t in phrases)
    assert all(shared[t] is t for t in phrases if t in shared)
