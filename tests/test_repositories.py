"""Repositories of skills (docs/profiles.md, issue 17): every path form finds the
same skills, collections at any depth, ignored trees, no-skills, misnamed files,
collections that do not shadow each other, and detection per root."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.profiles import PROFILE_NAMES

from .helpers import cli, skill_text, write

FORMS = ("path", "--root", "--project")


def lint(form: str, folder: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    args = [str(folder)] if form == "path" else [form, str(folder)]
    run = cli("lint", "--format", "json", *args, *extra, cwd=folder.parent)
    assert run.code in (0, 1), run.err
    return run.code, run.json


def found(data: dict[str, Any], base: Path) -> list[str]:
    return sorted(os.path.relpath(s["path"], base) for s in data["skills"])


def skill(base: Path, rel: str, **fields: Any) -> None:
    name = os.path.basename(os.path.dirname(rel))
    fields.setdefault("name", name)
    fields.setdefault("description", f"Does {name} things. Use when {name} is asked for.")
    write(base, rel, skill_text(**fields))


def nested_repo(base: Path) -> Path:
    repo = base / "repo"
    for rel in (
        "skills/alpha/SKILL.md",
        "composio-skills/beta/SKILL.md",
        "document-skills/gamma/SKILL.md",
        "plugins/one/skills/delta/SKILL.md",
        "deep/a/b/c/skills/epsilon/SKILL.md",
        ".curated/zeta/SKILL.md",
        # ignored: version control, dependencies, environments, build output
        ".git/skills/no-git/SKILL.md",
        "node_modules/pkg/skills/no-nm/SKILL.md",
        ".venv/lib/skills/no-venv/SKILL.md",
        "venv/skills/no-venv2/SKILL.md",
        "myenv/skills/no-env/SKILL.md",
        "dist/skills/no-dist/SKILL.md",
        "build/skills/no-build/SKILL.md",
        "target/skills/no-target/SKILL.md",
        "__pycache__/skills/no-cache/SKILL.md",
    ):
        skill(repo, rel)
    write(repo, "myenv/pyvenv.cfg", "home = /usr/bin\n")
    write(repo, "skills/alpha/references/nested/SKILL.md", skill_text(name="not-a-root"))
    return repo


NESTED = [
    ".curated/zeta/SKILL.md",
    "composio-skills/beta/SKILL.md",
    "deep/a/b/c/skills/epsilon/SKILL.md",
    "document-skills/gamma/SKILL.md",
    "plugins/one/skills/delta/SKILL.md",
    "skills/alpha/SKILL.md",
]


@pytest.mark.parametrize("form", FORMS)
def test_every_path_form_finds_every_collection(tmp_path: Path, form: str) -> None:
    """On main, --root found none of these (exit 0), PATH and --project missed the
    deeper collections once one was found."""
    repo = nested_repo(tmp_path)
    code, data = lint(form, repo)
    assert found(data, repo) == NESTED
    assert data["summary"]["roots"] == 6 == len(data["roots"])
    assert code == 0
    assert {r["skills"] for r in data["roots"]} == {1}


def test_lint_text_counts_and_lists_the_roots(tmp_path: Path) -> None:
    repo = nested_repo(tmp_path)
    run = cli("lint", "-v", str(repo), cwd=repo)
    assert "6 skills (6 active) in 6 roots checked with agentskills (.)" in run.out
    assert "root composio-skills: agentskills, 1 skill (default: no other" in run.out
    quiet = cli("lint", str(repo), cwd=repo)
    assert "root composio-skills" not in quiet.out


@pytest.mark.parametrize("form", FORMS)
def test_agents_skills_at_two_depths(tmp_path: Path, form: str) -> None:
    repo = tmp_path / "repo"
    skill(repo, ".agents/skills/top/SKILL.md")
    skill(repo, "packages/web/.agents/skills/inner/SKILL.md")
    skill(repo, "packages/web/.agents/skills/top/SKILL.md")
    _, data = lint(form, repo)
    assert found(data, repo) == [
        ".agents/skills/top/SKILL.md",
        "packages/web/.agents/skills/inner/SKILL.md",
        "packages/web/.agents/skills/top/SKILL.md",
    ]
    assert {s["status"] for s in data["skills"]} == {"active"}  # no shadowing


@pytest.mark.parametrize("form", FORMS)
def test_collections_do_not_shadow_each_other(tmp_path: Path, form: str) -> None:
    """On main the first plugin's 'access' was shadowed by the second's, by the
    alphabetical order of their folders."""
    repo = tmp_path / "market"
    skill(repo, "plugins/discord/skills/access/SKILL.md")
    skill(repo, "plugins/imessage/skills/access/SKILL.md")
    skill(repo, "plugins/imessage/skills/other/SKILL.md")
    code, data = lint(form, repo, "--strict")
    assert [s["status"] for s in data["skills"]] == ["active"] * 3
    notes = [d for d in data["diagnostics"] if d["code"] == "duplicate-name"]
    assert [d["severity"] for d in notes] == ["info", "info"]
    assert "known here as 'discord:access'" in notes[0]["message"]
    assert "known here as 'imessage:access'" in notes[1]["message"]
    assert not [d for d in data["diagnostics"] if d["code"] == "shadowed"]
    assert code == 0


def test_qualified_names_are_in_the_registry(tmp_path: Path) -> None:
    from skillstudio.core.projects.project import projects_for_path

    repo = tmp_path / "market"
    skill(repo, "plugins/discord/skills/access/SKILL.md")
    skill(repo, "plugins/imessage/skills/access/SKILL.md")
    (project,) = projects_for_path(str(repo), None)
    registry = project.registry()
    registry.scan()
    assert sorted(registry.active) == ["discord:access", "imessage:access"]
    registry.refresh()  # resolving again keeps one qualifier, not two
    assert sorted(registry.active) == ["discord:access", "imessage:access"]


@pytest.mark.parametrize("form", FORMS)
def test_no_skills_is_an_error_in_every_form(tmp_path: Path, form: str) -> None:
    """On main `lint --root` of a folder without skills said 0 skills and exited 0."""
    empty = tmp_path / "empty"
    write(empty, "docs/README.md", "# nothing here\n")
    code, data = lint(form, empty)
    assert code == 1
    (diag,) = [d for d in data["diagnostics"] if d["code"] == "no-skills"]
    assert diag["severity"] == "error" and "No SKILL.md under" in diag["message"]


@pytest.mark.parametrize("form", FORMS)
def test_lowercase_skill_md_is_a_warning_naming_the_fix(tmp_path: Path, form: str) -> None:
    repo = tmp_path / "repo"
    skill(repo, "skills/good/SKILL.md")
    write(repo, "skills/lower/skill.md", skill_text(name="lower", description="d"))
    code, data = lint(form, repo)
    warns = [d for d in data["diagnostics"] if d["code"] == "skill-file-name"]
    assert [os.path.relpath(d["path"], repo) for d in warns] == ["skills/lower/skill.md"]
    assert "rename it to SKILL.md" in warns[0]["message"]
    assert warns[0]["severity"] == "warning" and code == 0


def test_a_file_that_is_not_a_skill_is_an_error(tmp_path: Path) -> None:
    notes = write(tmp_path, "notes.md", "# notes\n")
    run = cli("lint", "--format", "json", notes, cwd=tmp_path)
    assert run.code == 1
    assert [d["code"] for d in run.json["diagnostics"]] == ["skill-file-name", "no-skills"][:1]


def test_scan_limits_bound_the_search(tmp_path: Path) -> None:
    from skillstudio.core.model.scan import ScanLimits
    from skillstudio.core.projects.repository import search_roots

    repo = tmp_path / "repo"
    skill(repo, "a/b/c/d/e/skills/deep/SKILL.md")
    skill(repo, "skills/top/SKILL.md")
    search = search_roots(str(repo), ScanLimits(max_folders=10_000, max_depth=3))
    assert search.roots == [str(repo / "skills")]
    assert [d.code for d in search.diagnostics] == ["scan-limit"]
    small = search_roots(str(repo), ScanLimits(max_folders=2, max_depth=8))
    assert [d.code for d in small.diagnostics] == ["scan-limit"]


# ---------------------------------------------------------------- detection


def detected(folder: Path) -> list[tuple[str, str, str]]:
    """(root, profile, reason) per root, as lint reports them."""
    _, data = lint("path", folder)
    return [
        (os.path.relpath(r["path"], folder), r["profile"], r["profile_reason"])
        for r in data["roots"]
    ]


def test_a_lone_version_key_or_claude_fields_pick_no_seed(tmp_path: Path) -> None:
    """On main: `version:` made a repository toolsets, `argument-hint` made it pegasus."""
    repo = tmp_path / "repo"
    skill(repo, "plugins/a/skills/one/SKILL.md", version="1.0.0")
    skill(repo, "plugins/b/skills/two/SKILL.md", **{"argument-hint": "[file]"})
    skill(repo, "plugins/b/skills/three/SKILL.md", default_enabled=True)
    profiles = {profile for _, profile, _ in detected(repo)}
    assert profiles.isdisjoint({"toolsets", "pegasus", "oasis", "mvp", "workspace"})


def test_mixed_repository_is_detected_per_root(tmp_path: Path) -> None:
    repo = tmp_path / "mixed"
    skill(repo, "seed/key_skills/review/SKILL.md", id="review", triggers=["review"], priority=1)
    skill(repo, "tools/skills/deploy/SKILL.md", triggers={"keywords": ["deploy"]})
    skill(repo, "std/skills/plain/SKILL.md")
    roots = sorted(detected(repo))
    assert roots == [
        ("seed/key_skills", "oasis", "detected oasis: seed/key_skills/ folder"),
        ("std/skills", "agentskills", "default: no other profile's marks found"),
        (
            "tools/skills",
            "toolsets",
            "detected toolsets: a 'triggers:' mapping in tools/skills/deploy/SKILL.md",
        ),
    ]
    run = cli("lint", str(repo), cwd=repo)
    summary = run.out.splitlines()[-1]
    assert summary == (
        "3 skills (3 active) in 3 roots checked with oasis (.: 1 root), "
        "agentskills (.: 1 root), toolsets (.: 1 root): 0 errors, 0 warnings"
    )


@pytest.mark.parametrize(
    ("layout", "profile", "reason"),
    [
        ({"key_skills/a/SKILL.md": {}}, "oasis", "key_skills/"),
        ({"skills/a/SKILL.md": {}, "data/skills/b/SKILL.md": {}}, "pegasus", "data/skills/"),
        ({"src/_bundled_skills/a/SKILL.md": {}}, "toolsets", "src/_bundled_skills/"),
        ({"skills/a/SKILL.md": {"toolsets": ["git"]}}, "toolsets", "a 'toolsets:' list"),
        ({"data/skills/a/SKILL.md": {}}, "agentskills", "default"),  # no skills/ beside it
        ({"skills/a/SKILL.md": {"triggers": ["x"]}}, "agentskills", "default"),  # a list
    ],
)
def test_seed_profiles_only_on_their_own_marks(
    tmp_path: Path, layout: dict[str, dict[str, Any]], profile: str, reason: str
) -> None:
    for rel, fields in layout.items():
        skill(tmp_path / "p", rel, **fields)
    _, data = lint("--project", tmp_path / "p")
    assert {r["profile"] for r in data["roots"]} == {profile}
    assert all(reason in r["profile_reason"] for r in data["roots"])


def _needs(profile: str) -> None:
    if profile not in PROFILE_NAMES:
        pytest.skip(f"the {profile} profile is not registered in this build")


@pytest.mark.parametrize(
    ("layout", "mark"),
    [
        ({".claude/skills/a/SKILL.md": {}}, ".claude"),
        ({".claude-plugin/marketplace.json": None, "plugins/p/skills/a/SKILL.md": {}}, "plugin"),
        ({"p/.claude-plugin/plugin.json": None, "p/skills/a/SKILL.md": {}}, "plugin"),
        ({"skills/a/SKILL.md": {"when_to_use": "a file changes"}}, "when_to_use"),
        ({"skills/a/SKILL.md": {"disallowed-tools": "Write"}}, "disallowed-tools"),
    ],
)  # fmt: skip
def test_claude_code_marks(tmp_path: Path, layout: dict[str, Any], mark: str) -> None:
    _needs("claude-code")
    _layout(tmp_path / "r", layout)
    roots = detected(tmp_path / "r")
    assert {profile for _, profile, _ in roots} == {"claude-code"}
    assert all(mark in reason for _, _, reason in roots)


@pytest.mark.parametrize(
    ("layout", "mark"),
    [
        # a `.codex/` folder marks codex when it holds skills (an agent folder without
        # any is no mark: docs/profiles.md)
        ({".codex/skills/b/SKILL.md": {}, ".agents/skills/a/SKILL.md": {}}, ".codex"),
        ({"skills/a/SKILL.md": {}, "skills/a/agents/openai.yaml": None}, "agents/openai.yaml"),
    ],
)
def test_codex_marks(tmp_path: Path, layout: dict[str, Any], mark: str) -> None:
    _needs("codex")
    _layout(tmp_path / "r", layout)
    roots = detected(tmp_path / "r")
    assert {profile for _, profile, _ in roots} == {"codex"}
    assert all(mark in reason for _, _, reason in roots)


def test_claude_and_codex_roots_in_one_repository(tmp_path: Path) -> None:
    _needs("claude-code")
    _needs("codex")
    repo = tmp_path / "r"
    _layout(
        repo,
        {
            "claude/.claude/skills/a/SKILL.md": {},
            "codex/skills/b/SKILL.md": {},
            "codex/skills/b/agents/openai.yaml": None,
            "plain/skills/c/SKILL.md": {},
        },
    )
    profiles = {root: profile for root, profile, _ in detected(repo)}
    assert profiles == {
        "claude/.claude/skills": "claude-code",
        "codex/skills": "codex",
        "plain/skills": "agentskills",
    }


def _layout(base: Path, layout: dict[str, Any]) -> None:
    for rel, fields in layout.items():
        if fields is None:
            write(base, rel, "{}\n" if rel.endswith(".json") else "x: 1\n")
        else:
            skill(base, rel, **fields)


def test_a_qualified_name_is_invoked_and_activated(tmp_path: Path) -> None:
    repo = tmp_path / "market"
    skill(repo, "plugins/discord/skills/access/SKILL.md", _body="discord body\n")
    skill(repo, "plugins/imessage/skills/access/SKILL.md", _body="imessage body\n")
    match = cli("match", "/imessage:access now", "--format", "json", cwd=repo).json
    assert match["selected"] == ["imessage:access"]
    run = cli("activate", "discord:access", cwd=repo)
    assert run.code == 0 and "discord body" in run.out


def test_skill_folders_do_not_count_against_the_search_limit(tmp_path: Path) -> None:
    """Before: a root of 10,000 skills made the search stop (its skill folders counted)."""
    from skillstudio.core.model.scan import ScanLimits
    from skillstudio.core.projects.repository import search_roots

    for index in range(6):
        skill(tmp_path / "repo", f"skills/s{index}/SKILL.md")
    search = search_roots(str(tmp_path / "repo"), ScanLimits(max_folders=3, max_depth=8))
    assert search.roots == [str(tmp_path / "repo/skills")] and search.diagnostics == []


def test_hostile_repository_is_searched_bounded(tmp_path: Path) -> None:
    """Link loops, links out of the repository and a 300-level tree: the search ends at
    once, follows no link, and reports the depth limit."""
    import time

    repo = tmp_path / "repo"
    skill(repo, "skills/ok/SKILL.md")
    os.symlink(repo, repo / "loop")  # a folder link back to the top
    outside = tmp_path / "outside"
    skill(outside, "skills/far/SKILL.md")
    os.symlink(outside, repo / "escape")
    deep = repo / "deep"
    deep.mkdir()
    path = str(deep)
    for _ in range(300):
        path = os.path.join(path, "d")
    os.makedirs(path)
    started = time.perf_counter()
    code, data = lint("path", repo)
    assert time.perf_counter() - started < 20  # a hang guard
    assert found(data, repo) == ["skills/ok/SKILL.md"]
    assert "scan-limit" in [d["code"] for d in data["diagnostics"]]
    assert code == 0


def test_engine_commands_on_a_mixed_repository_answer_per_project(tmp_path: Path) -> None:
    """Before: `prompt` and `activate` exited 2 ('choose one with --profile')."""
    repo = tmp_path / "mixed"
    skill(repo, "seed/key_skills/review/SKILL.md", id="review", triggers=["review"], priority=1)
    skill(repo, "std/skills/plain/SKILL.md")
    run = cli("prompt", cwd=repo)
    assert run.code == 0, run.err
    assert [line for line in run.out.splitlines() if line.startswith("== ")] == [
        "== oasis: . (1 root)",
        "== agentskills: . (1 root)",
    ]
    assert run.err.count("[tier ") == 2
    data = cli("prompt", "--format", "json", cwd=repo).json
    assert data["profile"] == "mixed"
    assert [p["profile"] for p in data["projects"]] == ["oasis", "agentskills"]
    for entry in data["projects"]:  # each project with its tier's own keys
        assert {"path", "roots", "tier", "text", "chars", "listed"} <= set(entry)
    assert "plain" in data["projects"][1]["text"] and "plain" not in data["projects"][0]["text"]
    one = cli("prompt", "--profile", "agentskills", "--format", "json", cwd=repo)
    assert one.code == 0 and "projects" not in one.json and "tier" in one.json
    # activate: the project that knows the skill answers (text), every project (JSON)
    act = cli("activate", "plain", "--as", "user", cwd=repo)
    assert act.code == 0, act.err
    assert [line for line in act.out.splitlines() if line.startswith("== ")] == [
        "== agentskills: . (1 root)"
    ]
    data = cli("activate", "plain", "--as", "user", "--format", "json", cwd=repo).json
    assert data["ok"] is True and data["skill"] == "plain" and data["profile"] == "mixed"
    answers = {p["profile"]: p for p in data["projects"]}
    assert answers["oasis"]["error"]["code"] == "NOT_FOUND"
    assert "error" not in answers["agentskills"] and answers["agentskills"]["content"]
    missing = cli("activate", "nothing", cwd=repo)
    assert missing.code == 1 and missing.err.count("NOT_FOUND") == 2
    # match answers for each (issue 27), as lint reads them all
    both = cli("match", "review this", cwd=repo)
    assert both.code == 0
    assert [line for line in both.out.splitlines() if line.startswith("== ")] == [
        "== oasis: . (1 root)",
        "== agentskills: . (1 root)",
    ]


def test_several_roots_of_one_repository_read_each_skill_once() -> None:
    """`--root` of a commands folder, a skills folder and a plugin of one Claude Code
    project: the plugin (a repository of its own) found the project's .claude/skills
    above it again, each folder became its own project and the skills were listed
    three times while the command was lost."""
    from .helpers import SAMPLES

    base = os.path.join(SAMPLES, "claude-code")
    roots = [".claude/commands", ".claude/skills", "plugins/review-kit"]
    args = [a for r in roots for a in ("--root", os.path.join(base, r))]
    data = cli("list", *args, "--profile", "claude-code", "--format", "json").json
    names = [skill["name"] for skill in data["skills"]]
    assert sorted(names) == sorted(set(names))
    assert {"standup", "commit-message", "review-kit:security-review"} <= set(names)
