"""Which active skills use each trigger phrase, and the `trigger-ambiguous`
diagnostics of the phrases two or more of them share.

Kept by the registry across refreshes: only skills that entered or left the
active set are touched, and a shared phrase's diagnostics are reused while the
same skill objects share it.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model.diagnostics import Diagnostic, Severity
from ..model.skills import Skill

Ambiguity = tuple[tuple[int, ...], list[tuple[Skill, Diagnostic]]]


class TriggerOwners:
    def __init__(self) -> None:
        # phrase -> the active skill using it, or the set of them when shared (rare:
        # one set per phrase would cost 12 MB at 10,000 skills)
        self._owners: dict[str, Skill | set[Skill]] = {}
        self._shared: set[str] = set()  # phrases with two or more owners
        self._indexed: set[Skill] = set()
        # phrase -> (ids of the skills sharing it, their diagnostics), reused by refresh
        self._ambiguity: dict[str, Ambiguity] = {}

    def shares_any(self, phrases: frozenset[str]) -> bool:
        """Whether any of these phrases is used by two or more active skills."""
        return not self._shared.isdisjoint(phrases)

    def replace(self, old: Skill, new: Skill) -> None:
        """An active skill replaced by its re-read self with the same phrases."""
        if old in self._indexed:
            self._indexed.discard(old)
            self._indexed.add(new)
            for phrase in new.phrase_set:
                self._disown(phrase, old)
                self._own(phrase, new)

    def check(self, skills: list[Skill], active: Iterable[Skill], severity: Severity) -> None:
        """Add a `trigger-ambiguous` diagnostic to each active skill's `cross` for each
        phrase it shares with another active skill (`skills` gives their order)."""
        self._update(set(active))
        if not self._shared:
            self._ambiguity = {}
            return
        order = {id(skill): index for index, skill in enumerate(skills)}
        owners: dict[str, list[tuple[Skill, str, int, str]]] = {}
        for phrase in self._shared:
            holders = sorted(self._holders(phrase), key=lambda sk: order[id(sk)])
            owners[phrase] = [
                (skill, place[1], place[2], place[3])
                for skill in holders
                for place in skill.phrases
                if place[0] == phrase
            ]
        cache: dict[str, Ambiguity] = {}
        for phrase, places in owners.items():
            ident = tuple(id(place[0]) for place in places)
            cached = self._ambiguity.get(phrase)
            if cached is not None and cached[0] == ident:
                for skill, diagnostic in cached[1]:  # same skill objects: same findings
                    skill.cross.append(diagnostic)
                cache[phrase] = cached
                continue
            cache[phrase] = (ident, _diagnose(phrase, places, severity))
        self._ambiguity = cache

    def _update(self, current: set[Skill]) -> None:
        """Keep phrase -> active owners current by touching only skills that
        entered or left the active set (a refresh changes a handful)."""
        for skill in self._indexed - current:
            for phrase in skill.phrase_set:
                self._disown(phrase, skill)
        for skill in current - self._indexed:
            for phrase in skill.phrase_set:
                self._own(phrase, skill)
        self._indexed = current

    def _own(self, phrase: str, skill: Skill) -> None:
        holders = self._owners.get(phrase)
        if holders is None or holders is skill:
            self._owners[phrase] = skill
        elif isinstance(holders, set):
            holders.add(skill)
        else:
            self._owners[phrase] = {holders, skill}
            self._shared.add(phrase)

    def _disown(self, phrase: str, skill: Skill) -> None:
        holders = self._owners.get(phrase)
        if holders is skill:
            del self._owners[phrase]
        elif isinstance(holders, set):
            holders.discard(skill)
            if len(holders) == 1:
                self._owners[phrase] = next(iter(holders))
                self._shared.discard(phrase)

    def _holders(self, phrase: str) -> set[Skill]:
        holders = self._owners.get(phrase)
        if holders is None:
            return set()
        return holders if isinstance(holders, set) else {holders}


def _diagnose(
    phrase: str, places: list[tuple[Skill, str, int, str]], severity: Severity
) -> list[tuple[Skill, Diagnostic]]:
    made: list[tuple[Skill, Diagnostic]] = []
    names = sorted({p[0].name for p in places})
    for skill, fld, index, child in places:
        others = [n for n in names if n != skill.name]
        shown = others[:5] + ([f"{len(others) - 5} more"] if len(others) > 5 else [])
        if child:
            line, column = skill.doc.child_position(fld, child, index)
        else:
            line, column = skill.doc.value_position(fld, index)
        diagnostic = Diagnostic(
            "trigger-ambiguous",
            severity,
            f"The trigger '{phrase}' is also used by {', '.join(shown)}; a "
            "request with it matches each of them. Make the phrase more specific.",
            skill.path,
            line,
            column,
            fld,
            skill.name,
        )
        skill.cross.append(diagnostic)
        made.append((skill, diagnostic))
    return made
