"""Manifests decide, and each agent's folders are read as that agent does (issue 38;
PRODUCT.md 3.9 "Two views of one tree", 3.10): nested agent folders count only for the
agents that read nested folders, Gemini extensions bring their `skills/`, marketplace
entries and Codex/Cursor plugin manifests decide their plugin's skills, and Claude Code
loads a skill it cannot parse with empty metadata. The fixtures are under
tests/data/manifests/ (small trees written for these tests)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from .helpers import REPO, cli

DATA = os.path.join(REPO, "tests", "data", "manifests")


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """User folders in an empty home: no real ~/.claude/skills counts."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))


def _tree(tmp_path: Path, name: str) -> Path:
    """A copy of one fixture as a repository of its own (a `.git` marks its root)."""
    repo = tmp_path / name
    shutil.copytree(os.path.join(DATA, name), repo)
    (repo / ".git").mkdir()
    return repo


def _agents(data: dict[str, Any], repo: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """Each skill (its path in the repository) with every agent's answer on it."""
    return {
        os.path.relpath(e["path"], repo): {r["agent"]: r for r in e["agents"]}
        for e in data["portability"]
    }


def test_nested_agent_folders_count_only_for_agents_that_read_them(tmp_path: Path) -> None:
    repo = _tree(tmp_path, "nested_agents")
    data = cli("lint", "--profile", "all", "--format", "json", ".", cwd=repo).json
    rows = _agents(data, repo)
    assert len(rows) == 6
    found = {
        path: sorted(a for a, r in agents.items() if r["found"]) for path, agents in rows.items()
    }
    # at the root: Gemini reads .gemini/skills and .agents/skills; Codex .agents/skills
    assert "gemini" in found[".gemini/skills/top-notes/SKILL.md"]
    assert {"gemini", "codex"} <= set(found[".agents/skills/shared-check/SKILL.md"])
    # below it: only when run in tools/x, so neither finds them from the root
    for path in (
        "tools/x/.gemini/skills/tool-notes/SKILL.md",
        "tools/x/.agents/skills/tool-check/SKILL.md",
    ):
        assert found[path] == ["agentskills"], path
        assert "only in the folder it runs in" in rows[path]["gemini"]["why"]
        assert "(run it in x)" in rows[path]["gemini"]["why"]
    assert (
        "only in the folder it runs in"
        in rows["tools/x/.agents/skills/tool-check/SKILL.md"]["codex"]["why"]
    )
    # Claude Code reads nested .claude/skills folders
    nested = rows["tools/x/.claude/skills/tool-review/SKILL.md"]["claude-code"]
    assert nested["found"] and nested["scope"] == "project"
    # a Gemini extension brings the skills in its skills/ folder, for Gemini only
    ext = rows["ext/skills/ext-helper/SKILL.md"]
    assert ext["gemini"]["found"] and ext["gemini"]["scope"] == "extension"
    assert ext["gemini"]["folder"] == "ext" and ext["gemini"]["name"] == "ext-helper"
    assert not ext["claude-code"]["found"] and not ext["codex"]["found"]
    assert data["agents_found"]["gemini"] == 3
    assert data["agents_found"]["codex"] == 1
    assert data["agents_found"]["claude-code"] == 1
    text = cli("lint", "--profile", "all", ".", cwd=repo).out
    assert "gemini finds 3 of 6" in text and "codex finds 1 of 6" in text


def test_run_inside_the_nested_folder_gemini_reads_its_roots(tmp_path: Path) -> None:
    repo = _tree(tmp_path, "nested_agents")
    data = cli("lint", "--profile", "all", "--format", "json", ".", cwd=repo / "tools" / "x").json
    rows = _agents(data, repo / "tools" / "x")
    assert rows[".gemini/skills/tool-notes/SKILL.md"]["gemini"]["found"]
    assert rows[".agents/skills/tool-check/SKILL.md"]["codex"]["found"]
    assert data["agents_found"]["gemini"] == 2


def test_claude_code_loads_an_unparsable_skill_with_empty_metadata(tmp_path: Path) -> None:
    repo = _tree(tmp_path, "unparsable")
    data = cli("lint", "--format", "json", ".", cwd=repo).json
    bad = [d for d in data["diagnostics"] if "colon-notes" in d["path"]]
    assert [d["code"] for d in bad] == ["yaml-invalid"]  # the error stays; no `skipped`
    assert bad[0]["severity"] == "error" and "empty metadata" in bad[0]["message"]
    listed = cli("list", "--format", "json", cwd=repo).json
    rows = {s["name"]: s for s in listed["skills"]}
    assert rows["colon-notes"]["status"] == "active"  # named after its folder
    run = cli("activate", "colon-notes", cwd=repo)
    assert run.code == 0 and "Write one note per release." in run.out
    prompt = cli("prompt", "--format", "json", cwd=repo).json
    assert [o["skill"] for o in prompt["omitted"]] == ["colon-notes"]
    assert "empty metadata" in prompt["omitted"][0]["reason"]
    assert "- fine-notes: Writes the changelog entry" in prompt["text"]
    assert "colon-notes" not in prompt["text"]
    # other profiles unchanged: the standard would not load it
    std = cli("lint", "--profile", "agentskills", "--format", "json", ".", cwd=repo).json
    codes = {d["code"] for d in std["diagnostics"] if "colon-notes" in d["path"]}
    assert {"yaml-invalid", "skipped"} <= codes


def test_a_marketplace_entry_with_strict_false_is_the_whole_manifest(tmp_path: Path) -> None:
    repo = _tree(tmp_path, "marketplace_strict")
    run = cli("lint", "--format", "json", ".", cwd=repo)
    assert run.code == 0, run.out
    data = run.json
    assert "no-skills" not in {d["code"] for d in data["diagnostics"]}
    listed = cli("list", "--format", "json", cwd=repo).json
    names = {s["name"]: s["status"] for s in listed["skills"]}
    # each entry names its own skills (two entries share the source "./")
    assert names == {
        "lab-skills:fit-curve": "active",
        "lab-skills:plot-spectrum": "active",
        "lab-cleaning:clean-table": "active",
        "lab-skills:summarize": "active",  # the entry's `commands`
    }
    run = cli("activate", "lab-cleaning:clean-table", cwd=repo)
    assert run.code == 0 and "Follow the steps for clean-table." in run.out
    # the in-place view: Claude Code finds what the entries name, not draft-only/
    every = cli("lint", "--profile", "all", "--format", "json", ".", cwd=repo).json
    rows = _agents(every, repo)
    claude = {p: r["claude-code"] for p, r in rows.items()}
    assert claude["fit-curve/SKILL.md"]["found"]
    assert claude["fit-curve/SKILL.md"]["scope"] == "plugin"
    assert claude["fit-curve/SKILL.md"]["name"] == "lab-skills:fit-curve"
    assert claude["clean-table/SKILL.md"]["name"] == "lab-cleaning:clean-table"
    assert claude["cmds/summarize.md"]["name"] == "lab-skills:summarize"
    assert not claude["draft-only/SKILL.md"]["found"]
    assert "marketplace.json name their skills" in claude["draft-only/SKILL.md"]["why"]
    assert every["agents_found"]["claude-code"] == 4
    assert not any(r["codex"]["found"] for r in rows.values())


def test_without_strict_false_an_entry_is_merged_with_plugin_json(tmp_path: Path) -> None:
    repo = _tree(tmp_path, "marketplace_strict")
    market = repo / ".claude-plugin" / "marketplace.json"
    text = market.read_text(encoding="utf-8").replace('"strict": false,', "")
    market.write_text(text, encoding="utf-8")
    (repo / ".claude-plugin" / "plugin.json").write_text('{"name": "lab"}\n', encoding="utf-8")
    listed = cli("list", "--format", "json", cwd=repo).json
    names = sorted(s["name"] for s in listed["skills"])
    # plugin.json names the plugin; the entries' `skills` still add their folders
    assert names == ["lab:clean-table", "lab:fit-curve", "lab:plot-spectrum", "lab:summarize"]


def test_a_bad_strict_or_skills_value_is_placed_in_marketplace_json(tmp_path: Path) -> None:
    repo = _tree(tmp_path, "marketplace_strict")
    market = repo / ".claude-plugin" / "marketplace.json"
    text = market.read_text(encoding="utf-8")
    text = text.replace('"strict": false,', '"strict": "no",', 1)
    text = text.replace('"skills": ["./clean-table"]', '"skills": ["../outside", 7]')
    market.write_text(text, encoding="utf-8")
    data = cli("lint", "--format", "json", ".", cwd=repo).json
    found = [d for d in data["diagnostics"] if d["path"].endswith("marketplace.json")]
    lines = text.splitlines()
    strict = next(d for d in found if d["code"] == "field-type")
    assert '"strict"' in lines[strict["line"] - 1]
    bad = [d for d in found if d["code"] == "field-invalid"]
    assert len(bad) == 2 and all('"skills"' in lines[d["line"] - 1] for d in bad)
    names = {s["name"] for s in cli("list", "--format", "json", cwd=repo).json["skills"]}
    assert "lab-cleaning:clean-table" not in names  # nothing left to name it


def test_a_codex_plugin_manifest_decides_its_skills(tmp_path: Path) -> None:
    repo = _tree(tmp_path, "codex_plugin")
    data = cli("lint", "--profile", "codex", "--format", "json", ".", cwd=repo).json
    skipped = [d for d in data["diagnostics"] if d["code"] == "skipped"]
    assert [os.path.relpath(d["path"], repo) for d in skipped] == [
        "inactive-skills/tidy-legacy/SKILL.md"
    ]
    assert ".codex-plugin/plugin.json" in skipped[0]["message"]
    listed = cli("list", "--profile", "codex", "--format", "json", cwd=repo).json
    active = sorted(s["name"] for s in listed["skills"] if s["status"] == "active")
    assert active == ["tidy:tidy-docs", "tidy:tidy-imports"]
    every = cli("lint", "--profile", "all", "--format", "json", ".", cwd=repo).json
    rows = _agents(every, repo)
    assert rows["skills/tidy-docs/SKILL.md"]["codex"]["name"] == "tidy:tidy-docs"
    legacy = rows["inactive-skills/tidy-legacy/SKILL.md"]["codex"]
    assert not legacy["found"]
    assert legacy["why"] == (
        "its plugin's .codex-plugin/plugin.json names its skills (./skills), not this folder"
    )
    assert every["agents_found"]["codex"] == 2
    # the standard has no plugins: the author's view checks all three, as it did
    std = cli("lint", "--profile", "agentskills", "--format", "json", ".", cwd=repo).json
    assert "skipped" not in {d["code"] for d in std["diagnostics"]}


def test_a_cursor_plugin_manifest_replaces_its_skills_folder(tmp_path: Path) -> None:
    repo = _tree(tmp_path, "cursor_plugin")
    every = cli("lint", "--profile", "all", "--format", "json", ".", cwd=repo).json
    rows = _agents(every, repo)
    named = rows["custom-skills/lint-sql/SKILL.md"]["cursor"]
    assert named["found"] and named["scope"] == "plugin" and named["name"] == "sql-tools:lint-sql"
    draft = rows["skills/lint-draft/SKILL.md"]["cursor"]
    assert not draft["found"] and "names its skills (./custom-skills)" in draft["why"]
    assert every["agents_found"]["cursor"] == 1
    assert every["agents_found"]["claude-code"] == 0 and every["agents_found"]["codex"] == 0


# What each full profile reads in each fixture (the author's view: name and status),
# and how many skills each agent finds in place (`lint --profile all`'s agents line).
PROFILES: dict[str, dict[str, dict[str, str]]] = {
    "marketplace_strict": {
        "claude-code": {
            "lab-skills:fit-curve": "active",
            "lab-skills:plot-spectrum": "active",
            "lab-cleaning:clean-table": "active",
            "lab-skills:summarize": "active",
        },
        # no plugins in the standard, and Codex reads no Claude Code marketplace entry
        "agentskills": dict.fromkeys(
            ("fit-curve", "plot-spectrum", "clean-table", "draft-only"), "active"
        ),
        "codex": dict.fromkeys(
            ("fit-curve", "plot-spectrum", "clean-table", "draft-only"), "active"
        ),
    },
    "codex_plugin": {
        "codex": {
            "tidy:tidy-docs": "active",
            "tidy:tidy-imports": "active",
            "tidy-legacy": "skipped",
        },
        "claude-code": dict.fromkeys(("tidy-docs", "tidy-imports", "tidy-legacy"), "active"),
        "agentskills": dict.fromkeys(("tidy-docs", "tidy-imports", "tidy-legacy"), "active"),
    },
    "unparsable": {
        "claude-code": {"colon-notes": "active", "fine-notes": "active"},
        "codex": {"colon-notes": "skipped", "fine-notes": "active"},
        "agentskills": {"colon-notes": "skipped", "fine-notes": "active"},
    },
}
FOUND: dict[str, dict[str, int]] = {
    "nested_agents": {"agentskills": 6, "claude-code": 1, "codex": 1, "cursor": 1, "gemini": 3},
    "unparsable": {"agentskills": 2, "claude-code": 2, "codex": 0, "cursor": 2, "gemini": 0},
    "marketplace_strict": {"agentskills": 4, "claude-code": 4, "codex": 0, "gemini": 0},
    "codex_plugin": {"agentskills": 3, "claude-code": 0, "codex": 2, "cursor": 0},
    "cursor_plugin": {"agentskills": 2, "claude-code": 0, "codex": 0, "cursor": 1},
}


@pytest.mark.parametrize(("fixture", "profile"), [(f, p) for f, by in PROFILES.items() for p in by])
def test_what_each_profile_reads_in_each_fixture(
    tmp_path: Path, fixture: str, profile: str
) -> None:
    repo = _tree(tmp_path, fixture)
    data = cli("lint", "--profile", profile, "--format", "json", ".", cwd=repo).json
    assert {s["name"]: s["status"] for s in data["skills"]} == PROFILES[fixture][profile]


@pytest.mark.parametrize("fixture", sorted(FOUND))
def test_what_each_agent_finds_in_each_fixture(tmp_path: Path, fixture: str) -> None:
    repo = _tree(tmp_path, fixture)
    data = cli("lint", "--profile", "all", "--format", "json", ".", cwd=repo).json
    found = data["agents_found"]
    assert {agent: found[agent] for agent in FOUND[fixture]} == FOUND[fixture]
