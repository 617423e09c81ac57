"""The evaluation script (core/projects/evaluate.py): request sets, figures, the corpus set."""

from __future__ import annotations

import io
import json
import os
from contextlib import redirect_stdout
from typing import Any

import pytest

from skillstudio.core.projects.evaluate import Case, SetError, evaluate, load_set, main
from skillstudio.core.projects.project import project_from_folder
from tests.helpers import CORPUS, REPO, skill_text, write

CORPUS_SET = os.path.join(REPO, "tests", "eval", "corpus_requests.yaml")


def small(tmp_path: Any) -> str:
    for name, description in {
        "code-review": "Review a pull request for correctness and security issues.",
        "sql-tuning": "Tune slow SQL queries with indexes in PostgreSQL.",
        "docker-build": "Build small Docker images with multi-stage builds.",
    }.items():
        write(tmp_path, f"skills/{name}/SKILL.md", skill_text(name=name, description=description))
    return write(
        tmp_path,
        "set.yaml",
        """
        corpus: skills
        cases:
          - query: "review my pull request"
            expect_likely: [code-review]
            clear: true
          - query: "my postgresql queries are slow"
            expect_likely: sql-tuning
            kind: paraphrase
          - query: "shrink my container image"
            expect_likely: [docker-build]
          - query: "what is the weather in Lisbon"
            expect_likely: none
        """,
    )


def test_figures_per_ranking_and_split(tmp_path: Any) -> None:
    cases, corpus = load_set(small(tmp_path))
    assert corpus == str(tmp_path / "skills")
    assert [c.kind for c in cases] == ["direct", "paraphrase", "direct", "none"]
    registry = project_from_folder(corpus, "agentskills").registry(keep_text=True)
    registry.scan()
    report = evaluate(registry, cases)
    assert list(report["rankings"]) == ["word count", "plain BM25", "likely", "fields only"]
    ours = report["rankings"]["likely"]["all"]
    # "shrink my container image" meets one description word ("images"): first, but
    # too weak a match for the likely band
    assert ours == {
        "top1": 100.0,
        "top3": 100.0,
        "in_likely": 66.7,
        "no_likely": 100.0,
        "clear_likely": 100.0,  # the one case marked clear: true
        "cases": 3,
        "none_cases": 1,
        "clear_cases": 1,
    }
    even = report["rankings"]["likely"]["tuned (even)"]
    assert (even["cases"], even["none_cases"]) == (2, 0)
    # the word count has no bands: any scoring skill counts as likely
    assert report["rankings"]["word count"]["all"]["no_likely"] == 100.0  # no word matches


def test_a_miss_is_counted(tmp_path: Any) -> None:
    _cases, corpus = load_set(small(tmp_path))
    registry = project_from_folder(str(corpus), "agentskills").registry()
    registry.scan()
    wrong = [Case("review my pull request", ("docker-build",), "direct", 0)]
    figures = evaluate(registry, wrong)["rankings"]["likely"]["all"]
    assert (figures["top1"], figures["top3"]) == (0.0, 0.0)


@pytest.mark.parametrize(
    "text, message",
    [
        ("cases: 3\n", "a 'cases' list"),
        ("cases:\n  - expect_likely: [a]\n", "needs a 'query'"),
        ("cases:\n  - query: q\n    expect_likely: {a: 1}\n", "a name, a list or none"),
        ("cases: [\n", "cannot be read"),
    ],
)
def test_bad_sets_are_refused_with_a_message(tmp_path: Any, text: str, message: str) -> None:
    path = write(tmp_path, "bad.yaml", text, dedent=False)
    with pytest.raises(SetError, match=message):
        load_set(path)


def test_command_line(tmp_path: Any) -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main([small(tmp_path)]) == 0
    assert "fields only" in out.getvalue() and "no likely" in out.getvalue()
    assert main([str(tmp_path / "missing.yaml")]) == 2


@pytest.mark.skipif(not os.path.isdir(CORPUS), reason="no ../shared/corpus")
def test_on_the_corpus_set_the_ranking_is_clearly_ahead_of_plain_bm25() -> None:
    cases, corpus = load_set(CORPUS_SET)
    registry = project_from_folder(str(corpus), "agentskills").registry()
    registry.scan()
    rankings = evaluate(registry, cases)["rankings"]
    plain, ours, fields = rankings["plain BM25"], rankings["likely"], rankings["fields only"]
    for split in ("tuned (even)", "held out (odd)"):
        assert fields[split]["top1"] > plain[split]["top1"]
        assert ours[split]["top1"] >= plain[split]["top1"] + 10
        assert ours[split]["top3"] >= plain[split]["top3"] + 15
    assert ours["all"]["top1"] >= 70
    assert ours["all"]["no_likely"] >= 90


def test_project_ranks_as_match_does_in_the_project(tmp_path: Any) -> None:
    """`--project`: the likely ranking reads the folder as `match` does in it, Claude
    Code's own skills beside the project's (the web shop's set measures the app's
    figures that way: issue 39, round 4); without it only the folder's skills rank."""
    write(
        tmp_path,
        "shop/.claude/skills/sql-tuning/SKILL.md",
        skill_text(name="sql-tuning", description="Tune slow SQL queries with indexes."),
    )
    cases = write(
        tmp_path,
        "set.yaml",
        """
        cases:
          - query: "do a security review of the pending changes on my branch"
            expect_likely: [security-review]
        """,
    )
    folder = str(tmp_path / "shop")

    def likely_top1(*extra: str) -> float:
        out = io.StringIO()
        with redirect_stdout(out):
            argv = [cases, "--root", folder, "--profile", "claude-code", "--format", "json"]
            assert main([*argv, *extra]) == 0
        report = json.loads(out.getvalue())
        return float(report["rankings"]["likely"]["all"]["top1"])

    assert likely_top1() == 0.0  # (Claude Code's own security-review is not in the folder)
    assert likely_top1("--project") == 100.0
