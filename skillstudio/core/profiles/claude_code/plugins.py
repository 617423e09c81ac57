"""Claude Code plugins and marketplaces: the JSON manifests under `.claude-plugin/`.

Read through safefs (confined, regular files only, bounded) and checked with
every problem placed at its line and column. Nothing is fetched: a remote
plugin source is only reported.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

from ...checking.lookalike import text_problem
from ...model.diagnostics import Diagnostic, Severity
from ...model.paths import is_inside, is_within
from ...reading import yaml_io
from ...reading.looked import looked_at
from ...reading.safefs import read_bytes
from .. import manifest_text

MANIFEST_DIR = ".claude-plugin"
PLUGIN_JSON = os.path.join(MANIFEST_DIR, "plugin.json")
MARKETPLACE_JSON = os.path.join(MANIFEST_DIR, "marketplace.json")
MAX_MANIFEST = 256 * 1024
MAX_PLUGINS = 1000
MAX_MARKET_LEVELS = 8  # folders looked at above a plugin for the marketplace listing it
KEBAB = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

_TEXT = (str,)
_PATHS = (str, list)
_CONFIG = (str, list, dict)
# plugin.json keys Claude Code knows (plugins reference, 2026-08) and the JSON types each takes
PLUGIN_KEYS: dict[str, tuple[type, ...]] = {
    "name": _TEXT,
    "version": _TEXT,
    "description": _TEXT,
    "author": (dict,),
    "homepage": _TEXT,
    "repository": _TEXT,
    "license": _TEXT,
    "keywords": (list,),
    "commands": _PATHS,
    "agents": _PATHS,
    "skills": _PATHS,
    "hooks": _CONFIG,
    "mcpServers": _CONFIG,
    "outputStyles": _PATHS,
    "lspServers": _CONFIG,
    "userConfig": (dict,),
    "channels": (list,),
    "dependencies": (list, dict),
}
_JSON_TYPE: dict[type, str] = {str: "text", list: "a list", dict: "an object"}


@dataclass(slots=True)
class Manifest:
    """One JSON manifest as read: its data (None when unusable) and what is wrong."""

    path: str
    data: dict[str, Any] | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    positions: dict[tuple[Any, ...], tuple[int, int]] = field(default_factory=dict)
    checked: bool = False  # a plugin.json's own rules were applied (once per read)
    skill_dirs: list[str] = field(default_factory=list)  # what its `skills` paths add
    command_paths: list[str] = field(default_factory=list)  # its `commands` (files, folders)
    rejected: set[tuple[Any, ...]] = field(default_factory=set)  # strings left out (reported)

    def left_out(self, *keys: Any) -> bool:
        """Whether the entry at `keys` (or something in it) held an unusable string
        (manifest_text.py): it was reported once, and is not used."""
        return any(r[: len(keys)] == keys or keys[: len(r)] == r for r in self.rejected)

    def reject(self, keys: tuple[Any, ...], message: str) -> None:
        """One `field-invalid` for a string that cannot be used (its field named by the
        nearest key that is itself usable text)."""
        self.rejected.add(keys)
        line, column = self.at(*keys)
        usable = [k for k in keys if isinstance(k, str) and text_problem(k, True) is None]
        self.diagnostics.append(
            Diagnostic(
                "field-invalid",
                "error",
                message + "; it was left out.",
                self.path,
                line,
                column,
                usable[0] if usable else None,
                None,
            )
        )

    def at(self, *keys: Any) -> tuple[int, int]:
        """Line and column of a key (or list item) by its path; the nearest known parent."""
        while keys:
            if keys in self.positions:
                return self.positions[keys]
            keys = keys[:-1]
        return 1, 1

    def emit(self, code: str, severity: Severity, message: str, *keys: Any) -> None:
        line, column = self.at(*keys)
        key = next((k for k in keys if isinstance(k, str)), None)
        self.diagnostics.append(
            Diagnostic(code, severity, message, self.path, line, column, key, None)
        )


_CACHE: dict[tuple[str, int, int], Manifest] = {}


def read_manifest(path: str, base: str) -> Manifest | None:
    """The manifest at `path` (confined to `base`), or None when there is none.

    Cached by modification time and size: discovery and naming both ask for it.
    """
    looked_at(path)
    try:
        st = os.stat(path)
    except OSError:
        return None
    key = (path, st.st_mtime_ns, st.st_size)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    manifest = Manifest(path)
    name = os.path.relpath(path, os.path.dirname(os.path.dirname(path)))
    try:
        text = read_bytes(path, base, MAX_MANIFEST).decode("utf-8")
    except UnicodeDecodeError:
        manifest.emit("not-utf8", "error", f"{name} is not UTF-8 text; save it as UTF-8.")
        text = None
    except OSError as exc:
        manifest.emit("unreadable", "error", f"{name} was not read: {exc}.")
        text = None
    if text is not None:
        try:
            data = yaml_io.load_json(text, yaml_io.CONFIG)
        except json.JSONDecodeError as exc:
            manifest.diagnostics.append(
                Diagnostic(
                    "manifest-invalid",
                    "error",
                    f"{name} is not valid JSON: {exc.msg}. Nothing in it is used until this "
                    "is fixed.",
                    path,
                    exc.lineno,
                    exc.colno,
                )
            )
        except yaml_io.YamlRefused as exc:
            manifest.diagnostics.append(
                Diagnostic(
                    "manifest-invalid",
                    "error",
                    f"{name} {exc.message}.",
                    path,
                    exc.line or 1,
                    exc.column or 1,
                )
            )
        else:
            if isinstance(data, dict):
                manifest.positions = manifest_text.key_positions(text)
                manifest.data = manifest_text.checked(data, manifest.reject)
            else:
                manifest.emit("manifest-invalid", "error", f"{name} must be a JSON object.")
    if len(_CACHE) > 4096:
        _CACHE.clear()
    _CACHE[key] = manifest
    return manifest


def _type_name(types: tuple[type, ...]) -> str:
    return " or ".join(_JSON_TYPE.get(t, t.__name__) for t in types)


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if value is None:
        return "null"
    return _JSON_TYPE.get(type(value), type(value).__name__)


def plugin_manifest(plugin: str) -> Manifest | None:
    """`<plugin>/.claude-plugin/plugin.json`, checked: name required and kebab-case,
    unknown keys warn, a known key of the wrong type is an error."""
    manifest = read_manifest(os.path.join(plugin, PLUGIN_JSON), plugin)
    if manifest is None or manifest.data is None or manifest.checked:
        return manifest
    manifest.checked = True
    data = manifest.data
    name = data.get("name")
    if manifest.left_out("name"):
        pass  # reported where it was read
    elif "name" not in data:
        manifest.emit(
            "field-missing",
            "error",
            "plugin.json needs a 'name' (kebab-case, e.g. \"my-plugin\"); Claude Code names "
            "the plugin's skills 'name:skill' with it.",
        )
    elif isinstance(name, str) and not KEBAB.fullmatch(name):
        manifest.emit(
            "name-format",
            "error",
            f"The plugin name '{name}' must be kebab-case: lowercase letters, digits and "
            "single hyphens.",
            "name",
        )
    for key, value in data.items():
        types = PLUGIN_KEYS.get(key)
        if manifest.left_out(key):
            continue
        if types is None:
            manifest.emit(
                "unknown-field",
                "warning",
                f"'{key}' is not a plugin.json key Claude Code knows (known: "
                f"{', '.join(PLUGIN_KEYS)}); check its spelling.",
                key,
            )
        elif not isinstance(value, types) or isinstance(value, bool):
            manifest.emit(
                "field-type",
                "error",
                f"'{key}' must be {_type_name(types)}, not {_json_kind(value)}.",
                key,
            )
    manifest.skill_dirs = _manifest_paths(plugin, manifest, "skills")
    manifest.command_paths = _manifest_paths(plugin, manifest, "commands")
    return manifest


def declared_skills(plugin: str, mark: str) -> list[str] | None:
    """The skill folders the plugin manifest `<plugin>/<mark>/plugin.json` names in its
    `skills` (a `./…` path or a list of them, inside the plugin), or None when it names
    none (or there is no manifest): then the plugin's `skills/` folder is read. Codex's
    and Cursor's manifests (`.codex-plugin`, `.cursor-plugin`) take the same paths as
    Claude Code's (docs/agents.md)."""
    if mark == MANIFEST_DIR:
        manifest = plugin_manifest(plugin)
    else:
        manifest = read_manifest(os.path.join(plugin, mark, "plugin.json"), plugin)
        if manifest is not None and manifest.data is not None and not manifest.checked:
            manifest.checked = True
            manifest.skill_dirs = _manifest_paths(plugin, manifest, "skills")
    if manifest is None or manifest.data is None or "skills" not in manifest.data:
        return None
    return manifest.skill_dirs


def plugin_name(plugin: str) -> str:
    """The namespace of a plugin's skills: its manifest's name, else its folder name."""
    manifest = plugin_manifest(plugin)
    if manifest is not None and manifest.data is not None and not manifest.left_out("name"):
        name = manifest.data.get("name")
        if isinstance(name, str) and name.strip():
            return name.strip()
    return os.path.basename(os.path.normpath(plugin))


def is_plugin(folder: str) -> bool:
    return os.path.isfile(os.path.join(folder, PLUGIN_JSON))


def _manifest_paths(plugin: str, manifest: Manifest, key: str) -> list[str]:
    """What the manifest's `skills` (folders) or `commands` (folders or `.md` files) add
    to the plugin's own `skills/` and `commands/` (each `./…`, confined to the plugin)."""
    assert manifest.data is not None
    value = manifest.data.get(key)
    if value is None and manifest.left_out(key):
        value = ""  # a path left out: reported, and the `skills/` (`commands/`) scan goes on
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    out: list[str] = []
    real_plugin = os.path.realpath(plugin)
    for index, item in enumerate(items[:MAX_PLUGINS]):
        where: tuple[Any, ...] = (key, index) if isinstance(value, list) else (key,)
        if manifest.left_out(*where):
            continue
        if not isinstance(item, str) or not item.startswith("./"):
            manifest.emit(
                "field-invalid",
                "error",
                f"A '{key}' path must start with './' (relative to the plugin folder), not "
                f"{json.dumps(item)[:60]}.",
                *where,
            )
            continue
        target = os.path.normpath(os.path.join(plugin, item))
        if ".." in item.split("/") or not is_inside(os.path.realpath(target), real_plugin):
            manifest.emit(
                "field-invalid",
                "error",
                f"The '{key}' path '{item}' leaves the plugin folder; it was not read.",
                *where,
            )
            continue
        command_file = key == "commands" and item.endswith(".md") and os.path.isfile(target)
        if not (os.path.isdir(target) or command_file):
            what = "a folder or a .md file" if key == "commands" else "a folder"
            manifest.emit(
                "field-invalid",
                "error",
                f"The '{key}' path '{item}' is not {what} in the plugin.",
                *where,
            )
            continue
        out.append(target)
    return out


@dataclass(slots=True)
class Entry:
    """One local plugin of a marketplace: its folder, its name, and the entry read as a
    manifest of its own (its `skills` and `commands` paths, relative to the folder);
    `strict: false` makes the entry the whole manifest (no plugin.json needed)."""

    folder: str
    name: str
    manifest: Manifest
    strict: bool = True

    def declares(self, key: str) -> bool:
        return self.manifest.data is not None and key in self.manifest.data


@dataclass(slots=True)
class Marketplace:
    """A marketplace's local plugins (folder, name) and its diagnostics."""

    plugins: list[tuple[str, str]] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)


def read_marketplace(folder: str) -> Marketplace | None:
    """`<folder>/.claude-plugin/marketplace.json`: every listed local plugin (a relative
    source `./…` resolves against `folder`; `..` is an error); remote sources listed."""
    manifest = read_manifest(os.path.join(folder, MARKETPLACE_JSON), folder)
    if manifest is None:
        return None
    result = Marketplace()
    data = manifest.data
    saved = list(manifest.diagnostics)
    manifest.diagnostics = []
    if data is not None:
        _check_marketplace(folder, manifest, data, result)
    result.diagnostics = saved + manifest.diagnostics
    manifest.diagnostics = saved
    return result


def _check_marketplace(
    folder: str, manifest: Manifest, data: dict[str, Any], result: Marketplace
) -> None:
    name = data.get("name")
    if (not isinstance(name, str) or not name.strip()) and not manifest.left_out("name"):
        manifest.emit(
            "field-missing" if name is None else "field-type",
            "error",
            "marketplace.json needs a 'name' (text, kebab-case).",
            "name",
        )
    owner = data.get("owner")
    if manifest.left_out("owner", "name"):
        pass  # reported where it was read
    elif not isinstance(owner, dict) or not isinstance(owner.get("name"), str):
        manifest.emit(
            "field-missing",
            "error",
            "marketplace.json needs an 'owner' object with a 'name' (the maintainer).",
            "owner",
        )
    plugins = data.get("plugins")
    if not isinstance(plugins, list) and manifest.left_out("plugins"):
        return
    if not isinstance(plugins, list):
        manifest.emit(
            "field-missing" if plugins is None else "field-type",
            "error",
            "marketplace.json needs a 'plugins' list (each with 'name' and 'source').",
            "plugins",
        )
        return
    real = os.path.realpath(folder)
    remote: list[str] = []
    for index, entry in enumerate(plugins[:MAX_PLUGINS]):
        if manifest.left_out("plugins", index):
            continue  # a name or source that cannot be used: reported, the others are read
        if not isinstance(entry, dict):
            manifest.emit(
                "field-type", "error", f"Plugin {index + 1} must be an object.", "plugins", index
            )
            continue
        entry_name = entry.get("name")
        if not isinstance(entry_name, str) or not entry_name.strip():
            manifest.emit(
                "field-missing",
                "error",
                f"Plugin {index + 1} needs a 'name'.",
                "plugins",
                index,
                "name",
            )
            continue
        source = entry.get("source")
        if isinstance(source, dict) or (
            isinstance(source, str) and ("://" in source or source.startswith("git@"))
        ):
            remote.append(entry_name)
            continue
        if not isinstance(source, str):
            manifest.emit(
                "field-missing",
                "error",
                f"Plugin '{entry_name}' needs a 'source' ('./path' or a remote source).",
                "plugins",
                index,
                "source",
            )
            continue
        where = ("plugins", index, "source")
        target = os.path.normpath(os.path.join(folder, source))
        if ".." in source.split("/") or not is_inside(os.path.realpath(target), real):
            manifest.emit(
                "field-invalid",
                "error",
                f"The source '{source}' of plugin '{entry_name}' leaves the marketplace "
                "folder ('..' is not allowed); it was not read.",
                *where,
            )
            continue
        if not source.startswith("./") and source != ".":
            manifest.emit(
                "field-invalid",
                "error",
                f"The source '{source}' of plugin '{entry_name}' must start with './' "
                "(relative to the folder holding .claude-plugin/).",
                *where,
            )
            continue
        if not os.path.isdir(target):
            manifest.emit(
                "field-invalid",
                "error",
                f"The source '{source}' of plugin '{entry_name}' is not a folder.",
                *where,
            )
            continue
        result.plugins.append((target, entry_name.strip()))
        result.entries.append(_entry(manifest, index, entry, target, entry_name.strip()))
    if remote:
        manifest.emit(
            "plugin-remote",
            "info",
            f"{len(remote)} plugin(s) come from remote sources and were not fetched: "
            f"{', '.join(remote[:20])}{' …' if len(remote) > 20 else ''}.",
            "plugins",
        )


def _entry(market: Manifest, index: int, data: dict[str, Any], folder: str, name: str) -> Entry:
    """A marketplace entry as a manifest of its own: its `skills` and `commands` paths
    resolved against the plugin's folder, its problems placed in marketplace.json."""
    prefix = ("plugins", index)
    manifest = Manifest(
        market.path,
        data,
        positions={k[2:]: v for k, v in market.positions.items() if k[:2] == prefix},
        rejected={r[2:] for r in market.rejected if r[:2] == prefix},
    )
    strict = data.get("strict", True)
    if not isinstance(strict, bool):
        manifest.emit(
            "field-type",
            "error",
            f"'strict' of plugin '{name}' must be true or false, not {_json_kind(strict)}.",
            "strict",
        )
        strict = True
    for key in ("skills", "commands"):
        value = data.get(key)
        if value is not None and (not isinstance(value, _PATHS) or isinstance(value, bool)):
            manifest.emit(
                "field-type",
                "error",
                f"'{key}' of plugin '{name}' must be {_type_name(_PATHS)}, not "
                f"{_json_kind(value)}.",
                key,
            )
    if isinstance(data.get("skills"), _PATHS):
        manifest.skill_dirs = _manifest_paths(folder, manifest, "skills")
    if isinstance(data.get("commands"), _PATHS):
        manifest.command_paths = _manifest_paths(folder, manifest, "commands")
    market.diagnostics.extend(manifest.diagnostics)
    return Entry(folder, name, manifest, strict)


def market_files(plugin: str, top: str) -> list[str]:
    """The marketplace.json paths that could list `plugin`: at it, and in the folders
    above it up to `top` (the folder opened: nothing outside it is read)."""
    folder = os.path.normpath(plugin)
    top = os.path.normpath(top)
    out: list[str] = []
    for _ in range(MAX_MARKET_LEVELS):
        if not is_within(folder, top):
            break
        out.append(os.path.join(folder, MARKETPLACE_JSON))
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return out


def plugin_entries(plugin: str, top: str) -> list[Entry]:
    """The marketplace entries whose source is `plugin` (`market_files`)."""
    plugin = os.path.normpath(plugin)
    out: list[Entry] = []
    for path in market_files(plugin, top):
        looked_at(path)
        if os.path.isfile(path):
            market = read_marketplace(os.path.dirname(os.path.dirname(path)))
            if market is not None:
                out += [e for e in market.entries if os.path.normpath(e.folder) == plugin]
    return out


def components(plugin: str, entries: list[Entry], key: str) -> list[str]:
    """What a plugin's manifests add to its own `skills/` (`commands/`): with an entry
    of `strict: false`, the entries alone decide; else plugin.json's paths and the
    entries' (an entry is merged with plugin.json)."""
    attr = "skill_dirs" if key == "skills" else "command_paths"
    loose = [e for e in entries if not e.strict]
    chosen = loose or entries
    out: list[str] = []
    if not loose:
        manifest = plugin_manifest(plugin)
        out += getattr(manifest, attr) if manifest is not None else []
    for entry in chosen:
        out += [p for p in getattr(entry.manifest, attr) if p not in out]
    return out
