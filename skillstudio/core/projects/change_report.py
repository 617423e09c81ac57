"""What a change does to triggering (`skillstudio diff`, PRODUCT.md section 13).

Two readings of the same projects (a revision's tree, core/projects/git_tree.py, and
the working tree, or two revisions) are compared: the skills added, removed, renamed
(the same name and frontmatter in another folder) and changed; per agent whose listing
budget is known, the listing before and after (core/delivery/headroom.py); the suite
cases and the requests drawn from the skills' descriptions (`description_request`), each
run before and after as `test` runs them (core/projects/suites.py); the diagnostics new
and resolved.

Only what a change can affect is ranked again: every suite case (hand-made, few), and
the description requests of the skills changed (added, removed, renamed, edited, or
whose place in a listing changed) or sharing a counted word with what such a skill's
description said before or says now. Another request ranks as it did (a change moves
a word's weight a little in every request; that shift is not followed).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from ..delivery.headroom import Headroom, listing_headroom
from ..model.diagnostics import Diagnostic
from ..model.session import Session
from ..model.skills import Skill
from ..profiles.agents import AGENTS
from ..ranking.likely_index import LikelyIndex
from ..ranking.likely_ranking import counted, query_terms, rank_likely
from ..ranking.matching import match
from ..reading.safefs import read_bytes
from .change_picks import Live, ModelPick, model_picks
from .findings import project_findings
from .open_project import OpenProject
from .suite_cases import Case, SuiteError
from .suites import CaseResult, load_suite, run_case

Status = Literal["regression", "fixed", "changed", "new", "gone", "same"]
FailOn = Literal["regression", "change", "never"]
MAX_REQUEST_CHARS = 200
# "Use when …", "Use this skill when …", "Use it for …", "Invoke when …": its clause
_USE_WHEN = re.compile(
    r"\b(?:use|invoke|trigger)\s+(?:this\s+skill\s+|this\s+|it\s+)?"
    r"(?:when(?:ever)?|if|for|to)\s+(?P<clause>.+?)(?:[.;!?](?:\s|$)|$)",
    re.IGNORECASE | re.DOTALL,
)
# "the user asks to …", "asked to …", "the user wants …": who asks is no part of a request
_ASKER = re.compile(
    r"^(?:(?:the\s+)?user\s+(?:asks|wants|needs)\s+(?:you\s+)?(?:to\s+|for\s+)?|asked\s+to\s+)",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?P<clause>.+?)(?:[.;!?](?:\s|$)|$)", re.DOTALL)


def description_request(description: str) -> str:
    """The request a description offers itself for: the clause after its first "Use
    when" ("Use this skill when", "Use for", "Invoke when", ...), else its first sentence;
    whitespace collapsed, at most MAX_REQUEST_CHARS characters ("" for fewer than two
    words)."""
    text = " ".join(description.split())
    found = _USE_WHEN.search(text) or _SENTENCE.match(text)
    clause = found.group("clause").strip(" ,:-") if found else ""
    clause = _ASKER.sub("", clause, count=1)
    if len(clause) > MAX_REQUEST_CHARS:
        clause = clause[:MAX_REQUEST_CHARS].rsplit(" ", 1)[0]
    return clause if len(clause.split()) >= 2 else ""


@dataclass(slots=True)
class Pick:
    """One request on one side: what the rules select, the likely skill (the
    estimate's top pick when it is in the likely band), and whether the case held."""

    selected: list[str]
    likely: str | None
    top: list[str]
    passed: bool
    why: str = ""
    model: ModelPick | None = None  # the model's pick, where the answer cache has one

    def to_json(self) -> dict[str, Any]:
        return {
            "selected": self.selected,
            "likely": self.likely,
            "top": self.top,
            "passed": self.passed,
            "why": self.why or None,
            "model": self.model.to_json() if self.model is not None else None,
        }


@dataclass(slots=True)
class CaseChange:
    query: str
    source: str  # "suite" or "description"
    expect: Any
    before: Pick | None  # None: the case could not run on that side (its skill absent)
    after: Pick | None
    suite: str = ""
    line: int = 0
    skill: str = ""  # a description request's skill

    @property
    def status(self) -> Status:
        if self.before is None and self.after is not None:
            return "new"  # its skill is new, or its request is: nothing to compare with
        if self.after is None and self.before is not None:
            return "gone"  # its skill was removed (a suite case is run whatever it names)
        held = self.before is not None and self.before.passed
        holds = self.after is not None and self.after.passed
        if held and not holds:
            return "regression"
        if holds and not held and self.before is not None:
            return "fixed"
        if _shown(self.before) != _shown(self.after):
            return "changed"
        models = [p.model for p in (self.before, self.after) if p is not None and p.model]
        if len(models) == 2 and models[0].pick != models[1].pick:  # cached on both sides
            return "changed"
        return "same"

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "source": self.source,
            "suite": self.suite or None,
            "line": self.line or None,
            "skill": self.skill or None,
            "expect": self.expect,
            "status": self.status,
            "before": self.before.to_json() if self.before else None,
            "after": self.after.to_json() if self.after else None,
        }


def _shown(pick: Pick | None) -> tuple[object, ...] | None:
    return None if pick is None else (tuple(pick.selected), pick.likely, pick.passed)


@dataclass(slots=True)
class ListingChange:
    """One agent's listing of a project, before and after."""

    agent: str
    title: str
    before: Headroom
    after: Headroom

    def moved(self) -> dict[str, list[str]]:
        """Skills that fall to name-only (description cut or dropped) or out of the
        listing, and those restored, by the after side's names."""
        cut0, cut1 = set(self.before.shortened), set(self.after.shortened)
        out0, out1 = set(self.before.dropped), set(self.after.dropped)
        own = set(self.after.agent_skills)
        return {
            "name_only": [n for n in self.after.shortened if n not in cut0 | out0],
            "out": [n for n in self.after.dropped if n not in out0],
            "restored": sorted((cut0 | out0) - cut1 - out1 - own),
        }

    def to_json(self) -> dict[str, Any]:
        def side(room: Headroom) -> dict[str, Any]:
            return {
                "budget": room.budget,
                "needed": room.needed,
                "used": room.used,
                "headroom": room.headroom,
                "skills": room.skills,
                "unit": room.unit,
            }

        return {
            "agent": self.agent,
            "title": self.title,
            "before": side(self.before),
            "after": side(self.after),
            **self.moved(),
        }


@dataclass(slots=True)
class ProjectChange:
    path: str  # relative to the repository's top ("" for the top)
    profile: str
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)  # (before, after) folders
    changed: list[str] = field(default_factory=list)
    listings: list[ListingChange] = field(default_factory=list)
    cases: list[CaseChange] = field(default_factory=list)
    new: list[Diagnostic] = field(default_factory=list)
    resolved: list[Diagnostic] = field(default_factory=list)
    requests: int = 0  # description requests in all
    reranked: int = 0  # of them, ranked again
    suite_problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "profile": self.profile,
            "skills": {
                "added": self.added,
                "removed": self.removed,
                "renamed": [{"from": a, "to": b} for a, b in self.renamed],
                "changed": self.changed,
            },
            "listings": [listing.to_json() for listing in self.listings],
            "cases": [c.to_json() for c in self.cases if c.status != "same"],
            "diagnostics": {
                "new": [d.to_json() for d in self.new],
                "resolved": [d.to_json() for d in self.resolved],
            },
            "requests": {"from_descriptions": self.requests, "reranked": self.reranked},
            "suite_problems": self.suite_problems,
        }


@dataclass(slots=True)
class Side:
    """One reading: its projects, and the folder their paths are relative to."""

    label: str
    top: str
    projects: list[OpenProject]

    def rel(self, path: str) -> str:
        return os.path.relpath(path, self.top).replace(os.sep, "/")


@dataclass(slots=True)
class ChangeReport:
    before: str
    after: str
    projects: list[ProjectChange]

    def count(self, status: Status) -> int:
        return sum(c.status == status for p in self.projects for c in p.cases)

    def exit_fails(self, fail_on: FailOn) -> bool:
        if fail_on == "never":
            return False
        if fail_on == "change":
            moved = any(c.status != "same" for p in self.projects for c in p.cases)
            return moved or any(
                p.added or p.removed or p.renamed or p.changed for p in self.projects
            )
        return self.count("regression") > 0

    def to_json(self) -> dict[str, Any]:
        return {
            "before": self.before,
            "after": self.after,
            "projects": [p.to_json() for p in self.projects],
            "summary": {
                "regressions": self.count("regression"),
                "fixed": self.count("fixed"),
                "changed": self.count("changed"),
                "new_diagnostics": sum(len(p.new) for p in self.projects),
                "resolved_diagnostics": sum(len(p.resolved) for p in self.projects),
            },
        }


def compare(
    before: Side, after: Side, options: dict[str, Any] | None = None, live: Live | None = None
) -> ChangeReport:
    """Each project of `after` against the project of `before` at the same place under
    the same profile (a project only on one side: every skill added or removed).
    `options`: what the command line adds to each project's options (its window)."""
    old = {(before.rel(p.project.base), p.project.profile.name): p for p in before.projects}
    out = []
    for item in after.projects:
        key = (after.rel(item.project.base), item.project.profile.name)
        out.append(_project(before, old.pop(key, None), after, item, options or {}, live))
    for item in old.values():
        out.append(_project(before, item, after, None, options or {}, live))
    return ChangeReport(before.label, after.label, out)


def _skills(side: Side, item: OpenProject | None) -> dict[str, Skill]:
    if item is None:
        return {}
    return {side.rel(s.path): s for s in item.registry.skills if s.key is not None}


def _same(a: Skill, b: Skill) -> bool:
    """The same SKILL.md: its frontmatter and size, then (only where both agree) its
    bytes, read bounded (an unreadable one counts as changed)."""
    if (a.doc.fm_text, a.size) != (b.doc.fm_text, b.size):
        return False
    try:
        return read_bytes(a.path) == read_bytes(b.path)
    except (OSError, ValueError):
        return False


def _project(
    before: Side,
    old: OpenProject | None,
    after: Side,
    new: OpenProject | None,
    extra: dict[str, Any],
    live: Live | None = None,
) -> ProjectChange:
    some = new or old
    assert some is not None
    side = after if new is not None else before
    change = ProjectChange(side.rel(some.project.base), some.project.profile.name)
    was, now = _skills(before, old), _skills(after, new)
    gone = {p: s for p, s in was.items() if p not in now}
    came = {p: s for p, s in now.items() if p not in was}
    touched: set[str] = set()  # names whose requests rank again
    for path, skill in list(gone.items()):  # the same file in another folder: moved
        twin = next((p for p, s in came.items() if _same(skill, s)), None)
        if twin is not None:
            change.renamed.append((os.path.dirname(path), os.path.dirname(twin)))
            touched.update((skill.name, came[twin].name))
            del gone[path], came[twin]
    change.removed = sorted(s.name for s in gone.values())
    change.added = sorted(s.name for s in came.values())
    touched.update(change.removed, change.added)
    for path, skill in now.items():
        if (path in was and (was[path].name, was[path].status) != (skill.name, skill.status)) or (
            path in was and not _same(was[path], skill)
        ):
            change.changed.append(skill.name)
            touched.update((skill.name, was[path].name))
    change.changed.sort()
    if old is not None and new is not None:
        change.listings = _listings(old, new, extra)
        for listing in change.listings:
            moved = listing.moved()
            touched.update(*moved.values())
    _diagnostics(change, before, old, after, new)
    _cases(change, before, old, after, new, touched, extra)
    if live is not None:
        for at, item in ((0, old), (1, new)):
            if item is None:
                continue
            picks = [(c.before, c.after)[at] for c in change.cases]
            found = model_picks(
                item,
                [c.query for c, p in zip(change.cases, picks, strict=True) if p is not None],
                live,
                {**item.project.options, **extra},
            )
            for case, pick in zip(change.cases, picks, strict=True):
                if pick is not None:
                    pick.model = found.get(case.query)
    return change


def _listings(old: OpenProject, new: OpenProject, extra: dict[str, Any]) -> list[ListingChange]:
    profile = new.project.profile.name
    out = []
    for agent in AGENTS:
        if agent.budget_known and agent.profile == profile:
            room0 = listing_headroom(old.registry, {**old.project.options, **extra})
            room1 = listing_headroom(new.registry, {**new.project.options, **extra})
            out.append(ListingChange(agent.key, agent.title, room0, room1))
    return out


def _diagnostics(
    change: ProjectChange,
    before: Side,
    old: OpenProject | None,
    after: Side,
    new: OpenProject | None,
) -> None:
    """New and resolved, by code, file (relative), field and message: a line that moves
    is the same diagnostic."""

    def keyed(side: Side, item: OpenProject | None) -> dict[tuple[str, ...], list[Diagnostic]]:
        out: dict[tuple[str, ...], list[Diagnostic]] = {}
        for diag in project_findings(item) if item is not None else []:
            message = diag.message.replace(side.top + os.sep, "")
            key = (diag.code, side.rel(diag.path) if diag.path else "", diag.field or "", message)
            out.setdefault(key, []).append(diag)
        return out

    was, now = keyed(before, old), keyed(after, new)
    for key, found in now.items():
        change.new.extend(_relocated(d, after) for d in found[len(was.get(key, [])) :])
    for key, found in was.items():
        for diag in found[len(now.get(key, [])) :]:
            change.resolved.append(_relocated(diag, before))


def _relocated(diag: Diagnostic, side: Side) -> Diagnostic:
    """A diagnostic with its path relative to the repository (the same on both sides)."""
    from dataclasses import replace

    return replace(diag, path=side.rel(diag.path)) if diag.path else diag


def _pick(result: CaseResult, index: LikelyIndex | None) -> Pick:
    top: list[str] = []
    likely = None
    if index is not None:
        ranked = rank_likely(index, result.case.query, top=3)
        top = [c.name for c in ranked.candidates]
        likely = ranked.likely[0].name if ranked.likely else None
    return Pick(list(result.got), likely, top, result.passed, result.why)


def _run(case: Case, item: OpenProject | None, extra: dict[str, Any]) -> Pick | None:
    if item is None:
        return None
    index = item.likely_index() if item.registry.profile.model_chooses else None
    options = {**item.project.options, **extra}
    result = run_case(case, item.registry, options, item.match_index(), None, index)
    if not result.judged:
        return None
    pick = _pick(result, index)
    if case.mode in ("likely", "not-likely"):  # its `got` is the ranking: the rules' own
        found = match(
            item.registry, case.query, index=item.match_index(), session=Session(), options=options
        )
        pick.selected = list(found.selected)
    return pick


def _cases(
    change: ProjectChange,
    before: Side,
    old: OpenProject | None,
    after: Side,
    new: OpenProject | None,
    touched: set[str],
    extra: dict[str, Any],
) -> None:
    # the suites as they stand now judge both sides (a suite only in the revision: its own)
    home = new or old
    assert home is not None
    config = home.project.config
    paths = config.suites if config is not None else []
    folder = os.path.dirname(config.path) if config is not None else home.project.base
    for path in paths:
        try:
            suite = load_suite(path, None, folder)
        except SuiteError as exc:
            change.suite_problems.append(str(exc))
            continue
        shown = (after if new is not None else before).rel(path)
        for case in suite.cases:
            change.cases.append(
                CaseChange(
                    case.query,
                    "suite",
                    case.expect_json(),
                    _run(case, old, extra),
                    _run(case, new, extra),
                    suite=shown,
                    line=case.line,
                )
            )
    _description_cases(change, old, new, touched, extra)


def _description_cases(
    change: ProjectChange,
    old: OpenProject | None,
    new: OpenProject | None,
    touched: set[str],
    extra: dict[str, Any],
) -> None:
    """Each skill's description request (from the description before, and from the
    description now where it differs), expecting that skill as the likely top pick;
    ranked again only where a change can reach it."""
    # request -> the name of the skill that draws it, before and after (a skill renamed
    # with its description kept draws the same request under its new name: its request
    # is judged against that name after, never "gone")
    names: dict[str, list[str | None]] = {}
    for at, item in enumerate((old, new)):
        for skill in item.registry.skills if item is not None else []:
            if skill.key is not None and skill.status == "active":
                request = description_request(skill.description)
                if request:
                    drawn = names.setdefault(request, [None, None])
                    if drawn[at] is None:
                        drawn[at] = skill.name
    change.requests = len(names)
    if not any(item is not None and item.registry.profile.model_chooses for item in (old, new)):
        return  # where the rules select, a description is no request (nothing is likely)
    words = _changed_words(old, new, touched)
    for request, (was, now) in names.items():
        name = was or now
        assert name is not None
        after = now or (name if _has(new, name) else None)
        if not ({name, after} & touched) and not _reaches(new or old, request, words):
            continue
        change.reranked += 1
        change.cases.append(
            CaseChange(
                request,
                "description",
                {"likely": [after or name]},
                _run(Case(request, [was], mode="likely"), old, extra) if was else None,
                _run(Case(request, [after], mode="likely"), new, extra) if after else None,
                skill=after or name,
            )
        )


def _has(item: OpenProject | None, name: str) -> bool:
    return item is not None and item.registry.get(name) is not None


def _counted_terms(item: OpenProject, text: str) -> set[str]:
    index = item.likely_index()
    if index is None:
        return set()
    return set(counted(index, query_terms(index, text)))


def _changed_words(old: OpenProject | None, new: OpenProject | None, touched: set[str]) -> set[str]:
    """The counted words of every touched skill's description, before and after."""
    words: set[str] = set()
    for item in (old, new):
        if item is None:
            continue
        for skill in item.registry.skills:
            if skill.name in touched:
                words |= _counted_terms(item, f"{skill.name} {skill.description}")
    return words


def _reaches(item: OpenProject | None, request: str, words: set[str]) -> bool:
    return bool(words) and item is not None and bool(_counted_terms(item, request) & words)
