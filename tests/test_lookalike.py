"""Issue 25 item 12: names that look alike (docs/development.md). A name holding
invisible or bidi characters, combining marks (NFD), full-width or Cyrillic letters
that look Latin is reported (`name-lookalike`, a warning: the standard and Codex
accept such names); two skills whose names differ but look the same are each
reported; text output escapes bidi and zero-width characters."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from .helpers import cli, lint_json, skill_text, write

NFC = unicodedata.normalize("NFC", "café")
NFD = unicodedata.normalize("NFD", "café")
CYRILLIC = "c\u0430fe"  # Cyrillic а
FULL_WIDTH = "\uff43afe"  # ｃ
ZERO_WIDTH = "zero\u200bwidth"
BIDI = "bidi\u202eoverride"


def _skill(root: Path, folder: str, name: str | None, description: str) -> None:
    fields = {"name": name} if name is not None else {}
    write(root, f"{folder}/SKILL.md", skill_text(**fields, description=description))


def _lookalikes(data: dict[str, object], folder: str) -> list[dict[str, object]]:
    diagnostics = data["diagnostics"]
    assert isinstance(diagnostics, list)
    return [
        d
        for d in diagnostics
        if d["code"] == "name-lookalike" and d["path"].endswith(f"/{folder}/SKILL.md")
    ]


@pytest.mark.parametrize(
    ("profile", "root", "name", "why"),
    [
        ("agentskills", ".agents/skills", CYRILLIC, "U+0430 CYRILLIC SMALL LETTER A"),
        ("agentskills", ".agents/skills", FULL_WIDTH, "U+FF43 FULLWIDTH LATIN SMALL LETTER C"),
        ("agentskills", ".agents/skills", NFD, "combining marks (NFD)"),
        ("codex", ".agents/skills", ZERO_WIDTH, "U+200B ZERO WIDTH SPACE"),
        ("codex", ".agents/skills", BIDI, "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("claude-code", ".claude/skills", CYRILLIC, "U+0430 CYRILLIC SMALL LETTER A"),
    ],
)
def test_a_name_that_can_be_mistaken_for_another_is_reported(
    tmp_path: Path, profile: str, root: str, name: str, why: str
) -> None:
    _skill(tmp_path / root, name, name, "Handles requests about the tested name.")
    _skill(tmp_path / root, "日本語", "日本語", "A name in another script, nothing like Latin.")
    data = lint_json(str(tmp_path), "--profile", profile)
    found = _lookalikes(data, name)
    assert len(found) == 1 and why in str(found[0]["message"]), found
    assert found[0]["severity"] == "warning" and (found[0]["line"], found[0]["column"]) == (2, 7)
    assert _lookalikes(data, "日本語") == []  # a plain name of another script is no look-alike


@pytest.mark.parametrize(
    ("first", "second"), [(NFC, NFD), ("cafe", CYRILLIC), ("cafe", FULL_WIDTH)]
)
def test_two_names_that_look_the_same_are_each_reported(
    tmp_path: Path, first: str, second: str
) -> None:
    skills = tmp_path / ".agents" / "skills"
    _skill(skills, first, first, "Orders coffee for the first team.")
    _skill(skills, second, second, "Orders coffee for the second team.")
    data = lint_json(str(tmp_path), "--profile", "codex")
    for mine, other in ((first, second), (second, first)):
        messages = [str(d["message"]) for d in _lookalikes(data, mine)]
        assert any("looks the same as" in m and f"'{other}'" in m for m in messages), messages


@pytest.mark.parametrize("name", [ZERO_WIDTH, BIDI])
def test_text_output_escapes_bidi_and_zero_width_characters(tmp_path: Path, name: str) -> None:
    _skill(tmp_path / ".agents" / "skills", name, name, "Handles requests about hidden text.")
    hidden = next(ch for ch in name if not ch.isascii())
    shown = f"\\u{ord(hidden):04x}"
    for args in (
        ["lint", str(tmp_path), "--profile", "codex"],
        ["list", "--project", str(tmp_path), "--profile", "codex"],
        ["show", name, "--project", str(tmp_path), "--profile", "codex"],
        ["match", "hidden text", "--explain", "--project", str(tmp_path), "--profile", "codex"],
    ):
        run = cli(*args)
        assert run.code in (0, 1), run.err
        assert hidden not in run.out and shown in run.out, (args, run.out)
