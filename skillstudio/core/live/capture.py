"""`skillstudio capture`: a local endpoint, on 127.0.0.1 only, that speaks an agent's
API, takes the first request holding a skills listing, answers every request with a
short end-of-turn reply (so the agent stops), and makes that request a template
(core/live/templates.py; where the listing and the request are: core/live/locate.py).

What each agent is pointed here with, and the API it speaks, is in AGENTS (sources in
docs/agents.md, "Captured requests"). The API of a request is read from its path:
`…/messages` (Anthropic Messages; `…/messages/count_tokens` gets a count),
`…/chat/completions` (OpenAI Chat Completions), `…/responses` (OpenAI Responses),
`…:generateContent` and `…:streamGenerateContent` (Gemini). A request that asks to be
streamed (`"stream": true`, or Gemini's `streamGenerateContent`) gets the reply as
server-sent events in that API's shape; others get one JSON answer.

Bounds: a request body of at most MAX_REQUEST bytes (a larger one, or one packed with
a Content-Encoding, is answered 413/415 and not recorded), JSON of at most
templates.MAX_DEPTH levels; the server listens on 127.0.0.1 only; `wait` ends at its
timeout or when the caller's cancel is set (Ctrl+C). Headers are never kept: the
User-Agent gives the agent's version, and every key a request carries (`x-api-key`,
`Authorization`, `x-goog-api-key`, `?key=`) is redacted from the body before it is
looked at.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ..model.text import counted
from .locate import FINDERS, locate
from .redaction import redact_json
from .templates import DROPPED, Template, TemplateApi, depth_ok

MAX_REQUEST = 16 * 2**20  # bytes of one request body (Claude Code's: ~0.1-0.5 MB)
REPLY = "SkillStudio captured this request for a template; no model was asked."
_VERSION = re.compile(r"^\s*[\w.@-]+/(v?[0-9][\w.+-]*)")


@dataclass(frozen=True, slots=True)
class CaptureAgent:
    """An agent `capture` can record: the API it speaks and how it is pointed here
    (the variable, and the path the base URL ends in: Codex's includes `/v1`)."""

    name: str
    api: TemplateApi
    variable: str
    base_path: str
    hint: str  # what else the agent needs to start against the endpoint


AGENTS: tuple[CaptureAgent, ...] = (
    CaptureAgent(
        "claude-code",
        "anthropic",
        "ANTHROPIC_BASE_URL",
        "",
        "ANTHROPIC_AUTH_TOKEN=capture (any value; it is not kept) claude",
    ),
    CaptureAgent(
        "codex",
        "openai-responses",
        "OPENAI_BASE_URL",
        "/v1",
        "OPENAI_API_KEY=capture (any value; it is not kept) codex",
    ),
    CaptureAgent(
        "gemini",
        "gemini",
        "GOOGLE_GEMINI_BASE_URL",
        "",
        "GEMINI_API_KEY=capture (any value; it is not kept) gemini",
    ),
)
assert {a.name for a in AGENTS} == {name for name, _ in FINDERS}


def capture_agent(name: str) -> CaptureAgent:
    for agent in AGENTS:
        if agent.name == name:
            return agent
    raise KeyError(name)


def api_of(path: str) -> TemplateApi | None:
    """The API a request's path speaks (None: not one this endpoint answers)."""
    route = urlsplit(path).path.rstrip("/")
    if route.endswith("/messages"):
        return "anthropic"
    if route.endswith("/chat/completions"):
        return "openai"
    if route.endswith("/responses"):
        return "openai-responses"
    if route.endswith(":generateContent") or route.endswith(":streamGenerateContent"):
        return "gemini"
    return None


def agent_version(user_agent: str) -> str:
    """The version in a User-Agent's first product (`claude-cli/2.1.239 (…)`,
    `GeminiCLI/0.20.0/model (…)`), or ""."""
    found = _VERSION.match(user_agent or "")
    return found.group(1)[:40] if found else ""


def _keys(headers: Any, path: str) -> list[str]:
    """Every key-looking value the request carries (to redact from its body)."""
    keys = [headers.get("x-api-key") or "", headers.get("x-goog-api-key") or ""]
    auth = headers.get("authorization") or ""
    keys.append(auth.split(None, 1)[1] if " " in auth else auth)
    keys.extend(parse_qs(urlsplit(path).query).get("key", []))
    return [k.strip() for k in keys if k.strip()]


def _model(body: Any, path: str) -> str:
    model = body.get("model") if isinstance(body, dict) else None
    if isinstance(model, str):
        return model[:100]
    found = re.search(r"/models/([^/:]+):", urlsplit(path).path)
    return found.group(1)[:100] if found else "captured"


def reply(api: TemplateApi, model: str, stream: bool) -> tuple[str, bytes]:
    """(content type, body) of a short end-of-turn answer in the API's shape."""
    if api == "anthropic":
        message: dict[str, Any] = {
            "id": "msg_skillstudio_capture",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": REPLY}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 0, "output_tokens": 1},
        }
        if not stream:
            return "application/json", json.dumps(message).encode()
        start = dict(message, content=[], stop_reason=None)
        return "text/event-stream", _sse(
            [
                ("message_start", {"type": "message_start", "message": start}),
                (
                    "content_block_start",
                    {
                        "type": "content_block_start",
                        "index": 0,
                        "content_block": {"type": "text", "text": ""},
                    },
                ),
                (
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": 0,
                        "delta": {"type": "text_delta", "text": REPLY},
                    },
                ),
                ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                (
                    "message_delta",
                    {
                        "type": "message_delta",
                        "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                        "usage": {"output_tokens": 1},
                    },
                ),
                ("message_stop", {"type": "message_stop"}),
            ]
        )
    if api == "openai":
        if not stream:
            return "application/json", json.dumps(
                {
                    "id": "chatcmpl-skillstudio-capture",
                    "object": "chat.completion",
                    "created": 0,
                    "model": model,
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": REPLY},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 0, "completion_tokens": 1, "total_tokens": 1},
                }
            ).encode()
        chunk = {"id": "chatcmpl-skillstudio-capture", "object": "chat.completion.chunk"}
        first = dict(
            chunk,
            model=model,
            choices=[
                {
                    "index": 0,
                    "delta": {"role": "assistant", "content": REPLY},
                    "finish_reason": None,
                }
            ],
        )
        stop = [{"index": 0, "delta": {}, "finish_reason": "stop"}]
        last = dict(chunk, model=model, choices=stop)
        return "text/event-stream", _sse([("", first), ("", last)]) + b"data: [DONE]\n\n"
    if api == "openai-responses":
        item = {
            "type": "message",
            "id": "msg_skillstudio_capture",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": REPLY, "annotations": []}],
        }
        response: dict[str, Any] = {
            "id": "resp_skillstudio_capture",
            "object": "response",
            "created_at": 0,
            "status": "completed",
            "model": model,
            "output": [item],
            "usage": {"input_tokens": 0, "output_tokens": 1, "total_tokens": 1},
        }
        if not stream:
            return "application/json", json.dumps(response).encode()
        started = dict(response, status="in_progress", output=[])
        events: list[dict[str, Any]] = [
            {"type": "response.created", "response": started},
            {"type": "response.output_item.added", "output_index": 0, "item": item},
            {
                "type": "response.output_text.delta",
                "item_id": item["id"],
                "output_index": 0,
                "content_index": 0,
                "delta": REPLY,
            },
            {"type": "response.output_item.done", "output_index": 0, "item": item},
            {"type": "response.completed", "response": response},
        ]
        for number, event in enumerate(events):
            event["sequence_number"] = number
        return "text/event-stream", _sse([(str(e["type"]), e) for e in events])
    answer = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": REPLY}]},
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "usageMetadata": {"promptTokenCount": 0, "candidatesTokenCount": 1, "totalTokenCount": 1},
        "modelVersion": model,
    }
    if not stream:
        return "application/json", json.dumps(answer).encode()
    return "text/event-stream", _sse([("", answer)])


def _sse(events: list[tuple[str, Any]]) -> bytes:
    out = []
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        out.append(f"{head}data: {json.dumps(data)}\n\n")
    return "".join(out).encode()


@dataclass(slots=True)
class Capture:
    """What the endpoint saw: the template (once one is made) and a line per request."""

    template: Template | None = None
    seen: list[str] = field(default_factory=list)
    unlisted_requests: int = 0  # requests whose body held no listing the agent's way


class CaptureServer:
    """The endpoint: `start`, point the agent at `url`, `wait`, `stop`."""

    def __init__(
        self,
        agent: CaptureAgent,
        port: int = 0,
        note: Callable[[str], None] | None = None,
    ) -> None:
        self.agent = agent
        self.result = Capture()
        self.done = threading.Event()
        self.lock = threading.Lock()
        self.note = note
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def do_GET(self) -> None:  # a model list (Codex asks): none
                self._send(200, "application/json", b'{"object":"list","data":[],"models":[]}')

            def do_POST(self) -> None:
                server.handle(self, self._send)

            def _send(self, status: int, kind: str, data: bytes) -> None:
                self.send_response(status)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    @property
    def url(self) -> str:
        """The base URL the agent is given."""
        return f"http://127.0.0.1:{self.port}{self.agent.base_path}"

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def wait(self, timeout: float, cancel: threading.Event | None = None) -> Template | None:
        """The template once one is made; None at the timeout or on a cancel."""
        end = time.monotonic() + timeout
        while not self.done.is_set():
            left = end - time.monotonic()
            if left <= 0 or (cancel is not None and cancel.is_set()):
                break
            self.done.wait(min(left, 0.2))
        return self.result.template

    def _say(self, line: str) -> None:
        with self.lock:
            self.result.seen.append(line)
        if self.note is not None:
            self.note(line)

    def handle(
        self, request: BaseHTTPRequestHandler, send: Callable[[int, str, bytes], None]
    ) -> None:
        path = request.path
        route = urlsplit(path).path
        raw = _read_body(request)
        if raw is None:
            request.close_connection = True  # the rest of the body is not read
            self._say(f"POST {route}: refused (over {MAX_REQUEST:,} bytes, or packed)")
            send(413, "application/json", b'{"error":{"message":"request refused"}}')
            return
        if route.endswith("/count_tokens") or route.endswith(":countTokens"):
            send(200, "application/json", b'{"input_tokens":1,"totalTokens":1}')
            return
        api = api_of(path)
        try:
            body = json.loads(raw.decode("utf-8")) if raw else None
        except (UnicodeDecodeError, ValueError, RecursionError):
            body = None
        if api is None or not isinstance(body, dict) or not depth_ok(body):
            self._say(f"POST {route}: not a request this endpoint reads (answered 404)")
            send(404, "application/json", b'{"error":{"message":"not found"}}')
            return
        for key in _keys(request.headers, path):
            body = redact_json(body, key)
        stream = body.get("stream") is True or route.endswith(":streamGenerateContent")
        self._record(api, body, request.headers.get("user-agent") or "")
        kind, data = reply(api, _model(body, path), stream)
        send(200, kind, data)

    def _record(self, api: TemplateApi, body: dict[str, Any], user_agent: str) -> None:
        with self.lock:
            if self.result.template is not None:
                return
        located = locate(self.agent.name, api, body)
        if located is None:
            with self.lock:
                self.result.unlisted_requests += 1
            self._say(f"a request ({api}) without a skills listing the {self.agent.name} way")
            return
        kept = {k: v for k, v in located.body.items() if k not in DROPPED}
        template = Template(
            "captured",
            api,
            self.agent.name,
            agent_version(user_agent),
            kept,
            located.listing,
            datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        )
        with self.lock:
            if self.result.template is None:
                self.result.template = template
        self._say(
            f"captured a request ({api}) with a listing of "
            f"{counted(len(located.listing), 'character')} and a request of "
            f"{counted(len(located.request), 'character')}"
        )
        self.done.set()


def _read_body(request: BaseHTTPRequestHandler) -> bytes | None:
    """The body, at most MAX_REQUEST bytes (Content-Length or chunked); None when it is
    larger, packed, or not framed."""
    headers = request.headers
    coding = (headers.get("content-encoding") or "identity").strip().lower()
    if coding != "identity":
        return None
    if "chunked" in (headers.get("transfer-encoding") or "").lower():
        out = bytearray()
        while True:
            line = request.rfile.readline(1024)
            try:
                size = int(line.split(b";")[0].strip() or b"0", 16)
            except ValueError:
                return None
            if size == 0:
                request.rfile.readline(1024)
                return bytes(out)
            if len(out) + size > MAX_REQUEST:
                return None
            out += request.rfile.read(size)
            request.rfile.readline(1024)
    try:
        length = int(headers.get("content-length") or 0)
    except ValueError:
        return None
    if length < 0 or length > MAX_REQUEST:
        return None
    return request.rfile.read(length)
