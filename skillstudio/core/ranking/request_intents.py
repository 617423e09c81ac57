"""Request intents: the words skills use for what a request says in other words.

A developer types "the checkout page throws a 500" or "the login form randomly logs
users out, no idea why"; a debugging skill's listing says "bug", "debug". No word of
the request is in the listing, so a word ranking cannot reach it (docs/performance.md,
"Round 5"). This short table, written for this project (not taken from any skill or
agent), reads a few ways software requests say an intent (something is broken; think
a design through; try it in a browser) and adds the intent's words to the request at
`INTENT_WEIGHT` of a word's weight (likely_ranking.py): in requests only, as skills
are read as they are. Each added word is shown with what said it ("bug (from
'crashes')"), so an author sees why a skill scored. Kept short and general: each
entry is wording any developer types, never a single evaluation request's.
"""

from __future__ import annotations

import re

from ..model.text import normalize

# What a request's wording says (a pattern over its normalized text: lowercase,
# punctuation as spaces, so "doesn't" reads "doesn t") -> the intent's words.
_BROKEN = ("bug", "debug")
_DESIGN = ("brainstorm", "design")
_TRY_IT = ("test", "browser")
INTENTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # something is broken: how a request reports a bug without the word
    (r"crash(?:es|ed|ing)?", _BROKEN),
    (r"throw(?:s|n|ing)?", _BROKEN),
    (r"exceptions?", _BROKEN),
    (r"errors?", _BROKEN),
    (r"stack ?traces?|tracebacks?", _BROKEN),
    (r"(?:4|5)\d\d", _BROKEN),  # an HTTP status as a word ("a 500", "404s")
    (r"broken", _BROKEN),
    (r"(?:doesn t|does not|don t|do not|isn t|is not|not) work(?:ing)?", _BROKEN),
    (r"no idea why", _BROKEN),
    (r"randomly", _BROKEN),
    (r"regressions?", _BROKEN),
    # a design to think through before building it
    (r"think(?:ing)? (?:through|about how)", _DESIGN),
    (r"ideas? for", _DESIGN),
    (r"how (?:\S+ ){0,4}should(?: \S+){0,4} work|how should", _DESIGN),  # "how … should … work"
    (r"explore (?:the )?(?:options|approaches|alternatives)", _DESIGN),
    # try it as a user would
    (r"check (?:that )?it works in (?:a|the) browser", _TRY_IT),
    (r"click(?:ing)? through", _TRY_IT),
)
_PATTERNS = [(re.compile(rf"(?<!\S){pattern}(?!\S)"), words) for pattern, words in INTENTS]


def request_intents(query: str) -> list[tuple[str, list[str]]]:
    """(intent word, the request's wordings that said it) for each intent word the
    request's wording says, first said first (each intent word once, with every
    wording that said it, in the request's order)."""
    text = normalize(query)
    found: dict[str, list[tuple[int, str]]] = {}
    for pattern, words in _PATTERNS:
        hit = pattern.search(text)
        if hit is None:
            continue
        said = as_typed(query, hit.group())
        for word in words:
            found.setdefault(word, []).append((hit.start(), said))
    ordered = sorted(found.items(), key=lambda item: min(item[1]))
    return [(word, [said for _, said in sorted(hits)]) for word, hits in ordered]


def as_typed(query: str, wording: str) -> str:
    """`wording` (normalized: "doesn t work") as the request typed it ("doesn't work"),
    for the reasons; the normalized form where it cannot be found."""
    parts = wording.split()
    typed = re.search(
        r"(?<![^\W_])" + r"[\W_]+".join(map(re.escape, parts)) + r"(?![^\W_])", query, re.I
    )
    return typed.group() if typed else wording
