"""Where an agent's captured request holds its skills listing and the user's request
(docs/agents.md, "Captured requests"), so a capture becomes a template: each is replaced
by its placeholder (core/live/templates.py) and the rest of the body is kept as sent.

The listing is found by the agent's own structure, never by guessing:
- Claude Code: the `<system-reminder>` that opens "The following skills are available
  for use with the Skill tool:" (anywhere in the body: a text block of the user's turn
  in current versions), or, in versions that put it in the tool, the `<available_skills>`
  block of the `Skill` tool's description (bare `- ` lines there are not taken: the
  description's own bullets would be mistaken for skills);
- Codex: the `<skills_instructions>` … `</skills_instructions>` text (a developer or
  user message, in the Responses API's `input` or the Chat API's `messages`);
- Gemini CLI: the `# Available Agent Skills` section through `</available_skills>` of
  the system instruction; the `activate_skill` declaration's `enum` of names becomes
  the NAMES placeholder.
The user's request is the last user text of the body that is not a wrapper the agent
adds (a text starting with `<`: `<system-reminder>`, `<environment_context>`, … or
Codex's `# AGENTS.md instructions`).

Nothing is located by this module's reading alone when the structure is missing:
`locate` returns None and the capture says so and saves nothing.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .templates import LISTING, NAMES, REQUEST, TemplateApi

CLAUDE_REMINDER = re.compile(
    r"<system-reminder>\s*The following skills are available for use with the Skill tool:"
    r".*?</system-reminder>",
    re.DOTALL,
)
CLAUDE_TOOL_BLOCK = re.compile(r"<available_skills>.*?</available_skills>", re.DOTALL)
CODEX_BLOCK = re.compile(r"<skills_instructions>.*?</skills_instructions>", re.DOTALL)
GEMINI_BLOCK = re.compile(r"# Available Agent Skills\n.*?</available_skills>", re.DOTALL)
SKILL_TOOL = "Skill"  # Claude Code's skill tool
GEMINI_TOOL = "activate_skill"


@dataclass(frozen=True, slots=True)
class Located:
    """A captured body with its listing and request replaced by placeholders."""

    body: dict[str, Any]
    listing: str  # the listing text as captured
    request: str  # the request text as captured (not saved: the caller shows its size)


# A place in a JSON tree: the container and the key or index of a string in it.
Spot = tuple[Any, Any]


def _strings(data: Any) -> Iterator[Spot]:
    """Every string of the tree as (container, key), depth first in document order."""
    stack: list[Any] = [data]
    order: list[Spot] = []
    while stack:
        node = stack.pop()
        items = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
        children = []
        for key, value in items:
            if isinstance(value, str):
                order.append((node, key))
            elif isinstance(value, (dict, list)):
                children.append(value)
        stack.extend(reversed(children))
    yield from order


def _replace_first(body: dict[str, Any], pattern: re.Pattern[str]) -> str | None:
    for container, key in _strings(body):
        text = container[key]
        found = pattern.search(text)
        if found is not None:
            container[key] = text[: found.start()] + LISTING + text[found.end() :]
            return found.group(0)
    return None


def _claude_tool_listing(body: dict[str, Any]) -> str | None:
    """A listing in the Skill tool's description (older Claude Code versions)."""
    for tool in body.get("tools") or []:
        if not isinstance(tool, dict) or tool.get("name") != SKILL_TOOL:
            continue
        text = tool.get("description")
        if not isinstance(text, str):
            continue
        found = CLAUDE_TOOL_BLOCK.search(text)
        if found is None:
            continue
        listing = found.group(0).rstrip("\n")
        end = found.start() + len(listing)
        tool["description"] = text[: found.start()] + LISTING + text[end:]
        return listing
    return None


def _claude_code(body: dict[str, Any]) -> str | None:
    return _replace_first(body, CLAUDE_REMINDER) or _claude_tool_listing(body)


def _codex(body: dict[str, Any]) -> str | None:
    return _replace_first(body, CODEX_BLOCK)


def _gemini(body: dict[str, Any]) -> str | None:
    listing = _replace_first(body, GEMINI_BLOCK)
    if listing is None:
        return None
    for tool in body.get("tools") or []:
        for declared in (tool.get("functionDeclarations") or []) if isinstance(tool, dict) else []:
            if isinstance(declared, dict) and declared.get("name") == GEMINI_TOOL:
                _enum_to_names(declared)
    return listing


def _enum_to_names(declared: dict[str, Any]) -> None:
    """The `name` parameter's enum (the captured names) becomes [NAMES]."""
    for key in ("parametersJsonSchema", "parameters"):
        schema = declared.get(key)
        props = schema.get("properties") if isinstance(schema, dict) else None
        name = props.get("name") if isinstance(props, dict) else None
        if isinstance(name, dict) and isinstance(name.get("enum"), list):
            name["enum"] = [NAMES]


Finder = Callable[[dict[str, Any]], str | None]
# (agent, how its listing is found): the agents `capture --agent` knows
FINDERS: tuple[tuple[str, Finder], ...] = (
    ("claude-code", _claude_code),
    ("codex", _codex),
    ("gemini", _gemini),
)


def _user_texts(body: dict[str, Any], api: TemplateApi) -> Iterator[Spot]:
    """The user's texts, last first: (container, key) of each string."""
    if api == "gemini":
        turns = [t for t in body.get("contents") or [] if isinstance(t, dict)]
        for turn in reversed(turns):
            if turn.get("role", "user") != "user":
                continue
            parts = [p for p in turn.get("parts") or [] if isinstance(p, dict)]
            for part in reversed(parts):
                if isinstance(part.get("text"), str):
                    yield part, "text"
        return
    messages = body.get("input") if api == "openai-responses" else body.get("messages")
    if isinstance(messages, str) and api == "openai-responses":
        yield body, "input"
        return
    for message in reversed([m for m in messages or [] if isinstance(m, dict)]):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            yield message, "content"
            continue
        blocks = [b for b in content or [] if isinstance(b, dict)]
        for block in reversed(blocks):
            if block.get("type") in ("text", "input_text") and isinstance(block.get("text"), str):
                yield block, "text"


def _wrapper(text: str) -> bool:
    """A text the agent adds around the user's (a tagged block, AGENTS.md, a placeholder)."""
    head = text.lstrip()
    return head.startswith("<") or head.startswith("# AGENTS.md") or LISTING in text


def locate(agent: str, api: TemplateApi, body: dict[str, Any]) -> Located | None:
    """The body with the agent's listing and the user's last request replaced by
    placeholders, or None when either cannot be found (or the agent is unknown)."""
    finder = dict(FINDERS).get(agent)
    if finder is None:
        return None
    work = copy.deepcopy(body)
    listing = finder(work)
    if listing is None:
        return None
    for container, key in _user_texts(work, api):
        text = container[key]
        if text.strip() and not _wrapper(text):
            container[key] = REQUEST
            return Located(work, listing, text)
    return None
