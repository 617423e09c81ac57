"""The match index: every active skill's terms, kept current per skill.

Phrases (triggers, names, keywords and verbs) are indexed by their first word,
description keywords as postings, and patterns listed per skill. A request then
costs time proportional to what it matches, not to the number of skills, and
one changed skill updates the index without a rebuild. Which terms a skill has
is its profile's rule (`Profile.match_terms`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..model.diagnostics import Diagnostic, internal
from ..model.matches import Terms
from ..model.profile_requests import TermIndex
from ..model.skills import Skill

if TYPE_CHECKING:
    from ..scanning.registry import Registry


class MatchIndex:
    """Terms of every active skill of one registry, kept current per skill."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.profile = registry.profile
        self.terms: dict[str, Terms] = {}  # path -> terms
        self.skills: dict[str, Skill] = {}
        # Keyed by the first word of one-word phrases and the first two words of
        # longer ones: triggers often start with the same verb ("review ...").
        self.phrases: dict[tuple[str, ...], list[tuple[tuple[str, ...], str, str, int, str]]] = (
            defaultdict(list)
        )
        self.order_key: dict[str, tuple[int, str]] = {}  # path -> (-precedence, name)
        # keyword -> the paths of the skills whose description has it, as a dict's keys
        # (a set grown one path at a time kept 2.5-10 slots a path: 12 MB against 7
        # MB for 190,000 paths at 10,000 synthetic skills)
        self.keywords: dict[str, dict[str, None]] = defaultdict(dict)
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
            terms = self.profile.match_terms(skill)
        except Exception as exc:  # one skill's fault leaves it out, never the match
            self.failed[skill.path] = internal(skill.path, skill.name, "matching", exc)
            return
        self.terms[skill.path] = terms
        self.skills[skill.path] = skill
        for words, rule, term, points in terms.phrases:
            self.phrases[words[:2]].append((words, rule, term, points, skill.path))
        self.order_key[skill.path] = (-self.profile.precedence(skill), skill.name)
        for word in terms.keywords:
            self.keywords[word][skill.path] = None
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
            self.keywords[word].pop(path, None)
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
        registry = self.registry
        version = registry.version
        if version == self._synced:
            return
        # (an edit: its skill, and those whose terms failed before, tried again)
        paths, current, _only = registry.to_sync(self._synced, self.skills, self.failed)
        self.failed = {p: d for p, d in self.failed.items() if p in current}
        for path in paths:
            old, new = self.skills.get(path), current.get(path)
            if old is None or new is old:
                continue
            if new is not None and same_terms(old, new):
                self.skills[path] = new
                continue
            self._remove(path)
            yield
        for path, skill in current.items():
            if path not in self.skills:  # new, or failed before (tried again)
                self._add(skill)
                yield
        if registry.version == version:  # not changed again between the steps
            self._synced = version


def same_terms(old: Skill, new: Skill) -> bool:
    """Whether the match index would read the same terms from both (see Profile.match_terms)."""
    return old.name == new.name and old.description == new.description and old.fields == new.fields


def phrase_hits(index: TermIndex, words: list[str]) -> dict[str, list[tuple[str, str, int]]]:
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


def keyword_counts(index: TermIndex, query_words: frozenset[str]) -> Counter[str]:
    """Distinct description keywords found, per skill path; counted in C over postings."""
    counts: Counter[str] = Counter()
    for word in query_words:
        postings = index.keywords.get(word)
        if postings:
            counts.update(postings.keys())
    return counts
