"""Tests of gui/controllers/refresh.py (The refresh after files change outside the app:
the registries (and Try a Request's indexes) are read again in slices between events,
so typing goes on during a burst)."""

from __future__ import annotations

import itertools
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from skillstudio.core.model.text import counted
from skillstudio.core.reading.skill_files import skill_body
from skillstudio.core.scanning.registry import Registry
from skillstudio.gui.controllers import refresh
from skillstudio.gui.controllers.refresh import SlicedRefresh, Synced
from skillstudio.gui.controllers.skill_views import SkillViews
from skillstudio.gui.controllers.tree_controller import SkillTree
from skillstudio.gui.editor.skill_editor import SkillEditor
from skillstudio.gui.models.app_context import AppContext
from skillstudio.gui.models.problems_model import ProblemsModel
from skillstudio.gui.models.skill_tree_model import SkillTreeModel
from skillstudio.gui.panels.problems_panel import ProblemsPanel
from skillstudio.gui.panels.skill_tree_view import SkillTreeView
from skillstudio.gui.window.main_window import MainWindow

from ... import hostile
from ...helpers import skill_text, write
from ..faults import STAGES, description, fail_for, problem_on, run_for, set_description, shown
from ..parts import (
    Shell,
    context_of,
    open_tab,
    open_window,
    skill_path,
    three_skills,
    write_skill,
)


class Index:
    """A stand-in index that notes each of its sync steps."""

    def __init__(self, registry: Registry, steps: list[str]) -> None:
        self.registry = registry
        self.steps = steps

    def sync_steps(self) -> Iterator[None]:
        self.steps.append("sync")
        yield


def refresher_for(shell: Shell, context: AppContext) -> tuple[SlicedRefresh, SkillViews, list[str]]:
    tree = SkillTree(
        SkillTreeView(lambda: context.base, shell.window),
        SkillTreeModel(shell.window),
        QLineEdit(shell.window),
        shell.window,
    )
    model = ProblemsModel(shell.window)
    views = SkillViews(context, tree, model, ProblemsPanel(model, shell.window), shell.status)
    views.refresh()
    steps: list[str] = []

    def indexes_of(registry: Registry) -> list[Synced]:
        return [Index(registry, steps)]

    documents = shell.documents(context)
    return SlicedRefresh(context, views, documents, indexes_of, shell.window), views, steps


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


def drop_each(qtbot: QtBot, win: MainWindow, mine: Path, neighbour: Path, staged: Path) -> None:
    root = mine.parent.parent
    entries = sorted(os.listdir(staged))
    assert win.watcher.ready.wait(10)
    editor = win.open_skill(str(mine))
    assert editor is not None
    editor.source.appendPlainText("Unsaved words ✓ that must survive.")
    unsaved = editor.document.text()
    stalls: dict[str, float] = {}
    for entry in entries:
        os.rename(staged / entry, root / entry)  # appears at once, as a drop does
        stalls[entry] = run_for(qtbot, 0.8)
        assert win.isVisible() and editor.document.text() == unsaved
        assert editor.document.modified
    print({name: f"{s * 1000:.0f} ms" for name, s in stalls.items()})
    worst = max(stalls, key=lambda name: stalls[name])
    assert stalls[worst] < 3.0, f"{worst!r} froze the window for {stalls[worst]:.1f} s"
    set_description(neighbour, "Changed after the hostile drops.")
    qtbot.waitUntil(lambda: "hostile drops" in description(win, neighbour), timeout=20_000)
    assert editor.document.text() == unsaved and shown(win, mine)


def _slices_of_a_refresh(
    window: MainWindow, paths: list[str], monkeypatch: pytest.MonkeyPatch
) -> dict[str, set[int]]:
    """Run a refresh of `paths` slice by slice with an unbounded time budget (so that
    only the refresh's own pauses end a slice): which slices each piece ran in."""
    from skillstudio.gui.controllers import refresh

    monkeypatch.setattr(refresh, "REFRESH_SLICE_S", 1000.0)
    seen: dict[str, set[int]] = {}
    slice_number = [0]

    def noted(label: str, real: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            seen.setdefault(label, set()).add(slice_number[0])
            return real(*args, **kwargs)

        return run

    registry = window.context.registry_for(paths[0])
    assert registry is not None
    for name in ("_set", "_swap"):  # the install of the re-read skills
        monkeypatch.setattr(registry, name, noted("install", getattr(registry, name)))
    tree = window.tree_model  # its rows' update (a sync with nothing to do is not one)
    monkeypatch.setattr(tree, "_rows_changed", noted("tree", tree._rows_changed))
    monkeypatch.setattr(
        window.views, "update_problems", noted("problems", window.views.update_problems)
    )
    window.refresher.pending.update(paths)
    window.refresher.start()  # the first slice
    while window.refresher.job is not None:
        slice_number[0] += 1
        window.refresher.run_slice()
    return seen


WATCH_WAIT = 5000


def test_a_change_on_disk_is_read_again_with_the_views_and_indexes(
    qtbot: QtBot, samples: Path
) -> None:
    shell = Shell(qtbot)
    context = context_of(samples / "oasis")
    refresher, views, steps = refresher_for(shell, context)
    path = samples / "oasis/key_skills/commit/SKILL.md"
    editor = refresher.documents.open_skill(str(path))
    assert editor is not None
    assert not any(d.path == str(path) for d in views.problems_model.shown())
    path.write_text(path.read_text().replace("id: commit", "id: Commit Bad"))
    with qtbot.waitSignal(refresher.finished, timeout=10_000):
        refresher.changed([str(path)])
    assert refresher.job is None and steps == ["sync"]
    registry = context.registry_for(str(path))
    assert registry is not None and registry.by_path[str(path)].name == "Commit Bad"
    assert any(d.path == str(path) for d in views.problems_model.shown())
    assert "Commit Bad" in editor.document.text(), "its open tab read it again"


def test_a_failing_refresh_is_said_in_problems_and_forgotten_when_it_reads_again(
    qtbot: QtBot, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shell = Shell(qtbot)
    context = context_of(samples / "oasis")
    refresher, views, _steps = refresher_for(shell, context)
    path = str(samples / "oasis/key_skills/commit/SKILL.md")
    registry = context.registries[0]

    def broken(paths: list[str]) -> Iterator[None]:
        raise RuntimeError("a core bug")
        yield

    monkeypatch.setattr(registry, "refresh_steps", broken)
    with qtbot.waitSignal(refresher.finished, timeout=10_000):
        refresher.changed([path])
    assert [d.code for d in views.failures] == ["internal"] and views.failures[0].path == path
    assert any(d.code == "internal" for d in views.problems_model.shown())
    monkeypatch.undo()
    with qtbot.waitSignal(refresher.finished, timeout=10_000):
        refresher.changed([path])
    assert views.failures == []
    assert not any(d.code == "internal" for d in views.problems_model.shown())


def test_reload_reads_every_registry_and_the_unsaved_tabs_stay(qtbot: QtBot, samples: Path) -> None:
    shell = Shell(qtbot)
    context = context_of(samples / "oasis")
    refresher, views, _steps = refresher_for(shell, context)
    saved = samples / "oasis/key_skills/commit/SKILL.md"
    unsaved = samples / "oasis/key_skills/code-review/SKILL.md"
    kept = refresher.documents.open_skill(str(unsaved))
    read = refresher.documents.open_skill(str(saved))
    assert kept is not None and read is not None
    kept.source.insertPlainText("typed ")
    for path in (saved, unsaved):
        path.write_text(path.read_text() + "\nChanged outside.\n")
    refresher.reload()
    assert "Changed outside." in read.document.text()
    assert "typed " in kept.document.text() and "Changed outside." not in kept.document.text()
    registry = context.registries[0]
    assert "Changed outside." in skill_body(registry.by_path[str(saved)])
    assert views.status_bar.currentMessage().startswith("4 skills")


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
    context = context_of(samples / "oasis")
    refresher, views, _steps = refresher_for(shell, context)
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
    registry = context.registries[0]
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
    context = context_of(samples / "oasis")
    refresher, views, _steps = refresher_for(shell, context)
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
    registry = context.registries[0]
    codes = {d.code for d in registry.by_path[closed].all_diagnostics}
    assert "frontmatter-missing" not in codes
    assert "Changed on disk." in skill_body(registry.by_path[closed])
    assert not [d for d in views.problems_model.shown() if d.code == "frontmatter-missing"]


def test_an_error_on_one_tab_is_said_on_it_and_the_rest_refreshes(
    qtbot: QtBot, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shell = Shell(qtbot)
    context = context_of(samples / "oasis")
    refresher, views, _steps = refresher_for(shell, context)
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
    registry = context.registries[0]
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
    context = context_of(samples)
    refresher, views, _steps = refresher_for(shell, context)
    failing, other = skill(samples, "commit"), skill(samples, "code-review", "mvp/skills")
    broken = context.registry_for(failing)
    fine = context.registry_for(other)
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
    context = context_of(samples / "oasis")
    refresher, _views, _steps = refresher_for(shell, context)
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
    context = context_of(samples / "oasis")
    documents = shell.documents(context)
    path = skill(samples, "code-review")
    editor = documents.open_skill(path)
    assert editor is not None
    editor.source.insertPlainText("Unsaved. ")
    old = context.registries[0]
    new = context.projects[0].registry()
    new.scan()
    os.remove(path)
    documents.reopen_tabs(old, new)
    assert documents.editors.get(path) is editor and shell.tabs.indexOf(editor) == 0
    assert editor.document.text().startswith("Unsaved. ")


@pytest.mark.parametrize("stage", list(STAGES))
def test_a_failure_in_one_skill_keeps_the_tree_and_the_watcher(
    qtbot: QtBot,
    settings: QSettings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    stage: str,
) -> None:
    root = tmp_path / "skills"
    skills = three_skills(root)
    win = open_window(qtbot, settings, root)
    assert win.watcher.ready.wait(10)
    fail_for(monkeypatch, stage, skills["beta"])
    set_description(skills["beta"], "Changed, and the app fails on it.")
    qtbot.waitUntil(lambda: problem_on(win, skills["beta"]) is not None, timeout=10_000)
    assert shown(win, skills["alpha"]) and shown(win, skills["gamma"])
    set_description(skills["gamma"], "Changed later: still picked up.")
    qtbot.waitUntil(lambda: "still picked up" in description(win, skills["gamma"]), timeout=10_000)
    assert shown(win, skills["alpha"]) and shown(win, skills["gamma"])


# Where watchdog walks the 1,000-deep case itself (its os.walk, off Linux) it ends its
# thread (RecursionError, printed by Python); the app's health check notices and
# watches again. On Linux the pruned watch walks it within bounds.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_hostile_files_dropped_into_an_open_modified_window(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """Each case of the hostile generator, moved into a watched folder while a tab
    holds unsaved text: the window stays responsive, the text intact, and the
    watcher still sees a later change."""
    root = tmp_path / "skills"
    mine = write_skill(root, "editing", "Being edited.\n")
    neighbour = write_skill(root, "neighbour", "A normal skill.\n")
    staged = Path(hostile.make(str(tmp_path / "staging")))
    assert len(os.listdir(staged)) >= len(hostile.CASES)  # one entry per case
    win = open_window(qtbot, settings, root)
    try:
        drop_each(qtbot, win, mine, neighbour, staged)
    finally:
        win.watcher.stop()
        hostile.remove(str(tmp_path))  # pytest's own clean-up recurses per level


def test_a_refresh_lets_events_in_after_each_tab_it_reads_again(
    window: MainWindow, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each tab re-read after files changed updates Problems and the tree (10-30 ms
    at 10,000 skills); on main they and the views' update ran in one slice."""
    paths = [str(samples / f"oasis/key_skills/{n}/SKILL.md") for n in ("commit", "code-review")]
    events: list[str] = []
    for path in paths:
        editor = window.open_skill(path)
        assert editor is not None
        monkeypatch.setattr(editor.document, "on_disk_changed", lambda: events.append("tab"))
    monkeypatch.setattr(window.views, "refresh", lambda rebuild=True: events.append("views"))
    for _ in window.refresher.steps(paths):
        events.append("yield")
    assert events[events.index("views") - 1 :].count("tab") == 0  # after the tabs
    assert events.count("tab") == 2
    assert [events[n + 1] for n, e in enumerate(events) if e == "tab"] == ["yield", "yield"]


def test_a_refresh_installs_updates_the_tree_and_problems_in_slices_of_their_own(
    window: MainWindow, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 10,000 skills the last slice of a 1,000-file burst held the event loop for
    80-105 ms on main: the registry's install (35 ms), the match index's sync (10),
    the tree's update (15) and Problems' (10) in one slice. Each gets its own."""
    window.watcher.stop()  # the slices one by one, from here
    paths = [str(samples / f"oasis/key_skills/{n}/SKILL.md") for n in ("commit", "code-review")]
    for path in paths:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("\nChanged outside.\n")
    seen = _slices_of_a_refresh(window, paths, monkeypatch)
    install, tree, problems = seen["install"], seen["tree"], seen["problems"]
    assert len(install) == len(tree) == len(problems) == 1
    assert min(install) < min(tree) < min(problems)
    registry = window.context.registry_for(paths[0])
    assert registry is not None
    assert all("Changed outside." in skill_body(registry.by_path[p]) for p in paths)


def test_refresh_slices_leave_timers_their_turn_between_them(
    window: MainWindow, samples: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """QTimer.singleShot(0) is a posted call: Qt ran two slices back to back before
    a timer (or the user's input) got its turn, so a 15 ms slice stalled 30 ms. The
    next slice is a zero timer's: each slice is followed by the other timers."""
    from PySide6.QtCore import QTimer

    from skillstudio.gui.controllers import refresh

    monkeypatch.setattr(refresh, "REFRESH_SLICE_S", 0.0)  # one file a slice
    window.watcher.stop()
    events: list[str] = []
    run_slice = window.refresher.run_slice

    def counted(seconds: float | None = None) -> None:
        events.append("slice")
        run_slice(seconds)

    monkeypatch.setattr(window.refresher, "run_slice", counted)
    beat = QTimer()
    beat.setInterval(0)
    beat.timeout.connect(lambda: events.append("beat"))
    paths = [str(p) for p in sorted(samples.rglob("SKILL.md"))[:8]]
    for path in paths:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("\nChanged outside.\n")
    beat.start()
    window.refresher.changed(paths)
    qtbot.waitUntil(lambda: window.refresher.job is None, timeout=10_000)
    beat.stop()
    slices = [n for n, e in enumerate(events) if e == "slice"]
    assert len(slices) >= len(paths)
    assert all(b - a > 1 for a, b in itertools.pairwise(slices)), events


def test_the_skills_read_again_are_freed_in_steps_after_the_views(
    window: MainWindow, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Freeing 1,000 re-read skills took 15-20 ms in the view that held them last
    (the tree's update, 45 ms with its repaint): the refresh holds them until every
    view is updated, then lets them go RELEASE_STEP at a time."""
    from skillstudio.gui.controllers import refresh

    monkeypatch.setattr(refresh, "RELEASE_STEP", 1)
    window.watcher.stop()
    names = ("commit", "code-review", "write-tests")
    paths = [str(samples / f"oasis/key_skills/{n}/SKILL.md") for n in names]
    registry = window.context.registry_for(paths[0])
    assert registry is not None
    old = [registry.by_path[p] for p in paths]
    for path in paths:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("\nChanged outside.\n")
    events: list[str] = []
    views = window.views.refresh

    def noted(rebuild: bool = True) -> None:
        views(rebuild)
        events.append("views")

    monkeypatch.setattr(window.views, "refresh", noted)
    held = []
    for _ in window.refresher.steps(paths):
        held.append(sum(sys.getrefcount(skill) for skill in old))
        events.append("step")
    after = events.index("views")
    assert all(registry.by_path[p] is not s for p, s in zip(paths, old, strict=True))
    # Still held by the refresh when the views were updated, then freed one a step.
    released = held[after - 1 :]
    assert len(released) >= len(old) + 1
    assert released[0] - released[-1] == len(old)


def test_external_edit_updates_problems(window: MainWindow, samples: Path, qtbot: QtBot) -> None:
    path = skill_path(samples, "sql-review")
    path.write_text(path.read_text().replace("name: sql-review", "name: SQL_Review"))
    qtbot.waitUntil(lambda: window.problems_model.counts()["error"] >= 2, timeout=WATCH_WAIT)


def test_new_and_deleted_skills_appear_and_vanish(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    folder = samples / "mvp/skills/brand-new"
    folder.mkdir()
    (folder / "SKILL.md").write_text("---\nname: brand-new\ndescription: d\n---\nbody\n")
    qtbot.waitUntil(
        lambda: "51" not in window.statusBar().currentMessage().split(" skills")[0],
        timeout=WATCH_WAIT,
    )
    assert window.statusBar().currentMessage().startswith("52 skills")
    (folder / "SKILL.md").unlink()
    qtbot.waitUntil(
        lambda: window.statusBar().currentMessage().startswith("51 skills"), timeout=WATCH_WAIT
    )


def test_loaded_and_refreshed_skills_are_kept_out_of_the_collectors_walks(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    import gc

    def walked() -> set[int]:  # objects a full collection would traverse
        return {id(obj) for obj in gc.get_objects()}

    registry = window.context.registries[-1]  # built last: no later scan froze it by the way
    index = window.context.match_index(registry)
    ids = walked()
    assert id(registry.skills[0]) not in ids and id(index.terms) not in ids
    assert id(window.tree_model) not in ids
    path = skill_path(samples, "repo-survey")
    before = next(s for r in window.context.registries for s in r.skills if s.path == str(path))
    path.write_text(path.read_text() + "\nAdded outside.\n")
    qtbot.waitUntil(
        lambda: (
            next(s for r in window.context.registries for s in r.skills if s.path == str(path))
            is not before
        ),
        timeout=WATCH_WAIT,
    )
    # installed mid-refresh; frozen at its end (under load the check came in between)
    qtbot.waitUntil(lambda: window.refresher.job is None, timeout=WATCH_WAIT)
    after = next(s for r in window.context.registries for s in r.skills if s.path == str(path))
    assert id(after) not in walked()
    gc.unfreeze()  # the other tests start from the collector's usual state


def test_a_burst_of_changes_is_taken_in_slices_and_typing_goes_on(
    window: MainWindow, samples: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillstudio.gui.controllers import refresh

    monkeypatch.setattr(refresh, "REFRESH_SLICE_S", 0.0)  # one file a slice
    editor = open_tab(window, skill_path(samples, "repo-survey"))
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
    qtbot.waitUntil(lambda: len(slices) > 3 and window.refresher.job is None, timeout=WATCH_WAIT)
    qtbot.waitUntil(
        lambda: window.refresher.job is None and not window.refresher.pending, timeout=WATCH_WAIT
    )
    assert len(slices) >= len(others)  # the refresh came back to the event loop each file
    registry = editor.document.registry
    for path in others:
        skill = next(
            r.by_path[str(path)] for r in window.context.registries if str(path) in r.by_path
        )
        assert "Changed in the burst." in skill_body(skill)
    # The registry holds the text on screen (no frontmatter at the top now), not the disk's.
    assert editor.document.text().startswith("typed during the refresh ")
    codes = {d.code for d in registry.by_path[editor.document.path].diagnostics}
    assert "frontmatter-missing" in codes


# -- a skill's own files changed outside the app (a first-time reviewer's steps) ------------
SCRIPT = "skills/comments/scripts/fetch_comments.py"


def missing_script(tmp_path: Path) -> Path:
    """A folder of two skills; `comments`' body names a script it does not hold."""
    base = tmp_path / "project"
    body = "# Comments\n\n- Run scripts/fetch_comments.py, which prints the review threads.\n"
    write(
        base,
        "skills/comments/SKILL.md",
        skill_text(name="comments", description="d c.", _body=body),
    )
    write(base, "skills/other/SKILL.md", skill_text(name="other", description="Plan a trip."))
    return base


def reference_missing(win: MainWindow) -> int:
    return sum(1 for d in win.problems_model.shown() if d.code == "reference-missing")


def test_a_file_the_body_names_added_outside_clears_problems_and_the_status_bar(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    base = missing_script(tmp_path)
    win = open_window(qtbot, settings, base)
    assert win.watcher.ready.wait(10)
    warnings = win.problems_model.all_counts()["warning"]
    assert reference_missing(win) == 1
    assert counted(warnings, "warning") in win.statusBar().currentMessage()
    write(base, SCRIPT, "print('comments')\n")  # no tab open on the skill
    qtbot.waitUntil(lambda: reference_missing(win) == 0, timeout=WATCH_WAIT)
    assert win.problems_model.all_counts().get("warning", 0) == warnings - 1
    assert counted(warnings - 1, "warning") in win.statusBar().currentMessage()
    os.remove(base / SCRIPT)  # and the reverse
    qtbot.waitUntil(lambda: reference_missing(win) == 1, timeout=WATCH_WAIT)
    assert counted(warnings, "warning") in win.statusBar().currentMessage()


def test_reload_reads_again_a_skill_whose_files_changed_unwatched(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    base = missing_script(tmp_path)
    win = open_window(qtbot, settings, base)
    win.watcher.stop()  # as where the watches could not be set up: F5 is the way
    assert reference_missing(win) == 1
    write(base, SCRIPT, "print('comments')\n")
    win.reload()
    assert reference_missing(win) == 0
    shutil.rmtree(base / "skills/comments/scripts")
    win.reload()
    assert reference_missing(win) == 1
