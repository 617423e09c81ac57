"""Near-duplicate descriptions, measured without term weights.

Overlap's cosine (core/ranking/overlap.py) weighs words by how few skills use them, so
it is blind where it matters most: copies of one description. Two skills with
the same text in a folder of two score 0.33 (every shared word is in every
skill: its weight is next to nothing, and the names' words decide); twenty
copies among forty, or ten thousand copies, pair nobody. A description's
*resemblance* to another is the Jaccard similarity of their sets of adjacent
word pairs (w-shingling, Broder 1997), over the normalised text (case,
punctuation and spacing aside, stop words kept: it is the text, copied or
edited, not its subject): 1.0 for the same description, 0.81 for 20 words of
which one was changed, 0.44 for the two deliberate near-duplicates of
tests/test_overlap.py, which the cosine already pairs. From `NEAR` on, two
descriptions are near-duplicates: the pair's overlap score is at least the
resemblance, whatever the weights.

Candidates are found in the likely index's postings, not among all pairs, with
a bounded read: each skill's description words rarest first, `NEAR_READS`
postings at most (when even the rarest is in more skills, `WINDOWS` words are
read around the skill's own slot), and the `NEAR_POOL` skills sharing the most
of those words are compared in full. Copies of one description are grouped by
their normalised text instead (`copies`), which a folder of 10,000 copies
answers in one pass.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from itertools import pairwise
from operator import itemgetter

from ..model.text import words_of
from .likely_index import LikelyIndex

NEAR = 0.5  # resemblance from which two descriptions are near-duplicates
MIN_WORDS = 3  # a description of fewer words is a title: the cosine judges it
NEAR_READS = 512  # postings read per skill to find its near-duplicates (a C loop)
WINDOWS = 4  # words read around the skill when even its rarest is in too many skills
# skills compared in full per skill: those sharing the most words read (more than
# overlap lists per skill, so that a crowd of near-copies fills each one's list)
NEAR_POOL = 24


def shingles(description: str) -> frozenset[int]:
    """The description's adjacent word pairs (hashed: only compared, in one process),
    none when it has fewer than `MIN_WORDS` words."""
    return copy_text(description)[1]


def copy_text(description: str) -> tuple[str, frozenset[int]]:
    """What copies of the description have in common (its normalised words), and its
    `shingles`, from one reading; ("", frozenset()) under `MIN_WORDS` words."""
    words = words_of(description)
    if len(words) < MIN_WORDS:
        return "", frozenset()
    return " ".join(words), frozenset(map(hash, pairwise(words)))


def resemblance(a: frozenset[int], b: frozenset[int]) -> float:
    """Jaccard similarity of two shingle sets (0.0 when either is empty)."""
    if not a or not b:
        return 0.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared) if shared else 0.0


def near(a: frozenset[int], b: frozenset[int]) -> float:
    """`resemblance` when it is NEAR or more, else 0.0 (sets whose sizes differ too
    much for it are not compared: the smaller over the larger bounds it)."""
    small, large = len(a), len(b)
    if small > large:
        small, large = large, small
    if small < NEAR * large:
        return 0.0
    value = resemblance(a, b)
    return value if value >= NEAR else 0.0


def copies(keys: Iterable[tuple[int, str]]) -> list[list[int]]:
    """Groups of two or more slots whose descriptions are the same text, each in
    slot order, from (slot, text copies share: `described`) pairs ("": none)."""
    groups: dict[str, list[int]] = {}
    for slot, key in keys:
        if key:
            groups.setdefault(key, []).append(slot)
    return [sorted(group) for group in groups.values() if len(group) > 1]


def near_pool(index: LikelyIndex, slot: int, words: Iterable[str]) -> list[int]:
    """Up to `NEAR_POOL` other slots most likely to hold a near-duplicate of the skill
    in `slot`, from its description's `words` (terms of the index): those sharing the
    most of them, and at least half of those read (a near-duplicate shares most).
    Words are read rarest first while `NEAR_READS` postings allow; when even the
    rarest is in more skills, the postings of `WINDOWS` words are read around `slot`,
    and a skill must be in every window (a crowd of copies: each has its neighbours
    in all of them; a skill's neighbours in one word's postings seldom are)."""
    df, postings = index.df, index.postings
    counts: Counter[int] = Counter()
    left, read, width = NEAR_READS, 0, 0
    for size, term in sorted([(df.get(t, 0), t) for t in words]):
        if size < 2:
            continue  # only this skill has it
        slots = postings.raw(term)[0]
        if width or size > left:
            if read and not width:
                break  # (the rarer words, read in full)
            width = NEAR_READS // WINDOWS
            at = bisect_left(slots, slot)
            start = max(0, min(at - width // 2, size - width))
            counts.update(slots[start : start + width])
            read += 1
            if read == WINDOWS:
                break
            continue
        counts.update(slots)
        left -= size
        read += 1
    counts.pop(slot, None)
    need = read if width else (read + 1) // 2
    found = [item for item in counts.items() if item[1] >= need]
    if len(found) > NEAR_POOL:  # (a stable sort: ties in the order read, rarer words first)
        found = sorted(found, key=itemgetter(1), reverse=True)[:NEAR_POOL]
    return [other for other, _ in found]
