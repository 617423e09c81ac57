"""The registry: every skill under a profile's roots, who wins, and what is wrong.

A scan reads each SKILL.md once; `refresh()` re-reads only the files whose
modification time or size changed and recomputes the cross-skill checks,
which are plain dictionary passes.
"""

from __future__ import annotations

import gc
import os
import stat
from collections import deque
from collections.abc import Callable, Collection, Generator, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..checking.lookalike import check_names
from ..checking.validate import validate_skill
from ..model.diagnostics import Diagnostic
from ..model.document import Document
from ..model.rule_settings import apply_rules
from ..model.scan import SKILL_FILE, Found, ScanLimits
from ..model.skills import Root, Skill
from ..profile import Profile
from ..reading.frontmatter import read_document
from .finding import Audit, find_skill_files
from .folder_changes import LookedPaths, owner, touched_skills
from .loading import FAILED, rebuild_job
from .parallel import PARALLEL_MIN_FILES, Workers, load_parallel, load_skill, real_roots
from .trigger_owners import TriggerOwners
from .winners import own_name_notes, resolve_winners

if TYPE_CHECKING:
    from .state_cache import StateCache

Progress = Callable[[int, int], None]
CHANGES_KEPT = 64  # in-place changes remembered for `changed_since`
STAT_STEP = 100  # files a hinted refresh stats per step (its caller slices by time)


@dataclass(slots=True)
class RefreshResult:
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    @property
    def paths(self) -> set[str]:
        return set(self.added) | set(self.changed) | set(self.removed)

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed)


@contextmanager
def quiet_gc() -> Iterator[None]:
    """Pause the cyclic collector while thousands of objects are built, then freeze them.

    A scan allocates hundreds of thousands of small objects; each full
    collection walks all of them (measured: refresh at 10,000 skills 450 ms
    with the collector, 215 ms without). Skills hold no reference cycles, so
    reference counting still frees replaced ones; freezing keeps later
    collections from walking the long-lived registry again.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.freeze()
            gc.enable()


class Registry:
    """Skills of one profile under ordered roots (`roots[0]` has the lowest precedence)."""

    def __init__(
        self,
        profile: Profile,
        roots: Iterable[Root],
        *,
        limits: ScanLimits | None = None,
        files: dict[str, list[str]] | None = None,
        keep_text: bool = False,
        workers: int = 1,
        gists: bool = True,
        audit: Audit | None = None,
        cache: StateCache | None = None,
        track_files: bool = False,
    ) -> None:
        self.profile = profile
        self.roots = sorted(roots, key=lambda r: r.precedence)
        self.limits = limits or ScanLimits()
        self.files = files  # root path -> explicit SKILL.md paths (lint of single skills)
        self.keep_text = keep_text
        self.gists = gists  # no gist where nothing ranks (overlap, lint)
        # Processes for a full scan of a large tree (fork start; only for callers
        # without threads, such as the CLI).
        self.workers = workers
        # Notes on what the scan did not read (core/projects/audit.py): given what was
        # found and the notes so far, after every discovery.
        self.audit = audit
        # The cache of what was read (scanning/state_cache.py): the CLI's reading commands
        # pass one; never a registry that keeps the text (the app's, whose saves read it).
        self.cache = cache
        # What each skill's checks looked at, for a registry that lives on (the app's):
        # F5 reads again a skill whose looked-at files changed (scanning/folder_changes.py).
        self.looked = LookedPaths() if track_files else None
        self.skills: list[Skill] = []
        self.by_path: dict[str, Skill] = {}
        self.active: dict[str, Skill] = {}
        self.root_diagnostics: list[Diagnostic] = []
        self.refresh_notes: list[Diagnostic] = []
        self._root_mtimes: dict[str, int] = {}
        self._triggers = TriggerOwners()  # phrase -> active skills; ambiguity findings
        self.scanned = False
        # Bumped whenever the skills change, so that what is derived from them (a
        # match index, a rendered listing) can tell whether it is still current.
        self.version = 0
        # (version, paths) of the latest changes made in place (`changed_since`)
        self._changes: deque[tuple[int, frozenset[str]]] = deque(maxlen=CHANGES_KEPT)

    # -- scanning -------------------------------------------------------------
    def _discover(self) -> list[tuple[Root, Found]]:
        found, notes = find_skill_files(
            self.profile, self.roots, self.limits, self.files, self.audit, self._root_mtimes
        )
        self.root_diagnostics = self._ruled(notes)
        return found

    def _load(self, root: Root, found: Found) -> Skill:
        if self.looked is None:
            return load_skill(root, found, self.profile, self.keep_text, self.gists)
        looked: list[list[str]] = []
        skill = load_skill(root, found, self.profile, self.keep_text, self.gists, None, looked)
        self.looked.note(skill.path, looked[0])
        return skill

    def scan(
        self,
        progress: Progress | None = None,
        workers: Workers | None = None,
        defer_gists: bool = False,
    ) -> None:
        """Full scan of every root. A large one is read by `workers` as well as this
        thread (or, without them, by `self.workers` forked processes when there is
        no `progress` to report: callers without threads). `defer_gists`: read the
        skills without their gists (core/scanning/parallel.py `fill_gists` adds them after)."""
        with quiet_gc():
            self._scan(progress, workers, defer_gists)

    def _scan(self, progress: Progress | None, workers: Workers | None, defer: bool) -> None:
        found = self._discover()
        flags = (self.keep_text, self.gists and not defer)
        if self.cache is None or self.keep_text:
            seen: list[list[str]] | None = None if self.looked is None else []
            self._scanned(self._read(found, flags, progress, workers, seen))
            if seen is not None:
                self.looked = LookedPaths()
                for (_, item), paths in zip(found, seen, strict=True):
                    self.looked.note(item.path, paths)
            return
        # Skills whose files and every path their checks looked at are as the cache has
        # them are taken from it (scanning/state_cache.py); the others are read.
        cache = self.cache.scan(self.profile, self.roots)
        have = cache.lookup(found, flags[1])
        todo = [item for item, skill in zip(found, have, strict=True) if skill is None]
        looked: list[list[str]] = []
        read = self._read(todo, flags, progress, workers, looked)
        cache.store(todo, read, looked, flags[1])  # (as read: before the cross-skill checks)
        if self.looked is not None:  # what each one's checks looked at, cached or read
            self.looked = LookedPaths()
            new_looks = iter(looked)
            for (_, item), skill in zip(found, have, strict=True):
                kept = cache.looked_of(item.path) if skill is not None else next(new_looks)
                self.looked.note(item.path, kept)
        fresh = iter(read)
        self._scanned([skill if skill is not None else next(fresh) for skill in have])

    def _read(
        self,
        found: list[tuple[Root, Found]],
        flags: tuple[bool, bool],
        progress: Progress | None,
        workers: Workers | None,
        looked: list[list[str]] | None = None,
    ) -> list[Skill]:
        """The skills of `found`, read in order (`looked`: where to add the paths each
        one's checks looked at)."""
        total = len(found)
        if workers is None and progress is None and len(found) >= PARALLEL_MIN_FILES:
            count = min(self.workers, os.cpu_count() or 1) - 1  # (this thread reads too)
            if count > 0:
                with Workers(count, "fork") as forked:
                    return load_parallel(
                        forked, self.profile, self.roots, found, flags, looked=looked
                    )
        if workers is not None and len(found) >= PARALLEL_MIN_FILES:
            report = (lambda done: progress(done, total)) if progress is not None else None
            skills = load_parallel(workers, self.profile, self.roots, found, flags, report, looked)
        else:
            skills, reals = [], real_roots(self.roots)  # (realpath once per root: 20 µs)
            for index, (root, item) in enumerate(found):
                skills.append(
                    load_skill(root, item, self.profile, *flags, reals[root.path], looked)
                )
                if progress is not None and index % 200 == 0:
                    progress(index, total)
        if progress is not None:
            progress(total, total)
        return skills

    def _scanned(self, skills: list[Skill]) -> None:
        self._set(skills)
        self.refresh_notes = []
        self.scanned = True

    def refresh(self, hint: Iterable[str] | None = None) -> RefreshResult:
        """Re-read only what changed on disk since the last scan: a SKILL.md by mtime
        and size; a skill whose folder's files changed (scanning/folder_changes.py).

        `hint`: the paths a file watcher saw change. When each is a SKILL.md the
        registry holds (still a plain file) or something inside a known skill's
        folder, only those skills are looked at, without walking the tree (5 ms
        instead of 90 ms at 10,000 skills); anything else (a skill added, removed
        or moved, a folder moved in) takes the full walk. A skill whose folder holds
        a hinted path is read again (a file its body names added or removed); without
        a hint (F5), each skill whose checks' looked-at paths changed.
        """
        steps = self.refresh_steps(hint)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return done.value

    def refresh_steps(
        self, hint: Iterable[str] | None = None
    ) -> Generator[bool | None, None, RefreshResult]:
        """refresh() in steps: it yields after each file it reads, so that a caller
        with an event loop can do other work between steps (a git checkout changes
        a thousand files: 0.3 s of parsing). The registry changes only in the last
        step; a skill re-parsed from unsaved text meanwhile is replaced by the
        disk version, so the caller re-validates its modified documents after.
        A step yielding True says that the install comes next (at 10,000 skills 30 ms
        when all is resolved again, 20 ms for 1,000 edits that keep the names: see
        `_swap`): a caller slicing by time lets events in first. The files the hint
        names are looked at STAT_STEP at a time, a step each."""
        with quiet_gc():
            if hint is not None and self.scanned and self.files is None:
                hinted = set(hint)
                touched = touched_skills(hinted, self.by_path, {r.path for r in self.roots})
                result = yield from self._refresh_known(hinted, touched)
                if result is not None:
                    return result
                return (yield from self._refresh(touched))
            looked = self.looked if hint is None and self.scanned else None  # (F5)
            return (yield from self._refresh(looked.changed(self.by_path) if looked else ()))

    def _refresh_known(
        self, hint: set[str], touched: set[str]
    ) -> Generator[bool, None, RefreshResult | None]:
        """The hinted refresh; None when the hint needs the full walk. The `touched`
        skills are read again whatever their SKILL.md's mtime."""
        known: list[Skill] = [s for s in self.skills if s.mtime_ns == FAILED]  # tried again
        roots = {root.path for root in self.roots}
        by_path = self.by_path
        known += [by_path[p] for p in touched if by_path[p].mtime_ns != FAILED]
        for path in hint:
            skill = by_path.get(path)
            if skill is not None:
                if skill.mtime_ns != FAILED and path not in touched:  # (already in the list)
                    known.append(skill)
                continue
            if os.path.basename(path) == SKILL_FILE or path in roots:
                return None  # a skill that is not known yet, or the root itself
            if os.path.join(path, SKILL_FILE) in by_path:
                continue  # a skill folder's own entries changed (its files' events say more)
            if os.path.isdir(path) or owner(path, by_path, roots) is None:
                return None  # a folder made or moved in, or outside every skill
            prefix = path + os.sep
            if any(p.startswith(prefix) for p in by_path):
                return None  # a folder holding skills was moved or deleted
        stale: list[tuple[Root, Found]] = []
        for number, skill in enumerate(known, 1):
            if not number % STAT_STEP:
                yield False  # (a burst's 1,000 files: 50 ms of stat calls on a busy disk)
            try:
                st = os.lstat(skill.path)
            except OSError:
                return None  # deleted or unreadable: the walk reports it
            if not stat.S_ISREG(st.st_mode):
                return None
            if (st.st_mtime_ns, st.st_size) != (skill.mtime_ns, skill.size) or (
                skill.path in touched
            ):
                stale.append((skill.root, Found(skill.path, st.st_mtime_ns, st.st_size)))
        old_mtimes = dict(self._root_mtimes)
        for root in self.roots:
            try:
                self._root_mtimes[root.path] = os.stat(root.path).st_mtime_ns
            except OSError:
                return None
        result = RefreshResult()
        if not stale:
            return result
        fresh: dict[str, Skill] = {}
        for number, (root, item) in enumerate(stale, 1):
            fresh[item.path] = self._load(root, item)
            yield number == len(stale)
        skills = [fresh.get(skill.path, skill) for skill in self.skills]
        result.changed = list(fresh)
        if not self._swap(fresh, skills):
            self._set(skills)
        self._note_refresh_rule(result, old_mtimes)
        return result

    def _refresh(self, forced: Collection[str] = ()) -> Generator[None, None, RefreshResult]:
        """The full walk; the `forced` skills are read again whatever their mtime."""
        if not self.scanned:
            self._scan(None, None, False)
            return RefreshResult(added=[s.path for s in self.skills])
        old_mtimes = dict(self._root_mtimes)
        version = self.version
        found = self._discover()
        result = RefreshResult()
        skills: list[Skill] = []
        append = skills.append
        known = self.by_path.get
        fresh: dict[str, Skill] = {}  # changed skills, by path
        for root, item in found:
            previous = known(item.path)
            if (
                previous is not None
                and previous.mtime_ns == item.mtime_ns
                and previous.size == item.size
                and previous.root is root
                and item.path not in forced
            ):
                append(previous)
                continue
            skill = self._load(root, item)
            append(skill)
            if previous is not None:
                fresh[item.path] = skill
                result.changed.append(item.path)
            else:
                result.added.append(item.path)
            yield
        if self.version != version:
            # A skill was put in between the steps (the app validates an open tab's text
            # while a refresh reads on): a skill the walk kept as it was is taken as the
            # registry holds it now. The one the walk saw would stay in the list while
            # `by_path` held its successor: the next validation of that tab failed
            # ("... is not in list") and the next full install went back to the old one.
            now = self.by_path.get
            skills = [s if s.path in fresh else now(s.path, s) for s in skills]
        seen = {item.path for _, item in found} if len(found) != len(self.by_path) else None
        if seen is not None:
            result.removed = [path for path in self.by_path if path not in seen]
        elif result.added:  # as many files as before, so some were renamed away
            paths = {item.path for _, item in found}
            result.removed = [path for path in self.by_path if path not in paths]
        if not (result.added or result.removed) and self._swap(fresh, skills):
            self._note_refresh_rule(result, old_mtimes)
            return result
        self._set(skills)
        self._note_refresh_rule(result, old_mtimes)
        return result

    def _swap(self, fresh: dict[str, Skill], skills: list[Skill]) -> bool:
        """Replace edited skills (`fresh`, by path; `skills` is the new list holding
        them) in place when none of them changed who wins (the common edit, and a
        burst's: a checkout keeps the names); False means resolve all. Only the
        shared triggers of the phrases they use or used are worked out again (see
        `_keeps_winners`)."""
        pairs = [(self.by_path[path], new) for path, new in fresh.items()]
        quick = True  # nothing between skills to work out again
        for old, new in pairs:
            if old.key != new.key or old.status != new.status or old.winner is not None:
                return False
            if (
                old.phrase_set != new.phrase_set
                or old.cross
                or self._triggers.shares_any(new.phrase_set)
            ):
                quick = False
        if not quick and not self._keeps_winners(pairs):
            return False
        for old, new in pairs:
            self.by_path[new.path] = new
            if old.key is not None and self.active.get(old.key) is old:
                self.active[old.key] = new
        others: set[Skill] = set()
        if quick:
            for old, new in pairs:
                self._triggers.replace(old, new)
        else:
            severity = self.profile.severity_of("trigger-ambiguous")
            others = self._triggers.swap(pairs, skills, severity)
            for skill in [new for _, new in pairs] + sorted(others, key=lambda s: s.path):
                skill.cross = self._triggers.findings(skill, skill.cross)  # (a new list)
        self.skills = skills
        self.version += 1
        if not others:  # another skill's findings changed: `changed_since` cannot tell
            self._changes.append((self.version, frozenset(fresh)))
        return True

    def _keeps_winners(self, pairs: list[tuple[Skill, Skill]]) -> bool:
        """Whether the rebuilt skills leave every finding between skills but the shared
        triggers' as it is: the same names (so look-alike names and the agent's own
        names are as before), none of the old ones holding another finding between
        skills than a shared trigger's, no rule settings to apply to them again."""
        if self.profile.rules:
            return False
        for old, new in pairs:
            if old.name != new.name or new.cross:
                return False
            if any(d.code != "trigger-ambiguous" for d in old.cross):
                return False
        return True

    def changed_since(self, version: int) -> frozenset[str] | None:
        """The paths of the skills replaced since `version` when only edits that leave
        every other skill as it was happened since (the common edit: one keystroke, one
        file saved); None when something else did (a skill added or removed, winners
        resolved again) or it is too long ago: then compare everything."""
        if version == self.version:
            return frozenset()
        paths: set[str] = set()
        expected = version + 1
        for number, changed in self._changes:
            if number < expected:
                continue
            if number != expected:
                return None
            paths |= changed
            expected += 1
        return frozenset(paths) if expected == self.version + 1 else None

    def to_sync(
        self, since: int, known: Iterable[str], also: Iterable[str] = ()
    ) -> tuple[list[str], dict[str, Skill], bool]:
        """For an index of the active skills as of version `since`: the paths to compare
        (the changed ones and `also`, else all it has: `known`), the active skills among
        them by path (all when it cannot tell), whether only the changed were looked at."""
        changed = self.changed_since(since)
        if changed is None:
            return list(known), {s.path: s for s in self.active.values()}, False
        paths = list(changed.union(also))
        found = [self.by_path.get(path) for path in paths]
        active = self.active
        picked = {s.path: s for s in found if s is not None and active.get(s.key or "") is s}
        return paths, picked, True

    def _note_refresh_rule(self, result: RefreshResult, old_mtimes: dict[str, int]) -> None:
        """mvp's agent rescans only when the root folder's own mtime moves (seed 003)."""
        if self.profile.refresh_rule != "root-mtime" or not result:
            return
        self.refresh_notes = []
        for root in self.roots:
            if old_mtimes.get(root.path) != self._root_mtimes.get(root.path):
                continue
            for path in result.changed:
                skill = self.by_path.get(path)
                if skill is None or skill.root.path != root.path:
                    continue
                self.refresh_notes.append(
                    Diagnostic(
                        "refresh-missed",
                        "info",
                        "The mvp agent rescans only when the skills folder's own modification "
                        "time changes; this edit does not change it, so a running agent keeps "
                        "the old text until it restarts.",
                        path,
                        1,
                        1,
                        None,
                        skill.name,
                    )
                )
        self.refresh_notes = self._ruled(self.refresh_notes)

    def reparse(
        self, path: str, text: str | None = None, parsed: Document | None = None
    ) -> Skill | None:
        """Re-validate one skill, from `text` (unsaved edits; `parsed`: that text read
        already, loading.read_unsaved) or from disk; cross checks rerun. In two steps
        the app can split: loading.rebuild_job, then install."""
        previous, job = self.by_path.get(path), self.rebuild_job(path, text, parsed)
        return self.install(job(), previous) if job is not None and previous else None

    def rebuild_job(
        self, path: str, text: str | None = None, parsed: Document | None = None
    ) -> Callable[[], Skill] | None:
        """The build `reparse` runs, to run elsewhere (see loading.rebuild_job); None when
        `path` is not one of this registry's skills."""
        previous = self.by_path.get(path)
        if previous is None:
            return None
        flags = (self.keep_text, self.gists)
        return rebuild_job(
            previous, text, self.profile, flags, validate_skill, read_document, parsed
        )

    def install(self, skill: Skill, previous: Skill) -> Skill | None:
        """Put a rebuilt skill in place of `previous` (its job's); None, and nothing
        changed, when the registry holds another since (a refresh replaced it)."""
        if self.by_path.get(skill.path) is not previous:
            return None
        skills = list(self.skills)  # copied and indexed in C: this runs per keystroke
        skills[skills.index(previous)] = skill
        if not self._swap({skill.path: skill}, skills):  # a keystroke rarely changes who wins
            self._set(skills)
        return skill

    # -- resolution -----------------------------------------------------------
    def _set(self, skills: list[Skill]) -> None:
        """Install skills given in discovery order (root precedence, then path)."""
        self.skills = skills
        self.by_path = {s.path: s for s in skills}
        self._resolve()
        self.version += 1

    def _resolve(self) -> None:
        """Who wins each name (see winners.py), then the shared-trigger check; the
        project's rule settings on what they found."""
        self.active = resolve_winners(self.skills, self.profile)
        own_name_notes(self.skills, self.profile)  # named as one of the agent's own
        self._check_triggers()
        if self.profile.rules:
            for skill in self.skills:
                if skill.cross:
                    skill.cross = self._ruled(skill.cross)

    def _ruled(self, found: list[Diagnostic]) -> list[Diagnostic]:
        """The project's rule settings (skillstudio.yaml `rules:`, core/model/rule_settings.py)
        applied where the registry makes a finding (the roots', between skills, the refresh's):
        a skill's own were checked with them already, so every reader of the registry
        (lint, list, show, the app, the language server) gets the same."""
        return apply_rules(found, self.profile.rules) if self.profile.rules else found

    def _check_triggers(self) -> None:
        severity = self.profile.severity_of("trigger-ambiguous")
        self._triggers.check(self.skills, self.active.values(), severity)
        check_names(self.skills, self.profile)  # names that look alike (core/checking/lookalike.py)

    # -- queries --------------------------------------------------------------
    def get(self, name: str) -> Skill | None:
        """The winning skill for a name (or id), else any skill known by that name."""
        if name in self.active:
            return self.active[name]
        for skill in reversed(self.skills):
            if skill.name == name or skill.key == name:
                return skill
        return None

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for found in self.diagnostic_lists() for d in found]

    def diagnostic_lists(self) -> list[list[Diagnostic]]:
        """The lists `diagnostics` joins: the roots', each skill's own and cross-skill
        findings, the refresh's notes (the app compares them list by list)."""
        out = [self.root_diagnostics]
        for skill in self.skills:
            out.append(skill.diagnostics)
            out.append(skill.cross)
        out.append(self.refresh_notes)
        return out
