"""Which active skills use each trigger phrase, and the `trigger-ambiguous`
diagnostics of the phrases two or more of them share.

Kept by the registry across refreshes: only skills that entered or left the
active set are touched, and a shared phrase's diagnostics are reused while the
same skill objects share it.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..checking.lookalike import CODE as LOOKALIKE
from ..model.diagnostics import Diagnostic, Severity
from ..model.skills import Skill

AMBIGUOUS = "trigger-ambiguous"
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
        phrase it shares with another active skill (`skills` gives their order; a skill's
        findings follow its phrases A to Z, as `swap` makes them)."""
        self._update(set(active))
        if not self._shared:
            self._ambiguity = {}
            return
        order = {id(skill): index for index, skill in enumerate(skills)}
        cache: dict[str, Ambiguity] = {}
        for phrase in sorted(self._shared):
            places = self._places(phrase, order)
            ident = tuple(id(place[0]) for place in places)
            cached = self._ambiguity.get(phrase)
            if cached is not None and cached[0] == ident:
                for skill, diagnostic in cached[1]:  # same skill objects: same findings
                    skill.cross.append(diagnostic)
                cache[phrase] = cached
                continue
            made = _diagnose(phrase, places, severity)
            for skill, diagnostic in made:
                skill.cross.append(diagnostic)
            cache[phrase] = (ident, made)
        self._ambiguity = cache

    def swap(
        self, pairs: list[tuple[Skill, Skill]], skills: list[Skill], severity: Severity
    ) -> set[Skill]:
        """Skills replaced by their re-read selves, each keeping its name and whether it
        is active (so who wins stays): the owners of the phrases they use or used are
        updated for them alone and those phrases' findings made again (a burst of 1,000
        edits at 10,000 skills: about 10 ms instead of `check`'s pass over all). Returns
        the skills kept whose findings changed (another skill now shares, or stops
        sharing, a phrase with them); each replacing skill's own are in `findings`."""
        moved = [(old, new) for old, new in pairs if old in self._indexed]
        phrases: set[str] = set()  # those whose findings may change
        owners = self._owners
        for old, new in moved:
            self._indexed.discard(old)
            self._indexed.add(new)
            if old.phrase_set == new.phrase_set:  # (the common edit: one lookup a phrase)
                for phrase in new.phrase_set:
                    holders = owners[phrase]
                    if holders is old:
                        owners[phrase] = new
                    elif isinstance(holders, set):  # shared
                        holders.discard(old)
                        holders.add(new)
                        phrases.add(phrase)
                continue
            phrases |= old.phrase_set | new.phrase_set
            for phrase in old.phrase_set:
                self._disown(phrase, old)
            for phrase in new.phrase_set:
                self._own(phrase, new)
        gone = {old for old, _ in moved}
        changed: set[Skill] = set()
        order: dict[int, int] | None = None
        for phrase in sorted(phrases):
            before = self._ambiguity.get(phrase)
            if phrase not in self._shared:
                self._ambiguity.pop(phrase, None)
                made: list[tuple[Skill, Diagnostic]] = []
            else:
                if order is None:  # (2 ms at 10,000 skills: only when a phrase is shared)
                    order = {id(skill): index for index, skill in enumerate(skills)}
                places = self._places(phrase, order)
                made = _diagnose(phrase, places, severity)
                self._ambiguity[phrase] = (tuple(id(place[0]) for place in places), made)
            if before is None:
                changed.update(skill for skill, _ in made)
                continue
            # a skill kept whose findings on this phrase read otherwise now
            old_of = _by_skill(before[1])
            new_of = _by_skill(made)
            for skill in old_of.keys() | new_of.keys():
                if skill not in gone and old_of.get(skill) != new_of.get(skill):
                    changed.add(skill)
        return changed - {new for _, new in moved}

    def findings(self, skill: Skill, kept: list[Diagnostic]) -> list[Diagnostic]:
        """`kept` (a skill's findings between skills) with its `trigger-ambiguous` ones
        as they are now, where `check` puts them: after the names', before look-alikes'."""
        mine = [
            diagnostic
            for phrase in sorted(skill.phrase_set & self._shared)
            for holder, diagnostic in self._ambiguity[phrase][1]
            if holder is skill
        ]
        head = [d for d in kept if d.code not in (AMBIGUOUS, LOOKALIKE)]
        return head + mine + [d for d in kept if d.code == LOOKALIKE]

    def _places(self, phrase: str, order: dict[int, int]) -> list[tuple[Skill, str, int, str]]:
        """Where the active skills sharing `phrase` use it, in discovery order."""
        holders = sorted(self._holders(phrase), key=lambda sk: order[id(sk)])
        return [
            (skill, place[1], place[2], place[3])
            for skill in holders
            for place in skill.phrases
            if place[0] == phrase
        ]

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
            AMBIGUOUS,
            severity,
            f"The trigger '{phrase}' is also used by {', '.join(shown)}; a "
            "request with it matches each of them. Make the phrase more specific.",
            skill.path,
            line,
            column,
            fld,
            skill.name,
        )
        made.append((skill, diagnostic))
    return made


def _by_skill(made: list[tuple[Skill, Diagnostic]]) -> dict[Skill, list[Diagnostic]]:
    grouped: dict[Skill, list[Diagnostic]] = {}
    for skill, diagnostic in made:
        grouped.setdefault(skill, []).append(diagnostic)
    return grouped
