"""Issue 27, the rest of "never silent" (docs/profiles.md, "No `SKILL.md` is dropped in
silence"): the rule holds for every way a path is given (`--root`, a skill folder, a
project whose skillstudio.yaml names its roots), Codex reads only its own roots when
the tree holds one, and a link to a sibling skill's file is not called broken."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from .helpers import cli, write
from .test_every_skill import names, notes, skill


def lint_args(cwd: Path, *args: str) -> dict[str, Any]:
    run = cli("lint", "--format", "json", *args, cwd=cwd)
    assert run.code in (0, 1), run.err
    data: dict[str, Any] = run.json
    return data


def project(tmp_path: Path) -> Path:
    """`my/` holds one skill and one nested two levels deeper; `other/` and
    `loose/x/y/` hold one each."""
    repo = tmp_path / "proj"
    skill(repo, "my/one")
    skill(repo, "my/one/deep/three")
    skill(repo, "other/two")
    skill(repo, "loose/x/y/four")
    return repo


# -- every way a path is given ---------------------------------------------------------
def test_a_root_given_with_root_names_the_skills_below_what_the_agent_reads(
    tmp_path: Path,
) -> None:
    """On main `--root my` read `one` and said nothing of `three`."""
    repo = project(tmp_path)
    data = lint_args(repo, "--root", str(repo / "my"), "--profile", "claude-code")
    assert names(data) == ["one"]
    unreached = notes(data, "unreached", repo)
    assert [where for where, _ in unreached] == ["my/one/deep"]
    message = unreached[0][1]
    assert "1 SKILL.md file here is not read (three)" in message
    assert "3 folders below the root my" in message
    assert "reads only <root>/<folder>/SKILL.md" in message
    assert f"add --root {repo / 'my/one/deep'}" in message
    # the same root under codex (recursive, depth 6): every file read, nothing named
    codex = lint_args(repo, "--root", str(repo / "my"), "--profile", "codex")
    assert names(codex) == ["one", "three"] and notes(codex, "unreached", repo) == []


def test_several_roots_given_are_each_accounted_for(tmp_path: Path) -> None:
    repo = project(tmp_path)
    skill(repo, "other/two/nested/five")
    data = lint_args(
        repo, "--root", str(repo / "my"), "--root", str(repo / "other"), "--profile", "agentskills"
    )
    assert names(data) == ["one", "two"]
    unreached = notes(data, "unreached", repo)
    assert [where for where, _ in unreached] == ["my/one/deep", "other/two/nested"]
    assert "root my" in unreached[0][1] and "root other" in unreached[1][1]


@pytest.mark.parametrize("given", ["folder", "SKILL.md"])
def test_a_skill_given_alone_names_a_skill_nested_in_its_folder(tmp_path: Path, given: str) -> None:
    """A skill folder given: every SKILL.md under it is the skill or named; a SKILL.md
    given as a file is the one file asked for. On main: nothing said of `three`."""
    repo = project(tmp_path)
    path = repo / "my/one" if given == "folder" else repo / "my/one/SKILL.md"
    data = lint_args(repo, str(path), "--profile", "claude-code")
    assert names(data) == ["one"]
    unreached = notes(data, "unreached", repo)
    if given == "SKILL.md":
        assert unreached == []
        return
    assert [where for where, _ in unreached] == ["my/one/deep"]
    assert "(three)" in unreached[0][1] and "Claude Code reads only" in unreached[0][1]


def test_a_project_whose_config_names_its_roots_names_the_rest(tmp_path: Path) -> None:
    """On main skillstudio.yaml's roots were read as named and no inventory taken: the
    skills of `other/` and `loose/` were dropped without a word."""
    repo = project(tmp_path)
    write(repo, "skillstudio.yaml", "profile: claude-code\nroots:\n  - path: my\n    label: mine\n")
    data = lint_args(repo, str(repo))
    assert names(data) == ["one"]
    unreached = dict(notes(data, "unreached", repo))
    assert sorted(unreached) == ["loose/x/y", "my/one/deep", "other"]
    assert "outside the roots skillstudio.yaml names (my)" in unreached["other"]
    assert "add other to the roots of skillstudio.yaml" in unreached["other"]
    assert "(four)" in unreached["loose/x/y"]
    assert "3 folders below the root my" in unreached["my/one/deep"]
    # every file the roots hold is read: no note
    write(
        repo,
        "skillstudio.yaml",
        "profile: codex\nroots:\n  - path: my\n  - path: other\n  - path: loose\n",
    )
    data = lint_args(repo, str(repo))
    assert names(data) == ["four", "one", "three", "two"]
    assert notes(data, "unreached", repo) == []


# -- Codex reads only its own roots -------------------------------------------------------
def codex_repository(tmp_path: Path) -> Path:
    """The issue's shape: the real Codex root `.codex/skills` holds links into the
    repository's `skills/`, one skill of which is not linked; a `catalog/` of other
    skills that Codex never reads."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    for name in ("a", "b", "unlinked"):
        skill(repo, f"skills/{name}")
    (repo / ".codex/skills").mkdir(parents=True)
    for name in ("a", "b"):
        os.symlink(f"../../skills/{name}", repo / ".codex/skills" / name)
    skill(repo, "catalog/c")
    skill(repo, "catalog/d")
    return repo


EXPECTED_CODEX_REPOSITORY = {  # profile -> the skills it checks: every one (issue 38)
    "codex": ["a", "b", "c", "d", "unlinked"],
    "agentskills": ["a", "b", "c", "d", "unlinked"],
    "claude-code": ["a", "b", "c", "d", "unlinked"],
}


@pytest.mark.parametrize("profile", sorted(EXPECTED_CODEX_REPOSITORY))
def test_codex_checks_every_skill_and_says_what_it_loads_in_place(
    tmp_path: Path, profile: str
) -> None:
    """Issue 38's author's view: `catalog/` and `skills/` are checked beside
    `.codex/skills` (each file once: a, b through the links); what Codex would not load
    in place is `lint --profile all`'s to say (on main it was `unreached` in lint)."""
    repo = codex_repository(tmp_path)
    data = lint_args(repo, str(repo), "--profile", profile)
    assert names(data) == EXPECTED_CODEX_REPOSITORY[profile]
    assert notes(data, "unreached", repo) == []
    if profile != "codex":
        return
    assert data["roots"][0]["path"] == str(repo / ".codex/skills")
    every = lint_args(repo, str(repo), "--profile", "all")
    assert every["agents_found"]["codex"] == 2
    in_place = dict(notes(every, "unreached", repo))
    assert "(c, d)" in in_place["catalog"]
    assert "not loaded by Codex CLI" in in_place["catalog"]
    assert "it reads .agents/skills, .codex/skills" in in_place["catalog"]


def test_a_collection_without_a_codex_root_is_read_and_the_reason_says_so(
    tmp_path: Path,
) -> None:
    coll = tmp_path / "coll"
    skill(coll, "a")
    skill(coll, "c")
    data = lint_args(tmp_path, str(coll), "--profile", "codex")
    assert names(data) == ["a", "c"]
    (root,) = data["roots"]
    assert root["profile_reason"].startswith("--profile; read as a collection")
    assert "Codex reads only .agents/skills, .codex/skills" in root["profile_reason"]
    claude = lint_args(tmp_path, str(coll), "--profile", "claude-code")
    assert claude["roots"][0]["profile_reason"] == "--profile"  # it reads collections


# -- links to a sibling skill ---------------------------------------------------------------
def test_a_link_to_a_sibling_skill_is_not_called_broken(tmp_path: Path) -> None:
    """On main `../b/SKILL.md` was `link-broken` "points outside the skill folder; copy
    the file into it", and so was `../nope/SKILL.md` (which does not exist)."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    body = "See [b](../b/SKILL.md), [n](../nope/SKILL.md) and [r](../../../README.md).\n"
    skill(repo, ".claude/skills/a", _body=body)
    skill(repo, ".claude/skills/b")
    write(repo, "README.md", "# Repo\n")
    data = lint_args(repo, str(repo), "--profile", "claude-code")
    by_code: dict[str, dict[str, str]] = {}
    for d in data["diagnostics"]:
        if d["code"].startswith("link-"):
            by_code.setdefault(d["code"], {})[d["message"].split("'")[1]] = d["message"]
    assert set(by_code) == {"link-sibling", "link-broken"}
    sibling = by_code["link-sibling"]["../b/SKILL.md"]
    assert "the skill 'b' beside this one" in sibling
    assert "installed beside this skill" in sibling and "copy the file into it" not in sibling
    assert sorted(by_code["link-broken"]) == ["../../../README.md", "../nope/SKILL.md"]
    assert "does not exist" in by_code["link-broken"]["../nope/SKILL.md"]
    assert "outside the skill folder" in by_code["link-broken"]["../../../README.md"]


def test_the_machines_own_folders_do_not_hide_the_collection_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On main a personal `~/.claude/skills` made the chain non-empty, so a plain
    collection linted with --profile claude-code gave the personal skills alone."""
    home = tmp_path / "claude-home"
    skill(home, "skills/mine")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home))
    coll = tmp_path / "coll"
    skill(coll, "a")
    skill(coll, "c")
    data = lint_args(tmp_path, str(coll), "--profile", "claude-code")
    assert names(data) == ["a", "c", "mine"]
    assert notes(data, "unreached", coll) == []
