"""Issue 38, the author's view (PRODUCT.md 3.9 "Two views of one tree"): every
SKILL.md under the path is read and checked as a skill; `unreached` belongs to the
in-place view (`lint --profile all`, `show`'s agents), with the agent's own reason and
hints that are run here; a folder a conventional root links to is linted as given;
`scan-limit` only where skills could be. Fixtures: tests/data/i38_catalogue."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from .helpers import cli, skill_text, write

DATA = Path(__file__).parent / "data" / "i38_catalogue"
CATEGORY = "cli-tool/components/skills"
CATALOGUE = ["etl-plan", "lint-fix", "rest-guide", "review", "sql-tune", "write-readme"]
COLLECTION = ["gmail-send", "house-style", "jira-file", "pdf-forms", "slack-post", "slide-deck"]


def copy(tmp_path: Path, name: str) -> Path:
    repo = tmp_path / name
    shutil.copytree(DATA / name, repo, symlinks=True)
    (repo / ".git").mkdir()
    return repo


def run(cwd: Path, *args: str) -> dict[str, Any]:
    done = cli(*args, "--format", "json", cwd=cwd)
    assert done.code in (0, 1), done.err
    data: dict[str, Any] = done.json
    return data


def names(data: dict[str, Any]) -> list[str]:
    return sorted(str(s["name"]) for s in data["skills"])


def codes(data: dict[str, Any], code: str) -> list[dict[str, Any]]:
    return [d for d in data["diagnostics"] if d["code"] == code]


# -- every SKILL.md is a skill of lint, list, show and match ---------------------------
EXPECTED_CATALOGUE = {  # profile (None: detected) -> the skills lint checks
    None: sorted([*CATALOGUE, "ship"]),  # claude-code, from .claude/commands: its command
    "claude-code": sorted([*CATALOGUE, "ship"]),
    "codex": CATALOGUE,
    "agentskills": CATALOGUE,
}


@pytest.mark.parametrize("profile", list(EXPECTED_CATALOGUE), ids=str)
def test_a_catalogue_of_categories_is_linted_whole(tmp_path: Path, profile: str | None) -> None:
    """On main: the command alone, and one "N SKILL.md files here are not read … lint
    <folder>" note per category folder (35 on the issue's catalogue of 897)."""
    repo = copy(tmp_path, "templates")
    extra = ["--profile", profile] if profile else []
    data = run(tmp_path, "lint", str(repo), *extra)
    assert names(data) == EXPECTED_CATALOGUE[profile]
    # no note of files left unread; Codex loads none of them where they sit (Claude Code
    # loads the command): the project's one note says so (tests/test_in_place.py)
    unreached = [(d["path"], d["message"][:40]) for d in codes(data, "unreached")]
    placed = [(str(repo), "Codex CLI loads none of the 6 skills her")]
    assert unreached == (placed if profile == "codex" else [])
    assert codes(data, "no-skills") == []
    expected = "claude-code" if profile is None else profile
    assert {r["profile"] for r in data["roots"]} == {expected}
    paths = {os.path.relpath(s["path"], repo) for s in data["skills"]}
    assert f"{CATEGORY}/data/warehouse/etl/etl-plan/SKILL.md" in paths  # 3 below its category
    listed = run(tmp_path, "list", str(repo), *extra)
    assert sorted(s["name"] for s in listed["skills"]) == names(data)


def test_show_and_match_find_a_deep_skill_of_the_catalogue(tmp_path: Path) -> None:
    repo = copy(tmp_path, "templates")
    shown = run(repo, "show", "etl-plan", ".")
    assert shown["path"] == str(repo / CATEGORY / "data/warehouse/etl/etl-plan/SKILL.md")
    matched = run(repo, "match", "someone asks for etl-plan", ".")
    assert "etl-plan" in str(matched)


def test_a_suite_runs_against_the_whole_catalogue(tmp_path: Path) -> None:
    """`test`: a case naming a skill three folders below its category selects it (on
    main the catalogue was not read beside `.claude/commands`: "expected etl-plan")."""
    repo = copy(tmp_path, "templates")
    write(
        repo,
        "suites/catalogue.yaml",
        'cases:\n  - query: "/etl-plan nightly"\n    expect: etl-plan\n'
        '  - query: "/rest-guide users"\n    expect: rest-guide\n',
    )
    done = cli("test", "suites/catalogue.yaml", cwd=repo)
    assert done.code == 0, done.out + done.err
    assert done.out.rstrip().endswith("2 passed, 0 failed")


def test_a_collection_beside_a_folder_of_collections_is_linted_whole(tmp_path: Path) -> None:
    """Skill folders at the root beside `composio-skills/<skill>`, in a repository with
    its own `.claude/skills`: on main 1 skill of 6 (claude-code read its folder alone)
    and the hint "lint each skill folder"."""
    repo = copy(tmp_path, "collection")
    data = run(tmp_path, "lint", str(repo))
    assert names(data) == COLLECTION
    assert codes(data, "unreached") == []
    assert {r["profile"] for r in data["roots"]} == {"claude-code"}
    assert all(s["status"] == "active" for s in data["skills"])  # collections: no shadowing


# -- the in-place view: which agent would not load them, and why -----------------------
def test_the_in_place_view_gives_the_agents_own_reason_per_category(tmp_path: Path) -> None:
    """`lint --profile all`: the skills Claude Code would not load in place, one note per
    folder, with its real folders as the reason (on main: "Claude Code reads skills only
    from .claude/commands", as if the catalogue were misplaced commands)."""
    repo = copy(tmp_path, "templates")
    data = run(tmp_path, "lint", str(repo), "--profile", "all")
    assert names(data) == sorted([*CATALOGUE, "ship"])
    notes = {os.path.relpath(d["path"], repo): d["message"] for d in codes(data, "unreached")}
    assert sorted(notes) == [
        f"{CATEGORY}/{c}" for c in ("data", "data/warehouse/etl", "dev", "docs", "docs/api")
    ]
    dev = notes[f"{CATEGORY}/dev"]
    assert "2 SKILL.md files here are not loaded by Claude Code" in dev
    assert "(lint-fix, review)" in dev
    assert "it reads .claude/skills, .claude/commands, plugins" in dev
    assert "reads skills only from .claude/commands" not in dev
    assert "lint " not in dev.replace("(lint checks", "")  # no lint hint: lint reads them
    assert data["agents_found"]["claude-code"] == 1
    assert data["agents_found"]["agentskills"] == 6


def test_in_place_hints_name_agents_that_do_load_the_files(tmp_path: Path) -> None:
    """Each agent a note names as loading the files finds them where they sit: checked
    against `show`'s own answer for every skill of the note."""
    repo = copy(tmp_path, "collection")
    write(
        repo,
        ".github/skills/review-pr/SKILL.md",
        skill_text(
            name="review-pr",
            description=(
                "Reviews pull requests against the checklist. Use when a pull request needs review."
            ),
        ),
    )
    data = run(tmp_path, "lint", str(repo), "--profile", "all")
    notes = {os.path.relpath(d["path"], repo): d["message"] for d in codes(data, "unreached")}
    github = notes[".github/skills"]
    assert "not loaded by Claude Code" in github and "(review-pr)" in github
    named = re.search(r"; (.+) loads? it here", github)
    assert named is not None, github
    loaders = re.split(r", | and ", named.group(1))
    assert "copilot" in loaders and "claude-code" not in loaders
    shown = run(repo, "show", "review-pr", ".")
    found = {a["agent"] for a in shown["agents"] if a["found"]}
    assert set(loaders) <= found
    assert "no agent with folders of its own" in notes["composio-skills"]
    shown = run(repo, "show", "slack-post", ".")
    assert {a["agent"] for a in shown["agents"] if a["found"] and a["folder"]} == set()


def hinted_commands(message: str) -> list[list[str]]:
    """The `lint …` commands a note tells the user to run."""
    return [m.split() for m in re.findall(r"lint(?: --profile [\w-]+| [^\s,;)]+)", message)]


@pytest.mark.parametrize("root", [".agents/skills", "skills"])
def test_every_hint_of_an_unreached_note_reads_the_files_it_names(
    tmp_path: Path, root: str
) -> None:
    """What lint still cannot read as a root of its own (a skill nested in a skill) is
    named with hints; each hint is run here and must check the skill it names (on main
    `skills/outer/examples` got "lint --profile workspace", and workspace reads only
    `*/SKILL.md`)."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    for rel in (f"{root}/outer", f"{root}/outer/examples/inner"):
        name = os.path.basename(rel)
        text = skill_text(name=name, description=f"Does {name} work. Use when {name} is due.")
        write(repo, f"{rel}/SKILL.md", text)
    data = run(tmp_path, "lint", str(repo), "--profile", "agentskills")
    (note,) = codes(data, "unreached")
    assert "(inner)" in note["message"]
    commands = hinted_commands(note["message"])
    assert commands, note["message"]
    assert ["lint", "--profile", "workspace"] not in commands
    for command in commands:
        if command[1] == "--profile":
            args = ["lint", str(repo), *command[1:]]
        else:
            args = ["lint", command[1]]
        checked = run(repo, *args)
        assert "inner" in names(checked), (command, note["message"])


# -- a folder a conventional root links to, given as the path ----------------------------
@pytest.mark.parametrize("kept", [".github/skills", ".shared/skills", ".cursor/skills"])
def test_a_folder_a_root_links_to_is_linted_as_given(tmp_path: Path, kept: str) -> None:
    """`.claude/skills -> ../<kept>`, `lint <kept>`: on main exit 1 "No SKILL.md under
    …" while the summary counted the skill (read as .claude/skills)."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    text = skill_text(name="release-notes", description="Writes release notes. Use at release.")
    write(repo, f"{kept}/release-notes/SKILL.md", text)
    (repo / ".claude").mkdir()
    os.symlink(f"../{kept}", repo / ".claude/skills")
    done = cli("lint", kept, "--format", "json", cwd=repo)
    assert done.code == 0, done.out
    data = done.json
    assert codes(data, "no-skills") == []
    assert [s["path"] for s in data["skills"]] == [str(repo / kept / "release-notes/SKILL.md")]
    assert [r["path"] for r in data["roots"]] == [str(repo / kept)]
    listed = run(repo, "list", kept)
    assert [s["name"] for s in listed["skills"]] == ["release-notes"]
    whole = run(tmp_path, "lint", str(repo))  # the repository: read once, not twice
    assert names(whole) == ["release-notes"]


# -- scan-limit only where skills could be ----------------------------------------------
def test_a_deep_source_tree_without_skills_gets_no_scan_limit(tmp_path: Path) -> None:
    repo = tmp_path / "service"
    (repo / ".git").mkdir(parents=True)
    text = skill_text(name="compile-app", description="Compiles the app.")
    write(repo, "skills/compile-app/SKILL.md", text)
    java = "src/main/java/com/example/shop/order/service/impl/internal/util"
    write(repo, f"{java}/OrderUtil.java", "class OrderUtil {}\n")
    data = run(tmp_path, "lint", str(repo))
    assert codes(data, "scan-limit") == []
    assert names(data) == ["compile-app"]


def test_a_skill_at_depth_nine_in_an_extension_folder_is_found(tmp_path: Path) -> None:
    """On main: hidden behind "Folders deeper than 8 levels … those inside … and 1 other
    folder"."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    far = "tools/a/b/c/.gemini/extensions/ext/skills/far-away"  # the folder at depth 9
    write(repo, f"{far}/SKILL.md", skill_text(name="far-away", description="Far."))
    write(repo, "skills/near/SKILL.md", skill_text(name="near", description="Near."))
    data = run(tmp_path, "lint", str(repo))
    assert names(data) == ["far-away", "near"]
    assert codes(data, "scan-limit") == []


def test_the_search_cut_off_is_named_precisely(tmp_path: Path) -> None:
    """Past twice scan.max_depth the search stops, and the note names the folder."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    write(repo, "skills/near/SKILL.md", skill_text(name="near", description="Near."))
    deep = "/".join(f"l{n}" for n in range(6))
    write(repo, f"{deep}/x/skills/lost/SKILL.md", skill_text(name="lost", description="Lost."))
    write(repo, "skillstudio.yaml", "scan:\n  max_depth: 3\n")
    data = run(tmp_path, "lint", str(repo))
    (note,) = codes(data, "scan-limit")
    assert "deeper than 6 levels" in note["message"]
    assert "l0/l1/l2/l3/l4/l5" in note["message"] and "other folder" not in note["message"]


def test_headroom_counts_the_authors_view_and_says_what_is_not_loaded_in_place(
    tmp_path: Path,
) -> None:
    """`headroom` counts every skill of the path, as the app's Headroom tab and `prompt
    --tier 2` do (a first-time reviewer read "0 skills" from the command line where the
    app said 11); the catalogue and the collection beside `.claude/...` that Claude Code
    would not load in place are named in one line, in its terms."""
    for name, skills, unreached in (
        ("templates", 7, CATALOGUE),
        ("collection", 6, [n for n in COLLECTION if n != "house-style"]),
    ):
        repo = copy(tmp_path, name)
        data = run(tmp_path, "headroom", str(repo), "--agent", "claude-code")
        (row,) = data["agents"]
        assert row["skills"] == skills, row
        note = row["in_place"]
        count = len(unreached)
        assert note.startswith(f"{count} SKILL.md files here are not loaded by Claude Code")
        assert "it reads .claude/skills, .claude/commands, plugins" in note
        assert ", ".join(unreached[:5]) in note and "house-style" not in note
