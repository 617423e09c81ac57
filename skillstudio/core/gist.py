"""The words of skills as the likely ranking reads them: stemming, content words,
phrases, and a skill's body in brief (its gist: its most frequent content
words, with their counts).

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
import sys
from collections import Counter
from itertools import pairwise
from operator import itemgetter

import Stemmer  # type: ignore[import-not-found]  # PyStemmer (C Snowball), no stubs

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


STEMMER = Stemmer.Stemmer("english")
STEMS: dict[str, str] = {}


def stem(word: str) -> str:
    found = STEMS.get(word)
    if found is None:
        if len(STEMS) > 200_000:  # bounded: skill files are untrusted
            STEMS.clear()
        found = STEMS[word] = sys.intern(STEMMER.stemWord(word))
    return found


def terms(text: str, stemmed: bool = True, stopwords: frozenset[str] = STOPWORDS) -> list[str]:
    """The content words of `text`, normalized (and stemmed), in order."""
    words = [w for w in normalize(text).split() if w not in stopwords and len(w) > 1]
    if not stemmed:
        return [sys.intern(w) for w in words]
    known = STEMS.get
    return [known(w) or stem(w) for w in words]


def with_phrases(words: list[str], phrases: bool) -> Counter[str]:
    """The words' counts, and with `phrases` each pair of adjacent words'."""
    counts = Counter(words)
    if phrases and len(words) > 1:
        counts.update(f"{a} {b}" for a, b in pairwise(words) if a != b)
    return counts
