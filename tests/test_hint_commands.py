"""Every command a hint suggests does what the hint says (issue 38): each `unreached`
note's "X reads this folder (lint --profile X)" and "lint <folder> to check them as a
root" is run in the folder opened, and must check the skills the note names.

On main "pegasus reads this folder (lint --profile pegasus)" was said of
`data/skills/<category>/<skill>`: pegasus reads only `data/skills/<skill>`, and the
command checked none of them."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from .helpers import cli, skill_text, write

_NAMED = re.compile(r"not read \(([^)]*)\)")
_PROFILE_HINT = re.compile(r"\((lint --profile [\w-]+)\)")
_PATH_HINT = re.compile(r"(lint \S+) to check them as a root")


def layout(base: Path) -> Path:
    """Claude Code's own commands, a pegasus-style tree one level too deep, and a
    category under `.agents/skills` (Codex reads it, agentskills does not)."""
    repo = base / "repo"
    (repo / ".git").mkdir(parents=True)
    write(repo, ".claude/commands/ship.md", "Ship the release.\n")
    for rel in (
        "data/skills/data/sql-tune",
        "data/skills/data/etl-plan",
        "data/skills/dev/review",
        ".agents/skills/ops/deploy-check",
    ):
        name = rel.rsplit("/", 1)[-1]
        write(
            repo,
            f"{rel}/SKILL.md",
            skill_text(name=name, description=f"Does {name} work. Use when {name} is asked."),
        )
    return repo


def lint(repo: Path, *args: str) -> dict[str, Any]:
    run = cli("lint", "--format", "json", "--no-cache", *args, cwd=repo)
    assert run.code in (0, 1), run.err
    data: dict[str, Any] = run.json
    return data


def hints(data: dict[str, Any]) -> list[tuple[list[str], str]]:
    """(the skills a note names, a command it suggests) for every `unreached` note."""
    out: list[tuple[list[str], str]] = []
    for diag in data["diagnostics"]:
        if diag["code"] != "unreached":
            continue
        named = _NAMED.search(diag["message"])
        assert named, diag["message"]
        names = [n.strip() for n in named.group(1).split(",")]
        for pattern in (_PROFILE_HINT, _PATH_HINT):
            out.extend((names, m.group(1)) for m in pattern.finditer(diag["message"]))
    return out


@pytest.mark.parametrize("profile", [None, "pegasus", "codex", "claude-code"])
def test_every_suggested_command_checks_the_skills_it_names(
    tmp_path: Path, profile: str | None
) -> None:
    """The author's view reads every SKILL.md of the layout, whatever the profile (so
    no note needs to send the author elsewhere); any command a note still suggests
    checks the skills it names."""
    repo = layout(tmp_path)
    data = lint(repo, *(["--profile", profile] if profile else []))
    checked = {s["name"] for s in data["skills"]}
    assert {"sql-tune", "etl-plan", "review", "deploy-check"} <= checked
    for names, command in hints(data):
        words = shlex.split(command)
        assert words[0] == "lint"
        checked = {s["name"] for s in lint(repo, *words[1:])["skills"]}
        assert set(names) <= checked, f"{command!r} checks {sorted(checked)}, not {names}"


def test_the_in_place_view_names_the_agent_that_loads_the_files(tmp_path: Path) -> None:
    """`lint --profile all` says which files Claude Code would not load where they sit,
    and which agent would: Codex reads `.agents/skills/<category>/<skill>`, nothing
    reads `data/skills/<category>/<skill>` in place (and no profile is suggested that
    would not read them)."""
    repo = layout(tmp_path)
    data = lint(repo, "--profile", "all")
    messages = [d["message"] for d in data["diagnostics"] if d["code"] == "unreached"]
    category = next(m for m in messages if "deploy-check" in m)
    assert "codex loads it here" in category
    deep = next(m for m in messages if "etl-plan" in m)
    assert "no agent with folders of its own loads them here" in deep
    assert "pegasus" not in deep


_ADD_ROOT = re.compile(r"add (\S+) to the roots of skillstudio\.yaml")


def test_with_roots_the_user_chose_both_suggestions_read_the_files(tmp_path: Path) -> None:
    """skillstudio.yaml names the roots: "add X to the roots of skillstudio.yaml, or
    lint X": each does what it says."""
    repo = layout(tmp_path)
    config = "profile: agentskills\nroots: [.agents/skills]\n"
    write(repo, "skillstudio.yaml", config)
    data = lint(repo)
    notes = [d["message"] for d in data["diagnostics"] if d["code"] == "unreached"]
    assert len(notes) == 3, notes
    for names, command in hints(data):
        checked = {s["name"] for s in lint(repo, *shlex.split(command)[1:])["skills"]}
        assert set(names) <= checked, command
    added = [m.group(1) for note in notes for m in _ADD_ROOT.finditer(note)]
    assert len(added) == 3
    write(
        repo,
        "skillstudio.yaml",
        f"profile: agentskills\nroots: [.agents/skills, {', '.join(added)}]\n",
    )
    again = lint(repo)
    assert [d for d in again["diagnostics"] if d["code"] == "unreached"] == []
    assert {"etl-plan", "sql-tune", "review", "deploy-check"} <= {
        s["name"] for s in again["skills"]
    }
