"""A likely candidate explained, and "Why not X?" where the model chooses, worked out
once for the app (Try a Request's Explanation tab, gui/panels/workbench/explanation.py,
which writes it as HTML) and the command line (`match --why NAME`, which writes it as
text): whether the agent loads and lists X at all, where X ranks and what puts the first
one ahead, what its band read (the calibrated chance, its lead, how much of the request
its listing explains), what the listing shows of it, and its words' weights with the
fields of the skill that hold them. An estimate from the skills' own words, never the
model's choice."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model.text import counted
from ..scanning.registry import Registry
from .estimate import LikelyCandidate, LikelyResult, band_text, evidence_text
from .explanations import error_note, not_loaded
from .likely_index import LikelyIndex

SHOWN = 40  # term rows shown
FIELD_NAMES = {
    "when_to_use": "when to use",
    "argument-hint": "argument hint",
    "trigger": "trigger clause",
}
CAVEAT = "Estimated from the skills' own words, rare words counting more; not the model's choice."


@dataclass(slots=True)
class TermRow:
    """One of the request's words that counted for a candidate: the fields of the skill
    that hold it (as the model reads them) and its weight."""

    term: str
    fields: list[str]
    weight: float


@dataclass(slots=True)
class LikelyExplained:
    """What the app and `match --why` say of one skill. `lead`: plain sentences (why it
    is not ranked, or where it ranks); `candidate`: the ranked candidate, when it is one
    (then `why` says what its band read and `terms` its words)."""

    name: str
    lead: str
    candidate: LikelyCandidate | None = None
    why: str = ""
    terms: list[TermRow] = field(default_factory=list)
    more_terms: int = 0  # rows past SHOWN

    def to_json(self) -> dict[str, Any]:
        cand = self.candidate
        return {
            "lead": self.lead,
            "band": cand.band if cand else None,
            "strength": round(cand.strength, 3) if cand else None,
            "chance": round(cand.chance, 3) if cand and cand.chance is not None else None,
            "why": self.why,
            "listing": cand.listing if cand else "",
            "terms": [
                {"term": r.term, "fields": r.fields, "weight": round(r.weight, 2)}
                for r in self.terms
            ],
        }

    @property
    def heading(self) -> str:
        """'systematic-debugging: possible · 41 % (an estimate, 0.46)': the band and the
        chance it reads first, as the app's Band column and Explanation give them."""
        cand = self.candidate
        return f"{self.name}: {band_text(cand)} (an estimate, {cand.strength:.2f})" if cand else ""


def term_rows(cand: LikelyCandidate, index: LikelyIndex | None) -> list[TermRow]:
    """The candidate's words and weights, each with the fields that hold it ('?' where
    the index does not say)."""
    doc = index.docs.get(cand.skill.path) if index is not None else None
    rows = []
    for reason in cand.reasons[:SHOWN]:
        fields = [f for f, counts in doc.tf.items() if reason.stem in counts] if doc else []
        rows.append(
            TermRow(reason.term, [FIELD_NAMES.get(f, f) for f in fields] or ["?"], reason.weight)
        )
    return rows


def explain_candidate(
    cand: LikelyCandidate, index: LikelyIndex | None, first: bool, lead: str = ""
) -> LikelyExplained:
    """A ranked candidate (`first`: the request's first): what its band read, what the
    listing shows, its words."""
    model, evidence = (index.model, cand.evidence) if index else (None, None)
    why = evidence_text(model, evidence, first) if model and evidence else ""
    return LikelyExplained(
        cand.name,
        lead,
        cand,
        why,
        term_rows(cand, index),
        max(0, len(cand.reasons) - SHOWN),
    )


def why_not_likely(
    likely: LikelyResult, name: str, index: LikelyIndex | None, registry: Registry
) -> LikelyExplained:
    """ "Why not X?" where the model chooses: first whether the agent loads and lists X
    at all (no word helps a skill it never reads), and an error it loads in spite of;
    then where X ranks among the likely candidates and what puts the first one ahead,
    then X's words and weights (an estimate)."""
    ranked = [c.name for c in likely.candidates]
    blocked = not_loaded(registry, name)
    if blocked:
        return LikelyExplained(name, blocked + " It is not ranked.")
    skill = registry.get(name)
    note = error_note(registry.profile.name, skill) if skill is not None else None
    head = note + " " if note else ""
    if name not in ranked:
        return LikelyExplained(
            name,
            head + "None of the request's distinctive words is in its name, description or "
            "other fields the model reads, so it is unlikely to be picked (an estimate). Use "
            "the words users type in its description.",
        )
    cand = likely.candidates[ranked.index(name)]
    top = likely.candidates[0]
    if top.name != name:
        ahead = (
            f"It ranks {ranked.index(name) + 1}, {cand.band} ({cand.strength:.2f}); "
            f"{top.name} ranks first, {top.band} ({top.strength:.2f}): its words match "
            "more of the request's distinctive words."
        )
    else:
        ahead = f"It ranks first, {cand.band} ({cand.strength:.2f})."
    return explain_candidate(cand, index, cand is top, head + ahead)


def caveat(selects: str) -> str:
    """What an estimate is not, and what alone selects (MatchResult.selects)."""
    return f"{CAVEAT} {selects}".strip()


EXPLAINED = 3  # the candidates `match --explain` explains, in rank order


def ranking_explained(
    likely: LikelyResult, index: LikelyIndex | None, selects: str, limit: int = EXPLAINED
) -> list[str]:
    """The lines `match --explain` leads with where the model chooses: each of the first
    likely or possible candidates as the app's Explanation explains it (its band and
    chance, why that band, what the listing shows; the first one's words and weights),
    the caveat once. None ranked: no lines (the ranking says so)."""
    shown = [c for c in likely.candidates if c.band != "unlikely"][:limit]
    if not shown:
        return []
    lines = ["Why each is ranked so (an estimate, as Try a Request's Explanation says it):"]
    for rank, cand in enumerate(shown):
        explained = explain_candidate(cand, index, rank == 0)
        body = explained_text(explained, selects, terms=rank == 0)[1:]
        lines += ["  " + body[0]] + ["    " + line for line in body[2:]]
    return [*lines, "  " + caveat(selects)]


def explained_text(explained: LikelyExplained, selects: str, terms: bool = True) -> list[str]:
    """The lines `match --why NAME` writes: what the app's Explanation shows (`terms`
    false: without the words' table)."""
    lines = [explained.lead]
    cand = explained.candidate
    if cand is None:
        return lines
    lines.append(explained.heading)
    lines.append(caveat(selects))
    if explained.why:
        lines.append(f"why {cand.band}: {explained.why}")
    if cand.listing:
        lines.append(f"listing: {cand.listing}")
    if explained.terms and terms:
        width = max(len("term"), *(len(r.term) for r in explained.terms))
        places = [", ".join(r.fields) for r in explained.terms]
        room = max(len("field"), *(len(p) for p in places))
        lines.append(f"{'term':<{width}}  {'field':<{room}}  weight")
        lines += [
            f"{r.term:<{width}}  {p:<{room}}  {r.weight:6.2f}"
            for r, p in zip(explained.terms, places, strict=True)
        ]
        if explained.more_terms:
            lines.append(f"… {counted(explained.more_terms, 'more term')}")
    return lines
