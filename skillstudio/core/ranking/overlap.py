"""Overlap: pairs of skills whose descriptions would compete for the same requests.

Each skill is a vector of term weights under the likely-candidates model
(core/ranking/model_pick.py, without the body: what the model reads when it chooses; the
name weighted like the description): for each of its words and phrases, what
it alone would score for the skill as a request. A pair's score is the higher
of two figures: the cosine of the two vectors (they say the same things), and
the name probe (a request made of each skill's name words: how much of its
weight the other skill scores, the geometric mean of both ways), which pairs
skills named for one subject whose descriptions say different things (the
corpus's code-review skills: cosines 0.08-0.14). Pairs are never formed
naively (all pairs of 10,000 skills are 50 million): only skills that share a
rare word (one in at most `RARE_MAX` skills) become a candidate pair, found
through the index's postings, and a pair is scored in full only if those rare
words alone could get it near the threshold.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from ..model.diagnostics import Diagnostic
from ..model.skills import Skill
from ..scanning.registry import Registry
from .model_pick import FIELDS_MODEL, LikelyIndex, Model, display_terms

THRESHOLD = 0.3  # cosine at or above which `overlap` lists a pair
LINT_THRESHOLD = 0.45  # and `lint` reports a near-duplicate (description-overlap)
LINT_MAX_SKILLS = 5_000  # lint checks overlap up to this many active skills
# A word in at most RARE_MAX skills is rare enough to pair them (a word in k skills
# makes k(k-1)/2 candidate pairs: at most 4,950 each).
RARE_MAX = 100
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
    score: float  # cosine similarity, 0..1
    shared: list[tuple[str, float]]  # (word, weight in both), strongest first

    def to_json(self) -> dict[str, Any]:
        return {
            "skills": [self.a.name, self.b.name],
            "paths": [self.a.path, self.b.path],
            "score": round(self.score, 3),
            "shared": [{"term": term, "weight": round(weight, 2)} for term, weight in self.shared],
        }


def overlaps(
    registry: Registry,
    threshold: float = THRESHOLD,
    index: LikelyIndex | None = None,
) -> list[Pair]:
    """Every pair of active skills at or above `threshold`, strongest first."""
    index = index or LikelyIndex(registry, OVERLAP_MODEL)
    index.sync()
    slots = [doc for doc in index.slots]
    vectors = index.vectors()
    # the cosine is over words; the name's phrases serve the name probe below
    norms = {
        slot: math.sqrt(sum(w * w for t, w in v.items() if " " not in t)) or 1.0
        for slot, v in vectors.items()
    }
    rare = RARE_MAX
    # partial dot products over shared rare words, through the postings
    partial: dict[tuple[int, int], float] = defaultdict(float)
    for term, df in index.df.items():
        # phrases join the exact score, not the search: a pair sharing a rare
        # phrase shares its rare words (and phrases would triple the pairs tried)
        if df < 2 or df > rare or " " in term:
            continue
        bucket = sorted(zip(*index._bucket(term), strict=True))
        for i, (slot_a, weight_a) in enumerate(bucket):
            for slot_b, weight_b in bucket[i + 1 :]:
                partial[slot_a, slot_b] += weight_a * weight_b
    # a request naming one skill's subject in its own name's words: how much of
    # its weight the other answers (candidates again from shared rare words)
    probes = {
        doc.slot: [t for t in index.name_terms(doc.skill) if t in vectors[doc.slot]]
        for doc in slots
        if doc is not None
    }
    probed: set[tuple[int, int]] = set()
    for term, df in index.df.items():
        if df < 2 or df > rare:
            continue
        holders = sorted(index._bucket(term)[0])
        named = [slot for slot in holders if term in probes[slot]]
        for slot_a in named:
            for slot_b in holders:
                if slot_b != slot_a:
                    key = (min(slot_a, slot_b), max(slot_a, slot_b))
                    partial.setdefault(key, 0.0)
                    probed.add(key)

    def answered(slot_a: int, slot_b: int) -> float:
        """Share of a request of `slot_a`'s name words that `slot_b` scores."""
        own = vectors[slot_a]
        words = probes[slot_a]
        whole = sum(own[t] for t in words)
        other = vectors[slot_b]
        return sum(other.get(t, 0.0) for t in words) / whole if whole else 0.0

    pairs: list[Pair] = []
    floor = threshold / 2  # rare words carry most of a competing pair's similarity
    for (slot_a, slot_b), dot in partial.items():
        norm = norms[slot_a] * norms[slot_b]
        probe = 0.0
        if (slot_a, slot_b) in probed:
            probe = math.sqrt(answered(slot_a, slot_b) * answered(slot_b, slot_a))
        if dot / norm < floor and probe < threshold:
            continue
        va, vb = vectors[slot_a], vectors[slot_b]
        if len(va) > len(vb):
            va, vb = vb, va
        shared = {t: w * vb[t] for t, w in va.items() if t in vb}
        cosine = sum(w for t, w in shared.items() if " " not in t) / norm
        score = max(cosine, probe)
        if score < threshold:
            continue
        a, b = slots[slot_a], slots[slot_b]
        assert a is not None and b is not None
        first, second = sorted((a.skill, b.skill), key=lambda s: (s.name, s.path))
        # ties broken by the word: weights summed in set order differ in their last bits
        best = sorted(shared.items(), key=lambda item: (-round(item[1], 9), item[0]))
        best = best[:SHARED_SHOWN]
        pairs.append(Pair(first, second, score, [(t, math.sqrt(w)) for t, w in best]))
    pairs.sort(key=lambda p: (-p.score, p.a.name, p.b.name))
    words = display_terms(index, {t for p in pairs for t, _ in p.shared})
    for pair in pairs:
        pair.shared = [(words.get(t, t), w) for t, w in pair.shared]
    return pairs


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
    """`description-overlap` (info) on each skill of each pair, naming the other."""
    out: list[Diagnostic] = []
    for pair in pairs:
        terms = ", ".join(term for term, _ in pair.shared)
        for skill, other in ((pair.a, pair.b), (pair.b, pair.a)):
            line, column = _description_at(skill)
            out.append(
                Diagnostic(
                    "description-overlap",
                    "info",
                    f"the description competes with {other.name} ({pair.score:.2f}; shared: "
                    f"{terms}): a model may pick either for the same request; make each "
                    "say what sets it apart.",
                    skill.path,
                    line,
                    column,
                    "description",
                    skill.name,
                )
            )
    return out


def _description_at(skill: Skill) -> tuple[int, int]:
    """Where the description's value starts (1, 1 when unknown)."""
    try:
        found = skill.doc.positions().get("description")
    except Exception:  # positions are a nicety: a diagnostic without them still says what
        found = None
    return (found.value_line, found.value_column) if found else (1, 1)
