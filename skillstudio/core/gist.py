"""A skill's body in brief: its most frequent content words, with their counts.

The likely-candidates ranking (core/likely.py) reads them as a low-weight
field: the model does not read the body when it chooses, but the body's
vocabulary is what the model knows about the skill's domain, and it reaches
requests worded differently from the description. Bodies are not kept in
memory, so each skill keeps this gist instead: at most `GIST_WORDS` words, taken
when the file is read (only for profiles where the model chooses), about 1 KB
per skill.
"""

from __future__ import annotations

import heapq
from collections import Counter
from operator import itemgetter

from .match_model import STOPWORDS
from .text import normalize

GIST_WORDS = 200  # tuned on tests/eval (see README, "Likely candidates")
GIST_CHARS = 20_000  # of the body, read from its start


def body_gist(body: str) -> str:
    """`word count word count ...`: the body's most frequent content words, most
    frequent first (ties in the order they first appear)."""
    if not body:
        return ""
    counts = Counter(normalize(body[:GIST_CHARS]).split())
    words = (
        (word, count)
        for word, count in counts.items()
        if len(word) > 1 and word not in STOPWORDS and not word.isdigit()
    )
    top = heapq.nlargest(GIST_WORDS, words, key=itemgetter(1))
    return " ".join(f"{word} {count}" for word, count in top)


def gist_counts(gist: str) -> list[tuple[str, int]]:
    """The (word, count) pairs of a gist."""
    parts = gist.split()
    return [(parts[i], int(parts[i + 1])) for i in range(0, len(parts) - 1, 2)]
