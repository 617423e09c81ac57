"""Text normalization shared by validation and matching."""

from __future__ import annotations

import re
from collections.abc import Sequence

_NON_WORD = re.compile(r"[^\w\s]|_", re.UNICODE)


# ASCII text (the common case) takes str.translate, which runs in C.
_ASCII_PUNCT = str.maketrans(
    {chr(c): " " for c in range(128) if not chr(c).isalnum() and not chr(c).isspace()}
)


def normalize(text: str) -> str:
    """Lowercase, every punctuation or symbol character to a space, whitespace collapsed.

    This is the oasis normalization (docs/profiles.md); the other profiles use it
    for their keyword heuristics so that scores are comparable.
    """
    if text.isascii():
        return " ".join(text.lower().translate(_ASCII_PUNCT).split())
    return " ".join(_NON_WORD.sub(" ", text.lower()).split())


def words_of(text: str) -> list[str]:
    """`normalize(text).split()`, without joining the words only to split them again."""
    if text.isascii():
        return text.lower().translate(_ASCII_PUNCT).split()
    return _NON_WORD.sub(" ", text.lower()).split()


def sanitize_name(name: str) -> str:
    """The workspace profile's stable id: lowercase, runs of other characters to '-'."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`1 skill`, `2 skills`, `10,000 skills`: every counted noun in a message goes
    through here (a test checks the message templates), so none reads `1 skills`."""
    word = noun if count == 1 else (plural or noun + "s")
    return f"{count:,} {word}"


def first_named(names: Sequence[str], shown: int) -> str:
    """The first `shown` of `names`, then how many more: `a, b, c and 47 more` (every
    long list of names in one line of text goes through here)."""
    first = ", ".join(names[:shown])
    return first if len(names) <= shown else f"{first} and {len(names) - shown:,} more"


def first_paragraph(body: str) -> str:
    """The body's first paragraph of prose (headings and blank lines skipped)."""
    lines: list[str] = []
    for line in body.splitlines():
        stripped = line.strip()
        if not stripped:
            if lines:
                break
            continue
        if stripped.startswith("#") and not lines:
            continue
        lines.append(stripped)
    return " ".join(lines)


_SENTENCE_END = re.compile(r"(?<=.)[.!?](?=\s|$)", re.S)


def first_sentence(text: str) -> str:
    """Up to the first . ! or ? followed by a blank or the end (one linear scan: a lazy
    `(.+?[.!?])` retried from every start was quadratic, minutes on a long text)."""
    text = text.strip()
    match = _SENTENCE_END.search(text)
    sentence = text[: match.end()] if match else text
    return " ".join(sentence.split())
