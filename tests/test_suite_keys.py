"""One meaning per key (issue 37; PRODUCT.md section 7): `expect` is what the profile's
own rules select, `expect_likely` the offline estimate's top pick, `expect_model` the
model's pick when asked as the agent asks. `test` judges expect and expect_likely and
leaves an expect_model-only case to eval; `eval` judges expect_model, else
expect_likely, else an `expect` only when the request names its skill, and never reads
an `expect: none` of a model-choice profile as "the model must pick nothing" (it is
reported as not judged). Only local fake servers (tests/live_fake.py)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.model.diagnostics import Diagnostic
from skillstudio.core.projects.eval_cases import eval_cases
from skillstudio.core.projects.suite_cases import SuiteError
from skillstudio.core.projects.suite_notes import suite_diagnostics
from skillstudio.core.projects.suite_writing import add_case
from skillstudio.core.projects.suites import load_suite

from .helpers import cli, write
from .live_fake import FakeModel
from .test_live import registry_for

SUITE = """\
cases:
  - query: "/pdf-forms T-12"
    expect: pdf-forms
  - query: "please look over my pull request"
    expect: none
  - query: "fill in the tax form"
    expect_likely: pdf-forms
  - query: "fill in the tax form"
    expect_model: pdf-forms        # eval judges it
  - query: "what is the weather"
    expect_likely: none
    expect_model: none
"""
# what the rules of claude-code can never select (a `test` failure), for eval's rule
NAMED = '  - query: "review this diff"\n    expect: code-review\n'


def test_the_loader_reads_expect_model_as_a_name_a_list_or_none(tmp_path: Path) -> None:
    path = write(tmp_path, "suite.yaml", SUITE)
    cases = load_suite(path).cases
    assert [(c.mode, c.expect, c.likely, c.model) for c in cases] == [
        ("exact", ["pdf-forms"], None, None),
        ("exact", [], None, None),
        ("likely", ["pdf-forms"], ["pdf-forms"], None),
        ("model", ["pdf-forms"], None, ["pdf-forms"]),
        ("likely", [], [], []),  # test judges the estimate; eval the model's none
    ]
    listed = "cases:\n  - query: fly\n    expect_model: [kite, yarn]\n"
    assert load_suite(write(tmp_path, "list.yaml", listed)).cases[0].model == ["kite", "yarn"]


def test_a_bad_expect_model_says_its_line_and_column(tmp_path: Path) -> None:
    bad = "cases:\n  - query: fly\n    expect_model: {a: 1}\n"
    with pytest.raises(SuiteError, match=r"bad\.yaml:3:19: 'expect_model' must be a skill name"):
        load_suite(write(tmp_path, "bad.yaml", bad))
    typo = "cases:\n  - query: fly\n    expect_modle: kite\n"
    with pytest.raises(SuiteError, match=r"typo\.yaml:3:5: unknown key 'expect_modle'"):
        load_suite(write(tmp_path, "typo.yaml", typo))


def test_an_unknown_expect_model_name_is_flagged_in_the_editor_and_by_test(
    tmp_path: Path,
) -> None:
    registry_for(tmp_path, "claude-code")
    text = "cases:\n  - query: fly\n    expect_model: no-such-skill\n"
    path = write(tmp_path, "suites/typo.yaml", text)
    found = suite_diagnostics(path, text, {"pdf-forms", "code-review"})
    assert [(d.code, d.line, d.skill) for d in found] == [
        ("suite-unknown-skill", 2, "no-such-skill")
    ]
    assert isinstance(found[0], Diagnostic)
    run = cli("test", "suites/typo.yaml", cwd=tmp_path)
    assert run.code == 1, run.out + run.err
    assert "suites/typo.yaml:2:" in run.out and "no skill named no-such-skill" in run.out


def test_test_leaves_expect_model_only_cases_to_eval(tmp_path: Path) -> None:
    registry_for(tmp_path, "claude-code")
    write(tmp_path, "suites/keys.yaml", SUITE)
    run = cli("test", "suites/keys.yaml", cwd=tmp_path)
    assert run.code == 0, run.out + run.err
    assert "EVAL  'fill in the tax form': expect_model: judged by eval" in run.out
    assert run.out.rstrip().endswith(
        "4 passed, 0 failed; 1 case has expect_model only: run eval to judge them"
    )
    data = cli("test", "suites/keys.yaml", "--format", "json", cwd=tmp_path).json
    assert (data["passed"], data["failed"], data["model_only"]) == (4, 0, 1)
    model = [c for c in data["cases"] if c["expect"] == {"model": ["pdf-forms"]}]
    assert len(model) == 1 and model[0]["passed"] is None
    both = [c for c in data["cases"] if c.get("expect_model") == "none"]
    assert both and both[0]["expect"] == {"likely": "none"}
    junit = ET.fromstring(cli("test", "suites/keys.yaml", "--format", "junit", cwd=tmp_path).out)
    suite = junit.find("testsuite")
    assert suite is not None and suite.get("skipped") == "1"
    assert len(junit.findall("testsuite/testcase/skipped")) == 1


def test_eval_judges_expect_model_else_expect_likely_else_an_explicit_expect(
    tmp_path: Path,
) -> None:
    registry, options = registry_for(tmp_path, "claude-code")
    path = write(tmp_path, "suite.yaml", SUITE + NAMED)
    chosen = eval_cases(load_suite(path).cases, registry, options, "suite.yaml")
    assert [(c.query, c.expect, c.negate) for c in chosen.judged] == [
        ("/pdf-forms T-12", ["pdf-forms"], False),  # the harness resolves it
        ("fill in the tax form", ["pdf-forms"], False),  # expect_likely
        ("fill in the tax form", ["pdf-forms"], False),  # expect_model
        ("what is the weather", [], False),  # expect_model: none wins over expect_likely
    ]
    assert [(n.case.line, n.why.split(" is ")[0]) for n in chosen.not_judged] == [
        (4, "expect: none"),
        (13, "expect: code-review"),
    ]


def test_eval_never_reads_expect_none_as_pick_nothing_and_never_asks_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On main the bundled suites' `expect: none` failed against any competent model
    (it picked the skill the request is about)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    registry_for(tmp_path, "claude-code")
    write(tmp_path, "suite.yaml", SUITE)

    def answer(body: dict[str, Any]) -> tuple[Any, ...]:
        text = body["messages"][-1]["content"][-1]["text"]  # the request, after the listing
        if "weather" in text:
            return ("text", "It is sunny.")
        skill = "code-review" if "pull request" in text or "diff" in text else "pdf-forms"
        return ("tool", "Skill", {"skill": skill})

    with FakeModel([answer]) as fake:
        args = ["--model", "m", "--endpoint", fake.url, "--api", "anthropic", "--yes"]
        run = cli("eval", "suite.yaml", *args, "--key-env", "NO_KEY_NEEDED", cwd=tmp_path)
        sent = [json.loads(raw)["messages"][-1]["content"][-1]["text"] for *_, raw in fake.received]
    assert run.code == 0, run.out + run.err
    assert "NOT JUDGED  suite.yaml:4: 'please look over my pull request'" in run.out
    assert run.out.rstrip().endswith("4 passed, 0 failed, 1 not judged by eval")
    assert len(sent) == 3 * 3  # tax form twice and the weather; /pdf-forms is the harness's
    assert not [text for text in sent if "pull request" in text]
    with FakeModel([answer]) as fake:
        data = cli("eval", "suite.yaml", *args[:-1], "--offline", "--format", "json", cwd=tmp_path)
    report = json.loads(data.out)
    assert [(n["line"], n["query"]) for n in report["not_judged"]] == [
        (4, "please look over my pull request")
    ]
    assert (report["passed"], report["failed"]) == (4, 0)


def test_a_suite_eval_judges_nothing_of_is_said_and_nothing_is_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    registry_for(tmp_path, "claude-code")
    write(tmp_path, "rules.yaml", 'cases:\n  - query: "hello"\n    expect: none\n')
    with FakeModel([("text", "hi")]) as fake:
        run = cli(
            "eval", "rules.yaml", "--model", "m", "--endpoint", fake.url, "--yes", cwd=tmp_path
        )
        assert fake.received == []
    assert run.code == 2
    assert "NOT JUDGED  rules.yaml:2: 'hello'" in run.err
    assert "no case of these suites is judged by eval" in run.err


def test_a_case_is_appended_under_the_key_asked_for(tmp_path: Path) -> None:
    path = str(tmp_path / "suites" / "new.yaml")
    add_case(path, "fill in the tax form", ["pdf-forms"], "expect_likely")
    add_case(path, "look over my pull request", [], "expect_model")
    text = Path(path).read_text()
    assert "expect_likely: pdf-forms\n" in text and "expect_model: none\n" in text
    assert [c.mode for c in load_suite(path).cases] == ["likely", "model"]


@pytest.mark.parametrize(
    "profile", ["agentskills", "claude-code", "codex", "mvp", "pegasus", "workspace"]
)
def test_the_bundled_suites_ask_eval_only_what_their_keys_mean(profile: str) -> None:
    """A bundled `expect: none` (the rules select nothing) is never eval's "pick
    nothing"; every case eval judges has an expect_model, an expect_likely, or a request
    that names its skill."""
    from skillstudio.core.projects.project import resolve_projects

    from .helpers import REPO

    base = f"{REPO}/skills/{profile}"
    project = resolve_projects([base], [], None, None, base)[0]
    registry = project.registry()
    registry.scan()
    suite = load_suite(f"{base}/suites/{profile}.yaml")
    chosen = eval_cases(suite.cases, registry, project.options, profile)
    by_line = {c.line: c for c in suite.cases}
    for live in chosen.judged:
        case = by_line[live.line]
        if case.model is None and case.likely is None:
            assert case.expect and live.expect == case.expect, (profile, case.query)
    for skipped in chosen.not_judged:
        assert skipped.case.mode == "exact" and skipped.case.model is None
    assert all(c.model is None or c.mode == "model" or c.likely is not None for c in suite.cases)


def test_a_suite_is_listed_in_skillstudio_yaml_keeping_every_other_byte(tmp_path: Path) -> None:
    from skillstudio.core.projects.config_writer import list_suite, with_suite
    from skillstudio.core.reading.yaml_io import EditError

    text = (
        "# head\r\nprofile: claude-code  # c\r\nsuites: [suites/a.yaml]   # mine\r\n"
        "rules:\r\n  x: off\r\n"
    )
    assert with_suite(text, "suites/new.yaml") == text.replace(
        "[suites/a.yaml]", "[suites/a.yaml, suites/new.yaml]"
    )
    assert with_suite(text, "suites/a.yaml") == text  # listed already: unchanged
    block = "profile: x\nsuites:\n  - suites/a.yaml  # first\n# tail\n"
    assert with_suite(block, "suites/b.yaml") == block.replace(
        "# first\n", "# first\n  - suites/b.yaml\n"
    )
    with pytest.raises(EditError, match="not a list of paths"):
        with_suite("suites: {a: 1}\n", "suites/b.yaml")
    assert list_suite(str(tmp_path), str(tmp_path / "suites" / "new.yaml"))  # created
    config = (tmp_path / "skillstudio.yaml").read_text()
    assert config.endswith("suites:\n  - suites/new.yaml\n") and config.startswith("# ")
    assert not list_suite(str(tmp_path), str(tmp_path / "suites" / "new.yaml"))
    with pytest.raises(EditError, match="outside"):
        list_suite(str(tmp_path / "suites"), str(tmp_path / "other.yaml"))
