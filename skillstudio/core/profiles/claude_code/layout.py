"""Where claude-code finds skills: its roots, commands, plugins and marketplaces."""

from __future__ import annotations

import os
import stat
from itertools import islice
from typing import TYPE_CHECKING

from ...model.confinement import link_out, root_inside
from ...model.diagnostics import Diagnostic
from ...model.paths import is_within
from ...model.scan import SKILL_FILE
from ...model.skills import Root
from . import plugins

if TYPE_CHECKING:
    from ...model.scan import DiscoveryResult, Found, ScanLimits

COMMANDS_DIR = os.path.join(".claude", "commands")
PLUGIN_COMMANDS = "commands"  # a plugin's own commands folder
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
        return _discover_commands(root.path, limits, root.boundary)
    if plugin is None:
        result = discover(root.path, "children", ignored, limits, root.base)
        result.diagnostics.extend(_lowercase_skill_files(root.path, result))
        return result
    result = DiscoveryResult()
    # links are followed inside the folder opened (a plugin's own root: itself)
    boundary = root.base or plugin
    entries = plugins.plugin_entries(plugin, boundary)  # its marketplace entries
    manifest = plugins.plugin_manifest(plugin)
    if manifest is not None and all(e.strict for e in entries):
        result.diagnostics.extend(manifest.diagnostics)
    commands = _plugin_commands(plugin, limits, result.diagnostics, boundary, entries)
    own = _found(os.path.join(plugin, "SKILL.md"), boundary, result.diagnostics)
    if own is not None:  # a one-skill plugin
        result.files.append(own)
    folders = [os.path.join(plugin, "skills")]
    folders += plugins.components(plugin, entries, "skills")
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
    # commands first: of a command and a skill with one name, the skill wins
    result.files[:0] = [c for c in commands if c.path not in seen]
    return result


def command_folders(plugin: str, entries: list[plugins.Entry]) -> list[str]:
    """A plugin's command folders: `commands/` and those its manifests' `commands` add."""
    extra = plugins.components(plugin, entries, "commands")
    return [os.path.join(plugin, PLUGIN_COMMANDS), *(p for p in extra if os.path.isdir(p))]


def command_name(path: str, folders: list[str]) -> str:
    """A command file's name as Claude Code gives it: its path below the command folder
    holding it, without `.md`, folders joined by `:` (`git/commit.md` is `git:commit`);
    a file named on its own is its file name."""
    for folder in folders:
        if is_within(path, folder) and path != folder:
            relative = os.path.relpath(path, folder)
            return os.path.splitext(relative)[0].replace(os.sep, ":")
    return os.path.splitext(os.path.basename(path))[0]


def _plugin_commands(
    plugin: str, limits: ScanLimits, out: list[Diagnostic], base: str, entries: list[plugins.Entry]
) -> list[Found]:
    """A plugin's command files: `commands/**/*.md` and what its manifests' `commands`
    add (folders, or `.md` files), each confined to the plugin."""
    paths = [os.path.join(plugin, PLUGIN_COMMANDS)]
    paths += plugins.components(plugin, entries, "commands")
    files: list[Found] = []
    seen: set[str] = set()
    for path in paths:
        if os.path.isdir(path):
            if not root_inside(path, base, out):  # a `commands/` link out
                continue
            found = _discover_commands(path, limits, base)
            out.extend(found.diagnostics)
            items = found.files
        else:
            single = _found(path, base, out)
            items = [single] if single is not None else []
        for item in items:
            if item.path not in seen:
                seen.add(item.path)
                files.append(item)
    return files


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


def _discover_commands(folder: str, limits: ScanLimits, base: str) -> DiscoveryResult:
    """`commands/**/*.md`: each a skill named after its path (`command_name`); regular
    files inside the folder, hidden names skipped, within the scan limits (folders,
    depth), a folder reached twice (a link) read once, links followed inside the
    folder opened (`base`). A subfolder holding a SKILL.md is a skill (named after
    the folder), its other files its own, not commands."""
    from ...model.scan import DiscoveryResult

    result = DiscoveryResult()
    real = os.path.realpath(base)
    pending = [(folder, 0)]
    visited: set[str] = set()
    while pending:
        current, depth = pending.pop()
        try:
            real_current = os.path.realpath(current)
            if real_current in visited or not is_within(real_current, real):
                continue
            visited.add(real_current)
            with os.scandir(current) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        result.folders += 1
        if depth and any(e.name == SKILL_FILE for e in entries):  # a skill folder: its
            item = _found(
                os.path.join(current, SKILL_FILE), real, result.diagnostics
            )  # other files are its own
            result.files.extend([item] if item is not None else [])
            continue
        subs: list[str] = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.name.endswith(".md"):
                item = _found(entry.path, real, result.diagnostics)
                if item is not None:
                    result.files.append(item)
                    continue
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir and depth < limits.max_depth:
                subs.append(entry.path)
        if result.folders >= limits.max_folders and (pending or subs):
            result.diagnostics.append(
                Diagnostic(
                    "scan-limit",
                    "warning",
                    f"Only {limits.max_folders:,} folders of this commands folder were "
                    "read; the commands in the rest are not listed.",
                    folder,
                    1,
                    1,
                )
            )
            break
        pending.extend((sub, depth + 1) for sub in reversed(subs))
    result.files.sort(key=lambda f: f.path)
    return result


# Entries looked at for a wrongly cased skill.md: in a root, and in each of its folders.
CASE_CHECK_ENTRIES = 10_000


def _lowercase_skill_files(root: str, found: DiscoveryResult) -> list[Diagnostic]:
    """A `skill.md` (any other case) where SKILL.md is expected: read only on
    case-insensitive disks, so a warning that names the fix."""
    have = {os.path.dirname(f.path) for f in found.files}
    out: list[Diagnostic] = []
    try:  # bounded: a root of 100,000 entries, a folder of as many, costs no more
        with os.scandir(root) as it:
            entries = islice(it, CASE_CHECK_ENTRIES)
            subs = sorted(e.path for e in entries if not e.name.startswith(".") and e.is_dir())
    except OSError:
        return out
    for sub in subs:
        if sub in have:
            continue
        try:
            with os.scandir(sub) as it:
                names = [
                    e.name
                    for e in islice(it, CASE_CHECK_ENTRIES)
                    if e.name.lower() == "skill.md" and e.name != "SKILL.md"
                ]
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
