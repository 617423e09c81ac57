"""A connection test: one tiny request to an endpoint (a one-word message, at most a
few tokens back, no tools), through the one sender (client.send: bounded, a deadline,
no redirects, the key redacted from everything it returns), answered with the model id
the server reported and the time it took, or the plain error. The app's "Test
connection" runs it off the GUI thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .client import Cancelled, Limits, SendError, new_client, send
from .endpoints import Endpoint
from .planning import LiveError, Settings
from .questions import encode, reported_model
from .run import key_for
from .transcript import visible

if TYPE_CHECKING:  # (httpx loads in 0.1-0.5 s: at the first request, not at start)
    import httpx

# A test asks once, quickly: no retries, a short deadline (a cold local model may
# take longer to load; its error says so and Ask a model waits the full timeout).
PROBE_LIMITS = Limits(timeout=20.0, connect_timeout=5.0, retries=0)
PROBE_TOKENS = 8  # the most the answer may spend (the Responses API's least: 16)
# the field every answer of the API has (an answer without it is another API's)
ANSWERED = {
    "anthropic": "content",
    "openai": "choices",
    "responses": "output",
    "gemini": "candidates",
}


@dataclass(frozen=True, slots=True)
class ProbeResult:
    ok: bool
    seconds: float
    model: str = ""  # the id the server reported answering
    error: str = ""

    def message(self, asked: str) -> str:
        """One line for the user."""
        if not self.ok:
            return f"Connection failed: {self.error}"
        said = visible(self.model, 200) if self.model else f"{asked} (the server named no model)"
        return f"Connection OK: {said} answered in {self.seconds * 1000:.0f} ms."


def probe_body(endpoint: Endpoint, model: str) -> bytes:
    """The test request in the endpoint's API: the user's one word, few tokens back
    (Gemini's names the model in the URL, not the body)."""
    if endpoint.api == "gemini":
        return encode(
            {
                "contents": [{"role": "user", "parts": [{"text": "ping"}]}],
                "generationConfig": {"maxOutputTokens": PROBE_TOKENS},
            }
        )
    if endpoint.api == "responses":
        return encode({"model": model, "input": "ping", "max_output_tokens": 2 * PROBE_TOKENS})
    return encode(
        {
            "model": model,
            "max_tokens": PROBE_TOKENS,
            "messages": [{"role": "user", "content": "ping"}],
        }
    )


def probe(
    endpoint: Endpoint,
    model: str,
    limits: Limits = PROBE_LIMITS,
    cancel: threading.Event | None = None,
    transport: httpx.BaseTransport | None = None,
    environ: Mapping[str, str] | None = None,
    key: str | None = None,
) -> ProbeResult:
    """Send the test request; never raises for what the endpoint or its key does.
    `key`: one typed but not stored yet (Settings), used as the endpoint's own would
    be (in its variable's place, under the same rules; a local server gets none)."""
    start = time.monotonic()
    if key and endpoint.key_env:
        environ = {endpoint.key_env: key, "SKILLSTUDIO_NO_KEYRING": "1"}
    try:
        key = key_for(Settings(endpoint, model), environ)
        with new_client(transport) as client:
            body = probe_body(endpoint, model)
            data = send(client, endpoint, key, body, limits, cancel, model=model)
    except (LiveError, SendError) as exc:
        return ProbeResult(False, time.monotonic() - start, error=str(exc))
    except Cancelled:
        return ProbeResult(False, time.monotonic() - start, error="cancelled")
    seconds = time.monotonic() - start
    if not isinstance(data, dict) or ANSWERED[endpoint.api] not in data:
        where = endpoint.url_for(model)
        return ProbeResult(
            False, seconds, error=f"{where} answered, but not in the {endpoint.api} API"
        )
    return ProbeResult(True, seconds, reported_model(data))
