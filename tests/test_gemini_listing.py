"""Gemini CLI's listing (core/profiles/gemini/listing.py, core/projects/gemini_set.py),
against its source (google-gemini/gemini-cli, docs/agents.md "Gemini CLI's listing"): the
skills section byte for byte with a system prompt Gemini CLI wrote (a capture published
in 2026, recorded below: its skills are the inputs), the activate_skill declaration as
its own snapshot test pins it, the order and name rules of its loader, and `headroom`."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from skillstudio.core.delivery.headroom import listing_headroom
from skillstudio.core.delivery.tiers import render_listing
from skillstudio.core.profiles.gemini.listing import (
    BUILTIN_SKILLS,
    GeminiSkill,
    activate_skill_declaration,
    from_frontmatter,
    gemini_name,
    loaded,
    skills_section,
)
from skillstudio.core.projects.gemini_set import gemini_headroom, gemini_skills
from skillstudio.core.projects.project import project_from_folder

from .helpers import cli, write

HOME = "/home/fpiraz"
# The recorded capture: a Gemini CLI system prompt of 2026 (skill-creator from an nvm
# install, four skills of ~/.gemini/skills in the order Gemini CLI's glob found them).
CREATOR_AT = (
    f"{HOME}/.nvm/versions/node/v22.9.0/lib/node_modules/@google/gemini-cli/node_modules/"
    "@google/gemini-cli-core/dist/src/skills/builtin/skill-creator/SKILL.md"
)
USER_SKILLS = [
    (
        "taskwarrior-expert",
        "Expert system for managing session plans, tasks, and context using Taskwarrior. Use "
        "this when managing tasks, creating plans, tracking progress, or storing session "
        "context.",
        f"{HOME}/.gemini/skills/taskwarrior_expert/SKILL.md",
    ),
    (
        "python-expert",
        "Expert system for writing high-quality, PEP 8 compliant Python 3.13+ code.",
        f"{HOME}/.gemini/skills/python_expert/SKILL.md",
    ),
    (
        "jacazul-engine",
        "Technical engine for the Jacazul AI CLI. Manages Taskwarrior workflows, UUID "
        "protocols, Git standards, and session orientation.",
        f"{HOME}/.gemini/skills/jacazul-engine/SKILL.md",
    ),
    (
        "git-expert",
        "Expert system for Git version control following high engineering standards.",
        f"{HOME}/.gemini/skills/git_expert/SKILL.md",
    ),
]
CAPTURED = (
    "# Available Agent Skills\n\n"
    "You have access to the following specialized skills. To activate a skill and receive "
    "its detailed instructions, call the `activate_skill` tool with the skill's name.\n\n"
    "<available_skills>\n"
    "  <skill>\n"
    "    <name>skill-creator</name>\n"
    "    <description>Guide for creating effective skills. This skill should be used when "
    "users want to create a new skill (or update an existing skill) that extends Gemini "
    "CLI's capabilities with specialized knowledge, workflows, or tool "
    "integrations.</description>\n"
    f"    <location>{CREATOR_AT}</location>\n"
    "  </skill>\n"
    "  <skill>\n"
    "    <name>taskwarrior-expert</name>\n"
    "    <description>Expert system for managing session plans, tasks, and context using "
    "Taskwarrior. Use this when managing tasks, creating plans, tracking progress, or "
    "storing session context.</description>\n"
    f"    <location>{HOME}/.gemini/skills/taskwarrior_expert/SKILL.md</location>\n"
    "  </skill>\n"
    "  <skill>\n"
    "    <name>python-expert</name>\n"
    "    <description>Expert system for writing high-quality, PEP 8 compliant Python 3.13+ "
    "code.</description>\n"
    f"    <location>{HOME}/.gemini/skills/python_expert/SKILL.md</location>\n"
    "  </skill>\n"
    "  <skill>\n"
    "    <name>jacazul-engine</name>\n"
    "    <description>Technical engine for the Jacazul AI CLI. Manages Taskwarrior workflows, "
    "UUID protocols, Git standards, and session orientation.</description>\n"
    f"    <location>{HOME}/.gemini/skills/jacazul-engine/SKILL.md</location>\n"
    "  </skill>\n"
    "  <skill>\n"
    "    <name>git-expert</name>\n"
    "    <description>Expert system for Git version control following high engineering "
    "standards.</description>\n"
    f"    <location>{HOME}/.gemini/skills/git_expert/SKILL.md</location>\n"
    "  </skill>\n"
    "</available_skills>"
)


def test_the_skills_section_is_byte_for_byte_the_captured_one() -> None:
    users = [GeminiSkill(n, d, at, "user") for n, d, at in USER_SKILLS]
    creator = replace(BUILTIN_SKILLS[0], location=CREATOR_AT)
    listed = loaded(users, builtin=False)
    assert skills_section([creator, *listed]) == CAPTURED
    # the built-in skill comes first on its own, at the install's location
    assert [s.name for s in loaded(users)] == ["skill-creator", *(n for n, _, _ in USER_SKILLS)]
    assert skills_section([]) == ""  # no skill: no section at all


def test_the_activate_skill_declaration_as_gemini_clis_snapshot_pins_it() -> None:
    """coreToolsModelSnapshots.test.ts.snap: activate_skill with skill1, skill2; and
    activate_skill_empty (its keys sorted there; a dict compares without order)."""
    tail = (
        ". Returns the skill's instructions wrapped in `<activated_skill>` tags. These "
        "provide specialized guidance for the current task. Use this when you identify a "
        "task that matches a skill's description. ONLY use names exactly as they appear in "
        "the `<available_skills>` section."
    )
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "additionalProperties": False,
        "required": ["name"],
        "type": "object",
    }
    assert activate_skill_declaration(["skill1", "skill2"]) == {
        "description": "Activates a specialized agent skill by name (Available: 'skill1', "
        "'skill2')" + tail,
        "name": "activate_skill",
        "parametersJsonSchema": {
            **schema,
            "properties": {
                "name": {
                    "description": "The name of the skill to activate.",
                    "enum": ["skill1", "skill2"],
                    "type": "string",
                }
            },
        },
    }
    empty = activate_skill_declaration([])
    assert empty["description"] == "Activates a specialized agent skill by name" + tail
    assert empty["parametersJsonSchema"]["properties"] == {
        "name": {"description": "No skills are currently available.", "type": "string"}
    }


def test_names_order_and_what_gemini_cli_loads() -> None:
    assert gemini_name('a:b\\c/d<e>f*g?h"i|j') == "a-b-c-d-e-f-g-h-i-j"
    assert from_frontmatter({"name": "x"}, "/p", "user") is None  # no description
    assert from_frontmatter({"name": 1, "description": "d"}, "/p", "user") is None
    kept = from_frontmatter({"name": "p:q", "description": "Two\nlines"}, "/p", "workspace")
    assert kept == GeminiSkill("p-q", "Two\nlines", "/p", "workspace")  # kept as read
    # scope by scope; a later skill of a name replaces the earlier one in its place
    skills = [
        GeminiSkill("b", "workspace .agents b", "/w/.agents/b", "workspace-agents"),
        GeminiSkill("b", "workspace b", "/w/.gemini/b", "workspace"),
        GeminiSkill("a", "user a", "/h/.gemini/a", "user"),
        GeminiSkill("skill-creator", "mine", "/h/.gemini/skill-creator", "user"),
        GeminiSkill("b", "user b", "/h/.gemini/b", "user"),
    ]
    listed = loaded(skills)
    assert [(s.name, s.description) for s in listed] == [
        ("skill-creator", "mine"),
        ("a", "user a"),
        ("b", "workspace .agents b"),
    ]


def test_the_folders_it_reads_and_its_headroom_row(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    write(home, ".gemini/skills/notes/SKILL.md", "---\nname: notes\ndescription: Notes.\n---\n")
    write(work, ".gemini/skills/pdf/SKILL.md", "---\nname: pdf\ndescription: PDFs.\n---\nB\n")
    write(work, ".agents/skills/pdf/SKILL.md", "---\nname: pdf\ndescription: Forms.\n---\n")
    write(work, ".agents/skills/bare/SKILL.md", "---\nname: bare\n---\n")  # not loaded
    write(work, ".claude/skills/other/SKILL.md", "---\nname: other\ndescription: O.\n---\n")
    skills = gemini_skills(str(work), str(home))
    assert [(s.name, s.description, s.scope) for s in skills] == [
        ("skill-creator", BUILTIN_SKILLS[0].description, "built-in"),
        ("notes", "Notes.", "user"),
        ("pdf", "Forms.", "workspace-agents"),
    ]
    assert skills[2].location == str(work / ".agents/skills/pdf/SKILL.md")
    room = gemini_headroom(str(work), str(home))
    section = skills_section(skills)
    assert (room.budget, room.needed, room.used) == (None, len(section), len(section))
    assert room.listed == ["skill-creator", "notes", "pdf"]
    assert room.skills == 2 and room.agent_skills == ["skill-creator"]
    cost = room.cost_of("pdf")  # a skill always has its description element: the text
    assert cost is not None and cost.chars == cost.description == len("Forms.")
    assert "No budget" in room.note and "activate_skill" in room.note


def test_headroom_shows_gemini_clis_listing_size(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write(repo, ".gemini/skills/pdf/SKILL.md", "---\nname: pdf\ndescription: PDFs.\n---\n")
    run = cli("headroom", "--agent", "gemini", "--format", "json", "--skill", "pdf", cwd=repo)
    assert run.code == 0, run.err
    (row,) = run.json["agents"]
    assert row["agent"] == "gemini" and row["budget"] is None
    assert row["listed"][0] == "skill-creator" and "pdf" in row["listed"]
    assert row["needed"] == row["used"] > 0
    assert row["skill"]["listed"] is True
    text = cli("headroom", "--agent", "gemini", cwd=repo)
    assert "gemini (Gemini CLI, .):" in text.out
    assert "no budget" in text.out
    assert "gemini" not in text.out.split("listing budget not documented:")[-1]


def test_installed_extensions_skills_rank_below_the_users(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    ext = ".gemini/extensions/lab"
    write(home, f"{ext}/gemini-extension.json", '{"name": "lab", "version": "1.0.0"}\n')
    write(home, f"{ext}/skills/fit/SKILL.md", "---\nname: fit\ndescription: Fits.\n---\n")
    write(home, f"{ext}/skills/notes/SKILL.md", "---\nname: notes\ndescription: Ext.\n---\n")
    write(home, ".gemini/skills/notes/SKILL.md", "---\nname: notes\ndescription: Mine.\n---\n")
    # a folder without the manifest is no extension
    write(
        home, ".gemini/extensions/loose/skills/x/SKILL.md", "---\nname: x\ndescription: X.\n---\n"
    )
    wext = ".gemini/extensions/tools"
    write(work, f"{wext}/gemini-extension.json", '{"name": "tools", "version": "1.0.0"}\n')
    write(work, f"{wext}/skills/lint/SKILL.md", "---\nname: lint\ndescription: Lints.\n---\n")
    skills = gemini_skills(str(work), str(home))
    assert [(s.name, s.description, s.scope) for s in skills] == [
        ("skill-creator", BUILTIN_SKILLS[0].description, "built-in"),
        ("fit", "Fits.", "extension"),
        ("notes", "Mine.", "user"),  # the user's replaces it, in its place
        ("lint", "Lints.", "extension"),
    ]


def test_gemini_s_headroom_row_counts_the_set_the_other_rows_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As every other agent's row: the author's view (every SKILL.md of the path), with
    an `in place:` line naming those Gemini CLI would not load where they sit."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    repo = tmp_path / "repo"
    write(repo, ".gemini/skills/pdf/SKILL.md", "---\nname: pdf\ndescription: PDFs.\n---\n")
    write(repo, ".claude/skills/csv/SKILL.md", "---\nname: csv\ndescription: Tables.\n---\n")
    write(repo, ".claude/skills/git/SKILL.md", "---\nname: git\ndescription: Commits.\n---\n")
    data = cli("headroom", "--format", "json", cwd=repo).json
    rows = {row["agent"]: row for row in data["agents"]}
    gemini, claude = rows["gemini"], rows["claude-code"]
    assert gemini["skills"] == claude["skills"] == 3
    assert sorted(gemini["listed"]) == ["csv", "git", "pdf", "skill-creator"]
    assert gemini["in_place"].startswith(
        "2 SKILL.md files here are not loaded by Gemini CLI if it runs in the folder opened "
        "(csv, git)"
    )
    text = cli("headroom", "--agent", "gemini", cwd=repo).out
    assert "  in place: 2 SKILL.md files here are not loaded by Gemini CLI" in text
    assert "  3 skills: its listing takes" in text


def _gemini_project(work: Path) -> None:
    write(work, "skillstudio.yaml", "profile: gemini\nroots: [.gemini/skills]\n")
    write(work, ".gemini/skills/pdf/SKILL.md", "---\nname: pdf\ndescription: PDF forms.\n---\nB\n")


def test_tier_2_prompt_ranking_and_headroom_list_the_built_in_skill_alike(tmp_path: Path) -> None:
    """Issue 43: Gemini CLI lists its own skill-creator first (skillManager.ts), so tier 2,
    `prompt --tier 2`, the likely ranking and `headroom --agent gemini` all hold it, and
    their sizes agree (one function, `listing.loaded`)."""
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    _gemini_project(work)
    prompt = cli("prompt", str(work), "--tier", "2", "--format", "json").json
    assert prompt["listed"] == ["skill-creator", "pdf"]
    assert "<name>skill-creator</name>" in prompt["text"]
    room = gemini_headroom(str(work), str(home))
    assert room.listed == prompt["listed"] and room.needed == prompt["chars"]
    registry = project_from_folder(str(work)).registry()
    registry.scan()
    tier = render_listing(registry, {})
    assert [tier.listed[i] for i in tier.agent_own] == ["skill-creator"]
    app_room = listing_headroom(registry, {})
    assert app_room.agent_skills == ["skill-creator"] and app_room.needed == room.needed
    found = cli("match", "create a new skill for me", str(work), "--format", "json").json
    assert [c["skill"] for c in found["likely"] if c["band"] == "likely"] == ["skill-creator"]


def test_a_users_skill_creator_takes_the_built_in_ones_place(tmp_path: Path) -> None:
    work = tmp_path / "work"
    _gemini_project(work)
    mine = "---\nname: skill-creator\ndescription: Makes skills my way.\n---\nB\n"
    write(work, ".gemini/skills/skill-creator/SKILL.md", mine)
    prompt = cli("prompt", str(work), "--tier", "2", "--format", "json").json
    assert prompt["listed"].count("skill-creator") == 1
    assert "Makes skills my way." in prompt["text"]
    assert BUILTIN_SKILLS[0].description not in prompt["text"]
    lint = cli("lint", str(work), "--format", "json").json
    notes = [d["message"] for d in lint["diagnostics"] if d["code"] == "duplicate-name"]
    assert notes and "lists this one in its place" in notes[0]
