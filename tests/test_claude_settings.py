"""Claude Code's newer facts (docs/profiles.md, claude-code): nested `.claude/skills`
folders below the project (a name another skill has is `<directory>:<name>`), and the
project's `skillOverrides` settings applied to the listing and to activation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .helpers import cli, write
from .test_every_skill import notes, skill


def monorepo(tmp_path: Path) -> Path:
    repo = tmp_path / "mono"
    (repo / ".git").mkdir(parents=True)
    skill(repo, ".claude/skills/deploy", description="Deploys the whole site to production.")
    skill(repo, ".claude/skills/lint", description="Lints every package of the repository.")
    skill(repo, "apps/web/.claude/skills/deploy", description="Deploys the web app alone.")
    skill(repo, "apps/api/.claude/skills/seed", description="Seeds the api database.")
    return repo


def run_json(repo: Path, *args: str) -> Any:
    run = cli(*args, "--format", "json", cwd=repo)
    assert run.code in (0, 1), run.err
    return run.json


def test_nested_claude_skills_folders_are_read_and_named_by_their_directory(
    tmp_path: Path,
) -> None:
    """On main the nested folders were `unreached` ("Claude Code reads skills only
    from .claude/skills"): Claude Code loads them (v2.1.178)."""
    repo = monorepo(tmp_path)
    data = run_json(repo, "lint", str(repo))
    assert notes(data, "unreached", repo) == []
    by_path = {s["path"]: s for s in data["skills"]}
    assert len(by_path) == 4
    roots = {r["path"]: r for r in data["roots"]}
    web = roots[str(repo / "apps/web/.claude/skills")]
    assert web["label"] == "nested apps/web" and web["collection"] == "apps/web"
    listing = run_json(repo, "prompt", "--tier", "2")
    lines = listing["text"].splitlines()
    assert "- apps/web:deploy: Deploys the web app alone." in lines
    assert "- deploy: Deploys the whole site to production." in lines
    assert "- seed: Seeds the api database." in lines  # no clash: its own name
    run = cli("activate", "apps/web:deploy", "--as", "user", cwd=repo)
    assert run.code == 0 and str(repo / "apps/web/.claude/skills/deploy") in run.out


def test_skill_overrides_change_the_listing_and_activation(tmp_path: Path) -> None:
    """On main `.claude/settings.json` was not read: every skill listed in full."""
    repo = monorepo(tmp_path)
    overrides = {"lint": "name-only", "seed": "off", "deploy": "user-invocable-only"}
    write(repo, ".claude/settings.json", json.dumps({"skillOverrides": overrides}))
    # the local file wins, key by key
    write(repo, ".claude/settings.local.json", json.dumps({"skillOverrides": {"seed": "on"}}))
    listing = run_json(repo, "prompt", "--tier", "2")
    lines = listing["text"].splitlines()
    assert "- lint" in lines  # name only
    assert not any(line.startswith("- deploy") for line in lines)
    assert "- seed: Seeds the api database." in lines
    omitted = {o["skill"]: o["reason"] for o in listing["omitted"]}
    assert "user-invocable-only" in omitted["deploy"]
    model = run_json(repo, "activate", "deploy")  # the model may not invoke it
    assert model["error"]["code"] == "PERMISSION_DENIED"
    assert "skillOverrides" in model["error"]["message"]
    user = run_json(repo, "activate", "deploy", "--as", "user")
    assert "error" not in user and user["content"]
    write(repo, ".claude/settings.local.json", json.dumps({"skillOverrides": {}}))
    off = run_json(repo, "activate", "seed", "--as", "user")
    assert off["error"]["code"] == "PERMISSION_DENIED" and "turned off" in off["error"]["message"]


def test_a_bad_settings_file_is_a_warning_never_a_crash(tmp_path: Path) -> None:
    repo = monorepo(tmp_path)
    write(repo, ".claude/settings.json", '{"skillOverrides": {"lint": "hidden"}, "x": 1}')
    write(repo, ".claude/settings.local.json", '{"skillOverrides": ')
    data = run_json(repo, "lint", str(repo))
    found = {
        (d["path"].rsplit("/", 1)[-1], d["code"], d["severity"])
        for d in data["diagnostics"]
        if d["path"].endswith(".json")
    }
    assert found == {
        ("settings.json", "field-invalid", "warning"),
        ("settings.local.json", "manifest-invalid", "warning"),
    }
    bad = next(d for d in data["diagnostics"] if d["code"] == "field-invalid")
    assert "'hidden'" in bad["message"] and bad["line"] == 1 and bad["column"] > 1
    assert len(data["skills"]) == 4  # the skills are read all the same
    listing = run_json(repo, "prompt", "--tier", "2")
    assert "- lint: Lints every package of the repository." in listing["text"].splitlines()
    # a settings file that is a link out of the project is not read
    outside = tmp_path / "elsewhere.json"
    outside.write_text(json.dumps({"skillOverrides": {"lint": "off"}}))
    (repo / ".claude/settings.local.json").unlink()
    (repo / ".claude/settings.local.json").symlink_to(outside)
    listing = run_json(repo, "prompt", "--tier", "2")
    assert "- lint: Lints every package of the repository." in listing["text"].splitlines()
