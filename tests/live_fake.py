"""A loopback model server for the live-check tests: http.server on 127.0.0.1, port 0,
in a thread; it speaks the Anthropic Messages, the OpenAI Chat Completions, the
Responses and Gemini's generateContent APIs (by the path asked: `/messages`,
`/chat/completions`, `/responses`, `/models/{model}:generateContent`) and
answers from a script, one step a request (a run of K turns takes a step a turn; a
callable step can answer by the turn it sees: `turn_of`). Nothing here reaches a
network.

A script step is one of:
    ("tool", tool_name, arguments)    a call of a tool
    ("text", text)                    a plain answer
    ("status", code, headers)         an error status (429 with Retry-After, 500, ...)
    ("sleep", seconds)                no answer for that long, then a plain one
    ("raw", bytes)                    a 200 with this body (malformed JSON, a huge one)
    ("drip", seconds)                 a 200 whose body comes a byte every `seconds`
    ("continue", seconds)             `100 Continue` every `seconds`, never an answer
    ("drip-headers", seconds)         a status line, then a header byte every `seconds`
    ("flood",)                        a status line, then header lines without end
    ("switch",)                       `101 Switching Protocols` as the answer, then nothing
    ("packed", body, encoding)        a 200 with this raw body and Content-Encoding
    ("error", code, message)          an error status whose JSON message is `message`
A step given as a callable gets the request's JSON body and returns a step. When the
script runs out the last step repeats.
"""

from __future__ import annotations

import contextlib
import gzip
import itertools
import json
import struct
import threading
import time
import zlib
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Step = tuple[Any, ...]
Script = list[Step | Callable[[dict[str, Any]], Step]]


def anthropic_answer(step: Step) -> dict[str, Any]:
    if step[0] == "tool":
        content = [{"type": "tool_use", "id": "toolu_1", "name": step[1], "input": step[2]}]
    else:
        content = [{"type": "text", "text": step[1] if len(step) > 1 else "ok"}]
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": content,
        "stop_reason": "tool_use" if step[0] == "tool" else "end_turn",
        "usage": {"input_tokens": 120, "output_tokens": 8},
    }


def responses_answer(step: Step) -> dict[str, Any]:
    """A Responses API answer: a `function_call` output item, or a `message` one."""
    if step[0] == "tool":
        item: dict[str, Any] = {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": step[1],
            "arguments": json.dumps(step[2]),
            "status": "completed",
        }
    else:
        text = step[1] if len(step) > 1 else "ok"
        item = {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }
    return {
        "id": "resp_1",
        "object": "response",
        "model": "test-model",
        "status": "completed",
        "output": [item],
        "usage": {"input_tokens": 120, "output_tokens": 8, "total_tokens": 128},
    }


def gemini_answer(step: Step) -> dict[str, Any]:
    """A generateContent answer: a `functionCall` part (after a thought part carrying a
    signature, as thinking models send it), or a text part."""
    if step[0] == "tool":
        parts: list[dict[str, Any]] = [
            {"text": "I should load the skill.", "thought": True},
            {"functionCall": {"name": step[1], "args": step[2]}, "thoughtSignature": "c2ln"},
        ]
    else:
        parts = [{"text": step[1] if len(step) > 1 else "ok"}]
    return {
        "candidates": [
            {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 120, "candidatesTokenCount": 8},
        "modelVersion": "test-gemini-001",
    }


def turn_of(body: dict[str, Any]) -> int:
    """Which turn of a run a request is (1 the first): one more than the stub tool
    results it carries back, in whichever API's form."""
    results = 0
    for message in body.get("messages", body.get("input", body.get("contents", []))):
        if not isinstance(message, dict):
            continue
        parts = message.get("parts")
        if isinstance(parts, list):  # Gemini: a functionResponse part per result
            results += sum(isinstance(p, dict) and "functionResponse" in p for p in parts)
        if message.get("role") == "tool" or message.get("type") == "function_call_output":
            results += 1
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, list):
            results += sum(isinstance(b, dict) and b.get("type") == "tool_result" for b in content)
    return results + 1


def openai_answer(step: Step) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": None}
    if step[0] == "tool":
        message["tool_calls"] = [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": step[1], "arguments": json.dumps(step[2])},
            }
        ]
    else:
        message["content"] = step[1] if len(step) > 1 else "ok"
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 120, "completion_tokens": 8},
    }


class FakeModel:
    """The server; `received` holds each request as (path, headers, body bytes)."""

    def __init__(self, script: Script) -> None:
        self.script = list(script)
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.lock = threading.Lock()
        self.position = 0
        self.stopping = threading.Event()  # endless steps end when the server stops
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                with fake.lock:
                    fake.received.append((self.path, dict(self.headers.items()), raw))
                    index = min(fake.position, len(fake.script) - 1)
                    fake.position += 1
                    step = fake.script[index]
                if callable(step):
                    step = step(json.loads(raw))
                fake.answer(self, step)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def answer(self, handler: BaseHTTPRequestHandler, step: Step) -> None:
        kind = step[0]
        if kind == "status":
            payload = json.dumps({"error": {"message": f"status {step[1]}"}}).encode()
            handler.send_response(step[1])
            for name, value in (step[2] if len(step) > 2 else {}).items():
                handler.send_header(name, value)
            self._body(handler, payload)
            return
        if kind in ("continue", "drip-headers", "flood"):
            self._endless(handler, kind, step[1] if len(step) > 1 else 0.0)
            return
        if kind == "switch":
            with contextlib.suppress(OSError):
                handler.wfile.write(b"HTTP/1.1 101 Switching Protocols\r\n")
                handler.wfile.write(b"Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
                handler.wfile.flush()
                self.stopping.wait(30)
            return
        if kind == "error":
            payload = json.dumps({"error": {"message": step[2]}}).encode()
            handler.send_response(step[1])
            self._body(handler, payload)
            return
        if kind == "packed":
            handler.send_response(200)
            handler.send_header("content-encoding", step[2])
            self._body(handler, step[1])
            return
        if kind == "sleep":
            time.sleep(step[1])
            step = ("text", "late")
        if kind == "drip":
            body = json.dumps(openai_answer(("text", "slow"))).encode()
            handler.send_response(200)
            handler.send_header("content-length", str(len(body)))
            handler.end_headers()
            with contextlib.suppress(OSError):
                for byte in body:
                    handler.wfile.write(bytes([byte]))
                    handler.wfile.flush()
                    time.sleep(step[1])
            return
        if kind == "raw":
            handler.send_response(200)
            self._body(handler, step[1])
            return
        if handler.path.endswith("/messages"):
            data = anthropic_answer(step)
        elif handler.path.endswith("/responses"):
            data = responses_answer(step)
        elif handler.path.endswith(":generateContent"):
            data = gemini_answer(step)
        else:
            data = openai_answer(step)
        handler.send_response(200)
        self._body(handler, json.dumps(data).encode())

    def _endless(self, handler: BaseHTTPRequestHandler, kind: str, seconds: float) -> None:
        """Bytes that never make an answer, until the client leaves or the server stops."""
        if kind == "continue":
            pieces: Any = itertools.repeat(b"HTTP/1.1 100 Continue\r\n\r\n")
        elif kind == "flood":
            line = b"X-Flood: " + b"a" * 1000 + b"\r\n"
            pieces = itertools.chain([b"HTTP/1.1 200 OK\r\n"], itertools.repeat(line))
        else:
            head = b"HTTP/1.1 200 OK\r\n"
            pieces = itertools.chain(
                [head], (bytes([b]) for b in itertools.cycle(b"X-Slow: a\r\n"))
            )
        with contextlib.suppress(OSError):
            for piece in pieces:
                handler.wfile.write(piece)
                handler.wfile.flush()
                if self.stopping.wait(seconds):
                    return

    @staticmethod
    def _body(handler: BaseHTTPRequestHandler, payload: bytes) -> None:
        handler.send_header("content-type", "application/json")
        handler.send_header("content-length", str(len(payload)))
        handler.end_headers()
        with contextlib.suppress(OSError):  # the client gave up (a timeout test)
            handler.wfile.write(payload)

    def __enter__(self) -> FakeModel:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


def gzip_bomb(size: int, layers: int = 1) -> bytes:
    """A gzip stream of `size` zero bytes (a multiple of 1 MiB), packed `layers` times:
    1 GiB is about 1 MB once and a few hundred bytes three times. Built from one
    compressed MiB repeated (each ends in a full flush, so the pieces join), in well
    under a second."""
    mib = 1 << 20
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    piece = compressor.compress(bytes(mib)) + compressor.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    zeros = bytes(mib)
    for _ in range(size // mib):
        crc = zlib.crc32(zeros, crc)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    trailer = b"\x03\x00" + struct.pack("<II", crc, size & 0xFFFFFFFF)
    data = header + piece * (size // mib) + trailer
    for _ in range(layers - 1):
        data = gzip.compress(data, 9)
    return data
