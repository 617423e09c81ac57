"""`lint --profile all` and `show`: which profiles load a skill, and what the others
reject (issue 17)."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import pytest

from skillstudio.core.checking import advice
from skillstudio.core.checking.validate import validate_skill
from skillstudio.core.model.skills import Root, Skill
from skillstudio.core.profile import Checker
from skillstudio.core.profiles import (
    PROFILE_NAMES,
    get_profile,
    register_profile,
    unregister_profile,
)
from skillstudio.core.profiles.agentskills import AgentSkills
from skillstudio.core.projects.portability import portability
from skillstudio.core.reading.frontmatter import read_document

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
    assert "  as written (placed where each one reads skills): loads in pegasus" in run.out
    data = cli("show", "review", "--format", "json", cwd=tmp_path).json
    verdicts = {v["profile"]: v for v in data["portability"]}
    assert verdicts["oasis"]["loads"] is False and verdicts["oasis"]["status"] == "skipped"


def test_a_verdict_gives_no_advice_unless_a_rule_makes_it_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 38's speed: the 18 verdicts on each skill read errors alone, so the
    standard's advice (info and warnings) is not worked out for them; a profile whose
    rules raise an advice code to an error still gets it, and rejects the skill."""

    class Strict(AgentSkills):
        name = "strict-advice-test"
        rules = MappingProxyType({"description-person": "error"})

    path = write(
        tmp_path,
        "skills/helper/SKILL.md",
        skill_text(name="helper", description="I help you review code. Use when asked."),
    )
    skill = Skill(path=path, root=Root(str(tmp_path / "skills"), "", 0), doc=read_document(path))
    advised: list[str] = []
    real = advice._name_advice

    def counted(c: Checker) -> None:
        advised.append(c.profile.name)
        real(c)

    monkeypatch.setattr(advice, "_name_advice", counted)
    verdicts = {v.profile: v for v in portability(skill)}
    assert advised == [] and verdicts["agentskills"].loads
    register_profile(Strict)
    try:
        verdicts = {v.profile: v for v in portability(skill)}
    finally:
        unregister_profile("strict-advice-test")
    assert advised == ["strict-advice-test"]
    strict = verdicts["strict-advice-test"]
    assert not strict.loads and strict.reasons == ["description person"]
    # a skill loaded, not judged, is still advised
    loaded = Skill(path=path, root=skill.root, doc=read_document(path))
    validate_skill(loaded, get_profile("agentskills"))
    assert advised[-1] == "agentskills"
    assert "description-person" in {d.code for d in loaded.diagnostics}


def test_show_says_its_two_views_without_contradiction(tmp_path: Path) -> None:
    """`show`'s profile verdicts (the text, placed where each one reads skills) and the
    agents' answers (the file where it sits) are labelled as the two questions they
    answer: a reader saw "where: loads in … claude-code" above "claude-code: not
    found". A skill in `skills/` no agent with folders finds in place says what to do;
    one in `.claude/skills` is found there and gets no such line."""
    _skill(tmp_path)
    out = cli("show", "review", cwd=tmp_path).out.splitlines()
    assert not any(line.startswith("  where:") for line in out)
    written = next(line for line in out if line.startswith("  as written"))
    assert "claude-code" in written.split(";")[0]  # its text passes Claude Code's rules
    head = out.index("in place (if each agent runs in the folder opened):")
    assert out.index(written) < head
    assert any(line.startswith("  claude-code: not found (reads .claude/skills") for line in out)
    assert any(x.startswith("  no agent with folders of its own finds") for x in out[head:])
    placed = tmp_path / "placed"
    write(
        placed,
        ".claude/skills/review/SKILL.md",
        skill_text(name="review", description="Reviews code."),
    )
    out = cli("show", "review", cwd=placed).out.splitlines()
    assert any(line.startswith("  claude-code: found in .claude/skills") for line in out)
    assert not any("no agent with folders of its own" in line for line in out)
