"""Projects: which profile and which roots a folder, a path or the command line means.

Resolution order for the profile: an explicit name, then `skillstudio.yaml`,
then detection from folder markers and a sample of frontmatter keys.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..model.confinement import PLUGIN_MARKS, escaping, opened_folder, refused_root, root_inside
from ..model.diagnostics import Diagnostic
from ..model.paths import is_inside, is_within
from ..model.scan import SKILL_FILE, ScanLimits
from ..model.skills import Root
from ..model.text import counted
from ..profile import Profile
from ..profiles import DEFAULT_PROFILE, PROFILE_CLASSES, PROFILE_NAMES, get_profile
from ..scanning.registry import Registry
from .audit import Reach, auditor, merged, share
from .config import CONFIG_NAME, Config, find_config_upward, load_config
from .detection import Marks, Verdict, detect_at, layout_verdict, mark_folders, verdict_at
from .repository import (
    RootSearch,
    build_roots,
    collection_reason,
    misnamed_warning,
    search_roots,
)

if TYPE_CHECKING:
    from ..scanning.state_cache import StateCache


class UsageError(Exception):
    """A bad argument: the CLI answers with exit code 2."""


@dataclass(slots=True)
class Project:
    """A profile and its ordered roots (lowest precedence first)."""

    profile: Profile
    roots: list[Root]
    base: str
    config: Config | None = None
    files: dict[str, list[str]] | None = None
    profile_reason: str = ""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    root_reasons: dict[str, str] = field(default_factory=dict)  # root path -> why its profile
    # the inventory of the folder opened, shared with the other projects read from it,
    # and this project's place in it: its scan names every SKILL.md it leaves unread
    reach: Reach | None = None
    reach_index: int = 0

    @property
    def chosen_profile(self) -> str | None:
        """The profile's name when it was chosen (--profile, the app's choice), not read
        from skillstudio.yaml nor detected; None otherwise."""
        return self.profile.name if self.profile_reason == "--profile" else None

    def registry(
        self,
        keep_text: bool = False,
        workers: int = 1,
        gists: bool = True,
        cache: StateCache | None = None,
        track_files: bool = False,
    ) -> Registry:
        """`track_files`: for a registry that lives on and refreshes (the app's):
        see Registry."""
        limits = self.config.limits if self.config else ScanLimits()
        audit = None
        if self.reach is not None:
            audit = auditor(self.reach, self.reach_index, self.profile, self.roots)
        return Registry(
            self.profile,
            self.roots,
            limits=limits,
            files=self.files,
            keep_text=keep_text,
            workers=workers,
            gists=gists,
            audit=audit,
            cache=cache,
            track_files=track_files,
        )

    def lone_registry(self, skill_md: str) -> Registry | None:
        """A registry of the one SKILL.md at `skill_md`, a file inside the project's
        folder that its roots do not read (a tab kept from another reading, a crash's
        unsaved text): scanned, so that it can be edited, checked under this profile
        and saved. None for a path outside the folder or no SKILL.md."""
        if os.path.basename(skill_md) != SKILL_FILE or not is_within(skill_md, self.base):
            return None
        root = Root(os.path.dirname(os.path.dirname(skill_md)), "not read", 0, base=self.base)
        limits = self.config.limits if self.config else ScanLimits()
        registry = Registry(self.profile, [root], limits=limits, files={root.path: [skill_md]})
        registry.scan()
        return registry if skill_md in registry.by_path else None

    @property
    def options(self) -> dict[str, Any]:
        return self.config.options if self.config else {}


def detect_profile(folder: str) -> tuple[str, str]:
    """(profile name, why) for a folder without an explicit profile."""
    config = load_config(folder)
    if config is not None and config.profile:
        return config.profile, f"{CONFIG_NAME}"
    folder = os.path.abspath(folder)
    return detect_at(folder, folder)


def _profile(name: str | None, config: Config | None = None) -> Profile:
    try:
        profile = get_profile(name or DEFAULT_PROFILE)
    except KeyError as exc:
        raise UsageError(str(exc.args[0])) from None
    profile.upload = bool(config is not None and config.options.get("upload"))
    if config is not None and config.options.get("rules"):
        profile.rules = dict(config.options["rules"])
    if config is not None:
        profile.own_options = dict(config.options)
    return profile


def choose_profile(profile_name: str | None, config: Config | None, folder: str) -> tuple[str, str]:
    """(name, why): an explicit name, then skillstudio.yaml, then detection."""
    if profile_name:
        return profile_name, "--profile"
    if config is not None and config.profile:
        return config.profile, CONFIG_NAME
    return detect_profile(folder)


def _search_notes(search: RootSearch) -> list[Diagnostic]:
    return search.diagnostics + [misnamed_warning(path) for path in search.misnamed]


def project_from_folder(folder: str, profile_name: str | None = None) -> Project:
    """A project folder: its config's roots, else the profile's conventional roots and
    every other skill root found below it (docs/profiles.md)."""
    folder = os.path.abspath(folder)
    if not os.path.isdir(folder):
        raise UsageError(f"{folder}: not a folder")
    refused = _refused_folder(folder, profile_name)
    if refused is not None:
        return refused
    config = load_config(folder)
    notes = list(config.diagnostics) if config else []
    reach = None
    if config is not None and config.roots:  # read as named; the rest of the folder named
        name, reason = choose_profile(profile_name, config, folder)
        profile = _profile(name, config)
        roots = _config_roots(config, folder, notes)
        search = search_roots(folder, config.limits)
        reach = _accounted([search], roots, notes, CONFIG_NAME)
    else:
        search = search_roots(folder, config.limits if config else None)
        notes += _search_notes(search)
        if profile_name or (config is not None and config.profile):
            name, reason = choose_profile(profile_name, config, folder)
        else:
            every = [f for root in search.roots for f in search.folders[root]]
            name, reason = detect_at(folder, folder, every, search.inventory)
        profile = _profile(name, config)
        roots, found = build_roots(profile, folder, search.roots)
        notes += found
        reach = _reach(search, [roots], notes)
    return Project(
        profile,
        roots,
        folder,
        config,
        profile_reason=reason,
        diagnostics=notes,
        root_reasons={root.path: reason for root in roots}
        | collection_reason(profile, roots, reason),
        reach=reach,
    )


def _accounted(
    searches: list[RootSearch], roots: list[Root], notes: list[Diagnostic], chosen: str = ""
) -> Reach | None:
    """The one rule for every way a path is given (a folder, `--root` folders, a skill
    folder, a project whose skillstudio.yaml names its roots): the inventories of the
    folders given, shared by the project read from them, so that its scan names every
    SKILL.md under them it leaves unread (`unreached`, core/projects/audit.py).
    `chosen`: who chose the roots when not the agent's rules."""
    inventories = [s.inventory for s in searches if s.inventory is not None]
    if not inventories:
        return None
    inventory, tops = merged(inventories)
    reach = share(inventory, [roots])
    reach.notes, reach.tops, reach.chosen = notes, tops, chosen
    return reach


def _reach(search: RootSearch, roots: list[list[Root]], notes: list[Diagnostic]) -> Reach | None:
    """The inventory of a folder shared out among the projects read from it."""
    if search.inventory is None:
        return None
    reach = share(search.inventory, roots)
    reach.notes = notes
    return reach


def _refused_folder(folder: str, profile_name: str | None) -> Project | None:
    """A project of no roots when `folder` is reached through a link out of the project
    it lies in (core/model/confinement.py): nothing in it is read, detection included."""
    note = escaping(folder)
    if note is None:
        return None
    profile = _profile(profile_name)
    return Project(profile, [], folder, profile_reason="--profile", diagnostics=[note])


def _config_roots(config: Config, folder: str, notes: list[Diagnostic]) -> list[Root]:
    """skillstudio.yaml's roots; one inside the folder only when it resolves inside it."""
    roots: list[Root] = []
    for path, label in config.roots:
        inside = is_inside(path, folder)
        if inside and os.path.lexists(path) and not root_inside(path, folder, notes):
            continue
        roots.append(Root(path, label, len(roots), base=folder if inside else ""))
    return roots


def projects_for_folder(folder: str, profile_name: str | None = None) -> list[Project]:
    """A folder given as a project, a root or a repository: every skill root below it,
    each detected on its own marks when no profile is named (a repository that mixes
    systems gives one project per profile, over the same folder)."""
    folder = os.path.abspath(folder)
    if not os.path.isdir(folder):
        raise UsageError(f"{folder}: not a folder")
    refused = _refused_folder(folder, profile_name)
    if refused is not None:
        return [refused]
    config = load_config(folder)
    if profile_name or config is not None:
        return [project_from_folder(folder, profile_name)]
    search = search_roots(folder)
    if not search.roots:
        return [project_from_folder(folder)]
    verdicts = _root_verdicts(folder, search)
    groups: dict[str, list[str]] = {}
    for root in search.roots:
        groups.setdefault(verdicts[root].name, []).append(root)
    above, _ = layout_verdict(mark_folders(folder, folder), folder)
    out: list[Project] = []
    notes: list[Diagnostic] = []
    for name, paths in groups.items():
        profile = _profile(name)
        roots, found = build_roots(profile, folder, paths)
        distinct = sorted({verdicts[p].why for p in paths})
        if len(distinct) == 1:
            reason = distinct[0]
        elif above is not None and above.name == name:
            reason = above.why  # the folder's own mark (a marketplace), not a plugin's
        else:
            reason = f"detected {name} on {counted(len(paths), 'root')}"
        root_reasons = {
            r.path: verdicts[r.path].why if r.path in verdicts else reason for r in roots
        }
        for path, why in collection_reason(profile, roots, "").items():
            root_reasons[path] = root_reasons.get(path, reason) + why
        project_notes = (_search_notes(search) if not out else []) + found
        notes += project_notes
        out.append(
            Project(
                profile,
                roots,
                folder,
                None,
                profile_reason=reason,
                diagnostics=project_notes,
                root_reasons=root_reasons,
            )
        )
    reach = _reach(search, [p.roots for p in out], notes)
    for index, project in enumerate(out):
        project.reach, project.reach_index = reach, index
    return out


def _root_verdicts(folder: str, search: RootSearch) -> dict[str, Verdict]:
    """Each root's profile from its own marks (layout marks from the root up to the
    folder, then every skill of it). A root that nothing marks takes the marks above
    the folder (a marketplace, for one of its plugins), else the profile its marked
    sibling roots agree on (a catalogue of categories is one project)."""
    seen: Marks = {}
    verdicts = {
        root: verdict_at(root, folder, search.folders[root], search.inventory, seen)
        for root in search.roots
    }
    unmarked = [root for root, verdict in verdicts.items() if not verdict.marked]
    if not unmarked:
        return verdicts
    above, _ = layout_verdict(mark_folders(folder, folder), folder, seen)
    siblings: dict[str, list[Verdict]] = {}
    for root, verdict in verdicts.items():
        if verdict.marked:
            siblings.setdefault(os.path.dirname(root), []).append(verdict)
    for root in unmarked:
        marked = siblings.get(os.path.dirname(root), [])
        if above is not None:
            verdicts[root] = above
        elif marked and len({verdict.name for verdict in marked}) == 1:
            verdicts[root] = marked[0]
    return verdicts


def project_from_roots(paths: list[str], profile_name: str | None, cwd: str) -> Project:
    """Explicit `--root` folders: later roots take precedence."""
    roots: list[Root] = []
    refused: list[Diagnostic] = []  # a root reached through a link out of its project
    for path in paths:
        absolute = os.path.abspath(os.path.join(cwd, path))
        if not os.path.isdir(absolute):
            raise UsageError(f"{path}: no such folder")
        label = os.path.basename(absolute) or absolute
        root = Root(absolute, label, len(roots), base=opened_folder(absolute, absolute))
        note = refused_root(root.path, root.base)
        if note is None:
            roots.append(root)
        else:
            refused.append(note)
    config = load_config(cwd)
    if roots:
        name, reason = choose_profile(profile_name, config, roots[0].path)
    else:
        name, reason = profile_name or DEFAULT_PROFILE, "--profile" if profile_name else ""
    searches = [search_roots(root.path) for root in roots]
    notes = [note for search in searches for note in _search_notes(search)]
    notes += refused
    return Project(
        _profile(name, config),
        roots,
        cwd,
        config,
        profile_reason=reason,
        diagnostics=notes,
        root_reasons={root.path: reason for root in roots},
        reach=_accounted(searches, roots, notes, "--root"),
    )


def _single_skill(skill_md: str, profile_name: str | None, given: str = "") -> Project:
    """One skill: its SKILL.md given, or its folder (`given`: then every other SKILL.md
    under that folder is named `unreached`)."""
    skill_md = os.path.abspath(skill_md)
    folder = os.path.dirname(skill_md)
    parent = os.path.dirname(folder)
    config = find_config_upward(parent)
    base = opened_folder(folder, parent)
    searches: list[RootSearch] = []
    if refused_root(skill_md, base) is None:
        name, reason = choose_profile(profile_name, config, folder)
        if given:
            searches.append(search_roots(folder, config.limits if config else None))
    else:  # the scan reports it and reads nothing; neither does detection
        name, reason = profile_name or DEFAULT_PROFILE, "--profile" if profile_name else ""
    label = os.path.basename(parent)
    if config is not None:
        for path, root_label in config.roots:
            if os.path.normpath(path) == parent:
                label = root_label
    root = Root(parent, label, 0, base=base)
    notes: list[Diagnostic] = []  # (the skill's own limits are its scan's to report)
    return Project(
        _profile(name, config),
        [root],
        parent,
        config,
        files={parent: [skill_md]},
        profile_reason=reason,
        diagnostics=notes,
        reach=_accounted(searches, [root], notes),
    )


def _plain_dir(entry: os.DirEntry[str], follow: bool = False) -> bool:
    try:
        return entry.is_dir(follow_symlinks=follow)
    except OSError:  # a link loop
        return False


def _has_config_children(folder: str) -> list[str]:
    try:
        with os.scandir(folder) as it:
            subs = sorted(e.path for e in it if not e.name.startswith(".") and _plain_dir(e, True))
    except OSError:
        return []
    return [s for s in subs if os.path.isfile(os.path.join(s, CONFIG_NAME))]


def projects_for_path(path: str, profile_name: str | None) -> list[Project]:
    """What a PATH argument means: a SKILL.md, a skill folder, a project, a root or a
    repository of collections."""
    if not os.path.exists(path):
        raise UsageError(f"{path}: no such file or folder")
    if os.path.isfile(path):
        return [_single_skill(path, profile_name)]
    folder = os.path.abspath(path)
    if os.path.isfile(os.path.join(folder, CONFIG_NAME)):
        return [project_from_folder(folder, profile_name)]
    if os.path.isfile(os.path.join(folder, "SKILL.md")):
        name = profile_name or (find_config_upward(folder) or Config("")).profile
        cls = PROFILE_CLASSES.get(name) if name else None
        if cls is None or cls.discovery != "self_and_children":  # else the folder is a root
            return [_single_skill(os.path.join(folder, "SKILL.md"), profile_name, folder)]
    children = _has_config_children(folder)
    if children:
        return [project_from_folder(child, profile_name) for child in children]
    return projects_for_folder(folder, profile_name)


def _is_repository(folder: str) -> bool:
    """Whether a `--root` folder holds skill roots other than itself."""
    if escaping(folder) is not None:  # read as a root: the scan says why not
        return False
    found = search_roots(folder).roots
    return bool(found) and found != [folder]


def _without_repeated_roots(projects: list[Project]) -> list[Project]:
    """Several `--root` folders of one repository: a root that an earlier project
    already reads (a profile's roots found above each folder) is read once; a project
    left with no root goes."""
    seen: set[str] = set()
    out: list[Project] = []
    for project in projects:
        project.roots = [root for root in project.roots if root.path not in seen]
        seen.update(root.path for root in project.roots)
        if project.roots:
            out.append(project)
    return out


def resolve_projects(
    paths: list[str],
    roots: list[str],
    project: str | None,
    profile_name: str | None,
    cwd: str,
) -> list[Project]:
    """The projects a command works on (docs/commands.md defaults). A PATH, a
    `--root` and a `--project` naming the same folder find the same skills."""
    if profile_name is not None and profile_name not in PROFILE_NAMES:
        raise UsageError(f"unknown profile '{profile_name}' (known: {', '.join(PROFILE_NAMES)})")
    if roots:
        folders = [os.path.abspath(os.path.join(cwd, r)) for r in roots]
        repositories = [f for f in folders if os.path.isdir(f) and _is_repository(f)]
        if not repositories:
            return [project_from_roots(roots, profile_name, cwd)]
        plain = [r for r, f in zip(roots, folders, strict=True) if f not in repositories]
        out = [project_from_roots(plain, profile_name, cwd)] if plain else []
        for folder in repositories:
            out.extend(projects_for_path(folder, profile_name))
        return _without_repeated_roots(out)
    if project:
        folder = os.path.join(cwd, project)
        if not os.path.isdir(folder):
            raise UsageError(f"{project}: not a folder")
        return projects_for_folder(folder, profile_name)
    if paths:
        found: list[Project] = []
        for path in paths:
            found.extend(projects_for_path(os.path.join(cwd, path), profile_name))
        return found
    if os.path.isfile(os.path.join(cwd, CONFIG_NAME)):
        return [project_from_folder(cwd, profile_name)]
    skills = os.path.join(cwd, "skills")
    if os.path.isdir(skills) and not _is_plugin(cwd):
        return projects_for_path(skills, profile_name)
    return projects_for_folder(cwd, profile_name)


def _is_plugin(folder: str) -> bool:
    """Whether `folder` is a plugin or a marketplace: its manifests say whose skills
    `skills/` holds and so their names (`plugin:skill`), which `skills/` read alone
    loses (a marketplace listing its own folder, `"source": "./"`)."""
    return any(os.path.isdir(os.path.join(folder, mark)) for mark in PLUGIN_MARKS)
