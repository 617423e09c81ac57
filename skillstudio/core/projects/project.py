"""Projects: which profile and which roots a folder, a path or the command line means.

Resolution order for the profile: an explicit name, then `skillstudio.yaml`,
then detection from folder markers and a sample of frontmatter keys.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import yaml

from ..model.diagnostics import Diagnostic
from ..model.scan import ScanLimits
from ..model.skills import Root
from ..model.text import counted
from ..profiles import DEFAULT_PROFILE, PROFILE_CLASSES, PROFILE_NAMES, Profile, get_profile
from ..reading import yaml_io
from ..reading.safefs import read_bytes
from ..scanning.registry import Registry
from .repository import (
    ROOT_SAMPLES,
    SAMPLE_FILES,
    RootSearch,
    build_roots,
    detect_at,
    misnamed_warning,
    search_roots,
)

CONFIG_NAME = "skillstudio.yaml"
CONFIG_KEYS = {
    "profile",
    "roots",
    "suites",
    "context_tokens",
    "char_budget",
    "max_skills",
    "threshold",
    "allowlist",
    "scan",
    "skill_listing_budget_fraction",
    "skill_listing_max_desc_chars",
    "upload",
}
# Whole-number options and their largest allowed value (all from 0; the app's spin
# boxes hold 32-bit numbers, the matcher slices lists with them).
NUMBER_OPTIONS = {
    "context_tokens": 100_000_000,
    "char_budget": 100_000_000,
    "max_skills": 10_000,
    "threshold": 1_000_000,
    "skill_listing_max_desc_chars": 1_000_000,
}
SCAN_OPTIONS = {"max_folders": 10_000_000, "max_depth": 1_000}  # from 1


class UsageError(Exception):
    """A bad argument: the CLI answers with exit code 2."""


@dataclass(slots=True)
class Config:
    path: str
    profile: str | None = None
    roots: list[tuple[str, str]] = field(default_factory=list)  # (absolute path, label)
    suites: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    limits: ScanLimits = field(default_factory=ScanLimits)
    diagnostics: list[Diagnostic] = field(default_factory=list)


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

    def registry(self, keep_text: bool = False, workers: int = 1, gists: bool = True) -> Registry:
        limits = self.config.limits if self.config else ScanLimits()
        return Registry(
            self.profile,
            self.roots,
            limits=limits,
            files=self.files,
            keep_text=keep_text,
            workers=workers,
            gists=gists,
        )

    @property
    def options(self) -> dict[str, Any]:
        return self.config.options if self.config else {}


def _config_error(path: str, message: str, line: int = 1, column: int = 1) -> Diagnostic:
    return Diagnostic("config-invalid", "error", message, path, line, column)


def _whole_number(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _read_config(path: str) -> tuple[Any, str, Diagnostic | None]:
    """The data and text of a config file, or the diagnostic saying why it cannot be used."""
    try:
        text = read_bytes(path, None, yaml_io.CONFIG.size).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, "", _config_error(path, f"{CONFIG_NAME} cannot be read: {exc}")
    try:
        return yaml_io.load(text, yaml_io.CONFIG), text, None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        message = f"{CONFIG_NAME} is not valid YAML: {problem}."
        return None, text, _config_error(path, message, *where)
    except yaml.YAMLError as exc:
        return None, text, _config_error(path, f"{CONFIG_NAME} is not valid YAML: {exc}.")
    except yaml_io.YamlRefused as exc:
        line = text.split("\n")[exc.line - 1] if exc.line else ""
        key = line.split(":", 1)[0].strip()
        if key in NUMBER_OPTIONS or key in SCAN_OPTIONS:
            low, high = (
                (0, NUMBER_OPTIONS[key]) if key in NUMBER_OPTIONS else (1, SCAN_OPTIONS[key])
            )
            message = f"'{key}' must be a whole number from {low} to {high:,}; this one is too long"
        else:
            message = f"{CONFIG_NAME} {exc.message}"
        message += f". Nothing in {CONFIG_NAME} is used until this is fixed."
        return None, text, _config_error(path, message, exc.line or 1, exc.column or 1)


def load_config(folder: str) -> Config | None:
    """Read `skillstudio.yaml` in `folder`; problems become diagnostics, never exceptions."""
    path = os.path.join(folder, CONFIG_NAME)
    if not os.path.isfile(path):
        return None
    config = Config(path=path)
    data, text, problem = _read_config(path)
    if problem is not None:
        config.diagnostics.append(problem)
        return config
    if data is None:
        return config
    if not isinstance(data, dict):
        config.diagnostics.append(_config_error(path, f"{CONFIG_NAME} must be a mapping."))
        return config
    for key in data:
        if key not in CONFIG_KEYS:
            config.diagnostics.append(
                _config_error(
                    path,
                    f"Unknown key '{key}' in {CONFIG_NAME} "
                    f"(known: {', '.join(sorted(CONFIG_KEYS))}).",
                )
            )
    profile = data.get("profile")
    if profile is not None:
        if profile in PROFILE_NAMES:
            config.profile = profile
        else:
            config.diagnostics.append(
                _config_error(
                    path, f"Unknown profile '{profile}' (known: {', '.join(PROFILE_NAMES)})."
                )
            )
    roots = data.get("roots") or []
    if not isinstance(roots, list):
        roots = [roots]
    for entry in roots:
        if isinstance(entry, str):
            rel, label = entry, ""
        elif isinstance(entry, dict) and isinstance(entry.get("path"), str):
            rel, label = entry["path"], str(entry.get("label") or "")
        else:
            config.diagnostics.append(
                _config_error(path, f"A root must be a path or {{path, label}}, not {entry!r}.")
            )
            continue
        absolute = os.path.normpath(os.path.join(folder, os.path.expanduser(rel)))
        config.roots.append((absolute, label or rel.rstrip("/")))
    suites = data.get("suites") or []
    if isinstance(suites, list):
        config.suites = [os.path.normpath(os.path.join(folder, str(s))) for s in suites]
    for key, high in NUMBER_OPTIONS.items():
        value = data.get(key)
        if value is None:
            continue
        if _whole_number(value, 0, high):
            config.options[key] = value
        else:
            config.diagnostics.append(
                _config_error(
                    path,
                    f"'{key}' must be a whole number from 0 to {high:,}, not {_short(value)}.",
                    *_key_line(text, key),
                )
            )
    fraction = data.get("skill_listing_budget_fraction")
    if fraction is not None:
        if (
            isinstance(fraction, int | float)
            and not isinstance(fraction, bool)
            and 0 < fraction <= 1
        ):
            config.options["skill_listing_budget_fraction"] = float(fraction)
        else:
            config.diagnostics.append(
                _config_error(
                    path,
                    "'skill_listing_budget_fraction' must be a number above 0 and at most 1 "
                    f"(0.01 is 1 %), not {_short(fraction)}.",
                    *_key_line(text, "skill_listing_budget_fraction"),
                )
            )
    upload = data.get("upload")
    if upload is not None:
        if isinstance(upload, bool):
            config.options["upload"] = upload
        else:
            config.diagnostics.append(
                _config_error(
                    path,
                    f"'upload' must be true or false, not {_short(upload)}.",
                    *_key_line(text, "upload"),
                )
            )
    allow = data.get("allowlist")
    if allow is not None:
        if isinstance(allow, list) and all(isinstance(a, str) for a in allow):
            config.options["allowlist"] = allow
        else:
            config.diagnostics.append(
                _config_error(path, "'allowlist' must be a list of skill names, or ['*'].")
            )
    scan = data.get("scan")
    if isinstance(scan, dict):
        for key, high in SCAN_OPTIONS.items():
            value = scan.get(key)
            if _whole_number(value, 1, high):
                setattr(config.limits, key, value)
            elif value is not None:
                config.diagnostics.append(
                    _config_error(
                        path,
                        f"'scan.{key}' must be a whole number from 1 to {high:,}, "
                        f"not {_short(value)}.",
                        *_key_line(text, key),
                    )
                )
    return config


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, int) or value.bit_length() < 64 else "a huge number"
    return text if len(text) <= 60 else text[:57] + "..."


def _key_line(text: str, key: str) -> tuple[int, int]:
    """Line and column of `key:` in the config text (1, 1 when not found)."""
    for number, line in enumerate(text.split("\n"), start=1):
        column = line.find(key + ":")
        if column >= 0 and not line[:column].strip():
            return number, column + 1
    return 1, 1


def find_config_upward(start: str, levels: int = 6) -> Config | None:
    folder = os.path.abspath(start)
    for _ in range(levels):
        config = load_config(folder)
        if config is not None:
            return config
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    return None


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
    every other skill root found below it (PRODUCT.md section 3.9)."""
    folder = os.path.abspath(folder)
    if not os.path.isdir(folder):
        raise UsageError(f"{folder}: not a folder")
    config = load_config(folder)
    notes = list(config.diagnostics) if config else []
    if config is not None and config.roots:
        name, reason = choose_profile(profile_name, config, folder)
        profile = _profile(name, config)
        roots = [Root(path, label, index) for index, (path, label) in enumerate(config.roots)]
    else:
        search = search_roots(folder, config.limits if config else None)
        notes += _search_notes(search)
        if profile_name or (config is not None and config.profile):
            name, reason = choose_profile(profile_name, config, folder)
        else:
            samples = [f for root in search.roots for f in search.samples[root]]
            name, reason = detect_at(folder, folder, samples[:SAMPLE_FILES])
        profile = _profile(name, config)
        roots, found = build_roots(profile, folder, search.roots)
        notes += found
    return Project(
        profile,
        roots,
        folder,
        config,
        profile_reason=reason,
        diagnostics=notes,
        root_reasons={root.path: reason for root in roots},
    )


def projects_for_folder(folder: str, profile_name: str | None = None) -> list[Project]:
    """A folder given as a project, a root or a repository: every skill root below it,
    each detected on its own marks when no profile is named (a repository that mixes
    systems gives one project per profile, over the same folder)."""
    folder = os.path.abspath(folder)
    if not os.path.isdir(folder):
        raise UsageError(f"{folder}: not a folder")
    config = load_config(folder)
    if profile_name or config is not None:
        return [project_from_folder(folder, profile_name)]
    search = search_roots(folder)
    if not search.roots:
        return [project_from_folder(folder)]
    groups: dict[str, list[str]] = {}
    reasons: dict[str, str] = {}
    for root in search.roots:
        name, why = detect_at(root, folder, search.samples[root][:ROOT_SAMPLES])
        groups.setdefault(name, []).append(root)
        reasons[root] = why
    out: list[Project] = []
    for name, paths in groups.items():
        profile = _profile(name)
        roots, found = build_roots(profile, folder, paths)
        root_reasons = {r.path: reasons.get(r.path, reasons[paths[0]]) for r in roots}
        distinct = sorted(set(root_reasons.values()))
        reason = (
            distinct[0]
            if len(distinct) == 1
            else f"detected {name} on {counted(len(paths), 'root')}"
        )
        out.append(
            Project(
                profile,
                roots,
                folder,
                None,
                profile_reason=reason,
                diagnostics=(_search_notes(search) if not out else []) + found,
                root_reasons=root_reasons,
            )
        )
    return out


def project_from_roots(paths: list[str], profile_name: str | None, cwd: str) -> Project:
    """Explicit `--root` folders: later roots take precedence."""
    roots: list[Root] = []
    for index, path in enumerate(paths):
        absolute = os.path.abspath(os.path.join(cwd, path))
        if not os.path.isdir(absolute):
            raise UsageError(f"{path}: no such folder")
        roots.append(Root(absolute, os.path.basename(absolute) or absolute, index))
    config = load_config(cwd)
    name, reason = choose_profile(profile_name, config, roots[0].path)
    notes = [note for root in roots for note in _search_notes(search_roots(root.path))]
    return Project(
        _profile(name, config),
        roots,
        cwd,
        config,
        profile_reason=reason,
        diagnostics=notes,
        root_reasons={root.path: reason for root in roots},
    )


def _single_skill(skill_md: str, profile_name: str | None) -> Project:
    skill_md = os.path.abspath(skill_md)
    folder = os.path.dirname(skill_md)
    parent = os.path.dirname(folder)
    config = find_config_upward(parent)
    name, reason = choose_profile(profile_name, config, folder)
    label = os.path.basename(parent)
    if config is not None:
        for path, root_label in config.roots:
            if os.path.normpath(path) == parent:
                label = root_label
    root = Root(parent, label, 0)
    return Project(
        _profile(name, config),
        [root],
        parent,
        config,
        files={parent: [skill_md]},
        profile_reason=reason,
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
            return [_single_skill(os.path.join(folder, "SKILL.md"), profile_name)]
    children = _has_config_children(folder)
    if children:
        return [project_from_folder(child, profile_name) for child in children]
    return projects_for_folder(folder, profile_name)


def _is_repository(folder: str) -> bool:
    """Whether a `--root` folder holds skill roots other than itself."""
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
    """The projects a command works on (PRODUCT.md section 8 defaults). A PATH, a
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
    if os.path.isdir(skills):
        return projects_for_path(skills, profile_name)
    return projects_for_folder(cwd, profile_name)
