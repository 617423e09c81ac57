"""Live checks against hostile input (issue 34, items 1-3): an answer-cache entry that
is a FIFO or a link out, and a key that must not leak (an upper-case `HTTP://`, a name
that only looks local, a server that echoes it, a key with a line break). Every server
listens on 127.0.0.1 (tests/live_fake.py); nothing reaches a network.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from skillstudio.core.live.cache import AnswerCache
from skillstudio.core.live.endpoints import endpoint_for
from skillstudio.core.live.run import LiveError, Settings, key_for, plan
from skillstudio.core.live.stats import LiveCase

from .helpers import cli
from .live_fake import FakeModel, Script
from .test_live import SECRET, check, registry_for, settings


def eval_args(url: str) -> list[str]:
    return ["eval", "--request", "fill in the PDF form", "--endpoint", url, "--model", "m"]


def _cached_entry(tmp_path: Path) -> tuple[Path, Any, AnswerCache]:
    """A project whose one request is in the cache: (its entry, the registry, cache)."""
    registry, _ = registry_for(tmp_path / "p", "claude-code")
    cache = AnswerCache(str(tmp_path / "cache"))
    with FakeModel([("tool", "Skill", {"skill": "pdf-forms"})]) as fake:
        url = fake.url
        check(registry, [LiveCase("q", [])], settings(url, runs=1), cache)
    (entry,) = (tmp_path / "cache").rglob("*.json")
    return entry, (registry, url), cache


def test_a_fifo_at_an_answer_cache_entry_is_a_miss_not_a_wait(tmp_path: Path) -> None:
    entry, (registry, url), cache = _cached_entry(tmp_path)
    entry.unlink()
    os.mkfifo(entry)
    out: list[Any] = []
    s = settings(url, runs=1, offline=True)
    worker = threading.Thread(
        target=lambda: out.append(plan(registry, [LiveCase("q", [])], s, {}, cache)),
        daemon=True,
    )
    try:
        worker.start()
        worker.join(5)
    finally:  # a reader blocked in open() is let go (main's way)
        os.close(os.open(entry, os.O_WRONLY | os.O_NONBLOCK)) if worker.is_alive() else None
    assert out and out[0].calls == 1  # a miss: --offline reports it, never waits


def test_eval_offline_with_a_fifo_in_the_cache_does_not_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry_for(tmp_path, "claude-code")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    with FakeModel([("tool", "Skill", {"skill": "pdf-forms"})]) as fake:
        assert cli(*eval_args(fake.url), "--runs", "1", "--yes", cwd=tmp_path).code == 0
    (entry,) = (tmp_path / "xdg").rglob("*.json")
    entry.unlink()
    os.mkfifo(entry)
    out: list[Any] = []
    args = [*eval_args(fake.url), "--runs", "1", "--offline"]
    worker = threading.Thread(target=lambda: out.append(cli(*args, cwd=tmp_path)), daemon=True)
    try:
        worker.start()
        worker.join(10)
    finally:
        os.close(os.open(entry, os.O_WRONLY | os.O_NONBLOCK)) if worker.is_alive() else None
    assert out, "eval --offline waited on the FIFO"
    assert out[0].code == 1 and "not in the cache (--offline)" in out[0].out


def test_an_answer_cache_entry_outside_the_cache_folder_is_a_miss(tmp_path: Path) -> None:
    entry, (registry, url), cache = _cached_entry(tmp_path)
    folder = entry.parent  # the entry's two-letter folder, swapped for a link out
    outside = tmp_path / "elsewhere"
    shutil.copytree(folder, outside)
    shutil.rmtree(folder)
    folder.symlink_to(outside, target_is_directory=True)
    s = settings(url, runs=1, offline=True)
    assert plan(registry, [LiveCase("q", [])], s, {}, cache).calls == 1
    folder.unlink()
    folder.mkdir()
    (folder / entry.name).symlink_to(outside / entry.name)  # the entry itself a link
    assert plan(registry, [LiveCase("q", [])], s, {}, cache).calls == 1
    (folder / entry.name).unlink()
    shutil.copy(outside / entry.name, folder / entry.name)  # a regular file: a hit
    assert plan(registry, [LiveCase("q", [])], s, {}, cache).calls == 0


# -- 3. keys ------------------------------------------------------------------------------
def test_an_upper_case_http_scheme_is_plain_http() -> None:
    endpoint = endpoint_for("HTTP://example.test/v1", key_env="MY_KEY")
    assert endpoint.base_url == "http://example.test/v1" and endpoint.plain_http
    with pytest.raises(LiveError, match="over plain http"):
        key_for(Settings(endpoint, "m"), {"MY_KEY": SECRET})
    odd = endpoint_for("hTtPs://example.test/v1", key_env="MY_KEY")
    assert key_for(Settings(odd, "m"), {"MY_KEY": SECRET}) == SECRET


def test_local_means_a_host_that_resolves_to_loopback_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = {
        "x.localhost": ["203.0.113.7"],  # a name that looks local, resolved elsewhere
        "mixed.test": ["127.0.0.1", "203.0.113.7"],
        "box.test": ["127.0.0.1", "::1"],
        "localhost": ["127.0.0.1", "::1"],
    }

    def resolve(host: str, *args: Any, **kw: Any) -> list[tuple[Any, ...]]:
        if host not in answers:
            raise socket.gaierror(socket.EAI_NONAME, "no such host")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, 0)) for a in answers[host]]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)

    def sends_key(url: str) -> bool:
        try:
            key_for(Settings(endpoint_for(url, key_env="MY_KEY"), "m"), {"MY_KEY": SECRET})
        except LiveError:
            return False
        return True

    local = ["localhost", "box.test", "127.0.0.1", "127.3.4.5", "[::1]", "[::ffff:127.0.0.1]"]
    remote = ["x.localhost", "mixed.test", "nowhere.test", "10.0.0.1", "[::ffff:10.0.0.1]"]
    assert [sends_key(f"http://{h}:8080/v1") for h in local] == [True] * len(local)
    assert [sends_key(f"http://{h}:8080/v1") for h in remote] == [False] * len(remote)
    assert sends_key("https://x.localhost/v1")  # https may go anywhere


def run_eval(tmp_path: Path, url: str, key: str, *more: str) -> list[str]:
    """stdout and stderr of eval as text and JSON, with MY_KEY = `key`."""
    outputs = []
    for form in ("text", "json"):
        args = [*eval_args(url), "--runs", "1", "--key-env", "MY_KEY", "--yes", *more]
        run = cli(*args, "--format", form, cwd=tmp_path)
        outputs += [run.out, run.err]
    return outputs


def leaks(text: str, key: str) -> list[str]:
    """Forms of `key` (or of its first 12 characters) found in `text`."""
    raw = key.encode()
    forms = [key[:12], quote(key[:12], safe=""), repr(key)[1:13]]
    forms += [base64.b64encode(b"user:" + raw).decode()[8:20], base64.b64encode(raw).decode()[:12]]
    return [f for f in forms if f in text]


def test_a_servers_message_is_redacted_before_it_is_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 401 repeating the key after 280 characters printed its first 20 (cut at 300,
    then redacted); the key's escaped, URL-encoded and base64 forms are redacted too."""
    registry_for(tmp_path, "claude-code")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("MY_KEY", SECRET)
    basic = base64.b64encode(f"user:{SECRET}".encode()).decode()
    messages = [
        "x" * 280 + SECRET,
        f"bad key {SECRET!r} {quote(SECRET, safe='')} Basic {basic}",
    ]
    for message in messages:
        with FakeModel([("error", 401, message)]) as fake:
            outputs = run_eval(tmp_path, fake.url, SECRET, "--api", "anthropic")
        assert "HTTP 401" in outputs[0]
        assert [leaks(o, SECRET) for o in outputs] == [[]] * 4, outputs
        assert "[key]" in outputs[0]


def test_an_answer_that_repeats_the_key_is_redacted_before_the_cache_and_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry_for(tmp_path, "claude-code")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("MY_KEY", SECRET)
    script: Script = [("text", f"Your key is {SECRET}."), ("tool", "Skill", {"skill": SECRET})]
    with FakeModel(script) as fake:
        outputs = run_eval(tmp_path, fake.url, SECRET, "--runs", "2", "--concurrency", "1")
    report = json.loads(outputs[2])["reports"][0]
    texts = [r["text"] for r in report["cases"][0]["runs"]]
    assert "Your key is [key]." in texts and "[key]" in report["cases"][0]["picks"]
    cached = [p.read_text() for p in (tmp_path / "cache").rglob("*.json")]
    assert len(cached) == 2 and "Your key is [key]." in "".join(cached)
    assert [leaks(o, SECRET) for o in outputs + cached] == [[]] * 6


def test_a_key_with_a_line_break_is_refused_before_anything_is_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry_for(tmp_path, "claude-code")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    key = "sk-first-half\nsecond-half-SECRET"
    monkeypatch.setenv("MY_KEY", key)
    with FakeModel([("text", "hi")]) as fake:
        args = [*eval_args(fake.url), "--runs", "1", "--key-env", "MY_KEY", "--yes"]
        run = cli(*args, cwd=tmp_path)
    assert run.code == 2 and fake.received == []
    assert "MY_KEY holds a line break at character 14" in run.err
    assert "first-half" not in run.err + run.out and "second-half" not in run.err + run.out
