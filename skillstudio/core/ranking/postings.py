"""The likely index's postings: per term, the skills that have it and its weight for each.

A term's postings are its slots and weights in two flat arrays (12 bytes a posting), or,
while one skill alone has the term, that skill's (slot, weight) as a pair: most terms
are one skill's (11,804 of the overlap index's 12,350 at 3,000 skills, a skill's own
rare words and its name's phrases), and the pair takes 108 bytes where the two arrays
and their tuple took 264 (24 MB fewer at 10,000 skills across the app's two indexes).
Readers see either as `Bucket`, slots and weights (`holders`).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Sequence
from typing import TypeAlias

Posting: TypeAlias = "tuple[array[int], array[float]] | tuple[int, float]"
Postings = dict[str, Posting]
Bucket = tuple[Sequence[int], Sequence[float]]  # a term's slots and weights, as read
NO_POSTINGS: tuple[array[int], array[float]] = (array("i"), array("d"))


def holders(posting: Posting) -> Bucket:
    """`posting` as its slots and weights."""
    slots, values = posting
    if isinstance(slots, int):
        return (slots,), (values,)  # type: ignore[return-value]  # (the pair's weight)
    return slots, values  # type: ignore[return-value]


def post(postings: Postings, term: str, slot: int, value: float) -> None:
    """Add `slot`'s weight `value` to the postings of `term` (after every other slot)."""
    posting = postings.get(term)
    if posting is None:
        postings[term] = (slot, value)
        return
    slots, values = posting
    if isinstance(slots, int):  # a second skill: the two arrays
        postings[term] = (array("i", [slots, slot]), array("d", [float(values), value]))
        return
    assert isinstance(values, array)
    slots.append(slot)
    values.append(value)


def unpost(postings: Postings, term: str, slot: int) -> None:
    """Take `slot` out of the postings of `term`."""
    posting = postings.get(term)
    if posting is None:
        return
    slots, values = posting
    if isinstance(slots, int):
        if slots == slot:  # (as the two arrays were left: empty)
            postings[term] = (array("i"), array("d"))
        return
    assert isinstance(values, array)
    at = bisect_left(slots, slot)
    if at < len(slots) and slots[at] == slot:
        del slots[at]
        del values[at]


def renumbered(posting: Posting, renumber: list[int]) -> Posting:
    """`posting` with each slot numbered afresh (`renumber`: old slot -> new)."""
    slots, values = posting
    if isinstance(slots, int):
        return renumber[slots], float(values)
    assert isinstance(values, array)
    return array("i", [renumber[s] for s in slots]), values


def scaled(posting: Posting, factor: float) -> Posting:
    """`posting` with every weight multiplied by `factor` (a term's IDF changed)."""
    slots, values = posting
    if isinstance(slots, int):
        return slots, float(values) * factor
    assert isinstance(values, array)
    return slots, array("d", [v * factor for v in values])
