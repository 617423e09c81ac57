"""Matching: which skills a request selects, with every point explained.

One `MatchIndex` per registry state holds each active skill's terms: phrases
(triggers, names, toolsets keywords and verbs) indexed by their first word,
description keywords as postings, and toolsets patterns. A request then costs
time proportional to what it matches, not to the number of skills, and one
changed skill updates the index without a rebuild.
"""

from __future__ import annotations

import heapq
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import compress
from typing import Any, Literal

from .diagnostics import Diagnostic, internal
from .model import Skill
from .patterns import search_in_turns
from .registry import Registry
from .session import Session
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
TOOLSET_KEYWORD_POINTS = 10

_EXPLICIT = (
    re.compile(r"^\s*/([A-Za-z0-9][\w.-]*)(?:\s+(.*))?$", re.S),  # /name args
    re.compile(r"(?:^|\s)\$([A-Za-z0-9][\w.-]*[A-Za-z0-9]|[A-Za-z0-9])(?=$|[\s.,;:!?)])"),
    re.compile(r"\buse\s+(?:the\s+)?[`'\"]?([A-Za-z0-9][\w.-]*?)[`'\"]?\s+skill\b", re.I),
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
        self._keywords: frozenset[str] = frozenset()
        self._query_words: frozenset[str] = frozenset()

    @property
    def name(self) -> str:
        return self.skill.name

    @property
    def reasons(self) -> list[Reason]:
        if self._keywords:
            matched = sorted(self._keywords & self._query_words)
            self._reasons.extend(Reason("keyword", word, 1) for word in matched)
            self._keywords = frozenset()
        return self._reasons

    def add(self, reason: Reason) -> None:
        self.reasons.append(reason)
        self.score += reason.points

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
class _Terms:
    phrases: list[tuple[tuple[str, ...], str, str, int]]  # (words, rule, term, points)
    keywords: frozenset[str]
    patterns: list[str]  # compiled when first tried (compile_pattern caches them)
    name_words: tuple[str, ...]


def description_keywords(text: str) -> frozenset[str]:
    # Interned: ten thousand descriptions share a vocabulary of a few thousand
    # words, and the index holds each word once instead of once per skill.
    return frozenset(
        sys.intern(w) for w in normalize(text).split() if w not in STOPWORDS and len(w) > 1
    )


def _words(text: str) -> tuple[str, ...]:
    return tuple(sys.intern(w) for w in normalize(text).split())


def skill_terms(skill: Skill, profile: str) -> _Terms:
    fields = skill.fields
    name_words = _words(skill.name)
    phrases: list[tuple[tuple[str, ...], str, str, int]] = []
    patterns: list[str] = []
    if profile == "oasis":
        pairs = zip(fields.get("triggers", []), fields.get("triggers_normalized", []), strict=False)
        for trig, norm in pairs:
            if norm:
                phrases.append((_words(norm), "trigger", trig, POINTS["trigger"]))
        display = normalize(str(fields.get("name") or ""))
        if display:
            phrases.append((_words(display), "name", str(fields.get("name")), 20))
    elif profile == "toolsets":
        triggers = fields.get("triggers", {})
        for kind, rule in (("keywords", "keyword"), ("verbs", "verb")):
            for value in triggers.get(kind, []):
                words = _words(value)
                if words:
                    phrases.append((words, rule, value, TOOLSET_KEYWORD_POINTS))
        patterns.extend(triggers.get("patterns", []))
        # A bare mention counts as explicit for multi-word names (hello-extended);
        # a one-word name is also an ordinary word, so it needs /name, $name or
        # "use name skill" (handled in _match_toolsets).
        if len(name_words) > 1:
            phrases.append((name_words, "explicit", skill.name, POINTS["explicit"]))
    elif name_words:  # explicit-invocation profiles: the name as a heuristic term
        phrases.append((name_words, "name", skill.name, POINTS["name"]))
    return _Terms(phrases, description_keywords(skill.description), patterns, name_words)


class MatchIndex:
    """Terms of every active skill of one registry, kept current per skill."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.profile = registry.profile.name
        self.terms: dict[str, _Terms] = {}  # path -> terms
        self.skills: dict[str, Skill] = {}
        # Keyed by the first word of one-word phrases and the first two words of
        # longer ones: triggers often start with the same verb ("review ...").
        self.phrases: dict[tuple[str, ...], list[tuple[tuple[str, ...], str, str, int, str]]] = (
            defaultdict(list)
        )
        self.order_key: dict[str, tuple[int, str]] = {}  # path -> (-priority, name)
        self.keywords: dict[str, set[str]] = defaultdict(set)
        self.patterned: set[str] = set()
        self.slow: set[tuple[str, str]] = set()  # (path, pattern) that timed out: go last
        self.failed: dict[str, Diagnostic] = {}  # path -> `internal`: its terms failed
        self._synced = -1  # the registry version the index reflects
        self.rebuild()

    def rebuild(self) -> None:
        self._synced = self.registry.version
        self.terms.clear()
        self.skills.clear()
        self.phrases.clear()
        self.keywords.clear()
        self.patterned.clear()
        self.order_key.clear()
        self.failed.clear()
        self.slow.clear()
        for skill in self.registry.active.values():
            self._add(skill)

    def _add(self, skill: Skill) -> None:
        self.failed.pop(skill.path, None)
        try:
            terms = skill_terms(skill, self.profile)
        except Exception as exc:  # one skill's fault leaves it out, never the match
            self.failed[skill.path] = internal(skill.path, skill.name, "matching", exc)
            return
        self.terms[skill.path] = terms
        self.skills[skill.path] = skill
        for words, rule, term, points in terms.phrases:
            self.phrases[words[:2]].append((words, rule, term, points, skill.path))
        priority = skill.fields.get("priority", 0)
        self.order_key[skill.path] = (
            -priority if isinstance(priority, int) else 0,
            skill.name,
        )
        for word in terms.keywords:
            self.keywords[word].add(skill.path)
        if terms.patterns:
            self.patterned.add(skill.path)

    def _remove(self, path: str) -> None:
        terms = self.terms.pop(path, None)
        self.skills.pop(path, None)
        if terms is None:
            return
        self.order_key.pop(path, None)
        for words, *_ in terms.phrases:
            bucket = self.phrases.get(words[:2], [])
            bucket[:] = [entry for entry in bucket if entry[4] != path]
        for word in terms.keywords:
            self.keywords[word].discard(path)
        self.patterned.discard(path)

    def sync(self) -> None:
        """Bring the index in line with the registry, touching only changed skills."""
        for _ in self.sync_steps():
            pass

    def sync_steps(self) -> Iterator[None]:
        """sync() in steps: it yields after each skill whose terms it re-reads, so a
        caller with an event loop can let events in (a thousand changed skills take
        a quarter of a second). A skill whose name, description and fields are
        unchanged (an edit of its body) keeps its terms."""
        version = self.registry.version
        if version == self._synced:
            return
        current = {s.path: s for s in self.registry.active.values()}
        self.failed = {p: d for p, d in self.failed.items() if p in current}
        for path in list(self.skills):
            old, new = self.skills[path], current.get(path)
            if new is old:
                continue
            if new is not None and _same_terms(old, new):
                self.skills[path] = new
                continue
            self._remove(path)
            yield
        for path, skill in current.items():
            if path not in self.skills:  # new, or failed before (tried again)
                self._add(skill)
                yield
        if self.registry.version == version:  # not changed again between the steps
            self._synced = version


def _same_terms(old: Skill, new: Skill) -> bool:
    """Whether the match index would read the same terms from both (see skill_terms)."""
    return old.name == new.name and old.description == new.description and old.fields == new.fields


def explicit_invocation(query: str) -> tuple[str, str] | None:
    """(name, args) for `/name args`, `$name` or `use name skill`."""
    for index, pattern in enumerate(_EXPLICIT):
        found = pattern.search(query)
        if found:
            args = (found.group(2) or "").strip() if index == 0 else ""
            return found.group(1), args
    return None


def is_capability_request(normalized: str) -> bool:
    return bool(_CAPABILITY.search(normalized))


def _phrase_hits(index: MatchIndex, words: list[str]) -> dict[str, list[tuple[str, str, int]]]:
    hits: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    seen: set[tuple[str, str, str]] = set()
    count = len(words)
    phrases = index.phrases
    for position, word in enumerate(words):
        keys: tuple[tuple[str, ...], ...] = ((word,),)
        if position + 1 < count:
            keys = ((word,), (word, words[position + 1]))
        for key in keys:
            for phrase, rule, term, points, path in phrases.get(key, ()):
                size = len(phrase)
                if size > 2 and (
                    position + size > count or tuple(words[position : position + size]) != phrase
                ):
                    continue
                seen_key = (path, rule, term)
                if seen_key in seen:
                    continue
                seen.add(seen_key)
                hits[path].append((rule, term, points))
    return hits


def match(
    registry: Registry,
    query: str,
    *,
    index: MatchIndex | None = None,
    session: Session | None = None,
    options: dict[str, Any] | None = None,
) -> MatchResult:
    """Rank the registry's skills for `query` by the profile's rules."""
    options = options or {}
    profile = registry.profile.name
    notes: list[str] = []
    if len(query) > MAX_QUERY_CHARS:
        notes.append(f"The request was cut to its first {MAX_QUERY_CHARS:,} characters.")
        query = query[:MAX_QUERY_CHARS]
    index = index or MatchIndex(registry)
    normalized = normalize(query)
    words = normalized.split()
    if profile == "oasis":
        result = _match_oasis(index, query, normalized, words, options)
    elif profile == "toolsets":
        result = _match_toolsets(index, query, normalized, words, session, options, notes)
    else:
        result = _match_explicit(registry, index, query, normalized, words)
    result.notes = notes + result.notes
    result.diagnostics = list(index.failed.values())
    result.notes += [f"{d.skill}: {d.message}" for d in result.diagnostics]
    _margin(result)
    return result


def _keyword_counts(index: MatchIndex, query_words: frozenset[str]) -> Counter[str]:
    """Distinct description keywords found, per skill path; counted in C over postings."""
    counts: Counter[str] = Counter()
    for word in query_words:
        postings = index.keywords.get(word)
        if postings:
            counts.update(postings)
    return counts


TOP = 30  # candidates ordered and built per request (a panel shows fewer); the rest on demand


def _rank(
    index: MatchIndex,
    phrase_hits: dict[str, list[tuple[str, str, int]]],
    keyword_counts: Counter[str],
    query_words: frozenset[str],
    order: Any,
    heuristic: bool,
) -> tuple[list[Candidate], Any, int]:
    """Top candidates in rank order, a builder for the rest, and the total count."""
    scores = keyword_counts  # built for this request only: extended in place
    for path, hits in phrase_hits.items():
        scores[path] += sum(points for _, _, points in hits)

    def build(path: str) -> Candidate:
        cand = Candidate(index.skills[path], heuristic=heuristic)
        phrase_points = 0
        for rule, term, points in phrase_hits.get(path, ()):
            cand._reasons.append(Reason(rule, term, points))
            phrase_points += points
        cand.score = scores[path]
        if cand.score > phrase_points:  # the rest came from description keywords
            cand._keywords = index.terms[path].keywords
            cand._query_words = query_words
        return cand

    # Every score is positive (hits add points, never remove) and small, so the
    # score of the TOP-th candidate comes from a histogram of the scores, and the
    # paths above it and tied at it are picked out in C (compress over map).
    total = len(scores)
    paths, values = scores.keys(), scores.values()
    if total > TOP:
        histogram = Counter(values)
        need, cutoff = TOP, 0
        for score in sorted(histogram, reverse=True):
            need -= histogram[score]
            if need <= 0:
                cutoff = score
                break
        top_paths = list(compress(paths, map(cutoff.__lt__, values)))
        tied = list(compress(paths, map(cutoff.__eq__, values)))
        # the tie at the cutoff is broken by the profile's order (priority, name),
        # precomputed per skill so the key lookups run in C
        top_paths += heapq.nsmallest(TOP - len(top_paths), tied, key=index.order_key.__getitem__)
        chosen = frozenset(top_paths)
    else:
        top_paths, chosen = list(paths), frozenset()
    top = sorted((build(path) for path in top_paths), key=order)

    def rest() -> list[Candidate]:
        if not chosen:
            return []
        return sorted((build(path) for path in scores if path not in chosen), key=order)

    return top, rest, total


def _match_oasis(
    index: MatchIndex, query: str, normalized: str, words: list[str], options: dict[str, Any]
) -> MatchResult:
    threshold = int(options.get("threshold", 10))
    query_words = frozenset(words)

    def order(c: Candidate) -> tuple[int, int, str]:
        return (-c.score, -int(c.skill.fields.get("priority", 0)), c.skill.name)

    ranked, rest, total = _rank(
        index,
        _phrase_hits(index, words),
        _keyword_counts(index, query_words),
        query_words,
        order,
        heuristic=False,
    )
    for c in ranked:
        c.passed = c.score >= threshold
    selected = [ranked[0].name] if ranked and ranked[0].passed else []
    if len(ranked) > 1 and ranked[0].passed and ranked[0].score == ranked[1].score:
        a, b = ranked[0], ranked[1]
        pa, pb = a.skill.fields.get("priority", 0), b.skill.fields.get("priority", 0)
        a.reasons.append(
            Reason(
                "priority", f"{pa} vs {b.name} {pb}" if pa != pb else f"id {a.name} < {b.name}", 0
            )
        )
    tier = 3 if selected else (2 if index.skills else 0)
    result = MatchResult(query, normalized, "oasis", threshold, ranked, selected, tier)

    def rest_passed() -> list[Candidate]:
        below = rest()
        for c in below:
            c.passed = c.score >= threshold
        return below

    result.total, result._make_rest = total, rest_passed
    return result


def _match_toolsets(
    index: MatchIndex,
    query: str,
    normalized: str,
    words: list[str],
    session: Session | None,
    options: dict[str, Any],
    notes: list[str],
) -> MatchResult:
    max_skills = int(options.get("max_skills", 3))
    candidates: dict[str, Candidate] = {}
    for path, hits in _phrase_hits(index, words).items():
        c = candidates.setdefault(path, Candidate(index.skills[path]))
        for rule, term, points in hits:
            c.reasons.append(Reason(rule, term, points))
            c.score += points
    turns = [[(p, s) for s in index.terms[p].patterns] for p in sorted(index.patterned)]
    names = {path: index.skills[path].name for path in index.patterned}
    for path, source in search_in_turns(turns, index.slow, names, query, notes):
        c = candidates.setdefault(path, Candidate(index.skills[path]))
        c.reasons.append(Reason("pattern", source, POINTS["pattern"]))
        c.score += POINTS["pattern"]
    invoked = explicit_invocation(query)
    if invoked is not None:
        skill = next((s for s in index.skills.values() if s.name == invoked[0]), None)
        if skill is not None:
            c = candidates.setdefault(skill.path, Candidate(skill))
            if not any(r.rule == "explicit" for r in c.reasons):
                c.reasons.insert(0, Reason("explicit", skill.name, POINTS["explicit"]))
                c.score += POINTS["explicit"]
    recent = session.recent if session else []
    for c in candidates.values():
        if c.name in recent:
            c.reasons.append(Reason("recent", c.name, POINTS["recent"]))
            c.score += POINTS["recent"]

    def rank(c: Candidate) -> tuple[int, int, int, str]:
        explicit = any(r.rule == "explicit" for r in c.reasons)
        exact = sum(1 for r in c.reasons if r.rule in ("keyword", "verb", "pattern"))
        recency = (len(recent) - recent.index(c.name)) if c.name in recent else 0
        return (-int(explicit), -exact, -recency, c.name)

    ranked = sorted(candidates.values(), key=rank)
    for c in ranked:
        c.passed = c.score >= 10
    selected = [c.name for c in ranked if c.passed][:max_skills]
    capability = is_capability_request(normalized)
    any_triggers = any(
        any(skill.fields.get("triggers", {}).values()) for skill in index.skills.values()
    )
    if not index.skills:
        tier = 0
    elif selected:
        tier = 3
    elif capability or not any_triggers:
        tier = 2
    else:
        tier = 1
    result = MatchResult(query, normalized, "toolsets", 10, ranked, selected, tier)
    result.capability_request = capability
    return result


def _match_explicit(
    registry: Registry, index: MatchIndex, query: str, normalized: str, words: list[str]
) -> MatchResult:
    """pegasus, mvp, workspace, agentskills: only explicit invocation selects."""
    profile = registry.profile.name
    query_words = frozenset(words)
    if _EXPLICIT[2].search(query):
        # "use X skill" is the invocation's wording, not words of the request
        query_words -= {"use", "skill"}
    phrase_hits = _phrase_hits(index, words)
    explicit = explicit_invocation(query)
    selected: list[str] = []
    notes: list[str] = []
    blocked: str | None = None
    if explicit:
        name, _args = explicit
        found = registry.active.get(name)  # an internal error may leave it out of the index
        skill = index.skills.get(found.path) if found is not None else None
        blocked = _user_may_not(profile, skill, query)
        if skill is None:
            notes.append(f"'{name}' is invoked explicitly but no active skill has that name.")
        elif blocked:
            notes.append(blocked)
        else:
            phrase_hits.setdefault(skill.path, []).insert(0, ("explicit", name, POINTS["explicit"]))
            selected = [name]

    def order(c: Candidate) -> tuple[int, str]:
        return (-c.score, c.name)

    ranked, rest, total = _rank(
        index,
        phrase_hits,
        _keyword_counts(index, query_words),
        query_words,
        order,
        heuristic=True,
    )
    for c in ranked:
        c.passed = c.name in selected
        if c.passed:
            c.heuristic = False
    tier = 3 if selected else (2 if index.skills else 0)
    result = MatchResult(query, normalized, profile, None, ranked, selected, tier)
    result.total, result._make_rest = total, rest
    result.heuristic = True
    result.explicit = explicit[0] if explicit else None
    result.explicit_args = explicit[1] if explicit else ""
    result.blocked = blocked
    result.notes = [
        *notes,
        f"{profile} leaves selection to the model; scores from description words are a "
        "heuristic, not a prediction. Only /name, $name or 'use <name> skill' selects.",
    ]
    return result


def _user_may_not(profile: str, skill: Skill | None, query: str) -> str | None:
    """pegasus's trigger control matrix: `user-invocable: false` hides a skill from the
    user's / commands, so `/name` is then an ordinary message. Why, or None."""
    if profile != "pegasus" or skill is None or skill.fields.get("user-invocable", True):
        return None
    if not _EXPLICIT[0].match(query):
        return None  # 'use X skill' or $X asks the model, which may invoke it
    return (
        f"/{skill.name} is not a command the user can run: {skill.name} has "
        "user-invocable: false (pegasus's control matrix: only the model invokes it), so "
        "the request is an ordinary message and no skill is selected."
    )


def _margin(result: MatchResult) -> None:
    ranked = result.candidates
    if len(ranked) >= 2:
        result.runner_up = ranked[1].name
        result.margin = ranked[0].score - ranked[1].score


def mark_words(normalized: str, terms: list[str]) -> list[tuple[str, bool]]:
    """The request's words, each with whether one of `terms` (as whole words) covers it."""
    words = normalized.split()
    marked = [False] * len(words)
    for term in terms:
        parts = normalize(term).split()
        size = len(parts)
        for start in range(len(words) - size + 1):
            if size and words[start : start + size] == parts:
                for pos in range(start, start + size):
                    marked[pos] = True
    return list(zip(words, marked, strict=True))


def summary(result: MatchResult) -> str:
    """The outcome in one sentence: who wins and by how much, or why nobody does."""
    label = " (heuristic)" if result.heuristic else ""
    if result.selected:
        first = result.selected[0]
        if len(result.selected) > 1:
            return f"{', '.join(result.selected)} are selected{label}."
        if result.explicit:
            return f"{first} is invoked by name."
        if result.runner_up and result.margin is not None:
            points = "point" if result.margin == 1 else "points"
            return f"{first} wins by {result.margin} {points} over {result.runner_up}{label}."
        return f"{first} wins; no other skill scored{label}."
    if result.capability_request:
        return "A request for the list of skills: the listing answers it."
    if not result.candidates:
        return "No skill scored above zero."
    if result.threshold is not None:
        best = result.candidates[0]
        return (
            f"No skill passes the threshold of {result.threshold}; the best is "
            f"{best.name} with {best.score}."
        )
    return "No skill is selected."


def why_not(result: MatchResult, registry: Registry, name: str) -> str:
    """In plain words, why the skill `name` was not selected for the request."""
    if name in result.selected:
        return f"{name} is selected."
    skill = registry.get(name)
    if skill is None:
        return f"No skill is named '{name}'."
    if skill.status == "shadowed":
        return f"{name} is shadowed by {skill.winner}, which has higher precedence."
    if skill.status == "skipped":
        return f"{name} is not loaded: {skill.status_reason}."
    if skill.status == "disabled":
        return f"{name} is disabled: {skill.status_reason}."
    cand = result.candidate(name)
    if result.blocked and result.explicit == name:
        return result.blocked
    if result.heuristic:
        return (
            f"{registry.profile.name} selects only on explicit invocation; write /{name}, "
            f"${name} or 'use {name} skill'."
        )
    if cand is None:
        return (
            f"{name} scored 0: none of its triggers, keywords or its name is in the request."
            + _closest(skill, result)
        )
    if result.threshold is not None and cand.score < result.threshold:
        return f"{name} scored {cand.score}, below the threshold of {result.threshold}." + _closest(
            skill, result
        )
    if result.selected:
        winner = result.candidate(result.selected[0])
        if winner is not None and winner.score == cand.score:
            return (
                f"{name} tied with {winner.name} at {cand.score} and lost the tie-break "
                "(priority, then id)."
            )
        if winner is not None:
            return f"{name} scored {cand.score}; {winner.name} scored {winner.score} and wins."
    return f"{name} scored {cand.score} but was not among the selected skills."


def trigger_phrases(skill: Skill, patterns: bool = False) -> list[str]:
    """A skill's trigger phrases (oasis list; toolsets keywords and verbs, and the
    patterns when asked)."""
    triggers = skill.fields.get("triggers")
    if isinstance(triggers, list):
        return [t for t in triggers if isinstance(t, str)]
    if isinstance(triggers, dict):
        kinds = ("keywords", "verbs", "patterns") if patterns else ("keywords", "verbs")
        return [t for k in kinds for t in triggers.get(k, []) if isinstance(t, str)]
    return []


def _closest(skill: Skill, result: MatchResult) -> str:
    words = set(result.normalized.split())
    best: tuple[int, str, list[str]] | None = None
    for phrase in trigger_phrases(skill):
        missing = [w for w in normalize(phrase).split() if w not in words]
        if best is None or len(missing) < best[0]:
            best = (len(missing), phrase, missing)
    if best is None:
        return ""
    return f" Closest trigger: '{best[1]}' (missing: {', '.join(best[2]) or 'word order'})."
