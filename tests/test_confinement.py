"""Issue 25 items 3 and 11: nothing outside the folder opened is read or written, however
it is reached (`.agents/skills`, `.claude/skills` or a plugin's `skills/` linked out,
the folder or file given being such a link, a root swapped for a link after the scan);
a save writes through a link whose target is inside, as `set` does (docs/profiles.md)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillstudio.core.editing.saving import SaveError, atomic_write, stamp
from skillstudio.core.projects.project import project_from_folder

from .helpers import cli, skill_text, write

OUTSIDE_WORD = "quokkaoutside"  # in every outside skill's description: never in any output
LINKED = {  # link in the repository -> (folder outside, skill name there, profile reading it)
    ".agents/skills": ("agents", "ax", "agentskills"),
    ".claude/skills": ("claude", "cx", "claude-code"),
    "plug/skills": ("plugin", "px", "claude-code"),
}


def make_linked_repo(base: Path) -> tuple[Path, Path]:
    """base/repo (a git repository with one skill of its own) whose `.agents/skills`,
    `.claude/skills` and plugin `plug/skills` are links to folders of base/outside."""
    repo, outside = base / "repo", base / "outside"
    (repo / ".git").mkdir(parents=True)
    for link, (folder, name, _profile) in LINKED.items():
        description = f"Handles {name} requests about {OUTSIDE_WORD} data in reports."
        write(outside, f"{folder}/{name}/SKILL.md", skill_text(name=name, description=description))
        (repo / link).parent.mkdir(parents=True, exist_ok=True)
        (repo / link).symlink_to(outside / folder)
    write(repo, "plug/.claude-plugin/plugin.json", '{"name": "plug"}')
    write(repo, "good/.claude-plugin/plugin.json", '{"name": "good"}')
    write(
        repo,
        "good/skills/inside/SKILL.md",
        skill_text(name="inside", description="Checks the repository's own inside files."),
    )
    return repo, outside


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under `folder`: its bytes and modification time (ns)."""
    out: dict[str, tuple[bytes, int]] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            out[str(path)] = (path.read_bytes(), path.stat().st_mtime_ns)
    return out


@pytest.fixture
def linked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path, dict[str, tuple[bytes, int]]]:
    """The linked repository, and a personal Claude Code folder whose skills are kept
    elsewhere through a link (~/.claude/skills -> dotfiles): the user's own, still read."""
    repo, outside = make_linked_repo(tmp_path)
    home = tmp_path / "home"
    write(tmp_path, "dotfiles/mine/SKILL.md", skill_text(name="mine", description="My own."))
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "skills").symlink_to(tmp_path / "dotfiles")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    return repo, outside, snapshot(outside)


def _inside(path: str, repo: Path) -> bool:
    return os.path.realpath(path).startswith(os.path.realpath(repo) + os.sep)


@pytest.mark.parametrize("profile", [None, "agentskills", "claude-code", "codex"])
def test_lint_and_list_never_read_a_root_linked_out(
    linked: tuple[Path, Path, dict[str, tuple[bytes, int]]], profile: str | None
) -> None:
    repo, outside, before = linked
    chosen = ["--profile", profile] if profile else []
    lint = cli("lint", "--format", "json", str(repo), *chosen, cwd=repo)
    listed = cli("list", "--format", "json", "--project", str(repo), *chosen, cwd=repo)
    for run in (lint, listed):
        assert run.code in (0, 1), run.err
        assert OUTSIDE_WORD not in run.out
        skills = [s for s in run.json["skills"] if s["name"] != "mine"]
        assert skills and all(_inside(s["path"], repo) for s in skills), skills
        assert [s["name"].split(":")[-1] for s in skills] == ["inside"]  # the rest is read
        personal = profile in (None, "claude-code")  # (auto: detected claude-code)
        assert ("mine" in {s["name"] for s in run.json["skills"]}) == personal
    skipped = [d for d in lint.json["diagnostics"] if d["code"] == "symlink-skipped"]
    readers = {link for link, (_f, _n, reader) in LINKED.items() if reader == profile}
    for link in readers:  # each link a profile would read is named with its target
        target = os.path.realpath(outside / LINKED[link][0])
        assert any(d["path"] == str(repo / link) and target in d["message"] for d in skipped)
    assert snapshot(outside) == before


@pytest.mark.parametrize("link", sorted(LINKED))
def test_set_never_writes_through_a_root_linked_out(
    linked: tuple[Path, Path, dict[str, tuple[bytes, int]]], link: str
) -> None:
    repo, outside, before = linked
    _folder, name, profile = LINKED[link]
    qualified = f"plug:{name}" if link.startswith("plug") else name
    by_name = cli("set", qualified, "description=changed", "--profile", profile, cwd=repo)
    assert by_name.code != 0 and "no skill named" in by_name.err
    for path in (f"{link}/{name}/SKILL.md", f"{link}/{name}", f"./{link}/{name}"):
        by_path = cli("set", path, "description=changed", cwd=repo)
        assert by_path.code == 1 and "outside" in by_path.err, (path, by_path.err)
    assert snapshot(outside) == before


def test_a_folder_or_file_given_through_a_link_out_is_not_read(
    linked: tuple[Path, Path, dict[str, tuple[bytes, int]]],
) -> None:
    """The path lint showed (a link of the repository, or a file below one) given
    itself: it is still the repository's link, and still refused."""
    repo, outside, before = linked
    for args in (
        [".agents/skills"],
        [".agents/skills/ax"],
        [".agents/skills/ax/SKILL.md"],
        ["--root", ".agents/skills"],
        ["--project", ".claude/skills"],
        ["plug/skills/px/SKILL.md"],
    ):
        run = cli("lint", "--format", "json", *args, cwd=repo)
        assert run.code in (0, 1), (args, run.err)
        assert run.json["skills"] == [], args
        assert OUTSIDE_WORD not in run.out
        assert any(d["code"] == "symlink-skipped" for d in run.json["diagnostics"]), args
    assert snapshot(outside) == before


def test_a_root_swapped_for_a_link_after_the_scan_is_neither_read_nor_written(
    tmp_path: Path,
) -> None:
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    (repo / ".git").mkdir(parents=True)
    text = skill_text(name="ax", description="Handles ax requests in reports.")
    skill_md = write(repo, ".agents/skills/ax/SKILL.md", text)
    project = project_from_folder(str(repo), "agentskills")
    registry = project.registry()
    registry.scan()
    assert list(registry.active) == ["ax"]
    root = registry.active["ax"].root
    seen = stamp(skill_md)
    outside.mkdir()
    os.rename(repo / ".agents" / "skills", outside / "skills")  # same bytes, now outside
    (repo / ".agents" / "skills").symlink_to(outside / "skills")
    before = snapshot(outside)
    registry.refresh()
    assert registry.skills == []
    assert any(d.code == "symlink-skipped" for d in registry.root_diagnostics)
    with pytest.raises(SaveError, match="outside"):
        atomic_write(skill_md, b"---\nname: ax\n---\nchanged\n", seen, base=root.base)
    assert snapshot(outside) == before


def test_a_save_writes_through_a_link_inside_the_folder_and_keeps_the_link(
    tmp_path: Path,
) -> None:
    """Item 11: one behaviour for `set` and the app's Save (core/editing/saving.py with a base):
    the link stays, its target inside the folder gets the text, atomically."""
    skills = tmp_path / "skills"
    shared = write(skills, "shared/x.md", skill_text(name="x", description="Shared x skill."))
    (skills / "x").mkdir()
    (skills / "x" / "SKILL.md").symlink_to("../shared/x.md")
    link = str(skills / "x" / "SKILL.md")
    new = skill_text(name="x", description="Edited through the link.").encode()
    atomic_write(link, new, stamp(link), base=str(tmp_path))
    assert os.path.islink(link) and Path(shared).read_bytes() == new
    assert sorted(os.listdir(skills / "shared")) == ["x.md"]  # no temporary file left
    (tmp_path / "elsewhere.md").write_bytes(new)
    os.remove(link)
    os.symlink(tmp_path / "elsewhere.md", link)
    with pytest.raises(SaveError, match="outside"):
        atomic_write(link, b"changed", stamp(link), base=str(skills))
    assert (tmp_path / "elsewhere.md").read_bytes() == new
    # `set` does the same through the registry's root and the folder it was opened from
    os.remove(link)
    os.symlink("../shared/x.md", link)
    done = cli("set", "x", "license=MIT", "--root", str(skills), cwd=tmp_path)
    assert done.code == 0, done.err
    assert os.path.islink(link) and "license: MIT" in Path(shared).read_text()


@pytest.mark.parametrize("profile", ["claude-code", "codex"])
def test_the_roots_an_agent_reads_above_the_folder_are_confined_too(
    linked: tuple[Path, Path, dict[str, tuple[bytes, int]]], profile: str
) -> None:
    """A subfolder opened: Claude Code reads `.claude/skills` of every parent up to the
    repository root, Codex `.agents/skills` from the repository root down; those
    linked out are refused like the folder's own."""
    repo, outside, before = linked
    run = cli("lint", "--format", "json", str(repo / "good"), "--profile", profile, cwd=repo)
    assert run.code in (0, 1), run.err
    assert OUTSIDE_WORD not in run.out
    assert all(_inside(s["path"], repo) for s in run.json["skills"] if s["name"] != "mine")
    link = ".claude/skills" if profile == "claude-code" else ".agents/skills"
    assert any(
        d["code"] == "symlink-skipped" and d["path"] == str(repo / link)
        for d in run.json["diagnostics"]
    )
    assert snapshot(outside) == before


def test_skillstudio_yaml_roots_are_confined_and_a_bad_one_is_one_diagnostic(
    tmp_path: Path,
) -> None:
    """A root of skillstudio.yaml inside the folder that is a link out is refused like
    the conventional ones; one holding a NUL is a config-invalid (it was exit 2)."""
    project, outside = tmp_path / "project", tmp_path / "outside"
    write(project, "real/x/SKILL.md", skill_text(name="x", description="The real x skill."))
    text = skill_text(name="y", description=f"Outside {OUTSIDE_WORD} skill.")
    write(outside, "y/SKILL.md", text)
    (project / "linked").symlink_to(outside)
    write(project, "skillstudio.yaml", 'roots: [real, linked, "a\\0b"]\n')
    before = snapshot(outside)
    run = cli("lint", "--format", "json", str(project), cwd=project)
    assert run.code == 1 and OUTSIDE_WORD not in run.out, run.err
    assert [s["name"] for s in run.json["skills"]] == ["x"]
    codes = {(d["code"], os.path.basename(d["path"])) for d in run.json["diagnostics"]}
    assert {("symlink-skipped", "linked"), ("config-invalid", "skillstudio.yaml")} <= codes
    assert snapshot(outside) == before
