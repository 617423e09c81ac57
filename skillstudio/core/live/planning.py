"""A live check's plan: the settings, the requests built once from the profile's
listing, the runs the cache already answers, and the estimate of calls, tokens and
cost made before any call (core/live/run.py makes the runs)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..delivery.tiers import render_listing
from ..model.text import counted
from ..ranking.likely_index import LikelyIndex
from ..ranking.likely_ranking import rank_likely
from ..scanning.registry import Registry
from .cache import AnswerCache, answer_key, request_digest
from .client import Limits
from .endpoints import Endpoint
from .harness import Harness
from .questions import TEMPLATE, Answer, Question, question, style_of
from .replay import chosen, reading, reconstruction, request_bytes, shown
from .stats import MIN_ANSWERED, Estimate, LiveCase, Rule
from .templates import Template, TemplateError
from .turns import DEFAULT_TURNS, MAX_TURNS

CHARS_PER_TOKEN = 4  # the estimate of tokens (docs/performance.md's rule: chars / 4)
ANSWER_TOKENS = 60  # an answer's tokens, guessed for the estimate (a tool call or a line)


class LiveError(Exception):
    """A live check that cannot start; the message says what to do."""


class NothingToAsk(LiveError):
    """No skill is listed to the model: a check would pay to ask about an empty list."""


@dataclass(slots=True)
class Settings:
    endpoint: Endpoint
    model: str
    runs: int = 3
    temperature: float = 1.0
    concurrency: int = 4
    limits: Limits = field(default_factory=Limits)
    offline: bool = False  # answers from the cache only; a miss is an error, never a call
    pass_rate: float = 0.5  # the bar a case's trigger rate must be shown to reach (Rule)
    price: tuple[float, float] | None = None  # dollars per million tokens: input, output
    per_minute: float = 0.0  # request starts a minute at most (0: only the concurrency)
    min_answered: int = MIN_ANSWERED  # answered runs a verdict needs
    template: Template | None = None  # `eval --template`: the requests sent from it
    saved_templates: bool = False  # a captured template saved for the agent wins (replay.py)
    turns: int = DEFAULT_TURNS  # exchanges a run may take (core/live/turns.py): 1 asks once

    @property
    def rule(self) -> Rule:
        return Rule(self.pass_rate, self.min_answered)

    def check(self) -> None:
        """LiveError naming the option (as `eval` spells it) that is out of its range."""
        if min(self.runs, self.concurrency) < 1 or self.limits.timeout <= 0 or self.per_minute < 0:
            raise LiveError("--runs, --concurrency and --timeout must be positive")
        if not 0 < self.pass_rate < 1:
            raise LiveError(
                "--pass-rate must be above 0 and below 1 (no number of runs shows a rate "
                "of 1 with 95 % confidence)"
            )
        if self.min_answered < 1:
            raise LiveError("--min-runs must be at least 1")
        if not 1 <= self.turns <= MAX_TURNS:
            raise LiveError(f"--turns must be from 1 to {MAX_TURNS}")

    def warnings(self, judged: bool = True) -> list[str]:
        """What makes the statistics mean less than they seem, said before any run
        (`judged`: a case has an expectation)."""
        out = []
        if self.temperature <= 0 and self.runs > 1:
            out.append(
                f"temperature {self.temperature:g} with {self.runs} runs: the runs are "
                "near copies of one answer, not independent samples, so the intervals "
                "and verdicts overstate what they show; ask at the agent's own "
                "temperature (1.0)"
            )
        if judged and self.runs < self.min_answered:
            out.append(
                f"--runs {self.runs} is below the {self.min_answered} answered runs a "
                "verdict needs: every judged case will be inconclusive"
            )
        return out


@dataclass(slots=True)
class Planned:
    case: LiveCase
    question: Question
    content: bytes  # the request body, exactly as sent (empty when the harness resolves it)
    keys: list[str]  # the cache key of each run (none when the harness resolves it)
    estimate: Estimate | None
    harness: str | None = None  # the skill the agent's harness invokes: never sent
    template: str = TEMPLATE  # the version of the template the request was built from

    @property
    def asks(self) -> bool:
        """Whether the request is put to the model (not resolved by the harness)."""
        return self.harness is None

    @property
    def request_sha256(self) -> str:
        """The sha256 of the bytes sent (the request's name in reports and the cache;
        "" for a request the harness resolves: nothing is sent)."""
        return request_digest(self.content) if self.asks else ""


@dataclass(slots=True)
class Plan:
    settings: Settings
    profile: str
    items: list[Planned]
    cached: dict[tuple[int, int], Answer]
    listing_chars: int
    template: str = shown(None)  # the template the requests were built from, in words

    @property
    def calls(self) -> int:
        """Calls still to make, at most (the rest are in the cache, or the harness's):
        a run of K turns may make up to K."""
        runs = sum(item.asks for item in self.items) * self.settings.runs - len(self.cached)
        return runs * self.settings.turns

    def tokens(self) -> tuple[int, int]:
        """(input, output) tokens of the calls to make, estimated, at most: a later turn
        sends the request again with the answers before it."""
        runs, turns = self.settings.runs, self.settings.turns
        sent = 0
        for i, item in enumerate(self.items):
            missing = sum((i, r) not in self.cached for r in range(runs))
            first = -(-len(item.content) // CHARS_PER_TOKEN)
            # turn t sends the first request and t - 1 answers with their stub results
            sent += (first * turns + ANSWER_TOKENS * turns * (turns - 1) // 2) * missing
        return sent, ANSWER_TOKENS * self.calls

    def cost(self) -> float | None:
        price = self.settings.price
        if price is None:
            return None
        sent, answered = self.tokens()
        return (sent * price[0] + answered * price[1]) / 1_000_000

    def to_json(self) -> dict[str, Any]:
        sent, answered = self.tokens()
        return {
            "requests": len(self.items),
            "runs": self.settings.runs,
            "calls": self.calls,
            "cached": len(self.cached),
            "harness": sum(not item.asks for item in self.items),
            "input_tokens": sent,
            "output_tokens": answered,
            "cost": self.cost(),
        }


def plan(
    registry: Registry,
    cases: list[LiveCase],
    settings: Settings,
    options: dict[str, Any] | None = None,
    cache: AnswerCache | None = None,
    estimate: bool = True,
    index: LikelyIndex | None = None,
) -> Plan:
    """What the check will send: the profile's listing rendered once, one question per
    request, the runs the cache already answers, the offline estimate of each request
    (from `index`, the caller's likely-candidates index, else one built here). A
    request the agent's harness resolves (`/name`, `$name`, `use <name> skill`:
    core/live/harness.py) is planned without a request, a cache key or an estimate."""
    if settings.runs < 1:
        raise LiveError("--runs must be at least 1")
    if not 1 <= settings.turns <= MAX_TURNS:
        raise LiveError(f"--turns must be from 1 to {MAX_TURNS}")
    listing = render_listing(registry, options or {})
    harness = Harness(registry, options)
    resolved = [harness.pick(case.query) for case in cases]
    own = set(listing.agent_own)  # the agent's own entries (bundled skills) ask nothing
    asking = not cases or None in resolved  # every request the harness's: nothing is sent
    if len(own) == len(listing.listed) and asking:  # refused before any estimate
        count = len(registry.skills)
        why = (
            f"{registry.profile.name} lists none of its {counted(count, 'skill')} to the model"
            if count
            else "no SKILL.md was found"
        )
        raise NothingToAsk(f"no skill to ask about ({why}); nothing was asked")
    # the agent's own skills too (Codex's system skills): a read of one is a pick of it
    skills = [*registry.active.values(), *registry.profile.agent_skills(options or {})]
    if not estimate or not registry.profile.model_chooses or not asking:
        index = None
    elif index is None:
        index = LikelyIndex(registry)
    if index is not None:
        index.sync()
    items: list[Planned] = []
    cached: dict[tuple[int, int], Answer] = {}
    endpoint, model = settings.endpoint, settings.model
    try:
        style = style_of(registry.profile).key
        used = chosen(settings.template, style, endpoint.api, settings.saved_templates)
    except TemplateError as exc:
        raise LiveError(str(exc)) from None
    label = shown(used)
    for i, case in enumerate(cases):
        q = question(registry.profile, listing.text, listing.listed, skills, case.query)
        if used is not None:
            q = reading(q, used)  # the answer read as the template's agent reads it
        if resolved[i] is not None:
            items.append(Planned(case, q, b"", [], None, harness=resolved[i]))
            continue
        # the reconstruction is a template like any other (replay.reconstruction)
        sent = used or reconstruction(q, endpoint, model, settings.temperature)
        content = request_bytes(sent, q, model)
        digest = request_digest(content)
        template = sent.version
        label = shown(sent)
        if settings.turns > 1:  # a run of K turns is cached whole, under its first request
            template = f"{template}+turns/{settings.turns}"
        keys = [
            answer_key(endpoint.addressed(model), endpoint.api, template, digest, run)
            for run in range(settings.runs)
        ]
        for run, key in enumerate(keys):
            found = cache.get(key) if cache is not None else None
            if found is not None:
                cached[(i, run)] = found
        estimated = _estimate(index, case.query)
        items.append(Planned(case, q, content, keys, estimated, template=template))
    return Plan(settings, registry.profile.name, items, cached, len(listing.text), label)


def _estimate(index: LikelyIndex | None, query: str) -> Estimate | None:
    if index is None:
        return None
    ranked = rank_likely(index, query)
    likely = ranked.likely
    return Estimate(likely[0].name if likely else None, {c.name: c.band for c in ranked.candidates})
