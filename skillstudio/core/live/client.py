"""Sending one request: httpx with a total deadline, retries with back-off on rate
limits and overloads (429, 5xx, `Retry-After` honoured), cancellation that ends a
request at once.

httpx rather than the vendors' SDKs: one client speaks both APIs (and every
OpenAI-compatible local server), and a transport can be injected, so tests run against
a loopback server or a mock transport and never reach a network. Every endpoint goes
through `send`: redirects are not followed (a key never follows one), the body is read
raw and unpacked against the bound as it arrives (body.py), an answer's JSON is
counted as it arrives and parsed only within bounds (answer_json.py), each attempt is
cut at its deadline or at once on a cancel (deadline.py), and nothing a server sends
reaches a message, the cache or a report before the key is redacted from it
(redaction.py).

`Limits.timeout` bounds a request as the user sees it: connecting, sending, the answer,
and the retries and the waits between them all end within it, from the first attempt's
start. A connection gets at most the connect timeout, and never more than what is left;
a wait (`Retry-After` or a back-off) longer than what is left ends the request at once,
with the server's reason and the wait it asked for, rather than a retry after the
deadline. A call that misses its deadline is not retried: the server may have answered
it (and charged for it), and the deadline is the user's; the next run asks again. An
answer that breaks the protocol (headers without end, `101 Switching Protocols`, any
other interim status given as the answer) is not retried either: the same server
answers the same way again.
"""

from __future__ import annotations

import email.utils
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .answer_json import AnswerRefused, JsonBounds, parse_answer
from .body import ACCEPT_ENCODING, BodyRefused, content_coding, read_body
from .deadline import CancelledHere, Expired, NotLoopback, watching
from .endpoints import ANTHROPIC_VERSION, Endpoint
from .redaction import key_problem, redact_json, shown

if TYPE_CHECKING:  # (httpx loads in 0.1-0.5 s: imported by the first request)
    import httpx

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
    """Nothing answers at the endpoint's address (connection refused, no such host, no
    connection within the connect timeout): no other request of the run can do better,
    so the run stops sending."""


@dataclass(slots=True)
class Limits:
    """Timeouts (seconds), retries and back-off of one endpoint's requests."""

    timeout: float = 60.0
    connect_timeout: float = 10.0
    retries: int = 4  # after the first attempt
    backoff: float = 1.0  # the first wait; doubled each retry, with jitter
    max_backoff: float = 30.0


def new_client(transport: httpx.BaseTransport | None = None) -> httpx.Client:
    """The client every request goes through: no redirects followed, and a connection
    per request (not kept alive), so each attempt owns the socket its deadline cuts."""
    import httpx  # (not at the app's start: see above)

    return httpx.Client(
        transport=transport,
        follow_redirects=False,
        limits=httpx.Limits(max_keepalive_connections=0),
    )


def key_header(endpoint: Endpoint) -> str:
    """The header the endpoint's API carries a key in (Anthropic's `x-api-key`,
    Gemini's `x-goog-api-key`, else `authorization: Bearer`)."""
    return {"anthropic": "x-api-key", "gemini": "x-goog-api-key"}.get(endpoint.api, "authorization")


def headers(endpoint: Endpoint, key: str | None) -> dict[str, str]:
    out = {"content-type": "application/json", "accept-encoding": ACCEPT_ENCODING}
    if endpoint.api == "anthropic":
        out["anthropic-version"] = ANTHROPIC_VERSION
    if key:
        name = key_header(endpoint)
        out[name] = f"Bearer {key}" if name == "authorization" else key
    return out


def retry_after(
    value: str | None, now: float | None = None, bound: float = MAX_RETRY_AFTER
) -> float | None:
    """Seconds to wait from a `Retry-After` header (seconds or an HTTP date), at most
    `bound`."""
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
    return min(max(seconds, 0.0), bound)


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


def _exchange(
    client: httpx.Client,
    endpoint: Endpoint,
    key: str | None,
    content: bytes,
    limits: Limits,
    left: float,
    cancel: threading.Event | None,
    model: str,
) -> tuple[int, bytes, str | None, JsonBounds | None]:
    """One attempt of at most `left` seconds: (status, body, Retry-After, the bounds an
    answer's JSON was counted against). The attempt is watched: its deadline or a cancel
    shuts its socket, and the error that follows is raised as Expired or CancelledHere;
    a body too large or packed wrongly raises BodyRefused, an answer of too many values
    or levels AnswerRefused (the body is read no further)."""
    import httpx

    connect = min(limits.connect_timeout, left)
    timeout = httpx.Timeout(left, connect=connect)
    loopback_only = key is not None and endpoint.plain_http
    with watching(left, cancel, loopback_only) as watch:
        try:
            with client.stream(
                "POST",
                endpoint.url_for(model),
                content=content,
                headers=headers(endpoint, key),
                timeout=timeout,
                extensions={"trace": watch.trace},
            ) as response:
                status = response.status_code
                if status < 200:  # an interim status given as the answer (h11 lets 1xx by)
                    return status, b"", None, None
                limit = MAX_ANSWER_BYTES if status == 200 else MAX_ERROR_BYTES
                coding = content_coding(response.headers.get_list("content-encoding", True))
                counted = JsonBounds() if status == 200 else None  # counted as it arrives
                observe = counted.feed if counted is not None else None
                raw = read_body(response.iter_raw(), coding, limit, watch.raise_if_ended, observe)
                return status, raw, response.headers.get("retry-after"), counted
        except (httpx.HTTPError, BodyRefused, AnswerRefused):
            watch.check(time.monotonic())  # a connect timed out at the deadline: Expired
            watch.raise_if_ended()  # the error came from the cut: say why it was cut
            raise


def send(
    client: httpx.Client,
    endpoint: Endpoint,
    key: str | None,
    content: bytes,
    limits: Limits,
    cancel: threading.Event | None = None,
    note: Callable[[str], None] | None = None,
    pacer: Pacer | None = None,
    model: str = "",
) -> Any:
    """POST `content` to the endpoint (for Gemini's API at the URL naming `model`) and
    return the decoded JSON answer, the key redacted from every string in it; retries
    what can be retried within the request's `limits.timeout`; raises SendError (its
    text never holds the key) or Cancelled."""
    refused = key_problem(key, endpoint.key_env or f"the keyring entry {endpoint.keyring!r}")
    if refused:
        raise SendError(refused)
    import httpx

    attempt = 0
    deadline: float | None = None  # the whole request's, from its first attempt
    expired = f"no answer within {limits.timeout:g} s"
    while True:
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        if pacer is not None:
            pacer.wait(cancel)
        if deadline is None:
            deadline = time.monotonic() + limits.timeout
        left = deadline - time.monotonic()
        if left <= 0:
            raise SendError(expired)
        delay: float | None = None
        gone: type[SendError] = SendError  # raised when no retry fits in the time left
        try:
            status, raw, wait_header, counted = _exchange(
                client, endpoint, key, content, limits, left, cancel, model
            )
        except CancelledHere:
            raise Cancelled() from None
        except (Expired, httpx.ReadTimeout, httpx.WriteTimeout, httpx.PoolTimeout):
            raise SendError(expired) from None
        except BodyRefused as exc:
            raise SendError(shown(str(exc), key, MAX_MESSAGE)) from None
        except AnswerRefused as exc:
            raise SendError(str(exc)) from None
        except NotLoopback as exc:
            raise SendError(
                f"not sending the key over plain http: {endpoint.base_url} connected to "
                f"{shown(str(exc), key, 60)}, not to this machine"
            ) from None
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            # Refused, no such host, or no connection in time: a server that is not
            # running does not start during a back-off, so one quick retry (a blip),
            # then the run stops.
            waited = min(limits.connect_timeout, left)
            reason = str(exc) or f"no connection within {waited:g} s"
            problem = shown(f"cannot reach {endpoint.base_url}: {reason}", key, MAX_MESSAGE)
            gone = Unreachable
            if attempt >= min(1, limits.retries):
                raise Unreachable(f"{problem} (is the server running?)") from None
            delay = min(0.5, limits.backoff)
        except httpx.ProtocolError as exc:  # the same server breaks it the same way again
            raise SendError(
                shown(f"{endpoint.base_url} broke HTTP ({exc}): not retried", key, MAX_MESSAGE)
            ) from None
        except httpx.HTTPError as exc:
            problem = shown(f"cannot reach {endpoint.base_url}: {exc}", key, MAX_MESSAGE)
        else:
            if status == 200:
                try:
                    return redact_json(parse_answer(raw, counted), key)
                except AnswerRefused as exc:
                    raise SendError(str(exc)) from None
            if status < 200:
                raise SendError(f"HTTP {status}: an interim status, not an answer")
            problem = _status_text(status, raw, key)
            if status not in RETRY_STATUS:
                raise SendError(problem)
            asked = retry_after(wait_header, bound=float("inf"))
            delay = None if asked is None else min(asked, MAX_RETRY_AFTER)
            left = deadline - time.monotonic()
            if asked is not None and asked >= left and delay is not None and delay >= left:
                raise SendError(
                    f"{problem}; the server asks to wait {asked:.0f} s, more than the "
                    f"{max(left, 0):.1f} s left of the {limits.timeout:g} s timeout: not retried"
                )
        if attempt >= limits.retries:
            raise SendError(problem)
        if delay is None:
            delay = min(limits.backoff * 2**attempt, limits.max_backoff)
            delay *= 0.5 + random.random() / 2  # jitter: concurrent runs do not retry together
        if delay >= deadline - time.monotonic():
            raise gone(f"{problem}; no time left of the {limits.timeout:g} s timeout to retry")
        attempt += 1
        if note is not None:
            note(f"{problem}; retrying in {delay:.1f} s ({attempt} of {limits.retries})")
        _wait(cancel, delay)


def _status_text(status: int, raw: bytes, key: str | None) -> str:
    """The status and the server's own message, if it gives one: the key redacted
    from the whole message first, then the message cut to MAX_MESSAGE characters."""
    message = ""
    try:
        data = parse_answer(raw)
    except AnswerRefused:
        data = None
    if isinstance(data, dict):
        error = data.get("error")
        if isinstance(error, dict):
            message = str(error.get("message") or "")
        elif isinstance(error, str):
            message = error
    text = f"HTTP {status}"
    return f"{text}: {shown(message, key, MAX_MESSAGE)}" if message else text
