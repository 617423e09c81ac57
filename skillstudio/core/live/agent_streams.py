"""The skill a real agent invoked, read from its own event stream (`eval --agent-cli`).

Each agent's CLI, run non-interactively, prints one JSON object a line (docs/agents.md,
"The real agent's CLI": the formats, their sources and the date they were read):

- Claude Code (`claude -p --output-format stream-json --verbose`): a `system` event
  (subtype `init`, the `model`), `assistant` and `user` events wrapping a Messages API
  message, and a closing `result` (`usage`, `is_error`). A pick is an assistant
  message's `tool_use` block named `Skill`; the skill is its input's `skill` (older
  versions: `command`), a leading `/` dropped.
- Codex (`codex exec --json`): `thread.started`, `turn.started`, `item.started` /
  `item.updated` / `item.completed` (an item's kind in `type`; `item_type` in the
  first versions), `turn.completed` (`usage`), `turn.failed` and `error`. A pick is a
  `command_execution` item whose command reads a listed SKILL.md's exact path, as
  core/live/reads.py counts a read (the command runs in the throwaway folder).
- Gemini CLI (`--output-format stream-json`): `init` (`model`), `message` (role,
  content, `delta`), `tool_use` (`tool_name`, `parameters`), `tool_result`, `error`,
  `result` (`status`, `stats`). A pick is a `tool_use` of `activate_skill`; the skill
  is its `name` parameter.

The first pick counts (the skill the agent invoked first). A line that is not JSON, or
not an object, is skipped (an agent may print a warning between events); at most
MAX_LINES lines and MAX_LINE bytes a line are looked at. The stream is untrusted: every
value is type-checked, and the text kept is bounded (questions.MAX_TEXT).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .questions import MAX_MODEL, MAX_TEXT
from .reads import read_pick

MAX_LINES = 20_000  # event lines looked at in one run's stream
MAX_LINE = 1_000_000  # bytes of one line parsed (a longer one, a tool's huge output: skipped)
MAX_NAME = 200  # characters of a skill name kept


@dataclass(slots=True)
class StreamRead:
    """What one run's stream says: the skill invoked (None: none), the model the agent
    reports, a bounded excerpt of its text, the tokens it reports, and the error the
    agent reported itself ("" none)."""

    pick: str | None = None
    model: str = ""
    text: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    error: str = ""
    events: int = 0  # JSON events read (0: the output held none)
    texts: list[str] = field(default_factory=list)


def events(stdout: bytes) -> Iterator[dict[str, Any]]:
    """The JSON objects of a stream, one a line; anything else is skipped."""
    for number, line in enumerate(stdout.splitlines()):
        if number >= MAX_LINES:
            return
        line = line.strip()
        if not line.startswith(b"{") or len(line) > MAX_LINE:
            continue
        try:
            found = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(found, dict):
            yield found


def _tokens(usage: Any, read: StreamRead, names: tuple[str, str]) -> None:
    if not isinstance(usage, dict):
        return
    values = [usage.get(names[0]), usage.get(names[1])]
    counts = [v if isinstance(v, int) and v >= 0 else 0 for v in values]
    read.input_tokens += counts[0]
    read.output_tokens += counts[1]


def _name(value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return None
    return value.strip().lstrip("/$")[:MAX_NAME] or None


def _model(value: Any) -> str:
    return value[:MAX_MODEL] if isinstance(value, str) else ""


def _note(read: StreamRead, text: Any) -> None:
    if isinstance(text, str) and text.strip() and sum(map(len, read.texts)) < MAX_TEXT:
        read.texts.append(text.strip())


def read_claude(
    stdout: bytes, paths: tuple[tuple[str, str], ...] = (), workdir: str = ""
) -> StreamRead:
    """Claude Code's stream-json: the first `Skill` tool_use of an assistant message
    (`paths` and `workdir` are not needed: the call names the skill)."""
    read = StreamRead()
    for event in events(stdout):
        read.events += 1
        kind = event.get("type")
        if kind == "system" and not read.model:
            read.model = _model(event.get("model"))
        elif kind == "assistant":
            message = event.get("message")
            content = message.get("content") if isinstance(message, dict) else None
            for block in content if isinstance(content, list) else []:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "text":
                    _note(read, block.get("text"))
                elif block.get("type") == "tool_use" and block.get("name") == "Skill":
                    given = block.get("input")
                    if isinstance(given, dict) and read.pick is None:
                        read.pick = _name(given.get("skill")) or _name(given.get("command"))
            if isinstance(message, dict) and not read.model:
                read.model = _model(message.get("model"))
        elif kind == "result":
            _tokens(event.get("usage"), read, ("input_tokens", "output_tokens"))
            if event.get("is_error") is True:
                read.error = f"the agent reported an error ({_model(event.get('subtype'))})"
    return _done(read)


def read_codex(stdout: bytes, paths: tuple[tuple[str, str], ...], workdir: str) -> StreamRead:
    """Codex's exec --json: the first command_execution item reading a listed SKILL.md
    (`workdir`: the folder the commands ran in, for relative paths)."""
    read = StreamRead()
    for event in events(stdout):
        read.events += 1
        kind = event.get("type")
        item = event.get("item")
        if kind in ("item.started", "item.updated", "item.completed") and isinstance(item, dict):
            what = item.get("type", item.get("item_type"))
            if what in ("agent_message", "assistant_message") and kind == "item.completed":
                _note(read, item.get("text"))
            elif what == "command_execution" and read.pick is None:
                command = item.get("command")
                if isinstance(command, (str, list)):
                    read.pick = read_pick({"command": command, "workdir": workdir}, paths)
        elif kind == "turn.completed":
            _tokens(event.get("usage"), read, ("input_tokens", "output_tokens"))
        elif kind in ("turn.failed", "error"):
            found = event.get("error") if kind == "turn.failed" else event
            message = found.get("message") if isinstance(found, dict) else None
            read.error = f"the agent reported an error: {_model(message) or kind}"
    return _done(read)


def read_gemini(
    stdout: bytes, paths: tuple[tuple[str, str], ...] = (), workdir: str = ""
) -> StreamRead:
    """Gemini CLI's stream-json: the first `activate_skill` tool_use (`paths` and
    `workdir` are not needed: the call names the skill)."""
    read = StreamRead()
    for event in events(stdout):
        read.events += 1
        kind = event.get("type")
        if kind == "init":
            read.model = _model(event.get("model"))
        elif kind == "message" and event.get("role") == "assistant":
            _note(read, event.get("content"))
        elif kind == "tool_use" and event.get("tool_name") == "activate_skill":
            parameters = event.get("parameters")
            if isinstance(parameters, dict) and read.pick is None:
                read.pick = _name(parameters.get("name"))
        elif kind == "result":
            stats = event.get("stats")
            _tokens(stats, read, ("input_tokens", "output_tokens"))
            if event.get("status") == "error":
                found = event.get("error")
                message = found.get("message") if isinstance(found, dict) else None
                read.error = f"the agent reported an error: {_model(message) or 'error'}"
    return _done(read)


def _done(read: StreamRead) -> StreamRead:
    read.text = " ".join(read.texts)[:MAX_TEXT]
    read.texts = []
    return read


Reader = Callable[[bytes, tuple[tuple[str, str], ...], str], StreamRead]
