"""`lint --profile all` and `show`: which profiles load a skill, and what the others
reject (issue 17)."""

from __future__ import annotations

from pathlib import Path

from skillstudio.core.profiles import PROFILE_NAMES, register_profile, unregister_profile
from skillstudio.core.profiles.agentskills import AgentSkills

from .helpers import cli, skill_text, write


def _skill(tmp_path: Path) -> str:
    return write(
        tmp_path,
        "skills/review/SKILL.md",
        skill_text(name="review", description="Reviews code.", **{"argument-hint": "[file]"}),
    )


def test_lint_profile_all_says_who_loads_each_skill(tmp_path: Path) -> None:
    _skill(tmp_path)
    run = cli("lint", "--profile", "all", "skills", cwd=tmp_path)
    line = next(x for x in run.out.splitlines() if x.startswith("skills/review/SKILL.md: "))
    assert "loads in pegasus, toolsets, mvp, workspace" in line
    assert "agentskills (unknown key `argument-hint`)" in line
    assert "oasis (missing `id`, `triggers`, `priority`)" in line
    data = cli("lint", "--profile", "all", "--format", "json", "skills", cwd=tmp_path).json
    (entry,) = data["portability"]
    assert [v["profile"] for v in entry["profiles"]] == PROFILE_NAMES
    assert "agentskills" not in entry["loads"] and "pegasus" in entry["loads"]
    # the skills are still linted as detected (argument-hint is no agent's mark: Claude
    # Code and GitHub Copilot read it), and an agent that reads it loads the skill
    assert data["profile"] == "agentskills"
    assert "copilot" in entry["loads"]
    plain = cli("lint", "--format", "json", "skills", cwd=tmp_path).json
    assert "portability" not in plain


def test_a_registered_profile_joins_the_view(tmp_path: Path) -> None:
    class Lenient(AgentSkills):
        name = "lenient-test"
        unknown_field_severity = "info"

    _skill(tmp_path)
    register_profile(Lenient)
    try:
        data = cli("lint", "--profile", "all", "--format", "json", "skills", cwd=tmp_path).json
    finally:
        unregister_profile("lenient-test")
    assert "lenient-test" in data["portability"][0]["loads"]


def test_show_has_a_row_per_skill(tmp_path: Path) -> None:
    _skill(tmp_path)
    run = cli("show", "review", cwd=tmp_path)
    assert "  where: loads in pegasus" in run.out
    data = cli("show", "review", "--format", "json", cwd=tmp_path).json
    verdicts = {v["profile"]: v for v in data["portability"]}
    assert verdicts["oasis"]["loads"] is False and verdicts["oasis"]["status"] == "skipped"
