"""Sending one request: httpx with timeouts, retries with back-off on rate limits and
overloads (429, 5xx, `Retry-After` honoured), cancellation between and during waits.

httpx rather than the vendors' SDKs: one client speaks both APIs (and every
OpenAI-compatible local server) with explicit connect/read timeouts, and a transport
can be injected, so tests run against a loopback server or a mock transport and never
reach a network.
"""

from __future__ import annotations

import email.utils
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from .endpoints import ANTHROPIC_VERSION, Endpoint, redact

RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
MAX_RETRY_AFTER = 120.0  # seconds: a longer Retry-After is cut to this
MAX_ANSWER_BYTES = 4 * 2**20  # an answer larger than this is refused


class Cancelled(Exception):
    """The run was cancelled."""


class SendError(Exception):
    """A request that failed for good; the message is safe to show (no key)."""


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


def send(
    client: httpx.Client,
    endpoint: Endpoint,
    key: str | None,
    content: bytes,
    limits: Limits,
    cancel: threading.Event | None = None,
    note: Callable[[str], None] | None = None,
) -> Any:
    """POST `content` to the endpoint and return the decoded JSON answer; retries what
    can be retried; raises SendError (its text never holds the key) or Cancelled."""
    timeout = httpx.Timeout(limits.timeout, connect=limits.connect_timeout)
    attempt = 0
    while True:
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        delay: float | None = None
        try:
            response = client.post(
                endpoint.url, content=content, headers=headers(endpoint, key), timeout=timeout
            )
        except httpx.TimeoutException:
            problem = f"no answer within {limits.timeout:g} s"
        except httpx.HTTPError as exc:
            problem = redact(f"cannot reach {endpoint.base_url}: {exc}", key)
        else:
            if response.status_code == 200:
                if len(response.content) > MAX_ANSWER_BYTES:
                    raise SendError(f"the answer is over {MAX_ANSWER_BYTES:,} bytes")
                try:
                    return response.json()
                except ValueError:
                    raise SendError("the answer is not JSON") from None
            problem = redact(_status_text(response), key)
            if response.status_code not in RETRY_STATUS:
                raise SendError(problem)
            delay = retry_after(response.headers.get("retry-after"))
        if attempt >= limits.retries:
            raise SendError(problem)
        if delay is None:
            delay = min(limits.backoff * 2**attempt, limits.max_backoff)
            delay *= 0.5 + random.random() / 2  # jitter: concurrent runs do not retry together
        attempt += 1
        if note is not None:
            note(f"{problem}; retrying in {delay:.1f} s ({attempt} of {limits.retries})")
        _wait(cancel, delay)


def _status_text(response: httpx.Response) -> str:
    """The status and the server's own message, if it gives one (bounded)."""
    message = ""
    try:
        data = response.json()
    except ValueError:
        data = None
    if isinstance(data, dict):
        error = data.get("error")
        if isinstance(error, dict):
            message = str(error.get("message") or "")
        elif isinstance(error, str):
            message = error
    text = f"HTTP {response.status_code}"
    return f"{text}: {message[:300]}" if message else text
