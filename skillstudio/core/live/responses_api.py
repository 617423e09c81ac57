"""OpenAI's Responses API (`POST {base}/responses`), the API current Codex speaks: the
request body made from the Chat Completions one the reconstruction builds, and an
answer's `output` items read back as tool calls and text.

The body (docs/agents.md has the sources): the system prompt as `instructions`; every
other message an `input` item `{"type": "message", "role": ..., "content": [...]}` whose
text parts are `input_text` (the user's and the developer's) or `output_text` (the
assistant's, in a later turn); tools as Responses function tools, flat:
`{"type": "function", "name", "description", "parameters", "strict": false}`. A later
turn (core/live/turns.py) adds the model's `function_call` items and a
`function_call_output` item per call. The answer: `output` items of type
`function_call` (`name`, `arguments` as a JSON string, `call_id`) and `message` (its
`output_text` parts); the tokens in `usage.input_tokens` / `usage.output_tokens`.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

# (call id, tool name, arguments: decoded JSON when they parse, else the text as sent)
Call = tuple[str, str, Any]


class ResponsesShape(ValueError):
    """An answer that is not the Responses API's shape (the message says what is missing)."""


def _parts(content: Any, kind: str) -> list[dict[str, Any]]:
    """A chat message's content as Responses content parts of `kind`."""
    if isinstance(content, str):
        return [{"type": kind, "text": content}]
    parts: list[dict[str, Any]] = []
    for part in content if isinstance(content, list) else []:
        if isinstance(part, dict) and isinstance(part.get("text"), str):
            parts.append({"type": kind, "text": part["text"]})
    return parts


def from_chat(chat: dict[str, Any]) -> dict[str, Any]:
    """The Responses request for a Chat Completions body (`model`, `temperature`,
    `tools`, `messages`; core/live/questions.py `body`), field for field: its system
    message `instructions`, its other messages `input` items, its tools flat."""
    out: dict[str, Any] = {"model": chat.get("model")}
    items: list[dict[str, Any]] = []
    for message in chat.get("messages", []):
        role = message.get("role")
        if role == "system" and "instructions" not in out and not items:
            out["instructions"] = message.get("content", "")
            continue
        kind = "output_text" if role == "assistant" else "input_text"
        items.append(
            {"type": "message", "role": role, "content": _parts(message.get("content"), kind)}
        )
    if "temperature" in chat:
        out["temperature"] = chat["temperature"]
    tools = []
    for tool in chat.get("tools", []):
        function = tool.get("function", {})
        tools.append(
            {
                "type": "function",
                "name": function.get("name"),
                "description": function.get("description", ""),
                "parameters": function.get("parameters", {}),
                "strict": False,
            }
        )
    if tools:
        out["tools"] = tools
    out["input"] = items
    return out


def read_output(data: dict[str, Any]) -> tuple[list[Call], str, int, int]:
    """(tool calls, the text, input tokens, output tokens) of a Responses answer."""
    output = data.get("output")
    if not isinstance(output, list):
        raise ResponsesShape("no 'output' list in the answer")
    calls: list[Call] = []
    texts: list[str] = []
    for n, item in enumerate(output):
        if not isinstance(item, dict):
            continue
        if item.get("type") == "function_call":
            arguments = item.get("arguments")
            if isinstance(arguments, str):
                with contextlib.suppress(ValueError):  # else kept as text: a path may be in it
                    arguments = json.loads(arguments)
            call_id = item.get("call_id")
            name = item.get("name")
            calls.append(
                (
                    call_id if isinstance(call_id, str) and call_id else f"call_{n}",
                    name if isinstance(name, str) else "",
                    arguments,
                )
            )
        elif item.get("type") == "message":
            content = item.get("content")
            for part in content if isinstance(content, list) else []:
                if isinstance(part, dict) and isinstance(part.get("text"), str):
                    texts.append(part["text"])
    found = data.get("usage")
    usage: dict[str, Any] = found if isinstance(found, dict) else {}
    counts = [usage.get("input_tokens"), usage.get("output_tokens")]
    tokens = [t if isinstance(t, int) and t >= 0 else 0 for t in counts]
    return calls, " ".join(texts).strip(), tokens[0], tokens[1]
