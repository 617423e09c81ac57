"""The claude-code profile (docs/profiles.md): discovery, plugins and marketplaces,
legacy commands, fields, the listing and its budget, substitution and shell lines."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.delivery.activation import activate
from skillstudio.core.delivery.tiers import render_listing
from skillstudio.core.model.explanations import ADVICE
from skillstudio.core.profiles.claude_code.bundled import OWN_ENTRIES
from skillstudio.core.profiles.claude_code.invoke import shell_lines, substitute_claude
from skillstudio.core.projects.project import detect_profile, project_from_folder

from . import hostile
from .helpers import cli, lint_json, skill_text, write

OWN_NAMES = tuple(own.name for own in OWN_ENTRIES)  # Claude Code's own, listed last
USERS_ONLY = {"bundled_skills": False}  # a listing of the user's skills alone


def _names(data: dict[str, Any]) -> dict[str, str]:
    return {s["name"]: s["status"] for s in data["skills"]}


def _marketplace(base: Path, plugins: list[dict[str, Any]] | None = None) -> None:
    write(
        base,
        ".claude-plugin/marketplace.json",
        json.dumps(
            {
                "name": "team-market",
                "owner": {"name": "Team"},
                "plugins": plugins
                or [
                    {"name": "a", "source": "./plugins/a"},
                    {"name": "b", "source": "./plugins/b"},
                    {"name": "far", "source": {"source": "github", "repo": "x/y"}},
                ],
            },
            indent=2,
        ),
    )
    for plugin in ("a", "b"):
        write(base, f"plugins/{plugin}/.claude-plugin/plugin.json", json.dumps({"name": plugin}))
        write(
            base,
            f"plugins/{plugin}/skills/access/SKILL.md",
            skill_text(name="access", description=f"Grant access through plugin {plugin}."),
        )


def test_marketplace_reads_every_local_plugin_and_namespaces_their_skills(
    tmp_path: Path,
) -> None:
    _marketplace(tmp_path)
    assert detect_profile(str(tmp_path)) == (
        "claude-code",
        "detected claude-code: .claude-plugin/marketplace.json",
    )
    plugin_roots = ["--root", str(tmp_path / "plugins/a"), "--root", str(tmp_path / "plugins/b")]
    for form in ([str(tmp_path)], ["--project", str(tmp_path)], plugin_roots):
        data = lint_json(*form)  # detected: the marketplace, or the plugins' own manifests
        assert data["profile"] == "claude-code"
        assert _names(data) == {"a:access": "active", "b:access": "active"}
        found = {d["code"] for d in data["diagnostics"]}
        assert not found & {"shadowed", "duplicate-name"}
        if form is plugin_roots:
            continue  # the marketplace is not read when only its plugins are given
        remote = [d for d in data["diagnostics"] if d["code"] == "plugin-remote"]
        assert len(remote) == 1 and "far" in remote[0]["message"]
        assert remote[0]["severity"] == "info"
    run = cli("activate", "b:access", "--project", str(tmp_path))
    assert run.code == 0
    assert run.out.startswith(
        f"Base directory for this skill: {tmp_path}/plugins/b/skills/access\n\n"
    )
    run = cli("match", "/a:access now", "--project", str(tmp_path), "--format", "json")
    assert run.json["selected"] == ["a:access"]


def test_marketplace_source_outside_is_an_error_at_its_line(tmp_path: Path) -> None:
    _marketplace(
        tmp_path,
        [
            {"name": "a", "source": "./plugins/a"},
            {"name": "up", "source": "../elsewhere"},
            {"name": "nodot", "source": "plugins/b"},
        ],
    )
    data = lint_json("--project", str(tmp_path))
    bad = [d for d in data["diagnostics"] if d["code"] == "field-invalid"]
    assert [(d["line"], d["severity"]) for d in bad] == [(13, "error"), (17, "error")]
    assert "leaves the marketplace folder" in bad[0]["message"]
    assert "must start with './'" in bad[1]["message"]
    # plugins/b, whose entry is refused, is still checked (issue 38, the author's view):
    # a collection of the repository, named by its folder
    assert _names(data) == {"a:access": "active", "b:access": "active"}
    roots = {os.path.relpath(r["path"], tmp_path): r["collection"] for r in data["roots"]}
    assert roots.get("plugins/b/skills") == "b"


def test_plugin_json_problems_at_line_and_column(tmp_path: Path) -> None:
    write(
        tmp_path,
        "tool/.claude-plugin/plugin.json",
        '{\n  "name": "My Tool",\n  "version": 2,\n  "colour": "red",\n'
        '  "skills": ["./extra", "extra2", "./../out"]\n}\n',
    )
    write(tmp_path, "tool/skills/one/SKILL.md", skill_text(description="One."))
    write(tmp_path, "tool/extra/two/SKILL.md", skill_text(description="Two."))
    write(tmp_path, "tool/SKILL.md", skill_text(description="The plugin's own skill."))
    data = lint_json("--project", str(tmp_path / "tool"))
    found = {
        (d["code"], d["severity"], d["line"], d["column"])
        for d in data["diagnostics"]
        if d["path"].endswith("plugin.json")
    }
    assert found == {
        ("name-format", "error", 2, 3),
        ("field-type", "error", 3, 3),
        ("unknown-field", "warning", 4, 3),
        ("field-invalid", "error", 5, 25),
        ("field-invalid", "error", 5, 35),
    }
    # the name is not kebab-case, but it is still the namespace Claude Code shows
    assert set(_names(data)) == {"My Tool:one", "My Tool:two", "My Tool:tool"}


def test_plugin_json_syntax_error_is_placed(tmp_path: Path) -> None:
    write(tmp_path, "p/.claude-plugin/plugin.json", '{\n  "name": "p",\n  "x": ,\n}\n')
    write(tmp_path, "p/skills/s/SKILL.md", skill_text(description="S."))
    data = lint_json("--project", str(tmp_path / "p"))
    bad = [d for d in data["diagnostics"] if d["code"] == "manifest-invalid"]
    assert [(d["line"], d["column"], d["severity"]) for d in bad] == [(3, 8, "error")]
    assert _names(data) == {"p:s": "active"}  # the folder name stands in


def test_legacy_commands_named_after_the_file_and_skills_win(tmp_path: Path) -> None:
    write(
        tmp_path,
        ".claude/commands/deploy.md",
        "---\nname: other\npaths: ['*.py']\ndescription: Old deploy.\n---\nDeploy $1.\n",
    )
    write(tmp_path, ".claude/commands/notes.md", "Write notes for $ARGUMENTS.\n")
    write(tmp_path, ".claude/skills/deploy/SKILL.md", skill_text(description="New deploy."))
    data = lint_json(str(tmp_path))
    assert _names(data) == {"deploy": "active", "notes": "active"} | {}
    statuses = sorted((s["name"], s["status"], s["path"][-9:]) for s in data["skills"])
    assert statuses == [
        ("deploy", "active", "/SKILL.md"),
        ("deploy", "shadowed", "deploy.md"),
        ("notes", "active", "/notes.md"),
    ]
    ignored = [d for d in data["diagnostics"] if d["path"].endswith("deploy.md")]
    assert {(d["code"], d["field"], d["severity"]) for d in ignored} >= {
        ("unknown-field", "name", "info"),
        ("unknown-field", "paths", "info"),
        ("shadowed", None, "info"),
    }
    run = cli("activate", "notes", "v2", "--project", str(tmp_path))
    assert run.out == "Write notes for v2.\n\n"  # a command has no base directory


def _listing_project(tmp_path: Path, count: int, **extra: Any) -> str:
    for index in range(count):
        write(
            tmp_path,
            f".claude/skills/s{index}/SKILL.md",
            skill_text(description=f"Skill number {index} does its task well.", **extra),
        )
    return str(tmp_path)


def test_listing_text_character_for_character(tmp_path: Path) -> None:
    write(
        tmp_path,
        ".claude/skills/alpha/SKILL.md",
        skill_text(description="Does alpha\n  things.", when_to_use="When alpha is asked."),
    )
    write(
        tmp_path, ".claude/skills/beta/SKILL.md", "# Beta\n\nFirst paragraph\nof beta.\n\nMore.\n"
    )
    write(
        tmp_path,
        ".claude/skills/gamma/SKILL.md",
        skill_text(description="Hidden.", **{"disable-model-invocation": "on"}),
    )
    registry = project_from_folder(str(tmp_path)).registry()
    registry.scan()
    tier = render_listing(registry, {"bundled_skills": False})
    assert tier.text == (
        "<system-reminder>\n"
        "The following skills are available for use with the Skill tool:\n\n"
        "- alpha: Does alpha things. - When alpha is asked.\n"
        "- beta: First paragraph of beta.\n"
        "</system-reminder>"
    )
    # Claude Code's own entries follow the user's skills (tests/test_claude_bundled.py)
    tier = render_listing(registry, {})
    lines = tier.text.split("\n- ")
    assert lines[1:3] == [
        "alpha: Does alpha things. - When alpha is asked.",
        "beta: First paragraph of beta.",
    ]
    assert [line.split(":")[0] for line in lines[3:]] == list(OWN_NAMES)
    assert tier.spent == 51 + 33 + 2_923  # each line with its newline
    assert tier.budget == 8_000
    assert tier.omitted == [
        {"skill": "gamma", "reason": "disable-model-invocation: true (user only)"}
    ]


def test_listing_cuts_one_description_at_the_cap_setting(tmp_path: Path) -> None:
    write(tmp_path, ".claude/skills/long/SKILL.md", skill_text(description="x" * 2000))
    registry = project_from_folder(str(tmp_path)).registry()
    registry.scan()
    line = render_listing(registry, {}).text.splitlines()[3]
    assert line == "- long: " + "x" * 1535 + "…"
    line = render_listing(registry, {"skill_listing_max_desc_chars": 10}).text.splitlines()[3]
    assert line == "- long: xxxxxxxxx…"


def test_listing_over_budget_keeps_names_and_drops_least_used_descriptions(
    tmp_path: Path,
) -> None:
    registry = project_from_folder(_listing_project(tmp_path, 4)).registry()
    registry.scan()
    full = "- s{0}: Skill number {0} does its task well."
    # each full line is 40 characters + newline (164 in all); a name alone 4 + newline
    # (the user's skills alone: Claude Code's own entries are tests/test_claude_bundled.py's)

    tier = render_listing(registry, {**USERS_ONLY, "char_budget": 60})
    body = tier.text.splitlines()[3:-1]
    assert body == [full.format(0), "- s1", "- s2", "- s3"]
    assert tier.listed == ["s0", "s1", "s2", "s3"]
    assert [o["skill"] for o in tier.omitted] == ["s1", "s2", "s3"]
    assert tier.omitted[0]["reason"] == (
        "description dropped (name kept): over the 60-character budget"
    )
    # uses decide first: the most used keep their descriptions
    tier = render_listing(
        registry, {**USERS_ONLY, "char_budget": 60, "skill_usage": {"s3": 5, "s2": 1}}
    )
    assert tier.text.splitlines()[3:-1] == ["- s0", "- s1", "- s2", full.format(3)]
    # what fits keeps its description: dropping from the end stops once the rest fits
    tier = render_listing(registry, {**USERS_ONLY, "char_budget": 100})
    assert tier.text.splitlines()[3:-1] == [full.format(0), full.format(1), "- s2", "- s3"]
    # 1 % of the context window in characters
    assert render_listing(registry, {**USERS_ONLY, "context_tokens": 1000}).budget == 40
    fraction = {"context_tokens": 1000, "skill_listing_budget_fraction": 0.5}
    assert render_listing(registry, {**USERS_ONLY, **fraction}).budget == 2000
    tiny = render_listing(registry, {**USERS_ONLY, "char_budget": 10})
    assert tiny.text.splitlines()[3:-1] == ["- s0", "- s1", "- s2", "- s3"]
    assert "keeps every name" in tiny.note


def test_substitution_named_arguments_escapes_and_variables() -> None:
    variables = {"CLAUDE_SKILL_DIR": "/s", "CLAUDE_SESSION_ID": "id-1"}
    out, notes = substitute_claude(
        "A=$issue B=$branch C=$0 D=$ARGUMENTS[1] E=\\$1 F=${CLAUDE_SKILL_DIR} "
        "G=${CLAUDE_PLUGIN_ROOT} H=$other I=$9",
        "42 'main line'",
        variables,
        ["issue", "branch", "third"],
    )
    assert out == (
        "A=42 B=main line C=42 D=main line E=$1 F=/s G=${CLAUDE_PLUGIN_ROOT} H=$other I=$9"
    )
    assert notes == []
    assert substitute_claude("Third: [$third]", "a", {}, ["x", "y", "third"])[0] == "Third: []"
    assert substitute_claude("No placeholder.", "a b", {}, [])[0] == (
        "No placeholder.\n\nARGUMENTS: a b"
    )
    assert substitute_claude("Price \\$5.", "", {}, [])[0] == "Price $5."


def test_plugin_variables_in_activation(tmp_path: Path) -> None:
    write(tmp_path, "kit/.claude-plugin/plugin.json", '{"name": "kit"}')
    write(
        tmp_path,
        "kit/skills/run/SKILL.md",
        skill_text(
            description="Run.",
            effort="high",
            _body="R=${CLAUDE_PLUGIN_ROOT} D=${CLAUDE_PLUGIN_DATA} E=${CLAUDE_EFFORT} "
            "P=${CLAUDE_PROJECT_DIR}\n",
        ),
    )
    registry = project_from_folder(str(tmp_path / "kit")).registry()
    registry.scan()
    act = activate(registry, "kit:run", "", options={"project_dir": "/work/proj"})
    home = os.environ["CLAUDE_CONFIG_DIR"]
    assert act.content == (
        f"Base directory for this skill: {tmp_path}/kit/skills/run\n\n"
        f"R={tmp_path}/kit D={home}/plugins/data/kit E=high P=/work/proj\n"
    )
    assert act.mode == "tool_result"


def test_shell_lines_are_listed_and_marked_never_run(tmp_path: Path) -> None:
    body = (
        "!`date` at the start\n"
        "Status: !`git status --short` inline\n"
        "Not this: a!`b` nor `!x`\n"
        "```!\n"
        "ls -la\n"
        "touch /tmp/skillstudio-must-not-exist\n"
        "```\n"
    )
    assert [(s["line"], s["command"], s["kind"]) for s in shell_lines(body, 5)] == [
        (5, "date", "inline"),
        (6, "git status --short", "inline"),
        (8, "ls -la\ntouch /tmp/skillstudio-must-not-exist", "block"),
    ]
    write(tmp_path, ".claude/skills/sh/SKILL.md", skill_text(description="Sh.", _body=body))
    text = cli("activate", "sh", "--project", str(tmp_path))
    assert text.code == 0
    # lines in the file: 3 of frontmatter, a blank line, then the body
    assert "note: line 5: `date` runs before the model sees this" in text.err
    assert "note: line 6: `git status --short` runs before the model sees this" in text.err
    assert "note: line 8: `ls -la` runs before the model sees this" in text.err
    assert "touch /tmp/skillstudio-must-not-exist" in text.out  # shown as written
    data = cli("activate", "sh", "--project", str(tmp_path), "--format", "json").json
    assert [s["note"] for s in data["shell"]] == ["runs before the model sees this"] * 3
    assert data["shell"][0] == {
        "line": 5,
        "command": "date",
        "kind": "inline",
        "note": "runs before the model sees this",
    }
    assert not os.path.exists("/tmp/skillstudio-must-not-exist")


def test_loose_booleans_and_their_effect(tmp_path: Path) -> None:
    for name, value in (("y", "yes"), ("o", "on"), ("one", 1)):
        write(
            tmp_path,
            f".claude/skills/{name}/SKILL.md",
            skill_text(description="D.", **{"disable-model-invocation": value}),
        )
    write(
        tmp_path,
        ".claude/skills/bad/SKILL.md",
        skill_text(description="D.", **{"user-invocable": "maybe"}),
    )
    data = lint_json("--project", str(tmp_path))
    bad = [d for d in data["diagnostics"] if d["code"] == "field-type"]
    assert [(d["field"], d["path"].split(os.sep)[-2]) for d in bad] == [("user-invocable", "bad")]
    assert "yes/no, on/off, 1/0" in bad[0]["message"]
    registry = project_from_folder(str(tmp_path)).registry()
    registry.scan()
    assert render_listing(registry, {}).listed == ["bad", *OWN_NAMES]
    assert activate(registry, "one", "").error is not None


def test_unknown_keys_info_and_warning_for_upload(tmp_path: Path) -> None:
    write(
        tmp_path,
        ".claude/skills/k/SKILL.md",
        skill_text(description="K.", colour="red", **{"argument-hint": "[x]"}),
    )
    data = lint_json("--project", str(tmp_path))
    found = {
        (d["code"], d["field"], d["severity"])
        for d in data["diagnostics"]
        if d["code"] not in ADVICE  # (authoring advice: tests/test_advice.py)
    }
    assert found == {("unknown-field", "colour", "info")}
    write(tmp_path, "skillstudio.yaml", "profile: claude-code\nupload: true\n")
    data = lint_json("--project", str(tmp_path))
    found = {
        (d["code"], d["field"], d["severity"])
        for d in data["diagnostics"]
        if d["code"] not in ADVICE
    }
    assert found == {
        ("unknown-field", "colour", "warning"),
        ("unknown-field", "argument-hint", "warning"),
    }


def test_description_falls_back_and_warns_when_both_missing(tmp_path: Path) -> None:
    write(tmp_path, ".claude/skills/empty/SKILL.md", "---\nargument-hint: x\n---\n\n# Title\n")
    data = lint_json("--project", str(tmp_path))
    warned = [d for d in data["diagnostics"] if d["code"] == "field-missing"]
    assert len(warned) == 1 and warned[0]["severity"] == "warning"


def test_a_description_left_out_says_claude_reads_the_first_paragraph(tmp_path: Path) -> None:
    """No description, a first paragraph: `lint` said nothing (issue 30, item 9); now an
    info that quotes what Claude reads instead, on the description, as the warning is."""
    write(
        tmp_path,
        ".claude/skills/tidy/SKILL.md",
        "---\nargument-hint: x\n---\n\n# Tidy\n\nTidies the imports of a Python file.\n",
    )
    write(tmp_path, ".claude/skills/empty/SKILL.md", "---\ndescription:\n---\n\n# Title\n")
    data = lint_json("--project", str(tmp_path))
    found = {
        d["path"].split("/")[-2]: d for d in data["diagnostics"] if d["code"] == "field-missing"
    }
    assert found["tidy"]["severity"] == "info"
    assert "Tidies the imports of a Python file." in found["tidy"]["message"]
    assert found["empty"]["severity"] == "warning"
    assert found["tidy"]["field"] == found["empty"]["field"] == "description"
    assert (found["tidy"]["line"], found["tidy"]["column"]) == (1, 1)  # no key: the top
    run = cli("lint", "-v", "--project", str(tmp_path))
    assert "uses the body's first paragraph" in run.out


def test_only_folder_skill_md_and_lowercase_warned(tmp_path: Path) -> None:
    write(tmp_path, ".claude/skills/ok/SKILL.md", skill_text(description="Ok."))
    write(tmp_path, ".claude/skills/low/skill.md", skill_text(description="Low."))
    write(tmp_path, ".claude/skills/deep/inner/SKILL.md", skill_text(description="Deep."))
    write(tmp_path, ".claude/skills/bare.md", skill_text(description="Bare."))
    data = lint_json("--project", str(tmp_path))
    # deep/inner, which Claude Code does not load (not directly in a folder of
    # .claude/skills), is checked all the same (issue 38, the author's view); the
    # in-place view says why it is not loaded
    assert _names(data) == {"ok": "active", "inner": "active"}
    every = lint_json("--project", str(tmp_path), "--profile", "all")
    (note,) = [d for d in every["diagnostics"] if d["code"] == "unreached"]
    assert note["path"] == str(tmp_path / ".claude/skills/deep")
    assert "not directly in a skill folder of its root (.claude/skills)" in note["message"]
    low = [d for d in data["diagnostics"] if d["path"].endswith("skill.md")]
    assert [(d["severity"], "rename it to SKILL.md" in d["message"]) for d in low] == [
        ("warning", True)
    ]


def test_personal_and_enterprise_roots_are_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    write(project, ".claude/skills/same/SKILL.md", skill_text(description="Project."))
    write(tmp_path, "home/skills/same/SKILL.md", skill_text(description="Personal."))
    write(tmp_path, "managed/same/SKILL.md", skill_text(description="Enterprise."))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "home"))
    monkeypatch.setenv("SKILLSTUDIO_CLAUDE_MANAGED_SKILLS", str(tmp_path / "managed"))
    data = lint_json("--project", str(project))
    active = [s for s in data["skills"] if s["status"] == "active"]
    assert [s["root"] for s in active] == [str(tmp_path / "managed")]
    assert sorted(s["status"] for s in data["skills"]) == ["active", "shadowed", "shadowed"]


def test_claude_code_fields_detect_claude_code_not_pegasus(tmp_path: Path) -> None:
    write(tmp_path, "skills/x/SKILL.md", skill_text(description="X.", **{"when_to_use": "a"}))
    name, why = detect_profile(str(tmp_path))
    assert (name, why) == (
        "claude-code",
        "detected claude-code: Claude Code field 'when_to_use' in skills/x/SKILL.md",
    )


def test_fields_other_agents_read_are_no_mark_of_claude_code(tmp_path: Path) -> None:
    """argument-hint (GitHub Copilot reads it too) and allowed-tools (the standard's)."""
    fields = {"argument-hint": "[a]", "allowed-tools": "Read", "user-invocable": True}
    write(tmp_path, "skills/x/SKILL.md", skill_text(description="X.", **fields))
    assert detect_profile(str(tmp_path))[0] == "agentskills"


@pytest.mark.parametrize("case", sorted(hostile.CLAUDE_CASES))
def test_hostile_manifests_are_reported_and_the_plugin_still_loads(
    case: str, tmp_path: Path
) -> None:
    repo = hostile.make_claude_case(str(tmp_path), case)
    data = lint_json("--project", repo, "--profile", "claude-code")
    codes = {d["code"] for d in data["diagnostics"]}
    assert hostile.CLAUDE_CASES[case] in codes, data["diagnostics"]
    names = {s["name"] for s in data["skills"]}
    assert any(name.endswith(":ok") for name in names), names
    assert not any(name.endswith(":x") or name == "x" for name in names), names  # outside
    assert all(d["line"] for d in data["diagnostics"] if d["path"].endswith(".json"))


def test_an_unquoted_argument_hint_is_accepted(tmp_path: Path) -> None:
    """`argument-hint: [user]` (as Claude Code's documentation writes it) is a YAML list;
    Claude Code shows it all the same, so it is no error (pegasus called it one)."""
    write(
        tmp_path,
        ".claude/skills/grant/SKILL.md",
        "---\ndescription: Grant access.\nargument-hint: [user]\n---\nBody\n",
    )
    write(
        tmp_path,
        ".claude/skills/pair/SKILL.md",
        "---\ndescription: Pair.\nargument-hint: [a, b]\n---\nBody\n",
    )
    data = lint_json("--project", str(tmp_path))
    assert [d for d in data["diagnostics"] if d["severity"] != "info"] == []
    registry = project_from_folder(str(tmp_path)).registry()
    registry.scan()
    assert registry.active["pair"].fields["argument-hint"] == "[a] [b]"
    assert registry.active["grant"].fields["argument-hint"] == "[user]"
