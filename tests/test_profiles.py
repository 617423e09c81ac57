"""Discovery, field and validation rules of each profile, named after the seed rule."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.profiles import PROFILE_NAMES, get_profile

from .helpers import codes, diag, lint_json, skill_text, write

OASIS_OK = {
    "id": "code-review",
    "name": "Code Review",
    "description": "Identify defects, risks, and test gaps in code changes.",
    "triggers": ["review this", "code review", "find bugs"],
    "priority": 80,
}


def status_of(data: dict[str, Any], name: str) -> str:
    return next(s["status"] for s in data["skills"] if s["name"] == name)


def oasis_project(tmp_path: Path, **skills: dict[str, Any]) -> Path:
    for folder, fields in skills.items():
        write(tmp_path, f"key_skills/{folder}/SKILL.md", skill_text(**fields))
    return tmp_path


# ---------------------------------------------------------------- seed 000: oasis


def test_seed000_discovery_rule1_scans_only_key_skills_star_skill_md(tmp_path: Path) -> None:
    oasis_project(tmp_path, **{"code-review": OASIS_OK})
    write(tmp_path, "key_skills/code-review/nested/deeper/SKILL.md", skill_text(**OASIS_OK))
    write(tmp_path, "elsewhere/other/SKILL.md", skill_text(**OASIS_OK))
    data = lint_json("--project", str(tmp_path))
    assert data["profile"] == "oasis"  # detected from the key_skills/ folder
    # key_skills/*/SKILL.md only: the nested one is not a skill of key_skills (named
    # `unreached`); elsewhere/ is checked as a collection of the folder (issue 38, the
    # author's view: every skill root under the path is read)
    assert [s["path"] for s in data["skills"]] == [
        str(tmp_path / "key_skills/code-review/SKILL.md"),
        str(tmp_path / "elsewhere/other/SKILL.md"),
    ]
    assert [r["collection"] for r in data["roots"]] == ["", "elsewhere"]
    unreached = [d["path"] for d in data["diagnostics"] if d["code"] == "unreached"]
    assert unreached == [str(tmp_path / "key_skills/code-review/nested")]


@pytest.mark.parametrize("missing", ["id", "name", "description", "triggers", "priority"])
def test_seed000_discovery_rule3_missing_required_field_is_skipped(
    tmp_path: Path, missing: str
) -> None:
    fields = {k: v for k, v in OASIS_OK.items() if k != missing}
    oasis_project(tmp_path, **{"code-review": fields})
    data = lint_json("--project", str(tmp_path))
    assert data["skills"][0]["status"] == "skipped"
    missing_diag = diag(data, "field-missing")
    assert missing_diag["field"] == missing
    assert diag(data, "skipped")["severity"] == "warning"


def test_seed000_discovery_rule4_malformed_frontmatter_skipped_with_warning(
    tmp_path: Path,
) -> None:
    write(tmp_path, "key_skills/bad/SKILL.md", "---\nid: bad\nname: [unclosed\n---\nbody\n")
    oasis_project(tmp_path, good=OASIS_OK | {"id": "good"})
    data = lint_json("--project", str(tmp_path), "--profile", "oasis")
    assert status_of(data, "bad") == "skipped"
    assert status_of(data, "good") == "active"  # the rest of the tree is still read
    assert "yaml-invalid" in codes(data, "bad/SKILL.md")
    assert "skipped" in codes(data, "bad/SKILL.md")


def test_seed000_discovery_rule5_registry_keyed_by_id(tmp_path: Path) -> None:
    oasis_project(
        tmp_path,
        **{
            "folder-a": OASIS_OK | {"id": "same"},
            "folder-b": OASIS_OK | {"id": "same", "name": "Other"},
        },
    )
    data = lint_json("--project", str(tmp_path))
    statuses = sorted(s["status"] for s in data["skills"])
    assert statuses == ["active", "shadowed"]
    dup = [d for d in data["diagnostics"] if d["code"] == "duplicate-name"]
    assert len(dup) == 2 and dup[0]["severity"] == "error"  # ids must be unique
    assert {d["field"] for d in dup} == {"id"}


def test_seed000_priority_must_be_an_integer(tmp_path: Path) -> None:
    oasis_project(tmp_path, **{"code-review": OASIS_OK | {"priority": "high"}})
    data = lint_json("--project", str(tmp_path))
    bad = diag(data, "field-type")
    assert bad["field"] == "priority" and bad["line"] == 9 and bad["column"] == 11
    assert "whole number" in bad["message"]
    assert data["skills"][0]["status"] == "skipped"


def test_seed000_triggers_must_be_a_list_of_phrases(tmp_path: Path) -> None:
    oasis_project(tmp_path, **{"code-review": OASIS_OK | {"triggers": "x"}})
    data = lint_json("--project", str(tmp_path))
    assert diag(data, "field-type")["field"] == "triggers"
    assert "list" in diag(data, "field-type")["message"]


def test_seed000_id_is_a_slug_usually_matching_folder(tmp_path: Path) -> None:
    oasis_project(tmp_path, **{"code-review": OASIS_OK | {"id": "Code Review!"}})
    data = lint_json("--project", str(tmp_path))
    assert diag(data, "name-format")["severity"] == "warning"
    oasis_project(tmp_path, other=OASIS_OK | {"id": "renamed"})
    data = lint_json("--project", str(tmp_path), "-v")
    assert any(
        d["code"] == "name-dir-mismatch" and d["severity"] == "info" for d in data["diagnostics"]
    )


def test_seed000_optional_fields_accept_text_or_lists(tmp_path: Path) -> None:
    fields = OASIS_OK | {"inputs": "git diff", "outputs": ["a", "b"], "safety_notes": "careful"}
    oasis_project(tmp_path, **{"code-review": fields})
    data = lint_json("--project", str(tmp_path))
    assert data["summary"]["errors"] == 0 and data["summary"]["warnings"] == 0


def test_seed000_identical_triggers_in_two_skills_are_ambiguous(tmp_path: Path) -> None:
    oasis_project(
        tmp_path,
        a=OASIS_OK | {"id": "a", "triggers": ["Review this!", "other"]},
        b=OASIS_OK | {"id": "b", "triggers": ["review   this"]},
    )
    data = lint_json("--project", str(tmp_path))
    amb = [d for d in data["diagnostics"] if d["code"] == "trigger-ambiguous"]
    assert len(amb) == 2
    assert {d["line"] for d in amb} == {6}  # the first trigger item of each file


# -------------------------------------------------------------- seed 001: pegasus


def pegasus_project(tmp_path: Path) -> Path:
    write(tmp_path, "skills/code-review/SKILL.md", skill_text(description="builtin review"))
    write(tmp_path, "skills/commit/SKILL.md", skill_text(description="builtin commit"))
    write(tmp_path, "data/skills/code-review/SKILL.md", skill_text(description="user review"))
    return tmp_path


def test_seed001_storage_priority_data_skills_wins(tmp_path: Path) -> None:
    pegasus_project(tmp_path)
    data = lint_json("--project", str(tmp_path))
    assert data["profile"] == "pegasus"  # detected from data/skills/
    review = {s["path"]: s["status"] for s in data["skills"] if s["name"] == "code-review"}
    assert review == {
        str(tmp_path / "skills/code-review/SKILL.md"): "shadowed",
        str(tmp_path / "data/skills/code-review/SKILL.md"): "active",
    }
    shadow = diag(data, "shadowed")
    assert "user root" in shadow["message"]


def test_seed001_name_defaults_to_directory_name(tmp_path: Path) -> None:
    write(tmp_path, "skills/my-tool/SKILL.md", skill_text(description="d"))
    data = lint_json("--project", str(tmp_path), "--profile", "pegasus")
    assert data["skills"][0]["name"] == "my-tool"
    assert data["summary"]["errors"] == 0


def test_seed001_description_recommended_defaults_to_first_paragraph(tmp_path: Path) -> None:
    write(
        tmp_path,
        "skills/x/SKILL.md",
        "---\nname: x\n---\n# Title\n\nFirst paragraph\nwraps here.\n\nSecond.\n",
    )
    data = lint_json("--project", str(tmp_path), "--profile", "pegasus")
    missing = diag(data, "field-missing")
    assert missing["severity"] == "warning" and missing["field"] == "description"
    show = __import__("tests.helpers", fromlist=["cli"]).cli(
        "show", "x", "--project", str(tmp_path), "--profile", "pegasus", "--format", "json"
    )
    assert show.json["description"] == "First paragraph wraps here."


def test_seed001_name_lowercase_hyphens_max_64(tmp_path: Path) -> None:
    write(tmp_path, "skills/a/SKILL.md", skill_text(name="Code_Review", description="d"))
    write(tmp_path, "skills/b/SKILL.md", skill_text(name="a" * 65, description="d"))
    data = lint_json("--project", str(tmp_path), "--profile", "pegasus")
    assert "name-format" in codes(data, "a/SKILL.md")
    assert "name-too-long" in codes(data, "b/SKILL.md")


def test_seed001_field_types_and_enums(tmp_path: Path) -> None:
    write(
        tmp_path,
        "skills/x/SKILL.md",
        skill_text(
            name="x",
            description="d",
            **{"disable-model-invocation": "yes", "context": "background"},
        ),
    )
    data = lint_json("--project", str(tmp_path), "--profile", "pegasus")
    fields = {d["field"]: d["code"] for d in data["diagnostics"] if d["severity"] == "error"}
    assert fields == {"disable-model-invocation": "field-type", "context": "field-invalid"}


def test_seed001_trigger_control_matrix_nobody_can_invoke(tmp_path: Path) -> None:
    fields = {"name": "x", "description": "d", "disable-model-invocation": True}
    write(tmp_path, "skills/x/SKILL.md", skill_text(**fields, **{"user-invocable": False}))
    data = lint_json("--project", str(tmp_path), "--profile", "pegasus")
    assert diag(data, "invocation-disabled")["severity"] == "warning"


def test_seed001_allowed_tools_is_comma_separated(tmp_path: Path) -> None:
    write(
        tmp_path,
        "skills/x/SKILL.md",
        skill_text(name="x", description="d", **{"allowed-tools": ["read_file", "grep"]}),
    )
    data = lint_json("--project", str(tmp_path), "--profile", "pegasus")
    assert diag(data, "field-type")["severity"] == "warning"
    assert "commas" in diag(data, "field-type")["message"]


def test_seed001_missing_frontmatter_still_loads_with_defaults(tmp_path: Path) -> None:
    write(tmp_path, "skills/plain/SKILL.md", "Do this plainly.\n")
    data = lint_json("--project", str(tmp_path), "--profile", "pegasus")
    assert data["skills"][0]["status"] == "active"
    assert diag(data, "frontmatter-missing")["severity"] == "warning"


# ------------------------------------------------------------- seed 002: toolsets


TOOLSETS_OK = {
    "name": "hello-extended",
    "description": "Extended greeting capabilities",
    "version": "1.0.0",
    "toolsets": ["toolsets/index:HelloToolset"],
    "triggers": {"keywords": ["hello"], "verbs": ["say"], "patterns": ["greet\\s+\\w+"]},
    "default_enabled": True,
}


def toolsets_skill(tmp_path: Path, fields: dict[str, Any], ts: str | None = None) -> Path:
    write(tmp_path, ".agent/skills/hello-extended/SKILL.md", skill_text(**fields))
    if ts is not None:
        write(tmp_path, ".agent/skills/hello-extended/toolsets/index.ts", ts)
    return tmp_path


def test_seed002_manifest_example_is_valid(tmp_path: Path) -> None:
    toolsets_skill(tmp_path, TOOLSETS_OK, "export const HelloToolset = [];\n")
    data = lint_json("--project", str(tmp_path))
    assert data["profile"] == "toolsets"
    assert data["summary"]["errors"] == 0 and data["summary"]["warnings"] == 0


def test_seed002_toolset_path_class_checked_statically(tmp_path: Path) -> None:
    toolsets_skill(tmp_path, TOOLSETS_OK, "export const OtherToolset = [];\n")
    data = lint_json("--project", str(tmp_path))
    missing = diag(data, "toolset-missing")
    assert "does not define or export 'HelloToolset'" in missing["message"]
    assert missing["line"] == 6  # the list item


def test_seed002_toolset_file_missing_or_outside(tmp_path: Path) -> None:
    fields = TOOLSETS_OK | {"toolsets": ["toolsets/nope:X", "../../evil:X", "no-colon"]}
    toolsets_skill(tmp_path, fields)
    data = lint_json("--project", str(tmp_path))
    messages = [d["message"] for d in data["diagnostics"] if d["field"] == "toolsets"]
    assert any("does not exist" in m for m in messages)
    assert any("leaves the skill folder" in m for m in messages)
    assert any("path:Class" in m for m in messages)


def test_seed002_name_alphanumeric_hyphens_max_64(tmp_path: Path) -> None:
    toolsets_skill(tmp_path, TOOLSETS_OK | {"name": "hello world", "toolsets": []})
    data = lint_json("--project", str(tmp_path))
    assert "name-format" in codes(data)


def test_seed002_description_max_500(tmp_path: Path) -> None:
    toolsets_skill(tmp_path, TOOLSETS_OK | {"description": "x" * 501, "toolsets": []})
    data = lint_json("--project", str(tmp_path))
    assert "by 1" in diag(data, "description-too-long")["message"]


def test_seed002_version_must_be_semantic(tmp_path: Path) -> None:
    text = skill_text(**(TOOLSETS_OK | {"toolsets": []})).replace("version: 1.0.0", "version: 1.0")
    write(tmp_path, ".agent/skills/hello-extended/SKILL.md", text)
    data = lint_json("--project", str(tmp_path))
    bad = diag(data, "version-invalid")
    assert "quotes" in bad["message"] and bad["line"] == 4


def test_seed002_patterns_must_compile(tmp_path: Path) -> None:
    fields = TOOLSETS_OK | {"toolsets": [], "triggers": {"patterns": ["ok", "(unclosed"]}}
    toolsets_skill(tmp_path, fields)
    data = lint_json("--project", str(tmp_path))
    bad = diag(data, "pattern-invalid")
    assert "(unclosed" in bad["message"]


def test_seed002_triggers_is_a_mapping_of_lists(tmp_path: Path) -> None:
    toolsets_skill(tmp_path, TOOLSETS_OK | {"toolsets": [], "triggers": {"keywords": "hi"}})
    data = lint_json("--project", str(tmp_path))
    assert diag(data, "field-type")["message"].startswith("'triggers.keywords' must be a list")


def test_seed002_default_enabled_false_is_disabled(tmp_path: Path) -> None:
    toolsets_skill(tmp_path, TOOLSETS_OK | {"toolsets": [], "default_enabled": False})
    data = lint_json("--project", str(tmp_path))
    assert data["skills"][0]["status"] == "disabled"


def test_seed002_skill_sources_precedence(tmp_path: Path) -> None:
    fields = TOOLSETS_OK | {"toolsets": []}
    write(tmp_path, "src/_bundled_skills/hello-extended/SKILL.md", skill_text(**fields))
    write(tmp_path, ".agent/skills/hello-extended/SKILL.md", skill_text(**fields))
    data = lint_json("--project", str(tmp_path))
    winner = next(s for s in data["skills"] if s["status"] == "active")
    assert "/.agent/skills/" in winner["path"]


# ------------------------------------------------------------------ seed 003: mvp


def test_seed003_skills_live_under_skills_recursively(tmp_path: Path) -> None:
    write(tmp_path, "skills/a/SKILL.md", skill_text(name="a", description="d"))
    write(tmp_path, "skills/group/b/SKILL.md", skill_text(name="b", description="d"))
    data = lint_json("--project", str(tmp_path), "--profile", "mvp")
    assert sorted(s["name"] for s in data["skills"]) == ["a", "b"]


def test_seed003_name_regex(tmp_path: Path) -> None:
    for bad in ("Code-Review", "code--review", "-x", "x_y"):
        write(tmp_path, f"skills/{bad}/SKILL.md", skill_text(name=bad, description="d"))
    data = lint_json("--project", str(tmp_path), "--profile", "mvp")
    assert all(s["status"] == "skipped" for s in data["skills"])
    assert codes(data).count("name-format") == 4


def test_seed003_frontmatter_name_wins_over_folder(tmp_path: Path) -> None:
    write(tmp_path, "skills/folder/SKILL.md", skill_text(name="real-name", description="d"))
    data = lint_json("--project", str(tmp_path), "--profile", "mvp")
    assert data["skills"][0]["name"] == "real-name"
    assert data["summary"]["errors"] == data["summary"]["warnings"] == 0


def test_seed003_description_non_empty(tmp_path: Path) -> None:
    write(tmp_path, "skills/x/SKILL.md", skill_text(name="x", description="  "))
    data = lint_json("--project", str(tmp_path), "--profile", "mvp")
    assert "description-empty" in codes(data)
    assert data["skills"][0]["status"] == "skipped"


def test_seed003_yaml_failure_skips_with_warning(tmp_path: Path) -> None:
    write(tmp_path, "skills/x/SKILL.md", "---\nname: x\ndescription: a: b\n---\n")
    data = lint_json("--project", str(tmp_path), "--profile", "mvp")
    assert data["skills"][0]["status"] == "skipped"
    assert diag(data, "skipped")["severity"] == "warning"


def test_seed003_duplicate_names_last_discovered_wins(tmp_path: Path) -> None:
    write(tmp_path, "skills/a/SKILL.md", skill_text(name="dup", description="first"))
    write(tmp_path, "skills/b/SKILL.md", skill_text(name="dup", description="second"))
    data = lint_json("--project", str(tmp_path), "--profile", "mvp")
    active = [s for s in data["skills"] if s["status"] == "active"]
    assert [s["path"] for s in active] == [str(tmp_path / "skills/b/SKILL.md")]
    assert diag(data, "duplicate-name")["severity"] == "warning"


def test_seed003_non_goals_are_reported_as_ignored(tmp_path: Path) -> None:
    write(tmp_path, "skills/x/SKILL.md", skill_text(name="x", description="d", model="gpt"))
    data = lint_json("--project", str(tmp_path), "--profile", "mvp")
    note = diag(data, "unknown-field")
    assert note["severity"] == "info" and "model overrides" in note["message"]


# ------------------------------------------------------------ seed 004: workspace


def test_seed004_discovery_patterns_and_ignored_paths(tmp_path: Path) -> None:
    write(tmp_path, "skills/SKILL.md", skill_text(name="root-skill", description="d"))
    write(tmp_path, "skills/a/SKILL.md", skill_text(name="a", description="d"))
    write(tmp_path, "skills/node_modules/SKILL.md", skill_text(name="nm", description="d"))
    write(tmp_path, "skills/.git/SKILL.md", skill_text(name="git", description="d"))
    write(tmp_path, "skills/node_modules/pkg/SKILL.md", skill_text(name="pkg", description="d"))
    write(tmp_path, "skills/a/deep/SKILL.md", skill_text(name="deep", description="d"))
    data = lint_json("--project", str(tmp_path), "--profile", "workspace")
    assert sorted(s["name"] for s in data["skills"]) == ["a", "root-skill"]


def test_seed004_fallback_extraction_when_strict_parse_fails(tmp_path: Path) -> None:
    write(
        tmp_path,
        "skills/x/SKILL.md",
        "---\nname: Repo Survey\ndescription: Survey: the repo\n---\nbody\n",
    )
    data = lint_json("--project", str(tmp_path), "--profile", "workspace")
    assert data["skills"][0]["status"] == "active"
    assert data["skills"][0]["name"] == "repo-survey"
    bad = diag(data, "yaml-invalid")
    assert bad["severity"] == "warning" and "falls back" in bad["message"]


def test_seed004_missing_field_warning_and_skip(tmp_path: Path) -> None:
    write(tmp_path, "skills/x/SKILL.md", skill_text(name="x"))
    data = lint_json("--project", str(tmp_path), "--profile", "workspace")
    assert data["skills"][0]["status"] == "skipped"
    assert diag(data, "skipped")["severity"] == "warning"


def test_seed004_sanitized_empty_name_skipped(tmp_path: Path) -> None:
    write(tmp_path, "skills/x/SKILL.md", skill_text(name="!!!", description="d"))
    data = lint_json("--project", str(tmp_path), "--profile", "workspace")
    assert data["skills"][0]["status"] == "skipped"
    assert "id is empty" in diag(data, "name-format")["message"]


def test_seed004_duplicate_after_sanitizing_last_wins(tmp_path: Path) -> None:
    write(tmp_path, "skills/a/SKILL.md", skill_text(name="Safe Edit", description="d"))
    write(tmp_path, "skills/b/SKILL.md", skill_text(name="safe-edit", description="d"))
    data = lint_json("--project", str(tmp_path), "--profile", "workspace")
    assert {s["path"].split("/")[-2]: s["status"] for s in data["skills"]} == {
        "a": "shadowed",
        "b": "active",
    }
    assert diag(data, "duplicate-name")["severity"] == "warning"


# ------------------------------------------------------------ agentskills standard


def agent_skill(tmp_path: Path, folder: str, **fields: Any) -> None:
    write(tmp_path, f".agents/skills/{folder}/SKILL.md", skill_text(**fields))


def test_agentskills_valid_skill(tmp_path: Path) -> None:
    description = "Works with PDFs. Use when the user asks to read one."
    agent_skill(tmp_path, "pdf-tools", name="pdf-tools", description=description)
    data = lint_json("--project", str(tmp_path))
    assert data["profile"] == "agentskills"
    assert data["summary"] == {
        "skills": 1,
        "active": 1,
        "errors": 0,
        "warnings": 0,
        "infos": 0,
        "roots": 1,
    }


@pytest.mark.parametrize(
    ("name", "code", "fragment"),
    [
        ("PDF-Tools", "name-format", "lowercase"),
        ("-pdf", "name-format", "start or end"),
        ("pdf--tools", "name-format", "consecutive"),
        ("pdf_tools", "name-format", "letters, digits and hyphens"),
        ("a" * 65, "name-too-long", "64"),
    ],
)
def test_agentskills_name_rules(tmp_path: Path, name: str, code: str, fragment: str) -> None:
    agent_skill(tmp_path, name, name=name, description="d")
    data = lint_json("--project", str(tmp_path))
    found = [d for d in data["diagnostics"] if d["code"] == code]
    assert found and fragment in found[0]["message"]


def test_agentskills_name_must_match_folder(tmp_path: Path) -> None:
    agent_skill(tmp_path, "folder", name="other", description="d")
    data = lint_json("--project", str(tmp_path))
    assert diag(data, "name-dir-mismatch")["severity"] == "error"


def test_agentskills_unknown_fields_are_errors(tmp_path: Path) -> None:
    agent_skill(tmp_path, "x", name="x", description="d", version="1.0", category="y")
    data = lint_json("--project", str(tmp_path))
    unknown = [d for d in data["diagnostics"] if d["code"] == "unknown-field"]
    assert {d["field"] for d in unknown} == {"version", "category"}
    assert all(d["severity"] == "error" for d in unknown)


def test_agentskills_limits(tmp_path: Path) -> None:
    agent_skill(tmp_path, "x", name="x", description="d" * 1025, compatibility="c" * 501)
    data = lint_json("--project", str(tmp_path))
    assert {"description-too-long", "compatibility-too-long"} <= set(codes(data))


def test_agentskills_flow_style_yaml_is_accepted(tmp_path: Path) -> None:
    write(
        tmp_path,
        ".agents/skills/x/SKILL.md",
        "---\nname: x\ndescription: d\nmetadata: {tags: 'a, b', mcp: '[rube]'}\n---\nbody\n",
    )
    data = lint_json("--project", str(tmp_path))
    assert data["summary"]["errors"] == 0


def test_agentskills_metadata_values_should_be_text(tmp_path: Path) -> None:
    agent_skill(tmp_path, "x", name="x", description="d", metadata={"version": 1.0})
    data = lint_json("--project", str(tmp_path))
    assert diag(data, "field-type")["severity"] == "warning"


def test_agentskills_a_long_list_in_metadata_is_named_with_its_count(tmp_path: Path) -> None:
    """A 4,000-item list where text is expected: named once, with its count (the message
    spelled out every item: 600 KB, on every keystroke in the language server)."""
    tags = [f"item {i:04d} lorem ipsum dolor sit amet" for i in range(4000)]
    agent_skill(tmp_path, "x", name="x", description="d", metadata={"tags": tags, "v": 1.0})
    data = lint_json("--project", str(tmp_path))
    assert sorted(d["message"] for d in data["diagnostics"] if d["code"] == "field-type") == [
        "'metadata.tags' should map text to text; YAML reads a list of 4,000 items; write "
        "the value as one line of text.",
        "'metadata.v' should map text to text; YAML reads 1.0 as a number, 1.0; put it in "
        'quotes ("1.0") to keep the text.',
    ]


def test_agentskills_body_advice(tmp_path: Path) -> None:
    agent_skill(tmp_path, "x", name="x", description="d", _body="line\n" * 600)
    data = lint_json("--project", str(tmp_path))
    assert diag(data, "body-too-long")["severity"] == "warning"


def test_yaml_error_and_fallback_findings_both_reported(tmp_path: Path) -> None:
    write(
        tmp_path,
        ".agents/skills/x/SKILL.md",
        "---\nname: Bad_Name\ndescription: broken: yaml\n---\nbody\n",
    )
    data = lint_json("--project", str(tmp_path), "--profile", "agentskills")
    found = codes(data)
    assert "yaml-invalid" in found and "name-format" in found and "name-dir-mismatch" in found
    name_diag = diag(data, "name-format")
    assert name_diag["line"] == 2


# ------------------------------------------------------------------------ shared


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_every_profile_declares_fields_with_help(profile: str) -> None:
    prof = get_profile(profile)
    assert prof.fields and all(spec.help for spec in prof.fields)
    assert prof.roots
    assert all(spec.describe() for spec in prof.fields)


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_every_profile_survives_every_bad_file(tmp_path: Path, profile: str) -> None:
    bad: dict[str, str | bytes] = {
        "nofm": "# no frontmatter\n",
        "unclosed": "---\nname: x\n",
        "yaml": "---\nname: [\n---\n",
        "list": "---\n- a\n---\n",
        "types": "---\nname: 5\ndescription: true\ntriggers: x\npriority: high\n---\n",
        "latin": "---\nname: caf\xe9\n---\n".encode("latin-1"),
        "binary": b"\x00\x01\x02" * 100,
        "bom": "\ufeff---\r\nname: bom\r\ndescription: d\r\n---\r\n",
    }
    for folder, text in bad.items():
        write(tmp_path, f"skills/{folder}/SKILL.md", text)
    data = lint_json("--root", str(tmp_path / "skills"), "--profile", profile)
    assert len(data["skills"]) == len(bad)
    for d in data["diagnostics"]:
        assert d["path"] and d["message"] and d["code"]
        if d["field"] is not None:
            assert d["line"] and d["column"]


def test_long_description_without_a_full_stop_does_not_hang(tmp_path: Path) -> None:
    """toolsets' brief_description (first sentence) was a quadratic regex: minutes here."""
    text = "---\nname: long\ndescription: " + "word " * 40_000 + "\n---\nBody\n"
    write(tmp_path, "long/SKILL.md", text)
    started = time.perf_counter()
    data = lint_json(str(tmp_path), "--profile", "toolsets")
    assert time.perf_counter() - started < 10
    assert "description-too-long" in [d["code"] for d in data["diagnostics"]]
