"""Scan limits said once per root, never for folders skipped by design (issue 27: a
monorepo's `web/` folders gave 65 `scan-limit` warnings and 40 more inside `backups/`,
and `--strict` failed on them)."""

from __future__ import annotations

import os
from pathlib import Path

from skillstudio.core.model.scan import ScanLimits
from skillstudio.core.projects.repository import search_roots
from skillstudio.core.reading.discovery import discover

from .helpers import cli, skill_text, write


def deep_folders(base: Path, top: str, count: int, depth: int = 12) -> None:
    for index in range(count):
        path = base / top / f"part{index}" / "/".join(f"l{level}" for level in range(depth))
        path.mkdir(parents=True)
        (path / "index.ts").write_text("export {}\n", encoding="utf-8")


def monorepo(base: Path) -> Path:
    repo = base / "monorepo"
    write(repo, ".claude/skills/deploy/SKILL.md", skill_text(name="deploy", description="Ship."))
    deep_folders(repo, "web/apps", 30)
    deep_folders(repo, "web/packages", 35)
    deep_folders(repo, "backups", 20)
    deep_folders(repo, "old-skills.bak", 20)
    deep_folders(repo, "site/node_modules", 5)
    deep_folders(repo, "api/build", 5)
    return repo


def test_a_monorepo_gets_no_depth_note_for_deep_folders_without_skills(
    tmp_path: Path,
) -> None:
    """Issue 38: the search goes past scan.max_depth (to twice it, within the folder
    budget), so source trees 15 levels deep without a skill give no note."""
    monorepo(tmp_path)
    data = cli("lint", "monorepo", "--format", "json", cwd=tmp_path).json
    assert [d for d in data["diagnostics"] if d["code"] == "scan-limit"] == []
    assert [s["name"] for s in data["skills"]] == ["deploy"]


def test_a_monorepo_gets_one_depth_note_at_the_cut_off_and_none_for_backups(
    tmp_path: Path,
) -> None:
    repo = monorepo(tmp_path)
    write(repo, "skillstudio.yaml", "scan:\n  max_depth: 5\n")
    data = cli("lint", "monorepo", "--format", "json", cwd=tmp_path).json
    limits = [d for d in data["diagnostics"] if d["code"] == "scan-limit"]
    assert len(limits) == 1, [d["path"] for d in limits]
    assert limits[0]["path"] == str(repo)
    message = limits[0]["message"]
    assert "deeper than 10 levels" in message and "web" in message and "64 other folders" in message
    assert "backups" not in message and ".bak" not in message
    assert [s["name"] for s in data["skills"]] == ["deploy"]


def test_strict_does_not_fail_on_folders_skipped_by_design(tmp_path: Path) -> None:
    repo = tmp_path / "monorepo"
    write(repo, ".claude/skills/deploy/SKILL.md", skill_text(name="deploy", description="Ship."))
    deep_folders(repo, "backups", 10)
    deep_folders(repo, "skills.bak", 10)
    deep_folders(repo, ".venv/lib", 3)
    run = cli("lint", "monorepo", "--strict", cwd=tmp_path)
    assert run.code == 0, run.out
    assert "scan-limit" not in run.out


def test_recursive_discovery_says_its_depth_limit_once(tmp_path: Path) -> None:
    write(tmp_path, "skills/top/SKILL.md", skill_text(name="top", description="Top."))
    deep_folders(tmp_path, "skills/a", 3)
    deep_folders(tmp_path, "skills/b", 4)
    deep_folders(tmp_path, "skills/backups", 4)  # (the walk enters it; the note names none)
    result = discover(str(tmp_path / "skills"), "recursive", limits=ScanLimits(max_depth=6))
    limits = [d for d in result.diagnostics if d.code == "scan-limit"]
    assert len(limits) == 1
    assert limits[0].path == str(tmp_path / "skills")
    assert "6 other folders" in limits[0].message and "backups" not in limits[0].message


def test_backups_are_not_searched_for_roots(tmp_path: Path) -> None:
    for folder in ("backups", "backup", "skills.bak", "skills.old", "skills~"):
        write(tmp_path, f"{folder}/skills/x/SKILL.md", skill_text(name="x", description="X."))
    write(tmp_path, "live/skills/y/SKILL.md", skill_text(name="y", description="Y."))
    found = search_roots(str(tmp_path))
    assert [os.path.relpath(root, tmp_path) for root in found.roots] == ["live/skills"]
    assert found.diagnostics == []


def test_skipped_by_design_names() -> None:
    from skillstudio.core.model.scan import skipped_by_design

    for name in ("node_modules", ".git", "build", ".venv", "backups", "Backups", "x.bak", "a~"):
        assert skipped_by_design(name), name
    for name in ("skills", "web", "backend", "bakery", "build-tools"):
        assert not skipped_by_design(name), name
