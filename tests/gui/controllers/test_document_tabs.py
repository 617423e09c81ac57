"""Tests of gui/controllers/document_tabs.py (The window's tabs: open skills (editors)
and files of skills (read-only views): opening, saving, closing with unsaved work,
undo and revert, and what a change on disk does to an open tab)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, QUrl
from PySide6.QtWidgets import QTabBar, QToolButton
from pytestqt.qtbot import QtBot

from skillstudio.gui.editor.file_view import FileView
from skillstudio.gui.editor.skill_editor import SkillEditor
from skillstudio.gui.editor.where_it_loads import WhereItLoads
from skillstudio.gui.window.main_window import MainWindow

from ...helpers import skill_text, write
from ...test_confinement import LINKED, OUTSIDE_WORD, make_linked_repo, snapshot
from ..faults import run_for
from ..parts import (
    Editors,
    Shell,
    context_of,
    open_skill,
    open_tab,
    open_window,
    skill_path,
    three_skills,
    whole_rows,
    write_skill,
)

WAIT = 5000


def second_window(qtbot: QtBot, tmp_path: Path, folder: Path) -> MainWindow:
    settings = QSettings(str(tmp_path / "second.ini"), QSettings.Format.IniFormat)
    other = MainWindow(settings)
    other.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(other)
    other.show()
    with qtbot.waitSignal(other.scan_finished, timeout=10_000):
        assert other.open_path(str(folder))
    assert other.watcher.ready.wait(10)
    return other


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 kB tmpfs (root only); the test is skipped where it cannot be mounted."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
        capture_output=True,
    )
    if done.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def write_into(fifo: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.write(fd, b"---\nname: alpha\ndescription: from the fifo\n---\n")
        os.close(fd)


WATCH_WAIT = 5000


def test_revert_drops_unsaved_edits_after_asking(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    editor = window.open_skill(str(samples / "oasis/key_skills/commit/SKILL.md"))
    assert editor is not None
    original = editor.document.text()
    editor.source.appendPlainText("more")
    asked: list[str] = []

    def refuse(name: str) -> bool:
        asked.append(name)
        return False

    window.dialogs.ask_revert = refuse  # type: ignore[method-assign]
    window.menu_actions.revert_action.trigger()
    assert editor.document.modified and asked == ["commit"]
    window.dialogs.ask_revert = lambda name: True  # type: ignore[method-assign]
    window.menu_actions.revert_action.trigger()
    assert editor.document.text() == original and not editor.document.modified


def test_preview_links_open_skill_files_in_the_app(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    editor = editors.open_skill(str(samples / "pegasus/skills/code-review/SKILL.md"))
    assert editor is not None
    editor.views.setCurrentWidget(editor.preview)
    editor.preview.anchorClicked.emit(QUrl("references/severity.md"))
    view = editors.tabs.currentWidget()
    assert isinstance(view, FileView)
    assert view.path == str(samples / "pegasus/skills/code-review/references/severity.md")
    assert editors.tabs.tabText(editors.tabs.currentIndex()) == "severity.md"
    tabs = editors.tabs.count()
    editor.preview.anchorClicked.emit(QUrl("../../../oasis/key_skills/commit/SKILL.md"))
    assert editors.tabs.count() == tabs, "a link out of the skill folder opens nothing"
    editors.tabs.tabCloseRequested.emit(editors.tabs.indexOf(view))
    assert editors.tabs.count() == tabs - 1 and not editors.documents.file_views


def test_the_app_opens_nothing_a_repository_links_to_outside(qtbot: QtBot, tmp_path: Path) -> None:
    repo, outside = make_linked_repo(tmp_path)
    before = snapshot(outside)
    editors = Editors(qtbot, repo, "claude-code")
    paths = [skill.path for registry in editors.context.registries for skill in registry.skills]
    assert paths and all(os.path.realpath(p).startswith(str(repo) + os.sep) for p in paths)
    for link, (_folder, name, _profile) in LINKED.items():
        assert editors.open_skill(str(repo / link / name / "SKILL.md")) is None
    assert all(
        OUTSIDE_WORD not in d.message for r in editors.context.registries for d in r.diagnostics
    )
    assert snapshot(outside) == before


def test_save_refuses_a_skill_whose_root_became_a_link_out(qtbot: QtBot, tmp_path: Path) -> None:
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    (repo / ".git").mkdir(parents=True)
    text = skill_text(name="cx", description="Handles cx requests in reports.")
    write(repo, ".claude/skills/cx/SKILL.md", text)
    editors = Editors(qtbot, repo, "claude-code")
    editor = editors.open_skill(str(repo / ".claude" / "skills" / "cx" / "SKILL.md"))
    assert editor is not None
    qtbot.keyClicks(editor.source, "typed ")
    outside.mkdir()  # the same bytes, moved outside; the repository's folder now a link
    os.rename(repo / ".claude" / "skills", outside / "skills")
    (repo / ".claude" / "skills").symlink_to(outside / "skills")
    before = snapshot(outside)
    failures: list[str] = []
    editor.document.save_failed.connect(failures.append)
    assert not editors.documents.save_current()
    assert failures and "outside" in failures[0]
    assert editor.document.text().startswith("typed ") and editor.document.modified
    assert snapshot(outside) == before


def test_save_writes_through_a_skill_link_inside_the_folder(qtbot: QtBot, tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    shared = Path(write(skills, "shared/x.md", skill_text(name="x", description="Shared x.")))
    (skills / "x").mkdir()
    link = skills / "x" / "SKILL.md"
    link.symlink_to("../shared/x.md")
    editors = Editors(qtbot, skills)
    editor = editors.open_skill(str(link))
    assert editor is not None
    qtbot.keyClicks(editor.source, "typed ")
    assert editors.documents.save_current()
    assert link.is_symlink() and shared.read_text().startswith("typed ---")
    assert sorted(os.listdir(skills / "shared")) == ["x.md"]  # no temporary file left


def test_two_windows_on_one_folder_never_overwrite_each_other(
    window: MainWindow, samples: Path, qtbot: QtBot, tmp_path: Path
) -> None:
    other = second_window(qtbot, tmp_path, samples)
    path = next(samples.rglob("commit/SKILL.md"))
    mine = window.open_skill(str(path))
    theirs = other.open_skill(str(path))
    assert mine is not None and theirs is not None
    qtbot.keyClicks(mine.source, "first window ")
    qtbot.keyClicks(theirs.source, "second window ")
    assert window.document_tabs.save_current()
    # The second window is told, keeps its text, and cannot save over the first one.
    qtbot.waitUntil(theirs.conflict_bar.isVisible, timeout=WAIT)
    assert theirs.document.text().startswith("second window ")
    assert not other.document_tabs.save_current()
    assert path.read_text().startswith("first window ")
    theirs.keep_button.click()  # the user decides: theirs wins, knowingly
    asked: list[str] = []

    def answer(name: str, diff: str) -> str:
        asked.append(diff)
        return "overwrite"

    other.dialogs.ask_overwrite = answer  # type: ignore[method-assign]
    assert other.document_tabs.save_current()
    assert len(asked) == 1 and "-first window " in asked[0]  # shown what is written over
    assert path.read_text().startswith("second window ")
    # The first window had saved, so its text is clean: it reloads the second's.
    qtbot.waitUntil(lambda: mine.document.text().startswith("second window "), timeout=WAIT)
    assert not mine.conflict_bar.isVisible()


def test_save_on_a_full_disk_keeps_the_file_and_the_text(
    qtbot: QtBot, tmp_path: Path, small_disk: Path
) -> None:
    skill = small_disk / "skills" / "full-disk" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    original = "---\nname: full-disk\ndescription: Tests saving when the disk is full.\n---\nBody\n"
    skill.write_text(original)
    editors = Editors(qtbot, small_disk / "skills", "agentskills")
    editor = editors.open_skill(str(skill))
    assert editor is not None
    filler = os.open(small_disk / "filler", os.O_WRONLY | os.O_CREAT)  # fill the disk
    try:
        while os.write(filler, b"x" * 1024):
            pass
    except OSError:
        pass
    finally:
        os.close(filler)
    editor.source.moveCursor(editor.source.textCursor().MoveOperation.End)
    qtbot.keyClicks(editor.source, "A paragraph typed by the user. " * 10)
    assert not editors.documents.save_current()
    assert skill.read_text() == original, "the old file is intact"
    assert editor.document.text().endswith("typed by the user. "), "the typed text is kept"
    assert editor.message.isVisible() and editor.message.text()
    leftovers = [p for p in os.listdir(skill.parent) if p != "SKILL.md"]
    assert leftovers == [], "no half-written temporary file"
    os.remove(small_disk / "filler")
    assert editors.documents.save_current()
    assert skill.read_text().endswith("typed by the user. ")


def test_a_skill_opens_once_titled_by_its_name_and_marked_when_unsaved(
    qtbot: QtBot, samples: Path
) -> None:
    shell = Shell(qtbot)
    context = context_of(samples / "oasis")
    tabs = shell.documents(context)
    path = str(samples / "oasis/key_skills/commit/SKILL.md")
    with qtbot.waitSignal(tabs.skill_opened) as opened:
        editor = tabs.open_skill(path)
    assert opened.args == [path] and isinstance(editor, SkillEditor)
    assert tabs.open_skill(path) is editor and shell.tabs.count() == 1
    assert shell.tabs.tabText(0) == "commit" and tabs.current_path() == path
    with qtbot.waitSignal(tabs.skill_checked, timeout=5000) as checked:
        editor.source.insertPlainText("unsaved ")
        editor.document.validate()
    assert checked.args == [path] and shell.tabs.tabText(0) == "commit •"
    assert tabs.open_skill(str(samples / "pegasus/data/skills/none/SKILL.md")) is None


def test_closing_unsaved_work_asks_and_a_closed_skill_is_read_from_disk_again(
    qtbot: QtBot, samples: Path
) -> None:
    shell = Shell(qtbot)
    context = context_of(samples / "oasis")
    tabs = shell.documents(context)
    path = str(samples / "oasis/key_skills/commit/SKILL.md")
    editor = tabs.open_skill(path)
    assert editor is not None
    editor.document.text_document.setPlainText("---\nid: Broken Id\n---\n")
    editor.document.validate()
    registry = context.registry_for(path)
    assert registry is not None and registry.by_path[path].name == "Broken Id"
    shell.dialogs.save_answers = ["cancel", "discard"]
    tabs.close_current()
    assert path in tabs.editors and shell.dialogs.asked == ["save commit"]
    with qtbot.waitSignal(tabs.skill_closed) as closed:
        tabs.close_current()
    assert closed.args == [path] and tabs.editors == {} and shell.tabs.count() == 0
    assert registry.by_path[path].name == "commit", "the file on disk, unchanged"
    assert "Broken Id" not in Path(path).read_text()


def test_save_revert_and_a_file_of_a_skill(qtbot: QtBot, samples: Path) -> None:
    shell = Shell(qtbot)
    tabs = shell.documents(context_of(samples / "oasis"))
    path = samples / "oasis/key_skills/commit/SKILL.md"
    editor = tabs.open_skill(str(path))
    assert editor is not None
    editor.source.moveCursor(editor.source.textCursor().MoveOperation.End)
    editor.source.insertPlainText("\nSaved line.\n")
    assert tabs.save_current() and "Saved line." in path.read_text()
    editor.source.insertPlainText("Reverted line.\n")
    shell.dialogs.revert = False
    tabs.revert_current()
    assert "Reverted line." in editor.document.text()
    shell.dialogs.revert = True
    tabs.revert_current()
    assert "Reverted line." not in editor.document.text() and not editor.document.modified
    extra = samples / "oasis/key_skills/commit/notes.md"
    extra.write_text("# Notes\n")
    view = tabs.open_file(str(extra))
    assert isinstance(view, FileView) and tabs.file_views == {str(extra): view}
    assert tabs.open_file(str(extra.parent)) is editor  # a folder: its SKILL.md
    assert tabs.open_file(str(samples / "README.md")) is None  # no skill's file
    assert tabs.close_all() and shell.tabs.count() == 0


def test_a_change_on_disk_reads_the_tab_again_and_waits_a_turn_after_each(
    qtbot: QtBot, samples: Path
) -> None:
    shell = Shell(qtbot)
    tabs = shell.documents(context_of(samples / "oasis"))
    changed = samples / "oasis/key_skills/commit/SKILL.md"
    kept = samples / "oasis/key_skills/code-review/SKILL.md"
    unsaved = samples / "oasis/key_skills/write-tests/SKILL.md"
    for path in (changed, kept, unsaved):
        assert tabs.open_skill(str(path)) is not None
    tabs.editors[str(unsaved)].source.insertPlainText("typed ")
    changed.write_text(changed.read_text() + "\nChanged outside.\n")
    failed: list[str] = []
    steps = list(tabs.changed_on_disk([str(changed)], lambda path, _exc: failed.append(path)))
    assert steps == [True, True] and not failed  # the changed tab, then the unsaved one
    assert "Changed outside." in tabs.editors[str(changed)].document.text()
    assert "Changed outside." not in tabs.editors[str(kept)].document.text()


def test_reopened_tabs_keep_their_place_and_unsaved_text(qtbot: QtBot, samples: Path) -> None:
    shell = Shell(qtbot)
    context = context_of(samples / "agentskills")
    tabs = shell.documents(context)
    paths = sorted(str(p) for p in (samples / "agentskills").rglob("SKILL.md"))[:2]
    first = tabs.open_skill(paths[0])
    second = tabs.open_skill(paths[1])
    assert first is not None and second is not None
    first.source.insertPlainText("unsaved ")
    text = first.document.text()
    switched = context_of(samples / "agentskills", "claude-code")
    new = switched.registries[0]
    assert all(p in new.by_path for p in paths)
    old = context.replace(context.projects[0], switched.projects[0], new)
    assert old is not None
    tabs.reopen_tabs(old, new)
    reopened = tabs.editors[paths[0]]
    assert reopened is not first and reopened.document.registry is new
    assert (
        shell.tabs.indexOf(reopened) == 0 and shell.tabs.currentWidget() is tabs.editors[paths[1]]
    )
    assert reopened.document.text() == text and reopened.document.modified


def test_save_refuses_to_overwrite_an_external_change(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    editor = open_skill(editors, samples, "workspace/skills/repo-survey/SKILL.md")
    path = editor.document.path
    qtbot.keyClicks(editor.source, "mine ")
    Path(path).write_text("changed outside\n", encoding="utf-8")
    assert not editors.documents.save_current()
    assert Path(path).read_text(encoding="utf-8") == "changed outside\n"
    assert editor.message.isVisible() and "changed on disk" in editor.message.text()
    assert editor.document.text().startswith("mine ")  # the typed text is kept


def test_the_open_file_replaced_by_a_fifo_neither_hangs_nor_loses_the_text(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    root = tmp_path / "skills"
    skills = three_skills(root)
    win = open_window(qtbot, settings, root)
    assert win.watcher.ready.wait(10)
    editor = win.open_skill(str(skills["alpha"]))
    assert editor is not None
    editor.source.appendPlainText("Unsaved text.")
    unsaved = editor.document.text()
    fifo = skills["alpha"]
    fifo.unlink()
    os.mkfifo(fifo)
    # Were the app to read it, it would wait for a writer for ever: this one comes
    # after 10 s (so that the test ends either way) and writes a skill.
    unblock = threading.Timer(10, lambda: write_into(fifo))
    unblock.daemon = True
    unblock.start()
    try:
        stall = run_for(qtbot, 2.0)
        qtbot.waitUntil(editor.conflict_bar.isVisible, timeout=5000)
    finally:
        unblock.cancel()
    assert stall < 3.0, f"the window froze for {stall:.1f} s"
    assert "cannot be read" in editor.conflict_text.text()
    assert editor.document.text() == unsaved
    editor.keep_button.click()
    assert win.document_tabs.save_current()  # the FIFO is replaced, never written into
    assert fifo.is_file() and fifo.read_text(encoding="utf-8") == unsaved


def test_a_skill_larger_than_core_parses_is_not_opened_for_editing(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    root = tmp_path / "skills"
    huge = write_skill(root, "huge", "x\n")
    with open(huge, "r+b") as fh:
        fh.truncate(100 * 1024 * 1024)  # sparse: 100 MB to stat(), no disk used
    win = open_window(qtbot, settings, root)
    assert win.context.registry_for(str(huge)) is not None, "listed, with its diagnostic"
    assert win.open_skill(str(huge)) is None
    assert "Not opened" in win.statusBar().currentMessage()


def test_tabs_with_the_same_name_show_their_project(editors: Editors, qtbot: QtBot) -> None:
    reviews = sorted(p for r in editors.context.registries for p in r.by_path if "code-review" in p)
    mvp = next(p for p in reviews if "/mvp/" in p)
    pegasus = next(p for p in reviews if "/pegasus/" in p)
    editors.open_skill(mvp)
    assert editors.tabs.tabText(0) == "code-review"  # alone: no project needed
    editors.open_skill(pegasus)
    assert [editors.tabs.tabText(i) for i in range(2)] == [
        "code-review · mvp",
        "code-review · pegasus",
    ]
    button = editors.tabs.tabBar().tabButton(1, QTabBar.ButtonPosition.RightSide)
    assert isinstance(button, QToolButton) and button.text() == "×"
    button.click()  # the neutral close button closes its own tab
    assert editors.tabs.count() == 1
    assert editors.tabs.tabText(0) == "code-review"


def test_clean_document_reloads(window: MainWindow, samples: Path, qtbot: QtBot) -> None:
    path = skill_path(samples, "repo-survey")
    editor = open_tab(window, path)
    path.write_text(path.read_text() + "\nAdded outside.\n")
    qtbot.waitUntil(lambda: "Added outside." in editor.document.text(), timeout=WATCH_WAIT)
    assert not editor.conflict_bar.isVisible()


def test_modified_document_gets_the_bar_and_keeps_the_text(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    path = skill_path(samples, "safe-edit")
    editor = open_tab(window, path)
    qtbot.keyClicks(editor.source, "typed ")
    path.write_text("---\nname: safe-edit\ndescription: outside\n---\n")
    qtbot.waitUntil(editor.conflict_bar.isVisible, timeout=WATCH_WAIT)
    assert editor.document.text().startswith("typed ")
    assert not window.document_tabs.save_current()  # still a conflict until the user decides
    editor.keep_button.click()
    window.dialogs.ask_overwrite = lambda name, diff: "overwrite"  # type: ignore[method-assign]
    assert window.document_tabs.save_current()
    assert path.read_text().startswith("typed ")


def test_save_after_keep_mine_shows_the_change_on_disk_and_asks(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    """Keep mine, then Save, wrote over the other program's change with no word: Save
    shows the diff from the disk to the tab's text and asks; Cancel writes nothing,
    Reload takes the disk's text, Overwrite writes the tab's."""
    path = skill_path(samples, "safe-edit")
    editor = open_tab(window, path)
    asked: list[tuple[str, str]] = []
    answers: list[str] = []

    def ask(name: str, diff: str) -> str:
        asked.append((name, diff))
        return answers.pop(0)

    window.dialogs.ask_overwrite = ask  # type: ignore[method-assign]
    outside = "---\nname: safe-edit\ndescription: written by another program\n---\n"

    def conflict(typed: str, written: str) -> None:
        qtbot.keyClicks(editor.source, typed)
        path.write_text(written)
        qtbot.waitUntil(editor.conflict_bar.isVisible, timeout=WATCH_WAIT)
        editor.keep_button.click()

    conflict("typed ", outside)
    answers.append("cancel")
    assert not window.document_tabs.save_current()
    assert path.read_text() == outside and editor.document.text().startswith("typed ")
    ((name, diff),) = asked
    assert name == "safe-edit"
    assert "-description: written by another program" in diff and "+typed " in diff
    assert "Not saved" in editor.message.text() and editor.message.isVisible()
    answers.append("reload")
    assert not window.document_tabs.save_current()
    assert editor.document.text() == outside and not editor.document.modified
    conflict("mine ", outside + "\nAnd more.\n")
    answers.append("overwrite")
    assert window.document_tabs.save_current()
    saved = path.read_text()
    assert saved == editor.document.text() and "mine " in saved and "And more." not in saved
    assert len(asked) == 3 and "-And more." in asked[2][1]
    qtbot.keyClicks(editor.source, "later ")
    assert window.document_tabs.save_current() and len(asked) == 3  # asked once only


def test_keep_mine_over_a_change_undone_on_disk_saves_without_asking(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    """The other program put the file back as the tab read it: nothing would be lost."""
    path = skill_path(samples, "safe-edit")
    editor = open_tab(window, path)
    original = path.read_text()
    qtbot.keyClicks(editor.source, "typed ")
    path.write_text(original + "\nOutside.\n")
    qtbot.waitUntil(editor.conflict_bar.isVisible, timeout=WATCH_WAIT)
    editor.keep_button.click()
    assert not editor.conflict_bar.isVisible()
    path.write_text(original)
    qtbot.waitUntil(editor.conflict_bar.isVisible, timeout=WATCH_WAIT)  # changed again
    editor.keep_button.click()
    asked: list[str] = []

    def answer(name: str, diff: str) -> str:
        asked.append(diff)
        return "cancel"

    window.dialogs.ask_overwrite = answer  # type: ignore[method-assign]
    assert window.document_tabs.save_current()
    assert path.read_text().startswith("typed ") and asked == []


def test_a_file_deleted_or_replaced_while_open_keeps_the_typed_text(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    path = skill_path(samples, "safe-edit")
    editor = open_tab(window, path)
    qtbot.keyClicks(editor.source, "typed ")
    path.unlink()
    qtbot.waitUntil(editor.conflict_bar.isVisible, timeout=WATCH_WAIT)
    assert "deleted" in editor.conflict_text.text()
    assert editor.document.text().startswith("typed ")
    editor.keep_button.click()
    assert window.document_tabs.save_current()  # saving puts the file back with the typed text
    assert path.read_text().startswith("typed ")
    qtbot.waitUntil(lambda: not editor.document.modified, timeout=WATCH_WAIT)

    # Replaced by another program's atomic save (a new file moved over it).
    qtbot.keyClicks(editor.source, "again ")
    other = path.with_name("incoming.tmp")
    other.write_text("---\nname: safe-edit\ndescription: from elsewhere\n---\n")
    os.replace(other, path)
    qtbot.waitUntil(editor.conflict_bar.isVisible, timeout=WATCH_WAIT)
    assert editor.document.text().startswith("typed again ")
    assert (
        not window.document_tabs.save_current()
    )  # no silent overwrite of the other program's file
    assert "from elsewhere" in path.read_text()
    editor.reload_button.click()  # the user takes theirs
    assert "from elsewhere" in editor.document.text()


def test_a_tab_is_titled_by_the_name_the_tree_shows(qtbot: QtBot, tmp_path: Path) -> None:
    """The tab said `composition-patterns` (its folder) where the tree said the
    skill's name: both say the name `show` prints (core shown_name)."""
    repo = tmp_path / "repo"
    write(repo, ".claude-plugin/plugin.json", '{"name": "vercel"}\n')
    path = write(
        repo,
        "skills/composition-patterns/SKILL.md",
        skill_text(name="vercel-composition-patterns", description="Compose. Use when building."),
    )
    shell = Shell(qtbot)
    context = context_of(repo)
    tabs = shell.documents(context)
    assert tabs.open_skill(path) is not None
    shown = context.registries[0].by_path[path].name
    assert shown == "vercel:composition-patterns"
    assert shell.tabs.tabText(0) == shown


def test_where_it_loads_gets_the_editors_room_beside_try_a_request(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """At 1024x768 with Try a Request in use (two thirds of the height), a skill's
    Where it loads tab showed 1.5 rows of its 13 agents: choosing it gives the editor
    its room (as Back to the Editor does), and Try a Request's tab brings the panel's
    back."""
    win = open_window(qtbot, settings, samples / "claude-code", size=(1024, 768))
    paths = sorted(p for r in win.context.registries for p in r.by_path)
    editor = win.open_skill(paths[0])
    assert editor is not None
    win.menu_actions.query_action.trigger()  # Ctrl+K
    tall = 0.6 * 768
    qtbot.waitUntil(lambda: win.query_dock.height() >= tall, timeout=2000)
    tab = editor.findChild(WhereItLoads)
    assert tab is not None
    editor.views.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.table.rowCount() >= 10, timeout=5000)
    qtbot.waitUntil(lambda: whole_rows(tab.table) >= 8, timeout=2000)
    assert win.query_dock.isVisible()  # still in front, lower
    win.menu_actions.query_action.trigger()
    qtbot.waitUntil(lambda: win.query_dock.height() >= tall, timeout=2000)
    editor.views.setCurrentWidget(editor.form)  # another view asks nothing
    qtbot.wait(50)
    assert win.query_dock.height() >= tall


def test_an_unsaved_tab_validates_again_only_when_the_refresh_read_its_file(
    qtbot: QtBot, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every refresh validated each unsaved tab again, Problems and the tree updated
    with it: 20-40 ms of the GUI thread at 10,000 skills, for a file the refresh had
    not read (its skill, the tab's text, still the registry's). Now only when the
    registry holds another (a full walk read the file); its findings between skills
    are taken as they are now either way."""
    shell = Shell(qtbot)
    tabs = shell.documents(context_of(samples / "oasis"))
    changed = samples / "oasis/key_skills/commit/SKILL.md"
    unsaved = samples / "oasis/key_skills/write-tests/SKILL.md"
    editor = tabs.open_skill(str(unsaved))
    assert isinstance(editor, SkillEditor)
    document = editor.document
    document.text_document.setPlainText(document.text() + "\nTyped, not saved.\n")
    document.validate()
    registry = document.registry
    held = registry.by_path[str(unsaved)]
    assert held is document.installed
    reparsed: list[str | None] = []
    real = registry.reparse

    def counted(path: str, text: str | None = None, parsed: Any = None) -> Any:
        reparsed.append(text)
        return real(path, text, parsed)

    monkeypatch.setattr(registry, "reparse", counted)
    changed.write_text(changed.read_text() + "\nChanged outside.\n")
    registry.refresh([str(changed)])
    assert list(tabs.changed_on_disk([str(changed)], lambda _p, _e: None)) == [True]
    assert reparsed == [] and registry.by_path[str(unsaved)] is held
    registry.reparse(str(unsaved))  # the file read again (as a full walk does)
    reparsed.clear()
    assert list(tabs.changed_on_disk([str(changed)], lambda _p, _e: None)) == [True]
    assert reparsed == [document.text()]  # its text validated: the registry's truth again
    now = registry.by_path[str(unsaved)]
    assert now is document.installed and now is not held


def not_saved_over(window: MainWindow, qtbot: QtBot, path: Path) -> SkillEditor:
    """A tab of `path` with typed edits whose save was refused: the file changed on disk
    meanwhile (the yellow "Not saved: … changed on disk" bar shown)."""
    editor = open_tab(window, path)
    qtbot.keyClicks(editor.source, "typed ")
    path.write_text(path.read_text() + "\nWritten by another program.\n")
    qtbot.waitUntil(editor.conflict_bar.isVisible, timeout=WATCH_WAIT)
    assert not window.document_tabs.save_current()
    assert editor.message.isVisible() and "changed on disk" in editor.message.text()
    return editor


def test_revert_clears_the_not_saved_bar(window: MainWindow, samples: Path, qtbot: QtBot) -> None:
    editor = not_saved_over(window, qtbot, skill_path(samples, "sql-review"))
    window.dialogs.ask_revert = lambda name: True  # type: ignore[method-assign]
    window.menu_actions.revert_action.trigger()
    assert editor.document.text().endswith("Written by another program.\n")
    assert not editor.document.modified
    assert not editor.message.isVisible() and not editor.conflict_bar.isVisible()


def test_reload_clears_the_bar_of_a_tab_whose_text_the_disk_now_holds(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    """F5 after the disk came to hold the text on screen (the same fix made by
    `skillstudio lint --fix`): the tab is unmodified, its bars gone, its undo kept."""
    path = skill_path(samples, "sql-review")
    editor = not_saved_over(window, qtbot, path)
    path.write_bytes(editor.document.text().encode())
    window.reload()  # F5 (the watcher may be first: the same outcome)
    qtbot.waitUntil(lambda: not editor.document.modified, timeout=WATCH_WAIT)
    assert not editor.message.isVisible() and not editor.conflict_bar.isVisible()
    assert "•" not in window.tabs.tabText(window.tabs.indexOf(editor))
    assert editor.document.text_document.isUndoAvailable()  # not read again: undo kept
    assert window.document_tabs.save_current()  # and a save writes over nothing of another's


def test_the_modified_mark_follows_equality_with_the_saved_text(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    path = skill_path(samples, "sql-review")
    editor = open_tab(window, path)
    document = editor.document
    text = document.text()
    cursor = editor.source.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    cursor.insertText("é😀 more")  # a character outside the BMP counts two in Qt
    assert document.modified and "•" in window.tabs.tabText(window.tabs.indexOf(editor))
    for _ in range(len("é😀 more")):
        cursor.deletePreviousChar()  # an edit, not an undo, back to the text on disk
    assert document.text() == text
    assert not document.modified and "•" not in window.tabs.tabText(window.tabs.indexOf(editor))
    cursor.insertText("x")
    assert window.document_tabs.save_current() and not document.modified
    cursor.deletePreviousChar()  # away from the saved text, and back by undo
    assert document.modified
    document.text_document.undo()
    assert not document.modified and document.text() == text + "x"
