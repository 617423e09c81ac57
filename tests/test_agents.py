"""The agents that read the Agent Skills standard (issue 27; core/profiles/agents.py):
which agent finds a skill in which folder, under which name, what it ignores and which
limits it breaks (`lint --profile all`, `show`), and the listing headroom per agent."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from skillstudio.core.model.skills import Root, Skill
from skillstudio.core.profiles.agents import AGENT_KEYS, AGENTS
from skillstudio.core.projects.agent_reach import agent_reach
from skillstudio.core.reading.frontmatter import read_document

from .helpers import REPO, cli, skill_text, write

# Each agent's folder, and the agents (besides the standard, which has no folders)
# expected to find a skill kept there (docs/agents.md).
LAYOUT = {
    ".github/skills": {"copilot"},
    ".cursor/skills": {"cursor"},
    ".gemini/skills": {"gemini"},
    ".opencode/skills": {"opencode"},
    ".windsurf/skills": {"windsurf"},
    ".kiro/skills": {"kiro"},
    ".junie/skills": {"junie"},
    ".goose/skills": {"goose"},
    ".codex/skills": {"codex", "cursor"},
    ".agents/skills": {
        "codex",
        "copilot",
        "cursor",
        "gemini",
        "opencode",
        "goose",
        "amp",
        "windsurf",
        "letta",
    },
    ".claude/skills": {"claude-code", "copilot", "cursor", "opencode", "goose", "amp"},
}


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """User folders in an empty home: no real ~/.claude/skills counts."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    return home


def _name(folder: str) -> str:
    return folder.split("/")[0].lstrip(".") + "-skill"


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    for folder in LAYOUT:
        name = _name(folder)
        text = skill_text(name=name, description=f"Kept in {folder}.", **{"allowed-tools": "Read"})
        write(repo, f"{folder}/{name}/SKILL.md", text)
    return repo


def test_each_agent_finds_the_skills_in_its_own_folders(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    run = cli("lint", "--profile", "all", "--format", "json", *LAYOUT, cwd=repo)
    data = run.json
    found = {
        os.path.relpath(os.path.dirname(os.path.dirname(e["path"])), repo): e
        for e in data["portability"]
    }
    assert sorted(found) == sorted(LAYOUT)
    for folder, expected in LAYOUT.items():
        entry = found[folder]
        assert set(entry["found_by"]) == expected | {"agentskills"}, folder
        rows = {r["agent"]: r for r in entry["agents"]}
        assert list(rows) == list(AGENT_KEYS)
        for agent in expected:
            assert rows[agent]["folder"] == folder and rows[agent]["scope"] == "project"
            assert rows[agent]["name"] == _name(folder)
    counts = data["agents_found"]
    assert counts["gemini"] == 2 and counts["claude-code"] == 1 and counts["letta"] == 1
    assert counts["agentskills"] == len(LAYOUT)
    text = cli("lint", "--profile", "all", *LAYOUT, cwd=repo).out
    line = next(
        x
        for x in text.splitlines()
        if x.startswith(".claude/skills/claude-skill/SKILL.md: agents: ")
    )
    assert "found by agentskills, claude-code (.claude/skills), copilot (.claude/skills)" in line
    assert "not by codex, gemini, windsurf, kiro, junie, letta" in line
    assert "opencode: ignores `allowed-tools`" in line
    assert any(x.startswith("agents: agentskills finds 11 of 11, ") for x in text.splitlines())


def test_what_each_agent_reads_and_ignores(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    data = cli("show", "agents-skill", "--root", ".agents/skills", "--format", "json", cwd=repo)
    rows = {r["agent"]: r for r in data.json["agents"]}
    assert rows["opencode"]["ignored"] == ["allowed-tools"]  # OpenCode ignores allowed-tools
    assert rows["gemini"]["ignored"] == ["allowed-tools"]  # name and description only
    assert rows["copilot"]["ignored"] == [] and rows["goose"]["ignored"] == []
    assert rows["codex"]["ignored"] == ["allowed-tools"]  # from the codex profile's fields
    assert rows["kiro"]["found"] is False and rows["kiro"]["why"] == "reads .kiro/skills"
    out = cli("show", "agents-skill", "--root", ".agents/skills", cwd=repo).out
    assert (
        "  opencode: found in .agents/skills (project) as agents-skill; ignores `allowed-tools`"
        in out
    )
    assert "  junie: not found (reads .junie/skills)" in out


def _skill(path: str) -> Skill:
    folder = os.path.dirname(path)
    return Skill(path=path, root=Root(os.path.dirname(folder), "", 0), doc=read_document(path))


def test_a_link_into_agents_skills_is_found_through_claude_skills(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    path = write(repo, ".agents/skills/x/SKILL.md", skill_text(name="x", description="Linked."))
    (repo / ".claude/skills").mkdir(parents=True)
    os.symlink("../../.agents/skills/x", repo / ".claude/skills/x")
    rows = {r.agent: r for r in agent_reach(_skill(path), str(repo))}
    assert rows["claude-code"].found and rows["claude-code"].via_link
    assert rows["claude-code"].folder == ".claude/skills"
    assert rows["gemini"].found and not rows["gemini"].via_link
    assert not rows["kiro"].found
    # a root that is a link to a sibling root (`.agents/skills -> ../skills`)
    other = tmp_path / "other"
    path = write(other, "skills/y/SKILL.md", skill_text(name="y", description="Y."))
    (other / ".agents").mkdir()
    os.symlink("../skills", other / ".agents/skills")
    rows = {r.agent: r for r in agent_reach(_skill(path), str(other))}
    assert rows["codex"].found and rows["codex"].via_link and rows["codex"].name == "y"
    assert rows["gemini"].found and not rows["claude-code"].found


def test_user_scope_plugins_and_depth(tmp_path: Path, _home: Path) -> None:
    path = write(_home, ".copilot/skills/mine/SKILL.md", skill_text(name="mine", description="M."))
    rows = {r.agent: r for r in agent_reach(_skill(path))}
    assert rows["copilot"].found and rows["copilot"].scope == "user"
    assert not rows["cursor"].found
    plugin = tmp_path / "plugins/kit"
    write(plugin, ".claude-plugin/plugin.json", '{"name": "kit"}')
    path = write(plugin, "skills/lint/SKILL.md", skill_text(name="lint", description="L."))
    rows = {r.agent: r for r in agent_reach(_skill(path), str(tmp_path))}
    assert rows["claude-code"].scope == "plugin" and rows["claude-code"].name == "kit:lint"
    assert rows["codex"].scope == "plugin" and rows["codex"].name == "kit:lint"
    assert not rows["gemini"].found
    deep = write(
        tmp_path, "r/.agents/skills/a/b/c/SKILL.md", skill_text(name="c", description="C.")
    )
    rows = {r.agent: r for r in agent_reach(_skill(deep), str(tmp_path / "r"))}
    assert rows["codex"].found  # Codex reads its roots recursively
    assert not rows["gemini"].found and "directly" in rows["gemini"].why
    hidden = write(
        tmp_path, "r/.agents/skills/.x/h/SKILL.md", skill_text(name="h", description="H.")
    )
    rows = {r.agent: r for r in agent_reach(_skill(hidden), str(tmp_path / "r"))}
    assert not rows["codex"].found and "hidden" in rows["codex"].why


def test_limits_each_agent_documents(tmp_path: Path) -> None:
    long = "word " * 230
    path = write(
        tmp_path, "r/.opencode/skills/tool/SKILL.md", skill_text(name="Tool_X", description=long)
    )
    rows = {r.agent: r for r in agent_reach(_skill(path), str(tmp_path / "r"))}
    limits = rows["opencode"].limits
    assert "name not lowercase letters, digits and single hyphens" in limits
    assert "name differs from its folder `tool`" in limits
    assert "description over 1,024 characters (1,149, refused)" in limits
    assert "description over 1,024 characters (1,149, cut)" in rows["codex"].limits
    assert rows["gemini"].limits == []  # no documented limit


def test_claude_code_newer_fields_are_known(tmp_path: Path) -> None:
    text = skill_text(name="x", description="X.", **{"display-name": "X", "default-enabled": False})
    write(tmp_path, "p/.claude/skills/x/SKILL.md", text)
    data = cli("lint", "--format", "json", "--profile", "claude-code", "p", cwd=tmp_path).json
    assert [d for d in data["diagnostics"] if d["code"] == "unknown-field"] == []


def _described(tmp_path: Path, folder: str, count: int) -> Path:
    repo = tmp_path / "set"
    for n in range(count):
        desc = f"Skill number {n} " + "does a thing " * (5 + n)
        write(repo, f"{folder}/s{n}/SKILL.md", skill_text(name=f"s{n}", description=desc))
    return repo


def test_headroom_of_claude_code_names_the_skills_falling_to_a_name(tmp_path: Path) -> None:
    repo = _described(tmp_path, ".claude/skills", 6)
    args = ["headroom", "--agent", "claude-code", "--context-tokens", "85000", "--format", "json"]
    run = cli(*args, "--skill", "s5", cwd=repo)
    assert run.code == 0, run.err
    (row,) = run.json["agents"]
    assert row["budget"] == 3_400  # 1 % of 85,000 tokens x 4 characters
    # the 6 skills take 711 characters, Claude Code's own entries 2,923
    assert row["needed"] == 711 + 2_923
    assert row["needed"] > row["budget"] >= row["used"]
    assert row["headroom"] == row["budget"] - row["needed"]
    assert not row["dropped"]  # Claude Code keeps every name
    # from the end backwards: its built-in commands, then s5; never a bundled skill
    assert row["shortened"] == ["s5", "init", "review", "security-review"]
    own = row["agent_skills"]
    assert own[:3] == ["update-config", "keybindings-help", "simplify"]
    assert row["listed"] == [f"s{n}" for n in range(6)] + own
    desc = "Skill number 5 " + "does a thing " * 10
    assert row["skill"]["description_chars"] == len(" ".join(desc.split())) + 2  # ": " + text
    listing = cli(
        "prompt", "--tier", "2", "--context-tokens", "85000", "--format", "json", cwd=repo
    )
    assert listing.json["listed"] == row["listed"]
    dropped = {o["skill"] for o in listing.json["omitted"]}
    assert dropped == set(row["shortened"])
    roomy = cli("headroom", "--agent", "claude-code", "--context-tokens", "1000000", cwd=repo)
    assert "every skill is listed with its whole description" in roomy.out
    assert re.search(r"headroom: [\d,]+ to spare", roomy.out)


def test_headroom_of_codex_and_a_missing_skill(tmp_path: Path) -> None:
    repo = _described(tmp_path, ".agents/skills", 4)
    args = ["headroom", "--agent", "codex", "--format", "json", "--context-tokens", "3000"]
    (row,) = cli(*args, cwd=repo).json["agents"]
    assert (row["budget"], row["unit"]) == (60, "tokens")  # 2 % of 3,000 tokens
    assert row["needed"] > row["budget"] >= row["used"]
    assert row["shortened"] or row["dropped"]
    run = cli("headroom", "--agent", "codex", "--skill", "nope", cwd=repo)
    assert run.code == 1 and "nope: not in this listing" in run.out
    assert "listing budget not documented: copilot" in run.out


def test_docs_name_every_agent_with_its_source_and_date() -> None:
    text = Path(REPO, "docs", "agents.md").read_text(encoding="utf-8")
    sources = text.split("## Sources", 1)[1].split("\n## ", 1)[0]  # (not the models' table)
    rows = [line for line in sources.splitlines() if line.startswith("| `")]
    keys = [line.split("`")[1] for line in rows]
    assert keys == list(AGENT_KEYS)
    for agent, line in zip(AGENTS, rows, strict=True):
        assert agent.checked in line, agent.key
        assert agent.source.split(" ")[0] in line, agent.key
