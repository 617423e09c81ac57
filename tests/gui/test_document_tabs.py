"""DocumentTabs on its own: tabs of skills and files over a workspace, saving, closing
with unsaved work, revert, changes on disk and a profile switch's reopened tabs."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from skillstudio.gui.editor.file_view import FileView
from skillstudio.gui.editor.skill_editor import SkillEditor

from .parts import Shell, workspace_of


def test_a_skill_opens_once_titled_by_its_folder_and_marked_when_unsaved(
    qtbot: QtBot, samples: Path
) -> None:
    shell = Shell(qtbot)
    workspace = workspace_of(samples / "oasis")
    tabs = shell.documents(workspace)
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
    workspace = workspace_of(samples / "oasis")
    tabs = shell.documents(workspace)
    path = str(samples / "oasis/key_skills/commit/SKILL.md")
    editor = tabs.open_skill(path)
    assert editor is not None
    editor.document.text_document.setPlainText("---\nid: Broken Id\n---\n")
    editor.document.validate()
    registry = workspace.registry_for(path)
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
    tabs = shell.documents(workspace_of(samples / "oasis"))
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
    tabs = shell.documents(workspace_of(samples / "oasis"))
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
    workspace = workspace_of(samples / "agentskills")
    tabs = shell.documents(workspace)
    paths = sorted(str(p) for p in (samples / "agentskills").rglob("SKILL.md"))[:2]
    first = tabs.open_skill(paths[0])
    second = tabs.open_skill(paths[1])
    assert first is not None and second is not None
    first.source.insertPlainText("unsaved ")
    text = first.document.text()
    switched = workspace_of(samples / "agentskills", "claude-code")
    new = switched.registries[0]
    assert all(p in new.by_path for p in paths)
    old = workspace.replace(workspace.projects[0], switched.projects[0], new)
    assert old is not None
    tabs.reopen_tabs(old, new)
    reopened = tabs.editors[paths[0]]
    assert reopened is not first and reopened.document.registry is new
    assert (
        shell.tabs.indexOf(reopened) == 0 and shell.tabs.currentWidget() is tabs.editors[paths[1]]
    )
    assert reopened.document.text() == text and reopened.document.modified
