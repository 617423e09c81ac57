"""Who wins each name among the skills of a registry: shadowing by discovery order and
root precedence, collections that do not shadow each other, profiles where nothing
shadows (Codex); each loser and each shared name gets its note."""

from __future__ import annotations

import os

from ..model.diagnostics import Diagnostic
from ..model.skills import Skill
from ..profile import Profile


def resolve_winners(skills: list[Skill], profile: Profile) -> dict[str, Skill]:
    """The active skills by key: among skills of one name, the later discovered (a
    higher root) wins; the others are shadowed, each with a note. Resets and fills
    each skill's `cross` findings, `winner` and status."""
    winners: dict[str, Skill] = {}
    for skill in skills:
        if skill.cross:  # (an empty one stays: 10,000 fewer lists made per change)
            skill.cross = []
        skill.winner = None
        if skill.status == "shadowed":
            skill.status = "disabled" if profile.disabled_reason(skill) else "active"
    if not profile.shadows:  # nothing hides anything: no collection needs a qualifier
        return _resolve_unshadowed(skills, profile)
    _qualify(skills, profile)
    for skill in skills:
        if skill.key is None:
            continue
        previous = winners.get(skill.key)
        winners[skill.key] = skill
        if previous is None:
            continue
        previous.status = "shadowed"
        previous.winner = skill.path
        if previous.root.path == skill.root.path:
            sev = profile.severity_of("duplicate-name")
            previous.cross.append(
                Diagnostic(
                    "duplicate-name",
                    sev,
                    f"Another skill named '{skill.key}' ({skill.path}) is discovered later "
                    "and wins; this one is ignored. Rename one of them.",
                    previous.path,
                    *previous.doc.value_position(profile.key_field),
                    profile.key_field,
                    previous.name,
                )
            )
            skill.cross.append(
                Diagnostic(
                    "duplicate-name",
                    sev,
                    f"'{skill.key}' is also the name of {previous.path}; this one wins "
                    "because it is discovered later.",
                    skill.path,
                    *skill.doc.value_position(profile.key_field),
                    profile.key_field,
                    skill.name,
                )
            )
        else:
            previous.cross.append(
                Diagnostic(
                    "shadowed",
                    profile.severity_of("shadowed"),
                    f"Shadowed by '{skill.key}' in the {skill.root.label} root "
                    f"({skill.path}), which has higher precedence.",
                    previous.path,
                    1,
                    1,
                    None,
                    previous.name,
                )
            )
    return {k: s for k, s in winners.items() if s.status == "active"}


def _qualify(skills: list[Skill], profile: Profile) -> None:
    """A name used in more than one collection of a repository: those skills do not
    shadow each other; each is known as `<collection>:<name>` (as Claude Code names
    plugin skills), with a `duplicate-name` note naming the others."""
    collections: dict[str, dict[str, list[Skill]]] = {}
    several = len({skill.root.collection for skill in skills}) > 1
    for skill in skills:
        if skill.qualifier and skill.key is not None:
            skill.key = skill.key[len(skill.qualifier) + 1 :]
        skill.qualifier = ""
        if several and skill.key is not None:  # (one collection: no name to qualify)
            collections.setdefault(skill.key, {}).setdefault(skill.root.collection, []).append(
                skill
            )
    for key, by_collection in collections.items():
        if len(by_collection) < 2:
            continue
        for collection, skills in by_collection.items():
            others = [
                s.path for c, group in by_collection.items() if c != collection for s in group
            ]
            for skill in skills:
                if collection:
                    skill.qualifier = collection
                    skill.key = f"{collection}:{key}"
                skill.cross.append(
                    Diagnostic(
                        "duplicate-name",
                        "info",
                        f"'{key}' is also the name of a skill in another collection "
                        f"({', '.join(others)}). Separate collections do not shadow each "
                        f"other: this one is known here as '{skill.key}'.",
                        skill.path,
                        *skill.doc.value_position(profile.key_field),
                        profile.key_field,
                        skill.name,
                    )
                )


def _resolve_unshadowed(skills: list[Skill], profile: Profile) -> dict[str, Skill]:
    """Every skill stays loaded (Codex): a name held by one skill is its key in
    `active`; skills sharing a name are there by path only, so that looking the
    name up finds none of them (an ambiguous name selects nothing)."""
    groups: dict[str, list[Skill]] = {}
    for skill in skills:
        if skill.key is not None:
            groups.setdefault(skill.key, []).append(skill)
    active: dict[str, Skill] = {}
    severity = profile.severity_of("duplicate-name")
    for key, group in groups.items():
        if len(group) == 1:
            if group[0].status == "active":
                active[key] = group[0]
            continue
        for skill in group:
            if skill.status == "active":
                active[skill.path] = skill
            others = [o.path for o in group if o is not skill]
            skill.cross.append(
                Diagnostic(
                    "duplicate-name",
                    severity,
                    profile.duplicate_message(key, others),
                    skill.path,
                    *skill.doc.value_position(profile.key_field),
                    profile.key_field,
                    skill.name,
                )
            )
    return active


def own_beside(skills: list[Skill], profile: Profile) -> dict[str, Skill]:
    """The agent's own skills the listing holds beside `skills` (Claude Code's bundled
    skills, Codex's system skills: `Profile.agent_skills`), by name; none where the
    agent's own folder is read itself (the listing then holds the files read)."""
    try:
        own = {s.name: s for s in profile.agent_skills(profile.own_options)}
    except Exception:  # a nicety: its failure hides no other finding
        return {}
    paths = {os.path.normpath(s.path) for s in own.values()}
    if own and any(os.path.normpath(skill.path) in paths for skill in skills):
        return {}
    return own


def own_name_notes(skills: list[Skill], profile: Profile) -> None:
    """An active skill of the author's named as one of the agent's own (`own_beside`):
    a `duplicate-name` note saying what the agent does with the two
    (`Profile.own_duplicate_message`)."""
    own = own_beside(skills, profile)
    if not own:
        return
    severity = profile.own_clash_severity or profile.severity_of("duplicate-name")
    for skill in skills:
        theirs = own.get(skill.name)
        if theirs is None or skill.status != "active":
            continue
        skill.cross.append(
            Diagnostic(
                "duplicate-name",
                severity,
                profile.own_duplicate_message(skill.name, theirs),
                skill.path,
                *skill.doc.value_position(profile.key_field),
                profile.key_field,
                skill.name,
            )
        )
