"""An open project: a project (core/projects/project.py), its registry as scanned, and
what is derived from the registry, built when first asked for and kept current as it
changes: the match index, the likely-candidates indexes (one per ranking model) and the
`description-overlap` notes.

The command line holds one per project a command reads, the language server one per
project of its workspace; each asks here rather than building its own. Findings
(core/projects/findings.py) read the overlap notes from here: worked out once per
version of the registry (lint, show and list of one run share them), and for a skill
edited since, from its own pairs (core/ranking/rivals.py, about a millisecond).

After a change the registry is told first (`Registry.refresh` for files changed on
disk, `edit` here for unsaved text); the indexes catch up when next asked for (`sync`
brings every built one up to date at once). `adopt` puts another registry of the same
project in place (the project read again): everything derived is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..model.diagnostics import Diagnostic
from ..model.rule_settings import apply_rules
from ..model.skills import Skill
from ..scanning.registry import Registry
from .project import Project

if TYPE_CHECKING:  # (imported when used: a command that ranks nothing loads no ranking)
    from ..model.delivered import ListingView
    from ..ranking.estimate import Model
    from ..ranking.likely_index import LikelyIndex
    from ..ranking.match_index import MatchIndex
    from ..ranking.overlap import Overlaps
    from ..scanning.state_cache import StateCache

OVERLAP = "description-overlap"
# the skillstudio.yaml keys that set a listing's budget, the one that wins first
BUDGET_KEYS = ("char_budget", "context_tokens", "model")
LINT_MAX_SKILLS = 5_000  # overlap notes are worked out up to this many active skills


@dataclass(slots=True)
class OverlapNotes:
    """The `description-overlap` notes of one version of a registry, the project's rule
    settings applied: each skill's (at most one), and the note that the check was
    bounded (on the last root), if it was."""

    version: int
    by_path: dict[str, list[Diagnostic]] = field(default_factory=dict)
    bounded: list[Diagnostic] = field(default_factory=list)

    @property
    def all(self) -> list[Diagnostic]:
        return [d for found in self.by_path.values() for d in found] + self.bounded


@dataclass(slots=True)
class ListingNotes:
    """What the listing at the project's window holds for one version of a registry:
    its `listing-over-budget` note (none, or one) and what it shows of each skill (the
    likely ranking's view), each worked out when first asked for, and what each skill's
    entry was made from then (`listing_inputs`), by path."""

    version: int
    inputs: dict[str, tuple[object, ...]]
    notes: list[Diagnostic] | None = None
    view: ListingView | None = None
    viewed: bool = False  # (`view` worked out: None is an answer, the view of no listing)


def listing_inputs(skill: Skill | None) -> tuple[object, ...] | None:
    """What a skill's entry in any profile's listing is made from: its key, name and
    status, its path and its frontmatter (the description, `when_to_use`, what leaves
    it out); never its body, so typing in the body leaves the listing as it was."""
    if skill is None:
        return None
    return (skill.key, skill.name, skill.status, skill.description, skill.doc.fm_text)


@dataclass(eq=False, slots=True)
class OpenProject:
    """One project and its registry, with the indexes and overlap notes derived from it."""

    project: Project
    registry: Registry
    _match: MatchIndex | None = None
    _likely: dict[Model, LikelyIndex] = field(default_factory=dict)
    _broken: set[Model] = field(default_factory=set)  # indexes whose build or update failed
    _overlap: OverlapNotes | None = None
    _listing: ListingNotes | None = None
    # the `unreached` note of an agent that loads none of the skills where they sit, by
    # the skills' paths it was worked out for (`placement_notes`)
    _placement: tuple[tuple[str, ...], list[Diagnostic]] | None = None
    # what the listing note is worked out at besides the project's options (lint's
    # --context-tokens): `use_window`
    _window: dict[str, int] = field(default_factory=dict)

    @classmethod
    def read(
        cls,
        project: Project,
        *,
        workers: int = 1,
        gists: bool = True,
        cache: StateCache | None = None,
        track_files: bool = False,
    ) -> OpenProject:
        """`project` scanned (`gists=False` where nothing ranks by body words: lint, the
        language server; `cache`: the cache of what was read, core/scanning/state_cache.py;
        `track_files`: what each skill's checks looked at is kept, Registry.looked)."""
        registry = project.registry(
            workers=workers, gists=gists, cache=cache, track_files=track_files
        )
        registry.scan()
        return cls(project, registry)

    # -- changes -----------------------------------------------------------------------
    def edit(self, path: str, text: str | None) -> Skill | None:
        """The skill at `path` read again from `text` (an editor's unsaved text), or from
        its file when None: its own checks and those between skills run again. The
        skill the registry holds for `path` after, None when it holds none."""
        self.registry.reparse(path, text)
        return self.registry.by_path.get(path)

    def sync(self) -> None:
        """Every index built so far brought up to date with the registry (only the skills
        changed are touched); an index that fails is dropped, never the findings."""
        if self._match is not None:
            self._match.sync()
        for model in list(self._likely):
            self._synced(model)

    def adopt(self, registry: Registry) -> None:
        """Another registry of this project in place of the one held (the project read
        again): what was derived from the old one is dropped."""
        self.registry = registry
        self._match = None
        self._likely.clear()
        self._broken.clear()
        self._overlap = None
        self._listing = None
        self._placement = None

    # -- indexes -----------------------------------------------------------------------
    def match_index(self) -> MatchIndex:
        """The match index of the active skills (core/ranking/match_index.py), current."""
        from ..ranking.match_index import MatchIndex

        if self._match is None or self._match.registry is not self.registry:
            self._match = MatchIndex(self.registry)
        else:
            self._match.sync()
        return self._match

    def likely_index(self, model: Model | None = None) -> LikelyIndex | None:
        """The likely-candidates index under `model` (core/ranking/likely_index.py; the
        likely ranking's by default), current; None where the model does not choose, or
        the index failed (a nicety: its failure never hides a diagnostic)."""
        from ..ranking.estimate import LIKELY_MODEL
        from ..ranking.likely_index import LikelyIndex

        model = model or LIKELY_MODEL
        if not self.registry.profile.model_chooses or model in self._broken:
            return None
        if model not in self._likely:
            try:
                # the likely ranking reads what the listing shows (the overlap model
                # compares descriptions whole: what competes, whatever the budget)
                if model is LIKELY_MODEL:
                    index = LikelyIndex(self.registry, model, view=self.listing_view())
                    self._reads_listing(index)
                else:
                    index = LikelyIndex(self.registry, model)
                self._likely[model] = index
            except Exception:
                self._broken.add(model)
                return None
            return self._likely[model]
        return self._synced(model)

    def take_match(self, index: MatchIndex) -> None:
        """A match index of this registry built elsewhere (the app's scan builds it off
        its thread): kept, and synced when next asked for."""
        if index.registry is self.registry:
            self._match = index

    def forget_match(self) -> None:
        """The match index dropped (it failed): built from scratch when next asked for."""
        self._match = None

    def take_likely(self, model: Model, index: LikelyIndex) -> None:
        """A likely index of this registry under `model` built elsewhere (the app builds
        them off its thread, gui/infra/likely_jobs.py): kept, synced when next asked for;
        the likely ranking's follows the listing from now on (`listing_view`)."""
        from ..ranking.estimate import LIKELY_MODEL

        if model is LIKELY_MODEL:
            self._reads_listing(index)
        self._likely[model] = index
        self._broken.discard(model)

    def _reads_listing(self, index: LikelyIndex) -> None:
        """The likely ranking's index reads what the listing shows: each skill as the
        budget leaves it (`listing_view`, followed at every sync) and the agent's own
        skills beside the user's (Claude Code's bundled ones, Codex's system skills)."""
        options = {**self.project.options, **self._window}
        try:
            own = self.registry.profile.agent_skills(options)
        except Exception:  # a nicety of the ranking: its failure hides nothing
            own = []
        index.add_own(own)
        index.follow_listing(self.listing_view)

    def built_likely(self, model: Model) -> LikelyIndex | None:
        """The likely index under `model` if built, as it is (neither synced nor built)."""
        return self._likely.get(model)

    def built(self) -> list[MatchIndex | LikelyIndex]:
        """Every index built so far (a refresh brings them up to date)."""
        match = [self._match] if self._match is not None else []
        return [*match, *self._likely.values()]

    def _synced(self, model: Model) -> LikelyIndex | None:
        index = self._likely[model]
        try:
            index.sync()
        except Exception:
            del self._likely[model]
            self._broken.add(model)
            return None
        return index

    # -- overlap notes -----------------------------------------------------------------
    def overlap(self) -> OverlapNotes:
        """The overlap notes of the registry as it is now, worked out once per version."""
        from ..ranking.overlap import OVERLAP_MODEL

        registry = self.registry
        cached = self._overlap
        if cached is None or cached.version != registry.version:
            index = self.likely_index(OVERLAP_MODEL) if overlap_checked(registry) else None
            cached = self._overlap = overlap_notes(registry, overlap_pairs(registry, index))
        return cached

    def overlap_of(self, skill: Skill) -> list[Diagnostic]:
        """The overlap note of one skill: from the project's notes while they are
        current, else (the skill was just edited) from its own pairs, which give the
        project's score, shared words and note for it (core/ranking/rivals.py)."""
        from ..ranking.overlap import LINT_THRESHOLD, OVERLAP_MODEL, overlap_note
        from ..ranking.rivals import rival_pairs

        cached = self._overlap
        if cached is not None and cached.version == self.registry.version:
            return cached.by_path.get(skill.path, [])
        if not overlap_checked(self.registry):
            return []
        index = self.likely_index(OVERLAP_MODEL)  # (it holds the active skills, current)
        doc = index.docs.get(skill.path) if index is not None else None
        if index is None or doc is None or doc.skill is not skill:
            return []
        try:
            pairs = rival_pairs(index, skill.path, threshold=LINT_THRESHOLD)
        except Exception:  # a nicety: a core bug here never hides the other diagnostics
            return []
        if not pairs:
            return []
        best = pairs[0]
        other = best.b if best.a.path == skill.path else best.a
        return self._ruled([overlap_note(skill, other, best, len(pairs) - 1)])

    # -- the listing's budget ----------------------------------------------------------
    def use_window(self, context_tokens: int | None) -> None:
        """The context window the listing note and view are worked out at, in place of the
        project's `context_tokens` (--context-tokens; None: the project's)."""
        from ..ranking.estimate import LIKELY_MODEL

        window = {} if context_tokens is None else {"context_tokens": context_tokens}
        if window != self._window:
            self._window = window
            self._listing = None
            built = self._likely.get(LIKELY_MODEL)
            if built is not None:  # it reads the listing at the new window from now on
                built.follow_listing(self.listing_view)

    def listing_notes(self) -> list[Diagnostic]:
        """The `listing-over-budget` note of the registry as it is now (none, or one),
        the project's rules applied, worked out once per version: the listing the Tiers
        and Headroom views show (core/delivery/headroom.py), at the project's options
        (skillstudio.yaml `context_tokens`, `char_budget`, ...; else the profile's
        default window)."""
        from ..delivery.headroom import listing_over_budget

        cached = self._listing_now()
        if cached.notes is None:
            options = {**self.project.options, **self._window}
            notes = listing_over_budget(self.registry, options, self.listing_place())
            cached.notes = self._ruled(notes)
        return cached.notes

    def placement_notes(self) -> list[Diagnostic]:
        """The project's note when the profile's agent loads none of its skills where
        they sit (core/projects/in_place.py `loads_none`), the project's rules applied;
        worked out again only when the skills' paths change (an edit moves nothing)."""
        from .in_place import placement_notes

        registry = self.registry
        paths = tuple(skill.path for skill in registry.skills)
        if self._placement is None or self._placement[0] != paths:
            notes = placement_notes(self.project, registry.skills)
            self._placement = (paths, self._ruled(notes))
        return self._placement[1]

    def listing_place(self) -> tuple[str, int, int]:
        """Where the `listing-over-budget` note stands, a note about the whole listing
        (no one skill's; `lint`, the language server and Problems alike): the line of
        skillstudio.yaml that sets the budget in force (`char_budget`, else
        `context_tokens`, else `model`; those two not when --context-tokens or --model
        set the window), else skillstudio.yaml with no line, else the project's folder
        with no line."""
        config = self.project.config
        if config is None:
            return self.project.base, 0, 0
        for key in BUDGET_KEYS:
            if key in config.options and key in config.key_at:
                if self._window and key != "char_budget":
                    break  # (the window is the command line's)
                return config.path, *config.key_at[key]
        return config.path, 0, 0

    def listing_view(self) -> ListingView | None:
        """What the listing at the project's window shows of each skill (the likely
        ranking reads skills through it: core/ranking/likely_index.py), worked out once
        per version; None where it cannot be written (the index then reads every skill
        whole)."""
        from ..delivery.tiers import render_listing

        cached = self._listing_now()
        if not cached.viewed:
            registry, options = self.registry, {**self.project.options, **self._window}
            try:
                # a listing with no budget shows every skill whole (what the profile's
                # own rules leave out, the index knows): not written for nothing (at
                # 10,000 skills 40 ms a description's keystroke)
                unbounded = registry.profile.listing_budget(options) is None
                listing = None if unbounded else render_listing(registry, options)
                cached.view = listing.view(registry.profile.name) if listing else None
            except Exception:  # a nicety of the ranking: its failure hides nothing
                cached.view = None
            cached.viewed = True
        return cached.view

    def _listing_now(self) -> ListingNotes:
        """The listing's findings for the registry as it is now (empty when it changed)."""
        registry = self.registry
        cached = self._listing
        if cached is not None and cached.version != registry.version:
            # the common keystroke: skills edited in place (`changed_since`), none of them
            # in what the listing reads (a body edit); at 10,000 skills writing the
            # listing twice costs about 90 ms
            changed = registry.changed_since(cached.version)
            if changed is not None and all(
                listing_inputs(registry.by_path.get(path)) == cached.inputs.get(path)
                for path in changed
            ):
                cached.version = registry.version
        if cached is None or cached.version != registry.version:
            inputs = {s.path: inputs for s in registry.skills if (inputs := listing_inputs(s))}
            cached = self._listing = ListingNotes(registry.version, inputs)
        return cached

    def _ruled(self, notes: list[Diagnostic]) -> list[Diagnostic]:
        return apply_rules(notes, self.registry.profile.rules)


def overlap_setting(registry: Registry) -> str:
    """What the project's rules make a `description-overlap` note: info (its own
    severity), warning, error, or off."""
    return registry.profile.rules.get(OVERLAP, "info")


def overlap_checked(registry: Registry) -> bool:
    """Whether overlap notes are worked out: where the model chooses, for 2 to
    LINT_MAX_SKILLS active skills (above it `skillstudio overlap` lists the pairs, in
    seconds, not at lint's pace), unless the rules turn them off."""
    return (
        registry.profile.model_chooses
        and 2 <= len(registry.active) <= LINT_MAX_SKILLS
        and overlap_setting(registry) != "off"
    )


def overlap_pairs(registry: Registry, index: LikelyIndex | None = None) -> Overlaps | None:
    """The pairs overlap notes are made of (core/ranking/overlap.py, at lint's
    threshold), None where they are not worked out (`overlap_checked`). Reads the
    registry's active skills only (the app runs it on a snapshot, off its thread)."""
    from ..ranking.overlap import LINT_THRESHOLD, overlap_report

    return overlap_report(registry, LINT_THRESHOLD, index) if overlap_checked(registry) else None


def overlap_notes(registry: Registry, report: Overlaps | None) -> OverlapNotes:
    """The notes of `report` (`overlap_pairs` of the registry as it is, or was), the
    project's rules applied: at most one per skill, and the bounds' on the last root."""
    from ..ranking.overlap import bounds_diagnostic, overlap_diagnostics

    notes = OverlapNotes(registry.version)
    if report is None:
        return notes
    rules = registry.profile.rules
    for note in apply_rules(overlap_diagnostics(report.pairs), rules):
        notes.by_path.setdefault(note.path, []).append(note)
    if report.bounds.cut and registry.roots:
        bounded = bounds_diagnostic(report.bounds, registry.roots[-1].path)
        notes.bounded = apply_rules([bounded], rules)
    return notes
