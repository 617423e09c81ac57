"""The first hour from the README (issue 39, item 8): running `skillstudio` after set-up,
the app asked for with no display or on a folder, the installed samples copied before
they are edited, `lint` alone in the wrong folder, `show` of a name several projects
hold, the common options as documented, `--dry-run`'s headers, `test`'s table."""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

import pytest

from skillstudio.cli import main as cli_main
from skillstudio.gui.infra.places import copy_samples

from .helpers import REPO, cli, skill_text, write


def _no_display(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")


def test_readme_first_screen_says_how_to_run_it_and_how_long_tests_take() -> None:
    text = Path(REPO, "README.md").read_text(encoding="utf-8")
    first_screen = "\n".join(text.splitlines()[:24])
    assert "scripts/dev.sh run" in first_screen and "scripts/dev.sh test" in first_screen
    assert ".venv/bin/skillstudio" in first_screen
    assert "source\n.venv/bin/activate" in first_screen or "source .venv/bin/activate" in (
        first_screen.replace("\n", " ")
    )
    assert "--quick" in first_screen and re.search(r"\d+ minutes", first_screen)


def test_no_command_and_no_display_says_why_and_what_to_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _no_display(monkeypatch)
    run = cli()
    assert run.code == 2  # bad usage, as docs/commands.md documents
    assert "the app did not open: no display found" in run.err
    assert "DISPLAY and WAYLAND_DISPLAY are unset" in run.err
    assert "skillstudio lint" in run.err
    assert "usage: skillstudio" in run.out


def test_a_folder_opens_the_app_on_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "my skills/notes/SKILL.md", skill_text(name="notes", description="d"))
    opened: list[list[str]] = []

    def gui_main(argv: list[str]) -> int:
        opened.append(argv)
        return 0

    monkeypatch.setattr(cli_main, "gui_main", gui_main)
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert cli("my skills", cwd=tmp_path).code == 0
    assert opened == [[str(tmp_path / "my skills")]]
    _no_display(monkeypatch)
    run = cli("my skills", cwd=tmp_path)
    assert run.code == 2 and opened == [[str(tmp_path / "my skills")]]
    assert "no display found" in run.err
    assert "skillstudio lint 'my skills'" in run.err
    typo = cli("lnit", cwd=tmp_path)  # not a folder: still argparse's own message
    assert typo.code == 2 and "invalid choice: 'lnit'" in capsys.readouterr().err
    write(tmp_path, "lint/x/SKILL.md", skill_text(name="x", description="d"))
    assert cli("lint", cwd=tmp_path / "lint").code == 0  # a command's name stays the command


def test_installed_samples_are_copied_once_before_they_are_edited(tmp_path: Path) -> None:
    bundled = tmp_path / "lib" / "site-packages" / "skillstudio" / "samples"
    write(bundled, "demo/SKILL.md", skill_text(name="demo", description="d"))
    target = tmp_path / "data" / "SkillStudio" / "samples"
    folder, note = copy_samples(str(bundled), str(target))
    assert folder == str(target) and note is not None and "copied" in note
    assert (target / "demo" / "SKILL.md").read_text() == (bundled / "demo/SKILL.md").read_text()
    (target / "demo" / "SKILL.md").write_text("mine")
    assert copy_samples(str(bundled), str(target)) == (str(target), None)  # never replaced
    assert (target / "demo" / "SKILL.md").read_text() == "mine"
    assert not [p for p in os.listdir(target.parent) if ".partial-" in p]
    source_tree = tmp_path / "repo" / "skills"
    write(source_tree, "demo/SKILL.md", skill_text(name="demo", description="d"))
    assert copy_samples(str(source_tree), str(tmp_path / "other")) == (str(source_tree), None)
    assert not (tmp_path / "other").exists()


def test_lint_alone_in_a_folder_without_skills_fails_as_lint_dot(tmp_path: Path) -> None:
    alone, dot = cli("lint", cwd=tmp_path), cli("lint", ".", cwd=tmp_path)
    assert alone.code == dot.code == 1
    assert "no-skills" in alone.out and alone.out == dot.out
    write(tmp_path, "skillstudio.yaml", "profile: mvp\nroots: [library]\n")
    write(tmp_path, "library/x/y/SKILL.md", skill_text(name="y", description="d"))
    assert cli("lint", cwd=tmp_path).code == 0  # the configuration's roots, as before


def test_show_a_name_several_projects_hold_asks_which(tmp_path: Path) -> None:
    write(tmp_path, "one/.claude/skills/notes/SKILL.md", skill_text(name="notes", description="a"))
    write(tmp_path, "two/.codex/skills/notes/SKILL.md", skill_text(name="notes", description="b"))
    run = cli("show", "notes", cwd=tmp_path)
    assert run.code == 2 and run.out == ""
    assert "2 skills are named 'notes'" in run.err and "--project" in run.err
    assert "one/.claude/skills/notes/SKILL.md  (claude-code)" in run.err
    assert "two/.codex/skills/notes/SKILL.md  (codex)" in run.err
    data = cli("show", "notes", "--format", "json", cwd=tmp_path)
    assert data.code == 2 and data.json["error"]["code"] == "AMBIGUOUS"
    assert sorted(m["profile"] for m in data.json["error"]["matches"]) == ["claude-code", "codex"]
    chosen = cli("show", "notes", "--profile", "codex", "--format", "json", cwd=tmp_path)
    assert chosen.code == 0 and chosen.json["description"] == "b"
    by_path = cli("show", "one/.claude/skills/notes", "--format", "json", cwd=tmp_path)
    assert by_path.code == 0 and by_path.json["description"] == "a"


COMMON = ("--root", "--project", "--profile", "--format")


def test_the_common_options_are_documented_as_each_command_takes_them() -> None:
    text = Path(REPO, "docs", "commands.md").read_text(encoding="utf-8")
    table = text.split("These\ntake only the options they need:", 1)[1].split("\n\n")[1]
    documented: dict[str, set[str]] = {}
    for row in table.splitlines()[2:]:
        name, takes = (cell.strip() for cell in row.strip("|").split("|"))
        documented[name.strip("`")] = set(re.findall(r"--[a-z]+", takes))
    parser = cli_main.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in sub.choices.items():
        options = {o for action in command._actions for o in action.option_strings}
        given = {o for o in COMMON if o in options}
        assert given == documented.get(name, set(COMMON)), name


def test_dry_run_headers_do_not_double_the_slash(tmp_path: Path) -> None:
    text = '---\nname: pdf\ndescription: Fills PDFs. Use when asked.\nbackground: "no"\n---\nb\n'
    write(tmp_path, "repo/.claude/skills/pdf/SKILL.md", text)
    (tmp_path / "elsewhere").mkdir()
    absolute = cli("lint", "--dry-run", str(tmp_path / "repo"), cwd=tmp_path / "elsewhere")
    assert absolute.code == 1 and "//" not in absolute.out
    path = tmp_path / "repo/.claude/skills/pdf/SKILL.md"
    assert f"--- {path}\n+++ {path}\n" in absolute.out
    relative = cli("lint", "--dry-run", "repo", cwd=tmp_path)
    assert "--- a/repo/.claude/skills/pdf/SKILL.md\n" in relative.out


def test_test_per_skill_table_aligns_long_names(tmp_path: Path) -> None:
    long_name = "a-rather-long-skill-name-for-release-notes"
    write(
        tmp_path,
        f".claude/skills/{long_name}/SKILL.md",
        skill_text(name=long_name, description="Write release notes from the commits."),
    )
    write(
        tmp_path,
        ".claude/skills/pdf/SKILL.md",
        skill_text(name="pdf", description="Fill PDF forms."),
    )
    write(
        tmp_path,
        "suites/s.yaml",
        f'cases:\n  - query: "/{long_name}"\n    expect: {long_name}\n'
        '  - query: "/pdf a.pdf"\n    expect: pdf\n',
    )
    run = cli("test", "suites/s.yaml", cwd=tmp_path)
    assert run.code == 0, run.out + run.err
    lines = run.out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("  per skill:"))
    rows = lines[head : head + 3]
    assert len({len(row) for row in rows}) == 1, rows  # numbers right-aligned in columns
    assert rows[0].endswith("precision  recall")
    confusion = lines.index("  confusion (expected -> got):")
    cells = {re.match(r"    \S+ +", line).end() for line in lines[confusion + 1 : confusion + 3]}  # type: ignore[union-attr]
    assert len(cells) == 1, lines[confusion:]
