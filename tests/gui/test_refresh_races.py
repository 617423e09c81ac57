"""A refresh runs in slices with events between them (a git checkout rewrites many
files at once): what a tab does meanwhile, a file that vanishes and comes back, and
an unexpected error, contained to the file or project it concerns (issue 34, item 8:
"Refreshing after a change to .git failed: IndexError" and a tab gone)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from skillstudio.core.reading.skill_files import skill_body
from skillstudio.gui.controllers import refresh
from skillstudio.gui.editor.skill_editor import SkillEditor
from skillstudio.gui.infra.file_watcher import FileWatcher, in_git

from .parts import Shell, workspace_of
from .test_refresh import refresher_for

WAIT = 10_000


def skill(samples: Path, name: str, project: str = "oasis/key_skills") -> str:
    return str(samples / project / name / "SKILL.md")


def changed_on_disk(*paths: str) -> None:
    for path in paths:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("\nChanged on disk.\n")


def replace_text(editor: SkillEditor, text: str) -> None:
    cursor = QTextCursor(editor.document.text_document)
    cursor.select(QTextCursor.SelectionType.Document)
    cursor.insertText(text)


def internal(editor: SkillEditor) -> list[str]:
    return [d.message for d in editor.document.diagnostics if d.code == "internal"]


@pytest.fixture
def one_file_a_slice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each step of a refresh in a slice of its own: events come in after each."""
    monkeypatch.setattr(refresh, "REFRESH_SLICE_S", 0.0)


@pytest.mark.usefixtures("one_file_a_slice")
def test_a_tab_validated_between_the_slices_of_a_walk_stays_valid(
    qtbot: QtBot, samples: Path
) -> None:
    """A checkout changed a file outside every skill (the refresh walks every root) and
    one skill; the open tab's text was validated while the walk read on (typing, or a
    save's validation landing). The registry listed the skill the walk had seen and
    held the tab's in `by_path`: every later validation of the tab failed with
    'SkillStudio failed on this text: ValueError: ... is not in list'."""
    shell = Shell(qtbot)
    workspace = workspace_of(samples / "oasis")
    refresher, views, _steps = refresher_for(shell, workspace)
    opened = skill(samples, "code-review")  # walked past before the file that changed
    editor = refresher.documents.open_skill(opened)
    assert editor is not None
    changed_on_disk(skill(samples, "write-tests"))
    (samples / "oasis/NOTES.md").write_text("Checked out.\n")  # outside every skill: a walk
    with qtbot.waitSignal(refresher.finished, timeout=WAIT):
        refresher.changed([str(samples / "oasis/NOTES.md"), skill(samples, "write-tests")])
        assert refresher.job is not None, "the walk is half done"
        text = editor.document.text()
        replace_text(editor, text.replace("description: ", "description: Typed. ", 1))
        editor.document.validate()  # what its timer does 120 ms after a key
    registry = workspace.registries[0]
    assert internal(editor) == []
    assert registry.by_path[opened] in registry.skills
    replace_text(editor, editor.document.text().replace("Typed.", "Typed on.", 1))
    editor.document.validate()
    assert internal(editor) == []
    assert registry.by_path[opened].description.startswith("Typed on.")
    assert not [d for d in views.problems_model.shown() if d.code == "internal"]


@pytest.mark.usefixtures("one_file_a_slice")
def test_a_tab_closed_while_the_refresh_waits_leaves_the_registry_on_the_file(
    qtbot: QtBot, samples: Path
) -> None:
    """The refresh took the open tabs when it began; one closed (its draft discarded)
    before its turn came. Its text was validated into the registry all the same:
    Problems showed the errors of a text no longer anywhere."""
    shell = Shell(qtbot)
    workspace = workspace_of(samples / "oasis")
    refresher, views, _steps = refresher_for(shell, workspace)
    documents = refresher.documents
    first, closed = skill(samples, "code-review"), skill(samples, "write-tests")
    kept = documents.open_skill(first)
    draft = documents.open_skill(closed)
    assert kept is not None and draft is not None
    replace_text(draft, "A discarded draft without its frontmatter.\n")
    changed_on_disk(first, closed)
    refresher.changed([first, closed])
    while "Changed on disk." not in kept.document.text():  # the first tab's turn
        assert refresher.job is not None
        refresher.timer.stop()
        refresher.run_slice()
    shell.dialogs.save_answers.append("discard")
    documents.close_tab(shell.tabs.indexOf(draft))
    with qtbot.waitSignal(refresher.finished, timeout=WAIT):
        refresher.run_slice()
    registry = workspace.registries[0]
    codes = {d.code for d in registry.by_path[closed].all_diagnostics}
    assert "frontmatter-missing" not in codes
    assert "Changed on disk." in skill_body(registry.by_path[closed])
    assert not [d for d in views.problems_model.shown() if d.code == "frontmatter-missing"]


def test_an_error_on_one_tab_is_said_on_it_and_the_rest_refreshes(
    qtbot: QtBot, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shell = Shell(qtbot)
    workspace = workspace_of(samples / "oasis")
    refresher, views, _steps = refresher_for(shell, workspace)
    failing, other = skill(samples, "code-review"), skill(samples, "write-tests")
    broken = refresher.documents.open_skill(failing)
    reloaded = refresher.documents.open_skill(other)
    assert broken is not None and reloaded is not None
    before = broken.document.text()

    def index_error() -> None:
        raise IndexError("list index out of range")

    monkeypatch.setattr(broken.document, "on_disk_changed", index_error)
    changed_on_disk(failing, other)
    with qtbot.waitSignal(refresher.finished, timeout=WAIT):
        refresher.changed([failing, other])
    assert "Changed on disk." in reloaded.document.text(), "the other tab read its file"
    assert shell.tabs.count() == 2 and broken.document.text() == before, "the tab stays"
    assert "IndexError" in broken.message.text() and not broken.message.isHidden()
    assert [(d.path, d.code) for d in views.failures] == [(failing, "internal")]
    assert "code-review/SKILL.md" in views.failures[0].message
    registry = workspace.registries[0]
    assert all("Changed on disk." in skill_body(registry.by_path[p]) for p in (failing, other))
    monkeypatch.undo()
    changed_on_disk(failing)
    with qtbot.waitSignal(refresher.finished, timeout=WAIT):
        refresher.changed([failing])
    assert views.failures == [] and "Changed on disk." in broken.document.text()


def test_an_error_in_one_project_is_said_on_its_file_and_the_others_refresh(
    qtbot: QtBot, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shell = Shell(qtbot)
    workspace = workspace_of(samples)
    refresher, views, _steps = refresher_for(shell, workspace)
    failing, other = skill(samples, "commit"), skill(samples, "code-review", "mvp/skills")
    broken = workspace.registry_for(failing)
    fine = workspace.registry_for(other)
    assert broken is not None and fine is not None and broken is not fine

    def index_error(paths: list[str]) -> object:
        raise IndexError("list index out of range")
        yield

    monkeypatch.setattr(broken, "refresh_steps", index_error)
    changed_on_disk(failing, other)
    with qtbot.waitSignal(refresher.finished, timeout=WAIT):
        refresher.changed([failing, other])
    assert "Changed on disk." in skill_body(fine.by_path[other])
    assert [(d.path, d.code) for d in views.failures] == [(failing, "internal")]
    message = views.failures[0].message
    assert message.startswith("Reading commit/SKILL.md again failed: IndexError")
    assert any(d.code == "internal" for d in views.problems_model.shown())


@pytest.mark.usefixtures("one_file_a_slice")
def test_a_file_deleted_and_written_again_keeps_its_tab_which_says_so_meanwhile(
    qtbot: QtBot, samples: Path
) -> None:
    """A checkout deletes a file and writes it anew. The tab stays through it, says
    the file is gone while it is, and no longer once it is back."""
    shell = Shell(qtbot)
    workspace = workspace_of(samples / "oasis")
    refresher, _views, _steps = refresher_for(shell, workspace)
    clean_path, edited_path = skill(samples, "code-review"), skill(samples, "write-tests")
    clean = refresher.documents.open_skill(clean_path)
    edited = refresher.documents.open_skill(edited_path)
    assert clean is not None and edited is not None
    clean_text, saved = (Path(p).read_text(encoding="utf-8") for p in (clean_path, edited_path))
    edited.source.moveCursor(QTextCursor.MoveOperation.End)
    edited.source.insertPlainText("Typed, not saved.\n")
    for path in (clean_path, edited_path):
        os.remove(path)
    with qtbot.waitSignal(refresher.finished, timeout=WAIT):
        refresher.changed([clean_path, edited_path])
    assert shell.tabs.count() == 2
    for editor in (clean, edited):
        assert not editor.conflict_bar.isHidden() and "deleted" in editor.conflict_text.text()
    assert edited.document.text().endswith("Typed, not saved.\n")
    Path(clean_path).write_text(clean_text + "Back.\n", encoding="utf-8")
    Path(edited_path).write_text(saved, encoding="utf-8")  # as the tab saw it last
    with qtbot.waitSignal(refresher.finished, timeout=WAIT):
        refresher.changed([clean_path, edited_path])
    assert clean.document.text().endswith("Back.\n") and clean.conflict_bar.isHidden()
    assert edited.document.text().endswith("Typed, not saved.\n") and edited.document.modified
    assert edited.conflict_bar.isHidden(), "the file is back as the tab knows it"
    assert shell.tabs.count() == 2


def test_a_tab_whose_file_is_missing_when_its_project_is_read_again_stays(
    qtbot: QtBot, samples: Path
) -> None:
    """A project read as another profile opens its tabs again; one whose file a
    checkout had just deleted closed with its unsaved text."""
    shell = Shell(qtbot)
    workspace = workspace_of(samples / "oasis")
    documents = shell.documents(workspace)
    path = skill(samples, "code-review")
    editor = documents.open_skill(path)
    assert editor is not None
    editor.source.insertPlainText("Unsaved. ")
    old = workspace.registries[0]
    new = workspace.projects[0].registry()
    new.scan()
    os.remove(path)
    documents.reopen_tabs(old, new)
    assert documents.editors.get(path) is editor and shell.tabs.indexOf(editor) == 0
    assert editor.document.text().startswith("Unsaved. ")


def test_git_s_own_files_send_no_refresh(qtbot: QtBot, tmp_path: Path) -> None:
    """Every git command rewrites files in .git (a checkout of one file: the index, its
    lock, the logs); none is read by a scan, and each sent the refresh on a walk of
    every root. What the checkout changes in the working tree still comes."""
    folder = tmp_path / "repo"
    (folder / "skills/a").mkdir(parents=True)
    (folder / ".git/logs").mkdir(parents=True)
    watcher = FileWatcher(debounce_ms=50)
    watcher.watch([str(folder)], wait=True)
    seen: list[str] = []
    watcher.skills_changed.connect(seen.extend)
    (folder / ".git/index.lock").write_text("index")
    os.replace(folder / ".git/index.lock", folder / ".git/index")
    (folder / ".git/logs/HEAD").write_text("checkout")
    (folder / "skills/a/SKILL.md").write_text("---\nname: a\ndescription: d\n---\n")
    qtbot.waitUntil(lambda: str(folder / "skills/a/SKILL.md") in seen, timeout=WAIT)
    qtbot.wait(200)  # anything later in the same burst
    watcher.stop()
    assert seen and not [p for p in seen if ".git" in p]
    # A folder opened inside a folder that happens to be named .git is watched as usual.
    assert not in_git("/x/.git/skills/a/SKILL.md", ["/x/.git/skills"])
    assert in_git("/x/sub/.git", ["/x"]) and not in_git("/x/sub/.gitignore", ["/x"])
