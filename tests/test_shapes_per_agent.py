"""Issue 27, "Done when": a fixture per repository shape, each with the skills every
agent finds (`lint --profile all`: every SKILL.md under the path, read by the detected
profile or not, with each agent's answer; core/profiles/agents.py, docs/agents.md).

The expected sets come from each agent's documented folders: `.agents/skills` is read
by Codex, Copilot, Cursor, Gemini CLI, OpenCode, Goose, Amp, Windsurf and Letta;
`.claude/skills` by Claude Code, Copilot, Cursor, OpenCode, Goose and Amp;
`.codex/skills` by Codex and Cursor; a catalogue folder by none (the standard, which
names no folder, finds every file)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.profiles.agents import AGENT_KEYS

from .helpers import cli, write
from .test_every_skill import catalogue, linked_monorepo, skill

AGENTS_SKILLS = {"codex", "copilot", "cursor", "gemini", "opencode", "goose", "amp"}
AGENTS_SKILLS |= {"windsurf", "letta"}


def found_per_agent(path: Path) -> dict[str, list[str]]:
    """agent -> the skill folders it finds, from `lint --profile all`."""
    run = cli("lint", "--profile", "all", "--format", "json", str(path), cwd=path.parent)
    assert run.code in (0, 1), run.err
    data: dict[str, Any] = run.json
    out: dict[str, list[str]] = {agent: [] for agent in AGENT_KEYS}
    for entry in data["portability"]:
        folder = os.path.basename(os.path.dirname(entry["path"]))
        for agent in entry["found_by"]:
            out[agent].append(folder)
    counts = data["agents_found"]
    assert counts == {agent: len(found) for agent, found in out.items()}
    return {agent: sorted(found) for agent, found in out.items()}


def expect(every: list[str], **found: list[str]) -> dict[str, list[str]]:
    """Every agent finds nothing but what is named; the standard finds `every`."""
    out: dict[str, list[str]] = {agent: [] for agent in AGENT_KEYS}
    out["agentskills"] = sorted(every)
    for agents, names in found.items():
        for agent in agents.split("__"):
            out[agent.replace("_", "-")] = sorted(names)
    return out


def _linked(tmp_path: Path) -> tuple[Path, dict[str, list[str]]]:
    """`.claude/skills/<name> -> ../../.agents/skills/<name>`, one of four not linked."""
    repo = linked_monorepo(tmp_path)
    every = ["alpha", "beta", "delta", "gamma"]
    on_claude = ["alpha", "beta", "gamma"]
    expected = expect(every, **{"__".join(sorted(AGENTS_SKILLS)): every})
    expected["claude-code"] = on_claude
    return repo, expected


def _sibling_root(tmp_path: Path) -> tuple[Path, dict[str, list[str]]]:
    """`.agents/skills -> ../skills`: each skill once, through the agents' root."""
    repo = tmp_path / "plugin"
    (repo / ".git").mkdir(parents=True)
    skill(repo, "skills/one")
    skill(repo, "skills/two")
    (repo / ".agents").mkdir()
    os.symlink("../skills", repo / ".agents/skills")
    both = ["one", "two"]
    return repo, expect(both, **{"__".join(sorted(AGENTS_SKILLS)): both})


def _catalogue(tmp_path: Path) -> tuple[Path, dict[str, list[str]]]:
    """cli-tool/components/skills/<category>/<skill>: no agent's folder; Claude Code
    reads the repository's own `.claude/commands/ship.md`."""
    repo = catalogue(tmp_path)
    write(repo, ".claude/commands/ship.md", "---\ndescription: Ships it.\n---\nShip it.\n")
    every = ["etl-plan", "lint-fix", "review", "sql-tune", "write-readme"]
    return repo, expect(every, claude_code=["commands"])


def _marketplace(tmp_path: Path) -> tuple[Path, dict[str, list[str]]]:
    """A marketplace listing one plugin, beside 3 skills it does not list."""
    repo = tmp_path / "market"
    market = {"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "p", "source": "./p"}]}
    write(repo, ".claude-plugin/marketplace.json", json.dumps(market))
    write(repo, "p/.claude-plugin/plugin.json", json.dumps({"name": "p"}))
    skill(repo, "p/skills/listed")
    for name in ("aa", "bb", "cc"):
        skill(repo, f"composio-skills/{name}")
    every = ["aa", "bb", "cc", "listed"]
    # Codex and Goose read plugins too: Codex names `.claude-plugin/plugin.json`
    return repo, expect(every, claude_code__codex__goose=["listed"])


def _codex_home(tmp_path: Path) -> tuple[Path, dict[str, list[str]]]:
    """A clone of ~/.codex/skills: `.system/` (hidden) and two dangling links."""
    skills = tmp_path / "home/.codex/skills"
    for rel in ("mine", "yours", ".system/plan", ".system/imagegen"):
        skill(skills, rel)
    os.symlink("../../../nowhere/one", skills / "lost-one")
    every = ["imagegen", "mine", "plan", "yours"]
    return skills, expect(every, codex__cursor=["mine", "yours"])


def _codex_links(tmp_path: Path) -> tuple[Path, dict[str, list[str]]]:
    """The real Codex root `.codex/skills` holds links into `skills/`; a `catalog/`
    beside it that no agent reads."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    for name in ("a", "b", "unlinked"):
        skill(repo, f"skills/{name}")
    (repo / ".codex/skills").mkdir(parents=True)
    for name in ("a", "b"):
        os.symlink(f"../../skills/{name}", repo / ".codex/skills" / name)
    skill(repo, "catalog/c")
    every = ["a", "b", "c", "unlinked"]
    return repo, expect(every, codex__cursor=["a", "b"])


def _each_agents_folder(tmp_path: Path) -> tuple[Path, dict[str, list[str]]]:
    """One skill in each agent's own project folder."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    folders = {
        ".github/skills": "copilot",
        ".cursor/skills": "cursor",
        ".gemini/skills": "gemini",
        ".opencode/skills": "opencode",
        ".windsurf/skills": "windsurf",
        ".kiro/skills": "kiro",
        ".junie/skills": "junie",
        ".goose/skills": "goose",
    }
    for folder, agent in folders.items():
        skill(repo, f"{folder}/{agent}-own")
    expected = expect([f"{a}-own" for a in folders.values()])
    for agent in folders.values():
        expected[agent] = [f"{agent}-own"]
    return repo, expected


SHAPES: dict[str, Callable[[Path], tuple[Path, dict[str, list[str]]]]] = {
    "links into .agents/skills": _linked,
    "a root linked to a sibling root": _sibling_root,
    "a catalogue": _catalogue,
    "a marketplace with unlisted skills": _marketplace,
    "a codex home with .system and dangling links": _codex_home,
    "a .codex/skills of links and a catalog beside it": _codex_links,
    "each agent's own folder": _each_agents_folder,
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_every_shape_names_the_skills_each_agent_finds(tmp_path: Path, shape: str) -> None:
    """On main `lint --profile all` answered only for the skills the detected profile
    read: a file left `unreached` (`.agents/skills/delta` under claude-code) had no
    agent's answer, so Codex and the others were said to find fewer skills than they do."""
    path, expected = SHAPES[shape](tmp_path)
    assert found_per_agent(path) == expected


def test_an_agent_finds_a_file_through_a_link_in_its_root_whatever_reads_the_tree(
    tmp_path: Path,
) -> None:
    """Read as claude-code, `skills/a` is met at its real place: Codex and Cursor still
    find it through `.codex/skills/a -> ../../skills/a`. On main a recursive reader
    (Codex) was said not to find it: only a link of the whole root was looked at."""
    repo, expected = _codex_links(tmp_path)
    run = cli("lint", "--profile", "all", "--format", "json", str(repo), cwd=tmp_path)
    assert run.code in (0, 1), run.err
    # claude-code named: its reading of the tree (collections) differs, the answers do not
    named = cli("lint", "--profile", "claude-code", "--format", "json", str(repo), cwd=tmp_path)
    assert {os.path.basename(os.path.dirname(s["path"])) for s in named.json["skills"]} == {
        "a",
        "b",
        "c",
        "unlinked",
    }
    from skillstudio.core.model.skills import Root, Skill
    from skillstudio.core.projects.agent_reach import agent_reach
    from skillstudio.core.reading.frontmatter import read_document

    for name, found in (("a", True), ("unlinked", False)):
        path = str(repo / "skills" / name / "SKILL.md")
        one = Skill(path=path, root=Root(str(repo / "skills"), "", 0), doc=read_document(path))
        rows = {r.agent: r for r in agent_reach(one, str(repo))}
        assert rows["codex"].found is found and rows["cursor"].found is found, name
        if found:
            assert rows["codex"].via_link and rows["codex"].folder == ".codex/skills"
    assert expected["codex"] == ["a", "b"]
