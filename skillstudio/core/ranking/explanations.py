"""Explanations of a match in plain words: marked request words, the outcome in one
sentence, why a skill was not selected, and its trigger phrases."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.matches import MatchResult
from ..model.skills import Skill
from ..model.text import normalize

if TYPE_CHECKING:
    from ..scanning.registry import Registry


def mark_words(normalized: str, terms: list[str]) -> list[tuple[str, bool]]:
    """The request's words, each with whether one of `terms` (as whole words) covers it."""
    words = normalized.split()
    marked = [False] * len(words)
    for term in terms:
        parts = normalize(term).split()
        size = len(parts)
        for start in range(len(words) - size + 1):
            if size and words[start : start + size] == parts:
                for pos in range(start, start + size):
                    marked[pos] = True
    return list(zip(words, marked, strict=True))


def summary(result: MatchResult) -> str:
    """The outcome in one sentence: who wins and by how much, or why nobody does."""
    label = " (heuristic)" if result.heuristic else ""
    if result.selected:
        first = result.selected[0]
        if len(result.selected) > 1:
            return f"{', '.join(result.selected)} are selected{label}."
        if result.explicit:
            return f"{first} is invoked by name."
        if result.runner_up and result.margin is not None:
            points = "point" if result.margin == 1 else "points"
            return f"{first} wins by {result.margin} {points} over {result.runner_up}{label}."
        return f"{first} wins; no other skill scored{label}."
    if result.capability_request:
        return "A request for the list of skills: the listing answers it."
    if not result.candidates:
        return "No skill scored above zero."
    if result.threshold is not None:
        best = result.candidates[0]
        return (
            f"No skill passes the threshold of {result.threshold}; the best is "
            f"{best.name} with {best.score}."
        )
    return "No skill is selected."


def why_not(result: MatchResult, registry: Registry, name: str) -> str:
    """In plain words, why the skill `name` was not selected for the request."""
    if name in result.selected:
        return f"{name} is selected."
    skill = registry.get(name)
    if skill is None:
        return f"No skill is named '{name}'."
    if skill.status == "shadowed":
        return f"{name} is shadowed by {skill.winner}, which has higher precedence."
    if skill.status == "skipped":
        return f"{name} is not loaded: {skill.status_reason}."
    if skill.status == "disabled":
        return f"{name} is disabled: {skill.status_reason}."
    cand = result.candidate(name)
    if result.blocked and result.explicit == name:
        return result.blocked
    if result.heuristic:
        return (
            f"{registry.profile.name} selects only on explicit invocation; write /{name}, "
            f"${name} or 'use {name} skill'."
        )
    if cand is None:
        return (
            f"{name} scored 0: none of its triggers, keywords or its name is in the request."
            + _closest(skill, result, registry)
        )
    if result.threshold is not None and cand.score < result.threshold:
        return f"{name} scored {cand.score}, below the threshold of {result.threshold}." + _closest(
            skill, result, registry
        )
    if result.selected:
        winner = result.candidate(result.selected[0])
        if winner is not None and winner.score == cand.score:
            return (
                f"{name} tied with {winner.name} at {cand.score} and lost the tie-break "
                f"({registry.profile.tie_break})."
            )
        if winner is not None:
            return f"{name} scored {cand.score}; {winner.name} scored {winner.score} and wins."
    return f"{name} scored {cand.score} but was not among the selected skills."


def _closest(skill: Skill, result: MatchResult, registry: Registry) -> str:
    words = set(result.normalized.split())
    best: tuple[int, str, list[str]] | None = None
    for phrase in registry.profile.trigger_texts(skill):
        missing = [w for w in normalize(phrase).split() if w not in words]
        if best is None or len(missing) < best[0]:
            best = (len(missing), phrase, missing)
    if best is None:
        return ""
    return f" Closest trigger: '{best[1]}' (missing: {', '.join(best[2]) or 'word order'})."
