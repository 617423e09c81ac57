"""Issue 28, formats: waza's trigger_tests.yaml, skill-reach query sets (JSON, YAML,
JSON Lines, CSV) and negative expectations (`expect_not`, `not_in_top`) in our own
suites; each read as untrusted input (a bad value is a diagnostic with file, line and
column, exit 2). The fixtures are in tests/suite_formats/ (written for these tests)."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillstudio.core.projects.suite_cases import SuiteError
from skillstudio.core.projects.suites import load_suite

from .helpers import REPO, cli, write

HERE = os.path.join(REPO, "tests", "suite_formats")
SKILLS = os.path.join(HERE, "skills")


def run_json(path: str) -> tuple[int, dict]:
    run = cli("test", path, "--root", SKILLS, "--format", "json")
    assert run.code in (0, 1), run.err
    return run.code, run.json


def test_waza_trigger_tests_are_read_with_their_skill_and_confidence() -> None:
    suite = load_suite(os.path.join(HERE, "trigger_tests.yaml"))
    assert suite.kind == "waza"
    assert [(c.mode, c.expect, c.weight, c.line) for c in suite.cases] == [
        ("triggers", ["kite"], 1.0, 5),
        ("triggers", ["kite"], 0.5, 8),
        ("triggers", ["kite"], 0.5, 11),
        ("not-triggers", ["kite"], 1.0, 16),  # no confidence: high, as waza reads it
        ("not-triggers", ["kite"], 0.25, 18),
    ]
    # --skill names another skill, as for the other imported formats
    assert load_suite(os.path.join(HERE, "trigger_tests.yaml"), "yarn").cases[0].expect == ["yarn"]


def test_waza_confidence_weighs_in_the_per_skill_statistics() -> None:
    """high 1, medium 0.5, low 0.25: two medium prompts (one passes, one fails) and a
    failing low one. Unweighted this would be recall 2/3 and precision 2/3."""
    code, data = run_json(os.path.join(HERE, "trigger_tests.yaml"))
    assert code == 1
    assert [c["passed"] for c in data["cases"]] == [True, True, False, True, False]
    kite = data["per_skill"]["kite"]
    assert (kite["tp"], kite["fn"], kite["fp"]) == (1.5, 0.5, 0.25)
    assert kite["recall"] == 0.75  # 1.5 / 2
    assert kite["precision"] == round(1.5 / 1.75, 3)
    assert [c.get("weight") for c in data["cases"]] == [None, 0.5, 0.5, None, 0.25]


LINES = {  # where each query starts in its fixture
    "queries.json": [4, 5, 7, 9],
    "queries.yaml": [3, 7, 11, 16],
    "queries.jsonl": [1, 2, 4, 5],
    "queries.csv": [2, 3, 4, 6],  # q-3's request spans two lines
}


@pytest.mark.parametrize("name", sorted(LINES))
def test_skill_reach_query_sets_in_four_formats(name: str) -> None:
    suite = load_suite(os.path.join(HERE, name))
    assert suite.kind == "skill_reach"
    assert [c.line for c in suite.cases] == LINES[name]
    assert [(c.label, c.kind, c.expect, c.acceptable) for c in suite.cases] == [
        ("q-1", "implicit", ["kite"], []),
        ("q-2", "out_of_scope", [], ["lamp", "finding-skills"]),
        ("q-3", "neighbor_negative", ["yarn"], ["kite"]),
        ("q-4", "contextual", ["kite"], ["finding-skills"]),
    ]
    code, data = run_json(os.path.join(HERE, name))
    assert code == 0, data
    assert (data["passed"], data["failed"]) == (4, 0)
    # q-2 selects lamp, a neutral skill: it counts for nobody
    assert data["cases"][1]["got"] == ["lamp"]
    assert "lamp" not in data["per_skill"]


def test_acceptable_skills_are_neutral_and_may_be_missing(tmp_path: Path) -> None:
    """An acceptable skill that is selected counts neither way; one that is not in the
    catalogue is no failure (an expected skill that is not there is one)."""
    rows = [
        {"id": "a", "text": "/lamp now", "kind": "out_of_scope", "acceptable_skills": ["lamp"]},
        {"id": "b", "text": "/lamp now", "kind": "out_of_scope"},
        {"id": "c", "text": "/kite", "expected_skill": "kite", "acceptable_skills": ["ghost"]},
        {"id": "d", "text": "/kite", "kind": "implicit", "expected_skill": "ghost"},
    ]
    path = write(tmp_path, "set.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    code, data = run_json(path)
    assert code == 1
    passed = {c["label"]: (c["passed"], c["why"]) for c in data["cases"]}
    assert passed["a"] == (True, None)
    assert passed["b"][0] is False and "lamp" in passed["b"][1]
    assert passed["c"] == (True, None)
    assert passed["d"] == (False, "no skill named ghost in this registry")
    assert data["per_skill"]["lamp"]["fp"] == 1  # from b only


def test_expect_not_and_not_in_top_pass_and_fail() -> None:
    path = os.path.join(HERE, "negative.yaml")
    suite = load_suite(path)
    assert [(c.mode, c.expect_not, c.not_in_top) for c in suite.cases] == [
        ("not-likely", ["kite"], None),
        ("not-likely", ["yarn"], None),
        ("not-likely", ["yarn"], 2),
        ("exact", ["yarn"], 1),
    ]
    code, data = run_json(path)
    assert code == 1
    cases = data["cases"]
    assert [c["passed"] for c in cases] == [False, True, False, True]
    assert cases[0]["why"] == "kite is likely (an estimate); it should not be"
    assert cases[2]["why"].startswith("yarn ranks 2, in the top 2")
    assert (cases[2]["expect_not"], cases[2]["not_in_top"]) == (["yarn"], 2)
    assert "per_skill" in data and data["per_skill"] == {}  # estimates: no statistics
    text = cli("test", path, "--root", SKILLS).out
    said = "negative.yaml:6: 'kite line tension' -> kite, yarn; expected: not in the top 2: yarn"
    assert said in text


def test_expect_not_with_expect_fails_when_either_fails(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "suite.yaml",
        """
        cases:
          - query: "use the kite skill for the line tension"
            expect: kite
            expect_not: [kite]
          - query: "/yarn"
            expect: kite
            expect_not: [lamp]
        """,
    )
    code, data = run_json(path)
    assert code == 1
    assert [c["passed"] for c in data["cases"]] == [False, False]
    whys = [c["why"] for c in data["cases"]]
    assert whys[0] == "kite is likely (an estimate); it should not be"
    assert "lamp" not in whys[1]  # lamp is not likely: the expectation of kite failed


def test_junit_shows_a_failing_negative_case() -> None:
    run = cli("test", os.path.join(HERE, "negative.yaml"), "--root", SKILLS, "--format", "junit")
    assert run.code == 1
    root = ET.fromstring(run.out)
    assert (root.get("tests"), root.get("failures")) == ("4", "2")
    failures = [case for case in root.iter("testcase") if case.find("failure") is not None]
    assert [f.get("classname", "").rsplit(":", 1)[1] for f in failures] == ["2", "6"]
    failure = failures[1].find("failure")
    assert failure is not None
    assert failure.get("message", "").startswith(
        "got kite, yarn; expected: not in the top 2: yarn (yarn ranks 2"
    )


BAD = {  # fixture -> the start of its diagnostic, with line and column
    "trigger_tests.yaml": "trigger_tests.yaml:4:17: 'confidence' is high, medium or low",
    "queries.json": "queries.json:4:45: 'kind' is one of implicit, contextual",
    "queries.yaml": "queries.yaml:5:21: kind out_of_scope but 'expected_skill' names 'kite'",
    "queries.jsonl": "queries.jsonl:2:58: not valid JSON",
    "queries.csv": "queries.csv:3:14: 'kind' is one of implicit",
    "negative.yaml": "negative.yaml:5:17: 'not_in_top' goes with 'expect_not:'",
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_is_a_diagnostic_with_line_and_column(name: str) -> None:
    path = os.path.join(HERE, "bad", name)
    with pytest.raises(SuiteError) as caught:
        load_suite(path)
    assert str(caught.value).startswith(os.path.join(HERE, "bad", BAD[name]))
    run = cli("test", path, "--root", SKILLS)
    assert run.code == 2
    assert BAD[name] in run.err and "Traceback" not in run.err


def test_rows_columns_names_and_nesting_are_bounded(tmp_path: Path) -> None:
    wide = write(tmp_path, "wide.csv", ",".join(["text"] + [f"c{i}" for i in range(70)]) + "\n")
    with pytest.raises(SuiteError, match=r"wide\.csv:1:1: 71 columns; at most 64"):
        load_suite(wide)
    rows = "text\n" + "".join(f"request {i}\n" for i in range(10_001))
    with pytest.raises(SuiteError, match="10,001 cases; a suite holds at most 10,000"):
        load_suite(write(tmp_path, "long.csv", rows))
    deep = write(tmp_path, "deep.jsonl", '{"text": "x"}\n' + "[" * 100 + "]" * 100 + "\n")
    with pytest.raises(SuiteError, match=r"deep\.jsonl:2:\d+: the line nests more than"):
        load_suite(deep)
    many = json.dumps({"text": "x", "expected_skill": "kite", "acceptable_skills": ["a"] * 101})
    with pytest.raises(SuiteError, match=r"many\.jsonl:1:\d+: 'acceptable_skills' names 101"):
        load_suite(write(tmp_path, "many.jsonl", many + "\n"))
    huge = write(tmp_path, "huge.csv", "text\n" + "w" * 10_001 + "\n")
    with pytest.raises(SuiteError, match=r"huge\.csv:2:1: the query is 10,001 characters"):
        load_suite(huge)
    dup = write(tmp_path, "dup.csv", "id,text\nq,a\nq,b\n")
    with pytest.raises(SuiteError, match=r"dup\.csv:3:1: the id 'q' is used twice"):
        load_suite(dup)
    odd = write(tmp_path, "odd.yaml", "queries:\n  - text: x\n    expected: kite\n")
    with pytest.raises(SuiteError, match=r"odd\.yaml:3:5: unknown key 'expected'"):
        load_suite(odd)
    quote = write(tmp_path, "quote.csv", 'text,kind\n"unclosed,implicit\n')
    with pytest.raises(SuiteError, match=r"quote\.csv:2:1: not valid CSV"):
        load_suite(quote)
    # a native case: a misspelt expectation is an error, other keys are left alone
    typo = "cases:\n  - query: x\n    expect: none\n    not_in_tops: 2\n    kind: note\n"
    with pytest.raises(SuiteError, match=r"typo\.yaml:4:5: unknown key 'not_in_tops'"):
        load_suite(write(tmp_path, "typo.yaml", typo))
    assert load_suite(write(tmp_path, "kind.yaml", typo.replace("    not_in_tops: 2\n", "")))


def test_cases_are_added_to_our_own_suites_only() -> None:
    from skillstudio.core.projects.suites import add_case

    with pytest.raises(SuiteError, match="this file is waza trigger tests"):
        add_case(os.path.join(HERE, "trigger_tests.yaml"), "fly", ["kite"])
    with pytest.raises(SuiteError, match="this file is a skill-reach query set"):
        add_case(os.path.join(HERE, "queries.csv"), "fly", ["kite"])


def test_waza_without_a_skill_uses_the_skill_folder_or_says_so(tmp_path: Path) -> None:
    text = "should_trigger_prompts:\n  - prompt: use the kite skill\n"
    loose = write(tmp_path, "trigger_tests.yaml", text)
    with pytest.raises(SuiteError, match=r"no 'skill:'.*--skill NAME"):
        load_suite(loose)
    write(tmp_path, "kite/SKILL.md", "---\nname: kite\ndescription: Flies kites.\n---\n")
    inside = write(tmp_path, "kite/evals/trigger_tests.yaml", text)
    assert load_suite(inside).cases[0].expect == ["kite"]


def test_eval_asks_the_model_about_expect_not_as_anything_but_those_skills() -> None:
    from skillstudio.core.projects.live_suite import live_cases

    cases = live_cases(load_suite(os.path.join(HERE, "negative.yaml")).cases, "negative.yaml")
    assert [(c.expect, c.negate) for c in cases] == [
        (["kite"], True),
        (["yarn"], True),
        (["yarn"], True),
        ([], False),  # `expect: none` (with an expect_not): the model should pick nothing
    ]


def test_eval_sets_and_skill_lab_files_say_line_and_column_too(tmp_path: Path) -> None:
    bad_set = '[\n  {"query": "fly", "should_trigger": true},\n  {"prompt": "fly"}\n]\n'
    with pytest.raises(SuiteError, match=r"eval_set\.json:3:3: item 2 needs 'query'"):
        load_suite(write(tmp_path, "eval_set.json", bad_set), "kite")
    lab = "skill: kite\ntest_cases:\n  - prompt: fly\n  - id: two\n    expected: trigger\n"
    with pytest.raises(SuiteError, match=r"triggers\.yaml:4:5: test case 2 needs a 'prompt'"):
        load_suite(write(tmp_path, "triggers.yaml", lab))
    native = "cases:\n  - query: fly\n    expect: kite\n  - expect: kite\n"
    with pytest.raises(SuiteError, match=r"suite\.yaml:4:5: each case needs 'query"):
        load_suite(write(tmp_path, "suite.yaml", native))


PIECES = st.sampled_from(
    [
        '"',
        ",",
        "\n",
        "\r\n",
        "\r",
        "{",
        "}",
        "[",
        "]",
        ":",
        " ",
        "\t",
        "- ",
        "\x00",
        "\ufeff",
        "\ud800",
        "null",
        "true",
        "1e999",
        "9" * 60,
        "&a",
        "*a",
        "text",
        "kind",
        "implicit",
        "out_of_scope",
        "expected_skill",
        "acceptable_skills",
        "id",
        "q-1",
        "prompt",
        "confidence",
        "medium",
        "low",
        "expect_not",
        "not_in_top",
        "kite",
    ]
)
STARTS = {  # a start that reaches past the first check of each reader
    ".csv": "id,text,kind,expected_skill,acceptable_skills\n",
    ".jsonl": '{"text": "fly", "expected_skill": "kite"}\n',
    ".json": '{"queries": [{"text": ',
    ".yaml": "queries:\n  - text: ",
    "trigger_tests.yaml": "skill: kite\nshould_trigger_prompts:\n  - prompt: ",
    "suite.yaml": "cases:\n  - query: fly\n    expect_not: ",
}


@settings(
    max_examples=int(os.environ.get("SKILLSTUDIO_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    start=st.sampled_from(sorted(STARTS)),
    pieces=st.lists(PIECES | st.text(max_size=4), max_size=40),
)
def test_any_text_is_read_or_refused_with_a_place(
    tmp_path_factory: pytest.TempPathFactory, start: str, pieces: list[str]
) -> None:
    """Generated text after each format's start: a suite, or a SuiteError that names
    the file; never another exception."""
    folder = tmp_path_factory.mktemp("fuzz")
    name = start if start.endswith(".yaml") and len(start) > 5 else "set" + start
    path = folder / name
    path.write_bytes((STARTS[start] + "".join(pieces)).encode("utf-8", "surrogatepass"))
    try:
        suite = load_suite(str(path), "kite")
    except SuiteError as exc:
        assert str(exc).startswith(str(path)), exc
    else:
        assert all(isinstance(c.query, str) and len(c.query) <= 10_000 for c in suite.cases)


def test_the_skill_an_eval_set_is_about_is_read_only_inside_its_folder(tmp_path: Path) -> None:
    """An eval set names no skill: its folder's SKILL.md gives the name. A SKILL.md that
    is a link out of that folder is not read: the folder's own name is used."""
    from skillstudio.core.projects.suite_formats import skill_for

    outside = tmp_path / "elsewhere.md"
    outside.write_text("---\nname: stolen-name\ndescription: x\n---\n", encoding="utf-8")
    folder = tmp_path / "pdf-forms"
    (folder / "evals").mkdir(parents=True)
    (folder / "SKILL.md").symlink_to(outside)
    assert skill_for(str(folder / "evals" / "eval_set.json"), None) == "pdf-forms"
    (folder / "SKILL.md").unlink()
    (folder / "SKILL.md").write_text("---\nname: pdf-forms-x\ndescription: y\n---\n")
    assert skill_for(str(folder / "evals" / "eval_set.json"), None) == "pdf-forms-x"
