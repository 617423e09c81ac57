"""What the window shows of the open registries: the tree, Problems (with what failed
in the app's own work) and the status line; the panels are told when skills change.

Problems lists each project's findings as `lint` makes them (core/projects/findings.py):
the project's and the registry's, the rules applied where made, and the
`description-overlap` notes, worked out off the GUI thread on a `snapshot()` of each
registry after a scan or a refresh, once changes pause (the pairs there; the notes,
which read positions in the skills, on the GUI thread when they land). Until they
land, the last notes stay.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QStatusBar

from ...core.delivery.headroom import Place, listing_over_budget
from ...core.model.diagnostics import Diagnostic
from ...core.model.rule_settings import apply_rules
from ...core.model.skills import Skill
from ...core.model.text import counted
from ...core.projects.in_place import placement_notes
from ...core.projects.open_project import OverlapNotes, overlap_notes, overlap_pairs
from ...core.projects.project import Project
from ...core.scanning.registry import Registry
from ..infra.background import LatestJob
from ..infra.free_memory import return_free_memory
from ..infra.threads import snapshot
from ..models.app_context import AppContext
from ..models.problem_rows import ProblemRows
from ..models.problems_model import ProblemsModel
from ..models.skill_tree_model import TreeNodes, tree_nodes
from ..panels.problems_panel import ProblemsPanel
from .tree_controller import SkillTree

FIRST_LAYOUT_MS = 50  # the tree's and Problems' first layout and paint, then the indexes
FAILURES_KEPT = 20  # a failure per change must not pile up
OVERLAP_DELAY_MS = 300  # the overlap notes are worked out again once edits pause


def problem_sources(
    projects: list[Project],
    registries: list[Registry],
    failures: list[Diagnostic],
    overlap: Mapping[int, OverlapNotes] | None = None,
    listing: Mapping[int, list[Diagnostic]] | None = None,
) -> list[list[Diagnostic]]:
    """What Problems shows, list by list (see ProblemsModel.set_sources): the findings
    `lint` gives (core/projects/findings.py `project_findings`, the project's rule
    settings applied where each is made), each registry's overlap notes and its
    `listing-over-budget` note last (`overlap`, `listing`, by the registry's id: the
    last worked out)."""
    sources = [failures]
    for project, registry in zip(projects, registries, strict=True):
        sources.append(project.diagnostics)
        sources.extend(registry.diagnostic_lists())
        notes = overlap.get(id(registry)) if overlap else None
        sources.append(notes.all if notes is not None else [])
        sources.append(listing.get(id(registry), []) if listing else [])
    return sources


def _placed(place: tuple[Project, list[Skill]] | None) -> list[Diagnostic]:
    """The `unreached` note of a profile whose agent loads none of the project's skills
    where they sit (core/projects/in_place.py; `place`: the project and every skill)."""
    return placement_notes(*place) if place is not None else []


class SkillViews(QObject):
    """The tree and Problems over the context's registries, and the status line.

    Signals:
    skills_changed(): the open skills changed (a refresh, an edit in a tab): the
        panels (Try a Request, Suites, the Overlap Map) answer again.
    """

    skills_changed = Signal()

    def __init__(
        self,
        context: AppContext,
        tree: SkillTree,
        problems_model: ProblemsModel,
        problems: ProblemsPanel,
        status_bar: QStatusBar,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.context = context
        self.tree = tree
        self.problems_model = problems_model
        self.problems = problems
        self.status_bar = status_bar
        self.failures: list[Diagnostic] = []  # what failed in the app's own work
        # id(registry) -> (the registry, its overlap notes last worked out)
        self.overlap: dict[int, tuple[Registry, OverlapNotes]] = {}
        # id(registry) -> (the registry, its listing-over-budget note, ruled, likewise)
        self.listing: dict[int, tuple[Registry, list[Diagnostic]]] = {}
        # the newest notes asked land, one at a time; nothing once Problems is gone
        self.overlap_job = LatestJob(problems)
        self.overlap_timer = QTimer(problems)
        self.overlap_timer.setSingleShot(True)
        self.overlap_timer.timeout.connect(self.work_out_overlap)

    # -- a scan ------------------------------------------------------------------------
    def scan_preparer(
        self, projects: list[Project]
    ) -> Callable[[list[Registry]], tuple[TreeNodes, ProblemRows]]:
        """What the scan thread builds for the views once it has read `projects`'
        registries (100-500 ms at 10,000 skills): it reads only the values taken
        here, on the GUI thread, and the registries it owns until it hands them over."""
        bases = [p.base for p in projects]
        base = self.context.base
        filters = set(self.problems_model.severities), self.problems_model.only_path

        def prepare(registries: list[Registry]) -> tuple[TreeNodes, ProblemRows]:
            sources = problem_sources(projects, registries, [])
            rows = ProblemRows(sources, base, bases, *filters)
            rows.stamp = [(r, r.version) for r in registries]
            return tree_nodes(registries, bases), rows

        return prepare

    def show_scan(self, prepared: object, resume: Callable[[], None]) -> None:
        """A scan's registries, just installed: the tree now (its rows built by the scan
        thread), Problems in the next turn of the event loop, and `resume()` (the
        scan thread's indexes) once both are laid out."""
        built = prepared if isinstance(prepared, tuple) else (None, None)
        nodes, rows = built
        self.tree.show(self.context.registries, self.context.bases(), nodes)
        projects = self.context.projects

        def problems() -> None:
            if self.context.projects is projects:  # (else another folder was opened)
                self.update_problems(rows if isinstance(rows, ProblemRows) else None)
                self.overlap_soon()
            QTimer.singleShot(FIRST_LAYOUT_MS, resume)

        QTimer.singleShot(0, problems)

    # -- the registries changed ----------------------------------------------------------
    def refresh(self, rebuild: bool = True) -> None:
        """Tree and Problems after a scan (`rebuild`) or a refresh (rows kept if they
        can; the panels are told)."""
        if rebuild:
            self.tree.show(self.context.registries, self.context.bases())
        else:
            self.sync_tree()
        self.update_problems()
        self.overlap_soon()
        if not rebuild:
            self.skills_changed.emit()

    def sync_tree(self) -> None:
        self.tree.sync(self.context.registries, self.context.bases())

    def skill_checked(self, path: str) -> None:
        """An open skill was validated again: its row, Problems and the panels."""
        registry = self.context.registry_for(path)
        if registry is not None:
            self.tree.model.update_skill(registry.by_path[path])
            self.problems.skill_checked(registry.by_path[path])  # its content line follows
        self.update_problems()
        self.skills_changed.emit()  # the panels answer for the text on screen

    def follow(self, path: str) -> None:
        """Problems' "current skill only" and the tree follow the current tab."""
        registry = self.context.registry_for(path) if path else None
        self.problems.set_current_path(path, registry.by_path[path] if registry else None)
        self.tree.select(path)

    # -- Problems and the status line ------------------------------------------------------
    def update_problems(self, prepared: ProblemRows | None = None) -> None:
        context, model = self.context, self.problems_model
        registries, bases = context.registries, context.bases()
        if (
            prepared is not None
            and not self.failures
            and prepared.stamp == [(r, r.version) for r in registries]
            and not model.showing(context.base, bases)
        ):  # the scan's rows, of registries unchanged since: no need to list them again
            model.install(prepared)  # (30 ms less at 10,000 skills)
        else:
            notes = {key: found for key, (_r, found) in self.overlap.items()}
            listing = {key: found for key, (_r, found) in self.listing.items()}
            model.set_sources(
                problem_sources(context.projects, registries, self.failures, notes, listing),
                context.base,
                bases,
                prepared,
            )
        skills = context.skill_count()
        self.problems.set_skill_count(skills)
        if self.failures:
            self.status_bar.showMessage(self.failures[-1].message)
        else:
            self.status_bar.showMessage(self.summary())

    def summary(self) -> str:
        """The status line: the whole project's counts, as `lint` gives them (Problems'
        "current skill only" narrows its rows, never this line); "No folder open"."""
        context = self.context
        if not context.projects:
            self.status_bar.setToolTip("")
            return "No folder open"
        counts = self.problems_model.all_counts()
        names = sorted({p.profile.name for p in context.projects})
        # Eight names ran into the project label at 1024 px ("…, toolsets, v"): counted
        # past three, named in the tooltip (and each root in the tree says its own).
        profiles = ", ".join(names) if len(names) <= 3 else f"{len(names)} profiles"
        self.status_bar.setToolTip(", ".join(names))
        errors, warnings = counts.get("error", 0), counts.get("warning", 0)
        return (
            f"{counted(context.skill_count(), 'skill')} · {counted(errors, 'error')} · "
            f"{counted(warnings, 'warning')} · {profiles}"
        )

    # -- the overlap notes ------------------------------------------------------------------
    def _overlap_due(self) -> list[Registry]:
        """The registries whose overlap notes are not of their current version."""
        out = []
        for registry in self.context.registries:
            known = self.overlap.get(id(registry))
            if known is None or known[0] is not registry or known[1].version != registry.version:
                out.append(registry)
        return out

    def overlap_soon(self) -> None:
        """The overlap notes worked out again once the changes pause: after a scan or a
        refresh (files saved or changed on disk), so they follow the files as `lint`
        reads them; a keystroke does not start the work (at 5,000 skills it takes
        seconds: the form's "competes with" line answers for the text typed)."""
        if self._overlap_due():
            self.overlap_timer.start(OVERLAP_DELAY_MS)

    def work_out_overlap(self) -> None:
        """The overlap pairs of the registries changed since their notes, and their
        listing's `listing-over-budget` note (the Headroom view's listing, at the
        project's options, as `lint` works it out), off the GUI thread (one job at a
        time; one asked meanwhile follows with the newest copies)."""
        due = self._overlap_due()
        if not due:
            return
        copies = []
        options: list[tuple[dict[str, Any], Place | None]] = []
        places: list[tuple[Project, list[Skill]] | None] = []  # (all skills, not only active)
        for registry in due:
            copy = snapshot(registry)
            copy.roots = list(registry.roots)  # (the bounds' note is on the last root)
            copies.append(copy)
            open_project = self.context.open_project_of(registry)
            if open_project is None:
                options.append(({}, None))
                places.append(None)
            else:  # (the note stands where lint puts it: OpenProject.listing_place)
                options.append((dict(open_project.project.options), open_project.listing_place()))
                places.append((open_project.project, list(registry.skills)))

        def work() -> list[tuple[Any, list[Diagnostic]]]:
            # with the listing's note, the project's when its agent loads none of the
            # skills where they sit (as lint: core/projects/findings.py)
            return [
                (overlap_pairs(copy), listing_over_budget(copy, *opts) + _placed(place))
                for copy, opts, place in zip(copies, options, places, strict=True)
            ]

        def landed(reports: Any, error: str | None) -> None:
            current = {id(r): r for r in self.context.registries}
            self.overlap = {k: v for k, v in self.overlap.items() if current.get(k) is v[0]}
            self.listing = {k: v for k, v in self.listing.items() if current.get(k) is v[0]}
            found = reports or [(None, [])] * len(due)
            for registry, copy, (report, listing) in zip(due, copies, found, strict=True):
                if current.get(id(registry)) is registry:  # (never again for a failure)
                    self.overlap[id(registry)] = (registry, overlap_notes(copy, report))
                    ruled = apply_rules(listing, registry.profile.rules)
                    self.listing[id(registry)] = (registry, ruled)
            if error is not None:
                self.fail(f"Working out the overlap notes failed: {error}", self.context.base)
            else:
                self.update_problems()
            QTimer.singleShot(0, return_free_memory)  # once the copies are let go

        self.overlap_job.submit(work, landed)

    def listing_registry(self, note: Diagnostic) -> Registry | None:
        """The registry whose `listing-over-budget` note `note` is (None: none now)."""
        return next((r for r, notes in self.listing.values() if note in notes), None)

    def fail(self, message: str, path: str) -> None:
        """Something failed in the app's own work (a core bug, or input no check
        foresaw): the window keeps what it shows and its watcher; the failure goes
        to Problems (an `internal` error on `path`) and the status bar."""
        self.failures.append(Diagnostic("internal", "error", message, path, 1, 1))
        del self.failures[:-FAILURES_KEPT]
        self.update_problems()

    def clear_failures(self, paths: set[str] | None = None) -> bool:
        """Forget the failures on `paths` (all of them when None): read again without
        failing. True if any was forgotten (Problems is then to be updated)."""
        kept = [d for d in self.failures if paths is not None and d.path not in paths]
        forgotten = len(kept) != len(self.failures)
        self.failures = kept
        return forgotten
