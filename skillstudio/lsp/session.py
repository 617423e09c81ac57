"""The skills of an editor's workspace, read as `lint` reads them and kept current per
document.

When the editor connects, each workspace folder is read once as `skillstudio lint` run
in that folder reads it (core/projects/project.py `resolve_projects`: skillstudio.yaml,
else ./skills, else the folder, each root under its detected profile), every skill
scanned, so that the findings between skills (duplicate names and who wins, shared
triggers, look-alike names) are known. A keystroke re-validates only the document typed
in, from its unsaved text (`Registry.reparse`, as the app does for an unsaved tab); the
other skills stay as the registry holds them, brought up to date when a file is saved
or changes on disk (`Registry.refresh` with the changed paths as its hint). Where the
model chooses, the skills a description competes with come from an overlap index of
the registry (core/ranking/rivals.py), kept current per edit.
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
from ..core.projects.project import Project, UsageError, detect_profile, resolve_projects
from ..core.projects.suite_notes import is_suite, suite_diagnostics
from ..core.ranking.likely_index import LikelyIndex
from ..core.ranking.overlap import LINT_THRESHOLD, OVERLAP_MODEL
from ..core.ranking.rivals import competing
from ..core.reading.frontmatter import MAX_FILE_BYTES, human_size, parse_text
from ..core.scanning.loading import build_skill
from ..core.scanning.registry import Registry
from ..core.scanning.state_cache import StateCache

RIVALS_SHOWN = 3  # skills named in a "competes with" note


@dataclass(slots=True)
class Loaded:
    """One project of the workspace, its registry and (built on first use, where the
    model chooses) the overlap index of its active skills."""

    project: Project
    registry: Registry
    index: LikelyIndex | None = None
    index_failed: bool = False


@dataclass(slots=True)
class Checked:
    """One document's diagnostics and the skill they were found on (None for a file that
    is not a skill)."""

    diagnostics: list[Diagnostic]
    skill: Skill | None = None
    profile: Profile | None = None
    loaded: Loaded | None = None
    version: int = 0  # the registry's version before the check (what else it changed)


@dataclass(slots=True)
class Session:
    """The workspace's projects (`profile_name`: a profile forced for every folder)."""

    profile_name: str | None = None
    # the cache of what was read (core/scanning/state_cache.py), shared with `lint`: a
    # folder read before starts from it (False: read every file, write no cache)
    use_cache: bool = True
    folders: list[str] = field(default_factory=list)
    loaded: list[Loaded] = field(default_factory=list)
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
                registry = project.registry(gists=False, cache=cache)
                registry.scan()
                self.loaded.append(Loaded(project, registry))

    def close_folders(self, folders: Iterable[str]) -> None:
        gone = {os.path.abspath(folder) for folder in folders}
        self.folders = [f for f in self.folders if f not in gone]
        self.loaded = [
            item
            for item in self.loaded
            if not any(is_within(item.project.base, folder) for folder in gone)
        ]

    def owner(self, path: str) -> Loaded | None:
        """The project whose registry holds the SKILL.md at `path` (the last one read
        wins, as a later root does)."""
        for item in reversed(self.loaded):
            if path in item.registry.by_path:
                return item
        return None

    def project_of(self, path: str) -> Loaded | None:
        """The project whose folder `path` lies in (the innermost), holding it or not."""
        best: Loaded | None = None
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
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > MAX_FILE_BYTES:
            return Checked([too_large(path, size)], profile=self.profile_for(path))
        if item is None and self._known_after_refresh(path):
            item = self.owner(path)
        if item is None:
            return self._standalone(path, text)
        registry = item.registry
        version = registry.version
        skill = registry.reparse(path, text)
        if skill is None:  # a refresh replaced it meanwhile: the registry's own
            skill = registry.by_path.get(path)
        self._follow_one(item, path)
        return Checked(self.diagnostics_of(path, item), skill, registry.profile, item, version)

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
        self._follow(item)
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
            lambda: parse_text(Document(path=path), text),
            validate_skill,
            False,
        )
        own = [d for d in skill.all_diagnostics if d.path == path]
        return Checked(own, skill, profile)

    def diagnostics_of(self, path: str, item: Loaded) -> list[Diagnostic]:
        """What the registry knows about the file at `path` now: the skill's own and
        cross-skill findings, the notes of its scan and project on that file, and the
        skills its description competes with."""
        out = [d for d in item.registry.root_diagnostics if d.path == path]
        out += [d for d in item.project.diagnostics if d.path == path]
        skill = item.registry.by_path.get(path)
        if skill is not None:
            out += [d for d in skill.all_diagnostics if d.path == path]
            out += self.rivals_note(item, skill)
        return out

    def rivals(self, item: Loaded, path: str, threshold: float) -> list[tuple[Skill, float]]:
        index = self._index(item)
        if index is None:
            return []
        try:
            return competing(index, path, RIVALS_SHOWN, threshold)
        except Exception:  # a nicety: a core bug here never hides the diagnostics
            return []

    def rivals_note(self, item: Loaded, skill: Skill) -> list[Diagnostic]:
        """`description-overlap` (info) on the description: the skills it competes with
        at the score from which `lint` reports a pair."""
        found = self.rivals(item, skill.path, LINT_THRESHOLD)
        if not found:
            return []
        names = ", ".join(f"{other.name} ({score:.2f})" for other, score in found)
        line, column = description_at(skill)
        return [
            Diagnostic(
                "description-overlap",
                "info",
                f"the description competes with {names}: a model may pick either for the "
                "same request; make each say what sets it apart (`skillstudio overlap` "
                "lists every pair).",
                skill.path,
                line,
                column,
                "description",
                skill.name,
            )
        ]

    def _index(self, item: Loaded) -> LikelyIndex | None:
        if not item.registry.profile.model_chooses or item.index_failed:
            return None
        if item.index is None:
            try:
                item.index = LikelyIndex(item.registry, OVERLAP_MODEL)
            except Exception:
                item.index_failed = True
                return None
        return item.index

    def _follow_one(self, item: Loaded, path: str) -> None:
        """The overlap index after a keystroke: only the skill typed in is put in again
        (or taken out when it is no longer active), as the app's form does; a sync
        would compare all 10,000 when the edit changed who wins (a name typed)."""
        index = item.index
        if index is None:
            return
        registry = item.registry
        skill = registry.by_path.get(path)
        try:
            if skill is not None and registry.active.get(skill.key or "") is skill:
                doc = index.docs.get(path)
                if doc is None or doc.skill is not skill:
                    index.add(skill)
            else:
                index.remove(path)
        except Exception:
            item.index, item.index_failed = None, True

    def _follow(self, item: Loaded) -> None:
        """Bring the overlap index up to date with the skills changed (only those)."""
        if item.index is not None:
            try:
                item.index.sync()
            except Exception:
                item.index, item.index_failed = None, True

    def closed(self, path: str) -> Loaded | None:
        """A document closed (saved or not): its skill is read again from the file, so
        that unsaved text left behind counts no more."""
        item = self.owner(path)
        if item is not None:
            item.registry.reparse(path)
            self._follow_one(item, path)
        return item

    # -- files saved or changed on disk ------------------------------------------------------
    def changed(self, paths: Iterable[str]) -> list[Loaded]:
        """Files saved, created or deleted: the projects holding them read them again
        (only those files when they are known skills). The projects refreshed are
        returned: their open documents are checked again (a refresh replaces a skill
        re-read from unsaved text with the file's)."""
        hint = [os.path.abspath(path) for path in paths]
        touched: list[Loaded] = []
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
            self._follow(item)
            touched.append(item)
        return touched

    def file_diagnostics(self, path: str) -> list[Diagnostic]:
        """What the scans found in a file that is not a SKILL.md (a plugin.json, a
        skillstudio.yaml, an agents/openai.yaml): as of the last save."""
        out = [d for d in self.notes if d.path == path]
        for item in self.loaded:
            out += [d for d in item.project.diagnostics if d.path == path]
            out += [d for d in item.registry.root_diagnostics if d.path == path]
            for skill in skills_around(item.registry, path):
                out += [d for d in skill.all_diagnostics if d.path == path]
        return list(dict.fromkeys(out))  # (projects sharing a file say it once)


def skills_around(registry: Registry, path: str) -> list[Skill]:
    """The skills whose folders hold `path` (looked up folder by folder, upwards: a
    keystroke in a skill's reference file walks no list of 10,000 skills)."""
    out: list[Skill] = []
    folder = os.path.dirname(path)
    while True:
        skill = registry.by_path.get(os.path.join(folder, SKILL_FILE))
        if skill is not None:
            out.append(skill)
        up = os.path.dirname(folder)
        if up == folder:
            return out
        folder = up


def too_large(path: str, size: int) -> Diagnostic:
    return Diagnostic(
        "file-too-large",
        "error",
        f"The text is {human_size(size)}; files over {human_size(MAX_FILE_BYTES)} are not "
        "parsed. Move long material into files beside SKILL.md and link to them.",
        path,
        1,
        1,
    )


def description_at(skill: Skill) -> tuple[int, int]:
    """Where the description's value starts (1, 1 when unknown)."""
    try:
        found = skill.doc.positions().get("description")
    except Exception:  # positions are a nicety: a diagnostic without them still says what
        found = None
    return (found.value_line, found.value_column) if found else (1, 1)
