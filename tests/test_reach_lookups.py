"""Issue 38, "`--profile all` ≤ 2 × one `lint`": every agent's answer on every skill
asks the file system and the skill's path once per folder and run
(core/projects/reach_lookups.py), not once per skill and agent, and the answers are
those asked afresh."""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.model.skills import Root, Skill
from skillstudio.core.profiles.agents import AGENTS
from skillstudio.core.projects import reach_lookups
from skillstudio.core.projects.agent_reach import agent_reach
from skillstudio.core.projects.reach_lookups import Lookups
from skillstudio.core.reading.frontmatter import read_document

from .helpers import skill_text, write

PER_CATEGORY = 4


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """User folders in an empty home: no real ~/.claude/skills counts."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    return home


def _skill(path: str) -> Skill:
    folder = os.path.dirname(path)
    return Skill(path=path, root=Root(os.path.dirname(folder), "", 0), doc=read_document(path))


def _tree(tmp_path: Path) -> tuple[Path, list[Skill]]:
    """A catalogue of two categories of PER_CATEGORY skills, a plugin of one skill, a
    skill in `.claude/skills` and one in `.agents/skills`."""
    repo = tmp_path / "repo"
    paths = []
    for category in ("alpha", "beta"):
        for n in range(PER_CATEGORY):
            name = f"{category}-{n}"
            text = skill_text(name=name, description=f"Does {name}. Use when asked.")
            paths.append(write(repo, f"catalogue/{category}/{name}/SKILL.md", text))
    write(repo, "plugins/kit/.claude-plugin/plugin.json", '{"name": "kit"}')
    text = skill_text(name="lint", description="Lints. Use when asked.")
    paths.append(write(repo, "plugins/kit/skills/lint/SKILL.md", text))
    for root in (".claude/skills", ".agents/skills"):
        name = root.split("/")[0].lstrip(".")
        text = skill_text(name=name, description="Own. Use when asked.")
        paths.append(write(repo, f"{root}/{name}/SKILL.md", text))
    return repo, [_skill(p) for p in paths]


def _counting(
    monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, callers: tuple[str, ...] = ()
) -> Counter[tuple[Any, ...]]:
    """Calls of `owner.name` by their arguments (only those made in the modules named
    `callers`, when given)."""
    calls: Counter[tuple[Any, ...]] = Counter()
    real: Callable[..., Any] = getattr(owner, name)

    def counted(*args: Any) -> Any:
        caller = os.path.basename(sys._getframe(1).f_code.co_filename)
        if not callers or caller in callers:
            calls[args] += 1
        return real(*args)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_each_folder_is_walked_once_per_run_not_per_skill_and_agent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, skills = _tree(tmp_path)
    walks = _counting(monkeypatch, reach_lookups, "walk_up")
    look = Lookups()
    for skill in skills:
        agent_reach(skill, str(repo), lookups=look)
    assert walks, "the agents' rules walk the folders above each skill"
    assert max(walks.values()) == 1  # each folder once, whatever the skills and agents
    # at most a skill's folder and the one holding it: far fewer than skills × agents
    assert sum(walks.values()) <= 2 * len(skills) < len(skills) * len(AGENTS)
    # a category's skills share the walk above their folders
    category = os.path.normpath(str(repo / "catalogue" / "alpha"))
    assert walks[(category,)] == 1


def test_each_path_is_stat_ed_once_per_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo, skills = _tree(tmp_path)
    look = Lookups()
    rules = ("agent_reach.py", "reach_lookups.py")  # (not the profiles' own builds)
    asked = {
        name: _counting(monkeypatch, os.path, name, rules)
        for name in ("isfile", "isdir", "lexists", "islink")
    }
    for skill in skills:
        agent_reach(skill, str(repo), lookups=look)
    for name, calls in asked.items():
        repeated = {args[0]: n for args, n in calls.items() if n > 1}
        assert not repeated, f"{name} asked more than once: {repeated}"
    # the plugin's manifest is asked once, though 3 agents read plugins for 13 skills
    manifest = os.path.join(str(repo), "plugins/kit/.claude-plugin/plugin.json")
    assert asked["isfile"][(os.path.normpath(manifest),)] == 1


def test_the_answers_of_a_run_are_those_asked_afresh(tmp_path: Path) -> None:
    repo, skills = _tree(tmp_path)
    os.symlink("../../catalogue/alpha/alpha-0", repo / ".claude/skills/alpha-0")
    look = Lookups()
    shared = [[r.to_json() for r in agent_reach(s, str(repo), lookups=look)] for s in skills]
    fresh = [[r.to_json() for r in agent_reach(s, str(repo))] for s in skills]
    assert shared == fresh
    by_agent = {r["agent"]: r for r in shared[0]}
    assert by_agent["claude-code"]["found"] and by_agent["claude-code"]["via_link"]
    kit = {r["agent"]: r for r in shared[2 * PER_CATEGORY]}
    assert kit["claude-code"]["scope"] == "plugin" and kit["claude-code"]["name"] == "kit:lint"
    assert not {r["agent"]: r for r in shared[-1]}["kiro"]["found"]
