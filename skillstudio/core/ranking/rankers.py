"""Rankers: the ways a profile turns a request's hits into a ranking and a selection.

Each profile picks one in `Profile.rank` (or writes its own from the parts here):
`rank_scored` (points against a threshold), `rank_toolsets` (several skills by
exact hits and recency) and `rank_explicit` (only an explicit invocation
selects; the rest is a heuristic). `rank_top` orders the best TOP candidates
and builds the rest on demand.
"""

from __future__ import annotations

import heapq
from collections import Counter
from itertools import compress
from typing import Any

from ..model.matches import (
    POINTS,
    Candidate,
    MatchResult,
    Reason,
    explicit_invocation,
    says_use_skill,
)
from ..model.profile_requests import MatchRequest, RankingProfile, TermIndex
from .match_index import keyword_counts, phrase_hits


def unpack(request: MatchRequest) -> tuple[TermIndex, str, str, list[str]]:
    return request.index, request.query, request.normalized, request.words


TOP = 30  # candidates ordered and built per request (a panel shows fewer); the rest on demand


def rank_top(
    index: TermIndex,
    phrase_hits: dict[str, list[tuple[str, str, int]]],
    keyword_counts: Counter[str],
    query_words: frozenset[str],
    order: Any,
    heuristic: bool,
) -> tuple[list[Candidate], Any, int]:
    """Top candidates in rank order, a builder for the rest, and the total count."""
    scores = keyword_counts  # built for this request only: extended in place
    for path, hits in phrase_hits.items():
        scores[path] += sum(points for _, _, points in hits)

    def build(path: str) -> Candidate:
        cand = Candidate(index.skills[path], heuristic=heuristic)
        phrase_points = 0
        for rule, term, points in phrase_hits.get(path, ()):
            cand._reasons.append(Reason(rule, term, points))
            phrase_points += points
        cand.score = scores[path]
        if cand.score > phrase_points:  # the rest came from description keywords
            cand._keywords = index.terms[path].keywords
            cand._query_words = query_words
        return cand

    # Every score is positive (hits add points, never remove) and small, so the
    # score of the TOP-th candidate comes from a histogram of the scores, and the
    # paths above it and tied at it are picked out in C (compress over map).
    total = len(scores)
    paths, values = scores.keys(), scores.values()
    if total > TOP:
        histogram = Counter(values)
        need, cutoff = TOP, 0
        for score in sorted(histogram, reverse=True):
            need -= histogram[score]
            if need <= 0:
                cutoff = score
                break
        top_paths = list(compress(paths, map(cutoff.__lt__, values)))
        tied = list(compress(paths, map(cutoff.__eq__, values)))
        # the tie at the cutoff is broken by the profile's order (priority, name),
        # precomputed per skill so the key lookups run in C
        top_paths += heapq.nsmallest(TOP - len(top_paths), tied, key=index.order_key.__getitem__)
        chosen = frozenset(top_paths)
    else:
        top_paths, chosen = list(paths), frozenset()
    top = sorted((build(path) for path in top_paths), key=order)

    def rest() -> list[Candidate]:
        if not chosen:
            return []
        return sorted((build(path) for path in scores if path not in chosen), key=order)

    return top, rest, total


def rank_scored(request: MatchRequest) -> MatchResult:
    """Points per phrase and description word; the best at or over the threshold wins,
    ties broken by the profile's precedence (oasis: `priority`), then name."""
    index, query, normalized, words = unpack(request)
    options = request.options
    profile = request.registry.profile.name
    threshold = int(options.get("threshold", 10))
    query_words = frozenset(words)

    precedence = request.registry.profile.precedence

    def order(c: Candidate) -> tuple[int, int, str]:
        return (-c.score, -precedence(c.skill), c.skill.name)

    ranked, rest, total = rank_top(
        index,
        phrase_hits(index, words),
        keyword_counts(index, query_words),
        query_words,
        order,
        heuristic=False,
    )
    for c in ranked:
        c.passed = c.score >= threshold
    selected = [ranked[0].name] if ranked and ranked[0].passed else []
    if len(ranked) > 1 and ranked[0].passed and ranked[0].score == ranked[1].score:
        a, b = ranked[0], ranked[1]
        pa, pb = precedence(a.skill), precedence(b.skill)
        a.reasons.append(
            Reason(
                "priority", f"{pa} vs {b.name} {pb}" if pa != pb else f"id {a.name} < {b.name}", 0
            )
        )
    tier = 3 if selected else (2 if index.skills else 0)
    result = MatchResult(query, normalized, profile, threshold, ranked, selected, tier)

    def rest_passed() -> list[Candidate]:
        below = rest()
        for c in below:
            c.passed = c.score >= threshold
        return below

    result.total, result._make_rest = total, rest_passed
    return result


def unknown_name_note(profile: RankingProfile, name: str, options: dict[str, Any]) -> str:
    """Why an explicit invocation selects nothing: no active skill has the name, or the
    agent handles that name itself (Claude Code's built-in commands and bundled skills,
    as its listing shows them: Profile.agent_skills)."""
    own = next((s for s in profile.agent_skills(options) if s.name == name), None)
    if own is None:
        return f"'{name}' is invoked explicitly but no active skill has that name."
    what = "built-in commands" if own.root.label == "command" else "own skills"
    return (
        f"'{name}' is one of {profile.the_agent}'s {what} ({profile.own_origin()}): "
        f"{profile.the_agent} handles it itself, so it is not one of your skills and no "
        "skill is selected."
    )


def rank_explicit(request: MatchRequest) -> MatchResult:
    """Only an explicit invocation selects; description words give a labelled
    heuristic ranking (pegasus, mvp, workspace, agentskills)."""
    index, query, normalized, words = unpack(request)
    registry = request.registry
    profile = registry.profile
    query_words = frozenset(words)
    if says_use_skill(query):
        # "use X skill" is the invocation's wording, not words of the request
        query_words -= {"use", "skill"}
    hits = phrase_hits(index, words)
    explicit = explicit_invocation(query)
    selected: list[str] = []
    notes: list[str] = []
    blocked: str | None = None
    if explicit:
        name, _args = explicit
        found = registry.active.get(name)  # an internal error may leave it out of the index
        skill = index.skills.get(found.path) if found is not None else None
        blocked = profile.invocation_blocked(skill, query) if skill is not None else None
        if skill is None:
            notes.append(unknown_name_note(profile, name, request.options))
        elif blocked:
            notes.append(blocked)
        else:
            hits.setdefault(skill.path, []).insert(0, ("explicit", name, POINTS["explicit"]))
            selected = [name]

    def order(c: Candidate) -> tuple[int, str]:
        return (-c.score, c.name)

    ranked, rest, total = rank_top(
        index,
        hits,
        keyword_counts(index, query_words),
        query_words,
        order,
        heuristic=True,
    )
    for c in ranked:
        c.passed = c.name in selected
        if c.passed:
            c.heuristic = False
    tier = 3 if selected else (2 if index.skills else 0)
    result = MatchResult(query, normalized, profile.name, None, ranked, selected, tier)
    result.total, result._make_rest = total, rest
    result.heuristic = True
    result.explicit = explicit[0] if explicit else None
    result.explicit_args = explicit[1] if explicit else ""
    result.blocked = blocked
    result.notes = [
        *notes,
        f"{profile.name} leaves selection to the model; scores from description words are a "
        f"heuristic, not a prediction. {profile.selects_line()}",
    ]
    result.selects = profile.selects_line()
    return result
