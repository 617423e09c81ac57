"""Live checks against hostile endpoints (issue 34, items 1-3): a compression bomb, a
server that never answers (`100 Continue` forever, headers a byte at a time), Ctrl+C
and Cancel in the middle of a request, an answer-cache entry that is a FIFO or a link
out, and a key that must not leak (an upper-case `HTTP://`, a name that only looks
local, a server that echoes it, a key with a line break). Every server listens on
127.0.0.1 (tests/live_fake.py); nothing reaches a network.
"""

from __future__ import annotations

import base64
import functools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from skillstudio.core.live.cache import AnswerCache
from skillstudio.core.live.client import Limits
from skillstudio.core.live.endpoints import endpoint_for
from skillstudio.core.live.planning import LiveError, Settings, plan
from skillstudio.core.live.questions import Answer
from skillstudio.core.live.run import LiveReport, key_for
from skillstudio.core.live.stats import LiveCase

from .helpers import REPO, cli
from .live_fake import FakeModel, Script, gzip_bomb
from .test_live import SECRET, check, registry_for, settings

GIB = 1 << 30


@functools.cache
def bomb(layers: int) -> bytes:
    return gzip_bomb(GIB, layers)


def errors(report: LiveReport) -> list[str]:
    return [a.error for r in report.results for a in r.answers]


def eval_args(url: str) -> list[str]:
    return ["eval", "--request", "fill in the PDF form", "--endpoint", url, "--model", "m"]


# -- 1. memory ------------------------------------------------------------------------
def test_a_compression_bomb_is_refused_within_the_answer_bound(tmp_path: Path) -> None:
    """265 bytes marked `gzip, gzip, gzip` were unpacked to 1 GiB before the 4 MB bound
    was looked at (2.1 GB a run); a body packed once is unpacked against the bound."""
    registry, _ = registry_for(tmp_path, "claude-code")
    triple = gzip_bomb(64 << 20, 3)  # 64 MiB of zeros in 135 bytes (main peaked at 130 MB)
    script: Script = [
        ("packed", triple, "gzip, gzip, gzip"),
        ("packed", bomb(1), "gzip"),
        ("packed", b"\x00" * 10, "br"),
        ("packed", b"not gzip at all", "gzip"),
    ]
    with FakeModel(script) as fake:
        s = settings(fake.url, runs=4, concurrency=1)
        tracemalloc.start()
        try:
            report = check(registry, [LiveCase("q", [])], s)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert errors(report) == [
        "the answer is packed 3 times over (Content-Encoding: gzip, gzip, gzip); "
        "at most once is read",
        "the answer is over 4,194,304 bytes",
        "the answer is packed as 'br', which is not read here (gzip or deflate)",
        "the answer's packed data is damaged",
    ]
    assert len(fake.received) == 4  # none of them retried
    assert peak < 24 * 2**20, f"{peak:,} bytes at the peak"


def test_eval_against_a_compression_bomb_stays_under_100_mb(tmp_path: Path) -> None:
    """The whole command, in its own process: its peak memory against a
    1 GiB bomb packed three times and one packed once, two runs at once."""
    registry_for(tmp_path, "claude-code")
    probe = (  # VmHWM: the peak of this process's own memory (ru_maxrss, on Linux,
        # keeps the parent's from before exec: pytest's 120 MB)
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
    script: Script = [("packed", bomb(3), "gzip, gzip, gzip"), ("packed", bomb(1), "gzip")]
    with FakeModel(script) as fake:
        args = [*eval_args(fake.url), "--runs", "2", "--yes", "--format", "json"]
        env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"), SKILLSTUDIO_NO_KEYRING="1")
        done = subprocess.run(
            [sys.executable, "-c", probe, *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    peak, code = done.stdout.strip().splitlines()[-1].split()
    assert code == "3", done.stderr  # no run answered: inconclusive
    assert len(fake.received) == 2
    assert int(peak) < 100 * 2**20, f"peak {int(peak) / 2**20:.0f} MB"


# -- 2. hangs -----------------------------------------------------------------------------
def test_a_server_that_never_answers_is_cut_at_the_deadline(tmp_path: Path) -> None:
    """`100 Continue` every 0.3 s, or headers a byte at a time: httpx's read timeout
    never trips; the total deadline does, and the call is not retried."""
    registry, _ = registry_for(tmp_path, "claude-code")
    out: list[LiveReport] = []
    with FakeModel([("continue", 0.3), ("drip-headers", 0.05)]) as fake:
        s = settings(fake.url, runs=2, concurrency=2)
        s.limits = Limits(timeout=1.0, retries=4, backoff=0.01)
        start = time.monotonic()
        worker = threading.Thread(
            target=lambda: out.append(check(registry, [LiveCase("q", [])], s))
        )
        worker.start()
        worker.join(15)
        took = time.monotonic() - start
    assert out, "the check was still waiting after 15 s"
    assert errors(out[0]) == ["no answer within 1 s"] * 2
    assert len(fake.received) == 2
    assert took < 2.0, f"{took:.2f} s"


def test_eval_timeout_3_ends_in_3_seconds_against_a_dripping_server(tmp_path: Path) -> None:
    registry_for(tmp_path, "claude-code")
    args = [*eval_args(""), "--runs", "2", "--yes", "--timeout", "3"]
    out: list[Any] = []
    with FakeModel([("continue", 2.0), ("drip-headers", 0.2)]) as fake:
        args[4] = fake.url
        start = time.monotonic()
        worker = threading.Thread(target=lambda: out.append(cli(*args, cwd=tmp_path)))
        worker.start()
        worker.join(20)
        took = time.monotonic() - start
    assert out, "eval --timeout 3 was still waiting after 20 s"
    run = out[0]
    assert run.code == 3, run.out + run.err  # no run answered: inconclusive
    assert "no answer within 3 s" in run.out
    assert 2.9 < took < 4.5, f"{took:.2f} s"


def test_cancel_ends_a_request_in_flight_at_once(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    cancel = threading.Event()
    out: list[LiveReport] = []
    with FakeModel([("continue", 0.3)]) as fake:
        s = settings(fake.url, runs=3, concurrency=3)
        s.limits = Limits(timeout=60.0)
        worker = threading.Thread(
            target=lambda: out.append(check(registry, [LiveCase("q", [])], s, cancel=cancel))
        )
        worker.start()
        while len(fake.received) < 3:
            time.sleep(0.01)
        start = time.monotonic()
        cancel.set()
        worker.join(15)
        took = time.monotonic() - start
    assert out, "the check was still waiting after 15 s"
    assert errors(out[0]) == ["cancelled"] * 3 and out[0].cancelled
    assert took < 1.0, f"{took:.2f} s"


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_ends_eval_within_a_second(tmp_path: Path) -> None:
    registry_for(tmp_path, "claude-code")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"), SKILLSTUDIO_NO_KEYRING="1")
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    with FakeModel([("continue", 0.5)]) as fake:
        args = [*eval_args(fake.url), "--runs", "4", "--concurrency", "2", "--yes"]
        process = subprocess.Popen(
            [sys.executable, "-m", "skillstudio", *args],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            # a suite started in the background of a shell without job control runs
            # with SIGINT ignored, which a child inherits (and Python then keeps): the
            # child gets Ctrl+C as a terminal gives it, whatever ran the tests
            preexec_fn=_default_sigint,
        )
        try:
            deadline = time.monotonic() + 30
            while len(fake.received) < 2 and time.monotonic() < deadline:
                time.sleep(0.01)
            assert len(fake.received) == 2
            start = time.monotonic()
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=10)
            took = time.monotonic() - start
        finally:
            process.kill()
    assert process.returncode == 130, err
    assert "eval cancelled (Ctrl+C): 4 runs not answered" in err
    assert "Traceback" not in err and "0 passed, 0 failed, 1 inconclusive" in out
    assert took < 1.5, f"{took:.2f} s"


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
    assert out[0].code == 3 and "not in the cache (--offline)" in out[0].out


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


def test_the_answer_cache_never_writes_through_a_link(tmp_path: Path) -> None:
    """A two-letter folder that is a link out of the cache: reading was refused, but
    put wrote the entry where the link points (the red team's round)."""
    cache = AnswerCache(str(tmp_path / "cache"))
    outside = tmp_path / "outside"
    outside.mkdir()
    key = "ab" + "0" * 62
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "ab").symlink_to(outside, target_is_directory=True)
    cache.put(key, Answer(pick="pdf"), {"query": "q"})
    assert list(outside.iterdir()) == []
    assert cache.get(key) is None
    (tmp_path / "cache" / "ab").unlink()  # a plain folder: written, and read back
    cache.put(key, Answer(pick="pdf"), {"query": "q"})
    found = cache.get(key)
    assert found is not None and found.pick == "pdf"
    other = "cd" + "1" * 62  # a folder made by put, mode 0700, the file 0600
    cache.put(other, Answer(pick="x"), {})
    assert (tmp_path / "cache" / "cd").stat().st_mode & 0o777 == 0o700
    assert (tmp_path / "cache" / "cd" / f"{other}.json").stat().st_mode & 0o777 == 0o600
    assert not list((tmp_path / "cache").rglob("*.tmp"))


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


def test_the_connection_of_a_key_over_plain_http_must_be_to_loopback() -> None:
    """The name was resolved to loopback when the key was checked; where the socket
    really connected is checked again (a second resolution, a proxy in between)."""
    from skillstudio.core.live.deadline import NotLoopback, Watch

    class Peer(socket.socket):
        peer = ""

        def getpeername(self) -> Any:
            return (self.peer, 80)

    class Stream:
        def __init__(self, peer: str) -> None:
            self.sock = Peer()
            self.sock.peer = peer

        def get_extra_info(self, name: str) -> Any:
            return self.sock if name == "socket" else None

    watch = Watch(5.0, None, loopback_only=True)
    stream = Stream("203.0.113.7")
    with pytest.raises(NotLoopback):
        watch.trace("connection.connect_tcp.complete", {"return_value": stream})
    assert stream.sock.fileno() == -1  # closed before a byte was sent
    stream = Stream("127.0.0.1")
    watch.trace("connection.connect_tcp.complete", {"return_value": stream})
    assert watch.sockets == [stream.sock]
    stream.sock.close()


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
