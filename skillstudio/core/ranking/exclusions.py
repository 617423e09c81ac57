"""A description's exclusion clauses: the words it says the skill is *not* for.

"Not for simple one-file pages", "Do not use for …", "DON'T USE WHEN: …",
"(for fixing bugs use debugging)", "use pdf-forms instead for …": the model
reads them as a pointer away from the skill, so their words are no evidence
for it (PRODUCT.md section 5, issue 28). The likely ranking reads a
description without them (core/ranking/likely_index.py) and says which of a
request's words it left out.

A clause runs from its opening words to the end of its sentence (a full stop
before a space, a semicolon, a line break) or to the parenthesis that holds
it. Patterns are plain, bounded regular expressions over text of bounded
length (a listing's description: PRODUCT.md's limits; longer text is read up
to `MAX_CHARS`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..reading.skill_words import terms

# The listing's texts (`Profile.listing_texts` keys) whose exclusion clauses are left out
EXCLUDING = ("description", "use_when")
MAX_CHARS = 8192  # a description is at most a few thousand characters

_FLAGS = re.IGNORECASE
# "not for", "not meant for", "not to be used for", "is not suited to"
_NOT_FOR = re.compile(
    r"\bnot\s+(?:(?:intended|meant|designed|suited|suitable|built)\s+)?"
    r"(?:for|to\s+be\s+used\s+(?:for|when|on)|suited\s+to)\b",
    _FLAGS,
)
# "do not use for", "don't use when", "DO NOT USE FOR:", "never use this skill for",
# "avoid using it when", "don't trigger on"
_DO_NOT_USE = re.compile(
    r"\b(?:do\s+not|don[’']?t|never|avoid)\s+(?:use|using|invoke|invoking|trigger|apply|load)"
    r"(?:\s+(?:this(?:\s+skill)?|it|the\s+skill))?\s*:?\s*(?:for|when|if|on|to|with|in|as)?\b",
    _FLAGS,
)
# "instead" (not "instead of": "use this instead of grep" speaks for the skill)
_INSTEAD = re.compile(r"\binstead\b(?!\s+of\b)", _FLAGS)
# "(for X use Y)": a parenthesis that sends part of the work elsewhere
_FOR_USE_PAREN = re.compile(
    r"\(\s*for\s+[^()]{1,200}?\buse\s+(?!this\b|it\b|when\b|for\b|to\b)[^()]{1,200}\)", _FLAGS
)
# a reference to another skill: `name`, "name", a hyphenated or namespaced name
_REFERENCE = r"(?:`[^`\n]{1,64}`|\"[^\"\n]{1,64}\"|'[^'\n]{1,64}'|[a-z0-9]+(?:[-_:][a-z0-9]+)+)"
# "for X, use other-skill", "use `other` for X", "use other-skill when X"
_FOR_USE_REF = re.compile(
    rf"\bfor\s+[^.;()\n]{{1,120}}?,?\s+use\s+(?:the\s+)?(?P<ref>{_REFERENCE})", _FLAGS
)
_USE_REF_FOR = re.compile(
    rf"\buse\s+(?:the\s+)?(?P<ref>{_REFERENCE})(?:\s+skill)?\s+(?:for|when|if|to)\b", _FLAGS
)
# where a clause ends: a full stop before a space or the end (not "e.g."), a
# semicolon, a line break, or a parenthesis closing one the clause is inside
_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)\.(?=\s|$)|[;\n)]", _FLAGS)
# where the segment holding an "instead" starts: after a stop, a semicolon, a
# line break, an opening parenthesis, a dash, or a "but"
_START = re.compile(r"(?:\.\s|[;\n(]|\s[-–—]\s|,?\s\bbut\b)", _FLAGS)


@dataclass(frozen=True, slots=True)
class Clause:
    start: int
    end: int
    text: str


def clause_end(text: str, start: int) -> int:
    """Where a clause opening at `start` ends (see `_END`; trigger_clauses.py too)."""
    found = _END.search(text, start)
    return found.start() if found else len(text)


def _segment_start(text: str, at: int) -> int:
    begin = 0
    for found in _START.finditer(text, 0, at):
        begin = found.end()
    return begin


def _own(ref: str, own_name: str) -> bool:
    return ref.strip("`\"'").lower() in {own_name.lower(), ""}


def exclusion_clauses(text: str, own_name: str = "") -> list[Clause]:
    """The exclusion clauses of a description, in order, overlapping ones joined
    (`own_name`: the skill's name, which a clause naming it does not exclude)."""
    text = text[:MAX_CHARS]
    lower = text.lower()
    spans: list[tuple[int, int]] = []
    # (each pattern only where its words are: most descriptions have none)
    negated = "not" in lower or "n't" in lower or "never" in lower or "avoid" in lower
    for pattern in (_NOT_FOR, _DO_NOT_USE) if negated else ():
        for found in pattern.finditer(text):
            spans.append((found.start(), clause_end(text, found.end())))
    for found in _INSTEAD.finditer(text) if "instead" in lower else ():
        spans.append((_segment_start(text, found.start()), clause_end(text, found.end())))
    if "use" in lower:
        for found in _FOR_USE_PAREN.finditer(text) if "(" in text else ():
            spans.append((found.start() + 1, found.end() - 1))
        for pattern in (_FOR_USE_REF, _USE_REF_FOR):
            for found in pattern.finditer(text):
                if not _own(found.group("ref"), own_name):
                    spans.append((found.start(), clause_end(text, found.end())))
    spans.sort()
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [Clause(s, e, text[s:e].strip()) for s, e in merged if text[s:e].strip()]


def without_exclusions(text: str, own_name: str = "") -> tuple[str, list[Clause]]:
    """The text with its exclusion clauses blanked out (a stop in their place, so
    that words on either side do not meet), and the clauses."""
    clauses = exclusion_clauses(text, own_name)
    if not clauses:
        return text, []
    parts: list[str] = []
    last = 0
    for clause in clauses:
        parts.append(text[last : clause.start])
        parts.append(" . ")
        last = clause.end
    parts.append(text[last:])
    return "".join(parts), clauses


def listing_without_exclusions(
    texts: dict[str, str], own_name: str, stemmed: bool
) -> tuple[dict[str, str], set[str]]:
    """A listing's texts (field -> text) with the exclusion clauses of EXCLUDING's
    fields left out, and the terms only those clauses had."""
    kept, dropped = dict(texts), []
    for name in EXCLUDING:
        text = texts.get(name)
        if text:
            kept[name], clauses = without_exclusions(text, own_name)
            dropped += [c.text for c in clauses]
    if not dropped:
        return texts, set()
    left = set().union(*(terms(text, stemmed) for text in kept.values()))
    return kept, set(terms(" ".join(dropped), stemmed)) - left


def clause_holding(texts: dict[str, str], own_name: str, term: str, stemmed: bool) -> str:
    """The first exclusion clause of a listing's texts that holds `term` ("" if none)."""
    for name in EXCLUDING:
        for clause in exclusion_clauses(texts.get(name, ""), own_name):
            if term in terms(clause.text, stemmed):
                return clause.text
    return ""
