"""Issue 34 item 4: a suite, and the folders it names, are read only inside the
repository they belong to (core/projects/suite_home.py, docs/commands.md "Where a
suite may reach"). On main `suites: [../outside/pgpass.csv]` printed the file's first
row (a credential line), a suite that is a link out was read, and a suite's `roots:`
or `corpus:` outside the repository were scanned."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillstudio.core.projects.suite_cases import SuiteError
from skillstudio.core.projects.suites import load_suite

from .helpers import cli, lint_json, skill_text, write

SECRET = "db.internal:5432:prod:admin:hunter2-SECRET"
CASE = 'cases:\n  - query: "fill the form"\n    expect: pdf-forms\n'


def _repository(tmp_path: Path, config: str) -> Path:
    """tmp_path/repo (a git repository, its skill pdf-forms) beside tmp_path/outside
    (a pgpass file, a suite, a skill of its own)."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    skill = skill_text(name="pdf-forms", description="Fills PDF forms.")
    write(repo, "skills/pdf-forms/SKILL.md", skill)
    write(repo, "skillstudio.yaml", config)
    write(tmp_path, "outside/pgpass.csv", SECRET + "\n")
    write(tmp_path, "outside/suite.yaml", f'cases:\n  - query: "{SECRET}"\n    expect: none\n')
    write(tmp_path, "outside/skills/stolen/SKILL.md", skill_text(name="stolen", description=SECRET))
    return repo


def _said(run: object) -> str:
    return f"{getattr(run, 'out', '')}{getattr(run, 'err', '')}"


def test_a_listed_suite_outside_the_repository_is_refused_at_its_entry(tmp_path: Path) -> None:
    repo = _repository(tmp_path, "profile: agentskills\nsuites: [../outside/pgpass.csv]\n")
    run = cli("test", cwd=repo)
    assert run.code == 2, run.out + run.err
    assert "skillstudio.yaml:2:10: The suite '../outside/pgpass.csv'" in run.err
    assert "outside this project" in run.err and SECRET not in _said(run)
    live = cli("eval", "--offline", "--model", "m", cwd=repo)
    assert live.code == 2 and "skillstudio.yaml:2:10:" in live.err and SECRET not in _said(live)
    problems = [d for d in lint_json(str(repo))["diagnostics"] if d["code"] == "config-invalid"]
    assert [(d["line"], d["column"]) for d in problems] == [(2, 10)]


def test_a_suite_that_is_a_link_out_is_not_read(tmp_path: Path) -> None:
    repo = _repository(tmp_path, "suites:\n  - suites/mine.yaml\n  - suites/link.yaml\n")
    write(repo, "suites/mine.yaml", CASE)
    (repo / "suites" / "link.yaml").symlink_to(tmp_path / "outside" / "suite.yaml")
    listed = cli("test", cwd=repo)
    assert listed.code == 2 and "skillstudio.yaml:3:5: The suite 'suites/link.yaml'" in listed.err
    assert SECRET not in _said(listed)
    # named on the command line: the file is the user's choice, the link out of its
    # repository is not (as lint refuses a path through a link out of its project)
    named = cli("test", "suites/link.yaml", cwd=repo)
    assert named.code == 2 and "outside" in named.err and SECRET not in _said(named)
    with pytest.raises(SuiteError, match="outside"):
        load_suite(str(repo / "suites" / "link.yaml"))  # the app's reader: the same rule
    # the suite beside it, and a suite kept elsewhere named by the user, still run
    assert cli("test", "suites/mine.yaml", cwd=repo).code in (0, 1)
    elsewhere = cli("test", str(tmp_path / "outside" / "suite.yaml"), "skills", cwd=repo)
    assert elsewhere.code == 0, elsewhere.err


def test_a_listed_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    repo = _repository(tmp_path, "suites: [suites/pipe.yaml]\n")
    (repo / "suites").mkdir()
    os.mkfifo(repo / "suites" / "pipe.yaml")
    run = cli("test", cwd=repo)
    assert run.code == 2 and "FIFO" in run.err, run.err


@pytest.mark.parametrize("key", ["roots", "corpus"])
def test_a_suites_roots_or_corpus_outside_the_repository_are_not_scanned(
    tmp_path: Path, key: str
) -> None:
    repo = _repository(tmp_path, "suites: [suites/far.yaml]\n")
    named = "[../../outside/skills]" if key == "roots" else "../../outside/skills"
    write(repo, "suites/far.yaml", f"profile: agentskills\n{key}: {named}\n{CASE}")
    run = cli("test", cwd=repo)
    assert run.code == 2, run.out + run.err
    assert f"far.yaml:2:9: the suite's '{key}' names" in run.err, run.err
    assert "stolen" not in run.out and SECRET not in _said(run)
    as_json = cli("test", "--format", "json", cwd=repo)
    assert as_json.code == 2 and as_json.out == ""
    # the skills named on the command line take the refused folders' place
    given = cli("test", "--root", "skills", "--format", "json", cwd=repo)
    assert given.code in (0, 1), given.err
    assert given.json["suites"][0]["roots"] == [str(repo / "skills")]
    # inside the repository, as before
    write(repo, "suites/far.yaml", f"profile: agentskills\n{key}: ../skills\n{CASE}")
    inside = cli("test", "--format", "json", cwd=repo)
    assert inside.code in (0, 1), inside.err
    assert "stolen" not in inside.out


def test_a_suites_roots_through_a_link_out_are_not_scanned(tmp_path: Path) -> None:
    repo = _repository(tmp_path, "suites: [suites/linked.yaml]\n")
    write(repo, "suites/linked.yaml", f"profile: agentskills\nroots: [../more]\n{CASE}")
    (repo / "more").symlink_to(tmp_path / "outside" / "skills")
    run = cli("test", cwd=repo)
    assert run.code == 2 and "linked.yaml:2:9:" in run.err and "which is" in run.err
    assert "stolen" not in run.out
