"""Projects: which profile and which roots a folder, a path or the command line means.

Resolution order for the profile: an explicit name, then `skillstudio.yaml`,
then detection from folder markers and a sample of frontmatter keys.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import yaml

from . import yaml_io
from .diagnostics import Diagnostic
from .discovery import ScanLimits
from .model import Root
from .profiles import (
    DEFAULT_PROFILE,
    FIELD_DETECTION,
    PROFILE_CLASSES,
    PROFILE_NAMES,
    Profile,
    get_profile,
)
from .registry import Registry
from .safefs import read_bytes, walk_plain

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
SAMPLE_FILES = 40
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

    def registry(self, keep_text: bool = False, workers: int = 1) -> Registry:
        limits = self.config.limits if self.config else ScanLimits()
        return Registry(
            self.profile,
            self.roots,
            limits=limits,
            files=self.files,
            keep_text=keep_text,
            workers=workers,
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


def _sample_keys(folder: str) -> list[dict[str, Any]]:
    """Frontmatter mappings of up to SAMPLE_FILES skills under `folder` (depth ≤ 4)."""
    out: list[dict[str, Any]] = []
    for _, _, files in walk_plain(folder, 4, 2000, skip=frozenset({"node_modules", "__pycache__"})):
        for entry in files:
            if entry.name == "SKILL.md" and (mapping := _peek(entry.path, folder)) is not None:
                out.append(mapping)
        if len(out) >= SAMPLE_FILES:
            break
    return out


def _plain_dir(entry: os.DirEntry[str], follow: bool = False) -> bool:
    try:
        return entry.is_dir(follow_symlinks=follow)
    except OSError:  # a link loop
        return False


def _peek(path: str, base: str) -> dict[str, Any] | None:
    """The frontmatter mapping at the head of a SKILL.md, if it is a regular file
    inside `base` (a link loop, a FIFO or a device is not opened)."""
    try:
        head = read_bytes(path, base, 64 * 1024, truncate=True).decode("utf-8", "replace")
    except (OSError, UnicodeDecodeError):
        return None
    lines = head.lstrip("\ufeff").split("\n")
    if not lines or lines[0].rstrip() != "---":
        return None
    for index in range(1, len(lines)):
        if lines[index].rstrip() == "---":
            try:
                data = yaml_io.load("\n".join(lines[1:index]), yaml_io.FRONTMATTER)
            except (yaml.YAMLError, yaml_io.YamlRefused):
                return None
            return data if isinstance(data, dict) else None
    return None


def detect_profile(folder: str) -> tuple[str, str]:
    """(profile name, why) for a folder without an explicit profile."""
    config = load_config(folder)
    if config is not None and config.profile:
        return config.profile, f"{CONFIG_NAME}"
    for name in PROFILE_NAMES:  # conventional folders, in the registry's order
        mark = get_profile(name).detect_layout(folder)
        if mark:
            return name, f"detected: {mark}"
    if os.path.isfile(os.path.join(folder, "SKILL.md")):
        samples = [m for m in [_peek(os.path.join(folder, "SKILL.md"), folder)] if m is not None]
    else:
        samples = _sample_keys(folder)
    for name in FIELD_DETECTION:
        profile = get_profile(name)
        for mapping in samples:
            why = profile.detect_fields(mapping)
            if why:
                return name, f"detected: {why}"
    return DEFAULT_PROFILE, "default: no other profile's marks found"


def _profile(name: str | None, config: Config | None = None) -> Profile:
    try:
        profile = get_profile(name or DEFAULT_PROFILE)
    except KeyError as exc:
        raise UsageError(str(exc.args[0])) from None
    profile.upload = bool(config is not None and config.options.get("upload"))
    return profile


def find_skill_roots(folder: str, max_depth: int = 6, max_dirs: int = 5000) -> list[str]:
    """Folders below `folder` whose children hold a SKILL.md (a repository of collections).

    Hidden folders are searched too (collections keep skills in `.curated/`);
    `.git` and `node_modules` are not. The search is bounded in depth and size.
    """
    roots: list[str] = []
    queue: list[tuple[str, int]] = [(folder, 0)]
    seen = 0
    while queue and seen < max_dirs:
        current, depth = queue.pop(0)
        seen += 1
        try:
            with os.scandir(current) as it:
                subs = sorted(
                    (
                        e.path
                        for e in it
                        if e.is_dir(follow_symlinks=False)
                        and e.name not in (".git", "node_modules", "__pycache__")
                    ),
                )
        except OSError:
            continue
        if any(os.path.isfile(os.path.join(sub, "SKILL.md")) for sub in subs):
            roots.append(current)
            continue
        if depth < max_depth:
            queue.extend((sub, depth + 1) for sub in subs)
    return roots


def choose_profile(profile_name: str | None, config: Config | None, folder: str) -> tuple[str, str]:
    """(name, why): an explicit name, then skillstudio.yaml, then detection."""
    if profile_name:
        return profile_name, "--profile"
    if config is not None and config.profile:
        return config.profile, CONFIG_NAME
    return detect_profile(folder)


def project_from_folder(folder: str, profile_name: str | None = None) -> Project:
    """A project folder: its config's roots, or the profile's conventional roots."""
    folder = os.path.abspath(folder)
    if not os.path.isdir(folder):
        raise UsageError(f"{folder}: not a folder")
    config = load_config(folder)
    name, reason = choose_profile(profile_name, config, folder)
    profile = _profile(name, config)
    pairs: list[tuple[str, str]]
    found: list[Diagnostic] = []
    if config is not None and config.roots:
        pairs = config.roots
    else:
        pairs, found = profile.project_roots(folder)
        if not pairs:
            nested = find_skill_roots(folder)
            if nested and nested != [folder]:
                pairs = [(path, os.path.relpath(path, folder)) for path in nested]
            else:
                pairs = [(folder, "root")]
    roots = [Root(path, label, index) for index, (path, label) in enumerate(pairs)]
    return Project(
        profile,
        roots,
        folder,
        config,
        profile_reason=reason,
        diagnostics=(list(config.diagnostics) if config else []) + found,
    )


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
    return Project(_profile(name, config), roots, cwd, config, profile_reason=reason)


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


def _has_config_children(folder: str) -> list[str]:
    try:
        with os.scandir(folder) as it:
            subs = sorted(e.path for e in it if not e.name.startswith(".") and _plain_dir(e, True))
    except OSError:
        return []
    return [s for s in subs if os.path.isfile(os.path.join(s, CONFIG_NAME))]


def projects_for_path(path: str, profile_name: str | None) -> list[Project]:
    """What a PATH argument means: a SKILL.md, a skill folder, a project, or a root."""
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
    return [project_from_folder(folder, profile_name)]


def resolve_projects(
    paths: list[str],
    roots: list[str],
    project: str | None,
    profile_name: str | None,
    cwd: str,
) -> list[Project]:
    """The projects a command works on (PRODUCT.md section 8 defaults)."""
    if profile_name is not None and profile_name not in PROFILE_NAMES:
        raise UsageError(f"unknown profile '{profile_name}' (known: {', '.join(PROFILE_NAMES)})")
    if roots:
        return [project_from_roots(roots, profile_name, cwd)]
    if project:
        return [project_from_folder(os.path.join(cwd, project), profile_name)]
    if paths:
        out: list[Project] = []
        for path in paths:
            out.extend(projects_for_path(os.path.join(cwd, path), profile_name))
        return out
    if os.path.isfile(os.path.join(cwd, CONFIG_NAME)):
        return [project_from_folder(cwd, profile_name)]
    skills = os.path.join(cwd, "skills")
    if os.path.isdir(skills):
        return projects_for_path(skills, profile_name)
    return [project_from_folder(cwd, profile_name)]
