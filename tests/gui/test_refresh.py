"""SlicedRefresh on its own (with the views and tabs it updates): changes on disk read
again in slices, the indexes synced in them, a failure said in Problems and forgotten
once the file reads again, and F5's reload."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from skillstudio.core.reading.skill_files import skill_body
from skillstudio.core.scanning.registry import Registry
from skillstudio.gui.controllers.refresh import SlicedRefresh, Synced
from skillstudio.gui.controllers.skill_views import SkillViews
from skillstudio.gui.controllers.tree_controller import SkillTree
from skillstudio.gui.infra.workspace import Workspace
from skillstudio.gui.models.problems_model import ProblemsModel
from skillstudio.gui.models.skill_tree_model import SkillTreeModel
from skillstudio.gui.panels.problems_panel import ProblemsPanel
from skillstudio.gui.panels.skill_tree_view import SkillTreeView

from .parts import Shell, workspace_of


class Index:
    """A stand-in index that notes each of its sync steps."""

    def __init__(self, registry: Registry, steps: list[str]) -> None:
        self.registry = registry
        self.steps = steps

    def sync_steps(self) -> Iterator[None]:
        self.steps.append("sync")
        yield


def refresher_for(
    shell: Shell, workspace: Workspace
) -> tuple[SlicedRefresh, SkillViews, list[str]]:
    tree = SkillTree(
        SkillTreeView(lambda: workspace.base, shell.window),
        SkillTreeModel(shell.window),
        QLineEdit(shell.window),
        shell.window,
    )
    model = ProblemsModel(shell.window)
    views = SkillViews(workspace, tree, model, ProblemsPanel(model, shell.window), shell.status)
    views.refresh()
    steps: list[str] = []

    def indexes_of(registry: Registry) -> list[Synced]:
        return [Index(registry, steps)]

    documents = shell.documents(workspace)
    return SlicedRefresh(workspace, views, documents, indexes_of, shell.window), views, steps


def test_a_change_on_disk_is_read_again_with_the_views_and_indexes(
    qtbot: QtBot, samples: Path
) -> None:
    shell = Shell(qtbot)
    workspace = workspace_of(samples / "oasis")
    refresher, views, steps = refresher_for(shell, workspace)
    path = samples / "oasis/key_skills/commit/SKILL.md"
    editor = refresher.documents.open_skill(str(path))
    assert editor is not None
    assert not any(d.path == str(path) for d in views.problems_model.shown())
    path.write_text(path.read_text().replace("id: commit", "id: Commit Bad"))
    with qtbot.waitSignal(refresher.finished, timeout=10_000):
        refresher.changed([str(path)])
    assert refresher.job is None and steps == ["sync"]
    registry = workspace.registry_for(str(path))
    assert registry is not None and registry.by_path[str(path)].name == "Commit Bad"
    assert any(d.path == str(path) for d in views.problems_model.shown())
    assert "Commit Bad" in editor.document.text(), "its open tab read it again"


def test_a_failing_refresh_is_said_in_problems_and_forgotten_when_it_reads_again(
    qtbot: QtBot, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shell = Shell(qtbot)
    workspace = workspace_of(samples / "oasis")
    refresher, views, _steps = refresher_for(shell, workspace)
    path = str(samples / "oasis/key_skills/commit/SKILL.md")
    registry = workspace.registries[0]

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
    workspace = workspace_of(samples / "oasis")
    refresher, views, _steps = refresher_for(shell, workspace)
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
    registry = workspace.registries[0]
    assert "Changed outside." in skill_body(registry.by_path[str(saved)])
    assert views.status_bar.currentMessage().startswith("4 skills")
