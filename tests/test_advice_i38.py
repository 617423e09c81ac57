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
