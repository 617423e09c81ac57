"""A live check's runs (the plan is core/live/planning.py's): concurrent up to a
limit, answered from the cache where they can be, cancellable, with progress; and the
report.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ... import __version__
from .cache import AnswerCache
from .client import Cancelled, Pacer, SendError, Unreachable, new_client, send
from .endpoints import api_key
from .planning import LiveError, Plan, Planned, Settings
from .questions import Answer, MalformedAnswer, raw_text, reported_model
from .redaction import key_problem
from .stats import CaseRuns, agreement, confusion, per_skill
from .turns import converse, turn_rates

if TYPE_CHECKING:  # (httpx loads in 0.1-0.5 s: at the first request, not at start)
    import httpx

GRACE = 0.5  # seconds a cancel waits for the runs in flight to end before it returns
Progress = Callable[[int, int, str], None]  # (done, total, what happened)


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
