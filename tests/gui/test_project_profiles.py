"""ProjectProfiles on its own: the status-bar box follows the current project, the
Read As menu, and a switch that rescans one project, replaces it in the workspace,
shows it and reopens its tabs with their unsaved text."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMenu, QProgressBar
from pytestqt.qtbot import QtBot

from skillstudio.core.ranking.match_index import MatchIndex
from skillstudio.gui.project_profiles import ProjectProfiles
from skillstudio.gui.scanning import Scanning
from skillstudio.gui.workspace import Workspace

from .parts import Shell, workspace_of


def profiles_for(
    shell: Shell, workspace: Workspace, at: list[str]
) -> tuple[ProjectProfiles, list[list[MatchIndex]]]:
    """`at[0]`: the path the user is at."""
    scans = Scanning(workspace, QProgressBar(shell.window), shell.status, shell.window)
    shown: list[list[MatchIndex]] = []
    profiles = ProjectProfiles(
        workspace,
        scans,
        shell.documents(workspace),
        shell.dialogs,
        lambda: at[0],
        shown.append,
        shell.window,
    )
    return profiles, shown


def test_the_box_follows_the_current_project(qtbot: QtBot, samples: Path) -> None:
    shell = Shell(qtbot)
    workspace = workspace_of(samples)
    at = [str(samples / "mvp/skills/code-review/SKILL.md")]
    profiles, _shown = profiles_for(shell, workspace, at)
    profiles.sync_box()
    assert (
        profiles.project_label.text() == "Project mvp is read as mvp: set by its skillstudio.yaml"
    )
    assert profiles.profile_box.currentText() == "Profile: auto → mvp"
    at[0] = str(samples / "oasis/key_skills/commit/SKILL.md")
    profiles.sync_box()
    assert profiles.project_label.text().startswith("Project oasis is read as oasis")
    workspace.open(str(samples))
    profiles.sync_box()
    assert profiles.project_label.text() == ""


def test_read_as_lists_every_profile_with_the_current_choice(qtbot: QtBot, samples: Path) -> None:
    shell = Shell(qtbot)
    workspace = workspace_of(samples / "agentskills")
    profiles, _shown = profiles_for(shell, workspace, [""])
    root = workspace.registries[0].roots[0].path
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
    workspace = workspace_of(samples / "agentskills")
    path = sorted(str(p) for p in (samples / "agentskills").rglob("SKILL.md"))[0]
    profiles, shown = profiles_for(shell, workspace, [path])
    editor = profiles.documents.open_skill(path)
    assert editor is not None
    editor.source.insertPlainText("unsaved ")
    text = editor.document.text()
    old = workspace.registries[0]
    with qtbot.waitSignal(profiles.switched, timeout=20_000):
        assert profiles.set_project_profile(0, "claude-code")
    project, registry = workspace.projects[0], workspace.registries[0]
    assert project.profile.name == "claude-code" and registry is not old
    assert len(shown) == 1 and [i.registry for i in shown[0]] == [registry]
    reopened = profiles.documents.editors[path]
    assert reopened.document.registry is registry and reopened.document.text() == text
    assert profiles.profile_box.currentText() == "Profile: claude-code"


def test_a_profile_that_cannot_read_the_project_is_said_and_nothing_changes(
    qtbot: QtBot, samples: Path
) -> None:
    shell = Shell(qtbot)
    workspace = workspace_of(samples / "agentskills")
    profiles, shown = profiles_for(shell, workspace, [""])
    projects = list(workspace.projects)
    assert not profiles.set_project_profile(0, "no-such-profile")
    assert shell.dialogs.said and shell.dialogs.said[0].startswith("Not switched:")
    assert workspace.projects == projects and shown == []
