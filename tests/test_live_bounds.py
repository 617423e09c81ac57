"""Live checks against hostile endpoints, round 2 (issue 34's red team): JSON that grows
inside the 4 MB bound (1.4 million empty lists), a `--timeout` that bounds the whole
request (a long `Retry-After`, back-offs, headers without end, `101 Switching
Protocols`, a listener that never accepts). Every server listens on 127.0.0.1
(tests/live_fake.py); nothing reaches a network.
"""

from __future__ import annotations

import functools
import gzip
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.live.answer_json import AnswerRefused, parse_answer
from skillstudio.core.live.client import Limits
from skillstudio.core.live.stats import LiveCase

from .helpers import REPO, cli
from .live_fake import FakeModel, openai_answer
from .test_live import check, registry_for, settings
from .test_live_hostile import errors, eval_args

# 4,194,301 bytes of `[[],[],...,[]]`: 1,398,101 lists, 4,104 bytes once packed. Within
# the 4 MB bound; main built it whole (150 MB a run, the interpreter held for ~0.5 s).
LISTS = b"[" + b"[]," * 1_398_100 + b"[]]"
PACKED_LISTS = gzip.compress(LISTS, 9)
PEAK_PROBE = (  # VmHWM: the peak of the process's own memory (test_live_hostile.py's way)
    "import resource, sys\n"
    "from skillstudio.cli.main import main\n"
    "code = main(sys.argv[1:])\n"
    "try:\n"
    "    status = open('/proc/self/status').read().split('VmHWM:')[1]\n"
    "    peak = int(status.split()[0]) * 1024\n"
    "except (OSError, IndexError):\n"
    "    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "    peak *= 1 if sys.platform == 'darwin' else 1024\n"
    "print(peak, code)\n"
)


def cli_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"), SKILLSTUDIO_NO_KEYRING="1")
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    return env


def timed(work: Any, limit: float) -> tuple[list[Any], float]:
    """Run `work` in a thread for at most `limit` seconds: ([its result] or [], seconds)."""
    out: list[Any] = []
    start = time.monotonic()
    worker = threading.Thread(target=lambda: out.append(work()), daemon=True)
    worker.start()
    worker.join(limit)
    return out, time.monotonic() - start


# -- 1. JSON that grows inside the bound ------------------------------------------------
def test_an_answer_of_a_million_lists_is_refused_before_it_is_built() -> None:
    tracemalloc.start()
    try:
        start = time.monotonic()
        with pytest.raises(AnswerRefused, match="more than 100,000 JSON values and separators"):
            parse_answer(LISTS)
        took = time.monotonic() - start
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 12 * 2**20, f"{peak:,} bytes"  # main: about 150 MB
    assert took < 0.5, f"{took:.2f} s"
    with pytest.raises(AnswerRefused, match="nests more than 64 levels deep"):
        parse_answer(b"[" * 65 + b"]" * 65)
    assert parse_answer(b"[" * 64 + b"]" * 64) is not None
    with pytest.raises(AnswerRefused, match="is not JSON"):
        parse_answer(b"[" * 10 + b"]" * 11)
    with pytest.raises(AnswerRefused, match="not UTF-8"):
        parse_answer('{"a": 1}'.encode("utf-16"))


def test_brackets_and_commas_inside_strings_are_not_values() -> None:
    """An answer whose text quotes 300,000 commas and brackets is read whole; the same
    count outside strings is refused. An unterminated string is counted to the end."""
    answer = openai_answer(("text", "[a], {b}, " * 100_000))
    data = parse_answer(json.dumps(answer).encode())
    assert data["choices"][0]["message"]["content"].startswith("[a], {b}, ")
    escaped = b'{"t": "' + b'\\"[' * 200_000 + b'"}'  # escaped quotes: one string
    assert parse_answer(escaped)["t"].startswith('"[')
    with pytest.raises(AnswerRefused, match="more than 100,000"):
        parse_answer(b'["a' + b'\\"' * 10 + b'", ' + b"[]," * 100_000 + b"[]]")
    with pytest.raises(AnswerRefused, match="more than 100,000"):  # strings are values
        parse_answer(b"[" + b'"a"' * 1_000_000 + b"]")
    with pytest.raises(AnswerRefused, match="not JSON"):  # unterminated: never built
        parse_answer(b'["' + b"[]," * 200_000)


def test_the_lists_answer_is_an_error_of_its_run(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    script: list[Any] = [("packed", PACKED_LISTS, "gzip"), ("tool", "Skill", {"skill": "x"})]
    with FakeModel(script) as fake:
        s = settings(fake.url, runs=2, concurrency=1)
        report = check(registry, [LiveCase("q", [])], s)
    assert errors(report) == [
        "the answer holds more than 100,000 JSON values and separators "
        "(an answer holds a few dozen): not read",
        "",
    ]
    assert len(fake.received) == 2  # not retried


def test_eval_against_the_lists_answer_stays_under_100_mb_at_8_runs_at_once(
    tmp_path: Path,
) -> None:
    """main: 327 MB at --runs 8 --concurrency 8 (42 MB against a normal answer)."""
    registry_for(tmp_path, "claude-code")
    with FakeModel([("packed", PACKED_LISTS, "gzip")]) as fake:
        args = [*eval_args(fake.url), "--runs", "8", "--concurrency", "8", "--yes"]
        done = subprocess.run(
            [sys.executable, "-c", PEAK_PROBE, *args, "--timeout", "30", "--format", "json"],
            cwd=tmp_path,
            env=cli_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=120,
        )
    printed, last = done.stdout.strip().rsplit("\n", 1)
    peak, code = last.split()
    assert int(peak) < 100 * 2**20, f"peak {int(peak) / 2**20:.0f} MB"
    assert code == "3", done.stderr  # no run answered: inconclusive
    assert len(fake.received) == 8
    report = json.loads(printed)["reports"][0]
    assert {r["error"][:37] for r in report["cases"][0]["runs"]} == {
        "the answer holds more than 100,000 JSON values"[:37]
    }


def test_ctrl_c_ends_eval_within_a_second_with_16_lists_answers_in_flight(
    tmp_path: Path,
) -> None:
    """main: 6-10 s (json.loads of each answer held the interpreter half a second)."""
    registry_for(tmp_path, "claude-code")
    together = threading.Barrier(16, timeout=30)
    sent = threading.Semaphore(0)

    def at_once(_: dict[str, Any]) -> tuple[Any, ...]:
        together.wait()  # the 16 answers go out together
        sent.release()
        return ("packed", PACKED_LISTS, "gzip")

    with FakeModel([at_once]) as fake:
        args = [*eval_args(fake.url), "--runs", "16", "--concurrency", "16", "--yes"]
        process = subprocess.Popen(
            [sys.executable, "-m", "skillstudio", *args, "--timeout", "30"],
            cwd=tmp_path,
            env=cli_env(tmp_path),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            for _ in range(16):
                assert sent.acquire(timeout=30)
            time.sleep(0.1)  # the answers are read now
            start = time.monotonic()
            process.send_signal(signal.SIGINT)
            _, err = process.communicate(timeout=20)
            took = time.monotonic() - start
        finally:
            process.kill()
    assert "Traceback" not in err
    # 130: cancelled; 3: every run was refused before the signal (inconclusive);
    # -SIGINT: it came as the interpreter was ending (the shell's own way to report it)
    assert process.returncode in (3, 130, -signal.SIGINT), err
    assert took < 1.5, f"{took:.2f} s"  # about 0.1 s; 1.5 as test_live_hostile's Ctrl+C


# -- 3. --timeout bounds the whole request ------------------------------------------------
def test_a_retry_after_longer_than_the_timeout_ends_the_request_at_once(tmp_path: Path) -> None:
    """main: waited the 120 s (up to 4 x 120 s) with --timeout 3."""
    registry, _ = registry_for(tmp_path, "claude-code")
    with FakeModel([("status", 429, {"Retry-After": "120"})]) as fake:
        s = settings(fake.url, runs=1)
        s.limits = Limits(timeout=3.0, retries=4)
        out, took = timed(lambda: check(registry, [LiveCase("q", [])], s), 10)
    assert out, "still waiting after 10 s"
    (error,) = errors(out[0])
    assert error.startswith("HTTP 429: status 429; the server asks to wait 120 s, more than")
    assert error.endswith("s left of the 3 s timeout: not retried")
    assert len(fake.received) == 1 and took < 1.0, f"{took:.2f} s"


def test_retries_and_waits_end_within_the_timeout(tmp_path: Path) -> None:
    """Retry-After of 1 s, and back-offs from 1 s: retried while the time left allows,
    then the request ends, within --timeout."""
    registry, _ = registry_for(tmp_path, "claude-code")
    for step in [("status", 429, {"Retry-After": "1"}), ("status", 503)]:
        with FakeModel([step]) as fake:
            s = settings(fake.url, runs=1)
            s.limits = Limits(timeout=2.5, retries=10, backoff=1.0, max_backoff=30.0)
            out, took = timed(functools.partial(check, registry, [LiveCase("q", [])], s), 10)
        assert out, "still waiting after 10 s"
        (error,) = errors(out[0])
        ended = ("left of the 2.5 s timeout: not retried", "no time left of the 2.5 s timeout")
        # or the last retry started with little time left, and got no answer in it
        assert error == "no answer within 2.5 s" or (
            error.startswith(f"HTTP {step[1]}: status {step[1]}") and any(e in error for e in ended)
        ), error
        assert 2 <= len(fake.received) <= 3
        assert took < 2.7, f"{took:.2f} s"


def test_headers_without_end_and_a_101_are_errors_at_once(tmp_path: Path) -> None:
    """main: retried four times, 20 s and 12 s."""
    registry, _ = registry_for(tmp_path, "claude-code")
    with FakeModel([("flood",), ("switch",)]) as fake:
        s = settings(fake.url, runs=2, concurrency=1)
        s.limits = Limits(timeout=30.0, retries=4, backoff=1.0)
        out, took = timed(lambda: check(registry, [LiveCase("q", [])], s), 20)
    assert out, "still waiting after 20 s"
    first, second = errors(out[0])
    assert first == f"{fake.url} broke HTTP (Receive buffer too long): not retried"
    assert second.startswith(f"{fake.url} broke HTTP (") and "not retried" in second
    assert len(fake.received) == 2 and took < 2.0, f"{took:.2f} s"


@pytest.fixture
def full_listener() -> Iterator[str]:
    """The URL of a listener on 127.0.0.1 whose backlog is full: a connect never ends."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(0)
    port = server.getsockname()[1]
    held = []
    for _ in range(16):
        client = socket.socket()
        client.settimeout(0.3)
        try:
            client.connect(("127.0.0.1", port))
        except OSError:
            client.close()
            break
        held.append(client)
    else:
        pytest.skip("the system accepts every connection: no full backlog here")
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        for client in held:
            client.close()
        server.close()


def test_a_connection_gets_no_more_than_the_timeout(tmp_path: Path, full_listener: str) -> None:
    """main: two connects of the 10 s connect timeout, 20 s, with a 1 s timeout."""
    registry, _ = registry_for(tmp_path, "claude-code")
    s = settings(full_listener, runs=1)
    s.limits = Limits(timeout=1.0, retries=4)
    out, took = timed(lambda: check(registry, [LiveCase("q", [])], s), 8)
    assert out, "still connecting after 8 s"
    assert errors(out[0]) == ["no answer within 1 s"]
    assert took < 1.6, f"{took:.2f} s"


def test_eval_timeout_3_ends_in_3_seconds_against_a_retry_after_of_120(tmp_path: Path) -> None:
    registry_for(tmp_path, "claude-code")
    with FakeModel([("status", 429, {"Retry-After": "120"})]) as fake:
        args = [*eval_args(fake.url), "--runs", "2", "--yes", "--timeout", "3"]
        out, took = timed(lambda: cli(*args, cwd=tmp_path), 15)
    assert out, "eval --timeout 3 was still waiting after 15 s"
    assert out[0].code == 3 and "the server asks to wait 120 s" in out[0].out
    assert took < 3.0, f"{took:.2f} s"
