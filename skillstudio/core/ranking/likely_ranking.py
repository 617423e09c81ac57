"""Likely candidates: an estimate of which skills the model would pick for a request.

For the profiles where the model chooses (docs/commands.md), a request's words
(stemmed, chat fillers dropped, a word no skill has split into two that skills have)
are looked up in the likely index (likely_index.py: BM25F over the name, the
description, what else the listing shows and the body's gist) and the skills ranked
by the sum of their weights. Each candidate gets a band (likely, possible, unlikely)
from a cut-off calibrated on an evaluation set (tests/eval), so a request no skill
serves shows no likely skill; it carries the request's words that scored for it, and
the result the words skills have only in their exclusions. It is an estimate: it
never selects; only explicit invocation does (core/ranking/matching.py).
"""

from __future__ import annotations

import heapq
import math
import sys
from bisect import bisect_left
from collections.abc import Collection, Iterable
from dataclasses import replace
from itertools import compress, islice

from ..model.matches import MAX_QUERY_CHARS, STOPWORDS
from ..model.skills import Skill
from ..model.text import normalize
from ..reading.skill_words import COVER_MIN_WORDS, VARIANTS, abbreviations, covers, stem, unfold
from ..scanning.registry import Registry
from .estimate import (
    LEAD_FLOOR,
    Evidence,
    IgnoredWord,
    LikelyCandidate,
    LikelyResult,
    TermWeight,
    band_of,
    explained_shares,
    likely_chance,
    probability,
)
from .exclusions import clause_holding
from .likely_index import LikelyIndex
from .request_intents import request_intents
from .trigger_phrases import Phrase, best_hit, request_positions

# At most this many words a request has in skills' exclusions are reported
MAX_IGNORED = 10

# Words of a request that say nothing about which skill it needs (beside the
# description stop words): fillers of chat requests. Written for this project.
REQUEST_STOPWORDS = STOPWORDS | frozenset(
    """
    please pls hey hi hello thanks thank ok okay want wants wanted need needs needed
    like would could can help me im ive id dont doesnt cant isnt whats thats lets
    something anything thing things stuff kind sort bit lot really actually maybe
    just also one s t re ve ll d m e g eg ie vs etc gonna wanna
    """.split()
)

# A request's word found in more than half of the skills counts nothing (in a
# collection of 20 or more; unless the request has no other): its weight is below
# log 2 for every skill alike, and skipping it halves the work at 10,000 skills
# (measured: 34,000 → 16,000 postings read per request of the benchmark).
COMMON_SHARE = 0.5
COMMON_MIN_SKILLS = 20

# A phrase of a skill's trigger clause or name said in the request (trigger_phrases.py)
# adds this many distinctive words' worth (`unit`) to its score; it is looked for
# among the PHRASE_POOL best-scored skills (a phrase's words score for its skill), by
# a model that reads trigger clauses (not the baselines, `FIELDS_MODEL`, `PLAIN_BM25`).
# 1.0 makes the reviewers' "my tests started failing …" and "write an implementation
# plan …" likely; 0.5 neither (docs/performance.md, "Round 4").
PHRASE_WEIGHT = 1.0
PHRASE_POOL = 32

# An intent word the request's wording says (request_intents.py: "crashes" says "bug")
# counts this share of its weight, where the request does not have the word itself; by
# a model that reads trigger clauses, as phrases (docs/performance.md, "Round 6").
INTENT_WEIGHT = 0.75

# stem -> (the word shown, "bug (from 'crashes')"; the request's stems that said it)
Intents = dict[str, tuple[str, tuple[str, ...]]]


def likely(registry: Registry, query: str, index: LikelyIndex | None = None) -> LikelyResult:
    """Rank `registry`'s active skills for `query` (builds an index when none is given)."""
    index = index or LikelyIndex(registry)
    index.sync()
    return rank_likely(index, query)


def rank_likely(
    index: LikelyIndex, query: str, top: int = 30, request: bool = True
) -> LikelyResult:
    """The best `top` skills of `index` for `query`, banded and with their term weights
    (`request`: `query` is a user's request, whose wording says intents; not a skill's
    own description ranked as one)."""
    terms = query_terms(index, query)
    scores = _accumulate(index, terms)
    intents = intent_terms(index, query, terms) if request else {}
    _add_intents(index, intents, scores)
    phrased = _add_phrases(index, query, scores)
    # the top-th score from the floats alone, then the slots at or above it, in C
    # the two best scores at least, whatever `top` is: a candidate's band reads its
    # lead over the best other, so the same request gets the same bands at any `top`
    values = heapq.nlargest(max(top, 2), scores)
    cutoff = max(values[min(top, len(values)) - 1], sys.float_info.min) if values else 1.0
    best = list(compress(range(len(scores)), map(cutoff.__le__, scores)))
    if len(best) > top:  # ties at the cut-off
        best = heapq.nlargest(top, best, key=scores.__getitem__)
    band_unit = unit(index)
    model = index.model
    body_read = model.weight("body") > 0
    # the bar is the request's best score (`values` is best first; `best` is in
    # slot order, and its first slot set the bar before: bands moved with `top`)
    first = values[0] if values else 0.0
    second = values[1] if len(values) > 1 else 0.0
    counted_terms = set(counted(index, terms))
    live = [(t, w, *index.bucket(t)) for t, w in terms.items() if t in counted_terms]
    words = request_information(index, terms)
    # (a word that said an intent skills have is not one no skill here has: "a 500")
    saying = {source for _, sources in intents.values() for source in sources}
    unknown = unknown_share(index, words, saying)
    out: list[LikelyCandidate] = []
    for slot in best:
        doc = index.slots[slot]
        assert doc is not None  # a free slot scores 0
        score = scores[slot]
        strength = score / band_unit
        reasons = []
        for term, word, holders, weights in live:
            at = bisect_left(holders, slot)
            if at < len(holders) and holders[at] == slot and weights[at]:
                reasons.append(TermWeight(word, term, weights[at]))
        for term, (word, sources) in intents.items():
            holders, weights = index.bucket(term)
            at = bisect_left(holders, slot)
            if at < len(holders) and holders[at] == slot and weights[at]:
                reasons.append(TermWeight(word, term, INTENT_WEIGHT * weights[at], source=sources))
        if reasons and body_read:
            shown = index.shown_terms(doc.skill)
            for reason in reasons:
                reason.body = reason.stem not in shown
        said = phrased.get(slot)
        if said is not None:  # (its words are the listing's: not a share of their own)
            reasons.append(
                TermWeight(said.text, " ".join(said.stems), said_weight(index), rule=said.rule)
            )
        reasons.sort(key=lambda r: -r.weight)
        other = second if score >= first else first  # the best score of another skill
        ratio = score / first if first else 0.0
        lead = strength / max(other / band_unit, LEAD_FLOOR)
        evidence = Evidence(strength, lead, *explained_shares(reasons, words), False, unknown)
        chance = probability(model, evidence) if model.calibration is not None else None
        # whether the request covers the description is read only where it can change
        # the band (within likely_ratio of the best, and not likely already; its
        # calibrated weight is 0): read for every candidate it took a fifth of the time
        likely_already = (
            likely_chance(model, evidence, chance)
            if chance is not None
            else strength >= model.likely
        )
        within = ratio >= model.likely_ratio and not likely_already
        if within and _covers(index, doc.skill, terms, len(reasons)):
            evidence = replace(evidence, covers=True)
        band = band_of(model, evidence, ratio, chance)
        candidate = LikelyCandidate(doc.skill, score, strength, band, reasons, evidence)
        candidate.listing = index.shows(doc.skill)
        candidate.chance = chance
        out.append(candidate)
    out.sort(key=lambda c: (-c.score, c.name))
    result = LikelyResult(query, out, len(scores) - scores.count(0.0))
    result.ignored = _ignored(index, terms)
    return result


def content_words(terms: dict[str, str]) -> list[str]:
    """The request's content words (stems; its word pairs aside), what the explained
    share of a candidate is counted over."""
    return [term for term in terms if " " not in term]


def request_information(index: LikelyIndex, terms: dict[str, str]) -> dict[str, float]:
    """The request's content words (stems) with the information each carries in this
    collection: its IDF, the most for a word no skill has. The shares of the request a
    candidate explains are counted in it (`Evidence`)."""
    rarest = unit(index)  # (a word no skill has tells no more than one a single skill has)
    return {term: min(index.idf(term), rarest) for term in content_words(terms)}


def unknown_share(
    index: LikelyIndex, words: dict[str, float], saying: Collection[str] = ()
) -> float:
    """The share of the request's information (`request_information`) in words no
    skill of `index` has (but those `saying` an intent, `intent_terms`): what it asks
    for is likely none of theirs."""
    total = math.fsum(words.values())
    unknown = (v for t, v in words.items() if t not in index.df and t not in saying)
    return math.fsum(unknown) / total if total else 0.0


def scores(index: LikelyIndex, query: str) -> dict[str, float]:
    """path -> score, for every skill of `index` with a word of `query`."""
    terms = query_terms(index, query)
    summed = _accumulate(index, terms)
    _add_intents(index, intent_terms(index, query, terms), summed)
    _add_phrases(index, query, summed)
    return {
        doc.skill.path: summed[doc.slot]
        for doc in index.slots
        if doc is not None and summed[doc.slot] > 0
    }


def unit(index: LikelyIndex) -> float:
    """The weight of a word only one skill has, fully matched: the band unit."""
    count = len(index.docs)
    return math.log(1 + (count - 0.5) / 1.5) or 1.0


def query_terms(index: LikelyIndex, query: str) -> dict[str, str]:
    """stem -> the request's first word with that stem (of its first
    MAX_QUERY_CHARS characters, as the matcher reads it)."""
    model = index.model
    out: dict[str, str] = {}
    last: tuple[str, str] | None = None
    said: dict[str, str] = {}  # a word an abbreviation stood for -> the abbreviation
    text = query[:MAX_QUERY_CHARS]
    for short in {found.lower() for found in abbreviations(text)}:
        said.update((long, short) for long in VARIANTS[short])
    for word in normalize(unfold(text)).split():
        if word in REQUEST_STOPWORDS or len(word) < 2:
            continue
        key = stem(word) if model.stem else word
        abbrev = said.get(word)  # ("pull (pr)" in the reasons shown: what was typed too)
        typed = f"{word} ({abbrev})" if abbrev else word
        if key not in index.df and model.stem:
            parts = _split(index, word)  # "dataframe": "data" + "frame"
            if parts:
                for part in parts:
                    out.setdefault(part, word)
                last = None
                continue
        out.setdefault(key, typed)
        if last is not None and model.phrases and last[0] != key:
            pair = f"{last[1]} {typed}"
            if abbrev and last[1].endswith(f" ({abbrev})"):  # "pull request (pr)"
                pair = f"{last[1].removesuffix(f' ({abbrev})')} {typed}"
            out.setdefault(f"{last[0]} {key}", pair)
        last = (key, typed)
    return out


def _split(index: LikelyIndex, word: str) -> tuple[str, str] | None:
    """A word no skill has, as two words skills have (decompounding: the first
    split from the left whose halves, three letters or more, are both known)."""
    if len(word) < 6 or not word.isalpha():
        return None
    for cut in range(3, len(word) - 2):
        head, tail = stem(word[:cut]), stem(word[cut:])
        if head in index.df and tail in index.df:
            return head, tail
    return None


def common(index: LikelyIndex, term: str) -> bool:
    """Whether `term` is in too many skills to count (see COMMON_SHARE)."""
    count = len(index.docs)
    return count >= COMMON_MIN_SKILLS and index.df.get(term, 0) > count * COMMON_SHARE


def counted(index: LikelyIndex, terms: Iterable[str]) -> list[str]:
    """The request's terms that count: those skills have, but not most of them (see
    COMMON_SHARE), or all it has when each is in most (copies of one description)."""
    known = [term for term in terms if term in index.postings]
    return [term for term in known if not common(index, term)] or known


def _accumulate(index: LikelyIndex, terms: Iterable[str]) -> list[float]:
    """Each slot's score for the request's terms."""
    summed = [0.0] * len(index.slots)
    for term in counted(index, terms):
        slots, values = index.bucket(term)
        for slot, value in zip(slots, values, strict=True):
            summed[slot] += value
    return summed


def intent_terms(index: LikelyIndex, query: str, terms: dict[str, str]) -> Intents:
    """The intent words the request's wording says (request_intents.py) that it does not
    have itself and skills have, by a model that reads trigger clauses."""
    model = index.model
    if not INTENT_WEIGHT or model.weight("trigger") <= 0:
        return {}
    out: Intents = {}
    for word, said in request_intents(query[:MAX_QUERY_CHARS]):
        term = stem(word) if model.stem else word
        if term in terms or term in out or term not in index.postings or common(index, term):
            continue
        stems = [stem(part) for wording in said for part in normalize(wording).split()]
        sources = tuple(t for t in dict.fromkeys(stems) if t in terms)
        out[term] = (f"{word} (from {', '.join(map(repr, said))})", sources)
    return out


def _add_intents(index: LikelyIndex, intents: Intents, summed: list[float]) -> None:
    """Add to `summed` each intent word's weight, at INTENT_WEIGHT."""
    for term in intents:
        slots, values = index.bucket(term)
        for slot, value in zip(slots, values, strict=True):
            summed[slot] += INTENT_WEIGHT * value


def said_weight(index: LikelyIndex) -> float:
    """What a phrase hit adds to a skill's score (PHRASE_WEIGHT distinctive words)."""
    return PHRASE_WEIGHT * unit(index)


def _add_phrases(index: LikelyIndex, query: str, summed: list[float]) -> dict[int, Phrase]:
    """Add to `summed` what each of the best-scored skills' phrase the request says
    brings (trigger_phrases.py); slot -> the phrase, for those."""
    if not PHRASE_WEIGHT or index.model.weight("trigger") <= 0:
        return {}
    values = heapq.nlargest(PHRASE_POOL, summed)  # (on the floats alone, then the slots, in C)
    if not values or not values[0]:
        return {}
    cutoff = max(values[-1], sys.float_info.min)
    pool = list(islice(compress(range(len(summed)), map(cutoff.__le__, summed)), 2 * PHRASE_POOL))
    model = index.model
    positions = request_positions(query, REQUEST_STOPWORDS, model.stem)
    out: dict[int, Phrase] = {}
    bonus = said_weight(index)
    for slot in pool:
        doc = index.slots[slot]
        assert doc is not None  # a free slot scores 0
        found = best_hit(index.said_phrases(doc.skill), positions)
        if found is not None:
            out[slot] = found
            summed[slot] += bonus
    return out


def _ignored(index: LikelyIndex, terms: dict[str, str]) -> list[IgnoredWord]:
    """The request's words skills have only in their exclusions, with the clause."""
    out: list[IgnoredWord] = []
    for term, word in terms.items():
        for path in sorted(index.excluded.get(term, ())):
            if len(out) < MAX_IGNORED:
                skill = index.docs[path].skill
                out.append(IgnoredWord(skill.name, word, _clause(index, skill, term)))
    return out


def _clause(index: LikelyIndex, skill: Skill, term: str) -> str:
    """The exclusion clause of `skill` that holds `term`."""
    return clause_holding(index.texts(skill), skill.own_name, term, index.model.stem)


def _covers(index: LikelyIndex, skill: Skill, terms: dict[str, str], matched: int) -> bool:
    """Whether the request says what the skill's description says (`matched`: how
    many of the request's counted terms the skill has)."""
    share = index.model.covered
    if not share or matched < COVER_MIN_WORDS:
        return False
    description = index.listing(skill)[0].get("description", "")
    return covers(description, terms, share, index.model.stem)
