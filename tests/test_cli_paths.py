"""Every reading command takes PATH as `lint` does (issue 27; docs/commands.md): `list`,
`show`, `match`, `prompt`, `activate`, `overlap` and `test`; a PATH, `--root` and
`--project` find the same skills; `match` on a folder of several projects answers for
each."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .helpers import SAMPLES, cli, skill_text, write


def repository(base: Path) -> Path:
    """repo/skills holds two agentskills skills; the commands run from `base`."""
    write(
        base,
        "repo/skills/pdf-summary/SKILL.md",
        skill_text(name="pdf-summary", description="Summarise PDF files into short notes."),
    )
    write(
        base,
        "repo/skills/trip-plan/SKILL.md",
        skill_text(name="trip-plan", description="Plan a trip with trains and hotels."),
    )
    write(
        base,
        "suite.yaml",
        'cases:\n  - query: "/pdf-summary a.pdf"\n    expect: pdf-summary\n',
    )
    (base / "src").mkdir()
    return base / "repo" / "skills"


def names(data: dict[str, Any]) -> list[str]:
    return sorted(s["name"] for s in data["skills"])


def test_every_reading_command_takes_a_path(tmp_path: Path) -> None:
    repository(tmp_path)
    path = "repo/skills"
    assert cli("list", path, cwd=tmp_path).code == 0
    listed = cli("list", path, "--format", "json", cwd=tmp_path).json
    assert names(listed) == ["pdf-summary", "trip-plan"]
    shown = cli("show", "trip-plan", path, "--format", "json", cwd=tmp_path)
    assert shown.code == 0 and shown.json["name"] == "trip-plan"
    match = cli("match", "/pdf-summary a.pdf", path, "--format", "json", cwd=tmp_path)
    assert match.code == 0 and match.json["selected"] == ["pdf-summary"]
    prompt = cli("prompt", path, "--format", "json", cwd=tmp_path)
    assert prompt.code == 0 and sorted(prompt.json["listed"]) == ["pdf-summary", "trip-plan"]
    act = cli("activate", "pdf-summary", "x.pdf", path, "--format", "json", cwd=tmp_path)
    assert act.code == 0 and act.json["skill"] == "pdf-summary"
    overlap = cli("overlap", path, "--format", "json", cwd=tmp_path)
    assert overlap.code == 0 and overlap.json["skills"] == 2
    test = cli("test", "suite.yaml", path, "--format", "json", cwd=tmp_path)
    assert test.code == 0, test.err
    assert test.json["passed"] == 1 and test.json["suites"][0]["roots"] == [
        str(tmp_path / "repo" / "skills")
    ]


def test_a_path_a_root_and_a_project_find_the_same_skills(tmp_path: Path) -> None:
    repository(tmp_path)
    for command in (["list"], ["prompt", "--tier", "2"], ["match", "plan a trip"]):
        by_path = cli(*command, "repo/skills", "--format", "json", cwd=tmp_path)
        by_root = cli(*command, "--root", "repo/skills", "--format", "json", cwd=tmp_path)
        by_project = cli(*command, "--project", "repo", "--format", "json", cwd=tmp_path)
        assert by_path.code == by_root.code == by_project.code == 0, command
        if command == ["list"]:
            assert names(by_path.json) == names(by_root.json) == names(by_project.json)
        else:
            assert by_path.json == by_root.json == by_project.json, command


def test_activate_takes_a_path_written_as_one_after_name(tmp_path: Path) -> None:
    repository(tmp_path)
    reader = skill_text(name="src-reader", description="Read.", _body="Read $ARGUMENTS now.\n")
    write(tmp_path, ".claude/skills/src-reader/SKILL.md", reader)
    # a word written as a path that names a folder: the PATH
    for word in ("repo/skills", "./repo/skills", "repo/skills/"):
        run = cli("activate", "trip-plan", word, "--format", "json", cwd=tmp_path)
        assert run.code == 0 and run.json["skill"] == "trip-plan", (word, run.err)
    # a plain word is ARGS, even where a folder has that name (the project is `.`)
    run = cli("activate", "src-reader", "src", "--as", "user", "--format", "json", cwd=tmp_path)
    assert run.code == 0 and run.json["content"].endswith("Read src now.\n"), run.json
    # ARGS that looks like a path, with the PATH after it
    both = ("activate", "src-reader", "src/", ".", "--as", "user", "--format", "json")
    run = cli(*both, cwd=tmp_path)
    assert run.code == 0 and run.json["content"].endswith("Read src/ now.\n"), run.json


def test_match_answers_for_each_project_of_a_mixed_folder() -> None:
    """The sample projects folder holds eight systems: lint reads it whole, and so does
    match, with an answer per project (before: exit 2, 'choose one with --profile')."""
    samples = os.path.basename(SAMPLES)
    lint = cli("lint", samples, "--format", "json")
    projects = [(p["path"], p["profile"]) for p in lint.json["projects"]]
    assert len(projects) > 3
    run = cli("match", "review this diff", samples, "--format", "json")
    assert run.code == 0, run.err
    data = run.json
    assert [(p["path"], p["profile"]) for p in data["projects"]] == projects
    assert data["query"] == "review this diff" and data["profile"] == "mixed"
    for answer in data["projects"]:  # each project's answer has match's own keys
        assert {"query", "normalized", "tier", "selected", "candidates"} <= set(answer)
    assert data["selected"] == [n for p in data["projects"] for n in p["selected"]]
    joined = [(c["skill"], c["profile"]) for c in data["candidates"]]
    assert joined == [(c["skill"], p["profile"]) for p in data["projects"] for c in p["candidates"]]
    text = cli("match", "review this diff", samples).out
    heads = [line for line in text.splitlines() if line.startswith("== ")]
    assert [h.split(":")[0][3:] for h in heads] == [profile for _, profile in projects]


def test_match_on_one_project_keeps_its_keys(tmp_path: Path) -> None:
    repository(tmp_path)
    data = cli("match", "plan a trip", "repo/skills", "--format", "json", cwd=tmp_path).json
    assert "projects" not in data
    assert {"query", "normalized", "profile", "tier", "selected", "candidates"} <= set(data)


def test_no_path_in_a_plugin_reads_the_plugin_as_its_folder_does(tmp_path: Path) -> None:
    """In a marketplace that lists its own folder (`"source": "./"`), `show NAME` with
    no path read `skills/` alone: the skill lost its plugin's name (`patterns`, where
    `list .`, the app's tree and its Where it loads say `vercel:patterns`)."""
    repo = tmp_path / "repo"
    entry = '{"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "vercel", "source": "./"}]}'
    write(repo, ".claude-plugin/marketplace.json", entry)
    write(repo, "skills/patterns/SKILL.md", skill_text(name="patterns", description="Use it."))
    alone, dot = (
        cli("list", "--format", "json", cwd=repo),
        cli("list", ".", "--format", "json", cwd=repo),
    )
    assert alone.code == dot.code == 0
    assert names(alone.json) == names(dot.json) == ["vercel:patterns"]
    shown = cli("show", "vercel:patterns", "--format", "json", cwd=repo)
    assert shown.code == 0, shown.err
    assert shown.json["name"] == "vercel:patterns"
    plain = tmp_path / "plain"  # no manifest: `skills/` is read, as before
    write(plain, "skills/notes/SKILL.md", skill_text(name="notes", description="Use it."))
    write(plain, "docs/example/SKILL.md", skill_text(name="example", description="Use it."))
    assert names(cli("list", "--format", "json", cwd=plain).json) == ["notes"]
