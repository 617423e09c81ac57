"""Tests of gui/controllers/project_profiles.py (The profile a project is read as, chosen
per project (its context menu in the tree, or the status-bar box, which follows the
current project). Switching rescans that project only and keeps the open tabs, their
unsaved text included)."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QDialog,
    QMenu,
    QProgressBar,
)
from pytestqt.qtbot import QtBot

from skillstudio.core.ranking.match_index import MatchIndex
from skillstudio.gui.controllers.project_profiles import ProjectProfiles, project_status
from skillstudio.gui.controllers.scan_controller import Scanning
from skillstudio.gui.models.app_context import AppContext
from skillstudio.gui.window.main_window import MainWindow

from ..parts import (
    WINDOW_SIZE,
    Shell,
    context_of,
    open_and_wait,
    open_window,
)


def profiles_for(
    shell: Shell, context: AppContext, at: list[str]
) -> tuple[ProjectProfiles, list[list[MatchIndex]]]:
    """`at[0]`: the path the user is at."""
    scans = Scanning(context, QProgressBar(shell.window), shell.status, shell.window)
    shown: list[list[MatchIndex]] = []
    profiles = ProjectProfiles(
        context,
        scans,
        shell.documents(context),
        shell.dialogs,
        lambda: at[0],
        shown.append,
        shell.window,
    )
    return profiles, shown


def notes_folder(tmp_path: Path) -> Path:
    base = tmp_path / "notes"
    folder = base / ".agents" / "skills" / "pdf-forms"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: pdf-forms\ndescription: Fill in PDF forms. Use for PDF form work.\n---\n\n"
        "# PDF forms\n\nSteps.\n",
        encoding="utf-8",
    )
    return base


def unnamed(folder: Path) -> Path:
    """`folder` with the `profile:` line of its skillstudio.yaml taken out: a file that
    names a profile is followed (issue 39), the folder's choice is kept where none does."""
    config = folder / "skillstudio.yaml"
    lines = config.read_text().splitlines(keepends=True)
    config.write_text("".join(line for line in lines if not line.startswith("profile:")))
    return folder


def test_profile_switcher_reads_the_folder_as_another_profile(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    unnamed(samples / "agentskills")
    open_and_wait(qtbot, window, str(samples / "agentskills"))
    assert window.statusBar().currentMessage().endswith("agentskills")
    index = window.profile_box.findData("mvp")
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        window.profile_box.setCurrentIndex(index)
    assert [p.profile.name for p in window.context.projects] == ["mvp"]
    assert window.statusBar().currentMessage().endswith("mvp")
    open_and_wait(qtbot, window, str(samples / "oasis"))
    assert window.profile_box.currentData() == "", "another folder starts on auto"
    open_and_wait(qtbot, window, str(samples / "agentskills"))
    assert window.profile_box.currentData() == "mvp", "the folder's choice is kept (issue 30)"
    (samples / "agentskills" / "skillstudio.yaml").write_text("profile: agentskills\n")
    open_and_wait(qtbot, window, str(samples / "agentskills"))
    assert window.profile_box.currentData() == "", "the file's profile wins (issue 39)"
    assert [p.profile.name for p in window.context.projects] == ["agentskills"]


def test_the_box_follows_the_current_project(qtbot: QtBot, samples: Path) -> None:
    shell = Shell(qtbot)
    context = context_of(samples)
    at = [str(samples / "mvp/skills/code-review/SKILL.md")]
    profiles, _shown = profiles_for(shell, context, at)
    profiles.sync_box()
    assert (
        profiles.project_label.text() == "Project mvp is read as mvp: set by its skillstudio.yaml"
    )
    assert profiles.profile_box.currentText() == "Profile: auto → mvp"
    at[0] = str(samples / "oasis/key_skills/commit/SKILL.md")
    profiles.sync_box()
    assert profiles.project_label.text().startswith("Project oasis is read as oasis")
    context.open(str(samples))
    profiles.sync_box()
    assert profiles.project_label.text() == ""


def test_read_as_lists_every_profile_with_the_current_choice(qtbot: QtBot, samples: Path) -> None:
    shell = Shell(qtbot)
    context = context_of(samples / "agentskills")
    profiles, _shown = profiles_for(shell, context, [""])
    root = context.registries[0].roots[0].path
    menu = QMenu()
    profiles.fill_menu(menu, root)
    sub = menu.actions()[0].menu()
    assert isinstance(sub, QMenu)
    assert menu.actions()[0].text() == "Read agentskills As"
    checked = [a.text() for a in sub.actions() if a.isChecked()]
    assert checked == ["auto (skillstudio.yaml or detection)"]
    assert "claude-code" in [a.text() for a in sub.actions()]
    empty = QMenu()
    profiles.fill_menu(empty, str(samples / "nowhere"))
    assert empty.actions() == []


def test_a_switch_replaces_the_project_and_reopens_its_tabs_with_their_text(
    qtbot: QtBot, samples: Path
) -> None:
    shell = Shell(qtbot)
    context = context_of(samples / "agentskills")
    path = sorted(str(p) for p in (samples / "agentskills").rglob("SKILL.md"))[0]
    profiles, shown = profiles_for(shell, context, [path])
    editor = profiles.documents.open_skill(path)
    assert editor is not None
    editor.source.insertPlainText("unsaved ")
    text = editor.document.text()
    old = context.registries[0]
    with qtbot.waitSignal(profiles.switched, timeout=20_000):
        assert profiles.set_project_profile(0, "claude-code")
    project, registry = context.projects[0], context.registries[0]
    assert project.profile.name == "claude-code" and registry is not old
    assert len(shown) == 1 and [i.registry for i in shown[0]] == [registry]
    reopened = profiles.documents.editors[path]
    assert reopened.document.registry is registry and reopened.document.text() == text
    assert profiles.profile_box.currentText() == "Profile: claude-code"


def test_a_profile_that_cannot_read_the_project_is_said_and_nothing_changes(
    qtbot: QtBot, samples: Path
) -> None:
    shell = Shell(qtbot)
    context = context_of(samples / "agentskills")
    profiles, shown = profiles_for(shell, context, [""])
    projects = list(context.projects)
    assert not profiles.set_project_profile(0, "no-such-profile")
    assert shell.dialogs.said and shell.dialogs.said[0].startswith("Not switched:")
    assert context.projects == projects and shown == []


def test_a_profile_change_keeps_the_view_the_tab_was_on(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    """Reading the project as another profile reopened its tabs on the Form: the Source
    the user was reading went away under the pointer."""
    path = str(samples / "agentskills/.agents/skills/sql-review/SKILL.md")
    editor = window.open_skill(path)
    assert editor is not None
    names = [editor.views.tabText(n) for n in range(editor.views.count())]
    editor.views.setCurrentIndex(names.index("Source"))
    profiles = window.project_profiles
    number = next(
        n for n, p in enumerate(window.context.projects) if path.startswith(p.base + os.sep)
    )
    with qtbot.waitSignal(profiles.switched, timeout=20_000):
        assert profiles.set_project_profile(number, "codex")
    reopened = window.documents[path]
    assert reopened is not editor  # read again, under the new rules
    assert reopened.views.tabText(reopened.views.currentIndex()) == "Source"


def test_a_chosen_profile_is_kept_per_folder_across_restarts(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """Item 3: switched to another profile, quit, started again: it was back to
    "(detected)"."""
    unnamed(samples / "agentskills")  # (a file naming a profile is followed: issue 39)
    win = open_window(qtbot, settings, samples, size=WINDOW_SIZE)
    number = next(n for n, p in enumerate(win.context.projects) if p.profile.name == "agentskills")
    base = win.context.projects[number].base
    with qtbot.waitSignal(win.project_profiles.switched, timeout=10_000):
        assert win.project_profiles.set_project_profile(number, "claude-code")
    win.close()
    again = open_window(qtbot, settings, samples, size=WINDOW_SIZE)
    project = next(p for p in again.context.projects if p.base == base)
    assert project.profile.name == "claude-code"
    assert project.profile_reason == "--profile"
    others = [p for p in again.context.projects if p.base != base]
    assert all(p.profile_reason != "--profile" for p in others), "only that folder"


def test_profile_switch_is_per_project_and_keeps_unsaved_tabs(
    window: MainWindow, qtbot: QtBot
) -> None:
    paths = sorted(p for r in window.context.registries for p in r.by_path)
    mvp = next(p for p in paths if "/mvp/" in p and "code-review" in p)
    oasis = next(p for p in paths if "/oasis/" in p and "commit" in p)
    other_profiles = {
        p.base: p.profile.name for p in window.context.projects if "/mvp" not in p.base
    }
    window.open_skill(oasis)
    editor = window.open_skill(mvp)
    assert editor is not None
    editor.source.moveCursor(QTextCursor.MoveOperation.End)
    editor.source.insertPlainText("\nUnsaved words.\n")
    # the box follows the project; the label says how the profile was chosen
    assert window.project_label.text() == "Project mvp is read as mvp: set by its skillstudio.yaml"
    assert "set by its skillstudio.yaml" in window.project_label.toolTip()
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        window.profile_box.setCurrentIndex(window.profile_box.findData("agentskills"))
    names = {p.base: p.profile.name for p in window.context.projects}
    assert next(n for b, n in names.items() if b.endswith("/mvp")) == "agentskills"
    assert {b: n for b, n in names.items() if not b.endswith("/mvp")} == other_profiles
    assert window.tabs.count() == 2, "no tab was closed"
    reopened = window.documents[mvp]
    assert reopened is not editor and reopened.document.registry.profile.name == "agentskills"
    assert reopened.document.text().endswith("\nUnsaved words.\n")
    assert reopened.document.modified
    assert window.tabs.currentWidget() is reopened and window.tabs.indexOf(reopened) == 1
    assert window.project_label.text() == (
        "Project mvp is read as agentskills: chosen for this folder; the command line reads mvp"
    )
    window.tabs.setCurrentIndex(0)  # the oasis tab: the box shows oasis, on auto
    assert window.profile_box.currentData() == "" and window.project_label.text().startswith(
        "Project oasis is read as oasis"
    )


def test_a_root_context_menu_reads_its_project_as_another_profile(
    window: MainWindow, qtbot: QtBot
) -> None:
    root = next(r for r in window.context.registries if r.profile.name == "oasis").roots[0].path
    menu = QMenu()
    window.project_profiles.fill_menu(menu, root)
    (sub,) = [a.menu() for a in menu.actions() if a.menu() is not None]
    assert isinstance(sub, QMenu) and sub.title() == "Read oasis As"
    choice = next(a for a in sub.actions() if a.text() == "toolsets")
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        choice.trigger()
    assert sorted(p.profile.name for p in window.context.projects).count("toolsets") == 2


def test_the_profile_box_says_what_auto_reads_and_how_to_change_it(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    base = notes_folder(tmp_path)
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(base))
    label, box = window.project_label, window.profile_box
    assert label.text() == "Project notes is read as agentskills: detected from its folder layout"
    assert box.currentText() == "Profile: auto → agentskills"
    assert "(detected)" not in label.text()
    text_width = box.fontMetrics().horizontalAdvance(box.currentText())
    # whole, and not as wide as its widest entry (it squeezed the line beside it)
    qtbot.waitUntil(lambda: text_width < box.width() < text_width + 80)
    widest = max(box.fontMetrics().horizontalAdvance(box.itemText(n)) for n in range(box.count()))
    assert box.view().minimumWidth() >= widest, "the list shows its entries whole"
    tip = box.toolTip()
    assert "auto: the one its skillstudio.yaml names, else the one detected" in tip
    assert "Choose another" in tip and "kept for this folder" in tip
    with qtbot.waitSignal(window.project_profiles.switched, timeout=10_000):
        box.setCurrentIndex(box.findData("claude-code"))
    assert label.text() == (
        "Project notes is read as claude-code: chosen for this folder; "
        "the command line reads agentskills"
    )
    assert box.currentText() == "Profile: claude-code"
    assert box.itemText(0) == "Profile: auto", "auto says no profile it is not reading as"
    with qtbot.waitSignal(window.project_profiles.switched, timeout=10_000):
        box.setCurrentIndex(0)
    assert box.currentText() == "Profile: auto → agentskills"


def unmarked_folder(tmp_path: Path) -> Path:
    """A folder of skills with no agent's marks (read as the default for want of any)."""
    base = tmp_path / "plain"
    for name in ("pdf-forms", "csv-tables"):
        (base / name).mkdir(parents=True)
        (base / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Works on {name}. Use for {name} work.\n---\n"
        )
    return base


def test_a_default_profile_from_settings_is_said_so(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    window.app_settings.set_default_profile("claude-code")
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(unmarked_folder(tmp_path)))
    assert window.project_label.text() == (
        "Project plain is read as claude-code: the default profile in Settings "
        "(no agent's marks in the folder)"
    )
    assert window.profile_box.currentText() == "Profile: claude-code"


def test_a_folder_with_no_marks_says_it_is_read_as_the_default_as_lint_does(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    # a reviewer read "detected from its folder layout" where `lint` said
    # "(default: no other profile's marks found)": the two gave different reasons
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(unmarked_folder(tmp_path)))
    project = window.context.projects[0]
    assert project.profile_reason.startswith("default")
    assert window.project_label.text() == (
        "Project plain is read as agentskills: the default: no other profile's marks "
        "found in the folder"
    )


def test_the_default_profile_never_overrides_a_folders_marks(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    window.app_settings.set_default_profile("codex")
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(notes_folder(tmp_path)))  # .agents/skills/: a mark
    assert window.context.projects[0].profile.name == "agentskills"
    assert window.project_label.text().endswith("detected from its folder layout")
    assert window.profile_box.currentText() == "Profile: auto → agentskills"


def test_auto_chosen_in_the_status_bar_is_remembered_on_reopen(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    folder = str(unmarked_folder(tmp_path))
    window.app_settings.set_default_profile("codex")
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(folder)
    assert window.context.projects[0].profile.name == "codex"
    with qtbot.waitSignal(window.project_profiles.switched, timeout=20_000):
        window.profile_box.setCurrentIndex(0)  # auto
    assert window.context.projects[0].profile.name == "agentskills"
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(folder)  # opened again: auto, not the default
    assert window.context.projects[0].profile.name == "agentskills"
    assert window.profile_box.currentText() == "Profile: auto → agentskills"


def test_setting_the_default_back_to_auto_reads_the_open_folder_again(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    window.app_settings.set_default_profile("codex")
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(unmarked_folder(tmp_path)))
    assert "read as codex" in window.project_label.text()

    def to_auto(dialog: QDialog) -> bool:  # Edit › Settings: Default profile auto, OK
        box = dialog.profile_box  # type: ignore[attr-defined]
        box.setCurrentIndex(box.findData(""))
        return True

    window.dialogs.ask_settings = to_auto  # type: ignore[method-assign]
    with qtbot.waitSignal(window.project_profiles.switched, timeout=20_000):
        window.edit_settings()
    assert window.app_settings.default_profile() == ""
    assert window.project_label.text() == (
        "Project plain is read as agentskills: the default: no other profile's marks "
        "found in the folder"
    )
    assert window.statusBar().currentMessage().endswith("· agentskills")
    window.app_settings.set_default_profile("claude-code")  # and to another: at once too
    with qtbot.waitSignal(window.project_profiles.switched, timeout=20_000):
        assert window.project_profiles.follow_default("", "claude-code") == 1
    assert "read as claude-code" in window.project_label.text()


def test_a_profile_the_command_line_would_not_read_is_said_where_it_is_chosen(
    qtbot: QtBot, tmp_path: Path, samples: Path
) -> None:
    """A profile chosen in the status bar was not seen by `skillstudio lint` and `test`
    until the app wrote skillstudio.yaml, and nothing said so: choosing one the command
    line would not read says so at once, and offers to write `profile:` to the file."""
    from skillstudio.core.projects.config_writer import command_line_profile

    base = notes_folder(tmp_path)
    shell = Shell(qtbot)
    context = context_of(base)
    profiles, _shown = profiles_for(shell, context, [""])
    recorded: list[str] = []
    profiles.recorded.connect(recorded.append)
    assert command_line_profile(str(base)) == "agentskills"
    with qtbot.waitSignal(profiles.switched, timeout=20_000):  # declined: said, not written
        assert profiles.set_project_profile(0, "claude-code")
    assert len(shell.dialogs.asked) == 1
    assert "skillstudio lint, test and CI read it as agentskills" in shell.dialogs.asked[0]
    assert "'profile: claude-code'" in shell.dialogs.asked[0]
    assert not (base / "skillstudio.yaml").exists() and recorded == []
    status = project_status(context.projects[0], "claude-code")  # the status line too
    assert status.endswith("chosen for this folder; the command line reads agentskills")
    with qtbot.waitSignal(profiles.switched, timeout=20_000):  # auto: what they read
        assert profiles.set_project_profile(0, None)
    assert len(shell.dialogs.asked) == 1
    shell.dialogs.record_profile = True
    with qtbot.waitSignal(profiles.switched, timeout=20_000):  # accepted: written
        assert profiles.set_project_profile(0, "claude-code")
    assert "profile: claude-code" in (base / "skillstudio.yaml").read_text()
    assert command_line_profile(str(base)) == "claude-code"
    assert recorded == ["profile: claude-code written to skillstudio.yaml of notes"]
    # a file that names a profile is the user's: said, not offered, left as it is
    named = samples / "agentskills"
    before = (named / "skillstudio.yaml").read_text()
    context = context_of(named)
    profiles, _shown = profiles_for(shell, context, [""])
    with qtbot.waitSignal(profiles.switched, timeout=20_000):
        assert profiles.set_project_profile(0, "mvp")
    assert len(shell.dialogs.asked) == 2
    assert "names agentskills, so skillstudio lint, test and CI" in shell.dialogs.said[-1]
    assert (named / "skillstudio.yaml").read_text() == before
