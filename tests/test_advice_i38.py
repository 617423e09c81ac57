"""Advice that was wrong (issue 38), on the fixtures of tests/data/i38_advice, under
each profile that gives the standard's advice:

- quoted/: a description quoting the user's words ("how do I use groupby", “should I
  use merge”, 'how do I use pivot tables', ‘should I use apply’) speaks in the third
  person: no `description-person` (on main: 4 of 4 such descriptions of one catalogue);
  a first-person description with a quote in it still gets one;
- windows/: absolute Windows paths with blanks (and `+`, `&`, `'`, `(x86)`, a
  no-break space) are no skill-relative paths: no `path-backslash`, and `lint --fix`
  leaves them as written; a relative `scripts\\fill_form.py` beside one is still
  reported and fixed alone.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from .helpers import cli

DATA = Path(__file__).parent / "data" / "i38_advice"
PROFILES = ("agentskills", "claude-code", "codex")


def lint(folder: Path, profile: str) -> dict[str, Any]:
    run = cli("lint", "--format", "json", "--no-cache", "--profile", profile, str(folder))
    assert run.code in (0, 1), run.err
    data: dict[str, Any] = run.json
    return data


def found(data: dict[str, Any], code: str) -> list[dict[str, Any]]:
    return [d for d in data["diagnostics"] if d["code"] == code]


@pytest.mark.parametrize("profile", PROFILES)
def test_quoted_user_phrases_are_not_the_descriptions_voice(profile: str) -> None:
    assert found(lint(DATA / "quoted" / "ask-pandas", profile), "description-person") == []
    first = found(lint(DATA / "quoted" / "first-person", profile), "description-person")
    assert len(first) == 1 and first[0]["severity"] == "warning"


@pytest.mark.parametrize("profile", PROFILES)
def test_windows_paths_with_blanks_are_neither_reported_nor_fixed(
    profile: str, tmp_path: Path
) -> None:
    folder = tmp_path / "drawio"
    shutil.copytree(DATA / "windows" / "drawio", folder)
    assert found(lint(folder, profile), "path-backslash") == []
    before = (folder / "SKILL.md").read_bytes()
    run = cli("lint", "--fix", "--no-cache", "--profile", profile, str(folder))
    assert run.code in (0, 1), run.err
    assert (folder / "SKILL.md").read_bytes() == before


@pytest.mark.parametrize("profile", PROFILES)
def test_a_relative_backslash_path_beside_one_is_still_fixed_alone(
    profile: str, tmp_path: Path
) -> None:
    folder = tmp_path / "backslash"
    shutil.copytree(DATA / "windows" / "backslash", folder)
    reported = found(lint(folder, profile), "path-backslash")
    assert [(d["line"], "scripts\\fill_form.py" in d["message"]) for d in reported] == [(7, True)]
    before = (folder / "SKILL.md").read_text(encoding="utf-8")
    cli("lint", "--fix", "--no-cache", "--profile", profile, str(folder))
    after = (folder / "SKILL.md").read_text(encoding="utf-8")
    assert after == before.replace("scripts\\fill_form.py", "scripts/fill_form.py")
    assert "C:\\Temp\\form.pdf" in after


# -- reference-missing ----------------------------------------------------------------
REFS = DATA / "references"


@pytest.mark.parametrize("profile", PROFILES)
def test_each_missing_file_the_body_sends_the_agent_to_is_named_at_its_place(
    profile: str,
) -> None:
    """Nine "Load Reference" lines and a script run in a ```bash block, none there: ten
    warnings, each at its line and column; the broken link stays `link-broken`'s."""
    data = lint(REFS / "nine-missing", profile)
    missing = found(data, "reference-missing")
    expected = [(line, 20 if line == 11 else 19) for line in range(9, 18)] + [(22, 8)]
    assert [(d["line"], d["column"]) for d in missing] == expected
    assert "'references/scheduling.md'" in next(d for d in missing if d["line"] == 11)["message"]
    assert "'scripts/lint_pipeline.py'" in next(d for d in missing if d["line"] == 22)["message"]
    assert {d["severity"] for d in missing} == {"warning"}
    assert [d["line"] for d in found(data, "link-broken")] == [25]


@pytest.mark.parametrize("profile", PROFILES)
def test_urls_globs_placeholders_the_users_files_and_examples_are_not_reported(
    profile: str,
) -> None:
    assert found(lint(REFS / "no-false-alarms", profile), "reference-missing") == []


def test_a_path_from_the_plugin_folder_is_looked_for_there() -> None:
    data = lint(REFS / "plugin" / "skills" / "deploy", "claude-code")
    missing = found(data, "reference-missing")
    assert [(d["line"], d["column"]) for d in missing] == [(7, 51), (8, 7)]
    assert (
        "'${CLAUDE_PLUGIN_ROOT}/scripts/rollback.sh', which is not in its plugin's folder"
        in (missing[0]["message"])
    )
    assert (
        "'{baseDir}/references/runbook.md', which is not in the skill folder"
        in (missing[1]["message"])
    )


def test_another_skills_file_named_in_the_text_is_that_skills(tmp_path: Path) -> None:
    """ "`tuning`'s references/catalog.md": the file of a skill beside this one."""
    root = tmp_path / "skills"
    (root / "tuning" / "references").mkdir(parents=True)
    (root / "tuning" / "references" / "catalog.md").write_text("# Catalog\n")
    (root / "tuning" / "SKILL.md").write_text(
        "---\nname: tuning\ndescription: Tunes models. Use when asked to tune.\n---\nTune.\n"
    )
    (root / "export").mkdir()
    (root / "export" / "SKILL.md").write_text(
        "---\nname: export\ndescription: Exports models. Use when asked to export.\n---\n"
        "The model list is `tuning`'s\n`references/catalog.md`; read `references/formats.md`.\n"
    )
    missing = found(lint(root / "export", "agentskills"), "reference-missing")
    assert len(missing) == 1 and "references/formats.md" in missing[0]["message"]


def test_a_hostile_body_is_read_bounded(tmp_path: Path) -> None:
    """A 500,000-character "path", a long chain of folders and 5,000 references (under
    the 1 MB a file may have): seconds at most, no path longer than 260 characters
    repeated, ten reports."""
    import time

    folder = tmp_path / "big"
    folder.mkdir()
    body = (
        "Load references/"
        + "a" * 500_000
        + ".md now.\n\n"
        + "See "
        + "a/" * 50_000
        + "x.md.\n\n"
        + "".join(f"- Load references/part-{i}.md\n" for i in range(5_000))
    )
    (folder / "SKILL.md").write_text(
        "---\nname: big\ndescription: Holds many parts. Use when asked for a part.\n---\n" + body
    )
    start = time.perf_counter()
    missing = found(lint(folder, "agentskills"), "reference-missing")
    assert time.perf_counter() - start < 20
    assert len(missing) == 10 and all(len(d["message"]) < 400 for d in missing)
    assert "references/part-0.md" in missing[0]["message"]
    assert "more missing" in missing[-1]["message"]


def test_a_cached_state_sees_the_missing_file_appear(tmp_path: Path, monkeypatch: Any) -> None:
    """The cache of what was read keeps a skill's findings only while every path they
    depend on is as it was: the reference added, the warning goes."""
    from skillstudio.core.scanning import state_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(state_cache, "RACY_NS", 0)
    folder = tmp_path / "api-client"
    shutil.copytree(Path(__file__).parent / "advice" / "reference-missing" / "bad", tmp_path / "x")
    shutil.move(str(tmp_path / "x" / "api-client"), folder)

    def warned() -> int:
        run = cli("lint", "--format", "json", "--profile", "agentskills", str(folder))
        return len(found(run.json, "reference-missing"))

    assert warned() == 2
    assert warned() == 2  # (served from the cache)
    (folder / "references").mkdir()
    (folder / "references" / "endpoints.md").write_text("# Endpoints\n")
    assert warned() == 1


def test_a_cached_state_sees_a_folder_of_the_skill_appear(tmp_path: Path, monkeypatch: Any) -> None:
    """`forms/fill.md` counts once the skill holds a `forms/` folder: the folder made,
    the cached state is not served and the missing file is named."""
    from skillstudio.core.scanning import state_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(state_cache, "RACY_NS", 0)
    folder = tmp_path / "forms-skill"
    folder.mkdir()
    (folder / "SKILL.md").write_text(
        "---\nname: forms-skill\ndescription: Fills forms. Use when asked to fill one.\n---\n"
        "Read forms/fill.md before you start.\n"
    )

    def warned() -> int:
        run = cli("lint", "--format", "json", "--profile", "agentskills", str(folder))
        return len(found(run.json, "reference-missing"))

    assert warned() == 0 and warned() == 0  # not a folder of the skill: not counted
    (folder / "forms").mkdir()
    assert warned() == 1


def test_output_as_a_noun_before_a_path_does_not_hide_it(tmp_path: Path) -> None:
    """openai-skills' skill-creator: "See references/workflows.md" was reported, the line
    below, "**Specific output formats**: See references/output-patterns.md", was not
    ("output" read as the verb that makes the file). The verb still does."""
    folder = tmp_path / "skills" / "creator"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: creator\ndescription: Creates skills. Use when asked for a skill.\n---\n"
        "- **Multi-step processes**: See references/workflows.md for workflows\n"
        "- **Specific output formats or quality standards**: See "
        "references/output-patterns.md for template patterns\n"
        "- The command outputs assets/chart.png; output the table to assets/table.csv.\n"
        "- Its output goes `into` assets/log.txt.\n"
    )
    missing = found(lint(folder, "agentskills"), "reference-missing")
    assert [(d["line"], d["message"].split("'")[1]) for d in missing] == [
        (5, "references/workflows.md"),
        (6, "references/output-patterns.md"),
    ]
