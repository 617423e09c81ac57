"""`skillstudio diff`: a repository with history made here (git init, commits), the
revision read from git's objects and compared with the working tree."""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from skillstudio.cli.main import main
from skillstudio.core.projects.change_report import description_request
from skillstudio.core.projects.git_tree import GitError, copy_tree, repository_top, resolve

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

COMMIT = (
    "Writes git commit messages from the staged changes. "
    "Use when the user asks to write a commit message for staged changes."
)
REVIEW = "Reviews pull requests for bugs. Use when the user asks to review a pull request."
CONFIG = "profile: claude-code\nbundled_skills: false\nsuites: [suites/main.yaml]\n"
QUERY = "draft a message describing my staged changes"
SUITE = f'cases:\n  - query: "{QUERY}"\n    expect_likely: commit\n'


def git(repo: Path, *args: str) -> str:
    # (GIT_OPTIONAL_LOCKS=0: `git status` itself does not refresh the index)
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(repo.parent)}
    env["GIT_OPTIONAL_LOCKS"] = "0"
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout


def skill(repo: Path, name: str, description: str) -> None:
    folder = repo / ".claude" / "skills" / name
    folder.mkdir(parents=True, exist_ok=True)
    text = f"---\nname: {name}\ndescription: {description}\n---\n\nSteps for {name}.\n"
    (folder / "SKILL.md").write_text(text)


def commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", message)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    skill(repo, "commit", COMMIT)
    skill(repo, "review", REVIEW)
    (repo / "skillstudio.yaml").write_text(CONFIG)
    (repo / "suites").mkdir()
    (repo / "suites" / "main.yaml").write_text(SUITE)
    commit_all(repo, "two skills and a suite")
    return repo


def run(cwd: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["diff", *args], cwd=str(cwd), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def snapshot(repo: Path) -> tuple[object, ...]:
    """Every path with its size and mtime (the .git folder's too), and git's status."""
    files = []
    for folder, dirs, names in os.walk(repo):
        dirs.sort()
        for name in sorted(names + dirs):
            st = os.lstat(os.path.join(folder, name))
            files.append((os.path.join(folder, name), st.st_size, st.st_mtime_ns))
    return tuple(files), git(repo, "status", "--porcelain", "--untracked-files=all")


def test_unchanged_tree_is_exit_0(repo: Path) -> None:
    code, out, err = run(repo)
    assert code == 0, err
    assert "0 regressions" in out
    assert "HEAD -> working tree" in out
    assert "Claude Code listing" in out


def test_description_edit_that_breaks_a_suite_case_is_exit_1(repo: Path) -> None:
    skill(repo, "commit", "Formats changelog files. Use when the user asks to tidy a changelog.")
    skill(repo, "review", REVIEW + " Also drafts messages describing staged changes.")
    code, out, err = run(repo)
    assert code == 1, out + err
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"  REGRESSION  {QUERY!r}"))
    assert "suites/main.yaml:2" in lines[at]
    assert "likely commit; holds" in lines[at + 1]  # before
    assert "likely review; fails" in lines[at + 2]  # after: another skill took it
    assert "changed (2): commit, review" in out
    # the same change, judged by --fail-on
    assert run(repo, "--fail-on", "never")[0] == 0
    assert run(repo, "--fail-on", "change")[0] == 1


def test_a_change_to_a_skill_alone_fails_only_on_change(repo: Path) -> None:
    (repo / ".claude" / "skills" / "review" / "SKILL.md").write_text(
        f"---\nname: review\ndescription: {REVIEW}\n---\n\nOther steps.\n"
    )
    code, out, _ = run(repo)
    assert code == 0 and "changed (1): review" in out
    assert run(repo, "--fail-on", "change")[0] == 1


def test_new_skill_pushing_a_description_out_of_claude_codes_listing(repo: Path) -> None:
    # a budget both descriptions fit in, and a third does not
    (repo / "skillstudio.yaml").write_text(CONFIG + "char_budget: 300\n")
    commit_all(repo, "a small listing budget")
    code, out, err = run(repo, "--format", "json")
    assert code == 0, err
    listing = json.loads(out)["projects"][0]["listings"][0]
    assert listing["agent"] == "claude-code" and listing["name_only"] == []
    assert listing["before"]["headroom"] >= 0
    skill(repo, "deploy", "Deploys the service to staging. Use when the user asks to deploy it.")
    code, out, err = run(repo, "--format", "json")
    data = json.loads(out)
    project = data["projects"][0]
    listing = project["listings"][0]
    assert project["skills"]["added"] == ["deploy"]
    assert listing["before"]["budget"] == listing["after"]["budget"] == 300
    assert listing["after"]["headroom"] < 0 <= listing["before"]["headroom"]
    # an existing skill, not the new one, loses its description (the last listed first)
    assert listing["name_only"] and "deploy" not in listing["name_only"]
    assert set(listing["name_only"]) <= {"commit", "review"}
    text = run(repo)[1]
    assert f"falls to name only: {', '.join(listing['name_only'])}" in text


def test_json_shape(repo: Path) -> None:
    skill(repo, "commit", "Formats changelog files. Use when the user asks to tidy a changelog.")
    code, out, _ = run(repo, "--format", "json")
    data = json.loads(out)
    assert code == 1
    assert data["before"] == "HEAD" and data["after"] == "working tree"
    assert data["commits"]["before"] == git(repo, "rev-parse", "HEAD").strip()
    assert data["summary"]["regressions"] >= 1
    project = data["projects"][0]
    assert project["profile"] == "claude-code"
    assert set(project["skills"]) == {"added", "removed", "renamed", "changed"}
    case = next(c for c in project["cases"] if c["source"] == "suite")
    assert case["status"] == "regression"
    assert case["query"] == QUERY
    assert case["before"]["passed"] is True and case["after"]["passed"] is False
    assert set(case["before"]) == {"selected", "likely", "top", "passed", "why", "model"}
    assert case["before"]["model"] is None  # no --endpoint: no model pick
    # the commit skill's own request (its old "Use when" clause) also fails now
    own = next(c for c in project["cases"] if c["source"] == "description")
    assert own["skill"] == "commit" and own["query"] == "write a commit message for staged changes"
    assert project["requests"]["reranked"] >= 1


def test_markdown_is_a_table_for_a_pull_request(repo: Path) -> None:
    skill(repo, "commit", "Formats changelog files. Use when the user asks to tidy a changelog.")
    code, out, _ = run(repo, "--format", "markdown")
    assert code == 1
    assert out.startswith("### skillstudio diff: HEAD → working tree")
    assert "| | request | from | before | after |" in out
    row = next(line for line in out.splitlines() if line.startswith("| regression |"))
    assert row.count(" | ") == 4  # five cells: nothing in a request breaks the table


def test_markdown_escapes_what_skills_write(repo: Path) -> None:
    hostile = "Use when asked to ping @everyone | <img src=x> [link](http://x) now."
    skill(repo, "hostile", hostile)
    out = run(repo, "--format", "markdown")[1]
    row = next(line for line in out.splitlines() if "everyone" in line)
    assert "\\@everyone" in row and "\\<img" in row and "\\[link\\]" in row
    assert row.count(" | ") == 4


def test_rename_two_revisions_and_removed(repo: Path) -> None:
    first = git(repo, "rev-parse", "HEAD").strip()
    (repo / ".claude" / "skills" / "review").rename(repo / ".claude" / "skills" / "pr-review")
    shutil.rmtree(repo / ".claude" / "skills" / "commit")
    commit_all(repo, "move review, drop commit")
    code, out, _ = run(repo, first, "HEAD", "--format", "json")
    data = json.loads(out)
    skills = data["projects"][0]["skills"]
    moved = {"from": ".claude/skills/review", "to": ".claude/skills/pr-review"}
    assert skills["renamed"] == [moved]
    assert skills["removed"] == ["commit"]
    assert data["commits"]["after"] == git(repo, "rev-parse", "HEAD").strip()
    assert code == 1  # the suite's case names a skill no longer there


def test_diff_never_writes_in_the_work_tree(repo: Path) -> None:
    skill(repo, "commit", "Formats changelog files. Use when the user asks to tidy a changelog.")
    skill(repo, "fresh", "Something new. Use when the user asks for something new.")
    before = snapshot(repo)
    for fmt in ("text", "json", "markdown"):
        run(repo, "--format", fmt)
    run(repo, "HEAD", "HEAD")
    assert snapshot(repo) == before


def test_the_revision_copy_is_removed_and_confined(repo: Path, tmp_path: Path) -> None:
    top = repository_top(str(repo))
    with copy_tree(top, resolve(top, "HEAD"), parent=str(tmp_path / "cache")) as copy:
        assert copy.files == 4
        assert (Path(copy.folder) / ".claude/skills/commit/SKILL.md").read_text().count(COMMIT)
    assert list((tmp_path / "cache").iterdir()) == []
    with copy_tree(top, resolve(top, "HEAD"), parent=str(tmp_path / "c2"), max_bytes=100) as copy:
        assert copy.files == 2 and len(copy.skipped) == 2  # the SKILL.md files: too large


def test_not_a_repository_or_unknown_revision_is_exit_2(tmp_path: Path, repo: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    code, _, err = run(plain)
    assert code == 2 and "not inside a git repository" in err
    code, _, err = run(repo, "no-such-branch")
    assert code == 2 and "'no-such-branch' names no commit" in err
    code, _, err = run(repo, "--upload-pack=x")
    assert code == 2
    with pytest.raises(GitError):
        resolve(str(repo), "-x")


def test_description_request_rule() -> None:
    assert description_request(COMMIT) == "write a commit message for staged changes"
    assert description_request("Formats code. Use this skill when formatting Go files.") == (
        "formatting Go files"
    )
    assert description_request("Formats Go code with gofmt rules.") == (
        "Formats Go code with gofmt rules"
    )
    assert description_request("Go.") == ""


# -- CI and pre-commit, as docs/commands.md shows them ---------------------------------
def _parsed(words: list[str]) -> argparse.Namespace:
    """`words` (after `skillstudio`) through the real parser: SystemExit if it refuses."""
    from skillstudio.cli.main import build_parser

    return build_parser().parse_args(words)


def test_the_documented_actions_workflow_parses_and_calls_diff_as_the_parser_accepts() -> None:
    import shlex

    import yaml

    from .helpers import REPO

    text = Path(REPO, "docs", "commands.md").read_text(encoding="utf-8")
    block = text.split("# .github/workflows/skills-diff.yml", 1)[1].split("```", 1)[0]
    block = block.split("\n", 1)[1]  # (after the comment that names the file)
    workflow = yaml.safe_load(block)
    steps = workflow["jobs"]["diff"]["steps"]
    assert workflow["permissions"]["pull-requests"] == "write"
    assert steps[0]["uses"].startswith("actions/checkout@") and steps[0]["with"]["fetch-depth"] == 0
    calls = [
        shlex.split(line)
        for step in steps
        for line in step.get("run", "").splitlines()
        if line.startswith("skillstudio diff")
    ]
    assert len(calls) == 2
    for words in calls:
        words = words[1 : words.index(">")] if ">" in words else words[1:]
        args = _parsed(words)
        assert args.command == "diff" and args.words == ["$BASE"]
    comment = next(s for s in steps if "gh pr comment" in s.get("run", ""))
    assert "--body-file skills-diff.md" in comment["run"]
    assert "--format markdown" in comment["run"] and "> skills-diff.md" in comment["run"]
    # the pull request's text reaches the shell only through the environment
    assert all("${{" not in step.get("run", "") for step in steps)


def test_the_pre_commit_hook_names_diff_and_runs(repo: Path) -> None:
    import yaml

    from .helpers import REPO

    hooks = yaml.safe_load(Path(REPO, ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == "skillstudio-diff")
    words = hook["entry"].split()
    assert words[:2] == ["skillstudio", "diff"] and not hook["pass_filenames"]
    assert _parsed(words[1:]).fail_on == "regression"
    import re

    assert re.search(hook["files"], ".claude/skills/commit/SKILL.md")
    assert re.search(hook["files"], "suites/main.yaml")
    assert run(repo, *words[2:])[0] == 0  # nothing staged changes triggering
    skill(repo, "commit", "Formats changelog files. Use when the user asks to tidy a changelog.")
    skill(repo, "review", REVIEW + " Also drafts messages describing staged changes.")
    assert run(repo, *words[2:])[0] == 1


# -- the revision's unchanged skills lent from the working tree ------------------------
def test_a_file_added_beside_a_skill_resolves_its_diagnostic(repo: Path) -> None:
    folder = repo / ".claude" / "skills" / "pdf"
    folder.mkdir()
    (folder / "SKILL.md").write_text(
        "---\nname: pdf\ndescription: Fills PDF forms. Use when asked to fill a PDF form.\n"
        "---\n\nRead [the guide](references/guide.md) first.\n"
    )
    commit_all(repo, "a skill whose guide is missing")
    (folder / "references").mkdir()
    (folder / "references" / "guide.md").write_text("# Guide\n")  # untracked, SKILL.md as it was
    code, out, _ = run(repo, "--format", "json")
    diags = json.loads(out)["projects"][0]["diagnostics"]
    assert code == 0 and diags["new"] == []
    assert [(d["code"], d["path"]) for d in diags["resolved"]] == [
        ("link-broken", ".claude/skills/pdf/SKILL.md")
    ]


def test_lent_skills_read_as_the_revision_reads_them(repo: Path) -> None:
    """The report with the unchanged skills lent equals the report with every skill of
    the revision read from its copy; only the changed folder is read."""
    from skillstudio.core.projects.borrowed_states import BorrowedStates, changed_paths
    from skillstudio.core.projects.change_report import Side, compare
    from skillstudio.core.projects.open_project import OpenProject
    from skillstudio.core.projects.project import resolve_projects

    for index in range(6):
        skill(
            repo, f"tool-{index}", f"Runs tool {index} on logs. Use when asked to run tool {index}."
        )
    commit_all(repo, "six more")
    skill(repo, "tool-3", "Formats changelog files. Use when the user asks to tidy a changelog.")
    top = repository_top(str(repo))

    def side(label: str, folder: str, cache: object = None) -> Side:
        found = resolve_projects([], [], None, None, folder)
        return Side(label, folder, [OpenProject.read(p, cache=cache) for p in found])  # type: ignore[arg-type]

    after = side("working tree", top)
    with copy_tree(top, resolve(top, "HEAD")) as copy:
        whole = compare(side("HEAD", copy.folder), after).to_json()
        lent = BorrowedStates(
            top, copy.folder, changed_paths(top, copy.commit), [p.registry for p in after.projects]
        )
        borrowed = compare(side("HEAD", copy.folder, lent), after).to_json()
    assert lent.lent == 7  # commit, review and five tools: all but tool-3
    assert borrowed == whole
    assert whole["projects"][0]["skills"]["changed"] == ["tool-3"]


# -- the model's pick, from the answers eval cached (a loopback fake server) -------------
def test_the_models_pick_where_the_cache_has_one_for_both_sides(repo: Path) -> None:
    from .live_fake import FakeModel

    def answer(body: dict[str, object]) -> tuple[object, ...]:
        # the model reads the listing it is sent: review once its description offers it
        pick = "review" if "drafts messages" in json.dumps(body) else "commit"
        return ("tool", "Skill", {"skill": pick})

    with FakeModel([answer]) as fake:
        words = ["eval", "--model", "test-model", "--endpoint", fake.url, "--yes"]
        live = ["--endpoint", fake.url, "--model", "test-model"]
        assert main(words, cwd=str(repo), out=io.StringIO(), err=io.StringIO()) in (0, 1)
        skill(repo, "review", REVIEW + " Also drafts messages describing staged changes.")
        sent = len(fake.received)
        code, out, err = run(repo, *live, "--format", "json")
        case = json.loads(out)["projects"][0]["cases"][0]
        assert case["source"] == "suite", err
        assert case["before"]["model"] == {"pick": "commit", "runs": 3, "of": 3}
        assert case["after"]["model"] is None  # the listing changed: not asked yet
        # the working tree's listing asked too: the model now picks review
        assert main(words, cwd=str(repo), out=io.StringIO(), err=io.StringIO()) in (0, 1)
        text = run(repo, *live)[1]
        assert len(fake.received) == sent + 3  # eval's three runs; diff never sends
    assert "the model picked commit (3 of 3 cached runs)" in text
    assert "the model picked review (3 of 3 cached runs)" in text
    code, _, err = run(repo, "--endpoint", "http://127.0.0.1:9/v1")
    assert code == 2 and "--endpoint needs --model" in err


def test_compare_with_a_folder(repo: Path, tmp_path: Path) -> None:
    """The app's "Compare with… a folder": another copy of the project, no git needed."""
    from skillstudio.core.projects.change_sides import Reading, compare_folder

    old = tmp_path / "old"
    shutil.copytree(repo, old, ignore=shutil.ignore_patterns(".git"))
    skill(repo, "commit", "Formats changelog files. Use when the user asks to tidy a changelog.")
    skill(repo, "deploy", "Deploys the service. Use when the user asks to deploy it.")
    compared = compare_folder(str(old), Reading(str(repo)))
    project = compared.to_json()["projects"][0]
    assert project["skills"]["changed"] == ["commit"] and project["skills"]["added"] == ["deploy"]
    # the suite's case, and the old description's own request: `commit` now formats
    # changelogs, so no skill is likely for "write a commit message" any more
    assert compared.report.count("regression") == 2
    cases = {c["query"]: c["status"] for c in project["cases"]}
    assert cases[QUERY] == cases["write a commit message for staged changes"] == "regression"
    assert compared.to_json()["before"] == "old"


def test_markdown_tables_are_bounded_for_a_comment(repo: Path) -> None:
    from skillstudio.cli.diff_report import ROWS, diff_markdown

    for index in range(ROWS + 5):  # each new skill: a new description request
        skill(repo, f"tool-{index}", f"Runs tool {index}. Use when asked to run tool {index} now.")
    data = json.loads(run(repo, "--format", "json")[1])
    assert len(data["projects"][0]["cases"]) > ROWS
    out = diff_markdown(data)
    rows = [line for line in out.splitlines() if line.startswith("| new |")]
    assert len(rows) == ROWS
    more = len(data["projects"][0]["cases"]) - ROWS
    assert f"… and {more} more requests (`skillstudio diff` lists them all)" in out


def test_two_revisions_lend_what_did_not_change(repo: Path) -> None:
    """REV1 REV2: the first revision's unchanged skills come from the second's reading,
    and the report is the one of two whole readings."""
    from skillstudio.core.projects.change_report import compare
    from skillstudio.core.projects.change_sides import Reading, compare_revisions, read_side

    first = git(repo, "rev-parse", "HEAD").strip()
    skill(repo, "commit", "Formats changelog files. Use when the user asks to tidy a changelog.")
    commit_all(repo, "commit now formats changelogs")
    lent = compare_revisions([first, "HEAD"], Reading(str(repo))).to_json()
    top = repository_top(str(repo))
    reading = Reading(str(repo))
    with copy_tree(top, first) as one, copy_tree(top, resolve(top, "HEAD")) as two:
        whole = compare(
            read_side(first, one.folder, top, reading, None),
            read_side("HEAD", two.folder, top, reading, None),
        ).to_json()
    assert lent["projects"] == whole["projects"]
    assert lent["summary"]["regressions"] >= 1
    assert lent["projects"][0]["skills"]["changed"] == ["commit"]


def test_a_skill_renamed_with_its_description_kept_is_judged_under_its_new_name(
    repo: Path,
) -> None:
    """A first-time reviewer fixed a `name-dir-mismatch` by renaming a skill: its own
    description request was reported `gone` ("after: (not run)"), as if the skill had
    been removed. It is judged against the new name after."""
    (repo / "skillstudio.yaml").write_text(CONFIG.replace("claude-code", "agentskills"))
    commit_all(repo, "read as the standard (a skill named by its name field)")
    path = repo / ".claude" / "skills" / "commit" / "SKILL.md"
    path.write_text(path.read_text().replace("name: commit\n", "name: commit-writer\n"))
    _, out, _ = run(repo, "--format", "json")
    project = json.loads(out)["projects"][0]
    assert project["profile"] == "agentskills"
    mine = [c for c in project["cases"] if c["source"] == "description"]
    assert not [c for c in mine if c["status"] == "gone"], mine  # it was: skill commit
    assert project["skills"]["changed"] == ["commit-writer"]
    assert project["requests"]["reranked"] >= 1  # its request ran on both sides: the same


def test_a_name_two_collections_share_is_the_same_finding_on_both_sides(tmp_path: Path) -> None:
    """Skills lent from the working tree to the revision's copy keep their own name:
    a name two collections share is one `duplicate-name` note on each side, not a
    new one after a description edit elsewhere (the lent skill's key was the working
    tree's qualified `<collection>:<name>`, and the revision saw no shared name)."""
    repo = tmp_path / "collections"
    repo.mkdir()
    git(repo, "init", "-q")
    for pack, name in (("ops", "commit"), ("dev", "commit"), ("dev", "review")):
        folder = repo / pack / "skills" / name
        folder.mkdir(parents=True)
        text = f"---\nname: {name}\ndescription: {REVIEW}\n---\n\nSteps for {name}.\n"
        (folder / "SKILL.md").write_text(text)
    commit_all(repo, "two collections")
    review = repo / "dev" / "skills" / "review" / "SKILL.md"
    review.write_text(review.read_text().replace("for bugs", "for bugs and style"))
    code, out, err = run(repo, "--format", "json")
    assert code in (0, 1), err
    data = json.loads(out)
    for project in data["projects"]:
        for side in ("new", "resolved"):
            codes = [d["code"] for d in project["diagnostics"][side]]
            assert "duplicate-name" not in codes, (project["profile"], side, codes)
    assert any(p["skills"]["changed"] == ["review"] for p in data["projects"])
