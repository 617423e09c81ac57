"""Codex's files (docs/profiles.md): where its roots are, its bounded walk of one
root, and the two files it reads beside skills (agents/openai.yaml, plugin manifests).

Every file is read confined to its folder, bounded, and without recursion; each
problem is a diagnostic on that file, at its line and column.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import yaml

from ...checking.lookalike import text_problem
from ...model.confinement import link_nowhere, link_out, root_inside
from ...model.diagnostics import Diagnostic, Severity
from ...model.paths import is_inside, is_within
from ...model.skills import Root, Skill
from ...reading import yaml_io
from ...reading.looked import looked_at
from ...reading.safefs import read_bytes
from .. import manifest_text
from ..claude_code.plugins import declared_skills

if TYPE_CHECKING:
    from ...model.scan import DiscoveryResult, ScanLimits
    from ...profile import Checker

# Discovery under one root (codex-rs/core/src/skills/loader.rs).
MAX_DEPTH = 6
MAX_FOLDERS = 2000
MAX_ENTRIES = 20_000
OPENAI_YAML = os.path.join("agents", "openai.yaml")
PLUGIN_MANIFESTS = (
    os.path.join(".codex-plugin", "plugin.json"),
    os.path.join(".claude-plugin", "plugin.json"),
)
MANIFEST_BYTES = 256 * 1024
PLUGIN_LEVELS = 8  # folders looked at above a skill for its plugin's manifest


@dataclass(frozen=True, slots=True)
class CodexSettings:
    """Where the user, admin and system scopes are (settings, so tests never read the
    real home or /etc): `~` from HOME, `$CODEX_HOME` (default `~/.codex`), and the
    admin config folder (`SKILLSTUDIO_CODEX_ADMIN`, default `/etc/codex`)."""

    home: str
    codex_home: str
    admin: str

    @classmethod
    def from_environment(cls) -> CodexSettings:
        home = os.path.expanduser("~")
        codex_home = os.environ.get("CODEX_HOME") or os.path.join(home, ".codex")
        admin = os.environ.get("SKILLSTUDIO_CODEX_ADMIN") or "/etc/codex"
        return cls(home, codex_home, admin)

    @property
    def legacy_user_root(self) -> str:
        return os.path.join(self.codex_home, "skills")


def repository_root(folder: str) -> str:
    """The nearest folder at or above `folder` holding `.git`, else `folder` itself."""
    current = os.path.abspath(folder)
    while True:
        if os.path.lexists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return os.path.abspath(folder)
        current = parent


def _note(out: DiscoveryResult, code: str, severity: Severity, message: str, path: str) -> None:
    out.diagnostics.append(Diagnostic(code, severity, message, path, 0, 0))


def project_roots(s: CodexSettings, folder: str) -> tuple[list[tuple[str, str]], list[Diagnostic]]:
    """The scopes that exist: system, admin, user, then every `.agents/skills` from
    the repository root down to the working folder and `<repo>/.codex/skills`. Nothing
    shadows in Codex, so this order only puts the project's roots last, where `new`
    writes; the listing orders skills by scope (system, admin, repository, user).

    The machine's scopes come only with a repository root: a folder without one is
    read as it is (its own skills, or the collections in it), never replaced by
    the skills of whoever runs the check. A repository root must resolve inside the
    folder it stands in (core/model/confinement.py): a link out of it is a note, not a root."""
    folder = os.path.abspath(folder)
    repo = repository_root(folder)
    chain = [folder]
    while chain[-1] != repo:
        chain.append(os.path.dirname(chain[-1]))
    candidates: list[tuple[str, str, str | None]] = [
        (os.path.join(s.legacy_user_root, ".system"), "system", None),
        (os.path.join(s.admin, "skills"), "admin", None),
        (os.path.join(s.home, ".agents", "skills"), "user", None),
        (s.legacy_user_root, "user $CODEX_HOME/skills (deprecated)", None),
    ]
    for level in reversed(chain):
        path = os.path.join(level, ".agents", "skills")
        candidates.append((path, "repository " + os.path.relpath(path, folder), level))
    path = os.path.join(repo, ".codex", "skills")
    candidates.append((path, "repository " + os.path.relpath(path, folder), repo))
    pairs: list[tuple[str, str]] = []
    notes: list[Diagnostic] = []
    seen: set[str] = set()
    for path, label, base in candidates:
        path = os.path.normpath(path)
        if path in seen:
            continue
        if root_inside(path, base, notes) if base is not None else os.path.isdir(path):
            seen.add(path)
            pairs.append((path, label))
    if not any(label.startswith("repository") for _, label in pairs):
        return [], notes
    return pairs, notes


def discover_root(s: CodexSettings, root: Root, limits: ScanLimits) -> DiscoveryResult:
    """Codex's walk: depth 6, 2,000 folders and 20,000 entries per root, hidden
    names skipped below the root, a SKILL.md that is a link ignored (warned), a link
    to a folder followed as Codex follows it, while it resolves inside the folder
    opened (`Root.boundary`) and does not loop."""
    from ...model.scan import SKILL_FILE, DiscoveryResult

    out = DiscoveryResult()
    try:
        out.root_mtime_ns = os.stat(root.path).st_mtime_ns
    except OSError:
        return out
    walk = _CodexWalk(root, limits, out)
    walk.run(SKILL_FILE)
    out.files.sort(key=lambda found: found.path)
    if out.files and os.path.normpath(root.path) == os.path.normpath(s.legacy_user_root):
        _note(
            out,
            "root-deprecated",
            "info",
            "$CODEX_HOME/skills is deprecated as a user root; move these skills to "
            "~/.agents/skills.",
            root.path,
        )
    return out


class _CodexWalk:
    """One root's walk, without recursion, links to folders followed inside the folder
    opened (each folder once: a link back up is a loop)."""

    def __init__(self, root: Root, limits: ScanLimits, out: DiscoveryResult) -> None:
        self.root = root.path
        self.base = root.boundary
        self.base_real = os.path.realpath(root.boundary)
        self.max_depth = min(MAX_DEPTH, limits.max_depth)
        self.max_folders = min(MAX_FOLDERS, limits.max_folders)
        self.out = out

    def run(self, name: str) -> None:
        out, max_depth = self.out, self.max_depth
        entries = folders = 0
        deeper = False
        stack: list[tuple[str, int, bool]] = [(self.root, 0, False)]
        while stack:
            folder, depth, linked = stack.pop()
            try:
                with os.scandir(folder) as it:
                    listing = sorted(it, key=lambda e: e.name)
            except OSError:
                continue
            folders += 1
            if folders > self.max_folders:
                _note(
                    out,
                    "scan-limit",
                    "warning",
                    f"Codex scans at most {self.max_folders:,} folders per root; skills further "
                    "on are not loaded. Move them to a root of their own.",
                    self.root,
                )
                return
            entries += len(listing)
            if entries > MAX_ENTRIES:
                _note(
                    out,
                    "scan-limit",
                    "warning",
                    f"This root has more than {MAX_ENTRIES:,} entries; SkillStudio stops "
                    "there, and skills further on are not checked.",
                    folder,
                )
                return
            out.folders = folders
            subfolders: list[tuple[str, bool]] = []
            dangling: list[str] = []
            holds_skill = False
            for entry in listing:
                if entry.name.startswith("."):
                    continue
                try:
                    if entry.is_symlink():
                        if entry.name == name:
                            _note(
                                out,
                                "symlink-skipped",
                                "warning",
                                f"This {name} is a link; Codex ignores a {name} that is a "
                                "link. Put the file itself here.",
                                entry.path,
                            )
                            holds_skill = True
                        elif self.followed(entry.path, folder, dangling):
                            subfolders.append((entry.path, True))
                    elif entry.is_dir(follow_symlinks=False):
                        subfolders.append((entry.path, linked))
                    elif entry.name == name:
                        holds_skill = True
                        _found_file(out, entry, linked)
                except OSError:
                    continue
            if not holds_skill:  # in a skill folder, a link is one of its files
                out.diagnostics.extend(link_nowhere(path) for path in dangling)
            if depth >= max_depth:
                if subfolders and not deeper:
                    deeper = True
                    _note(
                        out,
                        "scan-limit",
                        "warning",
                        f"Codex scans {max_depth} levels below a root; the folders inside "
                        "this one are not scanned.",
                        folder,
                    )
                continue
            stack.extend((sub, depth + 1, via) for sub, via in reversed(subfolders))

    def followed(self, path: str, folder: str, dangling: list[str]) -> bool:
        """Whether a link is followed as a folder: a folder inside the folder opened that
        is not one of the folders above it (a loop)."""
        try:
            st = os.stat(path)
        except OSError:
            dangling.append(path)
            return False
        if not stat.S_ISDIR(st.st_mode):
            return False
        real = os.path.realpath(path)
        if not is_inside(real, self.base_real):
            self.out.diagnostics.append(link_out(path, real, self.base))
            return False
        if is_within(os.path.realpath(folder), real):
            _note(
                self.out,
                "symlink-skipped",
                "warning",
                f"This link points to {real}, a folder above it (a loop); it was not followed.",
                path,
            )
            return False
        return True


def _found_file(out: DiscoveryResult, entry: os.DirEntry[str], linked: bool) -> None:
    from ...model.scan import Found

    try:
        st = entry.stat(follow_symlinks=False)
    except OSError:
        return
    if not stat.S_ISREG(st.st_mode):
        _note(out, "unreadable", "warning", f"This {entry.name} is not a regular file.", entry.path)
        return
    out.files.append(Found.of(entry.path, st, linked))


def read_policy(skill: Skill, c: Checker) -> bool:
    """`policy.allow_implicit_invocation` of the skill's agents/openai.yaml (True
    when absent or unusable; each problem is a diagnostic in that file)."""
    path = os.path.join(skill.folder, OPENAI_YAML)
    looked_at(path)
    if not os.path.lexists(path):
        return True

    def note(message: str, line: int = 1, column: int = 1) -> None:
        c.out.append(Diagnostic("field-type", "warning", message, path, line, column, None, None))

    try:
        text = read_bytes(path, skill.folder, yaml_io.CONFIG.size).decode("utf-8")
        root = yaml_io.compose(text, yaml_io.CONFIG)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        note(f"agents/openai.yaml is not valid YAML ({exc.problem}); Codex ignores it.", *where)
        return True
    except (OSError, UnicodeDecodeError, yaml.YAMLError, yaml_io.YamlRefused) as exc:
        note(f"agents/openai.yaml cannot be used ({exc}); Codex ignores it.")
        return True
    policy = _child(root, "policy")
    if root is not None and not isinstance(root, yaml.MappingNode):
        note("agents/openai.yaml must be a mapping; Codex ignores it.")
        return True
    if policy is None:
        return True
    if not isinstance(policy, yaml.MappingNode):
        note("'policy' must be a mapping; Codex ignores it.", *_mark(policy))
        return True
    value = _child(policy, "allow_implicit_invocation")
    if value is None:
        return True
    if not (isinstance(value, yaml.ScalarNode) and value.tag == "tag:yaml.org,2002:bool"):
        note(
            "'policy.allow_implicit_invocation' must be true or false; Codex ignores this "
            "value and lists the skill.",
            *_mark(value),
        )
        return True
    return bool(yaml.safe_load(value.value))


def plugin_manifest(skill: Skill) -> tuple[str, str] | None:
    """(plugin folder, manifest path) of the nearest plugin manifest at or above the
    skill's folder, up to the root's parent (a repository's own manifest does not rename
    its skills), or None."""
    stop = os.path.dirname(skill.root.path)
    folder = skill.folder
    for _ in range(PLUGIN_LEVELS):
        for manifest in PLUGIN_MANIFESTS:
            path = os.path.join(folder, manifest)
            looked_at(path)
            if os.path.lexists(path):
                return folder, path
        if folder == stop or os.path.dirname(folder) == folder:
            return None
        folder = os.path.dirname(folder)
    return None


def outside_manifest(skill: Skill) -> str | None:
    """Why Codex does not load the skill as part of its plugin, when the plugin's
    manifest names its skills (`"skills": "./skills/"`, a path or a list: they replace
    the plugin's `skills/` folder) and this folder is not among them; else None."""
    found = plugin_manifest(skill)
    if found is None:
        return None
    plugin, path = found
    mark = os.path.basename(os.path.dirname(path))
    declared = declared_skills(plugin, mark)
    folder = skill.folder
    if declared is None or folder in declared or os.path.dirname(folder) in declared:
        return None
    named = ", ".join("./" + os.path.relpath(d, plugin) for d in declared[:5]) or "nothing"
    return f"its plugin's manifest ({mark}/plugin.json) names its skills in 'skills' ({named})"


def plugin_name(skill: Skill, c: Checker) -> str | None:
    """The name of the skill's plugin (`plugin_manifest`), or None."""
    found = plugin_manifest(skill)
    return _manifest_name(found[1], found[0], c) if found is not None else None


def _manifest_name(path: str, plugin: str, c: Checker) -> str:
    fallback = os.path.basename(plugin)
    try:
        text = read_bytes(path, plugin, MANIFEST_BYTES).decode("utf-8")
        data = yaml_io.load_json(text, yaml_io.CONFIG)
    except json.JSONDecodeError as exc:
        message = f"This plugin manifest is not valid JSON ({exc.msg})"
        where = (exc.lineno, exc.colno)
    except (OSError, UnicodeDecodeError, yaml_io.YamlRefused) as exc:
        message, where = f"This plugin manifest cannot be read ({exc})", (1, 1)
    else:
        name = data.get("name") if isinstance(data, dict) else None
        why = text_problem(name, True) if isinstance(name, str) else None
        if isinstance(name, str) and name.strip() and why is None:
            return name.strip()
        message, where = "This plugin manifest has no 'name'", (1, 1)
        if why is not None:  # a NUL, half a surrogate pair, a control or bidi character
            positions = manifest_text.key_positions(text)
            message, where = f"This plugin manifest's 'name' {why}", positions.get(("name",), where)
    c.out.append(
        Diagnostic(
            "field-invalid",
            "warning",
            f"{message}; its skills are named '{fallback}:…' after the folder here.",
            path,
            *where,
        )
    )
    return fallback


def _child(node: Any, key: str) -> Any:
    """The value node of `key` in a mapping node (None when absent or not a mapping)."""
    if not isinstance(node, yaml.MappingNode):
        return None
    for key_node, value_node in node.value:
        if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
            return value_node
    return None


def _mark(node: Any) -> tuple[int, int]:
    mark = node.start_mark
    return mark.line + 1, mark.column + 1
