"""What matching works with and answers: terms, reasons, candidates, results.

Shared by the match index, the rankers the profiles pick from, the
explanations and the driver (`matching.match`).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from typing import Any, Literal

from .diagnostics import Diagnostic
from .skills import Skill
from .text import normalize

MAX_QUERY_CHARS = 100_000

# English stopwords left out of description keywords (oasis +1 rule and the
# heuristic of the explicit-invocation profiles). Written for this project.
STOPWORDS = frozenset(
    """
    a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each
    either etc few for from further get gets got had has have having he her here hers
    herself him himself his how i if in into is it its itself just let lets may me might
    more most must my myself no nor not now of off on once only or other our ours
    ourselves out over own per same shall she should so some such than that the their
    theirs them themselves then there these they this those through to too under until
    up upon us use used uses using very via was we were what when where whether which
    while who whom whose why will with within without would you your yours yourself
    yourselves
    """.split()
)

Rule = Literal["trigger", "keyword", "verb", "pattern", "name", "explicit", "recent", "priority"]
POINTS: dict[str, int] = {
    "trigger": 10,
    "keyword": 1,
    "name": 20,
    "explicit": 100,
    "verb": 10,
    "pattern": 10,
    "recent": 1,
}
_EXPLICIT = (
    re.compile(r"^\s*/([A-Za-z0-9][\w.:-]*)(?:\s+(.*))?$", re.S),  # /name args (plugin:name)
    re.compile(r"(?:^|\s)\$([A-Za-z0-9][\w.-]*[A-Za-z0-9]|[A-Za-z0-9])(?=$|[\s.,;:!?)])"),
    re.compile(r"\buse\s+(?:the\s+)?[`'\"]?([A-Za-z0-9][\w.:-]*?)[`'\"]?\s+skill\b", re.I),
)
_CAPABILITY = re.compile(
    r"\b(what can you do|what are you able to do|what are your (?:skills|capabilities)|"
    r"(?:list|show|which|what) (?:me )?(?:all )?(?:the |your |available )*skills|"
    r"what skills|help me with what|your capabilities)\b"
)


@dataclass(frozen=True, slots=True)
class Reason:
    rule: str
    term: str
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "term": self.term, "points": self.points}


class Candidate:
    """One skill's score and reasons; keyword reasons are built when first read
    (a broad request can touch thousands of skills by one common word each)."""

    __slots__ = ("_keywords", "_query_words", "_reasons", "heuristic", "passed", "score", "skill")

    def __init__(self, skill: Skill, heuristic: bool = False) -> None:
        self.skill = skill
        self.score = 0
        self.passed = False
        self.heuristic = heuristic
        self._reasons: list[Reason] = []
        self._keywords: tuple[str, ...] = ()  # the skill's keywords, sorted
        self._query_words: frozenset[str] = frozenset()

    @property
    def name(self) -> str:
        return self.skill.name

    @property
    def reasons(self) -> list[Reason]:
        if self._keywords:
            words = self._query_words
            self._reasons.extend(Reason("keyword", w, 1) for w in self._keywords if w in words)
            self._keywords = ()
        return self._reasons

    def add(self, reason: Reason) -> None:
        self.reasons.append(reason)
        self.score += reason.points

    def points_by_rule(self) -> dict[str, int]:
        """The score added up per rule, in the order the rules first gave points."""
        by_rule: dict[str, int] = {}
        for reason in self.reasons:
            by_rule[reason.rule] = by_rule.get(reason.rule, 0) + reason.points
        return by_rule

    def to_json(self) -> dict[str, Any]:
        return {
            "skill": self.skill.name,
            "score": self.score,
            "passed": self.passed,
            "heuristic": self.heuristic,
            "reasons": [r.to_json() for r in self.reasons],
        }


@dataclass(slots=True)
class MatchResult:
    query: str
    normalized: str
    profile: str
    threshold: int | None
    candidates: list[Candidate]
    selected: list[str]
    tier: int
    explicit: str | None = None  # a skill named by /name, $name or "use … skill"
    blocked: str | None = None  # why that explicit invocation selects nothing
    explicit_args: str = ""
    heuristic: bool = False  # scores are a labelled heuristic, not a prediction
    notes: list[str] = field(default_factory=list)
    selects: str = ""  # what alone selects under the profile (Profile.selects_line)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # `internal`, per skill
    margin: int | None = None
    runner_up: str | None = None
    capability_request: bool = False
    total: int = 0  # candidates with a score above zero, materialized or not
    _rest: list[Candidate] | None = None
    _make_rest: Any = None  # callable building the candidates below the top

    def all_candidates(self) -> list[Candidate]:
        """Every candidate in rank order (the ones below the top are built now)."""
        if self._make_rest is not None:
            self._rest = self._make_rest()
            self._make_rest = None
        return self.candidates + (self._rest or [])

    def candidate(self, name: str) -> Candidate | None:
        found = next((c for c in self.candidates if c.name == name), None)
        if found is None and self.total > len(self.candidates):
            found = next((c for c in self.all_candidates() if c.name == name), None)
        return found

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "normalized": self.normalized,
            "profile": self.profile,
            "tier": self.tier,
            "selected": self.selected,
            "threshold": self.threshold,
            "margin": self.margin,
            "runner_up": self.runner_up,
            "explicit": self.explicit,
            "heuristic": self.heuristic,
            "notes": self.notes,
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "total_candidates": self.total or len(self.candidates),
            "candidates": [c.to_json() for c in self.all_candidates()],
        }


@dataclass(slots=True)
class Terms:
    # Tuples, as every term of a skill here: a list of its own for every skill's
    # phrases and (mostly no) patterns was 1 MB more at 10,000 skills.
    phrases: tuple[tuple[tuple[str, ...], str, str, int], ...]  # (words, rule, term, points)
    keywords: tuple[str, ...]  # sorted, each once (a frozenset took 700-2,300 bytes)
    patterns: tuple[str, ...]  # compiled when first tried (compile_pattern caches them)
    name_words: tuple[str, ...]


def description_keywords(text: str) -> tuple[str, ...]:
    # Interned: ten thousand descriptions share a vocabulary of a few thousand
    # words, and the index holds each word once instead of once per skill. A tuple,
    # not a frozenset: 10 MB less at 10,000 skills (it is only iterated).
    return tuple(
        sorted(
            {sys.intern(w) for w in normalize(text).split() if w not in STOPWORDS and len(w) > 1}
        )
    )


def words_of(text: str) -> tuple[str, ...]:
    return tuple(sys.intern(w) for w in normalize(text).split())


def explicit_invocation(query: str) -> tuple[str, str] | None:
    """(name, args) for `/name args`, `$name` or `use name skill`."""
    for index, pattern in enumerate(_EXPLICIT):
        found = pattern.search(query)
        if found:
            args = (found.group(2) or "").strip() if index == 0 else ""
            return found.group(1), args
    return None


def explicit_form(query: str) -> str | None:
    """Which explicit form `query` takes, as explicit_invocation finds it first:
    `slash` (`/name args`), `mention` (`$name`), `use` (`use name skill`); None: none."""
    for form, pattern in zip(("slash", "mention", "use"), _EXPLICIT, strict=True):
        if pattern.search(query):
            return form
    return None


def is_capability_request(normalized: str) -> bool:
    return bool(_CAPABILITY.search(normalized))


def is_slash_command(query: str) -> bool:
    """Whether the request is `/name …`, a command the user types."""
    return bool(_EXPLICIT[0].match(query))


def says_use_skill(query: str) -> bool:
    """Whether the request has the wording `use X skill`."""
    return bool(_EXPLICIT[2].search(query))
