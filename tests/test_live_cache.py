"""The answer cache cannot mislead (issue 37): it is keyed by the sha256 of the exact
request bytes, the API and the template version, so switching the API at one URL,
changing the tool schema or max tokens asks again; an entry of the older key scheme is
a miss; each answer records the digest, the model id the server reported and the
version that asked; JSON reports name each request by the sha256 of the bytes the
server received; `eval --show-request` prints what would be sent and sends nothing.
Against the loopback fake server only (tests/live_fake.py)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from skillstudio import __version__
from skillstudio.core.live import questions
from skillstudio.core.live.cache import SCHEME, AnswerCache
from skillstudio.core.live.planning import plan
from skillstudio.core.live.stats import LiveCase

from .helpers import cli, write
from .live_fake import FakeModel, Script, anthropic_answer, openai_answer
from .test_live import check, registry_for, settings

PICK = ("tool", "Skill", {"skill": "pdf-forms"})
CASES = [LiveCase("fill in the PDF form", ["pdf-forms"])]
SECRET = "sk-test-SECRET-0123456789"


def _with_model(step: tuple[Any, ...], api: str, model: str) -> tuple[Any, ...]:
    """A 200 whose answer names the model that answered (as real servers do)."""
    data = anthropic_answer(step) if api == "anthropic" else openai_answer(step)
    return ("raw", json.dumps(dict(data, model=model)).encode())


def test_switching_the_api_at_one_url_asks_again(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path / "p", "claude-code")
    cache = AnswerCache(str(tmp_path / "cache"))
    with FakeModel([PICK]) as fake:
        first = check(registry, CASES, settings(fake.url, "openai", runs=2), cache)
        assert [p for p, _, _ in fake.received] == ["/v1/chat/completions"] * 2
        assert plan(registry, CASES, settings(fake.url, "openai", runs=2), {}, cache).calls == 0
        # the same URL, model, listing, request, runs and temperature; another API
        other = plan(registry, CASES, settings(fake.url, "anthropic", runs=2), {}, cache)
        assert other.calls == 2 and not other.cached
        second = check(registry, CASES, settings(fake.url, "anthropic", runs=2), cache)
        assert [p for p, _, _ in fake.received[2:]] == ["/v1/messages"] * 2
    assert not any(a.cached for a in second.results[0].answers)
    sent = [hashlib.sha256(raw).hexdigest() for _, _, raw in fake.received]
    assert [a.request_sha256 for a in first.results[0].answers] == sent[:2]
    assert [a.request_sha256 for a in second.results[0].answers] == sent[2:]
    assert sent[0] != sent[2]


@pytest.mark.parametrize("change", ["max_tokens", "tool schema"])
def test_changing_max_tokens_or_the_tool_schema_asks_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    registry, _ = registry_for(tmp_path / "p", "claude-code")
    cache = AnswerCache(str(tmp_path / "cache"))
    with FakeModel([PICK]) as fake:
        s = settings(fake.url, "anthropic", runs=1)
        check(registry, CASES, s, cache)
        assert plan(registry, CASES, s, {}, cache).calls == 0
        if change == "max_tokens":
            monkeypatch.setattr(questions, "MAX_TOKENS", 2048)
        else:
            style = questions.STYLES["skill-tool"]
            schema = dict(style.parameters, additionalProperties=True)
            monkeypatch.setitem(
                questions.STYLES, "skill-tool", dataclasses.replace(style, parameters=schema)
            )
        again = plan(registry, CASES, s, {}, cache)
        assert again.calls == 1
        execute_report = check(registry, CASES, s, cache)
        assert len(fake.received) == 2
    sent = json.loads(fake.received[1][2])
    if change == "max_tokens":
        assert sent["max_tokens"] == 2048
    else:
        assert sent["tools"][0]["input_schema"]["additionalProperties"] is True
    assert execute_report.results[0].answers[0].pick == "pdf-forms"


def test_an_entry_of_the_older_key_scheme_is_a_miss(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path / "p", "claude-code")
    folder = tmp_path / "cache"
    cache = AnswerCache(str(folder))
    s = settings("http://127.0.0.1:9/v1", "anthropic", runs=1)
    # the old scheme: keyed by URL, model, listing hash, request, run, temperature
    # (not the API): an entry written by an older version under an OpenAI URL's answers
    old = ["http://127.0.0.1:9/v1", "test-model", "0" * 64, CASES[0].query, 0, 1.0]
    old_key = hashlib.sha256(json.dumps(old).encode()).hexdigest()
    payload = {"key": old_key, "answer": {"pick": "pdf-forms"}}
    write(folder, f"{old_key[:2]}/{old_key}.json", json.dumps(payload))
    assert plan(registry, CASES, s, {}, cache).calls == 1
    # the new key's own file without the scheme (as an older writer left it) is a miss too
    checked = plan(registry, CASES, s, {}, cache)
    key = checked.items[0].keys[0]
    entry = folder / key[:2] / f"{key}.json"
    write(folder, f"{key[:2]}/{key}.json", json.dumps({"key": key, "answer": {"pick": "x"}}))
    assert plan(registry, CASES, s, {}, cache).calls == 1
    entry.write_text(json.dumps({"key": key, "scheme": SCHEME, "answer": {"pick": "x"}}))
    assert plan(registry, CASES, s, {}, cache).calls == 0  # the scheme's own: a hit


def test_the_json_report_names_each_request_by_the_sha256_of_the_bytes_received(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("SKILLSTUDIO_NO_KEYRING", "1")
    registry_for(tmp_path, "claude-code")
    write(
        tmp_path,
        "suite.yaml",
        'cases:\n  - query: "fill in the PDF form"\n    expect_model: pdf-forms\n'
        '  - query: "review my diff"\n    expect_model: code-review\n',
    )

    def answer(body: dict[str, Any]) -> tuple[Any, ...]:
        query = body["messages"][-1]["content"][-1]["text"]  # after the listing's block
        skill = "pdf-forms" if "PDF" in query else "code-review"
        text = ("text", "I would use the code-review skill.")
        step = ("tool", "Skill", {"skill": skill}) if skill == "pdf-forms" else text
        return _with_model(step, "anthropic", "claude-fake-20261201")

    script: Script = [answer]
    args = ["eval", "suite.yaml", "--model", "m", "--api", "anthropic", "--runs", "2"]
    with FakeModel(script) as fake:
        run = cli(*args, "--endpoint", fake.url, "--yes", "--format", "json", cwd=tmp_path)
        # the verdicts are the statistics' (tests/test_live_stats.py): 2 runs give none
        assert run.code in (1, 3) and run.json["reports"], run.out + run.err
    # the digest of what the server received, per request
    received: dict[str, set[str]] = {}
    for _, _, raw in fake.received:
        query = json.loads(raw)["messages"][-1]["content"][-1]["text"]
        received.setdefault(query, set()).add(hashlib.sha256(raw).hexdigest())
    assert {q: len(d) for q, d in received.items()} == {
        "fill in the PDF form": 1,
        "review my diff": 1,
    }
    cases = run.json["reports"][0]["cases"]
    for case in cases:
        (digest,) = received[case["query"]]
        assert case["request_sha256"] == digest
        assert [r["request_sha256"] for r in case["runs"]] == [digest, digest]
        for r in case["runs"]:
            assert r["reported_model"] == "claude-fake-20261201"
            assert r["skillstudio_version"] == __version__
            assert json.loads(r["raw"])["model"] == "claude-fake-20261201"  # as received
    prose = next(c for c in cases if c["query"] == "review my diff")
    assert "I would use the code-review skill." in prose["runs"][0]["raw"]
    # the cache entries record the digest, the model reported and the version
    entries = [json.loads(p.read_text()) for p in (tmp_path / "cache").rglob("*.json")]
    assert len(entries) == 4
    for entry in entries:
        assert entry["scheme"] == SCHEME and entry["skillstudio_version"] == __version__
        assert entry["api"] == "anthropic" and entry["answer"]["request_sha256"] in {
            d for digests in received.values() for d in digests
        }
        assert entry["request_sha256"] == entry["answer"]["request_sha256"]
        assert entry["answer"]["reported_model"] == "claude-fake-20261201"
    # replayed offline: the same names, the raw answer and the model reported kept
    again = cli(*args, "--endpoint", fake.url, "--offline", "--format", "json", cwd=tmp_path)
    replayed = again.json["reports"][0]["cases"]
    assert [c["request_sha256"] for c in replayed] == [c["request_sha256"] for c in cases]
    assert [r["raw"] for c in replayed for r in c["runs"]] == [
        r["raw"] for c in cases for r in c["runs"]
    ]
    assert again.json["reports"][0]["cached_runs"] == 4


@pytest.mark.parametrize("form", ["text", "json"])
def test_show_request_sends_nothing_and_shows_no_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("MY_KEY", SECRET)
    registry_for(tmp_path, "claude-code")
    args = ["eval", ".", "--request", "fill in the PDF form", "--model", "m"]
    args += ["--api", "anthropic", "--key-env", "MY_KEY", "--runs", "2"]
    with FakeModel([PICK]) as fake:
        # no --yes and no terminal: it still shows (nothing is sent, nothing to confirm)
        shown = cli(*args, "--endpoint", fake.url, "--show-request", "--format", form, cwd=tmp_path)
        assert shown.code == 0, shown.out + shown.err
        assert fake.received == []
        sent = cli(*args, "--endpoint", fake.url, "--yes", cwd=tmp_path)
        assert sent.code == 0, sent.out + sent.err
    assert SECRET not in shown.out + shown.err
    assert all(h.get("x-api-key") == SECRET for _, h, _ in fake.received)  # it was sent then
    raw = fake.received[0][2]
    digest = hashlib.sha256(raw).hexdigest()
    if form == "json":
        (request,) = shown.json["requests"]
        assert request["request_sha256"] == digest and request["bytes"] == len(raw)
        assert request["body"] == json.loads(raw)
        assert request["url"] == f"{fake.url}/messages"
        assert "x-api-key" not in request["headers"]
        assert request["headers"]["anthropic-version"] == fake.received[0][1]["anthropic-version"]
        assert (request["runs"], request["cached_runs"]) == (2, 0)
    else:
        assert f"POST {fake.url}/messages" in shown.out
        assert f"request_sha256: {digest}" in shown.out
        assert raw.decode() in shown.out.splitlines()  # the exact body, on its line
        assert "x-api-key: the key, when one is used; never shown" in shown.out
        assert "nothing was sent" in shown.out
    # once answered, the cache is said to hold its runs
    again = cli(*args, "--endpoint", fake.url, "--show-request", "--format", "json", cwd=tmp_path)
    assert again.json["requests"][0]["cached_runs"] == 2
