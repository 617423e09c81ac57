"""Skill operations: new from the profile's template, rename, duplicate, delete to trash."""

from __future__ import annotations

import datetime as _dt
import os
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import quote

from ..model.fields import TEMPLATE_STEPS, placeholder_description
from ..model.filenames import folder_name_problem
from ..model.paths import is_within
from ..model.skills import Root
from ..profile import Profile
from ..reading.frontmatter import read_document
from .changes import Change
from .round_trip import apply_changes
from .saving import atomic_write, encode, stamp

SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


class OperationError(Exception):
    """A skill operation that was refused; nothing was changed."""


class BadName(OperationError):
    """A name the profile cannot use (bad usage, not a failed operation)."""


def suggest_name(text: str) -> str:
    """A valid skill name from what the user typed: "PDF Filler!" -> "pdf-filler"."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "-".join(words)[:64].strip("-")


def heading_of(name: str, typed: str = "") -> str:
    """The new skill's heading: what the user typed, trimmed of stray punctuation
    ("PDF Filler!" -> "PDF Filler"), else the name's words, each capitalised without
    lowering the rest ("pdf-filler" -> "Pdf Filler")."""
    kept = re.sub(r"^[\W_]+|[\W_]+$", "", typed.strip())
    if kept and kept.lower() != name:
        return kept
    return " ".join(w[:1].upper() + w[1:] for w in re.split(r"[-_\s]+", name) if w)


def template(profile: Profile, name: str, title: str = "") -> str:
    """A SKILL.md that is valid under `profile` as it is (`title`: its heading)."""
    title = title or heading_of(name)
    description = placeholder_description(title)
    front = profile.template_frontmatter(name, title, description)
    body = f"# {title}\n\n" + "".join(step + "\n" for step in TEMPLATE_STEPS)
    return f"---\n{front}---\n\n{body}"


@dataclass(frozen=True, slots=True)
class NewSkillPlace:
    """A folder where a new skill folder is loaded by `profile`'s agent (`root`: the
    root that reads it)."""

    folder: str
    root: Root
    profile: Profile
    # the agents that load a skill made here, as Where it loads answers
    # (core/projects/agent_reach.py `place_loaders`); None: not asked, the profile's
    agents: tuple[str, ...] | None = None

    @property
    def loaded_by(self) -> str:
        """Who loads a skill made here, in words ("claude-code, codex in plugin:demo"): the
        agents that do, and the root's label when the profile's own agent is one."""
        agents = (self.profile.name,) if self.agents is None else self.agents
        if not agents:
            return "no agent"
        label = self.profile.name in agents and self.root.label
        return ", ".join(agents) + (f" in {self.root.label}" if label else "")


def new_skill_places(
    profile: Profile, roots: Iterable[Root], machine: bool = False
) -> list[NewSkillPlace]:
    """Where File › New Skill may create a skill among `roots`: the folders each root's
    agent loads (a plugin's `skills/`, never the plugin or repository folder itself);
    the machine's own folders (personal, enterprise) only with `machine` (a root's
    own context menu): they are not the project's."""
    places: list[NewSkillPlace] = []
    seen: set[str] = set()
    roots = list(roots)
    folders = [os.path.normpath(r.path) for r in roots]
    for root in roots:
        if not root.base and not machine:
            continue
        inside = os.path.normpath(root.path)
        if root.collection and any(f != inside and is_within(inside, f) for f in folders):
            # a collection of the author's view inside another root (`one/` of a plugin
            # whose manifest names `./one/solo`): the outer root's places say where its
            # agent loads a new skill; one made here would not be loaded
            continue
        for folder in profile.new_skill_folders(root):
            folder = os.path.normpath(folder)
            if folder not in seen:
                seen.add(folder)
                places.append(NewSkillPlace(folder, root, profile))
    return places


def place_of(places: Iterable[NewSkillPlace], folder: str) -> NewSkillPlace | None:
    """The place that is `folder` (a skill's parent folder, a root), or None."""
    folder = os.path.normpath(folder)
    return next((p for p in places if p.folder == folder), None)


def new_skill(profile: Profile, root: str, name: str, title: str = "") -> str:
    """Create `root/name/SKILL.md` (`title`: its heading); refuses a bad name or an
    existing folder."""
    if folder_name_problem(name) or not SLUG.fullmatch(name) or len(name) > 64:
        raise BadName(
            f"{name!r} is not a valid skill name: use lowercase letters, digits and single "
            "hyphens, at most 64 characters"
        )
    folder = os.path.join(root, name)
    if os.path.exists(folder):
        raise OperationError(f"{folder} already exists")
    os.makedirs(folder)
    path = os.path.join(folder, "SKILL.md")
    atomic_write(path, encode(template(profile, name, title)), None)
    return path


def _set_name(profile: Profile, skill_md: str, name: str) -> None:
    doc = read_document(skill_md)
    if doc.mapping is None:
        raise OperationError(f"{skill_md}: the frontmatter cannot be parsed; fix it first")
    changes = [Change("set", key, name) for key in profile.rename_fields(doc.mapping)]
    text = apply_changes(doc, changes, order=[spec.key for spec in profile.fields])
    atomic_write(skill_md, text.encode("utf-8"), stamp(skill_md))


def _sibling(skill_dir: str, new_name: str) -> str:
    """The folder `new_name` beside `skill_dir`; refuses a bad name or clobbering."""
    if folder_name_problem(new_name) or not SLUG.fullmatch(new_name):
        raise OperationError(f"{new_name!r} is not a valid skill name")
    target = os.path.join(os.path.dirname(os.path.abspath(skill_dir)), new_name)
    if os.path.exists(target):
        raise OperationError(f"{target} already exists")
    return target


def rename_skill(profile: Profile, skill_dir: str, new_name: str) -> str:
    """Rename the folder and the name field together; refuses to clobber."""
    target = _sibling(skill_dir, new_name)
    os.rename(skill_dir, target)
    try:
        _set_name(profile, os.path.join(target, "SKILL.md"), new_name)
    except Exception:
        os.rename(target, skill_dir)  # put the folder back: all or nothing
        raise
    return target


def duplicate_skill(profile: Profile, skill_dir: str, new_name: str) -> str:
    target = _sibling(skill_dir, new_name)
    shutil.copytree(skill_dir, target, symlinks=True)
    try:
        _set_name(profile, os.path.join(target, "SKILL.md"), new_name)
    except Exception:
        shutil.rmtree(target, ignore_errors=True)
        raise
    return target


def trash_dir() -> str | None:
    """The freedesktop.org trash of the user's home, when this system has one."""
    if os.name != "posix":
        return None
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return os.path.join(data, "Trash")


def delete_to_trash(path: str) -> str:
    """Move a skill folder to the trash (freedesktop.org spec); never deletes outright."""
    trash = trash_dir()
    if trash is None:
        raise OperationError("no system trash is available here; nothing was deleted")
    files, info = os.path.join(trash, "files"), os.path.join(trash, "info")
    os.makedirs(files, exist_ok=True)
    os.makedirs(info, exist_ok=True)
    base = os.path.basename(os.path.normpath(path))
    name, counter = base, 1
    while os.path.exists(os.path.join(files, name)) or os.path.exists(
        os.path.join(info, name + ".trashinfo")
    ):
        counter += 1
        name = f"{base}.{counter}"
    when = _dt.datetime.now().strftime("%Y-%m-%dT%H:%M:%S")
    with open(os.path.join(info, name + ".trashinfo"), "w", encoding="utf-8") as fh:
        fh.write(f"[Trash Info]\nPath={quote(os.path.abspath(path))}\nDeletionDate={when}\n")
    try:
        shutil.move(path, os.path.join(files, name))
    except OSError as exc:
        os.remove(os.path.join(info, name + ".trashinfo"))
        raise OperationError(f"cannot move {path} to the trash: {exc.strerror}") from None
    return os.path.join(files, name)
