"""The body gist worked out once per content and shared by every profile
(reading/skill_words.py `gist_of_skill`); verdicts and agent answers read none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.reading import skill_words
from skillstudio.core.reading.skill_words import body_gist, bundled_text, gist_of_skill
from tests.helpers import cli, skill_text, write


@pytest.fixture
def gist_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The bodies `body_gist` works on (the cache emptied first)."""
    seen: list[str] = []
    real = skill_words.body_gist

    def counting(body: str, bundled: str = "") -> str:
        seen.append(body)
        return real(body, bundled)

    monkeypatch.setattr(skill_words, "body_gist", counting)
    monkeypatch.setattr(skill_words, "_GISTS", type(skill_words._GISTS)())
    return seen


def test_one_content_is_worked_out_once_and_a_change_anywhere_is_seen(
    tmp_path: Path, gist_calls: list[str]
) -> None:
    path = write(tmp_path, "s/SKILL.md", skill_text(name="s", description="Plot sales."))
    write(tmp_path, "s/references/guide.md", "Quarterly revenue charts.\n")
    body = "Plot the sales table as a bar chart.\n"
    first = gist_of_skill(body, path)
    assert gist_of_skill(body, path) == first and len(gist_calls) == 1
    assert first == body_gist(body, bundled_text(path))  # the same as worked out afresh
    changed = gist_of_skill(body + "Label every axis.\n", path)  # another body
    assert len(gist_calls) == 2 and "label" in changed.split()
    write(tmp_path, "s/references/guide.md", "Forecast inventory levels.\n")  # bundled text
    assert "inventory" in gist_of_skill(body, path).split() and len(gist_calls) == 3


def test_the_cache_is_bounded(
    tmp_path: Path, gist_calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(skill_words, "GISTS_KEPT", 2)
    path = str(tmp_path / "SKILL.md")  # (no folder: nothing bundled)
    for word in ("alpha", "beta", "gamma"):
        gist_of_skill(f"{word} words\n", path)
    assert len(skill_words._GISTS) == 2
    gist_of_skill("gamma words\n", path)  # kept
    assert len(gist_calls) == 3
    gist_of_skill("alpha words\n", path)  # the oldest went
    assert len(gist_calls) == 4


def test_profile_all_works_out_no_gist_per_profile(tmp_path: Path, gist_calls: list[str]) -> None:
    """`lint --profile all` asks every profile and every agent about each skill, and
    the skills no root reads too: none of those answers reads a gist."""
    for index in range(3):
        name = f"tool-{index}"
        write(
            tmp_path,
            f"catalogue/misc/{name}/SKILL.md",
            skill_text(name=name, description=f"Handles case {index}. Use when asked.")
            + "A body with words enough to count.\n",
        )
    write(tmp_path, ".claude/skills/one/SKILL.md", skill_text(name="one", description="One."))
    run = cli("lint", "--profile", "all", "--format", "json", "--no-cache", cwd=tmp_path)
    data: dict[str, Any] = run.json
    assert {entry["skill"] for entry in data["portability"]} >= {"tool-0", "tool-1", "tool-2"}
    assert gist_calls == []
