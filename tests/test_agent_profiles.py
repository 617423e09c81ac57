"""Every agent as a profile (issue 38, PRODUCT.md 3.10): each agent's row of
core/profiles/agents.py read as a profile (the standard's checks plus the row), its
detection by the folders that name it alone, its name rule, and no Claude Code advice.
The fixtures are in tests/data/agent_profiles/ (one small tree per agent)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.profiles import PROFILE_CLASSES, PROFILE_NAMES, get_profile
from skillstudio.core.profiles.agent_profiles import AgentProfile, own_folders
from skillstudio.core.profiles.agents import AGENTS
from skillstudio.core.profiles.claude_code.advice import tool_entries_at
from skillstudio.core.projects.detection import detect_at

from .helpers import cli, lint_json, skill_text, write

DATA = Path(__file__).parent / "data" / "agent_profiles"
AGENT_KEYS = ["copilot", "cursor", "gemini", "opencode", "goose", "amp", "windsurf"]
AGENT_KEYS += ["kiro", "junie", "letta"]
CLAUDE_ONLY = {"argument-hint-unused", "tool-unknown", "bash-unrestricted", "model-unknown"}


def _tree(tmp_path: Path, name: str) -> Path:
    """A copy of one fixture tree (nothing above it marks another agent)."""
    dest = tmp_path / name
    shutil.copytree(DATA / name, dest)
    return dest


def _by_skill(data: dict[str, Any]) -> dict[str, list[tuple[str, str]]]:
    out: dict[str, list[tuple[str, str]]] = {}
    for d in data["diagnostics"]:
        folder = Path(d["path"]).parent.name
        out.setdefault(folder, []).append((d["code"], d["severity"]))
    return out


def test_every_agent_row_is_a_profile_from_the_registry() -> None:
    for key in AGENT_KEYS:
        assert key in PROFILE_NAMES
        profile = get_profile(key)
        assert isinstance(profile, AgentProfile)
        assert profile.spec is next(a for a in AGENTS if a.key == key)
    # after the full profiles, in the rows' order; the three full ones keep their own
    assert PROFILE_NAMES.index("codex") < PROFILE_NAMES.index("copilot")
    assert [n for n in PROFILE_NAMES if n in AGENT_KEYS] == AGENT_KEYS
    assert not issubclass(PROFILE_CLASSES["claude-code"], AgentProfile)


def test_roots_and_marks_come_from_the_rows() -> None:
    copilot = get_profile("copilot")
    paths = [r.path for r in copilot.roots]
    assert paths[-3:] == [".claude/skills", ".agents/skills", ".github/skills"]  # lowest first
    assert "~/.copilot/skills" in paths
    assert copilot.marker_dirs == (".github/skills",)
    # a folder other agents read too is no agent's mark
    marks = {key: own_folders(next(a for a in AGENTS if a.key == key)) for key in AGENT_KEYS}
    assert marks["cursor"] == (".cursor/skills",)  # not .claude/skills nor .codex/skills
    assert marks["gemini"] == (".gemini/skills",)
    assert marks["opencode"] == (".opencode/skills",)
    assert marks["amp"] == () and marks["letta"] == ()
    assert all(".agents/skills" not in m and ".claude/skills" not in m for m in marks.values())


@pytest.mark.parametrize(
    ("tree", "expected"),
    [
        ("copilot", "copilot"),
        ("gemini", "gemini"),
        ("opencode", "opencode"),
        ("cursor", "cursor"),
        ("shared", "agentskills"),  # argument-hint and allowed-tools are no mark
    ],
)
def test_detection_names_the_agent_whose_folder_holds_skills(
    tmp_path: Path, tree: str, expected: str
) -> None:
    top = str(_tree(tmp_path, tree))
    name, why = detect_at(top, top)
    assert name == expected, why
    if expected != "agentskills":
        assert why.startswith(f"detected {expected}: .")


def test_the_agent_folder_given_alone_keeps_its_agent(tmp_path: Path) -> None:
    """`lint .github/skills`: the folder's parent and grandparent are looked at."""
    top = _tree(tmp_path, "copilot")
    folder = str(top / ".github" / "skills")
    assert detect_at(folder, folder)[0] == "copilot"
    data = lint_json(".github/skills", cwd=top)
    assert data["profile"] == "copilot"


def test_an_empty_agent_folder_is_no_mark(tmp_path: Path) -> None:
    top = _tree(tmp_path, "shared")
    (top / ".github" / "skills").mkdir(parents=True)  # nothing in it
    assert detect_at(str(top), str(top))[0] == "agentskills"


@pytest.mark.parametrize(
    ("folder", "agent"),
    [
        (".goose/skills", "goose"),
        (".windsurf/skills", "windsurf"),
        (".kiro/skills", "kiro"),
        (".junie/skills", "junie"),
        (".agents/skills", "agentskills"),  # read by many: no agent's mark
        (".claude/skills", "claude-code"),  # Claude Code's own, read by others too
    ],
)
def test_each_own_folder_marks_its_agent(tmp_path: Path, folder: str, agent: str) -> None:
    write(tmp_path, f"{folder}/a/SKILL.md", skill_text(name="a", description="A. Use for a."))
    assert detect_at(str(tmp_path), str(tmp_path))[0] == agent


def test_a_copilot_catalogue_is_not_claude_code(tmp_path: Path) -> None:
    """`.github/skills/*` with argument-hint, user-invocable and an allowed-tools list:
    Copilot's, checked without Claude Code's advice (ask_user is a Copilot tool)."""
    top = _tree(tmp_path, "copilot")
    data = lint_json(".", cwd=top)
    assert data["profile"] == "copilot"
    codes = {c for found in _by_skill(data).values() for c, _ in found}
    assert not codes & CLAUDE_ONLY
    assert "unknown-field" not in codes  # Copilot reads argument-hint, user-invocable
    # the same tree read as Claude Code gets its advice: the check is real
    claude = lint_json("--profile", "claude-code", ".", cwd=top)
    claude_codes = {d["code"] for d in claude["diagnostics"]}
    assert {"argument-hint-unused", "tool-unknown"} <= claude_codes
    # and the standard alone refuses Copilot's fields
    standard = lint_json("--profile", "agentskills", ".", cwd=top)
    assert "unknown-field" in {d["code"] for d in standard["diagnostics"]}


def test_the_copilot_name_is_the_folder(tmp_path: Path) -> None:
    write(
        tmp_path,
        ".github/skills/release/SKILL.md",
        skill_text(name="release-notes", description="Writes release notes. Use for releases."),
    )
    data = lint_json(".", cwd=tmp_path)
    assert data["profile"] == "copilot"
    assert [s["name"] for s in data["skills"]] == ["release"]
    assert ("name-dir-mismatch", "error") in _by_skill(data)["release"]


def test_gemini_names_by_the_field_and_reads_what_yaml_cannot(tmp_path: Path) -> None:
    """Gemini CLI's loader (skillLoader.ts): any string name, sanitised; the folder is
    not used; a description with ': ' is read by its fallback parser."""
    top = _tree(tmp_path, "gemini")
    run = cli("lint", "--format", "json", ".", cwd=top)
    assert run.code == 0, run.out  # no error on names Gemini accepts
    data = run.json
    names = {Path(s["path"]).parent.name: (s["name"], s["status"]) for s in data["skills"]}
    assert names["pkgcheck"] == ("pkgcheck-dependency-guard", "active")
    assert names["docs-writer"] == ("docs-writer", "active")  # docs:writer, sanitised
    assert names["triage"][1] == "active"
    found = _by_skill(data)
    assert ("name-dir-mismatch", "info") in found["pkgcheck"]
    assert ("name-format", "warning") in found["docs-writer"]
    assert ("yaml-invalid", "warning") in found["triage"]
    # the standard fails the same tree (the rule that misfired before: name-dir-mismatch)
    standard = cli("lint", "--profile", "agentskills", "--format", "json", ".", cwd=top)
    assert standard.code == 1
    assert ("name-dir-mismatch", "error") in _by_skill(standard.json)["pkgcheck"]


def test_gemini_loads_a_description_over_the_standards_limit(tmp_path: Path) -> None:
    long = "Checks a thing and reports it. Use when asked. " + "More words here. " * 70
    write(tmp_path, ".gemini/skills/long/SKILL.md", skill_text(name="long", description=long))
    gemini = _by_skill(lint_json(".", cwd=tmp_path))["long"]
    assert ("description-too-long", "warning") in gemini
    standard = _by_skill(lint_json("--profile", "agentskills", ".", cwd=tmp_path))["long"]
    assert ("description-too-long", "error") in standard


def test_gemini_lists_skills_as_gemini_cli_does(tmp_path: Path) -> None:
    top = _tree(tmp_path, "gemini")
    run = cli("prompt", "--profile", "gemini", "--tier", "2", ".", cwd=top)
    assert run.code == 0, run.err
    assert "# Available Agent Skills" in run.out
    assert "<name>pkgcheck-dependency-guard</name>" in run.out
    tool = get_profile("gemini").skill_tool(["a"])
    assert tool is not None and tool["name"] == "activate_skill"
    assert get_profile("copilot").skill_tool(["a"]) is None


def test_opencode_ignores_allowed_tools_and_keeps_the_name_rule(tmp_path: Path) -> None:
    top = _tree(tmp_path, "opencode")
    data = lint_json(".", cwd=top)
    assert data["profile"] == "opencode"
    found = _by_skill(data)
    assert ("field-ignored", "info") in found["git-release"]
    ignored = [d for d in data["diagnostics"] if d["code"] == "field-ignored"]
    assert [d["field"] for d in ignored] == ["allowed-tools"]  # license is read
    assert "not pre-approved" in ignored[0]["message"]
    assert ("name-format", "error") in found["Bad_Name"]


def test_cursor_reads_disable_model_invocation(tmp_path: Path) -> None:
    top = _tree(tmp_path, "cursor")
    data = lint_json(".", cwd=top)
    assert data["profile"] == "cursor"
    assert data["diagnostics"] == [] or all(
        d["code"] != "unknown-field" for d in data["diagnostics"]
    )
    gemini = lint_json("--profile", "gemini", ".", cwd=top)
    unknown = [d for d in gemini["diagnostics"] if d["code"] == "unknown-field"]
    assert unknown and unknown[0]["severity"] == "warning"  # Gemini loads it, ignoring it


def test_profile_all_lists_every_agent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    top = _tree(tmp_path, "copilot")
    data = lint_json("--profile", "all", ".", cwd=top)
    entry = data["portability"][0]
    assert [v["profile"] for v in entry["profiles"]] == PROFILE_NAMES
    assert "copilot" in entry["loads"]
    assert cli("lint", "--profile", "nope", ".", cwd=top).code == 2
    assert "copilot,cursor,gemini,opencode" in capsys.readouterr().err  # the choices


def test_allowed_tools_split_as_claude_code_splits_them() -> None:
    """A text at commas and blanks outside parentheses; a list's items whole."""
    text = [e.text for e in tool_entries_at("Bash(git add:*) Read, Grep")]
    assert text == ["Bash(git add:*)", "Read", "Grep"]
    listed = tool_entries_at(["Azure MCP/documentation", " Bash(git log:*)"])
    assert [(e.text, e.item, e.offset) for e in listed] == [
        ("Azure MCP/documentation", 0, 0),
        ("Bash(git log:*)", 1, 1),
    ]


def test_claude_code_names_one_unknown_tool_per_list_item(tmp_path: Path) -> None:
    write(
        tmp_path,
        ".claude/skills/docs/SKILL.md",
        skill_text(
            name="docs",
            description="Looks up Azure documentation. Use for Azure questions.",
            **{"allowed-tools": ["Azure MCP/documentation", "Read"]},
        ),
    )
    data = lint_json(".", cwd=tmp_path)
    unknown = [d["message"] for d in data["diagnostics"] if d["code"] == "tool-unknown"]
    assert len(unknown) == 1 and "'Azure MCP/documentation'" in unknown[0]


def test_copilots_listing_is_vs_codes_skills_block_unescaped(tmp_path: Path) -> None:
    """VS Code's Copilot Chat (computeAutomaticInstructions.ts) writes a `<skills>` block,
    one line per element, values as they are; the standard's form (skills-ref) escapes."""
    write(tmp_path, "skillstudio.yaml", "profile: copilot\nroots: [.github/skills]\n")
    desc = "Summarizes a pull request's changes & risks. Use when asked <what> changed."
    write(
        tmp_path,
        ".github/skills/pr-summary/SKILL.md",
        skill_text(name="pr-summary", description=desc),
    )
    path = tmp_path / ".github/skills/pr-summary/SKILL.md"
    tier = cli("prompt", str(tmp_path), "--tier", "2", "--format", "json").json
    lines = tier["text"].splitlines()
    assert lines[0] == "<skills>" and lines[-1] == "</skills>"
    assert "use the 'read_file' tool to acquire the full instructions" in lines[3]
    assert lines[4:9] == [
        "<skill>",
        "<name>pr-summary</name>",
        f"<description>{desc}</description>",
        f"<file>{path}</file>",
        "</skill>",
    ]
    write(tmp_path, "skillstudio.yaml", "profile: cursor\nroots: [.github/skills]\n")
    other = cli("prompt", str(tmp_path), "--tier", "2", "--format", "json").json
    assert "request&#x27;s changes &amp; risks" in other["text"]  # skills-ref's to_prompt
