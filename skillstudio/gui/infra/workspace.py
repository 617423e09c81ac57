"""The open folder: its projects and their registries, as the GUI thread holds them."""

from __future__ import annotations

import os

from ...core.projects.project import Project
from ...core.scanning.registry import Registry


class Workspace:
    """The folder open in the window, its projects and their registries (one per
    project, in the same order). GUI thread only: a scan's registries enter with
    `install` when the scan hands them over (threads.py), and every controller asks
    here which project or registry a path belongs to."""

    def __init__(self) -> None:
        self.base = ""  # the folder opened (absolute), "" before the first
        self.projects: list[Project] = []
        self.registries: list[Registry] = []

    def open(self, base: str) -> None:
        """A folder is being opened: nothing of the last one is left until its scan lands."""
        self.base = base
        self.projects = []
        self.registries = []

    def install(self, projects: list[Project], registries: list[Registry]) -> None:
        self.projects = projects
        self.registries = registries

    def replace(self, old: Project, project: Project, registry: Registry) -> Registry | None:
        """`old` read again as `project` (another profile): its registry, replaced, or
        None when `old` is no longer open (another folder was opened meanwhile)."""
        if old not in self.projects:
            return None
        number = self.projects.index(old)
        replaced = self.registries[number]
        self.projects[number] = project
        self.registries[number] = registry
        return replaced

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
        return self.projects[number] if number is not None else None

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

    def skill_count(self) -> int:
        return sum(len(registry.skills) for registry in self.registries)
