"""Claude Code's own entries in its listing (core/profiles/claude_code/bundled.py and
listing.py; docs/agents.md, "Claude Code's bundled skills"): its bundled skills and
built-in prompt commands, after the user's skills, in the same budget; a bundled skill
never loses its description, a built-in command may; skillOverrides and
`bundled_skills: false` leave them out; lint's note never points at them."""

from __future__ import annotations

import json
from pathlib import Path

from skillstudio.core.delivery.headroom import listing_headroom, listing_over_budget
from skillstudio.core.delivery.tiers import render_listing
from skillstudio.core.profiles import get_profile
from skillstudio.core.profiles.claude_code.bundled import BUILTIN_COMMANDS, BUNDLED_SKILLS
from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.scanning.registry import Registry

from .helpers import cli, skill_text, write

BUNDLED = [own.name for own in BUNDLED_SKILLS]
COMMANDS = [own.name for own in BUILTIN_COMMANDS]
HEAD = "<system-reminder>\nThe following skills are available for use with the Skill tool:\n\n"


def _registry(folder: Path, count: int = 2) -> Registry:
    for n in range(count):
        desc = f"Skill number {n} does its task well."  # a line of 40 + newline
        write(folder, f".claude/skills/s{n}/SKILL.md", skill_text(description=desc))
    registry = project_from_folder(str(folder)).registry()
    registry.scan()
    return registry


def test_the_own_entries_follow_the_users_skills_as_a_captured_request_lists_them(
    tmp_path: Path,
) -> None:
    tier = render_listing(_registry(tmp_path), {})
    assert tier.listed == ["s0", "s1", *BUNDLED, *COMMANDS]
    assert [tier.listed[i] for i in tier.agent_own] == [*BUNDLED, *COMMANDS]
    assert BUNDLED == [
        "update-config",
        "keybindings-help",
        "simplify",
        "fewer-permission-prompts",
        "loop",
        "schedule",
        "claude-api",
    ]
    assert COMMANDS == ["init", "review", "security-review"]
    assert tier.text.startswith(
        HEAD + "- s0: Skill number 0 does its task well.\n"
        "- s1: Skill number 1 does its task well.\n"
        "- update-config: Use this skill to configure the Claude Code harness via "
        'settings.json. Automated behaviors ("from now on when X", '
    )
    lines = tier.text.split("\n")
    simplify = "- simplify: Review changed code for reuse, quality, and efficiency, then fix any "
    assert simplify + "issues found." in lines
    assert "- review: Review a pull request" in lines
    # claude-api's description holds two newlines, as Claude Code lists it
    assert "TRIGGER when: code imports `anthropic`/`@anthropic-ai/sdk`; user asks for" in (
        tier.text
    )
    assert tier.text.endswith(
        "- security-review: Complete a security review of the pending changes on the current "
        "branch\n</system-reminder>"
    )
    assert tier.spent == 2 * 41 + 2_923
    assert len(tier.text) == len(HEAD) + tier.spent - 1 + len("\n</system-reminder>")


def test_over_the_budget_a_bundled_skill_keeps_its_description(tmp_path: Path) -> None:
    registry = _registry(tmp_path, 4)
    # 4 x 41 + 2,923 = 3,087 needed; the built-in commands fall first (from the end),
    # then the user's skills; the bundled skills' 2,732 characters always stay whole
    tier = render_listing(registry, {"char_budget": 3_000})
    assert tier.shortened == ["review", "security-review"]  # until it fits
    assert tier.spent == 3_087 - (92 - 19) - (33 - 10) == 2_991
    tier = render_listing(registry, {"char_budget": 2_850})
    assert tier.shortened == ["s1", "s2", "s3", "init", "review", "security-review"]
    assert tier.spent == 2_732 + 41 + 3 * 5 + 34 <= 2_850  # "- s1" and its newline: 5
    tier = render_listing(registry, {"char_budget": 1_000})  # under the bundled alone
    assert set(tier.shortened) == {"s0", "s1", "s2", "s3", *COMMANDS}
    assert tier.spent == 2_732 + 4 * 5 + 34
    assert "keeps every name and its bundled skills' descriptions" in tier.note
    assert "- simplify: Review changed code" in tier.text
    # uses decide among the rest: a used built-in command keeps its description
    tier = render_listing(registry, {"char_budget": 3_000, "skill_usage": {"review": 3}})
    assert tier.shortened == ["init", "security-review"]


def test_skill_overrides_and_the_setting_leave_them_out(tmp_path: Path) -> None:
    settings = {"skillOverrides": {"simplify": "off", "loop": "name-only", "init": "off"}}
    write(tmp_path, ".claude/settings.json", json.dumps(settings))
    registry = _registry(tmp_path)
    tier = render_listing(registry, {})
    assert "simplify" not in tier.listed and "init" not in tier.listed
    assert {
        "skill": "simplify",
        "reason": "skillOverrides: off (hidden from Claude and the / menu)",
    } in tier.omitted
    assert "\n- loop\n" in tier.text  # name-only: its bare name
    names = [s.name for s in registry.profile.agent_skills({})]
    assert names == [n for n in BUNDLED + COMMANDS if n not in ("simplify", "init")]
    assert render_listing(registry, {"bundled_skills": False}).listed == ["s0", "s1"]
    assert registry.profile.agent_skills({"bundled_skills": False}) == []
    write(tmp_path, "skillstudio.yaml", "profile: claude-code\nbundled_skills: false\n")
    project = project_from_folder(str(tmp_path))
    assert project.options["bundled_skills"] is False
    assert not project.diagnostics
    write(tmp_path, "skillstudio.yaml", "bundled_skills: maybe\n")
    (bad,) = project_from_folder(str(tmp_path)).diagnostics
    assert bad.code == "config-invalid" and "'bundled_skills' must be true or false" in (
        bad.message
    )


def test_agent_skills_are_the_agents_own_as_a_ranking_reads_them() -> None:
    claude = get_profile("claude-code").agent_skills({})
    assert [s.name for s in claude] == BUNDLED + COMMANDS
    simplify = claude[2]
    assert simplify.description.startswith("Review changed code for reuse")
    assert simplify.fields["agent_skill"] == "claude-code" and simplify.key == "simplify"
    codex = get_profile("codex").agent_skills({})
    assert [s.name for s in codex] == [
        "imagegen",
        "openai-docs",
        "plugin-creator",
        "skill-creator",
        "skill-installer",
    ]
    assert codex[0].path.endswith("/.system/imagegen/SKILL.md")
    assert get_profile("agentskills").agent_skills({}) == []


def test_headroom_counts_them_and_lints_note_says_what_they_lose(tmp_path: Path) -> None:
    registry = _registry(tmp_path, 4)
    room = listing_headroom(registry, {"char_budget": 3_000})
    assert room.needed == 3_087 and room.agent_skills == BUNDLED + COMMANDS
    assert room.shortened == ["review", "security-review"]
    # only Claude Code's own commands lose their descriptions: the note says so; given
    # no place (the open project gives lint's), it stands on the project's last root
    (note,) = listing_over_budget(registry, {"char_budget": 3_000})
    assert note.code == "listing-over-budget"
    assert (note.path, note.line, note.field, note.skill) == (
        registry.roots[-1].path,
        0,
        None,
        None,
    )
    assert "2 skills lose their description (review, security-review)" in note.message
    at = (str(tmp_path / "skillstudio.yaml"), 2, 1)
    (note,) = listing_over_budget(registry, {"char_budget": 2_850}, at)
    assert (note.path, note.line, note.column) == at
    assert "lose their description (s1," in note.message  # the author's first


def test_lints_note_names_the_authors_skills_before_codexs_own(tmp_path: Path) -> None:
    """Codex lists its system skills first: when they lose description characters too,
    the note names the author's skills first and suggests cutting only theirs."""
    for n in range(3):
        desc = f"Skill number {n} " + "does a thing " * 20
        write(tmp_path, f".agents/skills/s{n}/SKILL.md", skill_text(name=f"s{n}", description=desc))
    registry = project_from_folder(str(tmp_path), "codex").registry()
    registry.scan()
    room = listing_headroom(registry, {"char_budget": 1_500})
    assert room.agent_skills[:1] == ["imagegen"] and room.shortened[0] == "imagegen"
    (note,) = listing_over_budget(registry, {"char_budget": 1_500})
    assert "lose their description (s0, s1, s2, imagegen, openai-docs and 3 more)" in (note.message)
    longest = note.message.split("(longest: ")[1]
    assert longest.startswith("s") and "imagegen" not in longest


def test_a_skill_named_like_one_of_claude_codes_own_stays_the_authors(tmp_path: Path) -> None:
    """The user's `review` and `claude-api` are listed beside Claude Code's entries of the
    same names; what the budget costs Claude Code's `review` is never put on the user's."""
    write(tmp_path, ".claude/skills/review/SKILL.md", skill_text(description="Reviews code."))
    write(tmp_path, ".claude/skills/claude-api/SKILL.md", skill_text(description="Calls it."))
    registry = project_from_folder(str(tmp_path)).registry()
    registry.scan()
    tier = render_listing(registry, {})
    assert tier.listed.count("review") == 2 and tier.listed.count("claude-api") == 2
    # "- claude-api: Calls it." 24 and "- review: Reviews code." 24, with their newlines
    room = listing_headroom(registry, {})
    assert room.needed == 24 + 24 + 2_923
    api = sorted((c.own, c.description) for c in room.costs if c.skill == "claude-api")
    assert api == [(False, len("Calls it.")), (True, 0)]
    # over by 96: Claude Code's security-review (73) and review (23) fall to their names
    budget = {"char_budget": room.needed - 96}
    room = listing_headroom(registry, budget)
    assert room.shortened == ["review", "security-review"]
    assert room.own_shortened == ["review", "security-review"]
    (note,) = listing_over_budget(registry, budget)
    assert "(longest: review 15, claude-api 11)" in note.message  # the user's own two
    run = cli("headroom", "--agent", "claude-code", "--format", "json", cwd=tmp_path)
    costs = run.json["agents"][0]["costs"]
    assert {(c["skill"], c["own"]) for c in costs if c["skill"] == "review"} == {
        ("review", False),
        ("review", True),
    }


def test_a_slash_name_claude_code_handles_itself_is_said_to_be_no_skill(tmp_path: Path) -> None:
    _registry(tmp_path)
    said = {}
    for name in ("security-review", "simplify", "s9"):
        run = cli("match", f"/{name} the branch", "--format", "json", cwd=tmp_path)
        assert run.code == 0 and run.json["selected"] == []
        said[name] = run.out
    assert "one of Claude Code's built-in commands" in said["security-review"]
    assert "it is not one of your skills and no skill is selected" in said["security-review"]
    assert "one of Claude Code's own skills" in said["simplify"]
    assert "'s9' is invoked explicitly but no active skill has that name" in said["s9"]
    # with the agent's own entries left out (skillstudio.yaml), the name is unknown again
    write(tmp_path, "skillstudio.yaml", "bundled_skills: false\n")
    run = cli("match", "/security-review", cwd=tmp_path)
    assert "no active skill has that name" in run.out and "built-in" not in run.out
