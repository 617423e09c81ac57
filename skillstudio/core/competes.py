"""The skills competing with one skill, under the overlap model, from a kept index.

`core.overlap.overlaps` finds every pair of a registry; the app's form asks, as
the user types a description, only for the skills competing with the one being
edited. This answers that from an index kept current per edit (an
`OVERLAP_MODEL` `LikelyIndex`): the skill's rare words (in at most RARE_MAX
skills, as overlap pairs them) are looked up in the postings, the skills
sharing them are ranked by their partial dot product,
and the best few get the full cosine, the same score `skillstudio overlap` gives
the pair. A few milliseconds at 10,000 skills, not seconds.
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict

from .likely import LikelyIndex
from .model import Skill
from .overlap import RARE_MAX, THRESHOLD

POOL = 40  # skills given the full cosine (the best by their shared rarer words)


def competing(
    index: LikelyIndex, path: str, limit: int = 5, threshold: float = THRESHOLD
) -> list[tuple[Skill, float]]:
    """(skill, cosine) of the skills whose words compete with the skill at `path`,
    strongest first, at or above `threshold`; none if the index does not hold it."""
    doc = index.docs.get(path)
    if doc is None:
        return []
    mine = index.vector(path)  # brings these words' postings to their current weights
    norm = math.sqrt(sum(w * w for w in mine.values())) or 1.0
    dots: dict[int, float] = defaultdict(float)
    for term, weight in mine.items():
        bucket = index.postings.get(term, {})
        if len(bucket) > RARE_MAX:
            continue  # as in overlap: only rarer words make a candidate pair
        for slot, value in bucket.items():
            dots[slot] += weight * value
    dots.pop(doc.slot, None)
    out: list[tuple[Skill, float]] = []
    for slot, _dot in heapq.nlargest(POOL, dots.items(), key=lambda item: item[1]):
        other = index.slots[slot]
        if other is None:
            continue
        theirs = index.vector(other.skill.path)
        dot = sum(w * theirs[t] for t, w in mine.items() if t in theirs)
        score = dot / (norm * (math.sqrt(sum(w * w for w in theirs.values())) or 1.0))
        if score >= threshold:
            out.append((other.skill, score))
    out.sort(key=lambda item: (-item[1], item[0].name))
    return out[:limit]
