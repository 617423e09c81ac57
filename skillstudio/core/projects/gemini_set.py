"""The skills Gemini CLI lists for a folder, read from its folders (its scopes:
core/profiles/gemini/listing.py), and the size of its listing for `headroom`: Gemini
CLI has no budget, so its row says what the skills section and the `activate_skill`
declaration take, every skill whole.

The folders are read as the `agentskills` profile reads a root (bounded, confined); the
frontmatter is taken as Gemini CLI takes it (a string `name` and `description`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable

from ..delivery.headroom import DescriptionCost, Headroom
from ..model.paths import is_within
from ..model.scan import SKILL_FILE
from ..model.skills import Root, Skill
from ..model.text import counted
from ..profiles import get_profile
from ..profiles.gemini.listing import (
    GeminiSkill,
    activate_skill_declaration,
    from_frontmatter,
    loaded,
    skill_entry,
    skills_section,
)
from .project import Project

# (folder below the base or the home, scope), in Gemini CLI's order of discovery
USER_ROOTS = ((".gemini/skills", "user"), (".agents/skills", "user-agents"))
WORKSPACE_ROOTS = ((".gemini/skills", "workspace"), (".agents/skills", "workspace-agents"))
# installed extensions (the user's and the workspace's), each `<ext>/gemini-extension.json`
EXTENSIONS = os.path.join(".gemini", "extensions")
MANIFEST = "gemini-extension.json"
MAX_EXTENSIONS = 200


def gemini_roots(folder: str, home: str | None = None) -> list[tuple[str, str]]:
    """(root, scope) of the folders Gemini CLI reads for a workspace `folder`, those that
    exist, lowest precedence first (the user's under `home`, default the user's home):
    the `skills/` of each extension installed (`<home or folder>/.gemini/extensions/<ext>`
    holding `gemini-extension.json`), the user's folders, then the workspace's."""
    home = home if home is not None else os.path.expanduser("~")
    pairs = [
        (os.path.join(ext, "skills"), "extension")
        for base in (home, folder)
        for ext in _extensions(os.path.join(base, EXTENSIONS))
    ]
    pairs += [(os.path.join(home, rel), scope) for rel, scope in USER_ROOTS]
    pairs += [(os.path.join(folder, rel), scope) for rel, scope in WORKSPACE_ROOTS]
    return [(os.path.normpath(p), scope) for p, scope in pairs if os.path.isdir(p)]


def _extensions(folder: str) -> list[str]:
    """The extension folders in `folder` (each holding gemini-extension.json), sorted,
    at most MAX_EXTENSIONS; none when it cannot be listed."""
    try:
        with os.scandir(folder) as it:
            subs = sorted(e.path for e in it if e.is_dir(follow_symlinks=False))
    except OSError:
        return []
    return [s for s in subs[:MAX_EXTENSIONS] if os.path.isfile(os.path.join(s, MANIFEST))]


def gemini_skills(
    folder: str, home: str | None = None, also: Iterable[Skill] = ()
) -> list[GeminiSkill]:
    """The skills of `folder` (and the user's) Gemini CLI loads, in its order, its
    built-in skill first. `also`: the author's view of the folder (every SKILL.md of
    the path, as `headroom` counts for the other agents), those Gemini CLI would not
    load where they sit taken as the workspace's, as if installed there."""
    folder = os.path.abspath(folder)
    pairs = gemini_roots(folder, home)
    roots = [
        Root(path, scope, n, base=folder if is_within(path, folder) else "")
        for n, (path, scope) in enumerate(pairs)
    ]
    registry = Project(get_profile("agentskills"), roots, folder).registry(gists=False)
    registry.scan()
    found = []
    for skill in sorted(registry.skills, key=lambda s: (s.root.precedence, s.path)):
        entry = from_frontmatter(skill.doc.mapping, os.path.abspath(skill.path), skill.root.label)
        if entry is not None:
            found.append(entry)
    seen = {entry.location for entry in found}
    for skill in also:
        location = os.path.abspath(skill.path)
        if os.path.basename(location) != SKILL_FILE or location in seen:
            continue
        entry = from_frontmatter(skill.doc.mapping, location, "workspace")
        if entry is not None:
            found.append(entry)
    return loaded(found)


def gemini_headroom(folder: str, home: str | None = None, also: Iterable[Skill] = ()) -> Headroom:
    """Gemini CLI's listing of `folder` (with `also`: see gemini_skills) as a headroom
    row: no budget, `needed` and `used` the characters of its skills section; the note
    says what the tool declaration adds."""
    skills = gemini_skills(folder, home, also)
    section = skills_section(skills)
    costs = sorted(
        (
            DescriptionCost(
                s.name,
                len(skill_entry(s)) - len(skill_entry(GeminiSkill(s.name, "", s.location))),
                len(s.description),
                own=s.builtin,
            )
            for s in skills
        ),
        key=lambda c: (-c.chars, -c.description, c.skill),
    )
    names = [s.name for s in skills]
    tool = json.dumps(activate_skill_declaration(names), ensure_ascii=False)
    own = [s.name for s in skills if s.builtin]
    return Headroom(
        profile="gemini",
        budget=None,
        needed=len(section),
        used=len(section),
        skills=len(skills) - len(own),
        listed=names,
        costs=costs,
        agent_skills=own,
        note=(
            f"No budget: every skill is listed whole. The {len(section):,}-character skills "
            f"section of the system prompt, and activate_skill's declaration "
            f"({counted(len(tool), 'character')} of JSON: every name in its enum and its "
            "hint)."
        ),
    )
