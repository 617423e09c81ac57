"""K turns: a run as an agent's loop goes, up to K exchanges. When the model calls a
tool that is not the skill choice (Claude Code's `Bash` or `Read`, a Codex shell
command that reads no listed SKILL.md), the call is answered with a stub result and the
model is asked again; the run's pick is the first skill choice at any turn (a call of
the skill tool, a read of a listed SKILL.md: core/live/questions.py `read_answer`), and
the turn it came at is kept (`Answer.turn`).

The stub rule: every such call gets the same short result, STUB ("(no output)"), as
a command that printed nothing would; no tool is ever executed, no file is read. A
turn whose answer calls no tool ends the run (the agent's turn is over: no skill).

Each later turn's request is the first request's body with the model's answer (its
text and tool calls, as it sent them) and the stub results appended in the API's own
form: Anthropic `tool_use` blocks answered by `tool_result` blocks in a user message;
Chat Completions `tool_calls` answered by `tool` messages; the Responses API's
`function_call` items answered by `function_call_output` items; Gemini's `functionCall`
parts (the model's content kept as it came) answered by `functionResponse` parts. The
sha256 of each later turn's bytes is kept with the answer (`Answer.turn_sha256`); the
cache keeps the whole run under the first request's sha256 and the number of turns
(run.py). `--show-request` shows what a later turn appends (`added_by_turn`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from . import gemini_api
from .cache import request_digest
from .questions import Answer, Exchange, MalformedAnswer, Question, encode, raw_text, read_answer
from .responses_api import ResponsesShape, read_output
from .stats import CaseRuns

STUB = "(no output)"  # the result every tool call other than the skill choice gets
DEFAULT_TURNS = 1  # `eval --turns` and the app's turns when not given: ask once
MAX_TURNS = 8  # --turns at most (skill-creator's evaluation counts a trigger in 8 turns)

# (call id, tool name, arguments as sent: a JSON string for the OpenAI APIs)
Sent = tuple[str, str, Any]


def tool_calls(data: dict[str, Any], api: str) -> tuple[list[Sent], str]:
    """The tool calls of an answer, with the ids a tool result must name (an id the
    model left out is made up: `call_<n>`), and its whole text."""
    out: list[Sent] = []
    if api == "responses":
        try:
            called, said, _, _ = read_output(data)
        except ResponsesShape as exc:
            raise MalformedAnswer(str(exc)) from None
        for call_id, name, arguments in called:
            out.append((call_id, name, _json_text(arguments)))
        return out, said
    if api == "gemini":
        try:
            found_calls, said, _, _ = gemini_api.read_output(data)
        except gemini_api.GeminiShape as exc:
            raise MalformedAnswer(str(exc)) from None
        return found_calls, said
    if api == "anthropic":
        content = data.get("content")
        texts: list[str] = []
        for n, block in enumerate(content if isinstance(content, list) else []):
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use":
                out.append(
                    (_id(block.get("id"), n), str(block.get("name", "")), block.get("input"))
                )
            elif block.get("type") == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
        return out, " ".join(texts).strip()
    choices = data.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else None
    message = first.get("message") if isinstance(first, dict) else None
    found = message.get("tool_calls") if isinstance(message, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    for n, call in enumerate(found if isinstance(found, list) else []):
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            continue
        arguments = _json_text(function.get("arguments"))
        out.append((_id(call.get("id"), n), str(function.get("name", "")), arguments))
    return out, content.strip() if isinstance(content, str) else ""


def _json_text(arguments: Any) -> str:
    """Arguments as the OpenAI APIs carry them: a JSON string."""
    return arguments if isinstance(arguments, str) else json.dumps(arguments)


def _id(value: Any, n: int) -> str:
    return value if isinstance(value, str) and value else f"call_{n}"


def follow_up(
    body: dict[str, Any], api: str, calls: list[Sent], text: str, data: Any = None
) -> dict[str, Any]:
    """`body` (the request just sent) with the model's answer and a STUB result per
    tool call appended, in the API's own form (Gemini's from the answer `data` itself,
    whose parts are sent back whole)."""
    if api == "gemini":
        return gemini_api.follow_up(body, data if isinstance(data, dict) else {}, STUB)
    out = dict(body)
    if api == "responses":
        items = list(body.get("input", []))
        if text:
            reply = [{"type": "output_text", "text": text}]
            items.append({"type": "message", "role": "assistant", "content": reply})
        for call_id, name, arguments in calls:
            items.append(
                {"type": "function_call", "call_id": call_id, "name": name, "arguments": arguments}
            )
        items.extend(
            {"type": "function_call_output", "call_id": call_id, "output": STUB}
            for call_id, _, _ in calls
        )
        out["input"] = items
        return out
    messages = list(body.get("messages", []))
    if api == "anthropic":
        blocks: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        blocks.extend(
            {"type": "tool_use", "id": call_id, "name": name, "input": arguments}
            for call_id, name, arguments in calls
        )
        messages.append({"role": "assistant", "content": blocks})
        results = [
            {"type": "tool_result", "tool_use_id": call_id, "content": STUB}
            for call_id, _, _ in calls
        ]
        messages.append({"role": "user", "content": results})
    else:
        messages.append(
            {
                "role": "assistant",
                "content": text or None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": name, "arguments": arguments},
                    }
                    for call_id, name, arguments in calls
                ],
            }
        )
        messages.extend(
            {"role": "tool", "tool_call_id": call_id, "content": STUB} for call_id, _, _ in calls
        )
    out["messages"] = messages
    return out


# what a later turn carries back, in the words `--show-request` shows in its place
SHOWN_CALL: Sent = ("<call id>", "<the tool the model called>", "<its arguments, as sent>")


def turn_field(api: str) -> str:
    """The list of the body a later turn appends to, in the API's own form."""
    return {"responses": "input", "gemini": "contents"}.get(api, "messages")


def added_by_turn(api: str) -> tuple[str, list[Any]]:
    """What each later turn appends to the request before it, for `--show-request`:
    (the body's list it goes in, the items), the model's answer shown by placeholders
    (SHOWN_CALL: its bytes are known only once it answers), the stub result as sent."""
    field = turn_field(api)
    _, name, arguments = SHOWN_CALL
    data = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"functionCall": {"name": name, "args": arguments}}],
                }
            }
        ]
    }
    after = follow_up({field: []}, api, [SHOWN_CALL], "", data if api == "gemini" else None)
    return field, list(after[field])


def converse(
    q: Question, first: bytes, api: str, ask: Callable[[bytes], Any], turns: int = 1
) -> Answer:
    """A run of up to `turns` exchanges from the request bytes `first`: `ask` sends
    bytes and returns the decoded answer (client.send). The answer is the first skill
    choice at any turn, with the turn it came at, the tokens of every turn summed and
    the text of the last; no skill when a turn calls no tool or the turns run out."""
    content = first
    body: dict[str, Any] | None = None
    spent_in = spent_out = 0
    later: list[str] = []
    went: list[Exchange] = []
    added = ""
    for turn in range(1, max(1, turns) + 1):
        digest = request_digest(content)
        if turn > 1:
            later.append(digest)
        data = ask(content)
        went.append(Exchange(turn, len(content), digest, added, raw_text(data)))
        answer = read_answer(q, data, api)
        answer.exchanges = went
        spent_in += answer.input_tokens
        spent_out += answer.output_tokens
        answer.input_tokens, answer.output_tokens = spent_in, spent_out
        answer.turn_sha256 = later
        if answer.pick is not None:
            answer.turn = turn
            return answer
        if turn >= turns:
            return answer
        calls, text = tool_calls(data, api)
        if not calls:
            return answer
        body = json.loads(first) if body is None else body
        before = body
        body = follow_up(body, api, calls, text, data)
        added = appended(before, body, api)
        content = encode(body)
    raise AssertionError("unreachable: the last turn returns")  # pragma: no cover


def appended(before: dict[str, Any], after: dict[str, Any], api: str) -> str:
    """What follow_up added to a request (the messages or input items after the ones
    `before` had), as indented JSON: a later turn's request is `before` with these."""
    key = turn_field(api)
    old, new = before.get(key) or [], after.get(key) or []
    return json.dumps(new[len(old) :], ensure_ascii=False, indent=2)


def first_turn(answer: Answer) -> str | None:
    """The pick as a one-exchange run would have it: a pick at the first turn (or from
    the harness, or cached before turns were counted), else no skill."""
    return answer.pick if answer.turn <= 1 else None


def turn_rates(result: CaseRuns) -> dict[str, Any]:
    """A case's first-turn and any-turn trigger rates over its answered runs: for a
    judged case the runs that meet its expectation (a pick at a later turn is no pick
    for the first-turn rate), for a shown one the runs that pick a skill."""
    valid = result.valid
    case = result.case
    if case.judged:
        first = sum(case.hit(first_turn(a)) for a in valid)
        anywhere = sum(case.hit(a.pick) for a in valid)
    else:
        first = sum(first_turn(a) is not None for a in valid)
        anywhere = sum(a.pick is not None for a in valid)
    n = len(valid)
    return {
        "first_turn": {"hits": first, "answered": n, "rate": round(first / n, 4) if n else None},
        "any_turn": {
            "hits": anywhere,
            "answered": n,
            "rate": round(anywhere / n, 4) if n else None,
        },
    }
