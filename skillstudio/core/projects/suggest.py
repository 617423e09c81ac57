"""`skillstudio suggest`: requests for a suite drafted by a model, from a skill's name and
description and its neighbours' (the skills the likely ranking puts closest to its
description), never its body. Ones that should pick the skill, near misses that should
pick a neighbour or no skill, and out-of-scope ones; each deduplicated (against the
others and the suite's cases) and run through the leak check (core/ranking/leaks.py).

One request is sent, through the one client every live check uses (core/live/client.py:
bounded bodies, a deadline, redaction); the answer's text must be the JSON the prompt's
schema asks for, read with the bounded JSON reader (core/live/answer_json.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..checking.lookalike import text_problem
from ..live import gemini_api, responses_api
from ..live.answer_json import AnswerRefused, parse_answer
from ..live.client import SendError, new_client, send
from ..live.endpoints import Endpoint
from ..live.planning import CHARS_PER_TOKEN, Settings
from ..live.questions import MalformedAnswer, answer_text
from ..model.skills import Skill
from ..model.text import normalize
from ..ranking.leaks import Leak, LeakCheck
from ..ranking.likely_index import LikelyIndex
from ..ranking.likely_ranking import rank_likely
from ..ranking.resemblance import resemblance
from ..reading.skill_words import terms

if TYPE_CHECKING:  # (httpx loads in 0.1-0.5 s: at the first request, not at start)
    import httpx

Kind = Literal["should", "near", "out"]
KINDS: tuple[Kind, ...] = ("should", "near", "out")
KIND_WORDS = {"should": "should pick it", "near": "near miss", "out": "out of scope"}
NEIGHBOURS = 3  # the closest skills shown to the model
PER_KIND = 5  # requests asked for of each kind (the default)
MAX_PER_KIND = 20
MAX_DRAFTS = 100  # drafts read from one answer at most
MAX_DRAFT_CHARS = 1_000  # a longer draft is not a request a user types
MAX_DESCRIPTION_CHARS = 1_500  # of each description put in the prompt
ANSWER_TOKENS = 2_000  # the answer's bound (max_tokens), and the estimate's output
NEAR_DUPLICATE = 0.75  # content-word Jaccard at or above which two drafts are one


class SuggestError(Exception):
    """Drafts that could not be made; the message is plain and never holds a key."""


@dataclass(slots=True)
class Draft:
    """A drafted request: its kind, the skill it should pick (None: no skill), the leak
    it has (None: none), and `duplicate`: the text of the draft or case it repeats."""

    query: str
    kind: Kind
    expect: str | None
    leak: Leak | None = None
    duplicate: str = ""

    @property
    def kept(self) -> bool:
        """Whether `--write` appends it: neither leaking nor a duplicate."""
        return self.leak is None and not self.duplicate

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "kind": self.kind,
            "expect": self.expect,
            "leak": self.leak.to_json() if self.leak is not None else None,
            "duplicate": self.duplicate or None,
            "kept": self.kept,
        }


@dataclass(slots=True)
class Ask:
    """What is sent: the skill, its neighbours, the prompt, and the body's bytes."""

    skill: Skill
    neighbours: list[Skill]
    prompt: str
    content: bytes
    per_kind: int

    def tokens(self) -> tuple[int, int]:
        """(input, output) tokens, estimated as eval estimates them (chars / 4; the
        answer at its bound)."""
        return -(-len(self.content) // CHARS_PER_TOKEN), ANSWER_TOKENS

    def cost(self, price: tuple[float, float] | None) -> float | None:
        if price is None:
            return None
        sent, answered = self.tokens()
        return (sent * price[0] + answered * price[1]) / 1_000_000


@dataclass(slots=True)
class Suggestions:
    drafts: list[Draft]
    refused: int = 0  # items of the answer that were not a draft (wrong shape, kind, name)
    model: str = ""
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "drafts": [d.to_json() for d in self.drafts],
            "kept": sum(d.kept for d in self.drafts),
            "leaking": sum(d.leak is not None for d in self.drafts),
            "duplicates": sum(bool(d.duplicate) for d in self.drafts),
            "refused": self.refused,
        }


def neighbours(index: LikelyIndex, skill: Skill, count: int = NEIGHBOURS) -> list[Skill]:
    """The skills the likely ranking puts closest to `skill`'s description (its own
    name and description as the request), best first, itself left out."""
    index.sync()
    query = f"{skill.name} {skill.description}"  # (a description: read as written)
    ranked = rank_likely(index, query, top=count + 1, request=False)
    out = [c.skill for c in ranked.candidates if c.skill.name != skill.name and c.score > 0]
    return out[:count]


SCHEMA = {
    "type": "object",
    "properties": {
        "requests": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "text": {"type": "string"},
                    "kind": {"enum": list(KINDS)},
                    "expect": {"type": ["string", "null"]},
                },
                "required": ["text", "kind", "expect"],
            },
        }
    },
    "required": ["requests"],
}

SYSTEM = (
    "You write test requests for the triggering of agent skills: what a user types to a "
    "coding agent, which then picks the skill to load from the skills' names and "
    "descriptions. Answer with one JSON object and nothing else."
)


def _described(skill: Skill) -> str:
    return f"- {skill.name}: {skill.description[:MAX_DESCRIPTION_CHARS]}"


def prompt_text(skill: Skill, near: list[Skill], per_kind: int) -> str:
    """The user's message: the skill and its neighbours (names and descriptions only),
    what to write of each kind, and the JSON schema of the answer."""
    others = "\n".join(_described(s) for s in near) or "(none)"
    return (
        f"The skill under test:\n{_described(skill)}\n\n"
        f"Its closest neighbours:\n{others}\n\n"
        f"Write {per_kind} requests of each kind:\n"
        f'- "should": a request this skill should serve; expect "{skill.name}".\n'
        '- "near": close to the skill\'s subject but better served by one of the '
        "neighbours (expect that neighbour's name) or by no skill at all (expect null).\n"
        '- "out": unrelated to every skill above; expect null.\n'
        "Write as users write: a concrete task in their own words. Never use the skill's "
        "name, and do not lean on the unusual words of its description: paraphrase.\n\n"
        "Answer with JSON matching this schema:\n" + json.dumps(SCHEMA, separators=(",", ":"))
    )


def chat_body(endpoint: Endpoint, model: str, prompt: str, temperature: float) -> dict[str, Any]:
    """The request body for the endpoint's API: a system message and the prompt, no
    tools (as questions.body builds its bodies, then the same conversions)."""
    messages = [{"role": "user", "content": prompt}]
    out: dict[str, Any] = {"model": model}
    if endpoint.api == "anthropic":
        out["max_tokens"] = ANSWER_TOKENS
        out["system"] = SYSTEM
    else:
        messages.insert(0, {"role": "system", "content": SYSTEM})
    out["temperature"] = temperature
    out["messages"] = messages
    if endpoint.api == "responses":
        return responses_api.from_chat(out)
    return gemini_api.from_chat(out) if endpoint.api == "gemini" else out


def plan_ask(
    index: LikelyIndex,
    skill: Skill,
    settings: Settings,
    per_kind: int = PER_KIND,
) -> Ask:
    """What would be sent for `skill` (nothing is sent)."""
    near = neighbours(index, skill)
    prompt = prompt_text(skill, near, per_kind)
    body = chat_body(settings.endpoint, settings.model, prompt, settings.temperature)
    content = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return Ask(skill, near, prompt, content, per_kind)


def send_ask(
    ask: Ask,
    settings: Settings,
    key: str | None,
    transport: httpx.BaseTransport | None = None,
) -> str:
    """The model's answer text, asked with `key` (core/live/run.py `key_for`, checked
    before the cost is asked about); SuggestError (no key in it) when it cannot be had."""
    try:
        with new_client(transport) as client:
            data = send(
                client, settings.endpoint, key, ask.content, settings.limits, model=settings.model
            )
        return answer_text(data, settings.endpoint.api)
    except SendError as exc:
        raise SuggestError(f"{settings.endpoint.base_url}: {exc}") from None
    except MalformedAnswer as exc:
        raise SuggestError(f"the answer is not the API's shape: {exc}") from None


def read_drafts(text: str, skill: str, near: Iterable[str]) -> tuple[list[Draft], int]:
    """(the drafts, the items refused) of the model's answer text: JSON as the schema
    asks (a fenced block or text around the object are tolerated); SuggestError when
    it is not that JSON at all."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        raise SuggestError("the model did not answer with the JSON asked for (no object)")
    try:
        data = parse_answer(text[start : end + 1].encode("utf-8"))
    except AnswerRefused as exc:
        raise SuggestError(f"the model's answer is not the JSON asked for: {exc}") from None
    items = data.get("requests") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise SuggestError("the model's answer has no 'requests' list, as the schema asks")
    names = set(near)
    drafts: list[Draft] = []
    refused = 0
    for item in items[:MAX_DRAFTS]:
        draft = _draft(item, skill, names)
        if draft is None:
            refused += 1
        else:
            drafts.append(draft)
    return drafts, refused + max(0, len(items) - MAX_DRAFTS)


def _draft(item: Any, skill: str, near: set[str]) -> Draft | None:
    if not isinstance(item, dict):
        return None
    text, kind, expect = item.get("text"), item.get("kind"), item.get("expect")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_DRAFT_CHARS:
        return None
    query = " ".join(text.split())
    if text_problem(query, strict=True) is not None:
        return None  # half a surrogate pair, a control, bidi or zero-width character:
        # not what a user types, and a suite file could not hold it as it reads
    if kind == "should":
        return Draft(query, "should", skill) if expect in (skill, None) else None
    if kind == "near":
        if expect is None or expect in ("", "none"):
            return Draft(query, "near", None)
        return Draft(query, "near", expect) if expect in near else None
    if kind == "out":
        return Draft(query, "out", None) if expect in (None, "", "none") else None
    return None


def mark_drafts(
    drafts: list[Draft], skill: str, check: LeakCheck, existing: Iterable[str] = ()
) -> list[Draft]:
    """Mark each draft's leak (against the skill it expects, or `skill` when it
    expects none: naming the skill and expecting no skill is mislabelled) and
    duplicates: the same normalised text, or content words NEAR_DUPLICATE alike, as an
    earlier draft or an `existing` case's request."""
    seen: list[tuple[str, str, frozenset[int]]] = []
    for query in existing:
        seen.append((normalize(query), query, _shingle(query)))
    for draft in drafts:
        draft.leak = check.check(draft.query, draft.expect or skill)
        plain, words = normalize(draft.query), _shingle(draft.query)
        for other_plain, other, other_words in seen:
            if plain == other_plain or resemblance(words, other_words) >= NEAR_DUPLICATE:
                draft.duplicate = other
                break
        else:
            seen.append((plain, draft.query, words))
    return drafts


def _shingle(query: str) -> frozenset[int]:
    return frozenset(map(hash, terms(query)))
