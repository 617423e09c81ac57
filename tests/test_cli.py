"""The CLI contract: formats, JSON shapes, exit codes (docs/commands.md)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import REPO, SAMPLES, cli, diag, lint_json, skill_text, write

LINE = re.compile(
    r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (error|warning|info) [a-z0-9-]+: .+"
)


def broken_root(tmp_path: Path) -> Path:
    write(tmp_path, "skills/good/SKILL.md", skill_text(name="good", description="Fine."))
    write(tmp_path, "skills/bad/SKILL.md", skill_text(name="Bad", description="x"))
    return tmp_path / "skills"


def test_lint_text_reads_like_a_compiler(tmp_path: Path) -> None:
    root = broken_root(tmp_path)
    run = cli("lint", "--root", str(root), "--profile", "agentskills", cwd=tmp_path)
    assert run.code == 1
    lines = run.out.strip().splitlines()
    assert LINE.match(lines[0]), lines[0]
    assert lines[0].startswith("skills/bad/SKILL.md:2:7: error name-format:")
    assert lines[-1].startswith("2 skills (2 active) in 1 root checked with agentskills")
    assert "errors" in lines[-1]


def test_lint_json_shape(tmp_path: Path) -> None:
    data = lint_json("--root", str(broken_root(tmp_path)), "--profile", "agentskills")
    assert {"profile", "skills", "diagnostics", "summary"} <= data.keys()
    assert data["profile"] == "agentskills"
    for skill in data["skills"]:
        assert {"name", "path", "root", "status"} <= skill.keys()
    for d in data["diagnostics"]:
        assert {"code", "severity", "message", "path", "line", "column", "field", "skill"} <= (
            d.keys()
        )
    assert {"skills", "active", "errors", "warnings"} <= data["summary"].keys()
    assert data["summary"]["errors"] == sum(d["severity"] == "error" for d in data["diagnostics"])


def test_lint_sarif(tmp_path: Path) -> None:
    run = cli(
        "lint",
        "--root",
        str(broken_root(tmp_path)),
        "--profile",
        "agentskills",
        "--format",
        "sarif",
        cwd=tmp_path,
    )
    assert run.code == 1
    sarif = run.json
    assert sarif["version"] == "2.1.0"
    result = sarif["runs"][0]["results"][0]
    assert result["ruleId"] in {r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    loc = result["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "skills/bad/SKILL.md"
    assert loc["region"]["startLine"] == 2


def test_exit_codes(tmp_path: Path) -> None:
    write(tmp_path, "ok/a/SKILL.md", skill_text(name="a", description="Fine."))
    write(tmp_path, "warn/a/SKILL.md", skill_text(name="a", description="d", _body="[x](gone.md)"))
    assert cli("lint", "--root", str(tmp_path / "ok"), "--profile", "agentskills").code == 0
    warn = ("lint", "--root", str(tmp_path / "warn"), "--profile", "agentskills")
    assert cli(*warn).code == 0
    assert cli(*warn, "--strict").code == 1
    assert cli("lint", str(tmp_path / "nope")).code == 2
    assert cli("lint", "--root", str(tmp_path / "nope")).code == 2
    assert cli("lint", "--profile", "nonsense").code == 2
    assert cli("frobnicate").code == 2


def test_lint_accepts_skill_folder_and_skill_file(tmp_path: Path) -> None:
    root = broken_root(tmp_path)
    by_folder = lint_json(str(root / "good"), "--profile", "agentskills")
    assert [s["name"] for s in by_folder["skills"]] == ["good"]
    by_file = lint_json(str(root / "bad" / "SKILL.md"), "--profile", "agentskills")
    assert [s["name"] for s in by_file["skills"]] == ["Bad"]
    assert by_file["summary"]["errors"] >= 1


def test_lint_finds_nested_collections(tmp_path: Path) -> None:
    write(tmp_path, "repo/plugins/one/skills/a/SKILL.md", skill_text(name="a", description="d"))
    write(tmp_path, "repo/plugins/two/skills/b/SKILL.md", skill_text(name="b", description="d"))
    data = lint_json(str(tmp_path / "repo"), "--profile", "agentskills")
    assert sorted(s["name"] for s in data["skills"]) == ["a", "b"]


def test_default_root_is_skills_folder(tmp_path: Path) -> None:
    write(tmp_path, "skills/a/SKILL.md", skill_text(name="a", description="d"))
    data = lint_json(cwd=tmp_path)
    assert [s["name"] for s in data["skills"]] == ["a"]


def test_config_file_sets_profile_and_roots(tmp_path: Path) -> None:
    write(tmp_path, "skillstudio.yaml", "profile: mvp\nroots: [library]\n")
    write(tmp_path, "library/x/y/SKILL.md", skill_text(name="y", description="d"))
    data = lint_json(cwd=tmp_path)
    assert data["profile"] == "mvp"
    assert [s["name"] for s in data["skills"]] == ["y"]


def test_bad_config_is_reported(tmp_path: Path) -> None:
    write(tmp_path, "skillstudio.yaml", "profile: nope\ncolour: blue\n")
    data = lint_json(cwd=tmp_path)
    assert [d["code"] for d in data["diagnostics"]].count("config-invalid") == 2


def test_later_roots_take_precedence(tmp_path: Path) -> None:
    write(tmp_path, "low/a/SKILL.md", skill_text(name="a", description="low"))
    write(tmp_path, "high/a/SKILL.md", skill_text(name="a", description="high"))
    data = lint_json(
        "--root",
        str(tmp_path / "low"),
        "--root",
        str(tmp_path / "high"),
        "--profile",
        "agentskills",
        "-v",
    )
    active = [s for s in data["skills"] if s["status"] == "active"]
    assert [s["root"] for s in active] == [str(tmp_path / "high")]


def test_list_text_and_json() -> None:
    run = cli("list", "--project", "skills/pegasus")
    assert run.code == 0
    assert re.search(r"^commit\s+shadowed\s+builtin\s+skills/pegasus/skills/commit", run.out, re.M)
    data = cli("list", "--project", "skills/pegasus", "--format", "json").json
    assert data["profile"] == "pegasus"
    assert {s["name"] for s in data["skills"]} == {
        "code-review",
        "commit",
        "deploy",
        "project-conventions",
    }


def test_show_text_json_and_not_found() -> None:
    run = cli("show", "code-review", "--project", "skills/oasis")
    assert run.code == 0
    assert "code-review  [active]  (oasis)" in run.out
    assert "priority: 80" in run.out
    data = cli("show", "safe-edit", "--project", "skills/workspace", "--format", "json").json
    assert data["files"] == [os.path.join("references", "limits.md")]
    assert data["raw"]["name"] == "safe-edit"
    missing = cli("show", "nope", "--project", "skills/oasis")
    assert missing.code == 1
    assert "no skill named 'nope'" in missing.err and "code-review" in missing.err


def test_show_gives_the_source_text_of_values_read_as_numbers(tmp_path: Path) -> None:
    """`version: 1.10` is the float 1.1 to YAML; show says what the author wrote."""
    write(
        tmp_path,
        "skills/csv/SKILL.md",
        "---\nname: csv\ndescription: Reads CSV.\nmetadata:\n  author: me\n"
        "  version: 1.10\n---\nBody\n",
    )
    run = cli("show", "csv", "--profile", "agentskills", cwd=tmp_path)
    assert run.code == 0, run.err
    assert 'metadata.version: written 1.10, which YAML reads as 1.1; quote it ("1.10")' in run.out
    assert "YAML reads 1.10 as a number, 1.1" in run.out  # the diagnostic says it too
    data = cli("show", "csv", "--profile", "agentskills", "--format", "json", cwd=tmp_path).json
    assert data["written"] == {"metadata.version": "1.10"}
    assert data["raw"]["metadata"] == {"author": "me", "version": 1.1}


def test_yaml_error_points_where_the_broken_quote_opens(tmp_path: Path) -> None:
    write(
        tmp_path,
        "skills/csv/SKILL.md",
        '---\nname: csv\ndescription: "Reads CSV files and summarises every column\n'
        "license: MIT\n---\nBody\n",
    )
    data = lint_json("skills", "--profile", "agentskills", cwd=tmp_path)
    found = diag(data, "yaml-invalid")
    assert (found["line"], found["column"]) == (3, 14)  # the opening quote, not the '---'
    message = found["message"]
    assert "at line 5, column 1" in message and "starts at line 3, column 14" in message
    # the value read from the lines is cut with an ellipsis inside its quotes
    assert "description '\"Reads CSV files and summarises every c…'" in message


def test_pack_warns_about_errors_and_strict_refuses(tmp_path: Path) -> None:
    write(tmp_path, "skills/csv/SKILL.md", "---\nname: Bad_Name\ndescription: x\n---\nBody\n")
    run = cli("pack", "skills/csv", "-o", "a.skill", "--profile", "agentskills", cwd=tmp_path)
    assert run.code == 0 and (tmp_path / "a.skill").is_file()
    assert "error name-format" in run.err and "packed a skill with 3 errors" in run.err
    strict = cli(
        "pack", "skills/csv", "-o", "b.skill", "--profile", "agentskills", "--strict", cwd=tmp_path
    )
    assert strict.code == 1 and not (tmp_path / "b.skill").exists()
    assert "nothing was packed (--strict)" in strict.err
    write(tmp_path, "skills/csv/SKILL.md", "---\nname: csv\ndescription: Reads CSV.\n---\nB\n")
    clean = cli(
        "pack", "skills/csv", "-o", "c.skill", "--profile", "agentskills", "--strict", cwd=tmp_path
    )
    assert clean.code == 0 and clean.err == "" and (tmp_path / "c.skill").is_file()


def test_internal_errors_never_print_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    from skillstudio.cli import main as main_module

    def boom(*_: object) -> int:
        raise RuntimeError("kaboom")

    monkeypatch.setitem(main_module.COMMANDS, "list", boom)
    monkeypatch.delenv("SKILLSTUDIO_DEBUG", raising=False)
    run = cli("list")
    assert run.code == 2 and "internal error" in run.err and "Traceback" not in run.err


def test_console_script_runs_as_a_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "skillstudio", "lint", "skills", "--format", "json"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert '"profile": "mixed"' in proc.stdout
    version = subprocess.run(
        [sys.executable, "-m", "skillstudio", "--version"], capture_output=True, text=True
    )
    assert version.stdout.startswith("skillstudio ")


def test_samples_folder_exists() -> None:
    assert os.path.isdir(SAMPLES)
