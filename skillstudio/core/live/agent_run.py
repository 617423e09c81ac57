"""A live check with the real agent's CLI (`eval --agent-cli`): the plan (the runs to
make, the ones the cache or the agent's harness answers), the runs (each the agent run
once in a throwaway folder: core/live/agent_cli.py, its stream read:
core/live/agent_streams.py), made by run.py's own loop (`execute` with agent_sender:
the harness's picks, the cache, the concurrency, a cancel, the progress) and the
report, in the shapes of core/live/run.py (a Plan, a LiveReport), so the statistics
(core/live/stats.py's Rule), the cache and the reports (text, JSON, JUnit) are the
same as for a model asked directly.

What a run sends is named by a descriptor: the agent, its argv without the executable's
path, its `--version` output, the sha256 of the skill files copied, the template
version and the request. Its sha256 is the run's `request_sha256` and, with the run
number, its cache key: a new agent version, another flag or one changed byte of a skill
file asks again.

A run that ends without a pick because of an error, a timeout or output past the bound
has no answer (inconclusive, never "no skill"); a pick seen before the agent was
stopped counts.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..ranking.likely_index import LikelyIndex
from ..ranking.likely_ranking import rank_likely
from ..scanning.registry import Registry
from .agent_cli import TEMPLATE, Agent, AgentError, SkillFiles, run_process, throwaway
from .agent_streams import StreamRead
from .cache import AnswerCache, answer_key, request_digest
from .endpoints import Endpoint
from .harness import Harness
from .planning import NothingToAsk, Plan, Planned, Settings
from .questions import MAX_RAW, Answer, Question, Style, encode
from .run import Ask, LiveReport, Progress, Sender, execute
from .stats import Estimate, LiveCase

MAX_ERROR = 200  # characters of the agent's stderr quoted in a run's error


@dataclass(frozen=True, slots=True)
class AgentSetup:
    """The agent as found: which, its executable's path, what `--version` printed, the
    model asked for (None: the agent's default)."""

    agent: Agent
    executable: str
    version: str
    model: str | None = None

    def argv(self) -> list[str]:
        return self.agent.argv(self.executable, self.model)

    def shown_argv(self) -> list[str]:
        """The argv without the executable's path (reports, the cache key)."""
        return [self.agent.executable, *self.argv()[1:]]

    def endpoint(self) -> Endpoint:
        """The Endpoint a Settings needs (never contacted): named after the agent."""
        return Endpoint(self.agent.name, f"agent-cli:{self.agent.name}", "anthropic")

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.agent.name,
            "title": self.agent.title,
            "version": self.version,
            "argv": self.shown_argv(),
            "skills_folder": self.agent.skills_dir,
        }


def style_for(setup: AgentSetup) -> Style:
    agent = setup.agent
    return Style(
        f"agent-cli-{agent.name}",
        f"{agent.title}'s own CLI ({' '.join(setup.shown_argv())}) in a throwaway folder "
        f"holding only the skills under {agent.skills_dir}",
        "message",
        agent.tool,
        "",
        "skill",
    )


@dataclass(slots=True)
class AgentPlan(Plan):
    setup: AgentSetup | None = None
    files: SkillFiles | None = None


def descriptor(setup: AgentSetup, files: SkillFiles, query: str) -> bytes:
    """What a run of `query` is, as bytes: its sha256 names the run."""
    return encode(
        {
            "agent": setup.agent.name,
            "argv": setup.shown_argv(),
            "version": setup.version,
            "skills_sha256": files.digest,
            "template": TEMPLATE,
            "request": query,
        }
    )


def plan_agent(
    registry: Registry,
    cases: list[LiveCase],
    settings: Settings,
    setup: AgentSetup,
    files: SkillFiles,
    cache: AnswerCache | None = None,
    options: dict[str, Any] | None = None,
    estimate: bool = True,
) -> AgentPlan:
    """The runs of each request (`settings.runs`), the ones the cache holds, and those
    the agent's harness resolves (`/name`, `$name`: never run, core/live/harness.py)."""
    if not files.names:
        raise NothingToAsk("no skill to ask about (no SKILL.md was found); nothing was run")
    harness = Harness(registry, options)
    style = style_for(setup)
    index = LikelyIndex(registry) if estimate and registry.profile.model_chooses else None
    if index is not None:
        index.sync()
    items: list[Planned] = []
    cached: dict[tuple[int, int], Answer] = {}
    where = f"agent-cli:{setup.agent.name}"
    for i, case in enumerate(cases):
        q = Question(style, "", case.query, files.names, ())
        picked = harness.pick(case.query)
        if picked is not None:
            items.append(Planned(case, q, b"", [], None, harness=picked, template=TEMPLATE))
            continue
        content = descriptor(setup, files, case.query)
        digest = request_digest(content)
        keys = [answer_key(where, "agent-cli", TEMPLATE, digest, r) for r in range(settings.runs)]
        for run, key in enumerate(keys):
            found = cache.get(key) if cache is not None else None
            if found is not None:
                cached[(i, run)] = found
        est = None
        if index is not None:
            ranked = rank_likely(index, case.query)
            top = ranked.likely[0].name if ranked.likely else None
            est = Estimate(top, {c.name: c.band for c in ranked.candidates})
        items.append(Planned(case, q, content, keys, est, template=TEMPLATE))
    return AgentPlan(
        settings,
        registry.profile.name,
        items,
        cached,
        0,
        f"the real agent: {setup.agent.title}",
        setup,
        files,
    )


@dataclass(slots=True)
class AgentReport(LiveReport):
    setup: AgentSetup | None = None

    def to_json(self) -> dict[str, Any]:
        data = LiveReport.to_json(self)
        setup = self.setup
        if setup is None:
            return data
        answers = [a for r in self.results for a in r.answers]
        reported = sorted({a.reported_model for a in answers if a.reported_model})
        data["model"] = setup.model or ", ".join(reported) or "the agent's default"
        data["endpoint"] = {
            "name": setup.agent.name,
            "url": f"{setup.agent.executable} {setup.version}".strip(),
            "api": "agent-cli",
        }
        data["agent"] = setup.to_json()
        return data


def _answer(
    setup: AgentSetup, files: SkillFiles, query: str, timeout: float, cancel: Any
) -> Answer:
    """One run: the agent in a throwaway folder, its stream read."""
    agent = setup.agent
    with throwaway(agent, files) as folder:
        try:
            done = run_process(setup.argv(), folder, query.encode("utf-8"), timeout, cancel)
        except OSError as exc:
            return Answer(error=f"{agent.executable} could not be started ({exc.strerror})")
        read = agent.reader(done.stdout, files.paths(agent, folder), folder)
    if done.cut == "cancelled":
        return Answer(error="cancelled")
    raw = done.stdout[-MAX_RAW:].decode("utf-8", "replace")
    if read.pick is None:
        error = _no_pick(setup, done.cut, done.status, done.stderr, read, timeout)
        if error:
            return Answer(error=error, raw=raw, reported_model=read.model)
    return Answer(
        read.pick,
        read.pick is not None and read.pick not in files.names,
        read.text,
        read.input_tokens,
        read.output_tokens,
        raw=raw,
        reported_model=read.model,
    )


def _no_pick(
    setup: AgentSetup,
    cut: str,
    status: int | None,
    stderr: bytes,
    read: StreamRead,
    timeout: float,
) -> str:
    """Why a run without a pick has no answer ("": it answered, with no skill)."""
    name = setup.agent.executable
    if cut == "timeout":
        return f"no skill invoked within the {timeout:g} s timeout ({name} was stopped)"
    if cut == "output":
        return f"{name} printed more than its output bound without invoking a skill (stopped)"
    if read.error:
        return read.error
    if status != 0:
        lines = stderr.decode("utf-8", "replace").strip().splitlines()
        said = f": {lines[-1].strip()[:MAX_ERROR]}" if lines else ""
        return f"{name} exited with status {status}{said}"
    if not read.events:
        return f"{name} printed no JSON events (is it {setup.agent.title}?)"
    return ""


def agent_sender(checked: AgentPlan) -> Sender:
    """The plan's runs made by the agent's CLI (_answer), for run.py's loop: a cancel
    waits for the agents killed and their throwaway folders removed."""
    setup, files = checked.setup, checked.files
    if setup is None or files is None:
        raise AgentError("an agent plan without its agent")
    timeout = checked.settings.limits.timeout

    @contextmanager
    def start(cancel: threading.Event, say: Callable[[str], None]) -> Iterator[Ask]:
        yield lambda item, run: _answer(setup, files, item.case.query, timeout, cancel)

    def about(item: Planned, run: int) -> dict[str, Any]:
        return {
            "agent": setup.to_json(),
            "template": item.template,
            "request_sha256": item.request_sha256,
            "skills_sha256": files.digest,
            "query": item.case.query,
            "run": run,
        }

    offline = "not in the cache (--offline): run once with the agent"
    return Sender(start, about, offline, waits=True)


def execute_agent(
    checked: AgentPlan,
    cache: AnswerCache | None = None,
    cancel: threading.Event | None = None,
    progress: Progress | None = None,
) -> AgentReport:
    """Run the plan in run.py's loop (execute: the harness's picks, the cache, the
    concurrency, a cancel, the statistics), its runs made by the agent (agent_sender)."""
    done = execute(checked, cache, cancel, progress, sender=agent_sender(checked))
    return AgentReport(done.plan, done.results, done.date, done.cancelled, checked.setup)


def show_json(checked: AgentPlan) -> list[dict[str, Any]]:
    """What `--show-request` prints of an agent plan: per request the argv, the folder
    the agent runs in, the descriptor and its sha256, the runs and how many are cached."""
    setup, files = checked.setup, checked.files
    if setup is None or files is None:
        return []
    runs = checked.settings.runs
    out = []
    for i, item in enumerate(checked.items):
        out.append(
            {
                "query": item.case.query,
                "agent": setup.to_json(),
                "skills": [f"{setup.agent.skills_dir}/{path}" for path, _ in files.files],
                "stdin": item.case.query,
                "harness": item.harness,
                "request_sha256": item.request_sha256,
                "descriptor": json.loads(item.content) if item.content else None,
                "runs": runs,
                "cached_runs": sum((i, r) in checked.cached for r in range(runs)),
                "cwd": "a new temporary folder, removed after the run",
            }
        )
    return out
