"""The application context: the open folder's projects as open projects
(core/projects/open_project.py), the one the user works on, and the indexes and sessions
derived from them, as the GUI thread holds them.

Built in `app.main()` and handed to the window, its controllers and the panels: Try a
Request, Suites and the Overlap Map show the current project and follow
`current_changed`; every controller asks here which project or registry a path belongs
to. The match indexes (built off the GUI thread by a scan) and the likely ones
(gui/infra/likely_jobs.py) are adopted into the open projects, and read from there.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from PySide6.QtCore import QObject, Signal

from ...core.model.paths import is_within
from ...core.model.session import Session
from ...core.projects.open_project import OpenProject
from ...core.projects.project import Project
from ...core.ranking.likely_index import LikelyIndex
from ...core.ranking.match_index import MatchIndex
from ...core.scanning.registry import Registry
from ..infra.likely_jobs import LikelyIndexes


class AppContext(QObject):
    """The folder open in the window, its open projects (one registry each), the
    current one. GUI thread only: a scan's registries enter with `install` when the
    scan hands them over (threads.py).

    Signals:
    projects_changed(): the open projects are others (a scan landed, a project was read
    as another profile); `current_changed` follows.
    current_changed(object): the project worked on is this `OpenProject` (None: none).
    """

    projects_changed = Signal()
    current_changed = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.base = ""  # the folder opened (absolute), "" before the first
        self.open_projects: list[OpenProject] = []
        self._projects: list[Project] = []  # theirs, one list per scan (its identity says which)
        self._current: OpenProject | None = None
        self._sessions: dict[int, Session] = {}  # Try a Request's, per registry
        self.likely_indexes = LikelyIndexes(self.open_project_of, self)

    # -- what is open --------------------------------------------------------------------
    @property
    def projects(self) -> list[Project]:
        """The open projects' projects: the same list from one scan's hand-over to the next."""
        return self._projects

    @property
    def registries(self) -> list[Registry]:
        return [o.registry for o in self.open_projects]

    def open(self, base: str) -> None:
        """A folder is being opened: nothing of the last one is left until its scan lands."""
        self.base = base
        self.open_projects = []
        self._projects = []
        self._sessions.clear()

    def install(
        self,
        projects: list[Project],
        registries: list[Registry],
        indexes: list[MatchIndex] | None = None,
    ) -> None:
        """The projects a scan read, with the match indexes built for them already. The
        panels are not told: `announce` does (once a scan's gists are in)."""
        self.open_projects = [OpenProject(p, r) for p, r in zip(projects, registries, strict=True)]
        self._projects = projects
        self.adopt_indexes(indexes or [])

    def adopt_indexes(self, indexes: list[MatchIndex]) -> None:
        """Match indexes built elsewhere (a scan's, off the GUI thread) for open registries."""
        for index in indexes:
            open_project = self.open_project_of(index.registry)
            if open_project is not None:
                open_project.take_match(index)

    def announce(self) -> None:
        """The open projects are complete (a scan's gists in): the likely indexes of
        others are forgotten, the panels are told, the current project kept by its folder."""
        registries = self.registries
        self.likely_indexes.keep_only(registries)
        alive = {id(r) for r in registries}
        self._sessions = {k: s for k, s in self._sessions.items() if k in alive}
        base = self._current.project.base if self._current is not None else None
        found = [o for o in self.open_projects if o.project.base == base]
        kept = found or self.open_projects
        self._current = kept[0] if kept else None
        self.projects_changed.emit()
        self.current_changed.emit(self._current)

    def replace(self, old: Project, project: Project, registry: Registry) -> Registry | None:
        """`old` read again as `project` (another profile): its registry, replaced, or
        None when `old` is no longer open (another folder was opened meanwhile)."""
        for number, open_project in enumerate(self.open_projects):
            if open_project.project is old:
                replaced = open_project.registry
                self.open_projects[number] = OpenProject(project, registry)
                self._projects[number] = project
                if self._current is open_project:
                    self._current = self.open_projects[number]
                return replaced
        return None

    # -- the current project -------------------------------------------------------------
    @property
    def current(self) -> OpenProject | None:
        return self._current

    @current.setter
    def current(self, open_project: OpenProject | None) -> None:
        if open_project is not self._current:
            self._current = open_project
            self.current_changed.emit(open_project)

    def choose(self, number: int) -> None:
        """The project at this place in `open_projects` is the current one."""
        if 0 <= number < len(self.open_projects):
            self.current = self.open_projects[number]

    def choose_project_of(self, path: str) -> None:
        """The project that holds the skill at `path` (the one being edited) is current."""
        for open_project in self.open_projects:
            if path in open_project.registry.by_path:
                self.current = open_project
                return

    @property
    def project(self) -> Project | None:
        return self._current.project if self._current is not None else None

    @property
    def registry(self) -> Registry | None:
        return self._current.registry if self._current is not None else None

    def session(self, registry: Registry) -> Session:
        """Try a Request's session on `registry` (one per project, kept while it is open)."""
        return self._sessions.setdefault(id(registry), Session())

    # -- indexes -------------------------------------------------------------------------
    def open_project_of(self, registry: Registry) -> OpenProject | None:
        """The open project whose registry is `registry`, None when none is."""
        for open_project in self.open_projects:
            if open_project.registry is registry:
                return open_project
        return None

    def match_index(self, registry: Registry) -> MatchIndex:
        """The registry's match index, brought up to date (an open project's is kept;
        a suite's own project outside the folder gets one built now)."""
        open_project = self.open_project_of(registry)
        return open_project.match_index() if open_project is not None else MatchIndex(registry)

    def forget_match(self, registry: Registry) -> None:
        """The registry's match index failed: built from scratch when next asked for."""
        open_project = self.open_project_of(registry)
        if open_project is not None:
            open_project.forget_match()

    def built_indexes(self, registry: Registry) -> Sequence[MatchIndex | LikelyIndex]:
        """The indexes of `registry` built so far (a refresh syncs them)."""
        open_project = self.open_project_of(registry)
        return open_project.built() if open_project is not None else []

    # -- where a path belongs ------------------------------------------------------------
    def registry_for(self, path: str) -> Registry | None:
        """The registry that lists the SKILL.md at `path`."""
        for registry in self.registries:
            if path in registry.by_path:
                return registry
        return None

    def project_number(self, path: str) -> int | None:
        """The number of the project with the skill (SKILL.md) or the root at `path`."""
        for number, registry in enumerate(self.registries):
            if path in registry.by_path or any(r.path == path for r in registry.roots):
                return number
        return None

    def project_of(self, path: str) -> Project | None:
        number = self.project_number(path)
        return self.open_projects[number].project if number is not None else None

    def root_project_number(self, root: str) -> int | None:
        """The number of the project with a root at `root`."""
        for number, registry in enumerate(self.registries):
            if any(r.path == root for r in registry.roots):
                return number
        return None

    def skill_folder_of(self, path: str) -> str | None:
        """The folder of the skill `path` is a file of."""
        for registry in self.registries:
            for skill_path in registry.by_path:
                folder = os.path.dirname(skill_path)
                if path.startswith(folder + os.sep):
                    return folder
        return None

    def project_name(self, path: str) -> str:
        """The name of the project's folder `path` is in (its folder when in none)."""
        folders = [p.base for p in self.projects if path.startswith(p.base + os.sep)]
        return os.path.basename(max(folders, key=len)) if folders else os.path.dirname(path)

    def roots(self) -> list[str]:
        """Every root of every project: what the file watcher watches."""
        return [root.path for registry in self.registries for root in registry.roots]

    def bases(self) -> list[str]:
        return [project.base for project in self.projects]

    def project_holding(self, path: str) -> Project | None:
        """The project whose folder holds `path` (read by its roots or not), the one
        with the deepest folder; None for a path outside every open project."""
        holding = [p for p in self.projects if is_within(path, p.base)]
        return max(holding, key=lambda p: len(p.base)) if holding else None

    def skill_count(self) -> int:
        return sum(len(registry.skills) for registry in self.registries)
