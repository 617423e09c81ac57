"""ProblemRows: the Problems list's rows worked out without Qt, kept current in place.

At 10,000 skills an agentskills folder has 60,000 diagnostics; sorting and grouping
them takes 150-450 ms. The scan thread builds the first rows; afterwards a refresh or
a keystroke changes a few skills, so only the lists that changed (a skill's own
findings, its cross-skill findings) are compared, and the rows are updated in place.
"""

from __future__ import annotations

import os
from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Sequence
from operator import eq

from ...core.model.diagnostics import SEVERITY_RANK, Diagnostic

SEVERITIES = ("error", "warning", "info")
UPDATE_MAX = 2000  # more changed diagnostics than this: the rows are built again
COMPARE_MAX = 40_000  # ... unless equal (a burst re-reads skills, their findings unchanged)
Order = tuple[str, int, int, int, str, str, str, str]
GroupKey = tuple[str, str, str]


def order(diag: Diagnostic) -> Order:
    """The list's order: by file (a skill's rows together, as editors list them), its
    errors first, then by place, then everything else (a total order)."""
    return (
        diag.path,
        SEVERITY_RANK[diag.severity],
        diag.line,
        diag.column,
        diag.code,
        diag.message,
        diag.field or "",
        diag.skill or "",
    )


def _path(diag: Diagnostic) -> str:
    return diag.path


def _first(group: list[Diagnostic]) -> Order:
    return order(group[0])


class ProblemRows:
    """`sources`: lists of diagnostics (a project's, a skill's own, a skill's cross
    findings...); copies are kept, so a list changed in place is seen as changed."""

    def __init__(
        self,
        sources: Sequence[Sequence[Diagnostic]],
        base: str,
        projects: Sequence[str],
        severities: set[str],
        only_path: str,
        messages: dict[str, str] | None = None,
    ) -> None:
        self.sources = [list(s) for s in sources]
        # what the sources were read from, for a caller that can tell they are still
        # current without listing them again (the registries' versions, say)
        self.stamp: object = None
        self.base = base
        self.projects = sorted(projects, key=len, reverse=True)
        self.all = sorted((d for s in self.sources for d in s), key=order)
        self.counts = dict.fromkeys(SEVERITIES, 0)
        for diag in self.all:
            self.counts[diag.severity] += 1
        # one-line messages, by the message as written (kept while the base stays)
        self.messages: dict[str, str] = messages if messages is not None else {}
        self.group(severities, only_path)

    def message(self, text: str) -> str:
        line = self.messages.get(text)
        if line is None:
            line = " ".join(text.split())
            if self.base:
                line = line.replace(self.base + os.sep, "")
            line = text if line == text else line  # most: one string, not two (3 MB)
            self.messages[text] = line
        return line

    def counts_for(self, path: str) -> dict[str, int]:
        """Diagnostics per severity of one file (rows are sorted by file first)."""
        first = bisect_left(self.all, path, key=_path)
        last = bisect_left(self.all, path + "\0", key=_path)
        counts = dict.fromkeys(SEVERITIES, 0)
        for diag in self.all[first:last]:
            counts[diag.severity] += 1
        return counts

    def shows(self, diag: Diagnostic) -> bool:
        return diag.severity in self.severities and (
            not self.only_path or diag.path == self.only_path
        )

    def key(self, diag: Diagnostic) -> GroupKey:
        return (diag.severity, diag.code, self.message(diag.message))

    def group(self, severities: set[str], only_path: str) -> None:
        """Top rows: diagnostics with the same severity, code and message form a
        group; groups in the order of their first diagnostic."""
        self.severities, self.only_path = set(severities), only_path
        self.groups: dict[GroupKey, list[Diagnostic]] = {}
        for diag in self.all:
            if self.shows(diag):
                self.groups.setdefault(self.key(diag), []).append(diag)
        self.rows = list(self.groups.values())
        self.row_codes = Counter(group[0].code for group in self.rows)

    def codes(self) -> set[str]:
        """The codes of the rows."""
        return set(self.row_codes)

    def same_place(self, base: str, projects: Sequence[str]) -> bool:
        return base == self.base and sorted(projects, key=len, reverse=True) == self.projects

    def changes(
        self, sources: Sequence[Sequence[Diagnostic]]
    ) -> tuple[list[Diagnostic], list[Diagnostic]] | None:
        """What `sources` removes and adds against the rows' sources (lists compared
        by identity of their items first, so unchanged ones cost next to nothing), or
        None when they do not line up (skills came or went) or too much changed
        (more than UPDATE_MAX diagnostics, and not the same ones).
        The lists that changed are taken as the rows' (`changed`)."""
        if len(sources) != len(self.sources):
            return None
        removed: list[Diagnostic] = []
        added: list[Diagnostic] = []
        changed: list[int] = []
        for n, same in enumerate(map(eq, self.sources, sources)):
            if not same:
                removed += self.sources[n]
                added += sources[n]
                changed.append(n)
                if len(removed) + len(added) > COMPARE_MAX:
                    return None
        same = sorted(removed, key=order) == sorted(added, key=order)
        if not same and len(removed) + len(added) > UPDATE_MAX:
            return None  # (cheaper built again than updated row by row)
        for n in changed:
            self.sources[n] = list(sources[n])
        if same:
            return [], []  # moved between lists, or new objects of equal value
        return removed, added

    def update(self, removed: list[Diagnostic], added: list[Diagnostic]) -> None:
        """Apply changes in place (bisection in the sorted lists)."""
        for diag in removed:
            self._remove(diag)
        for diag in added:
            self._add(diag)

    def _row_of(self, group: list[Diagnostic]) -> int:
        row = bisect_left(self.rows, _first(group), key=_first)
        while self.rows[row] is not group:  # (a total order: found at once)
            row += 1
        return row

    def _remove(self, diag: Diagnostic) -> None:
        at = bisect_left(self.all, order(diag), key=order)
        del self.all[at]  # equal to `diag` (it was among them)
        self.counts[diag.severity] -= 1
        if not self.shows(diag):
            return
        key = self.key(diag)
        group = self.groups[key]
        row = self._row_of(group)
        del group[bisect_left(group, order(diag), key=order)]
        del self.rows[row]
        if group:
            insort(self.rows, group, key=_first)
        else:
            del self.groups[key]
            self.row_codes[diag.code] -= 1
            if not self.row_codes[diag.code]:
                del self.row_codes[diag.code]

    def _add(self, diag: Diagnostic) -> None:
        insort(self.all, diag, key=order)
        self.counts[diag.severity] += 1
        if not self.shows(diag):
            return
        key = self.key(diag)
        group = self.groups.get(key)
        if group is None:
            group = self.groups[key] = []
            self.row_codes[diag.code] += 1
        else:
            del self.rows[self._row_of(group)]
        insort(group, diag, key=order)
        insort(self.rows, group, key=_first)
