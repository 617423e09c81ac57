"""The skills competing with one skill, from a likely-candidates index kept for the app.

`core.overlap.overlaps` finds every pair of a registry; the app's form asks, as
the user types a description, only for the skills competing with the one being
edited. This answers that from a `LikelyIndex` kept current per edit: the app's
is the overlap model's own (`OVERLAP_MODEL`: descriptions whole, the project's
skills only), and then the pairs and scores are exactly `skillstudio overlap`'s.
Over another index of the same skills (the likely ranking's reads the bodies'
gists too) the counts are made an overlap index's: the skills that have a word in
their body only (`body_only`) are left out of its document count (counted, a word
common in bodies gave other pairs: on a public collection algorithmic-art 0.38 in
the form, frontend-design 0.33 in `overlap`). Try a Request's index cannot serve:
it reads descriptions as the listing's budget cuts them and holds the agent's own
skills (on a claude-code project of 181 skills, 96 got other pairs). The skill's
rare words (in at most RARE_MAX skills, as overlap pairs them) are looked up in
the postings, the skills sharing them are ranked by their partial dot product,
and the best few get the full cosine of their vectors under the overlap model
(the same fields, the name weighted like the description), recomputed from the
index's term counts with the current average lengths and IDF: the score
`skillstudio overlap` gives the pair. Near-duplicate descriptions (the same text,
or nearly: core/ranking/resemblance.py) are looked up the same way, and a pair's
score is at least their resemblance, as in overlap. The agent's own skills
(`competing_own`) are scored the same way against the project's counts, which
they never enter (docs/commands.md, "What a pair is weighed against").
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from collections.abc import Iterator, Mapping

from ..model.skills import Skill
from ..reading.skill_words import terms
from .estimate import Model
from .likely_index import LikelyIndex, snapped
from .overlap import (
    OVERLAP_MODEL,
    PER_SKILL,
    RARE_MAX,
    SHARED_SHOWN,
    THRESHOLD,
    Pair,
    Said,
    name_probe,
    naming_terms,
    readable,
    word_forms,
)
from .resemblance import near, near_pool, shingles

POOL = 40  # skills given the full cosine (the best by their shared rare words)
Rival = tuple[Skill, float, float, dict[str, float]]  # (skill, score, resemblance, vector)


_NONE: dict[str, int] = {}


def uncounted(index: LikelyIndex, model: Model = OVERLAP_MODEL) -> Mapping[str, int]:
    """term -> the skills `index` counts for it that an index of the same skills under
    `model` does not: those with it in the body only, where `model` does not read the
    body and the index does (else none)."""
    reads = dict(index.model.weights).get("body", 0.0)
    return index.body_only if reads and not dict(model.weights).get("body", 0.0) else _NONE


def df_under(index: LikelyIndex, term: str, minus: Mapping[str, int]) -> int:
    """The skills an index under the model of `minus` (`uncounted`) counts for `term`."""
    return index.df.get(term, 0) - minus.get(term, 0)


def vector_under(index: LikelyIndex, path: str, model: Model = OVERLAP_MODEL) -> dict[str, float]:
    """A skill's weight per term under `model` (BM25F, as `LikelyIndex.vector` gives
    them under the index's own model), from the index's counts, lengths and the IDF an
    index under `model` would have."""
    doc = index.docs[path]
    return _weighed(index, doc.tf, doc.lengths, model)


def _weighed(
    index: LikelyIndex,
    fields: Mapping[str, Mapping[str, int]],
    lengths: Mapping[str, int],
    model: Model,
) -> dict[str, float]:
    """Term -> weight under `model` of a skill whose fields have these term counts and
    lengths, with `index`'s document counts (as `model` counts them) and average lengths."""
    count = len(index.docs) or 1
    k1, b = model.k1, model.b
    minus = uncounted(index, model)
    tf: dict[str, float] = defaultdict(float)
    for name, counts in fields.items():
        weight = model.weight(name)
        if not weight:
            continue
        avg = snapped(index.length_sums[name] / count) if index.length_sums[name] else 1.0
        factor = weight / (1 - b + b * lengths[name] / avg)
        for term, times in counts.items():
            tf[term] += factor * times
    out = {}
    held, less, log = index.df.get, minus.get, math.log  # (`df_under`, inlined: 1 call a term)
    for term, x in tf.items():
        df = held(term, 0) - less(term, 0)
        out[term] = log(1 + (count - df + 0.5) / (df + 0.5)) * x / (k1 + x)
    return out


def _norm(vector: dict[str, float]) -> float:
    """Over words only: the name's phrases serve the name probe (as in overlap)."""
    return math.sqrt(sum(w * w for t, w in vector.items() if " " not in t)) or 1.0


def competing(
    index: LikelyIndex, path: str, limit: int = 5, threshold: float = THRESHOLD
) -> list[tuple[Skill, float]]:
    """(skill, score) of the skills whose words compete with the skill at `path`,
    strongest first, at or above `threshold`; none if the index does not hold it.
    The score is overlap's: the higher of the word cosine and the name probe (how
    much of a request made of one skill's name words the other answers, both ways)."""
    return [(other, score) for other, score, _, _ in _rivals(index, path, threshold)[:limit]]


def with_own(
    index: LikelyIndex, path: str, own: list[Skill], limit: int = 5, threshold: float = THRESHOLD
) -> list[tuple[Skill, float]]:
    """The form's "competes with": the `limit` strongest of the project's skills
    (`competing`: overlap's pairs and scores when `index` is the overlap model's) and
    the agent's own skills (`competing_own`), strongest first."""
    found: list[tuple[Skill, float]] = []
    for step in with_own_steps(index, path, own, limit, threshold):
        if step is not None:
            found = step
    return found


def with_own_steps(
    index: LikelyIndex, path: str, own: list[Skill], limit: int = 5, threshold: float = THRESHOLD
) -> Iterator[list[tuple[Skill, float]] | None]:
    """`with_own` a step at a time (`rivals_steps`): None between steps, the answer last."""
    rivals: list[Rival] = []
    for step in rivals_steps(index, path, threshold):
        if step is None:
            yield None
        else:
            rivals = step
    yield None
    found = [(other, score) for other, score, _, _ in rivals[:limit]]
    found += competing_own(index, path, own, threshold)
    found.sort(key=lambda item: (-item[1], item[0].name))
    yield found[:limit]


def rival_pairs(
    index: LikelyIndex, path: str, limit: int = PER_SKILL, threshold: float = THRESHOLD
) -> list[Pair]:
    """The pairs `overlap_report` would make of the skill at `path` and each skill
    competing with it, strongest first (as `overlap_diagnostics` orders them): the
    same score, resemblance and shared words, for the one skill an edit changed."""
    doc = index.docs.get(path)
    if doc is None:
        return []
    found = _rivals(index, path, threshold)[:limit]
    forms: dict[str, dict[str, str]] = {}
    forms_told: Said = {}
    pairs: list[Pair] = []
    mine = vector_under(index, path)
    for other, score, resemblance, theirs in found:
        named = naming_terms(index, doc.skill, other, forms_told)
        shared = {t: w * theirs[t] for t, w in mine.items() if t in theirs and t not in named}
        best = sorted(shared.items(), key=lambda item: (-round(item[1], 9), item[0]))
        shown = [(t, math.sqrt(w)) for t, w in best[:SHARED_SHOWN]]
        a, b = sorted((doc.skill, other), key=lambda s: (s.name, s.path))
        words = readable(shown, [word_forms(index, s, forms) for s in (a, b)])
        pairs.append(Pair(a, b, score, words, resemblance))
    pairs.sort(key=lambda p: (-p.score, p.a.name, p.b.name, p.a.path, p.b.path))
    return pairs


def _rivals(index: LikelyIndex, path: str, threshold: float) -> list[Rival]:
    """(skill, score, resemblance when NEAR or more, its vector) of every skill of the
    pool competing with the skill at `path`, strongest first."""
    found: list[Rival] = []
    for step in rivals_steps(index, path, threshold):
        if step is not None:
            found = step
    return found


def rivals_steps(index: LikelyIndex, path: str, threshold: float) -> Iterator[list[Rival] | None]:
    """`_rivals` a step at a time, for a caller that keeps its thread responsive (the
    app's form: about 30 ms a look-up at 10,000 skills, in steps of one candidate):
    None after the pool is chosen and after each candidate scored, the rivals last.
    The index must not change between steps (the caller starts again if it does)."""
    doc = index.docs.get(path)
    if doc is None:
        yield []
        return
    mine = vector_under(index, path)
    minus = uncounted(index)
    dots: dict[int, float] = defaultdict(float)
    for term, weight in mine.items():
        if df_under(index, term, minus) > RARE_MAX:
            continue  # as in overlap: only rare words make a candidate pair
        slots, values = index.postings.raw(term)
        for slot, value in zip(slots, values, strict=True):
            dots[slot] += weight * value
    dots.pop(doc.slot, None)
    norm = _norm(mine)
    pool = {slot for slot, _ in heapq.nlargest(POOL, dots.items(), key=lambda item: item[1])}
    yield None
    pool |= _probe_candidates(index, doc.skill, mine, minus)
    text = shingles(doc.skill.description)
    if text:
        pool.update(near_pool(index, doc.slot, set(terms(doc.skill.description))))
    pool.discard(doc.slot)
    out: list[Rival] = []
    told: Said = {}
    probes: dict[str, list[str]] = {}
    for slot in pool:
        yield None
        other = index.slots[slot]
        if other is None:
            continue
        theirs = vector_under(index, other.skill.path)
        found = _scored(index, doc.skill, mine, norm, text, other.skill, theirs, told, probes)
        if found[0] >= threshold:
            out.append((other.skill, *found, theirs))
    out.sort(key=lambda item: (-item[1], item[0].name))
    yield out


def _scored(
    index: LikelyIndex,
    skill: Skill,
    mine: dict[str, float],
    norm: float,
    text: frozenset[int],
    other: Skill,
    theirs: dict[str, float],
    told: Said,
    probes: dict[str, list[str]],
) -> tuple[float, float]:
    """(score, resemblance when NEAR or more) of `skill` (its vector `mine`, of norm
    `norm`, its description's `shingles` `text`) against `other` (its vector
    `theirs`): overlap's score of the pair (`told`, `probes`: the call's memos)."""
    named = naming_terms(index, skill, other, told)
    dot = sum(
        w * theirs[t] for t, w in mine.items() if t in theirs and " " not in t and t not in named
    )
    cosine = dot / (norm * _norm(theirs))
    probe = math.sqrt(
        _answered(index, skill, mine, theirs, named, probes)
        * _answered(index, other, theirs, mine, named, probes)
    )
    resemblance = near(text, shingles(other.description)) if text else 0.0
    return max(cosine, probe, resemblance), resemblance


def competing_own(
    index: LikelyIndex,
    path: str,
    own: list[Skill],
    threshold: float = THRESHOLD,
    model: Model = OVERLAP_MODEL,
) -> list[tuple[Skill, float]]:
    """(skill, score) of the agent's own skills (`Profile.agent_skills`: Claude Code's
    bundled ones, Codex's system skills) competing with the skill at `path`, strongest
    first: scored as overlap would score the pair, with the document counts and average
    lengths of the project's skills alone (`index`, which does not hold them). Their
    words never change the project's pairs: `overlap` and the Overlap Map compare the
    project's descriptions with each other; the agent's own are weighed against them."""
    doc = index.docs.get(path)
    if doc is None or not own:
        return []
    mine = vector_under(index, path, model)
    norm, text = _norm(mine), shingles(doc.skill.description)
    told: Said = {}
    probes: dict[str, list[str]] = {}
    out = []
    for other in own:
        if other.path in index.docs or index.omits(other) is not None:
            continue  # (held by the index: one of `competing`'s)
        fields = index.fields(other)  # weighed with the project's counts, in none of them
        theirs = _weighed(index, fields, {n: sum(c.values()) for n, c in fields.items()}, model)
        score, _ = _scored(index, doc.skill, mine, norm, text, other, theirs, told, probes)
        if score >= threshold:
            out.append((other, score))
    out.sort(key=lambda item: (-item[1], item[0].name))
    return out


def _probe_candidates(
    index: LikelyIndex, skill: Skill, mine: dict[str, float], minus: Mapping[str, int]
) -> set[int]:
    """Skills overlap tries the name probe on with this one: those sharing a rare word
    that is in one of the two names."""
    named = set(index.name_terms(skill))
    out: set[int] = set()
    names: dict[int, list[str]] = {}  # slot -> its skill's name terms (worked out once)
    for term in mine:
        if not 2 <= df_under(index, term, minus) <= RARE_MAX:
            continue
        slots = index.postings.raw(term)[0]
        if term in named:
            out.update(slot for slot in slots if index.slots[slot] is not None)
            continue
        for slot in slots:
            if slot in out:
                continue
            other = index.slots[slot]
            if other is None:
                continue
            theirs = names.get(slot)
            if theirs is None:
                theirs = names[slot] = index.name_terms(other.skill)
            if term in theirs:
                out.add(slot)
    return out


def _answered(
    index: LikelyIndex,
    skill: Skill,
    own: dict[str, float],
    other: dict[str, float],
    naming: frozenset[str],
    probes: dict[str, list[str]],
) -> float:
    """Share of a request of `skill`'s name words that `other` scores (overlap's probe;
    the pair's `naming` terms left out; `probes`: path -> `name_probe`, worked out once
    per skill and call, as `own` is)."""
    probe = probes.get(skill.path)
    if probe is None:
        probe = probes[skill.path] = name_probe(index, skill, own)
    words = [t for t in probe if t not in naming]
    whole = sum(own[t] for t in words)
    return sum(other.get(t, 0.0) for t in words) / whole if whole else 0.0
