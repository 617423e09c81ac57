"""Sending one request: httpx with timeouts, retries with back-off on rate limits and
overloads (429, 5xx, `Retry-After` honoured), cancellation between and during waits.

httpx rather than the vendors' SDKs: one client speaks both APIs (and every
OpenAI-compatible local server) with explicit connect/read timeouts, and a transport
can be injected, so tests run against a loopback server or a mock transport and never
reach a network.
"""

from __future__ import annotations

import email.utils
import json
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from .endpoints import ANTHROPIC_VERSION, Endpoint
from .redaction import key_problem, redact_json, shown

RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
MAX_RETRY_AFTER = 120.0  # seconds: a longer Retry-After is cut to this
MAX_ANSWER_BYTES = 4 * 2**20  # an answer larger than this is refused
MAX_ERROR_BYTES = 64 * 1024  # of an error status's body (its message)
MAX_MESSAGE = 300  # characters of a server's message shown, once the key is out of it


class Cancelled(Exception):
    """The run was cancelled."""


class SendError(Exception):
    """A request that failed for good; the message is safe to show (no key)."""


class Unreachable(SendError):
    """Nothing answers at the endpoint's address (connection refused, no such host):
    no other request of the run can do better, so the run stops sending."""


@dataclass(slots=True)
class Limits:
    """Timeouts (seconds), retries and back-off of one endpoint's requests."""

    timeout: float = 60.0
    connect_timeout: float = 10.0
    retries: int = 4  # after the first attempt
    backoff: float = 1.0  # the first wait; doubled each retry, with jitter
    max_backoff: float = 30.0


def headers(endpoint: Endpoint, key: str | None) -> dict[str, str]:
    out = {"content-type": "application/json"}
    if endpoint.api == "anthropic":
        out["anthropic-version"] = ANTHROPIC_VERSION
        if key:
            out["x-api-key"] = key
    elif key:
        out["authorization"] = f"Bearer {key}"
    return out


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a `Retry-After` header (seconds or an HTTP date), bounded."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value).timestamp()
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
        seconds = when - (time.time() if now is None else now)
    if seconds != seconds:  # NaN
        return None
    return min(max(seconds, 0.0), MAX_RETRY_AFTER)


def _wait(cancel: threading.Event | None, seconds: float) -> None:
    if cancel is None:
        time.sleep(seconds)
    elif cancel.wait(seconds):
        raise Cancelled()


class Pacer:
    """At most `per_minute` request starts a minute, shared by every thread of a check
    (a service's rate limit kept on this side; 0: no pacing)."""

    def __init__(self, per_minute: float = 0.0) -> None:
        self.interval = 60.0 / per_minute if per_minute > 0 else 0.0
        self.lock = threading.Lock()
        self.next = 0.0

    def wait(self, cancel: threading.Event | None) -> None:
        if not self.interval:
            return
        with self.lock:
            now = time.monotonic()
            start = max(now, self.next)
            self.next = start + self.interval
        if start > now:
            _wait(cancel, start - now)


class _TooSlow(Exception):
    """The answer did not arrive whole within the timeout."""


def _read(response: httpx.Response, max_bytes: int, deadline: float) -> bytes:
    """The body, at most `max_bytes` bytes (more: SendError), whole before `deadline` (a
    server that drips bytes is a timeout)."""
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > max_bytes:
            raise SendError(f"the answer is over {max_bytes:,} bytes")
        chunks.append(chunk)
        if time.monotonic() > deadline:
            raise _TooSlow()
    return b"".join(chunks)


def send(
    client: httpx.Client,
    endpoint: Endpoint,
    key: str | None,
    content: bytes,
    limits: Limits,
    cancel: threading.Event | None = None,
    note: Callable[[str], None] | None = None,
    pacer: Pacer | None = None,
) -> Any:
    """POST `content` to the endpoint and return the decoded JSON answer, the key
    redacted from every string in it; retries what can be retried; raises SendError
    (its text never holds the key) or Cancelled."""
    refused = key_problem(key, endpoint.key_env or f"the keyring entry {endpoint.keyring!r}")
    if refused:
        raise SendError(refused)
    timeout = httpx.Timeout(limits.timeout, connect=limits.connect_timeout)
    attempt = 0
    while True:
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        if pacer is not None:
            pacer.wait(cancel)
        delay: float | None = None
        deadline = time.monotonic() + limits.connect_timeout + limits.timeout
        try:
            with client.stream(
                "POST",
                endpoint.url,
                content=content,
                headers=headers(endpoint, key),
                timeout=timeout,
            ) as response:
                status = response.status_code
                limit = MAX_ANSWER_BYTES if status == 200 else MAX_ERROR_BYTES
                raw = _read(response, limit, deadline)
                wait_header = response.headers.get("retry-after")
        except (httpx.TimeoutException, _TooSlow):
            problem = f"no answer within {limits.timeout:g} s"
        except httpx.ConnectError as exc:
            # Refused or no such host: a server that is not running does not start
            # during a back-off, so one quick retry (a blip), then the run stops.
            problem = shown(f"cannot reach {endpoint.base_url}: {exc}", key, MAX_MESSAGE)
            if attempt >= min(1, limits.retries):
                raise Unreachable(f"{problem} (is the server running?)") from None
            delay = min(0.5, limits.backoff)
        except httpx.HTTPError as exc:
            problem = shown(f"cannot reach {endpoint.base_url}: {exc}", key, MAX_MESSAGE)
        else:
            if status == 200:
                try:
                    return redact_json(json.loads(raw), key)
                except (ValueError, RecursionError):
                    raise SendError("the answer is not JSON") from None
            problem = _status_text(status, raw, key)
            if status not in RETRY_STATUS:
                raise SendError(problem)
            delay = retry_after(wait_header)
        if attempt >= limits.retries:
            raise SendError(problem)
        if delay is None:
            delay = min(limits.backoff * 2**attempt, limits.max_backoff)
            delay *= 0.5 + random.random() / 2  # jitter: concurrent runs do not retry together
        attempt += 1
        if note is not None:
            note(f"{problem}; retrying in {delay:.1f} s ({attempt} of {limits.retries})")
        _wait(cancel, delay)


def _status_text(status: int, raw: bytes, key: str | None) -> str:
    """The status and the server's own message, if it gives one: the key redacted
    from the whole message first, then the message cut to MAX_MESSAGE characters."""
    message = ""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        data = None
    if isinstance(data, dict):
        error = data.get("error")
        if isinstance(error, dict):
            message = str(error.get("message") or "")
        elif isinstance(error, str):
            message = error
    text = f"HTTP {status}"
    return f"{text}: {shown(message, key, MAX_MESSAGE)}" if message else text
