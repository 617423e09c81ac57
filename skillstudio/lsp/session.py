"""The skills of an editor's workspace, read as `lint` reads them and kept current per
document.

When the editor connects, each workspace folder is read once as `skillstudio lint` run
in that folder reads it (core/projects/project.py `resolve_projects`: skillstudio.yaml,
else ./skills, else the folder, each root under its detected profile), every skill
scanned, so that the findings between skills (duplicate names and who wins, shared
triggers, look-alike names) are known. A keystroke re-validates only the document typed
in, from its unsaved text (`Registry.reparse`, as the app does for an unsaved tab); the
other skills stay as the registry holds them, brought up to date when a file is saved
or changes on disk (`Registry.refresh` with the changed paths as its hint). Each
project is an open project (core/projects/open_project.py), and what is published for
a file is its findings (core/projects/findings.py `file_findings`): what `lint` says
of it, with the project's rules, the description-overlap note included.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..core.checking.validate import validate_skill
from ..core.model.diagnostics import Diagnostic
from ..core.model.document import Document
from ..core.model.paths import is_within
from ..core.model.scan import SKILL_FILE
from ..core.model.skills import Root, Skill
from ..core.profile import Profile
from ..core.profiles import DEFAULT_PROFILE, get_profile
from ..core.projects.config import CONFIG_NAME
from ..core.projects.findings import file_findings
from ..core.projects.open_project import OpenProject
from ..core.projects.project import UsageError, detect_profile, resolve_projects
from ..core.projects.suite_notes import is_suite, suite_diagnostics
from ..core.ranking.overlap import OVERLAP_MODEL
from ..core.ranking.rivals import competing
from ..core.reading.frontmatter import parse_bounded
from ..core.scanning.loading import build_skill
from ..core.scanning.state_cache import StateCache

RIVALS_SHOWN = 3  # skills named in a hover's "Competes with"


@dataclass(slots=True)
class Checked:
    """One document's diagnostics and the skill they were found on (None for a file that
    is not a skill)."""

    diagnostics: list[Diagnostic]
    skill: Skill | None = None
    profile: Profile | None = None
    loaded: OpenProject | None = None
    version: int = 0  # the registry's version before the check (what else it changed)


@dataclass(slots=True)
class Session:
    """The workspace's projects (`profile_name`: a profile forced for every folder)."""

    profile_name: str | None = None
    # the cache of what was read (core/scanning/state_cache.py), shared with `lint`: a
    # folder read before starts from it (False: read every file, write no cache)
    use_cache: bool = True
    folders: list[str] = field(default_factory=list)
    loaded: list[OpenProject] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)  # folders that could not be read
    # SKILL.md files a refresh did not find in any project (not where its profile looks):
    # not walked for again on every keystroke, only after the next change on disk
    unlisted: set[str] = field(default_factory=set)
    detected: dict[str, str] = field(default_factory=dict)  # folder -> its profile's name

    # -- reading the workspace --------------------------------------------------------
    def open_folders(self, folders: Iterable[str]) -> None:
        for folder in folders:
            folder = os.path.abspath(folder)
            if folder in self.folders or not os.path.isdir(folder):
                continue
            self.folders.append(folder)
            try:
                projects = resolve_projects([], [], None, self.profile_name, folder)
            except UsageError as exc:
                self.notes.append(Diagnostic("config-invalid", "error", str(exc), folder))
                continue
            cache = StateCache.open() if self.use_cache else None
            for project in projects:
                # nothing here ranks by body words: no gists, as lint reads
                # what each skill's checks looked at is kept (`stale`)
                read = OpenProject.read(project, gists=False, cache=cache, track_files=True)
                self.loaded.append(read)

    def close_folders(self, folders: Iterable[str]) -> None:
        gone = {os.path.abspath(folder) for folder in folders}
        self.folders = [f for f in self.folders if f not in gone]
        self.loaded = [
            item
            for item in self.loaded
            if not any(is_within(item.project.base, folder) for folder in gone)
        ]

    def owner(self, path: str) -> OpenProject | None:
        """The project whose registry holds the SKILL.md at `path` (the last one read
        wins, as a later root does)."""
        for item in reversed(self.loaded):
            if path in item.registry.by_path:
                return item
        return None

    def project_of(self, path: str) -> OpenProject | None:
        """The project whose folder `path` lies in (the innermost), holding it or not."""
        best: OpenProject | None = None
        for item in self.loaded:
            if is_within(path, item.project.base) and (
                best is None or len(item.project.base) > len(best.project.base)
            ):
                best = item
        return best

    def profile_for(self, path: str) -> Profile:
        """The profile a file is read with: its project's, else the one its folder is
        detected as (a skill opened from outside the workspace)."""
        item = self.owner(path) or self.project_of(path)
        if item is not None:
            return item.registry.profile
        name = self.profile_name
        if name is None:  # detected once per folder (a walk of it), not per keystroke
            folder = os.path.dirname(os.path.dirname(path))
            name = self.detected.get(folder)
            if name is None:
                try:
                    found = detect_profile(folder)[0] if os.path.isdir(folder) else None
                except (OSError, ValueError):
                    found = None
                name = self.detected[folder] = found or DEFAULT_PROFILE
        try:
            return get_profile(name)
        except KeyError:
            return get_profile(DEFAULT_PROFILE)

    # -- checking one document -----------------------------------------------------------
    def check(self, path: str, text: str) -> Checked:
        """The diagnostics of the file at `path` as it reads with `text` (the editor's
        unsaved text). A skill is validated again; any other file gets what the last
        scan or save found in it."""
        item = self.owner(path)  # (a skill is a SKILL.md, or a command file where read)
        if item is None and os.path.basename(path) != SKILL_FILE:
            return self._suite(path, text) or Checked(self.file_diagnostics(path))
        if item is None and self._known_after_refresh(path):
            item = self.owner(path)
        if item is None:
            return self._standalone(path, text)
        version = item.registry.version
        found = file_findings(item, path, text)  # (the text adopted first)
        skill = item.registry.by_path.get(path)
        return Checked(found, skill, item.registry.profile, item, version)

    def _suite(self, path: str, text: str) -> Checked | None:
        """A query suite of the workspace (listed under 'suites:', in a `suites/` folder,
        or named as another tool's format), read from the editor's text; else None. Its
        names are checked against the skills of every project of its workspace folder
        (a suite usually sits beside `skills/`, outside the root it tests)."""
        folders = [f for f in self.folders if is_within(path, f)]
        folder = max(folders, key=len) if folders else None
        items = [
            item
            for item in self.loaded
            if is_within(path, item.project.base)
            or (folder is not None and is_within(item.project.base, folder))
        ]
        if not items:
            return None
        listed = [s for item in items if item.project.config for s in item.project.config.suites]
        if not is_suite(path, folder or items[0].project.base, listed):
            return None
        names = {skill.name for item in items for skill in item.registry.skills if skill.name}
        return Checked(suite_diagnostics(path, text, names))

    def _known_after_refresh(self, path: str) -> bool:
        """A SKILL.md written under a project's folder since the scan (a new skill):
        the project is read again (its refresh walks the roots) and may hold it now."""
        item = self.project_of(path)
        if item is None or path in self.unlisted or not os.path.isfile(path):
            return False
        item.registry.refresh([path])
        if path in item.registry.by_path:
            return True
        self.unlisted.add(path)
        return False

    def _standalone(self, path: str, text: str) -> Checked:
        """A skill no project holds (opened from elsewhere, or not saved yet): validated
        alone under the profile its place suggests; no cross-skill findings."""
        profile = self.profile_for(path)
        root = Root(os.path.dirname(os.path.dirname(path)), "", 0)
        skill = build_skill(
            root,
            path,
            (0, 0),
            profile,
            True,
            lambda: parse_bounded(Document(path=path), text),
            validate_skill,
            False,
        )
        own = [d for d in skill.all_diagnostics if d.path == path]
        return Checked(own, skill, profile)

    def rivals(self, item: OpenProject, path: str, threshold: float) -> list[tuple[Skill, float]]:
        """The skills the description at `path` competes with at `threshold` (a hover's
        "Competes with", at the score from which `skillstudio overlap` lists a pair)."""
        try:
            index = item.likely_index(OVERLAP_MODEL)
            return competing(index, path, RIVALS_SHOWN, threshold) if index else []
        except Exception:  # a nicety: a core bug here never hides the diagnostics
            return []

    def closed(self, path: str) -> OpenProject | None:
        """A document closed (saved or not): its skill is read again from the file, so
        that unsaved text left behind counts no more."""
        item = self.owner(path)
        if item is not None:
            item.edit(path, None)
        return item

    # -- files saved or changed on disk ------------------------------------------------------
    def changed(self, paths: Iterable[str]) -> list[OpenProject]:
        """Files saved, created or deleted: the projects holding them read them again
        (only those files when they are known skills). The projects refreshed are
        returned: their open documents are checked again (a refresh replaces a skill
        re-read from unsaved text with the file's)."""
        hint = [os.path.abspath(path) for path in paths]
        touched: list[OpenProject] = []
        self.unlisted.clear()
        self.detected.clear()
        configs = {os.path.dirname(p) for p in hint if os.path.basename(p) == CONFIG_NAME}
        reread = [f for f in self.folders if any(is_within(c, f) for c in configs)]
        if reread:  # a project's settings changed: its folder is read again, whole
            self.close_folders(reread)
            self.open_folders(reread)
            touched += [
                item
                for item in self.loaded
                if any(is_within(item.project.base, folder) for folder in reread)
            ]
        for item in self.loaded:
            base = item.project.base
            if item in touched or not any(is_within(path, base) for path in hint):
                continue
            item.registry.refresh([p for p in hint if is_within(p, base)])
            touched.append(item)
        return touched

    def stale(self, paths: Iterable[str]) -> list[OpenProject]:
        """The skills at `paths` (the open documents) of which a file their checks looked
        at changed since they were read (a `scripts/x.py` the body names, created since:
        an editor tells of SKILL.md files, not of those, core/scanning/folder_changes.py):
        read again, their folder as the refresh's hint, as the app's watcher hints it.
        The projects refreshed are returned: their open documents are checked again."""
        touched: list[OpenProject] = []
        for path in paths:
            item = self.owner(path)
            looked = item.registry.looked if item is not None else None
            if item is None or looked is None or not looked.changed([path]):
                continue
            item.registry.refresh([os.path.dirname(path)])
            if item not in touched:
                touched.append(item)
        return touched

    def file_diagnostics(self, path: str) -> list[Diagnostic]:
        """What the scans found in a file that is not a SKILL.md (a plugin.json, a
        skillstudio.yaml, an agents/openai.yaml): as of the last save."""
        out = [d for d in self.notes if d.path == path]
        for item in self.loaded:
            out += file_findings(item, path)
        return list(dict.fromkeys(out))  # (projects sharing a file say it once)
