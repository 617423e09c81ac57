"""What a live check sent and what came back, as text a person reads (the app's Ask a
model shows it; `eval --show-request` prints the same body): the request's bytes, its
sha256 and its body pretty-printed (the key is never in a body: it goes in a header,
and no header is shown here), and each run's answer: the pick, the model's own words
(a prose answer shows why a run picked no skill), the tool it called, the answer as
received. Everything a server wrote is bounded and escaped before it is shown.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from ..model.text import counted
from . import gemini_api, responses_api
from .questions import MAX_RAW, Answer

MAX_SHOWN_BODY = 200_000  # characters of a request body shown (a huge listing is cut)
_KEPT = {"\n", "\t"}


def visible(text: str, limit: int | None = None) -> str:
    """`text` with control, format (bidi, zero-width) and surrogate characters escaped
    as `\\uXXXX` (newlines and tabs kept), cut to `limit` characters with "…"."""
    if limit is not None and len(text) > limit:
        text = text[: max(limit - 1, 0)] + "…"
    out = []
    for char in text:
        if char not in _KEPT and unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp"):
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class RequestShown:
    """One request as shown: where it goes, its size and digest, its body pretty."""

    url: str
    size: int  # bytes sent
    sha256: str
    body: str  # pretty-printed, escaped, bounded

    @property
    def title(self) -> str:
        return f"{counted(self.size, 'byte')}, sha256 {self.sha256[:12]}…"


def request_shown(url: str, content: bytes, sha256: str) -> RequestShown:
    """The request `content` (the exact bytes sent to `url`) as shown."""
    try:
        pretty = json.dumps(json.loads(content), ensure_ascii=False, indent=2)
    except ValueError:
        pretty = content.decode("utf-8", "replace")
    return RequestShown(url, len(content), sha256, visible(pretty, MAX_SHOWN_BODY))


def _tool_calls(raw: str) -> list[str]:
    """The tool calls in an answer as received (any API), as `name(arguments)`."""
    try:
        data = json.loads(raw)
    except ValueError:  # cut at MAX_RAW, or not JSON
        return []
    found: list[str] = []
    if not isinstance(data, dict):
        return found
    for part in data.get("content") or []:  # Anthropic Messages
        if isinstance(part, dict) and part.get("type") == "tool_use":
            args = json.dumps(part.get("input"), ensure_ascii=False)
            found.append(f"{part.get('name')}({args})")
    for choice in data.get("choices") or []:  # OpenAI Chat Completions
        message = choice.get("message") if isinstance(choice, dict) else None
        calls = message.get("tool_calls") if isinstance(message, dict) else None
        for call in calls if isinstance(calls, list) else []:
            function = call.get("function") if isinstance(call, dict) else None
            if isinstance(function, dict):
                found.append(f"{function.get('name')}({function.get('arguments')})")
    read: list[tuple[str, str, object]] = []
    if isinstance(data.get("output"), list):  # the Responses API
        read = responses_api.read_output(data)[0]
    elif isinstance(data.get("candidates"), list) and data["candidates"]:  # Gemini
        read = gemini_api.read_output(data)[0]
    for _, name, arguments in read:
        found.append(f"{name}({json.dumps(arguments, ensure_ascii=False)})")
    return found


def answer_shown(run: int, answer: Answer) -> str:
    """One run's answer, a few lines: the pick (or the error), the model's words, the
    tool it called, the answer as received (at most MAX_RAW characters)."""
    if answer.error:
        head = f"Run {run}: no answer: {answer.error}"
    elif answer.harness:
        head = f"Run {run}: {answer.pick} (the agent's harness; no model was asked)"
    else:
        pick = answer.pick or "no skill"
        if answer.unlisted:
            pick += " (not a listed skill)"
        head = f"Run {run}: {pick}" + (" (from the cache)" if answer.cached else "")
        if answer.pick and answer.turn > 1:
            head += f" (at turn {answer.turn})"
    lines = [visible(head, 400)]
    if answer.reported_model:
        lines.append(visible(f"  model: {answer.reported_model}", 240))
    if answer.text:
        lines.append("  said: " + visible(answer.text, 600).replace("\n", "\n        "))
    if len(answer.exchanges) > 1:  # each turn's calls and answer, as received
        for went in answer.exchanges:
            for call in _tool_calls(went.raw)[:5]:
                lines.append(f"  turn {went.turn} called: " + visible(call, 600))
            lines.append(f"  turn {went.turn} as received: " + visible(went.raw, MAX_RAW))
        return "\n".join(lines)
    for call in _tool_calls(answer.raw)[:5]:
        lines.append("  called: " + visible(call, 600))
    if answer.raw:
        lines.append("  as received: " + visible(answer.raw, MAX_RAW))
    return "\n".join(lines)


def later_turns_shown(answers: Sequence[Answer]) -> str:
    """The requests of the later turns, run by run (a later turn's request differs by
    run: it carries that run's answers): each one's size and sha256, and what it adds
    to the turn before it (the model's answer and the stub results), so its bytes are
    the request before it with these appended. A run from the cache has its later turns'
    digests only. "" when no run took a second turn."""
    blocks: list[str] = []
    for run, answer in enumerate(answers, 1):
        for went in answer.exchanges[1:]:
            size = counted(went.size, "byte")
            blocks.append(
                f"Run {run}, turn {went.turn} ({size}, sha256 {went.sha256[:12]}…): the "
                f"request of turn {went.turn - 1} with these appended:\n{went.added}"
            )
        if not answer.exchanges and answer.turn_sha256:
            digests = ", ".join(d[:12] + "…" for d in answer.turn_sha256)
            blocks.append(f"Run {run}: later turns from the cache, sha256 {digests}")
    return visible("\n\n".join(blocks), MAX_SHOWN_BODY)
