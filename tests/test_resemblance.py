"""Copies and near-copies of one description (issue 25, item 6): the strongest overlap
there is, reported by `overlap`, lint's description-overlap, the form's "competes with"
and `match` (core/ranking/resemblance.py), however many skills share the words."""

from __future__ import annotations

from typing import Any

from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.ranking.overlap import PER_SKILL, overlap_report
from skillstudio.core.ranking.resemblance import NEAR, resemblance, shingles
from skillstudio.core.ranking.rivals import competing
from tests.helpers import cli
from tests.test_overlap import SKILLS, collection

# Written for these tests.
TEXT = (
    "Summarise a meeting transcript into decisions, owners and action items for the "
    "team, then file them in the tracker."
)
OTHERS = [  # twenty descriptions that share a word or two with TEXT and each other at most
    "Tune slow PostgreSQL queries with indexes and query plans.",
    "Build small Docker images with multi-stage builds and layer caching.",
    "Draft release notes and a changelog from the commits since a tag.",
    "Triage incoming bug reports: label, deduplicate and assign them.",
    "Rotate leaked API tokens and purge them from git history.",
    "Profile memory growth in long-running Node.js services.",
    "Translate user interface strings and check plural forms.",
    "Design accessible colour palettes that pass contrast checks.",
    "Schedule cron jobs safely across time zones and daylight saving.",
    "Convert scanned PDF invoices into spreadsheet rows.",
    "Benchmark HTTP endpoints under load and plot latency percentiles.",
    "Write Terraform modules for private networks and subnets.",
    "Review Kubernetes manifests for missing limits and probes.",
    "Generate typed API clients from OpenAPI specifications.",
    "Audit npm dependencies for licences and known vulnerabilities.",
    "Migrate legacy Python 2 scripts to modern Python.",
    "Plan database backups and rehearse restoring them.",
    "Explain regular expressions piece by piece with examples.",
    "Resize and compress product photos for a web shop.",
    "Set up feature flags for gradual rollouts and quick rollback.",
]


def _names(pairs: list[Any]) -> set[frozenset[str]]:
    return {frozenset((p.a.name, p.b.name)) for p in pairs}


def test_resemblance_is_one_for_the_same_text_whatever_its_case_and_spacing() -> None:
    assert resemblance(shingles(TEXT), shingles("  " + TEXT.upper().replace(" ", "\n  "))) == 1.0
    words = TEXT.split()  # 19 words: 18 pairs, of which a changed word takes two
    one_changed = " ".join([*words[:8], "crew", *words[9:]])
    assert resemblance(shingles(TEXT), shingles(one_changed)) == 16 / 20
    assert NEAR <= 16 / 20
    assert shingles("Formats code") == frozenset()  # a title: the cosine judges it
    assert resemblance(shingles(TEXT), shingles(OTHERS[0])) == 0.0


def test_two_and_three_copies_are_the_strongest_pairs(tmp_path: Any) -> None:
    """Before: two copies scored 0.33 (every word in every skill weighs nothing and
    the names decide), three gave "0 competing pairs"."""
    for count in (2, 3):
        skills = {name: TEXT for name in ("notes-alpha", "minutes-beta", "recap-gamma")[:count]}
        report = overlap_report(collection(tmp_path / str(count), skills))
        assert [p.score for p in report.pairs] == [1.0] * (count * (count - 1) // 2)
        assert all(p.resemblance == 1.0 for p in report.pairs)
        run = cli("lint", "skills", "--profile", "agentskills", "-v", cwd=tmp_path / str(count))
        notes = [line for line in run.out.splitlines() if "description-overlap" in line]
        assert len(notes) == count  # one per skill: its strongest rival, and the others counted
        assert all("is the same text as" in note and "(1.00;" in note for note in notes)
        others = " and 1 other skill (`skillstudio overlap` lists them)"
        assert all((others in note) == (count == 3) for note in notes)


def test_twenty_copies_among_forty_are_all_listed_first(tmp_path: Any) -> None:
    skills = {f"copy-{i:02d}": TEXT for i in range(20)}
    skills.update({f"other-{i:02d}": text for i, text in enumerate(OTHERS)})
    registry = collection(tmp_path, skills)
    pairs = overlap_report(registry).pairs
    copies = {frozenset((f"copy-{i:02d}", f"copy-{j:02d}")) for i in range(20) for j in range(i)}
    assert _names(pairs[: len(copies)]) == copies
    assert all(p.score == 1.0 for p in pairs[: len(copies)])
    data = cli("lint", "skills", "--profile", "agentskills", "--format", "json", cwd=tmp_path).json
    noted = [d["skill"] for d in data["diagnostics"] if d["code"] == "description-overlap"]
    assert sorted(set(noted)) == sorted(n for n in skills if n.startswith("copy-"))
    assert all(noted.count(name) == 1 for name in set(noted))  # one note per skill
    notes = [d["message"] for d in data["diagnostics"] if d["code"] == "description-overlap"]
    assert all("and 18 other skills (`skillstudio overlap` lists them)" in m for m in notes)


def test_near_copies_with_one_word_changed_are_paired(tmp_path: Any) -> None:
    """Twenty copies, each with its own word where TEXT says "team": the changed words
    weigh the most, the shared ones little; the cosine alone missed them."""
    words = ["design", "legal", "sales", "support", "finance", "hiring", "security"]
    words += ["research", "platform", "mobile", "growth", "billing", "data", "infra"]
    words += ["docs", "ops", "brand", "travel", "events", "facilities"]
    skills = {f"near-{i:02d}": TEXT.replace("team", word) for i, word in enumerate(words)}
    skills.update({f"other-{i:02d}": text for i, text in enumerate(OTHERS)})
    pairs = overlap_report(collection(tmp_path, skills), threshold=0.45).pairs
    near = [p for p in pairs if p.a.name.startswith("near-") and p.b.name.startswith("near-")]
    assert len(near) == 20 * 19 // 2
    assert all(p.score == p.resemblance == 16 / 20 for p in near)


def test_a_crowd_of_copies_is_listed_within_the_bound_and_says_so(tmp_path: Any) -> None:
    """150 copies: every word is in more skills than the rare-word search reads, and
    all 11,175 pairs would be listed. Each copy is listed with its PER_SKILL nearest
    copies, and the count of the others is said."""
    count = 150
    registry = collection(tmp_path, {f"copy-{i:03d}": TEXT for i in range(count)})
    report = overlap_report(registry)
    partners: dict[str, int] = {}
    for pair in report.pairs:
        assert pair.score == 1.0
        for skill in (pair.a, pair.b):
            partners[skill.name] = partners.get(skill.name, 0) + 1
    assert len(partners) == count and max(partners.values()) == PER_SKILL
    assert len(report.pairs) <= count * PER_SKILL // 2
    assert report.bounds.unlisted == count * (count - 1) // 2 - len(report.pairs)
    run = cli("overlap", "skills", "--profile", "agentskills", cwd=tmp_path)
    assert f"Bounded: {report.bounds.unlisted:,} pairs not listed" in run.out
    data = cli("overlap", "skills", "--profile", "agentskills", "--format", "json", cwd=tmp_path)
    assert data.json["bounded"][0]["pairs_not_listed"] == report.bounds.unlisted


def test_match_with_the_description_shows_the_copies_as_likely_and_tied(tmp_path: Any) -> None:
    """Before: "no skill is likely" (the copies' words weigh little, or, in more than
    half of the skills, nothing)."""
    cases = {
        "two": {"notes-alpha": TEXT, "minutes-beta": TEXT},
        "crowd": {f"copy-{i:02d}": TEXT for i in range(20)}
        | {f"other-{i:02d}": text for i, text in enumerate(OTHERS)},
        "all": {f"copy-{i:02d}": TEXT for i in range(30)},  # each word in every skill
    }
    for folder, skills in cases.items():
        collection(tmp_path / folder, skills)
        run = cli(
            "match", TEXT, "--profile", "agentskills", "--format", "json", cwd=tmp_path / folder
        )
        copies = {n for n, text in skills.items() if text == TEXT}
        likely = [c for c in run.json["candidates"] if c["band"] == "likely"]
        assert {c["skill"] for c in likely} == set(sorted(copies)[: len(likely)]), folder
        assert len(likely) == min(len(copies), 30)
        assert len({c["score"] for c in likely}) == 1, folder  # tied
    text = cli("match", TEXT, "--profile", "agentskills", cwd=tmp_path / "two").out
    assert "no skill is likely" not in text
    # covering a description takes most of its words: two of them are not enough
    run = cli("match", "meeting owners", "--profile", "agentskills", cwd=tmp_path / "two")
    assert "no skill is likely" in run.out


def test_the_form_shows_a_copy_as_competing(tmp_path: Any) -> None:
    skills = dict(SKILLS) | {f"copy-{i:02d}": TEXT for i in range(3)}
    registry = collection(tmp_path, skills)
    index = LikelyIndex(registry)  # the likely index the app keeps
    found = competing(index, registry.active["copy-00"].path)
    assert [(s.name, x) for s, x in found] == [("copy-01", 1.0), ("copy-02", 1.0)]


def test_a_description_without_word_pairs_resembles_nothing_and_breaks_nothing(
    tmp_path: Any,
) -> None:
    """A one-word description has no pair of adjacent words: the near-copy search met
    it as a candidate of another skill and `lint` ended in an internal error
    (KeyError; the codex test's `Repository .codex.` description found it)."""
    skills = {
        "short-one": "Repository .codex.",
        "at-root": "At the repository root.",
        "notes-alpha": "Write meeting notes from a transcript.",
        "notes-beta": "Write meeting notes from a transcript today.",
    }
    report = overlap_report(collection(tmp_path, skills))
    assert not any("short-one" in (p.a.name, p.b.name) and p.resemblance for p in report.pairs)
    assert frozenset(("notes-alpha", "notes-beta")) in {
        frozenset((p.a.name, p.b.name)) for p in report.pairs
    }
    run = cli("lint", "skills", "--profile", "agentskills", cwd=tmp_path)
    assert run.code in (0, 1) and "internal error" not in run.err, run.err
