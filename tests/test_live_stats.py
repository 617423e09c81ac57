"""Statistics that gate honestly (issue 37): a case passes on the one-sided 95 % Wilson
lower bound with a minimum of answered runs, fails on the upper bound, and is
*inconclusive* between; a run without an answer (an error, a timeout, a malformed
answer, a cache miss offline) is counted both ways, never dropped from N; inconclusive
exits 3 and has its own line in text, JSON and JUnit (an <error>); pooled per-skill
intervals are widened for the runs of one request; temperature 0 with several runs is
warned about. Against the loopback fake server (tests/live_fake.py); no network.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.live.cache import AnswerCache
from skillstudio.core.live.stats import (
    FAIL,
    INCONCLUSIVE,
    PASS,
    CaseRuns,
    LiveCase,
    Rule,
    per_skill,
    pooled,
    wilson,
)

from .helpers import cli
from .live_fake import FakeModel, Script
from .test_live import check, registry_for, settings

PICK = ("tool", "Skill", {"skill": "pdf-forms"})
MALFORMED = ("raw", b"{not json")
QUERY = "fill in the PDF form"


def eval_args(url: str, *more: str) -> list[str]:
    return [
        "eval",
        "--request",
        QUERY,
        "--expect",
        "pdf-forms",
        "--endpoint",
        url,
        "--api",
        "anthropic",
        "--model",
        "m",
        *more,
    ]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("SKILLSTUDIO_NO_KEYRING", "1")
    registry_for(tmp_path, "claude-code")
    return tmp_path


# -- the cases ---------------------------------------------------------------------
def test_one_answered_run_of_three_is_inconclusive_not_a_pass(tmp_path: Path) -> None:
    """main: 1 answered run and 2 malformed answers gave 'PASS 1/1 (CI 21-100 %)'."""
    registry, _ = registry_for(tmp_path, "claude-code")
    with FakeModel([PICK, MALFORMED, MALFORMED]) as fake:
        s = settings(fake.url, "anthropic", runs=3, concurrency=1)
        report = check(registry, [LiveCase(QUERY, ["pdf-forms"])], s)
    result = report.results[0]
    assert [a.pick for a in result.answers] == ["pdf-forms", None, None]
    assert [bool(a.error) for a in result.answers] == [False, True, True]
    verdict = result.verdict(s.rule)
    assert verdict.state == INCONCLUSIVE and verdict.passed is None
    assert verdict.why == "1 of 3 runs answered; a verdict needs 3"
    assert report.counts() == (0, 0, 1) and report.unanswered() == 0
    # with the minimum lowered to 1 it is still no pass: the 2 runs without an answer
    # count as misses for the lower bound (1 of 3: 8 %), as hits for the upper (100 %)
    verdict = result.verdict(Rule(0.5, 1))
    assert verdict.state == INCONCLUSIVE and verdict.bounds is not None
    assert [round(b, 4) for b in verdict.bounds] == [0.0783, 1.0]
    assert verdict.why.endswith("2 of 3 runs without an answer, counted both ways")


def test_eval_one_answered_run_of_three_exits_3_in_every_format(project: Path) -> None:
    outputs: dict[str, Any] = {}
    for form in ("text", "json", "junit"):
        with FakeModel([PICK, MALFORMED, MALFORMED]) as fake:
            run = cli(
                *eval_args(fake.url, "--yes", "--concurrency", "1", "--format", form),
                cwd=project,
            )
        assert run.code == 3, run.out + run.err
        outputs[form] = run.out
    text = outputs["text"]
    assert "PASS" not in text
    assert (
        f"  INCONCLUSIVE  '{QUERY}' -> error 2, pdf-forms 1; expected pdf-forms: 1/1 of 3 "
        "runs (100 %, 95 % CI 21-100 %): 1 of 3 runs answered; a verdict needs 3; "
        "without an answer: the answer is not JSON; estimate: pdf-forms"
    ) in text
    assert text.rstrip().endswith("0 passed, 0 failed, 1 inconclusive")
    data = json.loads(outputs["json"])
    assert (data["passed"], data["failed"], data["inconclusive"], data["unanswered"]) == (
        0,
        0,
        1,
        0,
    )
    case = data["reports"][0]["cases"][0]
    assert case["verdict"] == "inconclusive" and case["passed"] is None
    assert (case["hits"], case["answered"], len(case["runs"])) == (1, 1, 3)
    assert data["reports"][0]["min_answered"] == 3
    suite = ET.fromstring(outputs["junit"]).find("testsuite")
    assert suite is not None and suite.get("errors") == "1" and suite.get("failures") == "0"
    error = suite.find("testcase/error")
    assert error is not None and (error.get("message") or "").startswith(
        "inconclusive: 1 of 3 runs answered"
    )


def test_offline_with_runs_missing_from_the_cache_is_inconclusive(project: Path) -> None:
    """main: `--offline --runs 3` with runs 0-1 cached passed 2/2."""
    with FakeModel([PICK]) as fake:
        url = fake.url
        first = cli(*eval_args(url, "--runs", "2", "--min-runs", "2", "--yes"), cwd=project)
        # 2 of 2 is inconclusive itself (lower bound 43 %): only the cache matters here
        assert first.code == 3 and len(fake.received) == 2, first.out + first.err
    # the server is gone: runs 0-1 come from the cache, run 2 is a miss
    replay = cli(*eval_args(url, "--runs", "3", "--offline", "--format", "json"), cwd=project)
    assert replay.code == 3, replay.out + replay.err
    case = replay.json["reports"][0]["cases"][0]
    assert [r["pick"] for r in case["runs"]] == ["pdf-forms", "pdf-forms", None]
    assert case["runs"][2]["error"].startswith("not in the cache (--offline)")
    assert case["verdict"] == "inconclusive" and (case["hits"], case["answered"]) == (2, 2)
    # even a minimum of 2 answered runs does not make it a pass: the miss could be a
    # miss (2 of 3: a lower bound of 25 %)
    again = cli(*eval_args(url, "--runs", "3", "--offline", "--min-runs", "2"), cwd=project)
    assert again.code == 3 and "1 of 3 runs without an answer, counted both ways" in again.out


def test_two_of_three_is_inconclusive_three_of_three_passes_none_fails(project: Path) -> None:
    """main: 2 of 3 passed with a 95 % interval of 21-94 %. The rule: pass when the
    one-sided 95 % lower bound reaches the bar, fail when the upper one is below it."""
    scripts: dict[str, Script] = {
        "two": [PICK, ("text", "no skill"), PICK],
        "three": [PICK],
        "none": [("text", "no skill")],
    }
    runs = {}
    for name, script in scripts.items():
        with FakeModel(script) as fake:
            runs[name] = cli(*eval_args(fake.url, "--yes", "--concurrency", "1"), cwd=project)
    two, three, none = runs["two"], runs["three"], runs["none"]
    assert two.code == 3, two.out
    assert (
        "2/3 of 3 runs (67 %, 95 % CI 21-94 %): 25-92 % at 95 % confidence holds the bar "
        "50 %: more runs needed"
    ) in two.out
    assert three.code == 0 and "PASS  " in three.out, three.out
    assert "at least 53 % at 95 % confidence (bar 50 %)" in three.out
    assert none.code == 1 and "FAIL  " in none.out, none.out
    assert "at most 47 % at 95 % confidence (bar 50 %)" in none.out
    # a lower bar: 2 of 3 passes (lower bound 25 % >= 20 %)
    with FakeModel(scripts["two"]) as fake:
        low = cli(
            *eval_args(fake.url, "--yes", "--concurrency", "1", "--pass-rate", "0.2"), cwd=project
        )
    assert low.code == 0 and "PASS  " in low.out, low.out


def test_a_failure_outranks_an_inconclusive_case_in_the_exit_code(project: Path) -> None:
    def answer(body: dict[str, Any]) -> tuple[Any, ...]:
        text = json.dumps(body)
        return ("text", "no skill") if "weather" in text else MALFORMED

    with FakeModel([answer]) as fake:
        args = eval_args(fake.url, "--yes", "--request", "what is the weather")
        run = cli(*args, cwd=project)
    assert run.code == 1, run.out
    assert run.out.rstrip().endswith("0 passed, 1 failed, 1 inconclusive")


# -- the rule by hand ------------------------------------------------------------------------
def test_the_rule_by_hand() -> None:
    rule = Rule()  # bar 0.5, 3 answered runs
    # the one-sided 95 % Wilson bound (z = 1.6449, z² = 2.7055): 3 of 3 gives
    # n / (n + z²) = 3 / 5.7055 = 0.5258 >= 0.5; 0 of 3 gives an upper 0.4742 < 0.5
    assert rule.decide(3, 3, 3).state == PASS
    assert rule.decide(0, 3, 3).state == FAIL
    assert rule.decide(2, 3, 3).state == INCONCLUSIVE
    assert rule.decide(1, 3, 3).state == INCONCLUSIVE
    assert rule.decide(0, 0, 3).why == "no run of 3 got an answer"
    # a run without an answer is never dropped: decided only if it cannot turn it
    assert rule.decide(9, 9, 10).state == PASS  # as a miss: 9 of 10, lower 65 %
    assert rule.decide(0, 9, 10).state == FAIL  # as a hit: 1 of 10, upper 35 %
    assert rule.decide(3, 3, 4).state == INCONCLUSIVE  # 3 of 4 if it misses: 36-94 %
    assert rule.decide(3, 3, 3).bounds == pytest.approx((0.5258, 1.0), abs=1e-4)
    # a minimum of answered runs, whatever the bar
    assert Rule(0.2, 3).decide(2, 2, 2).state == INCONCLUSIVE
    assert Rule(0.2, 2).decide(2, 2, 2).state == PASS  # 2 / (2 + z²) = 0.4250


def test_a_request_without_an_expectation_is_shown_not_judged() -> None:
    from skillstudio.core.live.questions import Answer

    shown = CaseRuns(LiveCase("q", [], judged=False), [Answer(pick="x"), Answer(error="e")])
    assert shown.verdict(Rule()).state == "shown" and shown.passed(Rule()) is True
    lost = CaseRuns(LiveCase("q", [], judged=False), [Answer(error="e")])
    assert lost.verdict(Rule()).state == INCONCLUSIVE


# -- pooled intervals ------------------------------------------------------------------------
def test_pooled_intervals_widen_for_runs_of_one_request() -> None:
    # one run a request: independent, the plain Wilson interval (design effect 1)
    interval, design = pooled([(1, 1), (0, 1), (1, 1), (1, 1)])
    assert design == 1.0 and interval == wilson(3, 4)
    # four requests whose 3 runs always agree: 12 runs are 4 samples (design effect
    # Σm²/n = 36/12 = 3; the cluster-robust one, 4, is held to it)
    interval, design = pooled([(3, 3), (0, 3), (3, 3), (3, 3)])
    assert design == 3.0 and interval == pytest.approx(wilson(3, 4))
    assert interval is not None and interval[0] < (wilson(9, 12) or (0, 0))[0]
    # runs that vary within a request as much as independent ones: not widened.
    # p = 8/12; Σ(y - p·m)² = 0 + 1 + 1 + 0 = 2, x C/(C-1) = 4/3, / n² = 0.01852;
    # binomial p(1-p)/n = 0.01852: design effect 1
    interval, design = pooled([(2, 3), (1, 3), (3, 3), (2, 3)])
    assert design == pytest.approx(1.0) and interval == pytest.approx(wilson(8, 12))
    # a rate of 1 cannot show how alike the runs are: taken as alike
    assert pooled([(3, 3), (3, 3)])[1] == 3.0
    assert pooled([]) == (None, 1.0)


def test_per_skill_intervals_are_pooled_over_requests(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    queries = ["fill in the PDF form", "complete this PDF", "sign the PDF"]

    def answer(body: dict[str, Any]) -> tuple[Any, ...]:  # the same pick every run
        text = json.dumps(body)
        return PICK if "sign" not in text else ("text", "no skill")

    with FakeModel([answer]) as fake:
        report = check(
            registry,
            [LiveCase(q, ["pdf-forms"]) for q in queries],
            settings(fake.url, "anthropic", runs=3),
        )
    pdf = per_skill(report.results)["pdf-forms"]
    assert (pdf["tp"], pdf["fn"]) == (6, 3)
    # recall 6 of 9 runs, but 2 of 3 requests: the runs of each request agree, so the
    # design effect is 3 and the interval is that of 2 of 3, not of 6 of 9
    assert pdf["design_effect"]["recall"] == 3.0
    assert pdf["recall_interval"] == [round(x, 4) for x in wilson(2, 3) or ()]
    assert report.to_json()["per_skill"]["pdf-forms"]["recall_interval"] == pdf["recall_interval"]


# -- warnings and usage --------------------------------------------------------------------
def test_temperature_0_with_several_runs_is_warned_about(project: Path) -> None:
    with FakeModel([PICK]) as fake:
        run = cli(
            *eval_args(fake.url, "--yes", "--temperature", "0", "--format", "json"), cwd=project
        )
        one = cli(*eval_args(fake.url, "--yes", "--temperature", "0", "--runs", "1"), cwd=project)
    assert "warning: temperature 0 with 3 runs: the runs are near copies" in run.err
    assert run.json["reports"][0]["warnings"][0].startswith("temperature 0 with 3 runs")
    assert "temperature" not in one.err  # one run: nothing to overstate
    assert "--runs 1 is below the 3 answered runs a verdict needs" in one.err
    assert one.code == 3


def test_bad_pass_rate_and_min_runs_are_usage_errors(project: Path) -> None:
    for words in (("--pass-rate", "1"), ("--pass-rate", "0"), ("--min-runs", "0")):
        run = cli(*eval_args("http://127.0.0.1:9/v1", "--yes", *words), cwd=project)
        assert run.code == 2, (words, run.out, run.err)
    assert (
        "no number of runs shows a rate of 1"
        in cli(*eval_args("http://127.0.0.1:9/v1", "--pass-rate", "1"), cwd=project).err
    )


def test_the_cache_is_untouched_by_verdicts(tmp_path: Path) -> None:
    """A verdict is worked out from the answers: an inconclusive case leaves its
    answered runs in the cache, so the next run asks only what is missing."""
    registry, _ = registry_for(tmp_path, "claude-code")
    cache = AnswerCache(str(tmp_path / "cache"))
    with FakeModel([PICK, MALFORMED, PICK]) as fake:
        s = settings(fake.url, "anthropic", runs=3, concurrency=1)
        first = check(registry, [LiveCase(QUERY, ["pdf-forms"])], s, cache)
        assert first.counts() == (0, 0, 1)
        second = check(registry, [LiveCase(QUERY, ["pdf-forms"])], s, cache)
        assert len(fake.received) == 4  # only the malformed run was asked again
    assert second.counts() == (1, 0, 0)
