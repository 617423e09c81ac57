"""Issue 25 items 3 and 11 in the app: a repository's roots linked out are not opened,
Save never writes outside the folder opened (a root swapped for a link out while a
skill is open), and Save writes through a SKILL.md link inside the folder, keeping
the link, as `set` does."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from skillstudio.gui.window.main_window import MainWindow

from ..helpers import skill_text, write
from ..test_confinement import LINKED, OUTSIDE_WORD, make_linked_repo, snapshot


def opened(qtbot: QtBot, tmp_path: Path, folder: Path, profile: str | None = None) -> MainWindow:
    window = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(folder), profile)
    return window


def test_the_app_opens_nothing_a_repository_links_to_outside(qtbot: QtBot, tmp_path: Path) -> None:
    repo, outside = make_linked_repo(tmp_path)
    before = snapshot(outside)
    window = opened(qtbot, tmp_path, repo, "claude-code")
    paths = [skill.path for registry in window.registries for skill in registry.skills]
    assert paths and all(os.path.realpath(p).startswith(str(repo) + os.sep) for p in paths)
    for link, (_folder, name, _profile) in LINKED.items():
        assert window.open_skill(str(repo / link / name / "SKILL.md")) is None
    assert all(OUTSIDE_WORD not in d.message for r in window.registries for d in r.diagnostics)
    assert snapshot(outside) == before


def test_save_refuses_a_skill_whose_root_became_a_link_out(qtbot: QtBot, tmp_path: Path) -> None:
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    (repo / ".git").mkdir(parents=True)
    text = skill_text(name="cx", description="Handles cx requests in reports.")
    write(repo, ".claude/skills/cx/SKILL.md", text)
    window = opened(qtbot, tmp_path, repo, "claude-code")
    editor = window.open_skill(str(repo / ".claude" / "skills" / "cx" / "SKILL.md"))
    assert editor is not None
    qtbot.keyClicks(editor.source, "typed ")
    outside.mkdir()  # the same bytes, moved outside; the repository's folder now a link
    os.rename(repo / ".claude" / "skills", outside / "skills")
    (repo / ".claude" / "skills").symlink_to(outside / "skills")
    before = snapshot(outside)
    failures: list[str] = []
    editor.document.save_failed.connect(failures.append)
    assert not window.document_tabs.save_current()
    assert failures and "outside" in failures[0]
    assert editor.document.text().startswith("typed ") and editor.document.modified
    assert snapshot(outside) == before


def test_save_writes_through_a_skill_link_inside_the_folder(qtbot: QtBot, tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    shared = Path(write(skills, "shared/x.md", skill_text(name="x", description="Shared x.")))
    (skills / "x").mkdir()
    link = skills / "x" / "SKILL.md"
    link.symlink_to("../shared/x.md")
    window = opened(qtbot, tmp_path, skills)
    editor = window.open_skill(str(link))
    assert editor is not None
    qtbot.keyClicks(editor.source, "typed ")
    assert window.document_tabs.save_current()
    assert link.is_symlink() and shared.read_text().startswith("typed ---")
    assert sorted(os.listdir(skills / "shared")) == ["x.md"]  # no temporary file left
