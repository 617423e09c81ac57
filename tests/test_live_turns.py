"""K turns with stub tool results (core/live/turns.py) and the Responses API
(core/live/responses_api.py), against the loopback fake server (tests/live_fake.py):
a model that reads a file first and invokes a skill at turn 2 is an any-turn pick and
no first-turn one; K=1 asks once as before; the Responses API's `function_call` is read
as a pick; a Codex `shell_command` read of a listed SKILL.md is credited (core/live/
reads.py); the estimate counts up to K calls a run. Nothing here reaches a network."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.live.cache import AnswerCache, request_digest
from skillstudio.core.live.endpoints import EndpointError, endpoint_for
from skillstudio.core.live.planning import LiveError, plan
from skillstudio.core.live.run import execute
from skillstudio.core.live.stats import LiveCase
from skillstudio.core.live.turns import STUB

from .helpers import cli
from .live_fake import FakeModel, Script, turn_of
from .test_live import registry_for, settings

CASE = [LiveCase("fill in the PDF form for me", ["pdf-forms"])]
# a model that explores first: a Read (Claude Code) at turn 1, the Skill call at turn 2
READ_THEN_SKILL: Script = [
    lambda body: (
        ("tool", "Read", {"file_path": "/tmp/form.pdf"})
        if turn_of(body) == 1
        else ("tool", "Skill", {"skill": "pdf-forms"})
    )
]


@pytest.mark.parametrize("api", ["anthropic", "openai", "responses"])
def test_a_read_then_a_skill_call_is_an_any_turn_pick_not_a_first_turn_one(
    tmp_path: Path, api: str
) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    with FakeModel(READ_THEN_SKILL) as fake:
        s = settings(fake.url, api, runs=3, concurrency=1, turns=3)
        report = execute(plan(registry, CASE, s, {}))
        sent = [json.loads(body) for _, _, body in fake.received]
        paths = {path for path, _, _ in fake.received}
    answers = report.results[0].answers
    assert [(a.pick, a.turn) for a in answers] == [("pdf-forms", 2)] * 3
    assert len(sent) == 6  # two exchanges a run, the third turn never needed
    assert paths == {
        {"anthropic": "/v1/messages", "openai": "/v1/chat/completions"}.get(api, "/v1/responses")
    }
    # the second request carries the Read call back with the stub as its result
    second = sent[1]
    if api == "anthropic":
        reply, results = second["messages"][-2:]
        assert reply["content"][-1]["name"] == "Read"
        assert results["content"] == [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": STUB}
        ]
    elif api == "openai":
        reply, result = second["messages"][-2:]
        assert reply["tool_calls"][0]["function"]["name"] == "Read"
        assert result == {"role": "tool", "tool_call_id": "call_1", "content": STUB}
    else:
        call, result = second["input"][-2:]
        assert call["type"] == "function_call" and call["name"] == "Read"
        assert result == {"type": "function_call_output", "call_id": "call_1", "output": STUB}
    # each later turn's bytes are hashed; the run keeps the first request's digest
    first_bytes = fake.received[0][2]
    assert answers[0].request_sha256 == request_digest(first_bytes)
    assert answers[0].turn_sha256 == [request_digest(fake.received[1][2])]
    assert answers[0].input_tokens == 240  # both turns' tokens
    case = report.to_json()["cases"][0]
    assert report.to_json()["turns"] == 3
    assert case["first_turn"] == {"hits": 0, "answered": 3, "rate": 0.0}
    assert case["any_turn"] == {"hits": 3, "answered": 3, "rate": 1.0}
    assert case["verdict"] == "pass"  # the pass rule is the any-turn one
    assert [r["turn"] for r in case["runs"]] == [2, 2, 2]


def test_one_turn_asks_once_as_before(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    with FakeModel(READ_THEN_SKILL) as fake:
        report = execute(plan(registry, CASE, settings(fake.url, "anthropic", runs=3), {}))
        assert len(fake.received) == 3
        assert all(turn_of(json.loads(body)) == 1 for _, _, body in fake.received)
    case = report.to_json()["cases"][0]
    assert [r["pick"] for r in case["runs"]] == [None] * 3
    assert case["verdict"] == "fail"
    assert case["first_turn"]["hits"] == case["any_turn"]["hits"] == 0


def test_the_turns_run_out_or_a_plain_answer_ends_the_run(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    always_bash: Script = [("tool", "Bash", {"command": "ls"})]
    with FakeModel(always_bash) as fake:
        report = execute(plan(registry, CASE, settings(fake.url, "openai", runs=1, turns=4), {}))
        assert len(fake.received) == 4  # K exchanges, then no skill
    answer = report.results[0].answers[0]
    assert answer.pick is None and answer.turn == 0 and len(answer.turn_sha256) == 3
    with FakeModel([("text", "Here is the form.")]) as fake:
        execute(plan(registry, CASE, settings(fake.url, "openai", runs=1, turns=4), {}))
        assert len(fake.received) == 1  # no tool called: the agent's turn is over


def test_the_responses_api_round_trip_with_a_function_call_pick(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    with FakeModel([("tool", "Skill", {"skill": "pdf-forms"})]) as fake:
        report = execute(plan(registry, CASE, settings(fake.url, "responses", runs=3), {}))
        ((path, headers, raw), *_) = fake.received
    assert path == "/v1/responses" and "anthropic-version" not in headers
    body = json.loads(raw)
    assert "messages" not in body and body["model"] == "test-model"
    assert [t["name"] for t in body["tools"]] == ["Skill", "Bash", "Read"]
    assert all(t["type"] == "function" and t["strict"] is False for t in body["tools"])
    assert body["tools"][0]["parameters"]["additionalProperties"] is False
    (message,) = body["input"]
    assert message["role"] == "user" and message["content"][-1] == {
        "type": "input_text",
        "text": "fill in the PDF form for me",
    }
    answers = report.results[0].answers
    assert [a.pick for a in answers] == ["pdf-forms"] * 3
    assert answers[0].reported_model == "test-model" and answers[0].output_tokens == 8
    assert report.to_json()["endpoint"]["api"] == "responses"


def test_codex_reads_through_shell_command_over_the_responses_api(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEX_HOME", "/nonexistent/skillstudio-live/codex-home")
    registry, _ = registry_for(tmp_path, "codex")
    pdf = str(tmp_path / ".agents/skills/pdf-forms/SKILL.md")
    script: Script = [
        lambda body: (
            ("tool", "shell_command", {"command": "ls -la", "workdir": str(tmp_path)})
            if turn_of(body) == 1
            else ("tool", "shell_command", {"command": f"sed -n '1,120p' {pdf}"})
        )
    ]
    with FakeModel(script) as fake:
        report = execute(plan(registry, CASE, settings(fake.url, "responses", turns=2), {}))
        first = json.loads(fake.received[0][2])
    # the skills instructions as a developer message; the tool current Codex declares
    assert [item["role"] for item in first["input"]] == ["developer", "user"]
    assert "<skills_instructions>" in first["input"][0]["content"][0]["text"]
    (tool,) = first["tools"]
    assert tool["name"] == "shell_command"
    assert tool["parameters"]["properties"]["command"]["type"] == "string"
    assert [(a.pick, a.turn) for a in report.results[0].answers] == [("pdf-forms", 2)] * 3


def test_a_codex_shell_command_cat_of_a_listed_skill_md_is_a_pick(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEX_HOME", "/nonexistent/skillstudio-live/codex-home")
    registry, _ = registry_for(tmp_path, "codex")
    pdf = str(tmp_path / ".agents/skills/pdf-forms/SKILL.md")
    calls = [
        ({"command": f"cat {pdf}"}, "pdf-forms"),
        ({"command": f"ls {pdf}"}, None),  # a listing, not a read
        ({"command": f"cat {pdf}.bak"}, None),
    ]
    script: Script = [("tool", "shell_command", arguments) for arguments, _ in calls]
    with FakeModel(script) as fake:
        s = settings(fake.url, "openai", runs=len(calls), concurrency=1)
        report = execute(plan(registry, CASE, s, {}))
    assert [a.pick for a in report.results[0].answers] == [want for _, want in calls]


def test_the_estimate_counts_up_to_k_calls_a_run(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    url = "http://127.0.0.1:9/v1"
    once = plan(registry, CASE * 2, settings(url, "anthropic", runs=3), {}, estimate=False)
    thrice = plan(
        registry, CASE * 2, settings(url, "anthropic", runs=3, turns=3), {}, estimate=False
    )
    assert once.calls == 6 and thrice.calls == 18
    assert thrice.tokens()[0] > 3 * once.tokens()[0]  # later turns resend the answers too
    assert thrice.tokens()[1] == 3 * once.tokens()[1]
    assert thrice.to_json()["calls"] == 18
    with pytest.raises(LiveError, match="--turns"):
        plan(registry, CASE, settings(url, "anthropic", turns=9), {})


def test_a_run_of_k_turns_is_cached_under_its_first_request_and_k(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path / "p", "claude-code")
    cache = AnswerCache(str(tmp_path / "cache"))
    with FakeModel(READ_THEN_SKILL) as fake:
        s = settings(fake.url, "anthropic", runs=3, turns=2)
        execute(plan(registry, CASE, s, {}, cache), cache)
        assert len(fake.received) == 6
        replay = execute(plan(registry, CASE, s, {}, cache), cache)
        assert len(fake.received) == 6  # all three runs from the cache
        assert [(a.pick, a.turn, a.cached) for a in replay.results[0].answers] == [
            ("pdf-forms", 2, True)
        ] * 3
        # one turn is another question: not answered by the K=2 runs
        assert plan(registry, CASE, settings(fake.url, "anthropic", runs=3), {}, cache).calls == 3


def test_the_responses_api_goes_with_openai_compatible_endpoints_only() -> None:
    assert endpoint_for("openai", "responses").url == "https://api.openai.com/v1/responses"
    assert endpoint_for("http://127.0.0.1:8/v1", "responses").api == "responses"
    with pytest.raises(EndpointError):
        endpoint_for("anthropic", "responses")


def test_eval_turns_and_the_responses_api_on_the_command_line(
    tmp_path: Path, monkeypatch: Any
) -> None:
    from .test_cli_contract import claude_project

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    project = claude_project(tmp_path)
    base = ["--request", "summarize report.pdf", "--expect", "pdf-summary", "--model", "m"]
    script: Script = [
        lambda body: (
            ("tool", "Bash", {"command": "ls"})
            if turn_of(body) == 1
            else ("tool", "Skill", {"skill": "pdf-summary"})
        )
    ]
    with FakeModel(script) as fake:
        where = ["--endpoint", fake.url, "--api", "responses", "--yes"]
        text = cli("eval", *base, *where, "--turns", "2", cwd=project)
        assert text.code == 0, text.out + text.err
        assert "About to send up to 6 calls (2 turns a run at most)" in text.err
        assert "first turn 0/3, any turn 3/3 met the expectation; picks at turn 2" in text.out
        data = cli("eval", *base, *where, "--turns", "2", "--format", "json", cwd=project)
        report = data.json["reports"][0]
        assert report["turns"] == 2 and report["endpoint"]["api"] == "responses"
        case = report["cases"][0]
        assert case["first_turn"]["hits"] == 0 and case["any_turn"]["hits"] == 3
        once = cli("eval", *base, *where, "--format", "json", cwd=project)
        assert once.code == 1 and once.json["reports"][0]["cases"][0]["verdict"] == "fail"
        bad = cli("eval", *base, *where, "--turns", "9", cwd=project)
        assert bad.code == 2 and "--turns" in bad.err
    assert {path for path, _, _ in fake.received} == {"/v1/responses"}


RESPONSES_HOSTILE: list[Any] = [
    [],
    {"output": 5},
    {"output": [5, None, "x", {"type": "function_call"}]},
    {"output": [{"type": "function_call", "name": 5, "arguments": "{", "call_id": 7}]},
    {"output": [{"type": "function_call", "name": "Skill", "arguments": ["pdf-forms"]}]},
    {"output": [{"type": "message", "content": "not a list"}], "usage": {"input_tokens": -3}},
    {"output": [{"type": "message", "content": [5, {"text": ["a"]}]}], "usage": "lots"},
]


def test_a_hostile_responses_answer_is_one_runs_error_or_no_skill_never_a_crash() -> None:
    from skillstudio.core.live.questions import STYLES, MalformedAnswer, Question
    from skillstudio.core.live.turns import converse

    q = Question(STYLES["skill-tool"], "listing", "q", ("pdf-forms",), ())
    for data in RESPONSES_HOSTILE:
        try:
            answer = converse(q, b'{"model":"m","input":[]}', "responses", _answering(data), 3)
        except MalformedAnswer:
            continue
        assert answer.pick is None and answer.input_tokens >= 0
    good = {"output": [{"type": "function_call", "name": "Skill", "arguments": '{"skill":"x"}'}]}
    answer = converse(q, b"{}", "responses", lambda _: good, 1)
    assert (answer.pick, answer.unlisted, answer.turn) == ("x", True, 1)


def _answering(data: Any) -> Callable[[bytes], Any]:
    """A sender that answers every request with `data`."""

    def ask(_: bytes) -> Any:
        return data

    return ask
