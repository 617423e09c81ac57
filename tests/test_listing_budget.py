"""`listing-over-budget` (issue 36): a set whose listing is over the agent's budget is
told so in `lint`, `show` and the language server, from the listing the Headroom and
Tiers views show (core/delivery/headroom.py), with how many skills lose their
description or their place, which, and what would make room.

Claude Code's budget when the window is unknown is 8,000 characters (1 % of the
window, 4 characters a token); each entry's description is capped at 1,536.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.delivery import headroom
from skillstudio.core.delivery.headroom import listing_headroom
from skillstudio.core.model.diagnostics import Diagnostic
from skillstudio.core.projects.findings import file_findings, project_findings
from skillstudio.core.projects.open_project import OpenProject
from skillstudio.core.projects.project import project_from_folder
from skillstudio.lsp.session import Session

from .helpers import cli, lint_json, skill_text, write

CODE = "listing-over-budget"


def make_set(base: Path, count: int, words: int, config: str = "") -> Path:
    """`count` claude-code skills, each description about `words` * 8 characters."""
    write(base, ".claude/settings.json", "{}\n")
    if config:
        write(base, "skillstudio.yaml", config)
    for i in range(count):
        name = f"skill-{i:02d}"
        description = f"Handle task {i} well. " + " ".join(f"word{i}x{j}" for j in range(words))
        description += f". Use when asked for task {i}."
        text = skill_text(name=name, description=description)
        write(base, f".claude/skills/{name}/SKILL.md", text)
    return base


def notes(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for d in data["diagnostics"] if d["code"] == CODE]


def test_a_set_over_claude_codes_budget_gets_the_warning(tmp_path: Path) -> None:
    base = make_set(tmp_path, 27, 60)  # 27 descriptions of about 500 characters
    data = lint_json("--profile", "claude-code", cwd=base)
    found = notes(data)
    assert len(found) == 1, found  # one per project and profile
    note = found[0]
    assert note["severity"] == "warning"
    # a note about the whole listing: on the project (no skillstudio.yaml), no line
    assert note["path"] == str(base)
    assert (note["line"], note["column"], note["field"], note["skill"]) == (None,) * 4
    message = note["message"]
    assert "8,000 characters" in message and "lose their description" in message
    assert "to make room cut" in message and "longest:" in message


def test_the_note_counts_what_the_headroom_view_counts(tmp_path: Path) -> None:
    base = make_set(tmp_path, 27, 60)
    opened = OpenProject.read(project_from_folder(str(base), "claude-code"), gists=False)
    room = listing_headroom(opened.registry, opened.project.options)
    assert room.budget == 8_000 and room.shortened
    found = [d for d in project_findings(opened) if d.code == CODE]
    assert len(found) == 1
    message = found[0].message
    assert f"{len(room.shortened):,} skills lose their description" in message
    assert f"cut {room.needed - room.budget:,} characters" in message
    assert room.shortened[0] in message
    assert found[0].path == str(base)  # on the project, not one of the skills it names


def test_a_set_within_the_budget_gets_none(tmp_path: Path) -> None:
    base = make_set(tmp_path, 5, 10)
    data = lint_json("--profile", "claude-code", cwd=base)
    assert data["diagnostics"] is not None and not notes(data)


def test_a_larger_context_window_makes_room(tmp_path: Path) -> None:
    base = make_set(tmp_path, 27, 60, "context_tokens: 1000000\n")  # 40,000 characters
    assert not notes(lint_json("--profile", "claude-code", cwd=base))


def test_the_rule_turned_off_silences_it(tmp_path: Path) -> None:
    base = make_set(tmp_path, 27, 60, "rules:\n  listing-over-budget: off\n")
    assert not notes(lint_json("--profile", "claude-code", cwd=base))
    base2 = make_set(tmp_path / "two", 27, 60, "rules:\n  listing-over-budget: error\n")
    found = notes(lint_json("--profile", "claude-code", cwd=base2))
    assert [d["severity"] for d in found] == ["error"]


def test_the_language_server_gives_lints_note_on_skillstudio_yaml(tmp_path: Path) -> None:
    """The note stands where lint puts it: the editor shows it on skillstudio.yaml's line
    that sets the window, never on a skill (`show` of one skill no longer carries it)."""
    base = make_set(tmp_path, 27, 60, "profile: claude-code\ncontext_tokens: 200000\n")
    (note,) = notes(lint_json(cwd=base))
    config = str(base / "skillstudio.yaml")
    assert (note["path"], note["line"], note["column"]) == (config, 2, 1)
    session = Session()
    session.open_folders([str(base)])
    published = session.check(config, Path(config).read_text(encoding="utf-8")).diagnostics
    assert [(d.message, d.line, d.column) for d in published if d.code == CODE] == [
        (note["message"], 2, 1)
    ]
    skill = base / ".claude/skills/skill-00/SKILL.md"
    on_skill = session.check(str(skill), skill.read_text(encoding="utf-8")).diagnostics
    assert CODE not in {d.code for d in on_skill}
    run = cli("show", "skill-00", "--format", "json", cwd=base)
    assert run.code in (0, 1), run.err
    assert not notes(run.json)


@pytest.mark.parametrize(
    ("config", "args", "line"),
    [
        ("profile: claude-code\n# the model we use\nmodel: claude-haiku-4-5\n", (), 3),
        ("profile: claude-code\nmodel: claude-haiku-4-5\ncontext_tokens: 300000\n", (), 3),
        ("context_tokens: 300000\nchar_budget: 9000\n", (), 2),
        ("profile: claude-code\ncontext_tokens: 300000\n", ("--context-tokens", "200000"), None),
        ("profile: claude-code\nroots: [.claude/skills]\n", (), None),
    ],
    ids=["model", "context_tokens-wins", "char_budget-wins", "command-line", "no-budget-key"],
)
def test_the_note_points_at_the_setting_that_sets_the_budget(
    tmp_path: Path, config: str, args: tuple[str, ...], line: int | None
) -> None:
    """On skillstudio.yaml: the line of the key whose budget is in force (char_budget,
    else context_tokens, else model); with the window from the command line, or with no
    key setting it, the file with no line."""
    base = make_set(tmp_path, 27, 60, config)
    (note,) = notes(lint_json("--profile", "claude-code", *args, cwd=base))
    assert note["path"] == str(base / "skillstudio.yaml")
    assert (note["line"], note["column"]) == (line, 1 if line else None)
    text = cli("lint", "--profile", "claude-code", *args, cwd=base).out
    (shown,) = [row for row in text.splitlines() if CODE in row]
    assert shown.startswith(f"skillstudio.yaml{f':{line}:1' if line else ''}: warning {CODE}:")
    sarif = cli("lint", "--profile", "claude-code", "--format", "sarif", *args, cwd=base).json
    (result,) = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == CODE]
    (location,) = result["locations"]
    assert location["physicalLocation"]["artifactLocation"]["uri"] == "skillstudio.yaml"
    region = location["physicalLocation"].get("region")
    assert region == ({"startLine": line, "startColumn": 1} if line else None)


def test_explain_knows_the_code() -> None:
    run = cli("explain", CODE)
    assert run.code == 0 and "budget" in run.out


def test_codex_counts_its_budget_in_tokens_and_names_the_authors_skills_first(
    tmp_path: Path,
) -> None:
    """Codex at a known window: 2 % of it in tokens; its own system skills, listed
    first, are not the author's: the note names the set's skills first, and stands on
    the line that sets the window."""
    base = make_set(tmp_path, 27, 60, "context_tokens: 100000\nroots: [.claude/skills]\n")
    (note,) = notes(lint_json("--profile", "codex", cwd=base))
    assert "(2,000 tokens," in note["message"] and "tokens of descriptions" in note["message"]
    assert "lose their description (skill-" in note["message"]
    assert (Path(note["path"]).name, note["line"]) == ("skillstudio.yaml", 1)


def test_the_note_follows_an_edit_of_a_description_not_of_a_body(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Worked out once per version of the registry; a body edit reuses it (the listing
    reads no body), a description shortened until the set fits clears it."""
    base = make_set(tmp_path, 17, 60)  # 17 entries of about 640 characters: 10,900 over 8,000
    opened = OpenProject.read(project_from_folder(str(base), "claude-code"), gists=False)
    made: list[int] = []
    real = headroom.listing_over_budget

    def counting(*args: Any) -> list[Diagnostic]:
        made.append(1)
        return real(*args)

    monkeypatch.setattr(headroom, "listing_over_budget", counting)
    assert [d.code for d in opened.listing_notes()] == [CODE]
    path = str(base / ".claude/skills/skill-00/SKILL.md")
    text = Path(path).read_text(encoding="utf-8")
    file_findings(opened, path, text + "\nMore instructions.\n")
    assert [d.code for d in opened.listing_notes()] == [CODE]
    assert len(made) == 1  # the body edit wrote no listing
    file_findings(opened, path, text.replace("Handle task", "Handle the task", 1))
    assert len(made) == 1  # a skill's own findings do not ask for the listing's note
    assert [d.code for d in opened.listing_notes()] == [CODE]
    assert len(made) == 2  # a description edit made it anew
    cut = 0
    for skill in list(opened.registry.skills):
        if opened.listing_notes() == []:
            break
        short = skill_text(name=skill.name, description="Short.")
        file_findings(opened, skill.path, short)
        cut += 1
    assert opened.listing_notes() == [] and 0 < cut < 17


def test_lints_context_tokens_sets_the_window(tmp_path: Path) -> None:
    base = make_set(tmp_path, 27, 60)
    assert notes(lint_json("--profile", "claude-code", cwd=base))  # 8,000 characters
    wide = lint_json("--profile", "claude-code", "--context-tokens", "1000000", cwd=base)
    assert not notes(wide)  # 40,000 characters: every description fits
    run = cli("lint", "--context-tokens", "-1", cwd=base)
    assert run.code == 2 and "--context-tokens" in run.err


def test_the_apps_problems_show_lints_listing_note(qtbot: Any, tmp_path: Path) -> None:
    """The app's Problems gives the note `lint` gives (worked out off the GUI thread with
    the overlap notes, after the scan), and its counts are lint's."""
    from PySide6.QtCore import QSettings

    from skillstudio.gui.window.main_window import MainWindow

    base = make_set(tmp_path / "set", 27, 60)
    lint = lint_json(cwd=base)
    assert len(notes(lint)) == 1
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=20_000):
        assert win.open_path(str(base))
    model = win.problems_model

    def shown() -> list[dict[str, Any]]:
        return [d.to_json() for d in model.shown() if d.code == CODE]

    qtbot.waitUntil(lambda: len(shown()) == 1, timeout=20_000)
    assert shown()[0]["message"] == notes(lint)[0]["message"]
    assert shown()[0]["path"] == notes(lint)[0]["path"]
    expected = {s: sum(d["severity"] == s for d in lint["diagnostics"]) for s in model.counts()}
    qtbot.waitUntil(lambda: model.all_counts() == expected, timeout=10_000)


# -- one number against the budget: the meter, prompt, headroom and lint agree -----------
def make_codex_set(base: Path, words: int) -> Path:
    """12 Codex skills in .agents/skills at the 8,000-character budget (no window):
    30 words each fit, with Codex's wrapper text over 8,000; 45 do not."""
    write(base, "skillstudio.yaml", "profile: codex\n")
    for i in range(12):
        name = f"skill-{i:02d}"
        description = f"Handle task {i} well. " + " ".join(f"word{i}x{j}" for j in range(words))
        description += f". Use when asked for task {i}."
        text = skill_text(name=name, description=description)
        write(base, f".agents/skills/{name}/SKILL.md", text)
    return base


def codex_listing(base: Path) -> tuple[Any, Any]:
    from skillstudio.core.delivery.tiers import render_listing

    opened = OpenProject.read(project_from_folder(str(base)), gists=False)
    assert opened.registry.profile.name == "codex"
    options = opened.project.options
    return render_listing(opened.registry, options), listing_headroom(opened.registry, options)


def test_a_codex_listing_that_fits_is_said_to_fit_everywhere(tmp_path: Path) -> None:
    """A reviewer's day: the Tiers meter and `prompt --tier 2` said '8,467 of 8,000' (the
    whole message, Codex's wrapper text with it) where headroom said 6,128 of 8,000 and
    lint nothing: Codex's budget counts the listing's lines."""
    base = make_codex_set(tmp_path, 30)
    tier, room = codex_listing(base)
    assert tier.chars > 8_000 > tier.budget_counted  # the wrapper would put it over
    assert tier.budget_counted == room.used == room.needed
    assert not tier.over_budget and room.headroom is not None and room.headroom > 0
    assert not notes(lint_json(cwd=base))
    run = cli("prompt", "--tier", "2", ".", cwd=base)
    line = next(x for x in run.err.splitlines() if x.startswith("[tier 2"))
    assert f"{room.used:,} of 8,000 characters counted against the budget (fits)" in line
    assert f"{tier.chars:,} of 8,000" not in line
    head = cli("headroom", ".", cwd=base).out
    assert f"headroom: {room.headroom:,} to spare ({room.used:,} used as listed)" in head


def test_a_codex_listing_over_its_budget_is_said_to_be_over_everywhere(tmp_path: Path) -> None:
    base = make_codex_set(tmp_path, 45)
    tier, room = codex_listing(base)
    assert tier.over_budget and tier.shortened and room.headroom is not None
    assert room.headroom < 0
    assert len(notes(lint_json(cwd=base))) == 1
    run = cli("prompt", "--tier", "2", ".", cwd=base)
    assert "of 8,000 characters counted against the budget (over)" in run.err
    assert f"headroom: {-room.headroom:,} over" in cli("headroom", ".", cwd=base).out
