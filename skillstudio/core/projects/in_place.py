"""The in-place view of a tree (docs/profiles.md, "Two views of one tree"): which
`SKILL.md` files an agent would not load if it ran in the folder opened, why, and
which agents would.

The author's view (`lint`, `list`, `show`, the app's tree) reads every skill under the
path; these notes come from the agents' answers on each skill where it sits
(core/projects/agent_reach.py), so the reason is the agent's own rule ("it reads
.claude/skills …", "a hidden folder it skips") and the agents named as loading them
are those whose answer on every file of the group is "found".
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from ..model.diagnostics import Diagnostic, Severity
from ..model.paths import is_inside
from ..model.skills import Root, Skill
from ..model.text import counted
from ..profiles.agents import AGENTS, AgentSpec
from .agent_reach import agent_reach, project_folders, reach
from .project import Project
from .reach_lookups import Lookups

SHOWN = 5  # skill names a note lists before "and N more"
LINT_TAIL = "lint checks them all the same"


def _group(path: str) -> str:
    """The folder a note names: the one holding the skill folder."""
    return os.path.dirname(os.path.dirname(path))


def in_place_unreached(
    entries: Iterable[tuple[str, str, list[Mapping[str, Any]]]],
    agents: Iterable[str],
    severity: Severity = "info",
) -> list[Diagnostic]:
    """`unreached` notes of the in-place view: for each of `agents` (agent keys), one
    per folder and reason for the skills it does not find where they sit. `entries`:
    (skill path, skill name, every agent's answer as `Reach.to_json()` gives it)."""
    wanted = list(dict.fromkeys(agents))
    groups: dict[tuple[str, str, str], list[tuple[str, list[Mapping[str, Any]]]]] = {}
    titles: dict[str, str] = {}
    for path, name, reaches in entries:
        if os.path.basename(path) != "SKILL.md":
            continue  # a command file: the agents that read SKILL.md files say so elsewhere
        for answer in reaches:
            agent = str(answer["agent"])
            if agent not in wanted or answer["found"]:
                continue
            titles[agent] = str(answer["title"])
            key = (agent, _group(path), str(answer["why"]))
            groups.setdefault(key, []).append((name, reaches))
    out: list[Diagnostic] = []
    for (agent, folder, why), skills in sorted(
        groups.items(), key=lambda item: (wanted.index(item[0][0]), item[0][1], item[0][2])
    ):
        message = _message(titles[agent], why, skills, LINT_TAIL)
        out.append(Diagnostic("unreached", severity, message, folder))
    return out


def loads_none(
    profile: str, skills: Iterable[Skill], base: str, severity: Severity = "info"
) -> list[Diagnostic]:
    """The project's `unreached` note under a profile whose agent loads none of its
    skills where they sit (Codex over a Claude Code project's `.claude/skills`): one
    note on the project's folder, naming the folders the agent reads; none when it
    finds any of them, or when the profile is no agent's with folders (a seed, the
    standard). Asked skill by skill until one is found."""
    # the skills under the folder (not a personal root's); a command file the agent
    # reads is one of its skills too
    files = [skill for skill in skills if is_inside(skill.path, base)]
    agents = [a for a in AGENTS if profile in (a.key, a.profile) and a.discovery != "any"]
    look = Lookups()
    out: list[Diagnostic] = []
    for agent in agents if files else []:
        if any(reach(agent, skill, base, lookups=look).found for skill in files):
            continue
        out.append(
            Diagnostic(
                "unreached",
                severity,
                f"{agent.title} {_none_of(len(files))} here if it runs in the folder "
                f"opened: it {project_folders(agent)}, and none of them holds "
                f"{'it' if len(files) == 1 else 'these skills'}; move or link the skill "
                f"{'folder' if len(files) == 1 else 'folders'} into one of them, or "
                "see which agents load them where they are (Where it loads, `lint "
                f"--profile all`). ({LINT_TAIL}.)",
                base,
            )
        )
    return out


def placement_notes(project: Project, skills: Iterable[Skill]) -> list[Diagnostic]:
    """`loads_none` for a project opened as a folder (searched, or skillstudio.yaml's
    roots): not for roots given with --root nor one skill given, where the user said
    what is read."""
    given = project.reach is None or project.reach.chosen == "--root" or project.files
    if given:
        return []
    profile = project.profile
    return loads_none(profile.name, skills, project.base, profile.severity_of("unreached"))


def _none_of(count: int) -> str:
    if count == 1:
        return "does not load the skill"
    return f"loads none of the {counted(count, 'skill')}"


def in_place_line(agent: AgentSpec, skills: Iterable[Skill], base: str, tail: str) -> str | None:
    """The in-place view for one agent in one line, in the words of the `unreached`
    notes: which of `skills` (the author's view, every skill of the path) `agent` would
    not load if it ran in `base`, why, and which agents would; one sentence per reason,
    whatever the folders. None when it loads them all. `tail`: who counts them anyway
    ("headroom counts them all the same")."""
    look = Lookups()
    groups: dict[str, list[tuple[str, list[Mapping[str, Any]]]]] = {}
    for skill in skills:
        if os.path.basename(skill.path) != "SKILL.md":
            continue
        answer = reach(agent, skill, base, lookups=look)
        if answer.found:
            continue
        reaches: list[Mapping[str, Any]] = [
            r.to_json() for r in agent_reach(skill, base, lookups=look)
        ]
        groups.setdefault(answer.why, []).append((skill.name, reaches))
    if not groups:
        return None
    return " ".join(_message(agent.title, why, group, tail) for why, group in groups.items())


def _message(
    title: str, why: str, skills: list[tuple[str, list[Mapping[str, Any]]]], tail: str
) -> str:
    names = sorted(name for name, _ in skills)
    shown = ", ".join(names[:SHOWN])
    if len(names) > SHOWN:
        shown += f" and {len(names) - SHOWN:,} more"
    verb = "is" if len(names) == 1 else "are"
    text = (
        f"{counted(len(names), 'SKILL.md file')} here {verb} not loaded by {title} if it "
        f"runs in the folder opened ({shown})"
    )
    if why:
        text += f": it {why}" if not why.startswith(("in ", "not ", "deeper")) else f": {why}"
    loaders = _loaders(skills)
    it = "it" if len(names) == 1 else "them"
    if loaders:
        text += f"; {' and '.join(_joined(loaders))} {_verb(loaders)} {it} here"
    else:
        text += (
            f"; no agent with folders of its own loads {it} here: to load {it} in place, "
            "move or link the skill folders into a folder an agent reads"
        )
    return text + f". ({tail}.)"


def _loaders(skills: list[tuple[str, list[Mapping[str, Any]]]]) -> list[str]:
    """The agents (SKILL.md readers with folders: not the standard's `any`) that find
    every skill of the group where it sits."""
    found: list[str] | None = None
    for _, reaches in skills:
        mine = [str(r["agent"]) for r in reaches if r["found"] and r.get("folder")]
        found = mine if found is None else [a for a in found if a in mine]
    return found or []


def _joined(names: list[str]) -> list[str]:
    return [", ".join(names[:-1]), names[-1]] if len(names) > 1 else names


def _verb(names: list[str]) -> str:
    return "loads" if len(names) == 1 else "load"


def roots_in_place(
    agent: AgentSpec, roots: list[Root], skills: list[Skill], base: str
) -> list[Root]:
    """The roots of which `agent` loads any skill if it runs in `base` (its own
    folders, its plugins, a link into them): the in-place set whose listing `headroom`
    measures, not the collections the author's view reads beside them."""
    found = {id(skill.root) for skill in skills if reach(agent, skill, base).found}
    return [root for root in roots if id(root) in found]
