"""Confinement to the folder the user opened (docs/profiles.md and docs/development.md).

Every root a project is made of, however it is reached (a conventional folder such
as `.agents/skills` or `.claude/skills`, a plugin's `skills/`, a marketplace's
plugin, a folder found in a repository, a root of skillstudio.yaml), must resolve
inside the folder it stands for: the folder the user opened, or for the folders an
agent reads above it, the level it stands in. A link whose target lies outside is
never read and never written through: `symlink-skipped`, naming the target. The
machine's own folders (personal, user, admin, system) are the user's, not the
repository's, and are not confined here.

Writes go through `write_target`: the real file behind a path, refused when it
resolves outside the folder its skill was read from.
"""

from __future__ import annotations

import errno
import os

from .diagnostics import Diagnostic, Severity
from .paths import FileRefused, is_inside
from .scan import SKILL_FILE

# What marks the folder a path belongs to (its project or repository): a path given
# on the command line that runs through a link out of that folder is refused.
# The folders of a plugin's (or marketplace's) manifests.
PLUGIN_MARKS = (".claude-plugin", ".codex-plugin")
PROJECT_MARKS = (
    ".git",
    "skillstudio.yaml",
    ".agents",
    ".claude",
    ".codex",
    *PLUGIN_MARKS,
)
MAX_LEVELS = 64


def outside(path: str, base: str) -> str | None:
    """The real path of `path` when it resolves outside `base` (both resolved), else None."""
    real = os.path.realpath(path)
    return None if is_inside(real, os.path.realpath(base)) else real


def link_out(path: str, target: str, base: str) -> Diagnostic:
    """`symlink-skipped` for a folder or file that a link takes out of `base`."""
    return Diagnostic(
        "symlink-skipped",
        "warning",
        f"This resolves to {target}, outside {base} (a link leads out of the folder opened); "
        f"nothing in it was read and nothing is written through it. To check what is "
        f"there, open {target} itself.",
        path,
    )


def pointed_to(path: str) -> str:
    """Where a link points, as written in it and made absolute (not resolved further)."""
    try:
        target = os.readlink(path)
    except OSError:
        return os.path.realpath(path)
    return os.path.normpath(os.path.join(os.path.dirname(path), target))


def link_nowhere(path: str, severity: Severity = "warning") -> Diagnostic:
    """`symlink-skipped` for a link whose target does not exist, or that loops."""
    try:
        os.stat(path)
        why = "which does not exist"
    except OSError as exc:
        why = "which loops back on itself" if exc.errno == errno.ELOOP else "which does not exist"
    return Diagnostic(
        "symlink-skipped",
        severity,
        f"This link points to {pointed_to(path)}, {why}; nothing was read through it. "
        "Remove the link or restore what it points to.",
        path,
    )


def root_inside(path: str, base: str, notes: list[Diagnostic]) -> bool:
    """Whether `path` is a folder to read as a root of `base`: a folder that resolves
    inside `base`. A link out of `base` or a dangling link is a note, not a root."""
    if not os.path.isdir(path):
        if os.path.islink(path):
            notes.append(link_nowhere(path))
        return False
    target = outside(path, base)
    if target is not None:
        notes.append(link_out(path, target, base))
        return False
    return True


def refused_root(path: str, base: str) -> Diagnostic | None:
    """The note for a root that now resolves outside `base` (a folder swapped for a
    link after the project was made); None when it is still inside or when `base` is
    empty (a machine folder, confined to itself)."""
    if not base:
        return None
    target = outside(path, base)
    return None if target is None else link_out(path, target, base)


def project_folder(path: str) -> str | None:
    """The project or repository folder a path lies in: the nearest folder above it
    (not itself a link) that holds a `.git`, a skillstudio.yaml or an agent's folder,
    below the home folder (which holds every agent's own folders); None when there
    is none."""
    home = os.path.expanduser("~")
    current = os.path.abspath(path)
    for _ in range(MAX_LEVELS):
        parent = os.path.dirname(current)
        if parent in (current, home, os.sep):
            return None
        current = parent
        if os.path.islink(current):
            continue
        if any(os.path.lexists(os.path.join(current, mark)) for mark in PROJECT_MARKS):
            return current
    return None


def opened_folder(path: str, fallback: str) -> str:
    """The folder a path given on the command line opens: its project folder
    (`project_folder`) when it has one, else `fallback` (the path's own root)."""
    return project_folder(path) or fallback


def escaping(folder: str) -> Diagnostic | None:
    """The note when a folder given to a command is itself reached through a link out
    of the project it lies in (`repo/.agents/skills` -> elsewhere); None otherwise."""
    owner = project_folder(folder)
    if owner is None:
        return None
    target = outside(folder, owner)
    return None if target is None else link_out(folder, target, owner)


def write_target(path: str, base: str) -> str:
    """The real file a save of `path` writes: links are followed (the link stays, its
    target gets the text), and the target must lie inside `base` (resolved).

    Raises FileRefused (an OSError) with a plain reason otherwise; nothing is written.
    """
    real = os.path.realpath(path)
    if not is_inside(real, os.path.realpath(base)):
        raise FileRefused(
            path,
            f"it resolves to {real}, outside {base} (a link leads out of the folder "
            "opened); nothing was written",
        )
    return real


HOLDS_FOLDERS = 200  # folders looked at, at most, to tell whether a folder holds a skill
HOLDS_DEPTH = 4


def holds_skill(folder: str, base: str, suffix: str = "") -> bool:
    """Whether `folder` (inside `base`) holds a SKILL.md (any case), or with `suffix` a
    file so named (`.md`: a commands folder), within a few levels. An agent's folder
    that holds none is no mark of that agent (docs/profiles.md). Links are followed
    only while they resolve inside `base`; nothing outside it is listed."""
    base_real = os.path.realpath(base)
    if not os.path.isdir(folder) or not is_inside(os.path.realpath(folder), base_real):
        return False
    stack = [(folder, 0)]
    looked = 0
    while stack and looked < HOLDS_FOLDERS:
        current, depth = stack.pop()
        looked += 1
        try:
            with os.scandir(current) as it:
                entries = list(it)
        except OSError:
            continue
        for entry in entries:
            name = entry.name.lower()
            try:
                if entry.is_symlink():
                    if not is_inside(os.path.realpath(entry.path), base_real):
                        continue
                    if entry.is_dir() and os.path.isfile(os.path.join(entry.path, SKILL_FILE)):
                        return True
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if depth < HOLDS_DEPTH and not name.startswith("."):
                        stack.append((entry.path, depth + 1))
                elif name == SKILL_FILE.lower() or (suffix and name.endswith(suffix)):
                    return True
            except OSError:
                continue
    return False
