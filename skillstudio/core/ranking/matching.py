"""Matching: which skills a request selects, with every point explained.

The driver: it cuts an over-long request, keeps the match index, and hands the
request to the registry's profile, which ranks it (`Profile.rank`, usually one
of `rankers`). The parts live apart: core/model/matches.py (reasons,
candidates, results), `match_index` (the index), `rankers`, `explanations`.
"""

from __future__ import annotations

from typing import Any

from ..model.matches import MAX_QUERY_CHARS, MatchResult
from ..model.profile_requests import MatchRequest
from ..model.session import Session
from ..model.text import normalize
from ..scanning.registry import Registry
from .match_index import MatchIndex
from .rankers import rank_explicit


def match(
    registry: Registry,
    query: str,
    *,
    index: MatchIndex | None = None,
    session: Session | None = None,
    options: dict[str, Any] | None = None,
) -> MatchResult:
    """Rank the registry's skills for `query` by the profile's rules."""
    options = options or {}
    notes: list[str] = []
    if len(query) > MAX_QUERY_CHARS:
        notes.append(f"The request was cut to its first {MAX_QUERY_CHARS:,} characters.")
        query = query[:MAX_QUERY_CHARS]
    index = index or MatchIndex(registry)
    normalized = normalize(query)
    words = normalized.split()
    request = MatchRequest(registry, index, query, normalized, words, session, options, notes)
    ranked = registry.profile.rank(request)
    result = ranked if ranked is not None else rank_explicit(request)
    result.notes = notes + result.notes
    result.diagnostics = list(index.failed.values())
    result.notes += [f"{d.skill}: {d.message}" for d in result.diagnostics]
    _margin(result)
    return result


def _margin(result: MatchResult) -> None:
    ranked = result.candidates
    if len(ranked) >= 2:
        result.runner_up = ranked[1].name
        result.margin = ranked[0].score - ranked[1].score
