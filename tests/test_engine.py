"""Matching, tiers, activation and suites, each test named after the seed rule it checks."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.delivery.activation import activate
from skillstudio.core.delivery.tiers import render_listing, render_tiers
from skillstudio.core.model.delivered import TierText, estimate_tokens
from skillstudio.core.model.session import Session
from skillstudio.core.model.skills import Root
from skillstudio.core.profiles import get_profile
from skillstudio.core.profiles.mvp import substitute_mvp
from skillstudio.core.profiles.pegasus import substitute_pegasus
from skillstudio.core.projects.project import project_from_folder, resolve_projects
from skillstudio.core.projects.suite_cases import SuiteError
from skillstudio.core.projects.suite_scope import suite_project
from skillstudio.core.projects.suites import load_suite, run_suite
from skillstudio.core.ranking.explanations import why_not
from skillstudio.core.ranking.match_index import MatchIndex
from skillstudio.core.ranking.matching import match
from skillstudio.core.scanning.registry import Registry

from .helpers import SAMPLES, cli, skill_text, write


def sample(profile: str) -> Registry:
    registry = project_from_folder(os.path.join(SAMPLES, profile)).registry()
    registry.scan()
    return registry


def oasis_registry(tmp_path: Path, skills: dict[str, dict[str, Any]]) -> Registry:
    for ident, fields in skills.items():
        base = {"id": ident, "name": ident.title(), "description": "d", "priority": 1}
        write(tmp_path, f"key_skills/{ident}/SKILL.md", skill_text(**(base | fields)))
    reg = Registry(get_profile("oasis"), [Root(str(tmp_path / "key_skills"), "key_skills", 0)])
    reg.scan()
    return reg


# ------------------------------------------------------------ seed 000 selection


def test_seed000_selection_step1_normalize_lowercase_strip_punctuation() -> None:
    result = match(sample("oasis"), "REVIEW, this!!  (please)")
    assert result.normalized == "review this please"
    assert result.selected == ["code-review"]


def test_seed000_selection_trigger_hit_plus_10_each(tmp_path: Path) -> None:
    reg = oasis_registry(tmp_path, {"a": {"triggers": ["review this", "find bugs"]}})
    result = match(reg, "review this and find bugs")
    cand = result.candidates[0]
    assert [(r.rule, r.points) for r in cand.reasons] == [("trigger", 10), ("trigger", 10)]
    assert cand.score == 20


def test_seed000_trigger_needs_word_boundaries(tmp_path: Path) -> None:
    reg = oasis_registry(tmp_path, {"a": {"triggers": ["view"]}})
    assert match(reg, "please review it").candidates == []
    assert match(reg, "view it").selected == ["a"]


def test_seed000_keyword_overlap_plus_1_each_distinct(tmp_path: Path) -> None:
    reg = oasis_registry(
        tmp_path,
        {"a": {"triggers": ["zzz"], "description": "Parse the CSV files and parse dates."}},
    )
    result = match(reg, "parse parse csv with the dates")
    reasons = sorted(r.term for r in result.candidates[0].reasons)
    assert reasons == ["csv", "dates", "parse"]  # 'the'/'with' are stopwords, parse once
    assert result.candidates[0].score == 3
    assert result.selected == []  # below the threshold of 10


def test_seed000_exact_name_mention_plus_20(tmp_path: Path) -> None:
    reg = oasis_registry(tmp_path, {"code-review": {"name": "Code Review", "triggers": ["x y"]}})
    result = match(reg, "run a code review now")
    assert [(r.rule, r.term, r.points) for r in result.candidates[0].reasons] == [
        ("name", "Code Review", 20)
    ]


def test_seed000_threshold_is_10_inclusive(tmp_path: Path) -> None:
    reg = oasis_registry(tmp_path, {"a": {"triggers": ["ship it"]}})
    assert match(reg, "ship it").selected == ["a"]  # exactly 10 passes


def test_seed000_tie_break_priority_then_id(tmp_path: Path) -> None:
    reg = oasis_registry(
        tmp_path,
        {
            "beta": {"triggers": ["deploy now"], "priority": 5},
            "alpha": {"triggers": ["deploy now"], "priority": 5},
            "gamma": {"triggers": ["deploy now"], "priority": 9},
        },
    )
    result = match(reg, "deploy now")
    assert [c.name for c in result.candidates] == ["gamma", "alpha", "beta"]
    assert result.selected == ["gamma"]
    assert result.margin == 0
    assert "tie-break" in why_not(result, reg, "alpha")


def test_seed000_no_skill_passes_continue_without_skill() -> None:
    result = match(sample("oasis"), "what is the weather")
    assert result.selected == [] and result.tier == 2
    explanation = why_not(result, sample("oasis"), "code-review")
    assert "scored 0" in explanation and "Closest trigger" in explanation


def test_seed000_worked_example_from_the_seed(tmp_path: Path) -> None:
    # The seed's code-review example against the request "review this and find bugs".
    reg = oasis_registry(
        tmp_path,
        {
            "code-review": {
                "name": "Code Review",
                "description": "Identify defects, risks, and test gaps in code changes.",
                "triggers": ["review this", "code review", "find bugs"],
                "priority": 80,
            }
        },
    )
    result = match(reg, "Please review this change and find bugs, then list the risks.")
    cand = result.candidates[0]
    # two triggers (+10 each) and one keyword: 'risks' ('change' is not 'changes')
    assert [(r.rule, r.term) for r in cand.reasons] == [
        ("trigger", "review this"),
        ("trigger", "find bugs"),
        ("keyword", "risks"),
    ]
    assert cand.score == 21 and result.selected == ["code-review"]


def test_seed000_summary_line_format() -> None:
    text = render_listing(sample("oasis")).text
    assert (
        "- Code Review (code-review): Identify defects, risks and missing tests in a change "
        "before it is merged. | triggers: review this, code review, find bugs" in text
    )


# ----------------------------------------------------------- seed 001 (pegasus)


def test_seed001_layer1_listing_format_and_exclusions() -> None:
    tier = render_listing(sample("pegasus"))
    assert tier.text.startswith("Available skills:\n- code-review: Use when reviewing code")
    assert tier.text.endswith("\n\nUse the use_skill tool to invoke a skill when relevant.")
    assert "deploy" not in tier.text and "commit" not in tier.text  # disable-model-invocation
    assert {o["skill"] for o in tier.omitted} == {"commit", "deploy"}
    assert tier.budget == 16_000  # 200,000 tokens × 4 × 2 %


def test_seed001_budget_two_percent_or_16k(tmp_path: Path) -> None:
    for index in range(30):
        write(
            tmp_path,
            f"skills/s{index:02d}/SKILL.md",
            skill_text(name=f"s{index:02d}", description="x" * 90),
        )
    reg = Registry(get_profile("pegasus"), [Root(str(tmp_path / "skills"), "builtin", 0)])
    reg.scan()
    assert render_listing(reg).budget == 16_000  # unknown window
    small = render_listing(reg, {"context_tokens": 20_000})  # 1,600 characters
    assert small.budget == 1600 and len(small.text) <= 1600
    assert small.omitted and all("budget" in o["reason"] for o in small.omitted)


def test_seed001_substitution_rules() -> None:
    assert substitute_pegasus("Review $ARGUMENTS now", "PR #42")[0] == "Review PR #42 now"
    assert substitute_pegasus("a=$0 b=$ARGUMENTS[1] c=$2", 'x "y z"')[0] == "a=x b=y z c=$2"
    assert substitute_pegasus("No placeholder.", "42")[0] == "No placeholder.\n\nARGUMENTS: 42"
    assert substitute_pegasus("No placeholder.", "")[0] == "No placeholder."
    text, notes = substitute_pegasus("first=$0", 'say "unbalanced')
    assert text == "first=say" and "quote" in notes[0]


def test_seed001_inline_model_user_and_fork() -> None:
    reg = sample("pegasus")
    user = activate(reg, "commit", "T-9", invoker="user")
    assert user.mode == "user_message"
    assert user.content.startswith("[Skill: commit]\n\nCreate a git commit for ticket T-9:")
    model = activate(reg, "commit", "T-9", invoker="model")
    assert model.error is not None and model.error["code"] == "PERMISSION_DENIED"
    hidden = activate(reg, "project-conventions", invoker="user")
    assert hidden.error is not None and "user-invocable: false" in hidden.error["message"]
    assert activate(reg, "project-conventions", invoker="model").mode == "tool_result"
    fork = activate(reg, "code-review", "main", invoker="model")
    assert fork.mode == "fork"
    assert fork.payload["result"]["result"] == {"taskId": "task-1", "status": "spawned"}
    missing = activate(reg, "nope")
    assert missing.error == {"code": "NOT_FOUND", "message": 'Skill "nope" not found'}


def test_seed001_user_slash_command_selects() -> None:
    result = match(sample("pegasus"), "/code-review 42")
    assert result.selected == ["code-review"] and result.explicit_args == "42"
    assert result.heuristic and "heuristic" in result.notes[-1]
    tiers = render_tiers(sample("pegasus"), result)
    assert tiers[3].used and "Review the code changes for 42:" in tiers[3].text


# ---------------------------------------------------------- seed 002 (toolsets)


def test_seed002_tier1_breadcrumb_when_triggers_do_not_match() -> None:
    reg = sample("toolsets")
    result = match(reg, "compile the project")
    tiers = render_tiers(reg, result)
    assert result.tier == 1 and tiers[1].used
    assert tiers[1].text == "[3 skills available]"


def test_seed002_tier2_for_what_can_you_do_and_list_skills() -> None:
    reg = sample("toolsets")
    for query in ("what can you do?", "List skills", "which skills do you have"):
        assert match(reg, query).tier == 2, query
    listing = render_listing(reg).text
    assert "- translate: Translate text, keeping code and formatting." in listing


def test_seed002_tier2_when_skills_define_no_triggers(tmp_path: Path) -> None:
    write(tmp_path, ".agent/skills/a/SKILL.md", skill_text(name="a", description="One. Two."))
    reg = project_from_folder(str(tmp_path)).registry()
    reg.scan()
    assert match(reg, "anything at all").tier == 2


def test_seed002_tier0_when_no_skills(tmp_path: Path) -> None:
    os.makedirs(tmp_path / ".agent/skills")
    reg = project_from_folder(str(tmp_path), "toolsets").registry()
    reg.scan()
    assert match(reg, "hello").tier == 0


def test_seed002_ranking_explicit_then_exact_then_recent(tmp_path: Path) -> None:
    for name, keywords in (
        ("alpha", ["deploy"]),
        ("beta", ["deploy", "ship"]),
        ("gamma", ["deploy"]),
    ):
        write(
            tmp_path,
            f".agent/skills/{name}/SKILL.md",
            skill_text(name=name, description="d", triggers={"keywords": keywords}),
        )
    reg = project_from_folder(str(tmp_path)).registry()
    reg.scan()
    plain = match(reg, "deploy and ship")
    assert [c.name for c in plain.candidates] == ["beta", "alpha", "gamma"]
    recent = match(reg, "deploy and ship", session=Session(recent=["gamma"]))
    assert [c.name for c in recent.candidates] == ["beta", "gamma", "alpha"]
    explicit = match(reg, "use gamma skill to deploy and ship")
    assert explicit.candidates[0].name == "gamma"


def test_seed002_max_skills_default_3(tmp_path: Path) -> None:
    for index in range(5):
        write(
            tmp_path,
            f".agent/skills/s{index}/SKILL.md",
            skill_text(name=f"s{index}", description="d", triggers={"keywords": ["go"]}),
        )
    reg = project_from_folder(str(tmp_path)).registry()
    reg.scan()
    assert len(match(reg, "go").selected) == 3
    assert len(match(reg, "go", options={"max_skills": 1}).selected) == 1


def test_seed002_catastrophic_pattern_finishes_within_its_limit(tmp_path: Path) -> None:
    write(
        tmp_path,
        ".agent/skills/slow/SKILL.md",
        skill_text(name="slow", description="d", triggers={"patterns": ["(a|aa)+$"]}),
    )
    reg = project_from_folder(str(tmp_path)).registry()
    reg.scan()
    start = time.perf_counter()
    result = match(reg, "a" * 60 + "!")
    assert time.perf_counter() - start < 1.0
    assert any("was stopped" in note for note in result.notes)


# --------------------------------------------------------------- seed 003 (mvp)


def test_seed003_arguments_behavior() -> None:
    assert substitute_mvp("Focus: $ARGUMENTS", "auth") == "Focus: auth"
    assert substitute_mvp("Body", "auth") == "Body\n\nARGUMENTS: auth"
    assert substitute_mvp("Body", "") == "Body"


def test_seed003_skill_tool_content_and_envelope() -> None:
    reg = sample("mvp")
    act = activate(reg, "code-review", "error handling")
    base = os.path.join(SAMPLES, "mvp", "skills", "code-review")
    assert act.content.startswith(f"Base directory for this skill: {base}\n\n# Code Review")
    assert act.content.endswith("Focus on: error handling\n")
    data = act.payload["envelope"]["data"]
    assert set(data) == {"name", "base_dir", "content"} and data["base_dir"] == base


def test_seed003_error_codes(tmp_path: Path) -> None:
    reg = sample("mvp")
    assert activate(reg, "").error == {
        "code": "INVALID_PARAM",
        "message": "The 'name' parameter is required.",
    }
    assert (activate(reg, "nope").error or {})["code"] == "NOT_FOUND"
    write(tmp_path, "skills/broken/SKILL.md", "---\nname: broken\ndescription: a: b\n---\n")
    broken = Registry(get_profile("mvp"), [Root(str(tmp_path / "skills"), "skills", 0)])
    broken.scan()
    assert (activate(broken, "broken").error or {})["code"] == "INTERNAL_ERROR"


def test_seed003_listing_stops_at_char_budget(tmp_path: Path) -> None:
    for index in range(10):
        write(
            tmp_path,
            f"skills/s{index}/SKILL.md",
            skill_text(name=f"s{index}", description="y" * 50),
        )
    reg = Registry(get_profile("mvp"), [Root(str(tmp_path / "skills"), "skills", 0)])
    reg.scan()
    tier = render_listing(reg, {"char_budget": 300})
    assert len(tier.text) <= 300
    assert tier.listed == [f"s{i}" for i in range(len(tier.listed))]  # stops, no gaps


def test_seed003_explicit_mentions_select() -> None:
    reg = sample("mvp")
    assert match(reg, "$code-review the auth module").selected == ["code-review"]
    assert match(reg, "use code-review skill").selected == ["code-review"]


# --------------------------------------------------------- seed 004 (workspace)


def test_seed004_first_activation_risky_then_safe() -> None:
    reg = sample("workspace")
    session = Session()
    first = activate(reg, "safe-edit", session=session)
    second = activate(reg, "safe-edit", session=session)
    assert (first.payload["risk"], second.payload["risk"]) == ("risky", "safe")
    assert first.payload["mountPath"] == "private:/.skills/safe-edit"
    assert "references/\n│   └── limits.md" in first.payload["folderStructure"]
    assert activate(reg, "safe-edit", session=Session()).payload["risk"] == "risky"


def test_seed004_unknown_or_invisible_lists_visible_skills() -> None:
    reg = sample("workspace")
    err = activate(reg, "repo-survey", options={"allowlist": ["safe-edit"]}).error
    assert err is not None and err["visible"] == ["safe-edit"]
    assert "Visible skills: safe-edit" in err["message"]
    none = activate(reg, "safe-edit", options={"allowlist": []}).error
    assert none is not None and none["visible"] == []


def test_seed004_listing_has_name_description_location_never_body() -> None:
    reg = sample("workspace")
    text = render_listing(reg).text
    assert text.startswith("## Available Skills")
    assert (
        "  location: " + os.path.join(SAMPLES, "workspace", "skills", "repo-survey", "SKILL.md")
        in text
    )
    assert "Do not change any file during a survey" not in text
    hidden = render_listing(reg, {"allowlist": ["repo-survey"]})
    assert hidden.listed == ["repo-survey"] and len(hidden.omitted) == 2


# -------------------------------------------------------------- agentskills


def test_agentskills_available_skills_xml() -> None:
    text = render_listing(sample("agentskills")).text
    assert text.startswith("<available_skills>\n<skill>\n<name>\nrelease-notes\n</name>")
    assert text.endswith("</skill>\n</available_skills>")
    assert "<location>\n" + os.path.join(SAMPLES, "agentskills", ".agents", "skills") in text


def test_token_estimate_is_characters_over_four() -> None:
    assert (
        estimate_tokens("") == 0 and estimate_tokens("abcd") == 1 and estimate_tokens("abcde") == 2
    )


# ----------------------------------------------------------------- robustness


@pytest.mark.parametrize("query", ["", " ", "x" * 100_000, "héllo wörld ✨ 🚀", "/", "$"])
def test_any_request_is_answered(query: str) -> None:
    for profile in ("oasis", "toolsets", "pegasus"):
        result = match(sample(profile), query)
        assert result.tier in (0, 1, 2, 3)


def test_skill_with_1000_triggers(tmp_path: Path) -> None:
    triggers = [f"phrase number {i}" for i in range(1000)]
    reg = oasis_registry(tmp_path, {"big": {"triggers": triggers}})
    start = time.perf_counter()
    result = match(reg, "phrase number 999 and phrase number 5")
    assert time.perf_counter() - start < 0.5
    assert result.candidates[0].score == 20


def test_index_updates_when_one_skill_changes(tmp_path: Path) -> None:
    reg = oasis_registry(tmp_path, {"a": {"triggers": ["alpha"]}, "b": {"triggers": ["beta"]}})
    index = MatchIndex(reg)
    path = str(tmp_path / "key_skills/b/SKILL.md")
    reg.reparse(path, skill_text(id="b", name="B", description="d", priority=1, triggers=["gamma"]))
    index.sync()
    assert match(reg, "gamma", index=index).selected == ["b"]
    assert match(reg, "beta", index=index).selected == []


def test_index_keeps_terms_of_a_body_edit_and_rereads_a_description_edit(
    tmp_path: Path,
) -> None:
    reg = oasis_registry(tmp_path, {"a": {"triggers": ["alpha"]}, "b": {"triggers": ["beta"]}})
    index = MatchIndex(reg)
    path = str(tmp_path / "key_skills/b/SKILL.md")
    terms = index.terms[path]
    fields = {"id": "b", "name": "B", "priority": 1, "triggers": ["beta"]}
    reg.reparse(path, skill_text(description="d", _body="A longer body.\n", **fields))
    assert list(index.sync_steps()) == []  # nothing to re-read: no step taken
    assert index.terms[path] is terms and index.skills[path] is reg.by_path[path]
    reg.reparse(path, skill_text(description="ships the gamma build", **fields))
    assert len(list(index.sync_steps())) == 2  # its terms out, then in again
    assert index.terms[path] is not terms
    assert match(reg, "ships gamma build", index=index).candidates[0].name == "b"


# ---------------------------------------------------------------------- suites


def _oasis_skills(tmp_path: Path) -> str:
    """The oasis sample's skills copied beside a suite written in `tmp_path`: a suite's
    roots must lie in its own folder or repository (docs/commands.md "Where a suite may
    reach"), not in this checkout's samples."""
    target = tmp_path / "key_skills"
    if not target.exists():
        shutil.copytree(os.path.join(SAMPLES, "oasis", "key_skills"), target)
    return "key_skills"


def test_suite_failure_is_reported_with_precision_and_recall(tmp_path: Path) -> None:
    suite = write(
        tmp_path,
        "suite.yaml",
        f"""
        profile: oasis
        roots: [{_oasis_skills(tmp_path)}]
        cases:
          - query: "review this please"
            expect: code-review
          - query: "commit this"
            expect: write-tests
        """,
    )
    run = cli("test", suite, "--format", "json")
    assert run.code == 1
    data = run.json
    assert (data["passed"], data["failed"]) == (1, 1)
    assert data["cases"][1]["got"] == ["commit"]
    assert data["per_skill"]["write-tests"]["recall"] == 0.0
    assert data["per_skill"]["commit"]["precision"] == 0.0
    text = cli("test", suite)
    assert text.out.strip().splitlines()[-1] == "1 passed, 1 failed"
    assert f"{suite}:6: 'commit this' -> commit; expected: write-tests" in text.out


def test_a_failing_case_says_why(tmp_path: Path) -> None:
    """A failing case's note said nothing ("expected commit, got none" with an empty
    Note column in the app): it now says why the expected skill lost, or which
    skill was selected that should not have been."""
    suite = write(
        tmp_path,
        "suite.yaml",
        f"""
        profile: oasis
        roots: [{_oasis_skills(tmp_path)}]
        cases:
          - query: "tidy up my history"
            expect: commit
          - query: "commit this"
            expect: none
          - query: "commit this"
            expect: [commit, write-tests]
        """,
    )
    whys = [case["why"] for case in cli("test", suite, "--format", "json").json["cases"]]
    assert whys[0].startswith("commit scored 0: none of its triggers")
    assert re.fullmatch(r"commit \(score \d+\) was selected", whys[1])
    assert whys[2].startswith("write-tests scored")


def test_the_app_chooses_a_suites_project_by_the_clis_rule(tmp_path: Path) -> None:
    """core.suite_scope.suite_project decides for both: the app, standing in its open
    project, gets what `skillstudio test SUITE` run there gets, as the open project
    itself when the profile and roots agree (its unsaved edits count)."""
    kite = skill_text(name="kite", description="Flies a kite on windy days.")
    outer = tmp_path / "outer"
    write(outer, "skills/lamp/SKILL.md", skill_text(name="lamp", description="Lights a lamp."))
    write(outer, "nested/skillstudio.yaml", "roots: [toys]\n")
    write(outer, "nested/toys/kite/SKILL.md", kite)
    cases = 'cases:\n  - query: "use the kite skill"\n    expect: kite\n'
    beside = load_suite(write(outer, "suites/here.yaml", cases))
    inside = load_suite(write(outer, "nested/suites/kite.yaml", cases))
    (opened,) = resolve_projects([], [], None, None, str(outer))  # the app has it open
    other = project_from_folder(str(tmp_path))
    for suite in (beside, inside):
        by_cli = suite_project(suite, cwd=str(outer))
        by_app = suite_project(suite, open_projects=[opened, other])
        assert (by_app.base, by_app.profile.name, [r.path for r in by_app.roots]) == (
            by_cli.base,
            by_cli.profile.name,
            [r.path for r in by_cli.roots],
        )
    assert suite_project(beside, open_projects=[opened, other]) is opened
    nested = suite_project(inside, open_projects=[opened, other])
    assert nested is not opened and [r.path for r in nested.roots] == [str(outer / "nested/toys")]
    # the app's folder is the open project that lists the suite, else the first one
    write(tmp_path, "skillstudio.yaml", "roots: [outer/skills]\nsuites: [outer/suites/here.yaml]\n")
    lister = project_from_folder(str(tmp_path))
    assert suite_project(beside, open_projects=[other, lister]).base == str(tmp_path)


def test_suite_with_yaml_error_or_unknown_skill(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.yaml", "cases:\n  - query: [unclosed\n")
    run = cli("test", bad)
    assert run.code == 2 and "bad.yaml:3:1: not valid YAML" in run.err
    assert "Traceback" not in run.err
    unknown = write(
        tmp_path,
        "unknown.yaml",
        f"profile: oasis\nroots: [{_oasis_skills(tmp_path)}]\n"
        "cases:\n  - query: hi\n    expect: no-such-skill\n",
    )
    data = cli("test", unknown, "--format", "json").json
    assert data["cases"][0]["why"] == "no skill named no-such-skill in this registry"


def test_import_skill_creator_eval_set(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "eval_set.json",
        json.dumps(
            [
                {"query": "/code-review main", "should_trigger": True},
                {"query": "review my branch", "should_trigger": False},
            ]
        ),
    )
    suite = load_suite(path, "code-review")
    assert [c.mode for c in suite.cases] == ["triggers", "not-triggers"]
    report = run_suite(suite, sample("pegasus"))
    assert report.failed == 0
    with pytest.raises(SuiteError, match="--skill"):
        load_suite(path)


def test_import_skill_lab_triggers_yaml(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "triggers.yaml",
        """
        skill: code-review
        test_cases:
          - id: explicit-1
            type: explicit
            prompt: "$code-review the login change"
            expected: trigger
          - id: negative-1
            type: negative
            prompt: "what is the weather"
            expected: no_trigger
        """,
    )
    report = run_suite(load_suite(path), sample("mvp"))
    assert (report.passed, report.failed) == (2, 0)


@pytest.mark.parametrize(
    "profile", ["oasis", "pegasus", "toolsets", "mvp", "workspace", "agentskills"]
)
def test_bundled_suites_pass(profile: str) -> None:
    run = cli("test", "--project", os.path.join(SAMPLES, profile))
    assert run.code == 0, run.out
    last = run.out.strip().splitlines()[-1]
    # (an expect_model case is eval's: "…; 1 case has expect_model only: run eval …")
    assert last.split(";")[0].endswith(" passed, 0 failed"), last


def test_lazy_ranking_equals_full_ranking(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from skillstudio.core.ranking import rankers

    skills = {
        f"s{index:02d}": {
            "triggers": ["deploy now"] if index % 4 == 0 else [f"unique {index}"],
            "description": " ".join(["deploy", "service", "logs"][: 1 + index % 3]),
            "priority": index % 5,
        }
        for index in range(30)
    }
    reg = oasis_registry(tmp_path, skills)
    query = "deploy now the service and read logs"
    full = match(reg, query)
    monkeypatch.setattr(rankers, "TOP", 3)
    lazy = match(reg, query)
    assert len(lazy.candidates) < full.total == lazy.total
    expected = [(c.name, c.score, c.passed, c.reasons) for c in full.all_candidates()]
    assert [(c.name, c.score, c.passed, c.reasons) for c in lazy.all_candidates()] == expected
    assert lazy.selected == full.selected
    assert lazy.candidate("s29") is not None


def test_add_case_appends_only_the_new_case(tmp_path: Path) -> None:
    from skillstudio.core.projects.suite_cases import SuiteError
    from skillstudio.core.projects.suite_writing import add_case
    from skillstudio.core.projects.suites import load_suite

    path = tmp_path / "suite.yaml"
    path.write_text('# mine\ncases:\n    - query: "one"\n      expect: a   # keep\n')
    suite = add_case(str(path), 'say "hi": now', ["b"])
    assert [(c.query, c.expect) for c in suite.cases] == [("one", ["a"]), ('say "hi": now', ["b"])]
    text = path.read_text()
    assert text.startswith('# mine\ncases:\n    - query: "one"\n      expect: a   # keep\n')
    assert text.endswith('    - query: "say \\"hi\\": now"\n      expect: b\n')
    add_case(str(path), "nothing", [])
    assert load_suite(str(path)).cases[-1].expect == []
    fresh = tmp_path / "new" / "suite.yaml"
    assert [c.query for c in add_case(str(fresh), "x", ["a", "b"]).cases] == ["x"]
    other = tmp_path / "other.yaml"
    other.write_text('cases:\n  - query: "q"\n    expect: a\nprofile: oasis\n')
    before = other.read_text()
    with pytest.raises(SuiteError, match="appended safely"):
        add_case(str(other), "x", ["a"])
    assert other.read_text() == before


def test_suites_read_their_files_through_safefs_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """add_case and the case-line index read the suite with the bounded, regular-file
    reader; a plain open() (unbounded, would wait on a FIFO swapped in) is never used."""
    import builtins

    from skillstudio.core.projects.suite_writing import add_case
    from skillstudio.core.projects.suites import load_suite

    path = tmp_path / "suite.yaml"
    path.write_text('cases:\n  - query: "one"\n    expect: a\n')

    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError(f"plain open() of {args[0]!r}")

    monkeypatch.setattr(builtins, "open", refuse)
    suite = add_case(str(path), "two", ["b"])
    assert [(c.query, c.line) for c in suite.cases] == [("one", 2), ("two", 4)]
    assert [c.query for c in load_suite(str(path)).cases] == ["one", "two"]


def test_create_suite_then_add_cases(tmp_path: Path) -> None:
    from skillstudio.core.projects.suite_cases import SuiteError
    from skillstudio.core.projects.suite_writing import add_case, create_suite
    from skillstudio.core.projects.suites import load_suite

    path = tmp_path / "suites" / "new.yaml"
    assert create_suite(str(path)).cases == []
    template = path.read_text()
    with pytest.raises(SuiteError, match="already exists"):
        create_suite(str(path))
    assert path.read_text() == template
    add_case(str(path), "review this diff", ["code-review"])
    add_case(str(path), "the weather", [])
    assert [(c.query, c.expect) for c in load_suite(str(path)).cases] == [
        ("review this diff", ["code-review"]),
        ("the weather", []),
    ]
    assert path.read_text().startswith(template.replace("cases: []", "cases:"))


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Registry:
    from .benchmarks.synth import generate

    folder = tmp_path_factory.mktemp("synthetic") / "p"
    generate(str(folder), 80)
    reg = project_from_folder(str(folder)).registry()
    reg.scan()
    return reg


@pytest.mark.parametrize("top", [1, 5, 30])
def test_indexed_ranking_equals_the_naive_loop_of_the_seed(
    synthetic: Registry, monkeypatch: pytest.MonkeyPatch, top: int
) -> None:
    from skillstudio.core.ranking import rankers

    from .benchmarks.bench_match import naive, queries

    index = MatchIndex(synthetic)
    monkeypatch.setattr(rankers, "TOP", top)  # the cutoff and its ties, at every size
    priority = {s.name: s.fields["priority"] for s in synthetic.active.values()}
    for query in queries(seed=top, count=25):
        expected = sorted(naive(synthetic, query), key=lambda p: (-p[0], -priority[p[1]], p[1]))
        got = match(synthetic, query, index=index)
        assert [(c.score, c.name) for c in got.all_candidates()] == expected, query


def test_listing_is_written_once_per_registry_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillstudio.core.delivery import tiers as disclosure

    fields: dict[str, Any] = {"triggers": ["go"]}
    reg = oasis_registry(tmp_path, {"a": fields, "b": fields})
    written: list[int] = []
    render = disclosure._render_listing

    def counted(registry: Registry, options: dict[str, Any]) -> Generator[None, None, TierText]:
        written.append(registry.version)  # (written in steps: see listing_steps)
        return render(registry, options)

    monkeypatch.setattr(disclosure, "_render_listing", counted)
    first = render_listing(reg)
    first.listed.append("changed by a caller")  # callers get their own copy
    second = render_listing(reg)
    assert len(written) == 1 and second.text == first.text and second.listed == ["a", "b"]
    assert render_listing(reg, {"budget": 5}) is not None and len(written) == 2  # options differ
    path = str(tmp_path / "key_skills/a/SKILL.md")
    reg.reparse(
        path,
        skill_text(id="a", name="A", description="new words", priority=1, triggers=["go"]),
    )
    assert "- A (a): new words |" in render_listing(reg).text and len(written) == 3


# -- issue 15 item 16 ------------------------------------------------------------------


def test_explicit_invocation_is_not_labelled_a_heuristic(tmp_path: Path) -> None:
    root = tmp_path / ".agents/skills"
    write(root, "csv-tools/SKILL.md", skill_text(name="csv-tools", description="Reads CSV files."))
    write(root, "other/SKILL.md", skill_text(name="other", description="A skill for other work."))
    run = cli("match", "use csv-tools skill", "--profile", "agentskills", "--root", str(root))
    assert run.code == 0, run.err
    top = next(line for line in run.out.splitlines() if "csv-tools " in line and "1." in line)
    assert "(heuristic)" not in top
    data = cli(
        "match",
        "use csv-tools skill",
        "--profile",
        "agentskills",
        "--root",
        str(root),
        "--format",
        "json",
    ).json
    # the invocation's own word 'skill' is not a keyword of the request
    # (the keyword matcher's list is `keywords`; `candidates` lead with the invoked skill,
    # then the likely ranking: docs/commands.md)
    terms = [r["term"] for c in data["keywords"] for r in c["reasons"] if r["rule"] == "keyword"]
    assert "skill" not in terms and "use" not in terms
    assert [c["skill"] for c in data["keywords"]] == ["csv-tools"]
    assert data["candidates"][0]["skill"] == "csv-tools" and data["candidates"][0]["passed"]
    heuristic = cli("match", "read csv files", "--profile", "agentskills", "--root", str(root))
    assert "(heuristic)" in heuristic.out  # a keyword score still is one


def test_body_over_both_limits_is_one_diagnostic(tmp_path: Path) -> None:
    body = "".join(f"Line {n}: " + "word " * 60 + "\n" for n in range(600))
    write(tmp_path, "big/SKILL.md", skill_text(name="big", description="Big.", _body=body))
    run = cli("lint", str(tmp_path), "--profile", "agentskills", "--format", "json")
    found = [d for d in run.json["diagnostics"] if d["code"] == "body-too-long"]
    assert len(found) == 1
    assert "lines (advised: under 500)" in found[0]["message"]
    assert "tokens, characters / 4 (advised: under 5,000)" in found[0]["message"]


@pytest.mark.parametrize("profile", ["claude-code", "codex", "agentskills", "gemini"])
def test_a_long_body_is_said_under_every_agent_that_reads_the_standard(
    tmp_path: Path, profile: str
) -> None:
    """A reviewer's Claude Code author got no word on a 676-line body (the warning came
    under agentskills, gemini and copilot only): Anthropic's authoring guide asks for
    under 500 lines too (docs/agents.md "A body's length")."""
    body = "".join(f"Step {n}.\n" for n in range(620))
    write(tmp_path, "long/SKILL.md", skill_text(name="long", description="Long.", _body=body))
    run = cli("lint", str(tmp_path), "--profile", profile, "--format", "json")
    found = [d for d in run.json["diagnostics"] if d["code"] == "body-too-long"]
    assert len(found) == 1 and "lines (advised: under 500)" in found[0]["message"]


def test_pegasus_user_cannot_invoke_a_skill_that_is_not_user_invocable() -> None:
    """Seed 001's control matrix: user-invocable: false → the user cannot run /name; the
    request is an ordinary message, so nothing is selected, and the explanation says why."""
    registry = sample("pegasus")
    assert registry.active["project-conventions"].fields["user-invocable"] is False
    result = match(registry, "/project-conventions")
    assert result.selected == [] and result.tier != 3
    assert all(r.rule != "explicit" for c in result.candidates for r in c.reasons)
    why = why_not(result, registry, "project-conventions")
    assert "user-invocable: false" in why and "ordinary message" in why
    assert any("user-invocable: false" in note for note in result.notes)
    # the model may still invoke it, and other skills stay user commands
    assert match(registry, "use project-conventions skill").selected == ["project-conventions"]
    other = next(n for n, s in registry.active.items() if s.fields.get("user-invocable", True))
    assert match(registry, f"/{other}").selected == [other]
