"""Gemini's `generateContent` (`POST {base}/models/{model}:generateContent`, the key in
`x-goog-api-key`), the API Gemini CLI speaks: the request body made from the Chat
Completions one the reconstruction builds, an answer's `functionCall` parts read back as
tool calls and text, and a later turn's `functionResponse` parts.

The body (docs/agents.md has the sources): the system prompt (and a developer message)
as `systemInstruction: {"parts": [{"text"}]}`; every other message a `contents` item
`{"role": "user" | "model", "parts": [{"text"}]}`; the tools as one
`{"functionDeclarations": [{"name", "description", "parametersJsonSchema"}]}` (Gemini
CLI's `activate_skill` declares its `name` an enum of the listed names, so a name not
listed cannot be asked for); the temperature in `generationConfig`. The model is not in
the body: it is in the URL (endpoints.Endpoint.url_for).

The answer: `candidates[0].content.parts`, each a `functionCall` (`name`, `args`: an
object; an `id` when the server gives one) or a `text`; the tokens in
`usageMetadata.promptTokenCount` / `candidatesTokenCount`; the model that answered in
`modelVersion`. A later turn (core/live/turns.py) appends the candidate's content as
received (role `model`: its parts kept whole, a thought signature included) and a
`user` turn of one `functionResponse` part per call (`name`, `response: {"output"}`).
"""

from __future__ import annotations

from typing import Any

# (call id, tool name, arguments: the object as sent)
Call = tuple[str, str, Any]


class GeminiShape(ValueError):
    """An answer that is not generateContent's shape (the message says what is missing)."""


def _parts(content: Any) -> list[dict[str, Any]]:
    """A chat message's content as Gemini text parts."""
    if isinstance(content, str):
        return [{"text": content}]
    return [
        {"text": part["text"]}
        for part in (content if isinstance(content, list) else [])
        if isinstance(part, dict) and isinstance(part.get("text"), str)
    ]


def from_chat(chat: dict[str, Any]) -> dict[str, Any]:
    """The generateContent request for a Chat Completions body (`temperature`, `tools`,
    `messages`; core/live/questions.py `body`): its system and developer messages the
    system instruction, its other messages `contents`, its tools one set of function
    declarations; `model` left out (it goes in the URL)."""
    system: list[dict[str, Any]] = []
    contents: list[dict[str, Any]] = []
    for message in chat.get("messages", []):
        role = message.get("role")
        parts = _parts(message.get("content"))
        if role in ("system", "developer"):
            system.extend(parts)
        else:
            contents.append({"role": "model" if role == "assistant" else "user", "parts": parts})
    out: dict[str, Any] = {}
    if system:
        out["systemInstruction"] = {"parts": system}
    out["contents"] = contents
    declarations = []
    for tool in chat.get("tools", []):
        function = tool.get("function", {})
        declarations.append(
            {
                "name": function.get("name"),
                "description": function.get("description", ""),
                "parametersJsonSchema": function.get("parameters", {}),
            }
        )
    if declarations:
        out["tools"] = [{"functionDeclarations": declarations}]
    if "temperature" in chat:
        out["generationConfig"] = {"temperature": chat["temperature"]}
    return out


def _content(data: dict[str, Any]) -> dict[str, Any]:
    """The first candidate's content ({} when the candidate has none: a blocked or
    empty answer is no tool call and no text)."""
    candidates = data.get("candidates")
    if not isinstance(candidates, list) or not candidates:
        raise GeminiShape("no 'candidates' in the answer")
    first = candidates[0]
    if not isinstance(first, dict):
        raise GeminiShape("the answer's first candidate is not an object")
    content = first.get("content")
    return content if isinstance(content, dict) else {}


def read_output(data: dict[str, Any]) -> tuple[list[Call], str, int, int]:
    """(tool calls, the text, input tokens, output tokens) of a generateContent answer.
    A call the model gave no id gets `call_<n>`; a thought part's text is not the
    answer's text."""
    parts = _content(data).get("parts")
    calls: list[Call] = []
    texts: list[str] = []
    for n, part in enumerate(parts if isinstance(parts, list) else []):
        if not isinstance(part, dict):
            continue
        call = part.get("functionCall")
        if isinstance(call, dict):
            name, call_id = call.get("name"), call.get("id")
            calls.append(
                (
                    call_id if isinstance(call_id, str) and call_id else f"call_{n}",
                    name if isinstance(name, str) else "",
                    call.get("args"),
                )
            )
        elif isinstance(part.get("text"), str) and part.get("thought") is not True:
            texts.append(part["text"])
    found = data.get("usageMetadata")
    usage: dict[str, Any] = found if isinstance(found, dict) else {}
    counts = [usage.get("promptTokenCount"), usage.get("candidatesTokenCount")]
    tokens = [t if isinstance(t, int) and t >= 0 else 0 for t in counts]
    return calls, " ".join(texts).strip(), tokens[0], tokens[1]


def follow_up(body: dict[str, Any], data: dict[str, Any], result: str) -> dict[str, Any]:
    """`body` (the request just sent) with the answer's content appended as the model
    sent it, and a user turn answering each of its calls with `result`."""
    answered = _content(data)
    parts = answered.get("parts")
    kept = [p for p in parts if isinstance(p, dict)] if isinstance(parts, list) else []
    responses = []
    for part in kept:
        call = part.get("functionCall")
        if not isinstance(call, dict):
            continue
        name = call.get("name")
        response: dict[str, Any] = {
            "name": name if isinstance(name, str) else "",
            "response": {"output": result},
        }
        if isinstance(call.get("id"), str):  # an id the server gave is named back
            response["id"] = call["id"]
        responses.append({"functionResponse": response})
    out = dict(body)
    out["contents"] = [
        *body.get("contents", []),
        {"role": "model", "parts": kept},
        {"role": "user", "parts": responses},
    ]
    return out


def reported_model(data: dict[str, Any]) -> str:
    """The model id a generateContent answer names (`modelVersion`), or ""."""
    found = data.get("modelVersion")
    return found if isinstance(found, str) else ""
