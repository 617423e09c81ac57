"""The likely index's postings: per term, the skills that have it and its weight for each.

A term's postings are its slots and weights in two flat arrays (12 bytes a posting)
and the IDF its weights were worked out with. Most terms are one skill's alone (at
10,000 synthetic skills, 38,297 of the likely index's 40,455 terms and 39,538 of the
overlap index's 40,353: a skill's own rare words and its name's phrases), and for
them the two arrays, their tuple and the IDF's float took about 330 bytes. Such a
term is a row instead: its slot, weight and IDF in three columns every such term
shares, the row's number in the term's dict entry (about 80 bytes in all, measured
by tests/test_postings.py). A second skill with the term gives it its own arrays,
with the same first weight and IDF, so every weight read is the float it was before.

No row holds a Python float, or an int but its row number: a (slot, weight) pair per
term referenced the small ints 0 and 1 once for each word of the skills in slots 0
and 1, and the app's churn test (tests/gui/test_init.py), which counts references to
them, drifted by thousands under file churn.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterator, Sequence

Bucket = tuple["array[int]", "array[float]"]  # a term's slots and weights
NO_POSTINGS: Bucket = (array("i"), array("d"))


class Postings:
    """term -> its postings (slots ascending, weights), and the IDF they were weighed with.

    Terms are kept in the order they were first posted, whichever form they take (a
    skill's `vector` is built in that order, and its sums with it)."""

    __slots__ = ("_entries", "_idf", "_slot", "_terms", "_used", "_value")

    def __init__(self) -> None:
        # term -> its own arrays (two or more skills have it), or its row (one skill)
        self._entries: dict[str, Bucket | int] = {}
        self._idf: dict[str, float] = {}  # the IDF of a term's own arrays
        self._terms: list[str] = []  # row -> term
        self._slot: array[int] = array("i")  # row -> slot
        self._value: array[float] = array("d")  # row -> weight
        self._used: array[float] = array("d")  # row -> IDF of the weight

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, term: object) -> bool:
        return term in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._entries))

    def idf_used(self, term: str) -> float | None:
        """The IDF the weights of `term` were worked out with (None: no postings)."""
        entry = self._entries.get(term)
        if entry is None:
            return None
        return self._used[entry] if isinstance(entry, int) else self._idf[term]

    def add(self, term: str, slot: int, value: float, idf: float) -> None:
        """`slot`'s weight `value` (worked out with `idf`, the term's `idf_used` when it
        has one) after every other slot of `term`."""
        entry = self._entries.get(term)
        if entry is None:
            self._entries[term] = len(self._terms)
            self._terms.append(term)
            self._slot.append(slot)
            self._value.append(value)
            self._used.append(idf)
        elif isinstance(entry, int):
            # a second skill: the term's own arrays, the first weight and its IDF as they were
            first = array("i", [self._slot[entry], slot])
            self._entries[term] = (first, array("d", [self._value[entry], value]))
            self._idf[term] = self._used[entry]
            self._drop_row(entry)
        else:
            entry[0].append(slot)
            entry[1].append(value)

    def _drop_row(self, row: int) -> None:
        """Row `row` out (its term's entry already replaced or removed), the last row
        moved into its place."""
        last = len(self._terms) - 1
        if row != last:
            moved = self._terms[last]
            self._terms[row] = moved
            self._entries[moved] = row
            self._slot[row] = self._slot[last]
            self._value[row] = self._value[last]
            self._used[row] = self._used[last]
        self._terms.pop()
        self._slot.pop()
        self._value.pop()
        self._used.pop()

    def drop(self, term: str) -> None:
        """Every posting of `term` (no skill has it any more)."""
        entry = self._entries.pop(term, None)
        if isinstance(entry, int):
            self._drop_row(entry)
        self._idf.pop(term, None)

    def unpost(self, term: str, slot: int) -> None:
        """`slot`'s posting of `term` out (the term's IDF kept, as for two arrays emptied)."""
        entry = self._entries.get(term)
        if isinstance(entry, int):
            if self._slot[entry] == slot:
                self._entries[term] = (array("i"), array("d"))
                self._idf[term] = self._used[entry]
                self._drop_row(entry)
        elif entry is not None:
            slots, values = entry
            at = bisect_left(slots, slot)
            if at < len(slots) and slots[at] == slot:
                del slots[at]
                del values[at]

    def raw(self, term: str) -> tuple[Sequence[int], Sequence[float]]:
        """The postings of `term` as weighed (its IDF not brought up to date)."""
        entry = self._entries.get(term)
        if isinstance(entry, int):
            return self._slot[entry : entry + 1], self._value[entry : entry + 1]
        return NO_POSTINGS if entry is None else entry

    def read(self, term: str, idf: float) -> Bucket:
        """The postings of `term`, its weights brought to `idf` first when they were
        worked out with another (each multiplied by the ratio, as it always was)."""
        entry = self._entries.get(term)
        if entry is None:
            return NO_POSTINGS
        if isinstance(entry, int):
            used = self._used[entry]
            if idf != used:
                self._value[entry] = self._value[entry] * (idf / used)
                self._used[entry] = idf
            return self._slot[entry : entry + 1], self._value[entry : entry + 1]
        used = self._idf[term]
        if idf != used:
            factor = idf / used
            entry = self._entries[term] = (entry[0], array("d", [v * factor for v in entry[1]]))
            self._idf[term] = idf
        return entry

    def renumber(self, renumber: Sequence[int]) -> None:
        """Every slot numbered afresh (`renumber`: old slot -> new; the order kept)."""
        for term, entry in self._entries.items():
            if not isinstance(entry, int):
                self._entries[term] = (array("i", [renumber[s] for s in entry[0]]), entry[1])
        self._slot = array("i", [renumber[s] for s in self._slot])

    def drain(self) -> None:
        """Emptied a piece at a time (freed at once, the interpreter lock is held for
        the whole of it: see gui/infra/likely_jobs.py)."""
        for table in (self._entries, self._idf):
            while table:
                table.popitem()
        while self._terms:
            self._terms.pop()
