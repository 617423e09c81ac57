"""Live model checks (core/live) against a loopback fake server (tests/live_fake.py):
the exact request each profile sends (pinned byte for byte in tests/live/fixtures),
answers read as the agent reads them, retries, timeouts, malformed answers, cancel,
statistics on scripted answers, the cache replayed with the server stopped, and keys
that never reach a log, a report or the cache. Nothing here reaches a network.

Re-record the pinned requests (after a deliberate change, explained in the commit):
    SKILLSTUDIO_RECORD_LIVE=1 python -m pytest tests/test_live.py -k pinned
"""

from __future__ import annotations

import itertools
import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.live.cache import AnswerCache
from skillstudio.core.live.client import Limits, retry_after
from skillstudio.core.live.endpoints import Endpoint, EndpointError, api_key, endpoint_for
from skillstudio.core.live.planning import Settings, plan
from skillstudio.core.live.run import LiveReport, execute
from skillstudio.core.live.stats import LiveCase, Rule, wilson
from skillstudio.core.projects.project import resolve_projects
from skillstudio.core.scanning.registry import Registry

from .helpers import skill_text, write
from .live_fake import FakeModel, Script

FIXTURES = Path(__file__).parent / "live" / "fixtures"
SKILLS = {
    "pdf-forms": "Fill in PDF forms and read their fields.",
    "code-review": "Review a diff for bugs, style and missing tests.",
}
BODY = "# Steps\n\nThe BODY-MARKER instructions, never sent.\n"
# profile -> the folder its skills go in
LAYOUT = {
    "claude-code": ".claude/skills",
    "codex": ".agents/skills",
    "mvp": "skills",
    "pegasus": "skills",
    "agentskills": "skills",
}


def registry_for(base: Path, profile: str) -> tuple[Registry, dict[str, Any]]:
    for name, description in SKILLS.items():
        text = skill_text(name=name, description=description, _body=BODY)
        write(base, f"{LAYOUT[profile]}/{name}/SKILL.md", text)
    project = resolve_projects([], [LAYOUT[profile]], None, profile, str(base))[0]
    registry = project.registry()
    registry.scan()
    assert sorted(registry.active) == sorted(SKILLS)
    return registry, project.options


def settings(url: str, api: str = "openai", **kw: Any) -> Settings:
    fast = Limits(timeout=5.0, retries=2, backoff=0.01, max_backoff=0.05)
    return Settings(endpoint_for(url, api), "test-model", **{"limits": fast, **kw})


def check(
    registry: Registry,
    cases: list[LiveCase],
    s: Settings,
    cache: AnswerCache | None = None,
    **kw: Any,
) -> LiveReport:
    return execute(plan(registry, cases, s, {}, cache), cache, **kw)


# -- the request each profile sends, pinned -------------------------------------------
PINNED = [
    ("claude-code", "anthropic"),
    ("claude-code", "openai"),
    ("codex", "openai"),
    ("codex", "anthropic"),
    ("mvp", "anthropic"),
    ("pegasus", "openai"),
    ("agentskills", "openai"),
]


@pytest.mark.parametrize(("profile", "api"), PINNED)
def test_each_profile_sends_its_pinned_request(
    tmp_path: Path, profile: str, api: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # codex lists its system skills at $CODEX_HOME/skills/.system: one path, whatever
    # another test module (the goldens') set it to
    monkeypatch.setenv("CODEX_HOME", "/nonexistent/skillstudio-live/codex-home")
    registry, _ = registry_for(tmp_path, profile)
    with FakeModel([("text", "Sure.")]) as fake:
        report = check(
            registry,
            [LiveCase("fill in the PDF form for me", ["pdf-forms"])],
            settings(fake.url, api, runs=1),
        )
    assert report.results[0].answers[0].pick is None  # plain text: no skill
    ((path, headers, sent),) = fake.received
    assert path == ("/v1/messages" if api == "anthropic" else "/v1/chat/completions")
    assert headers["content-type"] == "application/json"
    assert ("anthropic-version" in headers) == (api == "anthropic")
    sent = sent.replace(str(tmp_path).encode(), b"$ROOT")
    fixture = FIXTURES / f"{profile}-{api}.json"
    if os.environ.get("SKILLSTUDIO_RECORD_LIVE"):
        fixture.write_bytes(sent + b"\n")
    assert sent == fixture.read_bytes().rstrip(b"\n")
    data = json.loads(sent)
    text = json.dumps(data)
    assert "BODY-MARKER" not in text  # no skill body is ever sent
    assert "fill in the PDF form for me" in text


def test_the_listing_is_the_profiles_own_tier_2_in_the_agents_place(tmp_path: Path) -> None:
    from skillstudio.core.delivery.tiers import render_listing

    registry, _ = registry_for(tmp_path / "cc", "claude-code")
    codex, _ = registry_for(tmp_path / "cx", "codex")
    with FakeModel([("text", "ok")]) as fake:
        check(registry, [LiveCase("q", [])], settings(fake.url, "anthropic", runs=1))
        check(codex, [LiveCase("q", [])], settings(fake.url, "openai", runs=1))
        openai = Endpoint("x", fake.url, "openai", developer_role="developer")
        check(codex, [LiveCase("q", [])], Settings(openai, "m", runs=1))
    claude = json.loads(fake.received[0][2])
    assert claude["messages"][0]["content"][0]["text"] == render_listing(registry).text
    # Claude Code's other tools beside its Skill tool (core/live/agent_tools.py)
    assert [t["name"] for t in claude["tools"]] == ["Skill", "Bash", "Read"]
    dev = json.loads(fake.received[1][2])
    assert dev["messages"][0] == {"role": "system", "content": render_listing(codex).text}
    assert dev["messages"][0]["content"].startswith("<skills_instructions>")
    assert json.loads(fake.received[2][2])["messages"][0]["role"] == "developer"


# -- answers read as the agent reads them ----------------------------------------------
def test_answers_are_read_as_the_agent_reads_them(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path / "cc", "claude-code")
    codex, _ = registry_for(tmp_path / "cx", "codex")
    pdf = str(tmp_path / "cx/.agents/skills/pdf-forms/SKILL.md")
    skills = str(tmp_path / "cx/.agents/skills")
    script: Script = [
        ("tool", "Skill", {"skill": "pdf-forms"}),
        ("tool", "Skill", {"skill": "/code-review", "args": "x"}),
        ("tool", "Skill", {"skill": "no-such-skill"}),
        ("tool", "Bash", {"command": "ls"}),
        ("text", "I would use pdf-forms."),
    ]
    with FakeModel(script) as fake:
        report = check(
            registry, [LiveCase("q", [])], settings(fake.url, "anthropic", runs=5, concurrency=1)
        )
    answers = report.results[0].answers
    assert [a.pick for a in answers] == ["pdf-forms", "code-review", "no-such-skill", None, None]
    assert [a.unlisted for a in answers] == [False, False, True, False, False]
    reads: Script = [
        ("tool", "shell", {"command": ["cat", pdf]}),
        # relative to its own workdir (the path alone is no read: tests/test_live_harness.py)
        (
            "tool",
            "shell",
            {"command": ["sed", "-n", "1,80p", "code-review/SKILL.md"], "workdir": skills},
        ),
        ("tool", "shell", {"command": ["ls", "-la"]}),
        ("text", "Here is how to fill in the form."),
    ]
    with FakeModel(reads) as fake:
        report = check(codex, [LiveCase("q", [])], settings(fake.url, runs=4, concurrency=1))
    assert [a.pick for a in report.results[0].answers] == ["pdf-forms", "code-review", None, None]


HOSTILE: list[Any] = [
    [],
    "text",
    {"choices": 5},
    {"choices": [{"message": {"tool_calls": 5}}]},
    {"choices": [{"message": {"tool_calls": "abc", "content": 7}}]},
    {"choices": [{"message": {"tool_calls": [5, {"function": 3}, {"function": {"name": 1}}]}}]},
    {"choices": [{"message": {"tool_calls": [{"function": {"name": "Skill", "arguments": "{"}}]}}]},
    {"choices": [{"message": {"tool_calls": [{"function": {"arguments": [1, {"a": None}]}}]}}]},
    {"choices": [{"message": None}], "usage": {"prompt_tokens": -4}},
    {"content": "x"},
    {"content": [5, None, {"type": "tool_use", "name": "Skill", "input": ["pdf-forms"]}]},
    {"content": [{"type": "tool_use", "name": "Skill", "input": {"skill": 5, "name": ""}}]},
    {"content": [{"type": "tool_use", "name": "Skill", "input": {"skill": "\u202e" * 500}}]},
    {"content": [{"type": "text", "text": ["a"]}], "usage": "lots"},
]


@pytest.mark.parametrize("style", ["skill-tool", "skills-instructions", "activate-skill"])
def test_a_hostile_answer_is_one_runs_error_or_no_skill_never_a_crash(style: str) -> None:
    from skillstudio.core.live.questions import STYLES, MalformedAnswer, Question, read_answer

    q = Question(
        STYLES[style], "listing", "q", ("pdf-forms",), (("/r/pdf-forms/SKILL.md", "pdf-forms"),)
    )
    for data in HOSTILE:
        for api in ("anthropic", "openai"):
            try:
                answer = read_answer(q, data, api)
            except MalformedAnswer:
                continue
            assert answer.pick is None or len(answer.pick) <= 200
            assert answer.input_tokens >= 0 and len(answer.text) <= 300


def test_a_rate_limit_is_retried_after_the_time_the_server_asks(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    script: Script = [
        ("status", 429, {"Retry-After": "0"}),
        ("status", 503),
        ("tool", "Skill", {"skill": "pdf-forms"}),
    ]
    notes: list[str] = []
    with FakeModel(script) as fake:
        report = check(
            registry,
            [LiveCase("q", ["pdf-forms"])],
            settings(fake.url, "anthropic", runs=1),
            progress=lambda done, total, message: notes.append(message),
        )
    assert report.results[0].answers[0].pick == "pdf-forms"
    assert len(fake.received) == 3
    assert any("HTTP 429" in n and "retrying" in n for n in notes)
    assert retry_after("7") == 7.0 and retry_after("-3") == 0.0 and retry_after("soon") is None
    assert retry_after("99999") == 120.0  # bounded
    assert retry_after("Thu, 26 Nov 2026 10:00:30 GMT", now=1795687200.0) == 30.0


def test_errors_are_runs_without_an_answer_never_no_skill(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    script: Script = [
        ("raw", b"{not json"),
        ("raw", b'{"id": 1}'),
        ("status", 400),
        ("status", 500),
    ]
    with FakeModel(script) as fake:
        s = settings(fake.url, runs=4, concurrency=1)
        s.limits.retries = 0
        report = check(registry, [LiveCase("q", [])], s)
    errors = [a.error for a in report.results[0].answers]
    assert errors == [
        "the answer is not JSON",
        "no 'choices' in the answer",
        "HTTP 400: status 400",
        "HTTP 500: status 500",
    ]
    assert report.results[0].passed(Rule()) is None and report.counts() == (0, 0, 1)


def test_a_server_that_does_not_answer_in_time_is_a_timeout(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    with FakeModel([("sleep", 1.5)]) as fake:
        s = settings(fake.url, runs=1)
        s.limits = Limits(timeout=0.2, retries=1, backoff=0.01)
        report = check(registry, [LiveCase("q", ["pdf-forms"])], s)
    assert report.results[0].answers[0].error == "no answer within 0.2 s"
    assert len(fake.received) == 1  # not retried: the server may have answered and charged


def test_an_answer_too_large_or_too_slow_is_refused(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    huge = b'{"choices": "' + b"x" * (5 * 2**20) + b'"}'
    with FakeModel([("raw", huge), ("drip", 0.05)]) as fake:
        s = settings(fake.url, runs=2, concurrency=1)
        s.limits = Limits(timeout=0.5, retries=0)
        report = check(registry, [LiveCase("q", [])], s)
    errors = [a.error for a in report.results[0].answers]
    assert errors == ["the answer is over 4,194,304 bytes", "no answer within 0.5 s"]


def test_requests_are_paced_to_the_rate_limit(tmp_path: Path) -> None:
    from skillstudio.core.live.client import Pacer

    pacer = Pacer(per_minute=600)  # one start every 0.1 s
    starts = []
    for _ in range(4):
        pacer.wait(None)
        starts.append(pacer.next)
    gaps = [round(b - a, 3) for a, b in itertools.pairwise(starts)]
    assert gaps == [0.1, 0.1, 0.1]
    assert Pacer(0).interval == 0.0


def test_a_key_is_never_sent_over_plain_http_to_another_host(tmp_path: Path) -> None:
    from skillstudio.core.live.planning import LiveError

    registry, _ = registry_for(tmp_path, "claude-code")
    remote = Endpoint("x", "http://example.test/v1", "openai", key_env="MY_KEY")
    checked = plan(registry, [LiveCase("q", [])], Settings(remote, "m", runs=1), {})
    with pytest.raises(LiveError, match="over plain http"):
        execute(checked, environ={"MY_KEY": SECRET})


def test_cancel_stops_the_runs_and_the_waits(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    cancel = threading.Event()

    def stop_after_first(done: int, total: int, message: str) -> None:
        if done >= 1:
            cancel.set()

    with FakeModel([("tool", "Skill", {"skill": "pdf-forms"})]) as fake:
        report = check(
            registry,
            [LiveCase("q", ["pdf-forms"])],
            settings(fake.url, runs=5, concurrency=1),
            cancel=cancel,
            progress=stop_after_first,
        )
    assert [a.error for a in report.results[0].answers] == ["", *["cancelled"] * 4]
    assert report.cancelled and len(fake.received) == 1
    # a cancel during a long Retry-After wait ends the wait
    cancel = threading.Event()
    out: list[LiveReport] = []
    with FakeModel([("status", 429, {"Retry-After": "100"})]) as fake:
        s = settings(fake.url, runs=1)
        s.limits = Limits(timeout=200.0)  # the wait fits in the request's timeout
        worker = threading.Thread(
            target=lambda: out.append(check(registry, [LiveCase("q", [])], s, cancel=cancel))
        )
        worker.start()
        while not fake.received:
            threading.Event().wait(0.01)
        cancel.set()
        worker.join(30)
    assert not worker.is_alive() and out[0].results[0].answers[0].error == "cancelled"


# -- statistics on scripted answers ------------------------------------------------------
def test_statistics_on_scripted_answers(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    picks: dict[str, list[str | None]] = {
        # request -> the picks of its 4 runs, in order
        "fill in the PDF form": ["pdf-forms", "pdf-forms", "pdf-forms", None],
        "review my diff for bugs": ["code-review", "pdf-forms", "code-review", "code-review"],
        "what is the weather": [None, None, "code-review", None],
    }
    seen: dict[str, int] = {}
    lock = threading.Lock()

    def answer(body: dict[str, Any]) -> tuple[Any, ...]:
        query = body["messages"][-1]["content"][-1]["text"]
        with lock:
            n = seen[query] = seen.get(query, -1) + 1
        pick = picks[query][n]
        return ("tool", "Skill", {"skill": pick}) if pick else ("text", "no skill needed")

    cases = [
        LiveCase("fill in the PDF form", ["pdf-forms"]),
        LiveCase("review my diff for bugs", ["code-review"]),
        LiveCase("what is the weather", []),
    ]
    with FakeModel([answer]) as fake:
        report = check(registry, cases, settings(fake.url, "anthropic", runs=4, concurrency=1))
    data = report.to_json()
    # by hand: pdf-forms TP 3 (case 1), FP 1 (case 2), FN 1 (case 1's miss);
    # code-review TP 3, FP 1 (case 3), FN 1 (case 2's pdf-forms pick)
    pdf, review = data["per_skill"]["pdf-forms"], data["per_skill"]["code-review"]
    assert (pdf["tp"], pdf["fp"], pdf["fn"]) == (3, 1, 1)
    assert (review["tp"], review["fp"], review["fn"]) == (3, 1, 1)
    assert pdf["precision"] == 0.75 and pdf["recall"] == 0.75 and pdf["f1"] == 0.75
    # Wilson 95 % for 3 of 4: p = .75, z² = 3.8415: centre (p + z²/2n)/(1 + z²/n) =
    # 1.2302/1.9604 = 0.6275, half-width z·sqrt(p(1-p)/n + z²/4n²)/(1 + z²/n) =
    # 1.96 × 0.3270/1.9604 = 0.3269
    assert data["cases"][0]["interval"] == [0.3006, 0.9544]
    # pooled over requests: pdf-forms's recall runs are all of one request (3 of 4), so
    # they count as one run (design effect 4): Wilson of 0.75 of 1
    assert pdf["recall_interval"] == [0.1179, 0.9854]
    assert pdf["design_effect"] == {"precision": 2.5, "recall": 4.0}
    assert [c["hits"] for c in data["cases"]] == [3, 3, 3]
    # 3 of 4 at the bar 0.5: one-sided 95 % bounds 36-94 %, the bar inside: inconclusive
    assert [c["verdict"] for c in data["cases"]] == ["inconclusive"] * 3
    assert [c["passed"] for c in data["cases"]] == [None] * 3
    assert data["cases"][0]["bounds"] == [0.3562, 0.9421]
    assert data["confusion"] == {
        "pdf-forms": {"pdf-forms": 3, "none": 1},
        "code-review": {"code-review": 3, "pdf-forms": 1},
        "none": {"none": 3, "code-review": 1},
    }
    tops = [c["estimate"]["top"] for c in data["cases"]]
    assert tops == ["pdf-forms", "code-review", None]  # the offline estimate's likely first
    assert data["agreement"]["top1"]["agree"] == 9 and data["agreement"]["top1"]["runs"] == 12
    assert data["agreement"]["bands"]["likely"]["picked"] == 6
    assert data["agreement"]["bands"]["none"]["picked"] == 4
    assert report.counts() == (0, 0, 3)
    low = Settings(report.plan.settings.endpoint, "test-model", runs=4, pass_rate=0.3)
    report.plan.settings = low  # the lower bound 36 % reaches 0.3
    assert report.counts() == (3, 0, 0)
    high = Settings(report.plan.settings.endpoint, "test-model", runs=4, pass_rate=0.95)
    report.plan.settings = high  # the upper bound 94 % is below 0.95
    assert report.counts() == (0, 3, 0)


def test_wilson_intervals_by_hand() -> None:
    assert wilson(0, 0) is None
    low, high = wilson(1, 2) or (0, 0)
    assert round(low, 4) == 0.0945 and round(high, 4) == 0.9055
    low, high = wilson(3, 3) or (0, 0)
    assert round(low, 4) == 0.4385 and high == 1.0
    low, high = wilson(0, 10) or (0, 0)
    assert low == 0.0 and round(high, 4) == 0.2775


# -- the cache replays with the server stopped -------------------------------------------
def test_the_cache_replays_a_checked_suite_with_the_server_stopped(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path / "p", "claude-code")
    cache = AnswerCache(str(tmp_path / "cache"))
    cases = [LiveCase("fill in the PDF form", ["pdf-forms"]), LiveCase("hello", [])]
    script: Script = [("tool", "Skill", {"skill": "pdf-forms"}), ("text", "hi")]
    with FakeModel(script) as fake:
        url = fake.url
        first = check(registry, cases, settings(url, runs=2, concurrency=1), cache)
        assert len(fake.received) == 4
    picks = [[a.pick for a in r.answers] for r in first.results]
    for offline in (True, False):  # the server is gone: every run comes from the cache
        s = settings(url, runs=2, offline=offline)
        checked = plan(registry, cases, s, {}, cache)
        assert checked.calls == 0 and checked.to_json()["cached"] == 4
        again = execute(checked, cache)
        assert [[a.pick for a in r.answers] for r in again.results] == picks
        assert all(a.cached for r in again.results for a in r.answers)
        assert again.date == first.date
    # a miss offline is reported, never fetched; another model or temperature is a miss
    miss = check(registry, [LiveCase("new request", [])], settings(url, offline=True), cache)
    assert miss.results[0].answers[0].error.startswith("not in the cache (--offline)")
    other = plan(registry, cases, settings(url, runs=2, temperature=0.0), {}, cache)
    assert other.calls == 4
    # the listing is part of the key: a changed description is asked again
    write(
        tmp_path / "p",
        ".claude/skills/pdf-forms/SKILL.md",
        skill_text(name="pdf-forms", description="Something else entirely."),
    )
    registry.scan()
    assert plan(registry, cases, settings(url, runs=2), {}, cache).calls == 4


def test_a_cache_file_that_is_not_ours_is_a_miss(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path / "p", "claude-code")
    cache = AnswerCache(str(tmp_path / "cache"))
    with FakeModel([("tool", "Skill", {"skill": "pdf-forms"})]) as fake:
        check(registry, [LiveCase("q", [])], settings(fake.url, runs=1), cache)
        files = list((tmp_path / "cache").rglob("*.json"))
        assert len(files) == 1 and oct(files[0].stat().st_mode & 0o777) == "0o600"
        files[0].write_text("[1, 2")
        assert plan(registry, [LiveCase("q", [])], settings(fake.url, runs=1), {}, cache).calls == 1
        files[0].write_text(json.dumps({"key": "another", "answer": {"pick": "x"}}))
        assert plan(registry, [LiveCase("q", [])], settings(fake.url, runs=1), {}, cache).calls == 1


# -- keys ---------------------------------------------------------------------------------
SECRET = "sk-test-SECRET-0123456789"


def test_keys_come_from_the_environment_or_the_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    import keyring

    anthropic = endpoint_for("anthropic")
    assert api_key(anthropic, {"ANTHROPIC_API_KEY": SECRET}) == SECRET
    monkeypatch.setattr(keyring, "get_password", lambda service, user: f"{service}/{user}")
    assert api_key(anthropic, {}) == "skillstudio/anthropic"
    assert api_key(anthropic, {"SKILLSTUDIO_NO_KEYRING": "1"}) is None
    assert api_key(endpoint_for("ollama"), {}) is None  # a local server needs none

    def broken(service: str, user: str) -> str:
        raise RuntimeError("no backend")

    monkeypatch.setattr(keyring, "get_password", broken)
    assert api_key(anthropic, {}) is None
    assert endpoint_for("https://example.test/v1", key_env="MY_KEY").key_env == "MY_KEY"
    assert endpoint_for("https://api.anthropic.com/v1").api == "anthropic"
    assert endpoint_for("http://localhost:8080/v1").key_env == ""
    for bad in ("ftp://x", "nowhere", "https://user:pw@example.test/v1"):
        with pytest.raises(EndpointError):
            endpoint_for(bad)


def test_keys_never_reach_logs_reports_or_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from .helpers import cli

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("MY_KEY", SECRET)
    registry_for(tmp_path, "claude-code")
    write(
        tmp_path,
        "suite.yaml",
        'cases:\n  - query: "fill in the PDF form"\n'
        '    expect_model: pdf-forms\n  - query: "hello"\n    expect_model: none\n',
    )

    def echo(body: dict[str, Any]) -> tuple[Any, ...]:  # a server that echoes what it got
        return (
            ("status", 401, {"X-Echo": SECRET})
            if "hello" in json.dumps(body)
            else ("tool", "Skill", {"skill": "pdf-forms", "args": SECRET})
        )

    outputs = []
    with FakeModel([echo]) as fake:
        for form in ("text", "json", "junit"):
            run = cli(
                "eval",
                "suite.yaml",
                "--model",
                "m",
                "--endpoint",
                fake.url,
                "--api",
                "anthropic",
                "--key-env",
                "MY_KEY",
                "--yes",
                "--runs",
                "1",
                "--format",
                form,
                cwd=tmp_path,
            )
            assert run.code == 3, run.out + run.err  # the 401 leaves a case inconclusive
            outputs += [run.out, run.err]
    assert all(h.get("x-api-key") == SECRET for _, h, _ in fake.received)  # it was used
    assert "HTTP 401" in outputs[0]
    assert not [o for o in outputs if SECRET in o]
    cached = list((tmp_path / "cache").rglob("*"))
    assert cached and not [p for p in cached if p.is_file() and SECRET.encode() in p.read_bytes()]


def test_an_endpoint_where_nothing_answers_stops_the_run_at_once(tmp_path: Path) -> None:
    """A server that is not running (connection refused) does not start during a
    back-off: one quick retry, then the other runs are not sent, each saying why."""
    import httpx

    registry, _ = registry_for(tmp_path, "claude-code")
    attempts: list[str] = []

    def refuse(request: httpx.Request) -> httpx.Response:
        attempts.append(str(request.url))
        raise httpx.ConnectError("[Errno 111] Connection refused", request=request)

    s = settings("http://127.0.0.1:9/v1", runs=3, concurrency=1)
    s.limits = Limits(timeout=5.0, retries=4, backoff=0.01, max_backoff=0.05)
    cases = [LiveCase("fill a pdf form", ["pdf-forms"]), LiveCase("q", [])]
    report = check(registry, cases, s, transport=httpx.MockTransport(refuse))
    errors = [a.error or "" for r in report.results for a in r.answers]
    assert errors[0] == (
        "cannot reach http://127.0.0.1:9/v1: [Errno 111] Connection refused"
        " (is the server running?)"
    )
    assert errors[1:] == [f"not sent: {errors[0]}"] * 5
    assert len(attempts) == 2  # the first run and its one retry; before: 5 a run, 30 in all
    assert report.counts() == (0, 0, 2)
