"""Trigger phrases: a situation a skill's "Use when …" clause names, said in a request.

Within a collection of related skills (obra-superpowers' 14 process skills) the words
"test", "bug", "fail" are in nearly every body, so their IDF gives them almost nothing
and one incidental rarer word decides ("my tests started failing after the last
merge" went to requesting-code-review, on "merge"; issue 39, round 4). Yet
systematic-debugging's clause names the situation outright: "test failure". Each
item of a description's trigger clauses (split at commas, semicolons, "or", "and")
of two to `ITEM_MAX_WORDS` content words is a phrase; so is the skill's name of two
or more words ("writing-plans"; its words in the name's order: "code review … pull
request" does not say "requesting-code-review"). A request holding every word of a phrase (stems,
core/reading/skill_words.py's folds applied: "failing" meets "failure"), in any
order, within a short window of its content words, is a *phrase hit*: evidence that
does not depend on how many skills share each word, as two words seldom meet by
chance. The likely ranking (likely_ranking.py) adds `PHRASE_WEIGHT` distinctive
words' worth to a candidate's score for it, and shows it as a reason.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..model.matches import MAX_QUERY_CHARS
from ..model.text import words_of
from ..reading.skill_words import stem, terms, unfold
from .trigger_clauses import trigger_text

ITEM_MAX_WORDS = 4  # a longer item is a sentence, not a phrase a request repeats
WINDOW_SLACK = 2  # content words a phrase's words may be apart beyond its own length

# where a trigger clause's items part: commas, semicolons, colons, slashes,
# parentheses, a dash between spaces, a stop, and "or" / "and" / "nor"
# marks left out of a phrase as shown (quotes, emphasis), and trimmed from its ends
_MARKS = re.compile(r"[\"`*“”]")
_EDGES = " -–—'_.!?"
_ITEM_BREAK = re.compile(r"[,;:/()\[\]]|\s[-–—]\s|\.(?:\s|$)|\b(?:or|and|nor)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Phrase:
    """A phrase of a skill: its words as written, their stems, and where it is from
    ("trigger": an item of its description's trigger clauses; "name": its name)."""

    text: str
    stems: tuple[str, ...]
    rule: str


Phrases = tuple[Phrase, ...]
# stem -> where the request says it (`request_positions`)
Positions = Mapping[str, Sequence[float]]


def phrases_of(name: str, description: str, stemmed: bool = True) -> Phrases:
    """The phrases of a skill of `name` whose listing shows `description` (given with
    its exclusion clauses left out, as `LikelyIndex.listing` does: "Do not use for
    style questions" holds no phrase of the skill's)."""
    out: list[Phrase] = []
    seen: set[tuple[str, ...]] = set()
    items = [(name.replace("-", " ").replace("_", " "), "name")]
    items += [(item, "trigger") for item in _ITEM_BREAK.split(trigger_text(description))]
    for text, rule in items:
        stems = tuple(dict.fromkeys(terms(text, stemmed)))  # (a word said twice: once)
        if 2 <= len(stems) <= ITEM_MAX_WORDS and stems not in seen:
            seen.add(stems)
            shown = " ".join(_MARKS.sub("", text).split()).strip(_EDGES)
            out.append(Phrase(shown, stems, rule))
    return tuple(out)


def request_positions(
    query: str, stopwords: frozenset[str], stemmed: bool = True
) -> dict[str, list[float]]:
    """stem -> where the request's content words with that stem stand (counted in
    written words holding a content word; of its first MAX_QUERY_CHARS characters, as
    the ranking reads it). The parts of one written word stand at one place, in their
    order: a file name ("test_cart.py") or a hyphenated word ("add-to-cart") is one word
    of the sentence, not three that push a phrase's words out of its window."""
    out: dict[str, list[float]] = {}
    at = 0
    for written in unfold(query[:MAX_QUERY_CHARS]).split():
        parts = [w for w in words_of(written) if w not in stopwords and len(w) >= 2]
        for number, word in enumerate(parts):
            out.setdefault(stem(word) if stemmed else word, []).append(at + number / len(parts))
        at += bool(parts)
    return out


def hit(phrase: Phrase, positions: Positions) -> bool:
    """Whether the request (`request_positions`) holds every word of `phrase` within
    a window of its length plus WINDOW_SLACK content words, in any order."""
    places = [positions.get(s) for s in phrase.stems]
    if not all(places):
        return False
    window = len(phrase.stems) + WINDOW_SLACK
    if phrase.rule == "name":
        return _in_order(places, window)  # type: ignore[arg-type]  # (none is empty)
    # the narrowest span holding each word once: a sliding window over where they stand
    # (linear in the request's length, however often a word is said)
    marks = sorted((at, which) for which, spots in enumerate(places) for at in spots or ())
    held = [0] * len(places)
    missing, start = len(places), 0
    for at, which in marks:
        missing -= held[which] == 0
        held[which] += 1
        while missing == 0:
            first, kind = marks[start]
            if at - first < window:
                return True
            held[kind] -= 1
            missing += held[kind] == 0
            start += 1
    return False


def _in_order(places: list[Sequence[float]], window: int) -> bool:
    """Whether each word stands after the one before, all within `window` words."""
    for start in places[0]:
        at = start
        for spots in places[1:]:
            found = bisect_right(spots, at)
            if found == len(spots):
                return False  # (a later start finds no later word either)
            at = spots[found]
        if at - start < window:
            return True
    return False


def best_hit(phrases: Phrases, positions: Positions) -> Phrase | None:
    """The longest phrase the request holds (the first of equals), or None."""
    found = None
    for phrase in phrases:
        if (found is None or len(phrase.stems) > len(found.stems)) and hit(phrase, positions):
            found = phrase
    return found
