"""One answer everywhere (issue 35): `lint`, `show`, `list` and the language server give
the same diagnostics for a skill, code, file, line and message, because each only
filters and formats the project's findings (core/projects/findings.py).

The project has what made the front ends differ: a rule turned off in skillstudio.yaml
(`duplicate-name: off`, a cross-skill finding), a pair of near-identical descriptions
(a `description-overlap` note, written twice before with two messages; `show` had
none), and a SKILL.md over the size limit (file-too-large, written twice).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skillstudio.lsp.session import Session

from .helpers import cli, lint_json, skill_text, write

SUMMARY = "Summarize PDF files into short notes with their headings. Use when asked for a summary."
NEARLY = "Summarize PDF files into short notes with their headings. Use when asked for a digest."
SKILLS = {
    "alpha": ("alpha", SUMMARY),
    "beta": ("beta", NEARLY),  # alpha's description, one word changed
    "gamma": ("gamma", "Draw bar charts from spreadsheets. Use when asked for a chart."),
    # a second skill named gamma in the same root: duplicate-name, turned off
    "gamma-two": ("gamma", "Translate German letters. Use when a letter arrives in German."),
}

Key = tuple[str, str, int | None, str]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write(tmp_path, "skillstudio.yaml", "roots: [skills]\nrules:\n  duplicate-name: off\n")
    for folder, (name, description) in SKILLS.items():
        write(tmp_path, f"skills/{folder}/SKILL.md", skill_text(name=name, description=description))
    huge = skill_text(name="huge", description="Too large.", _body="x" * 1_100_000)
    write(tmp_path, "skills/huge/SKILL.md", huge)
    return tmp_path


def keyed(found: list[dict[str, Any]]) -> list[Key]:
    return sorted((d["code"], d["path"], d["line"], d["message"]) for d in found)


def by_file(lint: dict[str, Any]) -> dict[str, list[Key]]:
    out: dict[str, list[Key]] = {}
    for key in keyed(lint["diagnostics"]):
        out.setdefault(key[1], []).append(key)
    return out


def skill_md(project: Path, folder: str) -> str:
    return str(project / "skills" / folder / "SKILL.md")


def test_show_gives_lints_diagnostics_for_each_skill(project: Path) -> None:
    data = lint_json(cwd=project)
    found = {(d["code"], Path(d["path"]).parent.name) for d in data["diagnostics"]}
    assert ("description-overlap", "alpha") in found and ("description-overlap", "beta") in found
    assert ("file-too-large", "huge") in found
    assert not any(code == "duplicate-name" for code, _ in found)  # turned off
    assert ("name-dir-mismatch", "gamma-two") in found  # (its own finding stays)
    lint = by_file(data)
    for folder in (*SKILLS, "huge"):
        path = skill_md(project, folder)
        run = cli("show", path, "--format", "json", cwd=project)
        assert run.code == 0, run.err
        shown = [d for d in run.json["diagnostics"] if d["path"] == path]
        assert keyed(shown) == lint.get(path, []), folder


def test_show_text_lists_the_overlap_note(project: Path) -> None:
    run = cli("show", skill_md(project, "alpha"), cwd=project)
    assert "info description-overlap: the description is nearly the same text as beta's" in (
        run.out
    )


def test_list_counts_lints_errors_and_warnings(project: Path) -> None:
    lint = lint_json(cwd=project)
    run = cli("list", "--format", "json", cwd=project)
    assert run.code == 0, run.err
    for row in run.json["skills"]:
        mine = [d for d in lint["diagnostics"] if d["path"] == row["path"]]
        counts = {s: sum(d["severity"] == s for d in mine) for s in ("error", "warning")}
        assert (row["errors"], row["warnings"]) == (counts["error"], counts["warning"]), row


def test_the_language_server_publishes_lints_diagnostics_for_each_file(project: Path) -> None:
    lint = by_file(lint_json(cwd=project))
    session = Session()
    session.open_folders([str(project)])
    for folder in (*SKILLS, "huge"):
        path = skill_md(project, folder)
        text = Path(path).read_text(encoding="utf-8")
        published = [d.to_json() for d in session.check(path, text).diagnostics]
        assert keyed(published) == lint.get(path, []), folder


def test_the_language_servers_note_follows_typing_in_lints_words(project: Path) -> None:
    """Typed (unsaved): the note is the one lint gives once the text is saved."""
    session = Session()
    session.open_folders([str(project)])
    path = skill_md(project, "gamma")
    text = Path(path).read_text(encoding="utf-8")
    copied = text.replace(SKILLS["gamma"][1], SUMMARY)
    typed = keyed([d.to_json() for d in session.check(path, copied).diagnostics])
    assert [key[0] for key in typed] == ["description-overlap"]
    Path(path).write_text(copied, encoding="utf-8")
    assert typed == by_file(lint_json(cwd=project))[path]


def test_the_apps_problems_are_lints_notes_included(qtbot: Any, project: Path) -> None:
    """The app's Problems lists what `lint -v` lists, the overlap notes included (they
    land a moment after the scan, worked out off the GUI thread); its counts are lint's.
    An editor tab gives lint's findings of its skill (the rules applied by the registry;
    the editor shows no overlap note: its form has a "competes with" line instead)."""
    from PySide6.QtCore import QSettings

    from tests.gui.parts import open_window

    lint = lint_json(cwd=project)
    settings = QSettings(str(project / "settings.ini"), QSettings.Format.IniFormat)
    win = open_window(qtbot, settings, project)
    model = win.problems_model
    expected = {s: sum(d["severity"] == s for d in lint["diagnostics"]) for s in model.counts()}
    assert expected["info"] >= 2  # (the overlap notes)
    qtbot.waitUntil(lambda: model.all_counts() == expected, timeout=10_000)
    assert keyed([d.to_json() for d in model.shown()]) == keyed(lint["diagnostics"])
    # the editor tab of the skill whose duplicate name is turned off: lint's (none)
    path = skill_md(project, "gamma")
    editor = win.open_skill(path)
    assert editor is not None
    assert keyed([d.to_json() for d in editor.document.diagnostics]) == by_file(lint).get(path, [])
