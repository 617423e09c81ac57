"""Tests of core/live/transcript.py (what was sent and what came back, as shown) and
core/live/probe.py (the connection test), against the loopback fake server only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillstudio.core.live.cache import request_digest
from skillstudio.core.live.client import Limits
from skillstudio.core.live.endpoints import endpoint_for
from skillstudio.core.live.planning import plan
from skillstudio.core.live.probe import probe
from skillstudio.core.live.questions import MAX_RAW, Answer, Exchange
from skillstudio.core.live.stats import LiveCase
from skillstudio.core.live.transcript import (
    answer_shown,
    later_turns_shown,
    request_shown,
    visible,
)

from .live_fake import FakeModel
from .test_live import registry_for, settings

FAST = Limits(timeout=5.0, connect_timeout=2.0, retries=0)


def test_the_request_is_shown_as_sent_pretty_with_its_digest(tmp_path: Path) -> None:
    registry, options = registry_for(tmp_path / "p", "claude-code")
    s = settings("http://127.0.0.1:9/v1", "anthropic")
    item = plan(registry, [LiveCase("fill in the PDF form", [])], s, options).items[0]
    shown = request_shown(s.endpoint.url, item.content, item.request_sha256)
    assert shown.size == len(item.content) and shown.sha256 == request_digest(item.content)
    assert shown.title == f"{len(item.content):,} bytes, sha256 {shown.sha256[:12]}…"
    assert json.loads(shown.body) == json.loads(item.content)  # the same body, pretty
    assert shown.body.count("\n") > 10 and "fill in the PDF form" in shown.body


def test_a_prose_answer_shows_why_it_is_no_skill() -> None:
    raw = json.dumps({"content": [{"type": "text", "text": "I would use the pdf-forms skill."}]})
    answer = Answer(text="I would use the pdf-forms skill.", raw=raw, reported_model="m-1")
    text = answer_shown(2, answer)
    assert text.splitlines()[0] == "Run 2: no skill"
    assert "  said: I would use the pdf-forms skill." in text
    assert "  model: m-1" in text and "as received: {" in text


def test_a_tool_call_is_named_with_its_arguments_in_every_api() -> None:
    anthropic = {"content": [{"type": "tool_use", "name": "Skill", "input": {"skill": "x"}}]}
    openai = {
        "choices": [
            {
                "message": {
                    "tool_calls": [{"function": {"name": "Skill", "arguments": '{"skill":"x"}'}}]
                }
            }
        ]
    }
    call = {"type": "function_call", "name": "Skill", "arguments": '{"skill":"x"}'}
    responses = {"output": [call]}
    gemini = {
        "candidates": [
            {"content": {"parts": [{"functionCall": {"name": "Skill", "args": {"skill": "x"}}}]}}
        ]
    }
    for data in (anthropic, openai, responses, gemini):
        text = answer_shown(1, Answer(pick="x", raw=json.dumps(data)))
        assert text.startswith("Run 1: x")
        assert "called: Skill(" in text and '"skill"' in text


def test_what_a_server_wrote_is_escaped_and_bounded() -> None:
    evil = "ok\u202egnp.exe\x1b[31m\u200b"
    answer = Answer(text=evil, raw="x" * (MAX_RAW * 3), error="")
    text = answer_shown(1, answer)
    assert "\u202e" not in text and "\x1b" not in text and "\u200b" not in text
    assert "\\u202e" in text and "\\u001b" in text
    assert len(text) < MAX_RAW + 1000
    assert visible("a\nb\tc") == "a\nb\tc"
    assert visible("abcdef", 4) == "abc…"
    assert answer_shown(3, Answer(error="HTTP 500")) == "Run 3: no answer: HTTP 500"


def test_the_connection_test_reports_the_model_and_the_time() -> None:
    body = {"model": "qwen2.5:7b-served", "choices": [{"message": {"content": "pong"}}]}
    with FakeModel([("raw", json.dumps(body).encode())]) as fake:
        result = probe(endpoint_for(fake.url, "openai"), "qwen2.5:7b", FAST, environ={})
        assert len(fake.received) == 1
        sent = json.loads(fake.received[0][2])
    assert result.ok and result.model == "qwen2.5:7b-served" and result.seconds < 5
    assert sent["max_tokens"] <= 8 and "tools" not in sent and sent["model"] == "qwen2.5:7b"
    assert result.message("qwen2.5:7b").startswith("Connection OK: qwen2.5:7b-served answered in ")


def test_the_connection_test_says_the_plain_error() -> None:
    with FakeModel([("error", 404, "model 'nope' not found")]) as fake:
        result = probe(endpoint_for(fake.url, "anthropic"), "nope", FAST, environ={})
    assert not result.ok
    assert result.message("nope") == "Connection failed: HTTP 404: model 'nope' not found"
    with FakeModel([("raw", b'{"hello": 1}')]) as fake:
        odd = probe(endpoint_for(fake.url, "openai"), "m", FAST, environ={})
    assert not odd.ok and "not in the openai API" in odd.error
    # nothing listening: the error names the address, quickly, with no retries
    with FakeModel([("text", "x")]) as fake:
        url = fake.url
    gone = probe(endpoint_for(url, "openai"), "m", FAST, environ={})
    assert not gone.ok and "cannot reach" in gone.error and gone.seconds < 5


def test_the_connection_test_sends_no_key_to_a_remote_host_without_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import keyring

    monkeypatch.setattr(keyring, "get_password", lambda service, user: None)
    result = probe(endpoint_for("anthropic"), "claude-x", FAST, environ={})
    assert not result.ok and "no key for anthropic" in result.error


def test_the_request_shown_never_holds_the_key(tmp_path: Path) -> None:
    """The key goes in a header of the request sent; the body shown is the bytes sent,
    so it is not there."""
    from skillstudio.core.live.run import execute

    registry, options = registry_for(tmp_path / "p", "claude-code")
    key = "sk-test-0123456789abcdef"
    with FakeModel([("text", "No skill.")]) as fake:
        s = settings(fake.url, "anthropic", runs=1)
        s.endpoint = endpoint_for(fake.url, "anthropic", key_env="PROBE_TEST_KEY")
        checked = plan(registry, [LiveCase("fill in the PDF form", [])], s, options)
        execute(checked, environ={"PROBE_TEST_KEY": key})
        _path, headers, sent = fake.received[0]
    assert headers.get("x-api-key") == key  # sent, in its header
    item = checked.items[0]
    assert sent == item.content
    shown = request_shown(s.endpoint.url, item.content, item.request_sha256)
    assert key not in shown.body and key[:12] not in shown.body


def test_later_turns_are_shown_by_what_they_append_and_cached_ones_by_digest() -> None:
    """A run sent now shows each later turn's size, digest and what it added to the
    turn before; a run from the cache has only its later turns' digests to show."""
    added = json.dumps([{"role": "tool", "tool_call_id": "c1", "content": "(no output)"}])
    sent = Answer(
        pick="pdf-forms",
        turn=2,
        exchanges=[
            Exchange(1, 100, "a" * 64, "", '{"first":1}'),
            Exchange(2, 180, "b" * 64, added, '{"second":2}'),
        ],
    )
    cached = Answer(pick=None, cached=True, turn_sha256=["c" * 64, "d" * 64])
    text = later_turns_shown([sent, cached, Answer(pick="x")])
    assert text.startswith(f"Run 1, turn 2 (180 bytes, sha256 {'b' * 12}…): the request of turn 1")
    assert added in text
    assert f"Run 2: later turns from the cache, sha256 {'c' * 12}…, {'d' * 12}…" in text
    assert "Run 3" not in text  # one turn: nothing later
    assert later_turns_shown([Answer(pick="x")]) == ""
    shown = answer_shown(1, sent)
    assert shown.startswith("Run 1: pdf-forms (at turn 2)")
    assert (
        'turn 1 as received: {"first":1}' in shown and 'turn 2 as received: {"second":2}' in shown
    )
    assert "  as received:" not in shown  # each turn's, not the last one's alone
