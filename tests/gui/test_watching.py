"""Files changed outside the app: the tree and problems follow; typed text is never lost."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from skillstudio.core.reading.skill_files import skill_body
from skillstudio.gui.editor.skill_editor import SkillEditor
from skillstudio.gui.window.main_window import MainWindow

WAIT = 5000


def skill_path(samples: Path, name: str) -> Path:
    return next(samples.rglob(f"{name}/SKILL.md"))


def open_skill(window: MainWindow, path: Path) -> SkillEditor:
    editor = window.open_skill(str(path))
    assert editor is not None
    return editor


def test_external_edit_updates_problems(window: MainWindow, samples: Path, qtbot: QtBot) -> None:
    path = skill_path(samples, "sql-review")
    path.write_text(path.read_text().replace("name: sql-review", "name: SQL_Review"))
    qtbot.waitUntil(lambda: window.problems_model.counts()["error"] >= 2, timeout=WAIT)


def test_new_and_deleted_skills_appear_and_vanish(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    folder = samples / "mvp/skills/brand-new"
    folder.mkdir()
    (folder / "SKILL.md").write_text("---\nname: brand-new\ndescription: d\n---\nbody\n")
    qtbot.waitUntil(
        lambda: "31" not in window.statusBar().currentMessage().split(" skills")[0], timeout=WAIT
    )
    assert window.statusBar().currentMessage().startswith("32 skills")
    (folder / "SKILL.md").unlink()
    qtbot.waitUntil(
        lambda: window.statusBar().currentMessage().startswith("31 skills"), timeout=WAIT
    )


def test_clean_document_reloads(window: MainWindow, samples: Path, qtbot: QtBot) -> None:
    path = skill_path(samples, "repo-survey")
    editor = open_skill(window, path)
    path.write_text(path.read_text() + "\nAdded outside.\n")
    qtbot.waitUntil(lambda: "Added outside." in editor.document.text(), timeout=WAIT)
    assert not editor.conflict_bar.isVisible()


def test_modified_document_gets_the_bar_and_keeps_the_text(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    path = skill_path(samples, "safe-edit")
    editor = open_skill(window, path)
    qtbot.keyClicks(editor.source, "typed ")
    path.write_text("---\nname: safe-edit\ndescription: outside\n---\n")
    qtbot.waitUntil(editor.conflict_bar.isVisible, timeout=WAIT)
    assert editor.document.text().startswith("typed ")
    assert not window.document_tabs.save_current()  # still a conflict until the user decides
    editor.keep_button.click()
    assert window.document_tabs.save_current()
    assert path.read_text().startswith("typed ")


def test_reload_button_takes_the_disk_version(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    path = skill_path(samples, "test-first-fix")
    editor = open_skill(window, path)
    qtbot.keyClicks(editor.source, "draft ")
    path.write_text("---\nname: test-first-fix\ndescription: new\n---\nNew body\n")
    qtbot.waitUntil(editor.conflict_bar.isVisible, timeout=WAIT)
    editor.reload_button.click()
    assert editor.document.text().endswith("New body\n")
    assert not editor.document.modified


def test_own_save_does_not_echo(window: MainWindow, samples: Path, qtbot: QtBot) -> None:
    path = skill_path(samples, "release-notes")
    editor = open_skill(window, path)
    qtbot.keyClicks(editor.source, "x")
    assert window.document_tabs.save_current()
    deadline = time.monotonic() + 0.8
    while time.monotonic() < deadline:
        qtbot.wait(50)
    assert not editor.conflict_bar.isVisible()
    assert editor.document.text().startswith("x")


def test_loaded_and_refreshed_skills_are_kept_out_of_the_collectors_walks(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    import gc

    def walked() -> set[int]:  # objects a full collection would traverse
        return {id(obj) for obj in gc.get_objects()}

    registry = window.registries[-1]  # built last: no later scan froze it by the way
    index = window.query_panel.index_for(registry)
    ids = walked()
    assert id(registry.skills[0]) not in ids and id(index.terms) not in ids
    assert id(window.tree_model) not in ids
    path = skill_path(samples, "repo-survey")
    before = next(s for r in window.registries for s in r.skills if s.path == str(path))
    path.write_text(path.read_text() + "\nAdded outside.\n")
    qtbot.waitUntil(
        lambda: (
            next(s for r in window.registries for s in r.skills if s.path == str(path))
            is not before
        ),
        timeout=WAIT,
    )
    after = next(s for r in window.registries for s in r.skills if s.path == str(path))
    assert id(after) not in walked()
    gc.unfreeze()  # the other tests start from the collector's usual state


def test_a_burst_of_changes_is_taken_in_slices_and_typing_goes_on(
    window: MainWindow, samples: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillstudio.gui.controllers import refresh

    monkeypatch.setattr(refresh, "REFRESH_SLICE_S", 0.0)  # one file a slice
    editor = open_skill(window, skill_path(samples, "repo-survey"))
    others = [p for p in sorted(samples.rglob("SKILL.md")) if "repo-survey" not in str(p)][:6]
    slices: list[bool] = []
    run_slice = window.refresher.run_slice

    def counted() -> None:
        slices.append(window.refresher.job is not None)
        if len(slices) == 3:  # the user types while the refresh is half done
            qtbot.keyClicks(editor.source, "typed during the refresh ")
            editor.document.validate()  # what its timer would do right now
        run_slice()

    monkeypatch.setattr(window.refresher, "run_slice", counted)
    for path in others:
        path.write_text(path.read_text() + "\nChanged in the burst.\n")
    qtbot.waitUntil(lambda: len(slices) > 3 and window.refresher.job is None, timeout=WAIT)
    qtbot.waitUntil(
        lambda: window.refresher.job is None and not window.refresher.pending, timeout=WAIT
    )
    assert len(slices) >= len(others)  # the refresh came back to the event loop each file
    registry = editor.document.registry
    for path in others:
        skill = next(r.by_path[str(path)] for r in window.registries if str(path) in r.by_path)
        assert "Changed in the burst." in skill_body(skill)
    # The registry holds the text on screen (no frontmatter at the top now), not the disk's.
    assert editor.document.text().startswith("typed during the refresh ")
    codes = {d.code for d in registry.by_path[editor.document.path].diagnostics}
    assert "frontmatter-missing" in codes


def test_a_file_deleted_or_replaced_while_open_keeps_the_typed_text(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    path = skill_path(samples, "safe-edit")
    editor = open_skill(window, path)
    qtbot.keyClicks(editor.source, "typed ")
    path.unlink()
    qtbot.waitUntil(editor.conflict_bar.isVisible, timeout=WAIT)
    assert "deleted" in editor.conflict_text.text()
    assert editor.document.text().startswith("typed ")
    editor.keep_button.click()
    assert window.document_tabs.save_current()  # saving puts the file back with the typed text
    assert path.read_text().startswith("typed ")
    qtbot.waitUntil(lambda: not editor.document.modified, timeout=WAIT)

    # Replaced by another program's atomic save (a new file moved over it).
    qtbot.keyClicks(editor.source, "again ")
    other = path.with_name("incoming.tmp")
    other.write_text("---\nname: safe-edit\ndescription: from elsewhere\n---\n")
    os.replace(other, path)
    qtbot.waitUntil(editor.conflict_bar.isVisible, timeout=WAIT)
    assert editor.document.text().startswith("typed again ")
    assert (
        not window.document_tabs.save_current()
    )  # no silent overwrite of the other program's file
    assert "from elsewhere" in path.read_text()
    editor.reload_button.click()  # the user takes theirs
    assert "from elsewhere" in editor.document.text()
