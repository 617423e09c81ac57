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
    """In plain words, why the skill `name` was not selected for the request: first
    whether the agent loads and lists it at all, or the error it loads in spite of."""
    skill = registry.get(name)
    note = error_note(registry.profile.name, skill) if skill is not None else None
    answer = _why_not(result, registry, name)
    return f"{note} {answer}" if note and name not in result.selected else answer


def _why_not(result: MatchResult, registry: Registry, name: str) -> str:
    if name in result.selected:
        return f"{name} is selected."
    skill = registry.get(name)
    if skill is None:
        return f"No skill is named '{name}'."
    blocked = not_loaded(registry, name)
    if blocked and skill.status != "active":
        return blocked
    cand = result.candidate(name)
    if result.blocked and result.explicit == name:
        return result.blocked
    if blocked:  # loaded, but not listed: the model never reads it (an invocation may)
        return blocked
    if result.heuristic:
        return (
            f"{registry.profile.name} selects only on explicit invocation; write "
            f"{registry.profile.invocations(name)}."
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


def not_loaded(registry: Registry, name: str) -> str | None:
    """Why the agent does not load the skill `name`, or does not list it for the model
    (shadowed, skipped with the error that skips it, disabled, or left out of the
    listing by its own rule), in one sentence; None when it is loaded and listed.
    Said before any advice on words: no wording helps a skill the agent never reads."""
    skill = registry.get(name)
    return None if skill is None else skill_not_loaded(registry, skill)


def skill_not_loaded(registry: Registry, skill: Skill) -> str | None:
    """`not_loaded` of this skill (the one open in the app may be a shadowed one)."""
    name = skill.name
    agent = registry.profile.the_agent
    if skill.status == "shadowed":
        return (
            f"{name} is not loaded: it is shadowed by {skill.winner}, which has higher precedence."
        )
    if skill.status == "skipped":
        error = first_error(skill)
        cause = f" ({error.rstrip('.')})" if error else ""
        return f"{agent} does not load {name}: {skill.status_reason}{cause}."
    if skill.status == "disabled":
        return f"{name} is disabled: {skill.status_reason}."
    omitted = registry.profile.listing_omission(skill)
    if omitted:
        return f"{agent} does not list {name} for the model: {omitted}."
    return None


def first_error(skill: Skill) -> str | None:
    """The message of the skill's first error (its own, then cross-skill), the
    `skipped` note itself left out; None when it has none."""
    for diag in [*skill.diagnostics, *skill.cross]:
        if diag.severity == "error" and diag.code != "skipped":
            return diag.message
    return None


def error_note(profile: str, skill: Skill) -> str | None:
    """For a skill that loads in spite of an error under the profile (an over-long
    description under agentskills: skills-ref's to_prompt still lists it): the error,
    and that it is still listed and ranked. None when it has no error."""
    if skill.status != "active":
        return None
    error = first_error(skill)
    if error is None:
        return None
    return (
        f"{profile} rejects {skill.name}: {error} It is still listed and "
        "ranked as written: this error does not keep it out of the listing."
    )


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
