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

from ..model.skills import Skill
from ..model.text import counted
from ..scanning.registry import Registry
from .estimate import LikelyCandidate, LikelyResult, band_text, evidence_text
from .explanations import error_note, not_loaded
from .likely_index import LikelyIndex
from .likely_ranking import REQUEST_STOPWORDS, query_terms
from .trigger_phrases import hit, request_positions

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
    the index does not say); a phrase it says with where the skill has it."""
    doc = index.docs.get(cand.skill.path) if index is not None else None
    rows = []
    for reason in cand.reasons[:SHOWN]:
        if reason.rule != "term":  # a phrase of its trigger clause or name the request says
            where = f"{FIELD_NAMES.get(reason.rule, reason.rule)}, as a phrase"
            rows.append(TermRow(reason.term, [where], reason.weight))
            continue
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


ADVICE_WORDS = 3  # words of the request, phrases of the skill named in the advice, at most


def request_specifics(index: LikelyIndex, query: str) -> list[str]:
    """The request's words no listing here has (only bodies, or no skill at all), as
    typed: the user's project ("checkout", "cart"), which the model reads past and no
    description needs."""
    out: dict[str, None] = {}
    for term, word in query_terms(index, query).items():
        if " " not in term and index.df.get(term, 0) <= index.body_only.get(term, 0):
            out.setdefault(word, None)
    return list(out)


def unsaid_phrases(index: LikelyIndex, skill: Skill, query: str) -> list[str]:
    """The phrases of `skill`'s trigger clause (core/ranking/trigger_phrases.py) the
    request does not say, as its description writes them."""
    positions = request_positions(query, REQUEST_STOPWORDS, index.model.stem)
    phrases = index.said_phrases(skill)
    return [p.text for p in phrases if p.rule == "trigger" and not hit(p, positions)]


def open_skill_words(index: LikelyIndex, skill: Skill, query: str) -> str:
    """What the open skill's description lacks for a request meant for it, in words
    (the app's "This request is for the open skill", issue 39): the situations its
    trigger clause names that the request does not say (else that it needs the words
    users type for what it does), and that the request's own words no listing here has
    need not be in it where they name the user's project ("checkout", "cart": telling
    an author to add them was wrong advice)."""
    unsaid = unsaid_phrases(index, skill, query)[:ADVICE_WORDS]
    if unsaid:
        named = ", ".join(f"'{text}'" for text in unsaid)
        text = f"the request does not say what its trigger clause names ({named})"
    else:
        text = f"for the model to pick {skill.name}, its description needs the words users type"
    specifics = request_specifics(index, query)
    if specifics:
        more = ", …" if len(specifics) > ADVICE_WORDS else ""
        text += (
            f"; the request's words no skill's listing has ({', '.join(specifics[:ADVICE_WORDS])}"
            f"{more}) need not be added to the description where they name the user's "
            "project (its pages, files, features)"
        )
    return text


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
