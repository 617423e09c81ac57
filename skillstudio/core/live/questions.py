"""The agent's own question: the request each agent sends, built from its profile's own
listing (core/delivery/tiers.py), with the listing in the agent's place and the agent's
tool declared, then the user's request; and the answer read as the agent reads it.

A profile says how its agent asks with the class attribute `live_style` (a key of
STYLES; a profile that declares none asks as Gemini CLI does: the listing in the system
prompt and an `activate_skill` tool). No skill body is ever sent and no tool is executed:
one exchange per run, or up to K with stub tool results (core/live/turns.py). Beside its
skill tool a style declares the agent's other tools (core/live/agent_tools.py). The tool
descriptions are short reconstructions written for this project from each agent's
documentation (docs/live.md, docs/agents.md), not the agents' own text.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field
from typing import Any, Literal

from ..model.skills import Skill
from ..profile import Profile
from . import gemini_api, responses_api
from .agent_tools import (
    CLAUDE_BASH,
    CLAUDE_READ,
    CODEX_SHELL_COMMAND_PARAMETERS,
    OtherTool,
    closed,
)
from .endpoints import Endpoint
from .reads import read_pick

Place = Literal["message", "tool", "developer", "system"]
MAX_TOKENS = 1024  # the Messages API requires a bound on the answer
MAX_TEXT = 300  # characters of an answer's text kept in reports and the cache
MAX_RAW = 4000  # characters of the answer as received kept in reports and the cache
MAX_MODEL = 200  # characters of the model id a server reports
# The version of the requests built here (the reconstructions), part of the cache key:
# raise it when a change the request's bytes do not show (how an answer is read) must
# not replay the answers cached before it.
TEMPLATE = "reconstruction/2"


@dataclass(frozen=True, slots=True)
class Style:
    """How an agent asks: where its listing goes ("message": a text block of the user's
    turn before the request; "tool": the skill tool's description; "developer": a
    developer message; "system": the system prompt), the tool it declares and the
    argument naming the skill ("" when the model reads the listed SKILL.md itself), and
    the agent's other tools, declared after the skill tool."""

    key: str
    agent: str  # in words, for reports
    place: Place
    tool: str
    tool_text: str
    argument: str = ""
    parameters: dict[str, Any] = field(default_factory=dict)
    others: tuple[OtherTool, ...] = ()


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


_NAME_ONLY = _object({"name": {"type": "string", "description": "The skill's name."}}, ["name"])

STYLES: dict[str, Style] = {
    s.key: s
    for s in (
        Style(
            "skill-tool",
            "Claude Code (the Skill tool; the listing in a <system-reminder> of the turn)",
            "message",
            "Skill",
            "Execute a skill within the main conversation. When the user's task matches one "
            "of the available skills, invoke this tool with the skill's name before doing "
            "anything else; the skill's instructions are then loaded. Only invoke a skill "
            "that is listed as available.",
            "skill",
            closed(
                {
                    "skill": {"type": "string", "description": "The skill name."},
                    "args": {"type": "string", "description": "Optional arguments."},
                },
                ["skill"],
            ),
            (CLAUDE_BASH, CLAUDE_READ),
        ),
        Style(
            "skill-tool-listing",
            "a Skill tool whose description holds the listing",
            "tool",
            "Skill",
            "Load a skill's full instructions by its name when the task matches it.",
            "name",
            _NAME_ONLY,
        ),
        Style(
            "skills-instructions",
            "Codex CLI (the <skills_instructions> developer message; the model opens the "
            "SKILL.md with its shell tool)",
            "developer",
            "shell_command",
            "Runs a shell script and returns its output.",
            "",
            CODEX_SHELL_COMMAND_PARAMETERS,
        ),
        Style(
            "use-skill",
            "the listing in the system prompt and a use_skill tool",
            "system",
            "use_skill",
            "Invoke a skill by its name to load its instructions.",
            "name",
            _NAME_ONLY,
        ),
        Style(
            "activate-skill",
            "Gemini CLI style (the listing in the system prompt, an activate_skill tool)",
            "system",
            "activate_skill",
            "Activates a specialized agent skill by name. Returns the skill's instructions. "
            "Use it when a task matches one of the available skills' descriptions.",
            "name",
            _NAME_ONLY,
        ),
    )
}
DEFAULT_STYLE = "activate-skill"


def style_of(profile: Profile) -> Style:
    """The profile's declared style (`live_style`), else Gemini CLI's."""
    key = getattr(profile, "live_style", DEFAULT_STYLE)
    return STYLES.get(key if isinstance(key, str) else DEFAULT_STYLE, STYLES[DEFAULT_STYLE])


@dataclass(frozen=True, slots=True)
class Question:
    """What an agent sends for one request (without the model, the temperature and the
    wire format: `body` adds them)."""

    style: Style
    listing: str  # the profile's tier-2 text, exactly
    query: str
    listed: tuple[str, ...]  # names as the listing shows them, each once
    paths: tuple[tuple[str, str], ...]  # (SKILL.md path as listed, name) for read styles
    # the agent's own declaration of its skill tool, when known (Profile.skill_tool:
    # Gemini CLI's `activate_skill`, its `name` an enum of the listed names)
    declared: dict[str, Any] | None = None


def question(
    profile: Profile, listing: str, listed: list[str], skills: list[Skill], query: str
) -> Question:
    """The question for `query`, from a rendered listing and the skills it lists. A
    skill whose name another has is listed by its qualified key (Claude Code's
    `apps/web:deploy`): that is the name the listing shows, so the name a model may
    answer."""
    style = style_of(profile)
    names = set(listed)
    shown = dict.fromkeys(listed)
    paths: list[tuple[str, str]] = []
    for s in skills:
        if s.name not in names:
            continue
        name = s.name
        if s.key and s.key != s.name and f"- {s.key}" in listing:
            shown[s.key] = None
            name = s.key
        paths.append((s.path.replace(os.sep, "/"), name))
    declared = profile.skill_tool(list(shown)) if shown else None
    if declared is not None and declared.get("name") != style.tool:
        declared = None  # another tool than the style's: its reconstruction stands
    return Question(style, listing, query, tuple(shown), tuple(paths), declared)


def _tool(name: str, api: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    if api == "anthropic":
        return {"name": name, "description": description, "input_schema": parameters}
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    }


def body(q: Question, endpoint: Endpoint, model: str, temperature: float) -> dict[str, Any]:
    """The request body, field for field, for the endpoint's API. With no skill listed
    a skill tool is not declared (Gemini CLI declares `activate_skill` only beside
    skills); `plan` sends no such request at all."""
    style, api = q.style, endpoint.api
    description, parameters = style.tool_text, style.parameters
    if q.declared is not None:
        description = str(q.declared.get("description", description))
        found = q.declared.get("parametersJsonSchema")
        parameters = found if isinstance(found, dict) else parameters
    if style.place == "tool":
        description = f"{description}\n\n{q.listing}"
    system = ""
    messages: list[dict[str, Any]] = []
    if style.place == "system" or (style.place == "developer" and api in ("anthropic", "gemini")):
        system = q.listing
    elif style.place == "developer":
        role = "developer" if api == "responses" else endpoint.developer_role
        messages.append({"role": role, "content": q.listing})
    if style.place == "message":
        content: Any = [{"type": "text", "text": q.listing}, {"type": "text", "text": q.query}]
    else:
        content = q.query
    messages.append({"role": "user", "content": content})
    out: dict[str, Any] = {"model": model}
    if api == "anthropic":
        out["max_tokens"] = MAX_TOKENS
        if system:
            out["system"] = system
    elif system:
        messages.insert(0, {"role": "system", "content": system})
    out["temperature"] = temperature
    tools = [_tool(t.name, api, t.description, t.parameters) for t in style.others]
    if q.listed or not style.argument:
        tools.insert(0, _tool(style.tool, api, description, parameters))
    if tools:
        out["tools"] = tools
    out["messages"] = messages
    if api == "responses":
        return responses_api.from_chat(out)
    return gemini_api.from_chat(out) if api == "gemini" else out


def encode(data: dict[str, Any]) -> bytes:
    """The bytes sent: compact JSON, UTF-8 (pinned by tests/live/fixtures)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


@dataclass(frozen=True, slots=True)
class Exchange:
    """One turn of a run as it went, this session only (never cached or reported): the
    size and sha256 of the bytes sent, what the turn's request added to the one before
    it (the model's answer and the stub results, as JSON text; "" for the first turn,
    whose body is the plan's), and the answer as received (at most MAX_RAW characters).
    The app shows every turn of a run from it (gui/panels/live_exchange.py)."""

    turn: int
    size: int
    sha256: str
    added: str
    raw: str


@dataclass(slots=True)
class Answer:
    """One run's answer as the agent reads it: the skill picked (None: no skill), the
    name the model called when it is not a listed skill, a bounded excerpt of its text,
    the tokens it reports, or the error that left the run without an answer; and what
    it answers: the digest of the request bytes sent, the model id the server reported,
    the answer as received (redacted, at most MAX_RAW characters), SkillStudio's
    version when it was asked. `harness`: the agent's harness picked it from the
    request's `/name` (no model was asked). `turn`: the exchange the pick came at (1 the
    first; 0 no pick, or an answer cached before turns were counted);
    `turn_sha256`: the digest of each later turn's request bytes (core/live/turns.py);
    `exchanges`: each turn as it went, for a run sent now (empty from the cache)."""

    pick: str | None = None
    unlisted: bool = False
    text: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    error: str = ""
    cached: bool = False
    date: str = ""
    harness: bool = False
    request_sha256: str = ""
    reported_model: str = ""
    raw: str = ""
    version: str = ""
    turn: int = 0
    turn_sha256: list[str] = field(default_factory=list)
    exchanges: list[Exchange] = field(default_factory=list)  # sent now: not in to_json

    def to_json(self) -> dict[str, Any]:
        return {
            "pick": self.pick,
            "unlisted": self.unlisted,
            "text": self.text,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "error": self.error or None,
            "date": self.date,
            "harness": self.harness,
            "request_sha256": self.request_sha256 or None,
            "reported_model": self.reported_model or None,
            "raw": self.raw or None,
            "skillstudio_version": self.version or None,
            "turn": self.turn or None,
            "turn_sha256": list(self.turn_sha256),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Answer:
        def num(key: str) -> int:
            value = data.get(key)
            return value if isinstance(value, int) and value >= 0 else 0

        pick = data.get("pick")
        return cls(
            pick if isinstance(pick, str) else None,
            data.get("unlisted") is True,
            str(data.get("text") or "")[:MAX_TEXT],
            num("input_tokens"),
            num("output_tokens"),
            str(data.get("error") or ""),
            True,
            str(data.get("date") or ""),
            request_sha256=_text(data, "request_sha256", 64),
            reported_model=_text(data, "reported_model", MAX_MODEL),
            raw=_text(data, "raw", MAX_RAW),
            version=_text(data, "skillstudio_version", 40),
            turn=num("turn"),
            turn_sha256=_digests(data.get("turn_sha256")),
        )


def _digests(value: Any) -> list[str]:
    """A cached list of request digests, each a sha256 in hex (at most 64 kept)."""
    items = value if isinstance(value, list) else []
    return [v for v in items[:64] if isinstance(v, str) and len(v) == 64]


def _text(data: dict[str, Any], key: str, limit: int) -> str:
    value = data.get(key)
    return value[:limit] if isinstance(value, str) else ""


def raw_text(data: Any) -> str:
    """The answer as received (decoded JSON, the key already redacted: client.send),
    compact, at most MAX_RAW characters (a longer one ends in "…")."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= MAX_RAW else text[: MAX_RAW - 1] + "…"


def reported_model(data: Any) -> str:
    """The model id the server says answered (`model` in the Messages, Chat Completions
    and Responses answers, `modelVersion` in Gemini's), or ""."""
    if not isinstance(data, dict):
        return ""
    model = data.get("model")
    found = model if isinstance(model, str) else gemini_api.reported_model(data)
    return found[:MAX_MODEL]


class MalformedAnswer(ValueError):
    """A response that is not the API's JSON shape."""


def _calls(data: dict[str, Any], api: str) -> tuple[list[tuple[str, Any]], str, int, int]:
    """(tool calls as (name, arguments), text, input tokens, output tokens)."""
    calls: list[tuple[str, Any]] = []
    texts: list[str] = []
    found = data.get("usage")
    usage: dict[str, Any] = found if isinstance(found, dict) else {}
    if api in ("responses", "gemini"):
        read = responses_api.read_output if api == "responses" else gemini_api.read_output
        try:
            called, text, tokens_in, tokens_out = read(data)
        except (responses_api.ResponsesShape, gemini_api.GeminiShape) as exc:
            raise MalformedAnswer(str(exc)) from None
        return [(name, arguments) for _, name, arguments in called], text, tokens_in, tokens_out
    if api == "anthropic":
        content = data.get("content")
        if not isinstance(content, list):
            raise MalformedAnswer("no 'content' list in the answer")
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use":
                calls.append((str(block.get("name", "")), block.get("input")))
            elif block.get("type") == "text":
                texts.append(str(block.get("text", "")))
        tokens = usage.get("input_tokens"), usage.get("output_tokens")
    else:
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise MalformedAnswer("no 'choices' in the answer")
        message = choices[0].get("message")
        if not isinstance(message, dict):
            raise MalformedAnswer("no 'message' in the answer's first choice")
        tool_calls = message.get("tool_calls")
        for call in tool_calls if isinstance(tool_calls, list) else []:
            function = call.get("function") if isinstance(call, dict) else None
            if not isinstance(function, dict):
                continue
            arguments = function.get("arguments")
            if isinstance(arguments, str):
                with contextlib.suppress(ValueError):  # else kept as text: a path may be in it
                    arguments = json.loads(arguments)
            calls.append((str(function.get("name", "")), arguments))
        if isinstance(message.get("content"), str):
            texts.append(message["content"])
        tokens = usage.get("prompt_tokens"), usage.get("completion_tokens")
    counts = [t if isinstance(t, int) and t >= 0 else 0 for t in tokens]
    return calls, " ".join(texts).strip(), counts[0], counts[1]


def answer_text(data: Any, api: str) -> str:
    """The text of a plain answer (no tool asked for), in the API's shape; MalformedAnswer
    when it is not that shape (`skillstudio suggest`: core/projects/suggest.py)."""
    if not isinstance(data, dict):
        raise MalformedAnswer("the answer is not a JSON object")
    return _calls(data, api)[1]


def read_answer(q: Question, data: Any, api: str) -> Answer:
    """The answer as the agent reads it: the first call of the skill tool naming a
    skill, or (read styles) the first tool call that runs a read command on a listed
    SKILL.md's exact path (core/live/reads.py); plain text is no skill."""
    if not isinstance(data, dict):
        raise MalformedAnswer("the answer is not a JSON object")
    calls, text, tokens_in, tokens_out = _calls(data, api)
    answer = Answer(text=text[:MAX_TEXT], input_tokens=tokens_in, output_tokens=tokens_out)
    style = q.style
    for name, arguments in calls:
        if not style.argument:
            found = read_pick(arguments, q.paths)
            if found is not None:
                answer.pick = found
                return answer
            continue
        if name != style.tool or not isinstance(arguments, dict):
            continue
        value = arguments.get(style.argument)
        if not isinstance(value, str):
            value = next(
                (
                    arguments.get(k)
                    for k in ("skill", "name", "command")
                    if isinstance(arguments.get(k), str)
                ),
                None,
            )
        if isinstance(value, str) and value.strip():
            picked = value.strip().lstrip("/$")[:200]
            answer.pick = picked
            answer.unlisted = picked not in q.listed
            return answer
    return answer
