"""Overlap: pairs of skills whose descriptions would compete for the same requests.

Each skill is a vector of term weights under the likely-candidates model
(core/ranking/likely_index.py, without the body: what the model reads when it chooses; the
name weighted like the description): for each of its words and phrases, what
it alone would score for the skill as a request. A pair's score is the highest
of three figures: the cosine of the two vectors (they say the same things),
the name probe (a request made of each skill's name words: how much of its
weight the other skill scores, the geometric mean of both ways), which pairs
skills named for one subject whose descriptions say different things (the
corpus's code-review skills: cosines 0.08-0.14), and the descriptions'
resemblance (core/ranking/resemblance.py: the same text, or nearly, scores 1.0 or
close to it whatever the weights; copies of one description made most of
their words common, and the cosine of the weights missed them all).
Words and phrases both names have and neither description says (`naming_terms`:
"driven development" of subagent-driven-development and test-driven-development)
are a naming convention, not what either skill is for: the cosine, the name probe
and the shared words leave them out of that pair (they rated the two 0.55).

Pairs are never formed naively (all pairs of 10,000 skills are 50 million),
and every stage is bounded, so that descriptions built against it cost
seconds, not minutes and gigabytes (issue 25: every word shared by exactly
100 skills took 55.7 s and 2.2 GB at 10,000 skills):
- candidate pairs share a rare word (one in at most `RARE_MAX` skills), found
  through the index's postings; the pairs such words make are counted first,
  and if they pass `PAIR_WORK` the rarest words are kept and the cap lowered
  (on every real and synthetic folder measured they make a quarter of it or less);
- a candidate is scored in full only if those words alone could get it near
  the threshold (or the name probe or the resemblance does), and at most
  `SCORED_MAX` of them, the strongest by that estimate;
- each skill keeps its `PER_SKILL` strongest pairs (a pair is listed if it is
  among the strongest of either skill; a crowd of copies lists each copy with
  its `PER_SKILL` neighbours).
What a bound left out is counted in `Bounds` and said in the output.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from ..model.diagnostics import Diagnostic
from ..model.skills import Skill
from ..model.text import counted, normalize
from ..reading.skill_words import stem, terms, with_phrases
from ..scanning.registry import Registry
from .estimate import FIELDS_MODEL, Model
from .likely_index import LikelyIndex
from .resemblance import NEAR_POOL, copies, copy_text, near, near_pool

THRESHOLD = 0.3  # score at or above which `overlap` lists a pair
LINT_THRESHOLD = 0.45  # and `lint` reports a near-duplicate (description-overlap)
# A word in at most RARE_MAX skills is rare enough to pair them (a word in k skills
# makes k(k-1)/2 candidate pairs: at most 4,950 each).
RARE_MAX = 100
# Pair updates the rare words may cost (about a microsecond and, for a new pair, 100
# bytes each): 96,503 at 10,000 synthetic skills, 27,804 on the corpus of 217
PAIR_WORK = 400_000
SCORED_MAX = 100_000  # candidate pairs scored in full (5-10 µs each)
PER_SKILL = 20  # pairs listed per skill, its strongest
SHARED_SHOWN = 6
# The fields the model reads, the name weighted like the description: two
# skills whose descriptions say the same thing compete whatever their names.
# (b as the thresholds were calibrated with; the likely ranking's lower b suits
# its longer gists, which overlap does not read)
OVERLAP_MODEL = Model(
    weights=tuple((f, 1.0 if f == "name" else w) for f, w in FIELDS_MODEL.weights), b=0.75
)


@dataclass(slots=True)
class Pair:
    a: Skill
    b: Skill
    score: float  # the highest of cosine, name probe and resemblance, 0..1
    shared: list[tuple[str, float]]  # (word, weight in both), strongest first
    resemblance: float = 0.0  # of the descriptions' texts, when NEAR or more (1.0: the same)

    def to_json(self) -> dict[str, Any]:
        out = {
            "skills": [self.a.name, self.b.name],
            "paths": [self.a.path, self.b.path],
            "score": round(self.score, 3),
            "shared": [{"term": term, "weight": round(weight, 2)} for term, weight in self.shared],
        }
        if self.resemblance:
            out["resemblance"] = round(self.resemblance, 3)
        return out


@dataclass(slots=True)
class Bounds:
    """What the bounds of the work left out (nothing, unless a folder is built to
    make pairs by the million)."""

    rare_cap: int = RARE_MAX  # words in at most this many skills paired skills
    words_left: int = 0  # words in more (up to RARE_MAX) that paired nobody for it
    unscored: int = 0  # candidate pairs not scored (past SCORED_MAX, the weakest)
    unlisted: int = 0  # pairs at or above the threshold past PER_SKILL of both skills
    crowded: int = 0  # skills whose near-duplicate pool (NEAR_POOL) was all near-duplicates

    @property
    def cut(self) -> bool:
        return bool(self.words_left or self.unscored or self.unlisted or self.crowded)

    def to_json(self) -> dict[str, int]:
        return {
            "rare_cap": self.rare_cap,
            "words_not_paired": self.words_left,
            "pairs_not_scored": self.unscored,
            "pairs_not_listed": self.unlisted,
            "skills_crowded": self.crowded,
        }

    def text(self) -> str:
        """What was left out, in a few words ("" when nothing was)."""
        parts = []
        if self.words_left:
            parts.append(
                f"{counted(self.words_left, 'word')} shared by more than "
                f"{counted(self.rare_cap, 'skill')} paired none of them (too many pairs to try)"
            )
        if self.crowded:
            parts.append(
                f"{counted(self.crowded, 'skill')} with more near-copies than the "
                f"{NEAR_POOL} compared"
            )
        if self.unscored:
            parts.append(f"{counted(self.unscored, 'weaker candidate pair')} not scored")
        if self.unlisted:
            parts.append(
                f"{counted(self.unlisted, 'pair')} not listed beyond each skill's "
                f"{PER_SKILL} strongest"
            )
        return "; ".join(parts)


@dataclass(slots=True)
class Overlaps:
    pairs: list[Pair]  # strongest first
    bounds: Bounds = field(default_factory=Bounds)
    tried: int = 0  # pair updates made over the rare words' postings (at most PAIR_WORK)
    scored: int = 0  # candidate pairs scored in full (at most SCORED_MAX)


def overlaps(
    registry: Registry,
    threshold: float = THRESHOLD,
    index: LikelyIndex | None = None,
) -> list[Pair]:
    """Every pair of active skills at or above `threshold`, strongest first (within
    the bounds: `overlap_report` says what they left out)."""
    return overlap_report(registry, threshold, index).pairs


def overlap_report(
    registry: Registry,
    threshold: float = THRESHOLD,
    index: LikelyIndex | None = None,
) -> Overlaps:
    """The pairs at or above `threshold`, strongest first, and what the bounds cut."""
    index = index or LikelyIndex(registry, OVERLAP_MODEL)
    index.sync()
    slots = index.slots
    size = len(slots) or 1
    vectors = index.vectors()
    # the cosine is over words; the name's phrases serve the name probe below
    norms = {
        slot: math.sqrt(sum(w * w for t, w in v.items() if " " not in t)) or 1.0
        for slot, v in vectors.items()
    }
    # a request naming one skill's subject in its own name's words
    probes = {doc.slot: name_probe(index, doc.skill, vectors[doc.slot]) for doc in slots if doc}
    bounds = Bounds()
    cap = _rare_cap(index, probes, bounds)
    partial, tried = _partial_dots(index, cap, size)
    probed, probe_tries = _probe_pairs(index, probes, cap, size, partial)
    resembling, copied = _near_pairs(index, size, bounds)

    told: Said = {}  # `naming_terms`' memo

    def naming(slot_a: int, slot_b: int) -> frozenset[str]:
        a, b = slots[slot_a], slots[slot_b]
        assert a is not None and b is not None
        return naming_terms(index, a.skill, b.skill, told)

    def answered(slot_a: int, slot_b: int, naming: frozenset[str]) -> float:
        """Share of a request of `slot_a`'s name words that `slot_b` scores."""
        own, other = vectors[slot_a], vectors[slot_b]
        words = [t for t in probes[slot_a] if t not in naming]
        whole = sum(own[t] for t in words)
        return sum(other.get(t, 0.0) for t in words) / whole if whole else 0.0

    def probe(slot_a: int, slot_b: int) -> float:
        named = naming(slot_a, slot_b)
        return math.sqrt(answered(slot_a, slot_b, named) * answered(slot_b, slot_a, named))

    # candidates and an estimate of each one's score (from below)
    floor = threshold / 2  # rare words carry most of a competing pair's similarity
    estimates: dict[int, float] = {}
    probe_of: dict[int, float] = {}
    for key, dot in partial.items():
        slot_a, slot_b = divmod(key, size)
        estimate = dot / (norms[slot_a] * norms[slot_b])
        if key in probed:
            probed_score = probe_of[key] = probe(slot_a, slot_b)
            if probed_score >= threshold:
                estimate = max(estimate, probed_score)
            elif estimate < floor:
                continue
        elif estimate < floor:
            continue
        estimates[key] = estimate
    for key, value in resembling.items():
        estimates[key] = max(estimates.get(key, 0.0), value)
    del partial
    if len(estimates) > SCORED_MAX:
        bounds.unscored = len(estimates) - SCORED_MAX
        strongest = heapq.nlargest(SCORED_MAX, estimates.items(), key=lambda item: item[1])
        estimates = dict(strongest)

    # every candidate's score (the words shared worked out again for those listed)
    scores: dict[int, float] = {}
    for key in estimates:
        slot_a, slot_b = divmod(key, size)
        va, vb = vectors[slot_a], vectors[slot_b]
        if len(va) > len(vb):
            va, vb = vb, va
        named = naming(slot_a, slot_b)
        dot = sum(w * vb[t] for t, w in va.items() if t in vb and " " not in t and t not in named)
        score = max(dot / (norms[slot_a] * norms[slot_b]), probe_of.get(key, 0.0))
        score = max(score, resembling.get(key, 0.0))
        if score >= threshold:
            scores[key] = score
    listed = _strongest_per_skill(scores, slots, size)
    bounds.unlisted = len(scores) - len(listed) + copied

    pairs: list[Pair] = []
    for key in listed:
        slot_a, slot_b = divmod(key, size)
        va, vb = vectors[slot_a], vectors[slot_b]
        if len(va) > len(vb):
            va, vb = vb, va
        named = naming(slot_a, slot_b)
        shared = {t: w * vb[t] for t, w in va.items() if t in vb and t not in named}
        a, b = slots[slot_a], slots[slot_b]
        assert a is not None and b is not None
        first, second = sorted((a.skill, b.skill), key=lambda s: (s.name, s.path))
        # ties broken by the word: weights summed in set order differ in their last bits
        best = sorted(shared.items(), key=lambda item: (-round(item[1], 9), item[0]))
        best = best[:SHARED_SHOWN]
        shown = [(t, math.sqrt(w)) for t, w in best]
        pairs.append(Pair(first, second, scores[key], shown, resembling.get(key, 0.0)))
    pairs.sort(key=lambda p: (-p.score, p.a.name, p.b.name))
    forms: dict[str, dict[str, str]] = {}  # path -> its words by stem (once per skill)
    for pair in pairs:
        pair.shared = readable(pair.shared, [word_forms(index, s, forms) for s in (pair.a, pair.b)])
    return Overlaps(pairs, bounds, tried + probe_tries, len(estimates))


def name_probe(index: LikelyIndex, skill: Skill, vector: dict[str, float]) -> list[str]:
    """The terms of the skill's name that make its name probe: a number is no subject
    ("copy-07" and "notes-07" named nothing in common)."""
    return [t for t in index.name_terms(skill) if t in vector and not t.isdigit()]


Said = dict[str, tuple[frozenset[str], frozenset[str] | None]]  # see `naming_terms`


def told_terms(index: LikelyIndex, skill: Skill) -> frozenset[str]:
    """The words and phrases of what the listing shows of the skill besides its name
    (its description, and any other field it reads): what the skill says it is for."""
    texts = [text for role, text in index.texts(skill).items() if role != "name"]
    return frozenset(with_phrases(terms(" ".join(texts), index.model.stem), True))


def naming_terms(
    index: LikelyIndex, a: Skill, b: Skill, memo: Said | None = None
) -> frozenset[str]:
    """The terms both names have and neither description uses: a naming convention, not
    a purpose ("subagent-driven-development" and "test-driven-development" share "driven
    development", which neither description says: one runs a plan's tasks through
    subagents, the other writes the test first). The cosine, the name probe and the
    shared words leave them out; a name word one description uses too ("receiving code
    review feedback") is the pair's subject and counts. (`memo`: path -> the skill's name
    terms and, once needed, its `told_terms`.)"""
    memo = {} if memo is None else memo

    def said(skill: Skill, told: bool) -> tuple[frozenset[str], frozenset[str] | None]:
        known = memo.get(skill.path)
        if known is None:
            known = memo[skill.path] = (frozenset(index.name_terms(skill)), None)
        if told and known[1] is None:
            known = memo[skill.path] = (known[0], told_terms(index, skill))
        return known

    both = said(a, False)[0] & said(b, False)[0]
    if not both:
        return frozenset()
    told_a, told_b = said(a, True)[1], said(b, True)[1]
    assert told_a is not None and told_b is not None
    return both - told_a - told_b


def _rare_cap(index: LikelyIndex, probes: dict[int, list[str]], bounds: Bounds) -> int:
    """The highest number of skills (at most RARE_MAX) a word may be in to pair them,
    such that the pairs the rare words make cost at most PAIR_WORK updates: the
    words' pairs (k(k-1)/2 for a word in k skills) and the name probe's (k-1 for
    each of those k skills whose name has the word)."""
    named: Counter[str] = Counter()
    for words in probes.values():
        named.update(words)
    work = [0] * (RARE_MAX + 1)
    for term, df in index.df.items():
        if 2 <= df <= RARE_MAX:
            work[df] += (0 if " " in term else df * (df - 1) // 2) + named[term] * (df - 1)
    total = 0
    for cap in range(2, RARE_MAX + 1):
        total += work[cap]
        if total > PAIR_WORK:
            bounds.rare_cap = cap - 1
            bounds.words_left = sum(
                1 for t, df in index.df.items() if cap <= df <= RARE_MAX and " " not in t
            )
            return cap - 1
    return RARE_MAX


def _partial_dots(index: LikelyIndex, cap: int, size: int) -> tuple[dict[int, float], int]:
    """(slot_a × size + slot_b, a < b) -> the dot product over the rare words both
    have (an int key: 60 bytes less a pair than a tuple), and the updates made."""
    partial: dict[int, float] = {}
    get = partial.get
    tried = 0
    for term, df in index.df.items():
        # phrases join the exact score, not the search: a pair sharing a rare
        # phrase shares its rare words (and phrases would triple the pairs tried)
        if df < 2 or df > cap or " " in term:
            continue
        bucket = sorted(zip(*index.bucket(term), strict=True))
        tried += df * (df - 1) // 2
        for i, (slot_a, weight_a) in enumerate(bucket):
            base = slot_a * size
            for slot_b, weight_b in bucket[i + 1 :]:
                key = base + slot_b
                partial[key] = get(key, 0.0) + weight_a * weight_b
    return partial, tried


def _probe_pairs(
    index: LikelyIndex, probes: dict[int, list[str]], cap: int, size: int, partial: dict[int, float]
) -> tuple[set[int], int]:
    """Pairs the name probe is tried on: a rare word (or phrase) of one's name that
    the other has too (added to `partial` at 0.0 when they share no rare word), and
    the pairs tried."""
    probed: set[int] = set()
    tried = 0
    for term, df in index.df.items():
        if df < 2 or df > cap:
            continue
        holders = sorted(index.bucket(term)[0])
        for slot_a in (slot for slot in holders if term in probes[slot]):
            tried += len(holders) - 1
            for slot_b in holders:
                if slot_b != slot_a:
                    key = min(slot_a, slot_b) * size + max(slot_a, slot_b)
                    partial.setdefault(key, 0.0)
                    probed.add(key)
    return probed, tried


def _near_pairs(index: LikelyIndex, size: int, bounds: Bounds) -> tuple[dict[int, float], int]:
    """Near-duplicate descriptions: key -> resemblance (at least NEAR), and how many
    pairs of copies were left out. Copies of one text are paired each with its
    PER_SKILL nearest in slot order (all of them in a small group); the others
    from `near_pool` (a bounded read of the index; a pool found all near-duplicates
    is counted in `bounds.crowded`: there may be more)."""
    docs = [doc for doc in index.slots if doc is not None]
    texts = {doc.slot: copy_text(doc.skill.description) for doc in docs}
    found: dict[int, float] = {}  # (0.0: compared, not near)
    left_out = 0  # pairs of copies not paired
    group_of: dict[int, int] = {}
    for number, group in enumerate(copies((slot, text[0]) for slot, text in texts.items())):
        reach = len(group) if len(group) <= PER_SKILL + 1 else PER_SKILL // 2
        for i, slot_a in enumerate(group):
            group_of[slot_a] = number
            for slot_b in group[i + 1 : i + 1 + reach]:
                found[slot_a * size + slot_b] = 1.0
        total = len(group) * (len(group) - 1) // 2
        left_out += total - sum(min(reach, len(group) - 1 - i) for i in range(len(group)))
    sets = {slot: text[1] for slot, text in texts.items() if text[1]}
    del texts
    stemmed = index.model.stem
    for doc in docs:
        mine = sets.get(doc.slot)
        if not mine:
            continue
        slot, number = doc.slot, group_of.get(doc.slot, -1)
        nears = twins = 0
        for other in near_pool(index, slot, set(terms(doc.skill.description, stemmed))):
            if number >= 0 and group_of.get(other) == number:
                twins += 1
                continue  # a copy: paired above (and counted in left_out)
            theirs = sets.get(other)
            if not theirs:
                continue  # a description too short to have word pairs resembles nothing
            key = min(slot, other) * size + max(slot, other)
            value = found.get(key)
            if value is None:
                value = found[key] = near(mine, theirs)
            nears += value > 0
        bounds.crowded += nears > 0 and nears + twins == NEAR_POOL
    return {key: value for key, value in found.items() if value}, left_out


def _strongest_per_skill(scores: dict[int, float], slots: list[Any], size: int) -> list[int]:
    """The pairs among the PER_SKILL strongest of either of their skills (ties: by the
    other skill's name and path)."""
    mine: dict[int, list[int]] = defaultdict(list)
    for key in scores:
        slot_a, slot_b = divmod(key, size)
        mine[slot_a].append(key)
        mine[slot_b].append(key)
    keep: set[int] = set()
    for slot, keys in mine.items():
        if len(keys) <= PER_SKILL:
            keep.update(keys)
            continue

        def rank(key: int, slot: int = slot) -> tuple[float, str, str]:
            a, b = divmod(key, size)
            other = slots[b if a == slot else a].skill
            return (-round(scores[key], 9), other.name, other.path)

        keep.update(heapq.nsmallest(PER_SKILL, keys, key=rank))
    return [key for key in scores if key in keep]


def word_forms(
    index: LikelyIndex, skill: Skill, memo: dict[str, dict[str, str]] | None = None
) -> dict[str, str]:
    """stem -> the word as the skill writes it first: in what the listing shows of it,
    then in its body's gist (`memo`: the forms worked out already, by path)."""
    if memo is not None and skill.path in memo:
        return memo[skill.path]
    out: dict[str, str] = {}
    stemmed = index.model.stem
    for text in (*index.texts(skill).values(), skill.gist):
        for word in normalize(text).split():
            out.setdefault(stem(word) if stemmed else word, word)
    if memo is not None:
        memo[skill.path] = out
    return out


def readable(
    shared: list[tuple[str, float]], forms: list[dict[str, str]]
) -> list[tuple[str, float]]:
    """A pair's shared terms (stems, phrases of stems) in the words its own skills
    write them with (`forms`: `word_forms` of each, the first pair member first), so
    that `overlap`, `lint` and the language server name a pair's words alike."""

    def word(part: str) -> str:
        return next((found[part] for found in forms if part in found), part)

    return [(" ".join(word(part) for part in term.split()), w) for term, w in shared]


def competitors(
    registry: Registry, name: str, threshold: float = THRESHOLD
) -> list[tuple[str, float]]:
    """(other skill, score) for the skills competing with `name`, strongest first."""
    return [
        (pair.b.name if pair.a.name == name else pair.a.name, pair.score)
        for pair in overlaps(registry, threshold)
        if name in (pair.a.name, pair.b.name)
    ]


def overlap_diagnostics(pairs: list[Pair]) -> list[Diagnostic]:
    """`description-overlap` (info), at most one per skill: its strongest rival, with
    the pair's score and shared words, and how many other skills also compete with it
    (`skillstudio overlap` lists every pair). One note per pair and skill made 12,934
    notes on a marketplace of 838 skills."""
    rivals: dict[str, tuple[Pair, Skill, Skill]] = {}  # path -> its strongest pair
    more: Counter[str] = Counter()  # path -> the other pairs it is in
    for pair in sorted(pairs, key=lambda p: (-p.score, p.a.name, p.b.name, p.a.path, p.b.path)):
        for skill, other in ((pair.a, pair.b), (pair.b, pair.a)):
            if skill.path in rivals:
                more[skill.path] += 1
            else:
                rivals[skill.path] = (pair, skill, other)
    return [
        overlap_note(skill, other, pair, more[skill.path]) for pair, skill, other in rivals.values()
    ]


def overlap_note(skill: Skill, other: Skill, pair: Pair, others: int) -> Diagnostic:
    """The one `description-overlap` note (info) of `skill`, on its description: its
    strongest rival `other` (of `pair`, with the pair's score and shared words) and how
    many `others` also compete with it. Every reader's note is made here: `lint` and
    `show` from the project's pairs, the language server from the edited skill's."""
    line, column = _description_at(skill)
    if pair.resemblance >= 1.0:
        what = f"is the same text as {other.name}'s"
    elif pair.resemblance:
        what = f"is nearly the same text as {other.name}'s"
    else:
        what = f"competes with {other.name}"
    terms = ", ".join(term for term, _ in pair.shared)
    also = (
        f" and {counted(others, 'other skill')} (`skillstudio overlap` lists them)"
        if others
        else ""
    )
    return Diagnostic(
        "description-overlap",
        "info",
        f"the description {what} ({pair.score:.2f}; shared: {terms}){also}: a "
        "model may pick either for the same request; make each say what sets it "
        "apart.",
        skill.path,
        line,
        column,
        "description",
        skill.name,
    )


def bounds_diagnostic(bounds: Bounds, path: str) -> Diagnostic:
    """`description-overlap` (info) on a root: the overlap check was bounded."""
    return Diagnostic(
        "description-overlap",
        "info",
        f"the overlap check was bounded here ({bounds.text()}): descriptions made of words "
        "that many skills share make too many pairs to try; `skillstudio overlap` lists the "
        "pairs found.",
        path,
    )


def _description_at(skill: Skill) -> tuple[int, int]:
    """Where the description's value starts (1, 1 when unknown)."""
    try:
        found = skill.doc.positions().get("description")
    except Exception:  # positions are a nicety: a diagnostic without them still says what
        found = None
    return (found.value_line, found.value_column) if found else (1, 1)
