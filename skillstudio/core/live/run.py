"""A live check: the plan (requests, calls, an estimate of tokens and cost before any
call), then the runs, concurrent up to a limit, answered from the cache where they
can be, cancellable, with progress; and the report.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx

from ... import __version__
from ..delivery.tiers import render_listing
from ..model.text import counted
from ..ranking.likely_index import LikelyIndex
from ..ranking.likely_ranking import rank_likely
from ..scanning.registry import Registry
from .cache import AnswerCache, answer_key, request_digest
from .client import Cancelled, Limits, Pacer, SendError, Unreachable, new_client, send
from .endpoints import Endpoint, api_key
from .harness import Harness
from .questions import (
    TEMPLATE,
    Answer,
    MalformedAnswer,
    Question,
    question,
    raw_text,
    reported_model,
    style_of,
)
from .redaction import key_problem
from .replay import chosen, reading, reconstruction, request_bytes, shown
from .stats import (
    MIN_ANSWERED,
    CaseRuns,
    Estimate,
    LiveCase,
    Rule,
    agreement,
    confusion,
    per_skill,
)
from .templates import Template, TemplateError
from .turns import DEFAULT_TURNS, MAX_TURNS, converse, turn_rates

CHARS_PER_TOKEN = 4  # the estimate of tokens (docs/performance.md's rule: chars / 4)
ANSWER_TOKENS = 60  # an answer's tokens, guessed for the estimate (a tool call or a line)
GRACE = 0.5  # seconds a cancel waits for the runs in flight to end before it returns
Progress = Callable[[int, int, str], None]  # (done, total, what happened)


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


@dataclass(slots=True)
class LiveReport:
    plan: Plan
    results: list[CaseRuns]
    date: str
    cancelled: bool = False

    def counts(self) -> tuple[int, int, int]:
        """(passed, failed, inconclusive) cases; a request shown without an expectation
        counts as passed when a run answered it."""
        rule = self.plan.settings.rule
        outcomes = [r.passed(rule) for r in self.results]
        return outcomes.count(True), outcomes.count(False), outcomes.count(None)

    def unanswered(self) -> int:
        """Cases no run answered (some of the inconclusive ones)."""
        return sum(not r.valid for r in self.results)

    def to_json(self) -> dict[str, Any]:
        settings = self.plan.settings
        rule = settings.rule
        passed, failed, inconclusive = self.counts()
        answers = [a for r in self.results for a in r.answers]
        return {
            "endpoint": settings.endpoint.to_json(),
            "model": settings.model,
            "profile": self.plan.profile,
            "style": self.plan.items[0].question.style.key if self.plan.items else None,
            "template": self.plan.template,
            "date": self.date,
            "runs": settings.runs,
            "temperature": settings.temperature,
            "pass_rate": settings.pass_rate,
            "min_answered": settings.min_answered,
            "turns": settings.turns,
            "offline": settings.offline,
            "cancelled": self.cancelled,
            "warnings": settings.warnings(any(r.case.judged for r in self.results)),
            "cases": [
                dict(r.to_json(rule), request_sha256=item.request_sha256, **turn_rates(r))
                for r, item in zip(self.results, self.plan.items, strict=True)
            ],
            "passed": passed,
            "failed": failed,
            "inconclusive": inconclusive,
            "unanswered": self.unanswered(),
            "per_skill": per_skill(self.results),
            "confusion": confusion(self.results),
            "agreement": agreement(self.results),
            "tokens": {
                "input": sum(a.input_tokens for a in answers),
                "output": sum(a.output_tokens for a in answers),
            },
            "cached_runs": sum(a.cached for a in answers),
            "harness_runs": sum(a.harness for a in answers),
            "errors": sum(bool(a.error) for a in answers),
        }


def key_for(settings: Settings, environ: Mapping[str, str] | None = None) -> str | None:
    """The endpoint's key (None: a local server without one); LiveError when a remote
    endpoint has none, would get it over plain http, or holds a character a header
    cannot carry. Local: the host resolves to loopback addresses only (not a name that
    looks local: `x.localhost` may resolve anywhere)."""
    endpoint = settings.endpoint
    key = api_key(endpoint, os.environ if environ is None else environ)
    if key is None and not endpoint.is_local():
        where = endpoint.key_env or "an environment variable"
        raise LiveError(
            f"no key for {endpoint.name}: set {where}, or store one in the "
            f"system keyring (service 'skillstudio', user {endpoint.keyring!r})"
        )
    if key is not None:
        refused = key_problem(key, endpoint.key_env or f"the keyring entry {endpoint.keyring!r}")
        if refused:
            raise LiveError(refused)
        if endpoint.plain_http and not endpoint.is_local():
            raise LiveError(
                f"not sending a key to {endpoint.base_url} over plain http: use https "
                "(plain http only to this machine: a host that resolves to loopback "
                "addresses only)"
            )
    return key


Ask = Callable[[Planned, int], Answer]  # one run of one request -> its answer


@dataclass(frozen=True, slots=True)
class Sender:
    """How the runs the cache and the harness do not answer are made: a model asked
    over HTTP (api_sender) or the agent's own CLI run (core/live/agent_run.py).
    `start(cancel, say)` opens what the runs need (a key, a client) once there are runs
    to make, and gives the function that makes one: it returns the run's answer, an
    error in it for what a run may meet, or raises Unreachable when nothing answers
    there (the runs after are not sent). `about(item, run)`: what the cache keeps beside
    an answer; `offline`: the error of a run --offline finds no answer for; `waits`: a
    cancel waits for the runs in flight to end (an agent killed and its throwaway folder
    removed) instead of GRACE seconds."""

    start: Callable[[threading.Event, Callable[[str], None]], AbstractContextManager[Ask]]
    about: Callable[[Planned, int], dict[str, Any]]
    offline: str
    waits: bool = False


def api_sender(
    checked: Plan,
    transport: httpx.BaseTransport | None = None,
    environ: Mapping[str, str] | None = None,
) -> Sender:
    """The plan's requests sent to its endpoint, over up to K turns each (_ask)."""
    settings = checked.settings

    @contextmanager
    def start(cancel: threading.Event, say: Callable[[str], None]) -> Iterator[Ask]:
        key = key_for(settings, environ)
        pacer = Pacer(settings.per_minute)
        with new_client(transport) as client:
            yield lambda item, run: _ask(client, checked, item, key, cancel, say, pacer)

    def about(item: Planned, run: int) -> dict[str, Any]:
        return {
            "endpoint": settings.endpoint.base_url,
            "api": settings.endpoint.api,
            "template": item.template,
            "request_sha256": item.request_sha256,
            "model": settings.model,
            "query": item.case.query,
            "run": run,
        }

    return Sender(start, about, "not in the cache (--offline): run once with the model")


def execute(
    checked: Plan,
    cache: AnswerCache | None = None,
    cancel: threading.Event | None = None,
    progress: Progress | None = None,
    transport: httpx.BaseTransport | None = None,
    environ: Mapping[str, str] | None = None,
    sender: Sender | None = None,
) -> LiveReport:
    """Run the plan: a request the harness resolves gets its pick in every run, with
    no call (offline too); cached runs are replayed; the others are made by `sender`
    (default: sent to the plan's endpoint; never offline), at most `concurrency` at a
    time, and cached. Every run ends with an answer or an error; a cancel leaves the
    rest as `cancelled` errors."""
    settings = checked.settings
    sender = sender or api_sender(checked, transport, environ)
    runs = settings.runs
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    answers: dict[tuple[int, int], Answer] = dict(checked.cached)
    for i, item in enumerate(checked.items):
        if item.harness is not None:
            for r in range(runs):
                answers[(i, r)] = Answer(pick=item.harness, date=now, harness=True, turn=1)
    todo = [(i, r) for i in range(len(checked.items)) for r in range(runs) if (i, r) not in answers]
    total = len(checked.items) * runs
    done = len(answers)
    lock = threading.Lock()
    cancel = cancel or threading.Event()

    def report(message: str) -> None:
        if progress is not None:
            progress(done, total, message)

    cached, by_harness = len(checked.cached), done - len(checked.cached)
    start = [f"{cached} of {total} runs from the cache"] if cached else []
    if by_harness:
        start.append(f"{by_harness} of {total} runs resolved by the harness (no model call)")
    report("; ".join(start) or "starting")
    unreachable: list[str] = []  # the first run's error once nothing answers there
    closed = threading.Event()  # the report is made: a late run changes nothing

    def one(task: tuple[int, int], ask: Ask | None) -> None:
        nonlocal done
        i, run = task
        item = checked.items[i]
        if ask is None:
            answer = Answer(error=sender.offline)
        elif cancel.is_set():
            answer = Answer(error="cancelled")
        elif unreachable:
            answer = Answer(error=f"not sent: {unreachable[0]}")
        else:
            try:
                answer = ask(item, run)
            except Unreachable as exc:
                if not unreachable:
                    unreachable.append(str(exc))
                answer = Answer(error=str(exc))
            answer.date = now
            answer.request_sha256 = item.request_sha256
            answer.version = __version__
            if cache is not None and not answer.error:
                cache.put(item.keys[run], answer, sender.about(item, run))
        with lock:
            if closed.is_set():
                return
            answers[task] = answer
            done += 1
            what = answer.error or (answer.pick or "no skill")
            report(f"{item.case.query[:60]!r} run {run + 1}: {what}")

    if settings.offline or not todo:
        for task in todo:
            one(task, None)
    else:
        with sender.start(cancel, report) as ask:
            workers = max(1, min(settings.concurrency, len(todo)))
            grace = None if sender.waits else GRACE
            _run_all(todo, lambda task: one(task, ask), workers, cancel, grace)
    with lock:  # a run still in flight after a cancel is left out: it is cancelled
        closed.set()
        for task in todo:
            answers.setdefault(task, Answer(error="cancelled"))
    results = [
        CaseRuns(item.case, [answers[(i, r)] for r in range(runs)], item.estimate)
        for i, item in enumerate(checked.items)
    ]
    dates = sorted({a.date for r in results for a in r.answers if a.date})
    return LiveReport(checked, results, dates[-1] if dates else now, cancel.is_set())


def _run_all(
    todo: list[tuple[int, int]],
    one: Callable[[tuple[int, int]], None],
    workers: int,
    cancel: threading.Event,
    grace: float | None = GRACE,
) -> None:
    """Run `one` over `todo` on `workers` daemon threads. Returns when every run is done,
    or at most `grace` seconds after a cancel (Ctrl+C here sets it): a cancel shuts the
    sockets of the requests in flight, so they end at once; a worker still resolving a
    name or connecting is left behind (a daemon thread: it never holds up the exit).
    `grace` None: a cancel waits for every run to end (an agent's run kills the agent
    on a cancel, so the wait is short, and removes its folder before it ends)."""
    tasks: queue.SimpleQueue[tuple[int, int]] = queue.SimpleQueue()
    for task in todo:
        tasks.put(task)
    left = [workers]
    lock = threading.Lock()
    finished = threading.Event()
    failed: list[BaseException] = []  # a fault of this code: raised in the caller's thread

    def work() -> None:
        try:
            while not cancel.is_set():
                try:
                    task = tasks.get_nowait()
                except queue.Empty:
                    return
                one(task)
        except BaseException as exc:
            failed.append(exc)
        finally:
            with lock:
                left[0] -= 1
                if not left[0]:
                    finished.set()

    for _ in range(workers):
        threading.Thread(target=work, name="skillstudio-live-run", daemon=True).start()
    while True:
        try:
            if finished.wait(0.1):
                break
            if cancel.is_set() and grace is not None:
                finished.wait(grace)
                break
        except KeyboardInterrupt:  # Ctrl+C: the runs in flight end as cancelled
            cancel.set()
    if failed:
        raise failed[0]


def _ask(
    client: httpx.Client,
    checked: Plan,
    item: Planned,
    key: str | None,
    cancel: threading.Event,
    report: Callable[[str], None],
    pacer: Pacer,
) -> Answer:
    """One run sent and its answer read, over up to K turns (core/live/turns.py); the
    last answer as received (the key redacted) and the model id the server reported are
    kept with it, a malformed one's too. Unreachable is raised: the runs after are not
    sent (execute)."""
    settings = checked.settings
    data: Any = None

    def ask(content: bytes) -> Any:
        nonlocal data
        data = send(
            client,
            settings.endpoint,
            key,
            content,
            settings.limits,
            cancel,
            report,
            pacer,
            model=settings.model,
        )
        return data

    try:
        answer = converse(item.question, item.content, settings.endpoint.api, ask, settings.turns)
    except Cancelled:
        return Answer(error="cancelled")
    except Unreachable:
        raise
    except (SendError, MalformedAnswer) as exc:
        answer = Answer(error=str(exc))
    except Exception as exc:  # an answer of a shape no rule foresaw: this run's error only
        answer = Answer(error=f"the answer could not be read ({type(exc).__name__})")
    if data is not None:
        answer.raw = raw_text(data)
        answer.reported_model = reported_model(data)
    return answer
