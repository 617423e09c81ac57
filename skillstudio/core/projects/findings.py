"""The findings of an open project: one answer for every reader.

`lint`, `list` and `show`, the language server and the app only filter and format
what these functions return; none assembles diagnostics of its own. A project's
findings are, each made once, where it is made:
- the project's own (core/projects/project.py: its skillstudio.yaml, the search for
  roots), in `Project.diagnostics`;
- the registry's (core/scanning/registry.py): its roots' (what discovery refused or
  left unread), each skill's own (core/checking/validate.py), those between skills
  (duplicate names and who wins, shared triggers, look-alike names) and a refresh's;
- the `description-overlap` notes (core/ranking/overlap.py, one formatter), worked
  out once per version of the registry by the open project (open_project.py);
- the `listing-over-budget` note (core/delivery/headroom.py: the listing the Tiers and
  Headroom views show), one per project, likewise worked out once per version by the
  open project: a note about the whole listing, on the line of skillstudio.yaml that
  sets the budget, else on the project (`OpenProject.listing_place`), never on a skill.
- the `unreached` note of a profile whose agent loads none of the skills where they
  sit (core/projects/in_place.py `loads_none`), one per project, on its folder, worked
  out again by the open project only when the skills' paths change.
The project's rule settings (skillstudio.yaml `rules:`, core/model/rule_settings.py)
are applied where each is made (validation, the registry, the overlap notes), so
every reader, and every list of the registry, already has them.
"""

from __future__ import annotations

import os

from ..model.diagnostics import Diagnostic
from ..model.scan import SKILL_FILE
from ..model.skills import Skill
from ..scanning.registry import Registry
from .open_project import OpenProject, overlap_setting


def project_findings(
    open_project: OpenProject, notes: bool = True, placement: bool = True
) -> list[Diagnostic]:
    """Every finding of the project, in the order made (the reader sorts). `notes=False`
    for a reader that shows no info (list's counts): the overlap notes are left out
    unless the project's rules make them warnings or errors. `placement=False`: not the
    note that the agent loads none of the skills (`lint --profile all` says it folder by
    folder)."""
    registry = open_project.registry
    out = list(open_project.project.diagnostics)
    out += registry.diagnostics
    if _with_overlap(open_project, notes):
        out += open_project.overlap().all
    out += open_project.listing_notes()
    if placement:
        out += open_project.placement_notes()
    return out


def skill_findings(open_project: OpenProject, skill: Skill, notes: bool = True) -> list[Diagnostic]:
    """The findings about one skill, sorted: its own and those between skills (on any
    of its files), those of its project, roots and refresh on its SKILL.md, and its
    overlap note: what `lint` says of it."""
    return sorted(
        _of_skill(open_project, skill, _elsewhere(open_project), notes), key=Diagnostic.sort_key
    )


def every_skill_findings(
    open_project: OpenProject, notes: bool = True
) -> dict[str, list[Diagnostic]]:
    """`skill_findings` of every skill of the registry, by its SKILL.md's path."""
    elsewhere = _elsewhere(open_project)
    return {
        skill.path: sorted(
            _of_skill(open_project, skill, elsewhere, notes), key=Diagnostic.sort_key
        )
        for skill in open_project.registry.skills
    }


def file_findings(
    open_project: OpenProject, path: str, text: str | None = None
) -> list[Diagnostic]:
    """The findings on the file at `path`: for a skill's SKILL.md its own and those
    between skills on that file and its overlap note; for any other file (a
    plugin.json, a skillstudio.yaml, a reference file) what the skills around it found
    in it; and the notes of the project (the listing's on its skillstudio.yaml), its
    roots and the refresh on it. `text`: the editor's unsaved text of a skill, adopted
    first (`OpenProject.edit`)."""
    registry = open_project.registry
    if text is not None and path in registry.by_path:
        open_project.edit(path, text)
    out = [d for d in open_project.project.diagnostics if d.path == path]
    out += [d for d in registry.root_diagnostics if d.path == path]
    out += [d for d in registry.refresh_notes if d.path == path]
    skill = registry.by_path.get(path)
    if skill is not None:
        out += [d for d in skill.all_diagnostics if d.path == path]
        out += open_project.overlap_of(skill)
    else:
        config = open_project.project.config
        if config is not None and config.path == path:  # (a skill's keystroke: not asked)
            out += [d for d in open_project.listing_notes() if d.path == path]
        for around in skills_around(registry, path):
            out += [d for d in around.all_diagnostics if d.path == path]
    return out


def skills_around(registry: Registry, path: str) -> list[Skill]:
    """The skills whose folders hold `path` (looked up folder by folder, upwards: a
    keystroke in a skill's reference file walks no list of 10,000 skills)."""
    out: list[Skill] = []
    folder = os.path.dirname(path)
    while True:
        skill = registry.by_path.get(os.path.join(folder, SKILL_FILE))
        if skill is not None:
            out.append(skill)
        up = os.path.dirname(folder)
        if up == folder:
            return out
        folder = up


def _with_overlap(open_project: OpenProject, notes: bool) -> bool:
    return notes or overlap_setting(open_project.registry) in ("warning", "error")


def _elsewhere(open_project: OpenProject) -> dict[str, list[Diagnostic]]:
    """The project's, roots' and refresh's findings by path (few: looked up per skill)."""
    registry = open_project.registry
    out: dict[str, list[Diagnostic]] = {}
    for found in (open_project.project.diagnostics, registry.root_diagnostics):
        for diagnostic in found:
            out.setdefault(diagnostic.path, []).append(diagnostic)
    for diagnostic in registry.refresh_notes:
        out.setdefault(diagnostic.path, []).append(diagnostic)
    return out


def _of_skill(
    open_project: OpenProject,
    skill: Skill,
    elsewhere: dict[str, list[Diagnostic]],
    notes: bool,
) -> list[Diagnostic]:
    out = [*elsewhere.get(skill.path, ()), *skill.all_diagnostics]
    if _with_overlap(open_project, notes):  # (the project's notes: lint's, to the letter)
        out += open_project.overlap().by_path.get(skill.path, [])
    return out
