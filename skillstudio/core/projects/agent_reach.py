"""Portability per agent: which agents find a skill where it sits, from which folder and
scope, under which name, which of its fields each ignores and which limits it breaks
(`lint --profile all`, `show`; the agents are data: core/profiles/agents.py).

An agent finds a `SKILL.md` when its folder sits in one of the agent's roots as the
agent discovers them (`<root>/<folder>/SKILL.md`, or below the root for a recursive
reader), when a link makes it appear there (`.claude/skills/x -> ../../.agents/skills/x`:
the file reached through the agent's root is the same file), or in a plugin the agent
reads. Reads only what it must: a few `stat` calls per folder, asked once per run
(core/projects/reach_lookups.py), nothing opened but the marketplaces.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from ..checking.validate import validate_skill
from ..editing.skill_ops import NewSkillPlace
from ..model.paths import is_within
from ..model.skills import Skill
from ..model.text import counted
from ..profiles import PROFILE_NAMES, get_profile
from ..profiles.agents import AGENT_KEYS, AGENTS, AgentSpec, RootRule
from ..profiles.claude_code import plugins
from ..scanning.loading import build_skill
from .reach_lookups import Lookups, ends_with, path_parts

PLUGIN_LEVELS = 8  # folders looked at above a skill for its plugin or marketplace
_STANDARD = frozenset(a.key for a in AGENTS if a.discovery == "any")  # no folders: a format


@dataclass(slots=True)
class Reach:
    """How one agent takes one skill."""

    agent: str
    title: str
    found: bool
    folder: str | None = None  # the agent's root that holds it (as the agent names it)
    scope: str | None = None  # project, user, admin, system, plugin, extension
    via_link: bool = False  # found through a link (the same file under another path)
    name: str | None = None
    ignored: list[str] = field(default_factory=list)
    limits: list[str] = field(default_factory=list)
    why: str = ""  # when not found
    unconfirmed: bool = False  # where it is found rests on a root not confirmed (docs/agents.md)
    reads_unconfirmed: bool = False  # which fields it reads is not confirmed

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "title": self.title,
            "found": self.found,
            "folder": self.folder,
            "scope": self.scope,
            "via_link": self.via_link,
            "name": self.name,
            "ignored": self.ignored,
            "limits": self.limits,
            "why": self.why,
            "unconfirmed": self.unconfirmed,
            "reads_unconfirmed": self.reads_unconfirmed,
        }


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _hidden_below(path: str, root: str) -> bool:
    rel = os.path.relpath(path, root)
    return any(part.startswith(".") for part in path_parts(rel)[:-1])


def _depth_below(path: str, root: str) -> int:
    """Folders between `root` and the file at `path` (1 for `<root>/<folder>/SKILL.md`)."""
    return len(path_parts(os.path.relpath(path, root))) - 1


def _in_root(agent: AgentSpec, path: str, root: str) -> str | None:
    """'' when the agent's discovery reaches `path` under `root` (not resolved), else
    why not (None when `path` is not under `root` at all)."""
    if not is_within(path, root) or path == root:
        return None
    depth = _depth_below(path, root)
    if agent.discovery == "recursive":
        if agent.skips_hidden and _hidden_below(path, root):
            return "in a hidden folder it skips"
        if depth > agent.max_depth:
            return f"deeper than the {agent.max_depth} levels it reads"
        return ""
    return "" if depth == 1 else "not directly in a skill folder of its root"


def _locate(
    agent: AgentSpec, path: str, base: str | None, look: Lookups
) -> tuple[RootRule | None, str | None, bool, str]:
    """(the rule, the root folder, via a link, why not): where the agent finds `path`."""
    folder = os.path.dirname(path)
    parent, name = os.path.split(folder)
    real = ""  # (resolved only where a root is a link)
    near = ""
    for rule in agent.roots:
        if rule.scope == "project":
            roots = []
            for a in look.ending_with(parent, rule.path):
                if _runs_at(agent, _owner(a, rule.path), base, look):
                    roots.append(a)
                elif _in_root(agent, path, a) == "":
                    where = _owner(a, rule.path)
                    near = near or (
                        f"reads {rule.path} only in the folder it runs in, not in folders "
                        f"below it (run it in {os.path.basename(where) or where})"
                    )
            if base is not None:
                roots.append(look.inside(base, rule.path))
        else:
            home = look.user_root(rule)
            roots = [home] if home else []
        for root in dict.fromkeys(roots):
            # (both normalised: a root `path` does not start with holds no part of it)
            why = _in_root(agent, path, root) if path.startswith(root) else None
            if why == "":
                return rule, root, False, ""
            if why:
                near = near or f"{why} ({rule.path})"
                continue
            # a link: the agent's root, or a folder in it, leads to the same file
            if agent.discovery == "children":
                if not look.isdir(root):  # (no link in a missing root)
                    continue
                alias = os.path.join(root, name, "SKILL.md")
                if look.lexists(alias) and _same_file(alias, path):
                    return rule, root, True, ""
            elif look.isdir(root):
                real = real or os.path.realpath(path)
                real_root = os.path.realpath(root)
                if is_within(real, real_root) and _in_root(agent, real, real_root) == "":
                    return rule, root, True, ""
                if _linked_into(agent, path, root, look):
                    return rule, root, True, ""
    return None, None, False, near


def _owner(root: str, rule_path: str) -> str:
    """The folder a project root belongs to (`/repo` of `/repo/.gemini/skills`)."""
    for _ in path_parts(rule_path):
        root = os.path.dirname(root)
    return root


def _runs_at(agent: AgentSpec, owner: str, base: str | None, look: Lookups) -> bool:
    """Whether the agent, run at `base`, reads the project root of the folder `owner`:
    its own (or one above it, when the path given lies inside that root); a root in a
    folder below `base` (`tools/x/.gemini/skills`) only for an agent that reads nested
    folders."""
    if base is None or agent.nested:
        return True
    return is_within(look.base(base), owner)


def _extension_of(agent: AgentSpec, path: str, look: Lookups) -> str | None:
    """The extension folder holding the skill at `path` (`<ext>/skills/<s>/SKILL.md`
    beside `<ext>/gemini-extension.json`), when the agent reads extensions."""
    skills = os.path.dirname(os.path.dirname(path))
    if not agent.extension_manifests or os.path.basename(skills) != "skills":
        return None
    extension = os.path.dirname(skills)
    if any(look.isfile(os.path.join(extension, m)) for m in agent.extension_manifests):
        return extension
    return None


def _linked_into(agent: AgentSpec, path: str, root: str, look: Lookups) -> bool:
    """Whether a link in `root` leads to a folder holding `path` (`.codex/skills/a ->
    ../../skills/a`), so that a recursive reader finds the file through it."""
    folder = os.path.dirname(path)
    for above in look.ancestors(folder)[: agent.max_depth or 1]:
        alias = os.path.join(root, os.path.basename(above))
        if look.islink(alias) and _same_file(alias, above):
            return _in_root(agent, os.path.join(alias, os.path.relpath(path, above)), root) == ""
    return False


def _plugin_of(
    agent: AgentSpec, path: str, base: str | None, why: list[str], look: Lookups
) -> tuple[str, str] | None:
    """(plugin folder, plugin name) of the plugin holding the skill at `path`, when the
    agent reads plugins: a marketplace entry whose `skills` name its folder (read as a
    manifest of its own), else the nearest plugin manifest above it, whose `skills`
    paths decide (without them: `<plugin>/skills/<s>/SKILL.md` or a `SKILL.md` at the
    plugin's root). A manifest that decides, and leaves the skill out, says so in `why`."""
    if not agent.plugin_manifests:
        return None
    folder = os.path.dirname(path)
    for above, markets in _levels(agent, folder, base, look):
        for mark, entries in markets:
            for entry in entries:
                if _declared(
                    folder, entry.folder, entry.manifest.skill_dirs, entry.declares("skills")
                ):
                    return entry.folder, entry.name
            if any(e.declares("skills") and is_within(folder, e.folder) for e in entries):
                why.append(
                    f"the entries of {mark}/marketplace.json name their skills, not this one"
                )
        for mark in agent.plugin_manifests:
            kind = look.manifest_kind(above, mark)
            if kind == "plugin":
                declared = plugins.declared_skills(above, mark)
                if declared is not None and agent.manifest_skills == "replace":
                    if folder in declared or os.path.dirname(folder) in declared:
                        return above, _plugin_name(above, mark)
                    why.append(_left_out(mark, above, declared))  # they replace skills/
                    return None
                if not _declared(folder, above, declared or [], declared is not None):
                    if declared is not None:
                        why.append(_left_out(mark, above, declared))
                    return None
                return above, _plugin_name(above, mark)
            if kind == "folder":
                if _declared(folder, above, [], False):
                    return above, os.path.basename(above)
                return None
    return None


def _left_out(mark: str, plugin: str, declared: list[str]) -> str:
    named = ", ".join("./" + os.path.relpath(d, plugin) for d in declared[:3]) or "nothing"
    return f"its plugin's {mark}/plugin.json names its skills ({named}), not this folder"


def _entry_command(
    agent: AgentSpec, path: str, base: str | None, look: Lookups
) -> tuple[str, str] | None:
    """(plugin folder, plugin name) of a marketplace entry whose `commands` name the
    command file at `path` (the file, or a folder holding it)."""
    for _above, markets in _levels(agent, os.path.dirname(path), base, look):
        for _mark, entries in markets:
            for entry in entries:
                if any(is_within(path, p) for p in entry.manifest.command_paths):
                    return entry.folder, entry.name
    return None


def _levels(
    agent: AgentSpec, folder: str, base: str | None, look: Lookups
) -> Iterator[tuple[str, list[tuple[str, list[plugins.Entry]]]]]:
    """The folders above `folder` where a plugin or marketplace may be (nearest first,
    within the folder opened), each with the entries of the agent's marketplaces it
    holds (a marketplace's mark, its entries)."""
    for above in look.ancestors(folder)[:PLUGIN_LEVELS]:
        if base is not None and not look.related(above, base):
            break
        markets: list[tuple[str, list[plugins.Entry]]] = []
        for mark in agent.marketplaces:
            if _market_here(above, mark, base, look):
                market = look.marketplace(above)
                markets.append((mark, market.entries if market is not None else []))
        yield above, markets


def _market_here(folder: str, mark: str, base: str | None, look: Lookups) -> bool:
    """Whether `folder` holds a marketplace to read: only inside the folder opened
    (`base`), whose files may be read (one above it is not opened)."""
    inside = base is None or look.related(folder, look.base(base), below=True)
    return inside and look.has_marketplace(folder, mark)


def _declared(folder: str, plugin: str, dirs: list[str], decides: bool) -> bool:
    """Whether a plugin's manifest makes the skill folder `folder` one of its skills:
    its own `SKILL.md`, one in `skills/`, or one its `skills` paths name (a skill folder,
    or a folder of skill folders)."""
    if folder == plugin or os.path.dirname(folder) == os.path.join(plugin, "skills"):
        return True
    return decides and (folder in dirs or os.path.dirname(folder) in dirs)


def _plugin_name(plugin: str, mark: str) -> str:
    """A plugin's name from its manifest (`name`), else its folder's name."""
    if mark == plugins.MANIFEST_DIR:
        return plugins.plugin_name(plugin)
    manifest = plugins.read_manifest(os.path.join(plugin, mark, "plugin.json"), plugin)
    if manifest is not None and manifest.data is not None and not manifest.left_out("name"):
        name = manifest.data.get("name")
        if isinstance(name, str) and name.strip():
            return name.strip()
    return os.path.basename(plugin)


def _command_rule(agent: AgentSpec, path: str) -> RootRule | None:
    folder = os.path.dirname(path)
    for rule in agent.command_roots:
        if ends_with(folder, rule.path) and path.endswith(".md"):
            return rule
    return None


def _plain_name(agent: AgentSpec, skill: Skill) -> str:
    raw = skill.raw.get("name")
    written = " ".join(raw.split()) if isinstance(raw, str) and raw.strip() else ""
    if agent.name_rule == "folder":
        return skill.folder_name
    return written or skill.folder_name


def _text(skill: Skill, key: str) -> str | None:
    value = skill.raw.get(key)
    return " ".join(value.split()) if isinstance(value, str) else None


def limits_broken(agent: AgentSpec, skill: Skill) -> list[str]:
    """The agent's documented limits the skill's frontmatter breaks, in short phrases."""
    out: list[str] = []
    name = _text(skill, "name")
    if name is None and agent.name_rule == "field-equals-folder":
        out.append("no name")
    if name is not None:
        if agent.name_max is not None and len(name) > agent.name_max:
            out.append(f"name over {counted(agent.name_max, 'character')} ({len(name):,})")
        if agent.name_pattern and not re.fullmatch(agent.name_pattern, name):
            out.append("name not lowercase letters, digits and single hyphens")
        if agent.name_rule == "field-equals-folder" and name != skill.folder_name:
            out.append(f"name differs from its folder `{skill.folder_name}`")
    desc = _text(skill, "description")
    if agent.description_required and not desc:
        out.append("no description")
    if desc and agent.description_max is not None and len(desc) > agent.description_max:
        effect = "cut" if agent.description_over == "cut" else "refused"
        over = counted(agent.description_max, "character")
        out.append(f"description over {over} ({len(desc):,}, {effect})")
    compat = _text(skill, "compatibility")
    if compat and agent.compatibility_max is not None and len(compat) > agent.compatibility_max:
        out.append(
            f"compatibility over {counted(agent.compatibility_max, 'character')} ({len(compat):,})"
        )
    return out


class _Profiled:
    """The skill as each full profile reads it, built once per profile."""

    def __init__(self, skill: Skill, built: dict[str, Skill] | None = None) -> None:
        self.skill = skill
        self.built: dict[str, Skill] = {} if built is None else built

    def get(self, name: str) -> Skill | None:
        if name not in PROFILE_NAMES:
            return None
        if name not in self.built:
            skill = self.skill
            self.built[name] = build_skill(
                skill.root,
                skill.path,
                (skill.mtime_ns, skill.size),
                get_profile(name),
                True,
                lambda: skill.doc,
                validate_skill,
                gist=False,  # (a reach reads the name, not the gist)
            )
        return self.built[name]


def _ignored(agent: AgentSpec, skill: Skill, profiled: _Profiled) -> list[str]:
    keys = [str(k) for k in skill.raw]
    if agent.reads is not None:
        return [k for k in keys if k not in agent.reads]
    if agent.profile is not None and agent.profile in PROFILE_NAMES:
        profile = get_profile(agent.profile)
        return [k for k in keys if profile.field(k) is None]
    return []


def project_folders(agent: AgentSpec) -> str:
    """The folders of a project `agent` reads skills from, in words ("reads
    .agents/skills, .codex/skills, plugins")."""
    read = [r.path for r in agent.roots + agent.command_roots if r.scope == "project"]
    if agent.plugin_manifests:  # and the skills of the plugins it reads
        read.append("plugins")
    folders = ", ".join(dict.fromkeys(read))
    return f"reads {folders}" if folders else "reads no project folder"


def reach(agent: AgentSpec, skill: Skill, base: str | None = None, **cache: Any) -> Reach:
    """How `agent` takes `skill` (read as it is: nothing is opened). `cache`: `profiled`
    (the skill as each profile built it), `lookups` (the run's Lookups), `path` (the
    skill's, absolute and normalised)."""
    profiled: _Profiled = cache.get("profiled") or _Profiled(skill)
    look: Lookups = cache.get("lookups") or Lookups()
    out = Reach(agent.key, agent.title, False)
    path = cache.get("path") or os.path.normpath(os.path.abspath(skill.path))
    plugin = None
    if os.path.basename(path) != "SKILL.md":
        rule = _command_rule(agent, path)
        stem = os.path.splitext(os.path.basename(path))[0]
        if rule is None and (plugin := _entry_command(agent, path, base, look)) is not None:
            out.found, out.scope, out.folder = True, "plugin", os.path.basename(plugin[0])
            out.name = f"{plugin[1]}:{stem}"
        elif rule is None:
            out.why = "not a SKILL.md"
            return out
        else:
            out.found, out.folder, out.scope = True, rule.path, rule.scope
            out.name = stem
    elif agent.discovery == "any":
        out.found = True
    else:
        left: list[str] = []
        rule, link, near, plugin, extension = _finding(agent, path, base, look, left)
        if plugin is not None:
            out.found, out.scope = True, "plugin"
            out.folder = os.path.basename(plugin[0])
        elif extension is not None:
            out.found, out.scope = True, "extension"
            out.folder = os.path.basename(extension)
            out.unconfirmed = "extension_manifests" in agent.unconfirmed
        elif rule is None:
            out.why = near or (left[0] if left else "") or project_folders(agent)
            out.unconfirmed = any(not r.confirmed for r in agent.roots)
            out.limits = limits_broken(agent, skill)  # what it would meet, moved there
            return out
        else:
            out.found, out.folder, out.scope, out.via_link = True, rule.path, rule.scope, link
            out.unconfirmed = not rule.confirmed
    built = profiled.get(agent.profile) if agent.profile else None
    if out.name is None:
        if built is not None and built.name:
            out.name = built.name
        else:
            out.name = _plain_name(agent, skill)
        if plugin is not None and not out.name.startswith(plugin[1] + ":"):
            out.name = f"{plugin[1]}:{out.name.rsplit(':', 1)[-1]}"
    out.ignored = _ignored(agent, skill, profiled)
    out.limits = limits_broken(agent, skill)
    out.reads_unconfirmed = "reads" in agent.unconfirmed
    return out


Finding = tuple[RootRule | None, bool, str, tuple[str, str] | None, str | None]


def _finding(
    agent: AgentSpec, path: str, base: str | None, look: Lookups, left: list[str]
) -> Finding:
    """(the root rule, via a link, why not near one, the plugin, the extension): where
    `agent` finds the SKILL.md at `path`, first by its roots, then as a plugin's skill,
    then as an extension's (`left`: why a plugin's manifest leaves it out)."""
    rule, _, link, near = _locate(agent, path, base, look)
    if rule is not None:
        return rule, link, near, None, None
    plugin = _plugin_of(agent, path, base, left, look)
    if plugin is not None:
        return None, False, near, plugin, None
    return None, False, near, None, _extension_of(agent, path, look)


NEW_FOLDER = "new-skill"  # the folder name a skill not made yet is looked up under


def agents_loading(
    folder: str,
    base: str | None = None,
    agents: Iterable[AgentSpec] = AGENTS,
    lookups: Lookups | None = None,
) -> list[str]:
    """The agents that would load a skill folder made in `folder` (File › New Skill's
    places), by the rules `reach` answers Where it loads and `show` with; the standard
    (which names no folder) is left out."""
    look = lookups or Lookups()
    path = os.path.normpath(os.path.join(os.path.abspath(folder), NEW_FOLDER, "SKILL.md"))
    found = []
    for agent in agents:
        if agent.discovery == "any":
            continue
        rule, _, _, plugin, extension = _finding(agent, path, base, look, [])
        if rule is not None or plugin is not None or extension is not None:
            found.append(agent.key)
    return found


def place_loaders(places: Iterable[NewSkillPlace]) -> list[NewSkillPlace]:
    """File › New Skill's places, each naming the agents that load a skill made there
    (`agents_loading`): a profile that is no agent's row (a seed) loads its roots
    itself and is named first."""
    look = Lookups()
    out = []
    for place in places:
        found = agents_loading(place.folder, place.root.base or None, lookups=look)
        own = [] if place.profile.name in AGENT_KEYS else [place.profile.name]
        out.append(replace(place, agents=tuple(own + found)))
    return out


def agent_reach(
    skill: Skill,
    base: str | None = None,
    agents: Iterable[AgentSpec] = AGENTS,
    built: dict[str, Skill] | None = None,
    lookups: Lookups | None = None,
) -> list[Reach]:
    """Every agent's answer on the skill, in the order of core/profiles/agents.py
    (`built`: the skill as profiles built it already, by name: `portability`'s;
    `lookups`: the run's, shared by every skill it answers for)."""
    profiled = _Profiled(skill, built)
    look = lookups or Lookups()
    path = os.path.normpath(os.path.abspath(skill.path))
    return [
        reach(agent, skill, base, profiled=profiled, lookups=look, path=path) for agent in agents
    ]


def reach_summary(reaches: list[Reach]) -> str:
    """'found by copilot (.claude/skills), …; not by gemini, …; opencode ignores …'."""
    found = [
        f"{r.agent} ({r.folder}{', link' if r.via_link else ''})" if r.folder else r.agent
        for r in reaches
        if r.found
    ]
    missed = [r.agent for r in reaches if not r.found]
    parts = [f"found by {', '.join(found)}" if found else "no agent finds it here"]
    if missed:
        parts.append(f"not by {', '.join(missed)}")
    for r in reaches:
        if not r.found:
            continue
        notes = []
        if r.ignored and r.agent not in _STANDARD:  # the standard's own verdict says it
            notes.append("ignores " + ", ".join(f"`{k}`" for k in r.ignored[:4]))
            if len(r.ignored) > 4:
                notes[-1] += f" and {len(r.ignored) - 4} more"
        notes += r.limits
        if notes:
            parts.append(f"{r.agent}: {', '.join(notes)}")
    return "; ".join(parts)


def reach_line(r: Reach) -> str:
    """One agent's answer on one line (`show`)."""
    if not r.found:
        return f"{r.agent}: not found ({r.why})" if r.why else f"{r.agent}: not found"
    where = f" in {r.folder} ({r.scope}{', through a link' if r.via_link else ''})"
    text = f"{r.agent}: found{where if r.folder else ''} as {r.name}"
    if r.unconfirmed:
        text += " (folder unconfirmed)"
    if r.ignored:
        text += "; ignores " + ", ".join(f"`{k}`" for k in r.ignored)
        text += " (unconfirmed)" if r.reads_unconfirmed else ""
    if r.limits:
        text += "; " + ", ".join(r.limits)
    return text
