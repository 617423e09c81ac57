"""The model's pick of each request of a change report, from the answer cache only
(`skillstudio diff --endpoint E --model M`): each side's requests planned as `eval`
plans them (core/live/planning.py: the agent's listing on that side, the same request bytes,
so the same cache keys), and the answers cached for them read. Nothing is ever sent: a
request with no cached answer has no model pick."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..live.cache import AnswerCache
from ..live.planning import LiveError, Settings, plan
from ..live.stats import LiveCase
from .open_project import OpenProject


@dataclass(slots=True)
class ModelPick:
    """What the cached runs of one request picked: the most frequent pick (None: no
    skill) and how many of the cached runs picked it."""

    pick: str | None
    runs: int
    of: int

    def to_json(self) -> dict[str, Any]:
        return {"pick": self.pick, "runs": self.runs, "of": self.of}


@dataclass(slots=True)
class Live:
    """The model whose cached answers are read, and the cache."""

    settings: Settings
    cache: AnswerCache


def model_picks(
    item: OpenProject, queries: list[str], live: Live, options: dict[str, Any]
) -> dict[str, ModelPick]:
    """The cached pick of each of `queries` on the side `item` reads (the requests with
    no cached answer are left out)."""
    if not queries or not item.registry.profile.model_chooses:
        return {}
    cases = [LiveCase(query, [], judged=False) for query in dict.fromkeys(queries)]
    try:
        checked = plan(item.registry, cases, live.settings, options, live.cache, estimate=False)
    except LiveError:  # nothing listed to ask about: nothing was cached either
        return {}
    out: dict[str, ModelPick] = {}
    for i, planned in enumerate(checked.items):
        if planned.harness is not None:  # `/name`: the agent's harness picks, every run
            out[planned.case.query] = ModelPick(planned.harness, 1, 1)
            continue
        answers = [checked.cached.get((i, run)) for run in range(live.settings.runs)]
        picks = [a.pick for a in answers if a is not None and not a.error]
        if picks:
            pick, count = Counter(picks).most_common(1)[0]
            out[planned.case.query] = ModelPick(pick, count, len(picks))
    return out
