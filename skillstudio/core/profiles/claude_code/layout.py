"""Where claude-code finds skills: its roots, commands, plugins and marketplaces."""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

from ...model.confinement import link_out, root_inside
from ...model.diagnostics import Diagnostic
from ...model.paths import is_within
from ...model.skills import Root
from . import plugins

if TYPE_CHECKING:
    from ...model.scan import DiscoveryResult, Found, ScanLimits

COMMANDS_DIR = os.path.join(".claude", "commands")
PROJECT_SKILLS = os.path.join(".claude", "skills")
ENTERPRISE_SKILLS = "/etc/claude-code/.claude/skills"
MAX_PARENTS = 20


def claude_home() -> str:
    """Claude Code's user folder: $CLAUDE_CONFIG_DIR (its own variable), else ~/.claude."""
    return os.environ.get("CLAUDE_CONFIG_DIR") or os.path.expanduser("~/.claude")


def enterprise_skills() -> str:
    """The managed (enterprise) skills folder; SKILLSTUDIO_CLAUDE_MANAGED_SKILLS moves it."""
    return os.environ.get("SKILLSTUDIO_CLAUDE_MANAGED_SKILLS") or ENTERPRISE_SKILLS


def project_roots(folder: str) -> tuple[list[tuple[str, str]], list[Diagnostic]]:
    """Commands, project skills (this folder and its parents up to the repository
    root), personal, enterprise, then every plugin: this folder's own, the ones its
    marketplace lists, and plugin folders right inside it."""
    pairs: list[tuple[str, str]] = []
    found: list[Diagnostic] = []

    def add(path: str, label: str, base: str | None = folder) -> None:
        """A root that exists; one of the project's (`base`) only when it resolves
        inside it (core/model/confinement.py); the machine's own folders (`base` None)
        as they are."""
        path = os.path.normpath(path)
        if any(p == path for p, _ in pairs):
            return
        if root_inside(path, base, found) if base is not None else os.path.isdir(path):
            pairs.append((path, label))

    add(os.path.join(folder, COMMANDS_DIR), "commands")
    for parent in reversed(_parents_in_repository(folder)):
        label = f"project ({os.path.basename(parent)})"
        add(os.path.join(parent, PROJECT_SKILLS), label, parent)
    add(os.path.join(folder, PROJECT_SKILLS), "project")
    add(os.path.join(claude_home(), "skills"), "personal", None)
    add(enterprise_skills(), "enterprise", None)
    market = plugins.read_marketplace(folder)
    if market is not None:
        found.extend(market.diagnostics)
        for path, listed in market.plugins:
            add(
                path,
                "plugin:" + (plugins.plugin_name(path) if plugins.is_plugin(path) else listed),
            )
    if plugins.is_plugin(folder):
        add(folder, "plugin:" + plugins.plugin_name(folder))
    for child in _child_plugins(folder):
        add(child, "plugin:" + plugins.plugin_name(child))
    return pairs, found


def discover_root(
    root: Root, plugin: str | None, ignored: frozenset[str], limits: ScanLimits
) -> DiscoveryResult:
    """The skill files of one root: a commands folder, a plugin (`plugin` is its folder)
    or a skills folder."""
    from ...model.scan import DiscoveryResult
    from ...reading.discovery import discover

    if os.path.normpath(root.path).endswith(os.sep + COMMANDS_DIR):
        return _discover_commands(root.path, root.boundary)
    if plugin is None:
        result = discover(root.path, "children", ignored, limits, root.base)
        result.diagnostics.extend(_lowercase_skill_files(root.path, result))
        return result
    result = DiscoveryResult()
    manifest = plugins.plugin_manifest(plugin)
    if manifest is not None:
        result.diagnostics.extend(manifest.diagnostics)
    # links are followed inside the folder opened (a plugin's own root: itself)
    boundary = root.base or plugin
    own = _found(os.path.join(plugin, "SKILL.md"), boundary, result.diagnostics)
    if own is not None:  # a one-skill plugin
        result.files.append(own)
    folders = [os.path.join(plugin, "skills")]
    folders += manifest.skill_dirs if manifest is not None else []
    seen = {f.path for f in result.files}
    for folder in folders:
        if not root_inside(folder, boundary, result.diagnostics):  # a `skills/` link out
            continue
        single = _found(os.path.join(folder, "SKILL.md"), boundary, result.diagnostics)
        if single is not None:  # a `skills` path naming one skill folder
            files = [single]
        else:
            part = discover(folder, "children", ignored, limits, boundary)
            files = part.files
            result.diagnostics.extend(part.diagnostics)
            result.diagnostics.extend(_lowercase_skill_files(folder, part))
        for item in files:
            if item.path not in seen:
                seen.add(item.path)
                result.files.append(item)
    result.files.sort(key=lambda f: f.path)
    return result


def _parents_in_repository(folder: str) -> list[str]:
    """The folders above `folder` up to its repository root (the nearest `.git`), nearest
    first; none when `folder` is not inside a repository."""
    out: list[str] = []
    current = os.path.abspath(folder)
    if os.path.exists(os.path.join(current, ".git")):
        return out
    for _ in range(MAX_PARENTS):
        parent = os.path.dirname(current)
        if parent == current:
            return []
        out.append(parent)
        if os.path.exists(os.path.join(parent, ".git")):
            return out
        current = parent
    return []


def _child_plugins(folder: str) -> list[str]:
    """Plugin folders right inside `folder` (a folder of plugins), sorted."""
    try:
        with os.scandir(folder) as it:
            subs = sorted(
                e.path for e in it if not e.name.startswith(".") and e.is_dir(follow_symlinks=False)
            )
    except OSError:
        return []
    return [s for s in subs[: plugins.MAX_PLUGINS] if plugins.is_plugin(s)]


def _found(path: str, base: str, notes: list[Diagnostic] | None = None) -> Found | None:
    """A skill file to read: a regular file inside `base` (links followed inside it; a
    link out of it is a note in `notes`)."""
    from ...model.scan import Found

    try:
        real = os.path.realpath(path)
        if not is_within(real, os.path.realpath(base)):
            if notes is not None and os.path.lexists(path):
                notes.append(link_out(path, real, base))
            return None
        st = os.stat(path)
    except OSError:
        return None
    linked = real != os.path.abspath(path)
    return Found.of(path, st, linked) if stat.S_ISREG(st.st_mode) else None


def _discover_commands(folder: str, base: str) -> DiscoveryResult:
    """`.claude/commands/*.md`: each a skill named after the file (regular files only,
    links followed inside the folder opened, `base`)."""
    from ...model.scan import DiscoveryResult

    result = DiscoveryResult()
    real = os.path.realpath(base)
    try:
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        return result
    for entry in entries:
        if entry.name.startswith(".") or not entry.name.endswith(".md"):
            continue
        item = _found(entry.path, real, result.diagnostics)
        if item is not None:
            result.files.append(item)
    return result


def _lowercase_skill_files(root: str, found: DiscoveryResult) -> list[Diagnostic]:
    """A `skill.md` (any other case) where SKILL.md is expected: read only on
    case-insensitive disks, so a warning that names the fix."""
    have = {os.path.dirname(f.path) for f in found.files}
    out: list[Diagnostic] = []
    try:
        with os.scandir(root) as it:
            subs = sorted(e.path for e in it if not e.name.startswith(".") and e.is_dir())
    except OSError:
        return out
    for sub in subs:
        if sub in have:
            continue
        try:
            names = [n for n in os.listdir(sub) if n.lower() == "skill.md" and n != "SKILL.md"]
        except OSError:
            continue
        for name in names[:1]:
            out.append(
                Diagnostic(
                    "skipped",
                    "warning",
                    f"'{name}' is not read by Claude Code on case-sensitive disks (Linux, "
                    f"most CI): rename it to SKILL.md.",
                    os.path.join(sub, name),
                    1,
                    1,
                )
            )
    return out
