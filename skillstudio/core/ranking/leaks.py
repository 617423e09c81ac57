"""The leak check: a request that names its skill, or leans on the rarest words of the
skill's description, tests nothing about triggering (any ranking finds the skill by
those words alone). Peers' generated query sets are reported to leak this way more
often than not; `skillstudio test --leaks` and `suggest` run this check (docs/commands.md).

The rule (written for this project):
- **names the skill**: the request holds the skill's name as words in a row, split or
  joined (`pdf-forms` is found in "the pdf forms here", "pdfforms", "pdf_forms", and
  stemmed: "the PDF form"); a one-word name is found as that word;
- **leans on its rarest words**: the request holds at least `MIN_RARE_HITS` of the
  `K_RAREST` rarest content words of the skill's description, rarest by the number of
  the project's skills whose description or body gist (its most frequent body words,
  where the profile's model chooses) holds the word: fewest first; on a tie the longer
  word, then the earlier one. Words of the name are left to the first rule. In a
  project of a few skills rarity says little, and ties are broken by length.

Words are compared as the likely ranking compares them: normalised, stop words out,
stemmed (core/reading/skill_words.py). A request that invokes a skill explicitly
(`/name`, `$name`, `use name skill`) is not checked: it tests the invocation rule on
purpose.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from ..model.matches import explicit_invocation
from ..model.skills import Skill
from ..model.text import words_of
from ..reading.skill_words import gist_counts, stem, terms

K_RAREST = 3  # the description words a request may lean on
MIN_RARE_HITS = 2  # of them, in one request, make a leak
MIN_WORD_CHARS = 3  # shorter description words are never "rare" (ids, units)

LeakKind = Literal["name", "rare-words"]


@dataclass(frozen=True, slots=True)
class Leak:
    """Why a request leaks its skill: `words` as the skill writes them (the name's
    words, or the rare description words the request holds), `rarest` the skill's
    K_RAREST words (for a rare-words leak)."""

    skill: str
    kind: LeakKind
    words: tuple[str, ...]
    rarest: tuple[str, ...] = ()

    @property
    def reason(self) -> str:
        if self.kind == "name":
            return f"names the skill {self.skill} ({' '.join(self.words)!r})"
        held = ", ".join(repr(w) for w in self.words)
        return (
            f"leans on {self.skill}'s rarest description words: {held} "
            f"({len(self.words)} of its {len(self.rarest)} rarest: {', '.join(self.rarest)})"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "skill": self.skill,
            "kind": self.kind,
            "words": list(self.words),
            "rarest": list(self.rarest),
            "reason": self.reason,
        }


class LeakCheck:
    """The leak check over one project's skills (their descriptions give the rarity)."""

    def __init__(self, skills: Iterable[Skill]) -> None:
        self.skills: dict[str, Skill] = {}
        self.df: Counter[str] = Counter()
        for skill in skills:
            self.skills.setdefault(skill.name, skill)
            held = set(terms(skill.description))
            held.update(terms(" ".join(word for word, _ in gist_counts(skill.gist))))
            self.df.update(held)
        self._rarest: dict[str, list[tuple[str, str]]] = {}

    def rarest(self, name: str) -> list[tuple[str, str]]:
        """(stem, word as written) of the skill's K_RAREST rarest description words."""
        found = self._rarest.get(name)
        if found is not None:
            return found
        skill = self.skills.get(name)
        out: list[tuple[str, str]] = []
        if skill is not None:
            named = {stem(w) for w in words_of(name)}
            forms: dict[str, tuple[int, str]] = {}
            for position, word in enumerate(words_of(skill.description)):
                if len(word) < MIN_WORD_CHARS or word.isdigit():
                    continue
                for term in terms(word):
                    if term not in named and term in self.df:
                        forms.setdefault(term, (position, word))
            ranked = sorted(
                forms.items(), key=lambda item: (self.df[item[0]], -len(item[1][1]), item[1][0])
            )
            out = [(term, word) for term, (_, word) in ranked[:K_RAREST]]
        self._rarest[name] = out
        return out

    def check(self, query: str, name: str) -> Leak | None:
        """How `query` leaks the skill called `name`, or None. A name the project does
        not know is still checked for being named."""
        if explicit_invocation(query) is not None:
            return None
        words = words_of(query)
        named = names(words, name)
        if named is not None:
            return Leak(name, "name", named)
        rarest = self.rarest(name)
        if len(rarest) < MIN_RARE_HITS:
            return None
        held = {stem(w) for w in words}
        hits = tuple(word for term, word in rarest if term in held)
        if len(hits) >= MIN_RARE_HITS:
            return Leak(name, "rare-words", hits, tuple(word for _, word in rarest))
        return None


def names(words: list[str], name: str) -> tuple[str, ...] | None:
    """The name's words when the request's `words` hold them in a row (stemmed) or
    joined into one word; else None."""
    parts = words_of(name.rsplit(":", 1)[-1])  # `plugin:skill`: the skill's own name
    if not parts or not words:
        return None
    joined = "".join(parts)
    if joined in words:
        return tuple(parts)
    wanted = [stem(p) for p in parts]
    stems = [stem(w) for w in words]
    size = len(wanted)
    for start in range(len(stems) - size + 1):
        if stems[start : start + size] == wanted:
            return tuple(parts)
    return None
