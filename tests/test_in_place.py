"""The in-place view under one profile (core/projects/in_place.py `loads_none`): a
reviewer switched a Claude Code project (skills in .claude/skills) to codex and saw 8
skills and 0 errors from `lint` and the app's Problems, while Where it loads and `lint
--profile all` said Codex loads none of them. Under a profile whose agent loads none of
the project's skills where they sit, the project gets one `unreached` note, naming the
folders that agent reads; under one that loads them, none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.projects.findings import project_findings
from skillstudio.core.projects.open_project import OpenProject
from skillstudio.core.projects.project import project_from_folder
from tests.helpers import cli, lint_json, write


def _claude_project(tmp_path: Path, count: int = 3) -> Path:
    for index in range(count):
        name = f"skill-{index}"
        write(
            tmp_path,
            f".claude/skills/{name}/SKILL.md",
            f"---\nname: {name}\ndescription: Does task {index}. Use when asked for it.\n---\n"
            "Do it.\n",
        )
    return tmp_path


def _notes(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for d in data["diagnostics"] if d["code"] == "unreached"]


def test_codex_over_a_claude_code_project_says_once_it_loads_none(tmp_path: Path) -> None:
    project = _claude_project(tmp_path)
    data = lint_json(str(project), "--profile", "codex", "--no-cache")
    [note] = _notes(data)
    assert note["severity"] == "info" and note["path"] == str(project)
    assert note["message"].startswith("Codex CLI loads none of the 3 skills here")
    assert "it reads .agents/skills, .codex/skills, plugins" in note["message"]
    assert data["summary"]["errors"] == 0 and data["summary"]["skills"] == 3
    run = cli("lint", "--profile", "codex", "--no-cache", "-v", str(project))
    assert run.code == 0 and run.out.count("Codex CLI loads none of the 3 skills") == 1


@pytest.mark.parametrize("profile", ["claude-code", "agentskills", "mvp"])
def test_a_profile_that_loads_them_or_has_no_folders_says_nothing(
    tmp_path: Path, profile: str
) -> None:
    data = lint_json(str(_claude_project(tmp_path)), "--profile", profile, "--no-cache")
    assert _notes(data) == []


def test_one_skill_the_agent_finds_is_enough_to_say_nothing(tmp_path: Path) -> None:
    project = _claude_project(tmp_path)
    write(
        project,
        ".agents/skills/shared/SKILL.md",
        "---\nname: shared\ndescription: Shares. Use when sharing.\n---\nShare.\n",
    )
    assert _notes(lint_json(str(project), "--profile", "codex", "--no-cache")) == []


def test_the_note_is_one_of_the_projects_findings_and_follows_its_rules(
    tmp_path: Path,
) -> None:
    """The app's Problems read `project_findings`: the same note, once;
    `rules: {unreached: off}` silences it."""
    project = _claude_project(tmp_path, count=1)
    opened = OpenProject.read(project_from_folder(str(project), "codex"))
    [note] = [d for d in project_findings(opened) if d.code == "unreached"]
    assert "does not load the skill here" in note.message and "holds it;" in note.message
    write(project, "skillstudio.yaml", "profile: codex\nrules:\n  unreached: off\n")
    assert _notes(lint_json(str(project), "--no-cache")) == []


def test_roots_given_or_one_skill_given_say_where_it_is_read(tmp_path: Path) -> None:
    """`--root` names what is read, and one skill given is asked about alone: no note."""
    project = _claude_project(tmp_path)
    root = str(project / ".claude/skills")
    assert _notes(lint_json("--root", root, "--profile", "codex", "--no-cache")) == []
    one = str(project / ".claude/skills/skill-0")
    assert _notes(lint_json(one, "--profile", "codex", "--no-cache")) == []
