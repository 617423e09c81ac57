"""The leak check (core/ranking/leaks.py) and `skillstudio test --leaks` on suites of
every format the suite loader reads (docs/commands.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from skillstudio.core.projects.project import resolve_projects
from skillstudio.core.ranking.leaks import LeakCheck, names

from .helpers import CORPUS, REPO, cli, skill_text, write

# descriptions written for these tests
SKILLS = {
    "pdf-forms": "Fill in and flatten AcroForm fields of PDF documents, and read back "
    "their values. Use when a form must be completed.",
    "csv-clean": "Clean tabular data files: dedupe rows, normalise headers and fix "
    "encodings. Use when a spreadsheet export is messy.",
    "git-commit": "Write a commit message from the staged changes, following the "
    "conventions of the repository. Use when the user wants to commit.",
    "release-notes": "Draft release notes from merged pull requests and the changes "
    "since the last tag. Use when preparing a release of the documents.",
}
# bodies that make common words common (the body gist counts in rarity)
BODY = "# Steps\n\nRead the documents and the values, fill the fields when completed.\n"


def project(base: Path) -> Path:
    for name, description in SKILLS.items():
        body = BODY if name != "pdf-forms" else "# Steps\n\nOpen the file.\n"
        write(
            base,
            f".claude/skills/{name}/SKILL.md",
            skill_text(name=name, description=description, _body=body),
        )
    return base


def checker(base: Path) -> LeakCheck:
    found = resolve_projects([], [".claude/skills"], None, "claude-code", str(base))[0]
    registry = found.registry()
    registry.scan()
    return LeakCheck(registry.active.values())


def test_a_request_naming_the_skill_split_joined_or_stemmed_leaks(tmp_path: Path) -> None:
    check = checker(project(tmp_path))
    for query in (
        "run pdf-forms on this",
        "the pdf forms in my inbox",
        "use pdfforms please",
        "fill the PDF form I sent",  # stemmed: form ~ forms
        "PDF_Forms now",
    ):
        leak = check.check(query, "pdf-forms")
        assert leak is not None and leak.kind == "name", query
        assert leak.words == ("pdf", "forms")
        assert "names the skill pdf-forms" in leak.reason
    assert check.check("fill in my tax paperwork", "pdf-forms") is None
    assert check.check("the forms of pdf", "pdf-forms") is None  # not in a row
    assert names(["plugin", "x"], "tools:plugin") == ("plugin",)  # a plugin's skill


def test_leaning_on_two_of_the_three_rarest_description_words_leaks(tmp_path: Path) -> None:
    check = checker(project(tmp_path))
    rarest = [word for _, word in check.rarest("pdf-forms")]
    # words other skills' descriptions or bodies hold are not its rarest
    assert "documents" not in rarest and "values" not in rarest
    assert "acroform" in [w.lower() for w in rarest] and "flatten" in rarest
    leak = check.check("flatten the acroform in this file", "pdf-forms")
    assert leak is not None and leak.kind == "rare-words"
    assert {w.lower() for w in leak.words} == {"flatten", "acroform"}
    assert "2 of its 3 rarest" in leak.reason
    # one rare word is a request in the skill's domain, not a leak
    assert check.check("flatten this scan for me", "pdf-forms") is None
    # an explicit invocation tests the invocation rule on purpose
    assert check.check("/pdf-forms fill", "pdf-forms") is None


def test_a_skill_the_project_does_not_know_is_still_checked_for_its_name(tmp_path: Path) -> None:
    check = checker(project(tmp_path))
    assert check.rarest("not-here") == []
    leak = check.check("ask not here", "not-here")
    assert leak is not None and leak.kind == "name"
    assert check.check("something else", "not-here") is None


def suite(base: Path, body: str, name: str = "suite.yaml") -> str:
    write(base, name, body)
    return name


NATIVE = """\
profile: claude-code
roots: [.claude/skills]
cases:
  - query: "tidy this spreadsheet export"
    expect_likely: csv-clean
  - query: "use the csv clean thing"
    expect_likely: csv-clean
  - query: "flatten the acroform here"
    expect_model: pdf-forms
  - query: "the pdf forms are not what I want"
    expect_model: none
  - query: "commit"
    expect_not: [git-commit]
"""


def test_test_leaks_flags_each_leaking_case_with_its_line_and_reason(tmp_path: Path) -> None:
    project(tmp_path)
    suite(tmp_path, NATIVE)
    run = cli("test", "--leaks", "suite.yaml", cwd=tmp_path)
    assert run.code == 1, run.out + run.err
    lines = run.out.splitlines()
    assert (
        lines[0]
        == "suite.yaml:6: LEAK 'use the csv clean thing': names the skill csv-clean ('csv clean')"
    )
    assert lines[1].startswith("suite.yaml:8: LEAK 'flatten the acroform here': leans on pdf-forms")
    # a case expecting no skill, or that a skill is NOT picked, tests that on purpose
    assert len(lines) == 3 and lines[2] == "2 leaking cases of 5 cases"
    data = cli("test", "--leaks", "suite.yaml", "--format", "json", cwd=tmp_path).json
    assert [(x["line"], x["skill"], x["kind"]) for x in data["leaks"]] == [
        (6, "csv-clean", "name"),
        (8, "pdf-forms", "rare-words"),
    ]
    assert data["cases"] == 5 and data["leaks"][0]["query"] == "use the csv clean thing"


def test_test_leaks_passes_a_clean_suite_and_test_runs_as_before(tmp_path: Path) -> None:
    project(tmp_path)
    clean = NATIVE.replace('"use the csv clean thing"', '"fix the broken rows in my export"')
    clean = clean.replace('"flatten the acroform here"', '"complete my tax paperwork"')
    suite(tmp_path, clean)
    run = cli("test", "--leaks", "suite.yaml", cwd=tmp_path)
    assert (run.code, run.out) == (0, "0 leaking cases of 5 cases\n")
    plain = cli("test", "suite.yaml", "--format", "json", cwd=tmp_path)
    assert "leaks" not in plain.json and len(plain.json["cases"]) == 5


def test_a_plain_test_run_says_how_many_cases_leak_and_json_keeps_its_keys(
    tmp_path: Path,
) -> None:
    project(tmp_path)
    suite(tmp_path, NATIVE)
    run = cli("test", "suite.yaml", cwd=tmp_path)
    lines = run.out.splitlines()
    # the same two cases `test --leaks` flags, before the closing line the spec names
    assert lines[-2] == (
        "2 cases leak the skill expected (naming it or leaning on its rarest words, "
        "so they test nothing); run with --leaks to see which"
    )
    assert lines[-1] == "2 passed, 1 failed; 2 cases have expect_model only: run eval to judge them"
    data = cli("test", "suite.yaml", "--format", "json", cwd=tmp_path).json
    assert set(data) == {"cases", "passed", "failed", "per_skill", "suites", "model_only"}
    junit = cli("test", "suite.yaml", "--format", "junit", cwd=tmp_path)
    assert "leak" not in junit.out
    one = NATIVE.replace('"flatten the acroform here"', '"complete my tax paperwork"')
    suite(tmp_path, one)
    assert "1 case leaks the skill expected (naming it or leaning on its rarest words, so it " in (
        cli("test", "suite.yaml", cwd=tmp_path).out
    )
    clean = one.replace('"use the csv clean thing"', '"fix the broken rows in my export"')
    suite(tmp_path, clean)
    assert "leak" not in cli("test", "suite.yaml", cwd=tmp_path).out


@pytest.mark.parametrize(
    ("name", "text", "skill"),
    [
        (
            "eval_set.json",
            json.dumps(
                [
                    {"query": "write the git commit for me", "should_trigger": True},
                    {"query": "what is the weather", "should_trigger": False},
                ]
            ),
            "git-commit",
        ),
        (
            "trigger_tests.yaml",
            "should_trigger_prompts:\n"
            "  - prompt: write the git commit for me\n    reason: r\n    confidence: high\n"
            "should_not_trigger_prompts:\n"
            "  - prompt: what is the weather\n    reason: r\n    confidence: high\n",
            "git-commit",
        ),
        (
            "queries.jsonl",
            '{"id": "1", "text": "write the git commit for me", "kind": "implicit", '
            '"expected_skill": "git-commit"}\n'
            '{"id": "2", "text": "what is the weather", "kind": "out_of_scope", '
            '"expected_skill": null}\n',
            None,
        ),
    ],
)
def test_test_leaks_reads_the_peers_formats(
    tmp_path: Path, name: str, text: str, skill: str | None
) -> None:
    project(tmp_path)
    suite(tmp_path, text, name)
    extra = ["--skill", skill] if skill else []
    run = cli(
        "test",
        "--leaks",
        name,
        "--root",
        ".claude/skills",
        "--profile",
        "claude-code",
        *extra,
        cwd=tmp_path,
    )
    assert run.code == 1, run.out + run.err
    assert "LEAK 'write the git commit for me': names the skill git-commit" in run.out
    assert run.out.endswith("1 leaking case of 2 cases\n")


def test_test_leaks_refuses_junit(tmp_path: Path) -> None:
    project(tmp_path)
    suite(tmp_path, NATIVE)
    run = cli("test", "--leaks", "suite.yaml", "--format", "junit", cwd=tmp_path)
    assert run.code == 2 and "text or json" in run.err


@pytest.mark.corpus
@pytest.mark.skipif(not os.path.isdir(CORPUS), reason="no ../shared/corpus")
def test_on_the_evaluation_set_paraphrases_do_not_leak_and_direct_requests_may() -> None:
    """tests/eval/corpus_requests.yaml over the 217 corpus skills: a paraphrase shares
    at most one content word with its skill's name and description (checked by
    tests/eval/check_paraphrase.py), so it can leak only by a one-word name; requests
    written with the skill's own words ("direct") leak in a share of cases."""
    import yaml

    suite = os.path.join(REPO, "tests", "eval", "corpus_requests.yaml")
    run = cli("test", "--leaks", suite, CORPUS, "--format", "json")
    assert run.code == 1, run.err
    kinds = {c["query"]: c.get("kind") for c in yaml.safe_load(Path(suite).read_text())["cases"]}
    leaks = run.json["leaks"]
    paraphrased = [x for x in leaks if kinds[x["query"]] == "paraphrase"]
    assert all(x["kind"] == "name" and len(x["words"]) == 1 for x in paraphrased)
    assert not [x for x in leaks if kinds[x["query"]] == "none"]
    direct = sum(kind == "direct" for kind in kinds.values())
    leaking = sum(kinds[x["query"]] == "direct" for x in leaks)
    assert 0.1 * direct < leaking < 0.6 * direct  # measured: 64 of 216
