"""Tests of gui/controllers/tree_controller.py (What the skill tree does: its rows over
the registries, roots opened by themselves up to a size, large roots paged in as they
scroll into view, the filter box, and the row of the current tab)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

from skillstudio.gui.editor.file_view import FileView
from skillstudio.gui.models.skill_tree_model import KIND_ROLE, PATH_ROLE
from skillstudio.gui.window.main_window import MainWindow

from ...helpers import skill_text, write
from ..parts import (
    TreeParts,
    all_rows,
    open_window,
    skill_names,
)


def shown_skills(window: MainWindow | TreeParts) -> list[str]:
    model = window.tree_model
    return [
        model.index(r, 0, model.index(t, 0)).data(PATH_ROLE)
        for t in range(model.rowCount())
        for r in range(model.rowCount(model.index(t, 0)))
    ]


def filtered(window: MainWindow | TreeParts, qtbot: QtBot, text: str) -> None:
    window.filter_box.setText(text)
    qtbot.waitUntil(lambda: window.tree_model.filter_text == text.lower(), timeout=3000)


def test_supporting_files_open_from_the_tree(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    skill = next(
        i
        for i in all_rows(window.tree_model)
        if i.data(KIND_ROLE) == "skill"
        and i.data(PATH_ROLE).endswith("pegasus/skills/code-review/SKILL.md")
    )
    window.tree.expand(skill)
    model = window.tree_model
    rows = [model.index(r, 0, skill) for r in range(model.rowCount(skill))]
    assert rows, "supporting files are listed once the skill is expanded"
    files = [  # a sub-folder is a row of its own, holding its files
        model.index(n, 0, row) if row.data(KIND_ROLE) == "folder" else row
        for row in rows
        for n in range(max(model.rowCount(row), 1))
    ]
    assert files[0].data(KIND_ROLE) == "file"
    window.tree.activated.emit(files[0])
    view = window.tabs.currentWidget()
    assert isinstance(view, FileView) and os.path.isfile(view.path)


def test_the_filter_leaves_out_roots_with_no_skill_found(
    tree_parts: TreeParts, qtbot: QtBot
) -> None:
    """ "user" is in five roots' labels ("pegasus · user · wins over builtin"…) and
    in the descriptions of four skills in three other roots: the five showed empty."""
    model = tree_parts.tree_model
    tree_parts.filter_box.setText("user")
    qtbot.waitUntil(lambda: model.filter_text == "user", timeout=3000)
    shown = {
        model.index(r, 0).data(): model.rowCount(model.index(r, 0)) for r in range(model.rowCount())
    }
    assert len(shown) == 3 and all(count > 0 for count in shown.values()), shown


def test_filter_box_narrows_the_tree(tree_parts: TreeParts, qtbot: QtBot) -> None:
    qtbot.keyClicks(tree_parts.filter_box, "hello")
    qtbot.waitUntil(lambda: skill_names(tree_parts) == ["hello-extended", "hello-extended"])
    roots = [tree_parts.tree_model.index(r, 0) for r in range(tree_parts.tree_model.rowCount())]
    assert all(tree_parts.tree.isExpanded(r) for r in roots)
    tree_parts.filter_box.clear()
    qtbot.waitUntil(lambda: len(skill_names(tree_parts)) == 51)


def test_quick_open_filter_and_enter_opens_the_first_match(
    window: MainWindow, qtbot: QtBot
) -> None:
    window.menu_actions.filter_action.trigger()
    qtbot.keyClicks(window.filter_box, "triage")
    qtbot.keyClick(window.filter_box, Qt.Key.Key_Return)
    editor = window.document_tabs.current_editor()
    assert editor is not None and editor.document.path.endswith("log-triage/SKILL.md")


def test_tree_precedence_arrows_icons_and_following_the_tab(window: MainWindow) -> None:
    model = window.tree_model
    paths = {
        p[len(window.context.base) + 1 :]: p for r in window.context.registries for p in r.by_path
    }
    labels = [model.index(r, 0).data() for r in range(model.rowCount())]
    assert "toolsets · .agent/skills · project · wins over user, bundled" in labels
    assert "toolsets · src/_bundled_skills · bundled · yields to user, project" in labels
    assert window.tree.textElideMode() == Qt.TextElideMode.ElideMiddle
    plain = model.index_of(paths["mvp/skills/docs/api-reference/SKILL.md"])
    with_files = model.index_of(paths["pegasus/skills/code-review/SKILL.md"])
    assert not model.hasChildren(plain), "no expand arrow without supporting files"
    assert model.hasChildren(with_files)
    tooltip = model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert "shadowed: a skill with the same name" in tooltip  # the legend
    window.open_skill(paths["mvp/skills/docs/api-reference/SKILL.md"])
    window.open_skill(paths["oasis/key_skills/commit/SKILL.md"])
    window.tabs.setCurrentIndex(0)
    assert window.tree.currentIndex() == plain, "the tree follows the current tab"


def test_filter_finds_descriptions_and_says_when_nothing_matches(
    tree_parts: TreeParts, qtbot: QtBot
) -> None:
    skill = next(s for r in tree_parts.registries for s in r.skills if "sql" in s.path)
    word = next(
        w.strip(".,;:()").lower()
        for w in skill.description.split()
        if len(w) > 5 and w.lower() not in skill.path.lower()
    )
    filtered(tree_parts, qtbot, word)
    assert skill.path in shown_skills(tree_parts), word
    filtered(tree_parts, qtbot, "zzqx-none")
    assert tree_parts.tree_model.rowCount() == 0
    text = tree_parts.tree.empty_text()
    assert text.startswith("No skill matches 'zzqx-none'"), text
    assert "Reading" not in text


def test_one_click_opens_and_the_filter_follows_the_current_tab(
    window: MainWindow, qtbot: QtBot
) -> None:
    model = window.tree_model
    root = model.index(0, 0)
    row = model.index(0, 0, root)
    window.tree.scrollTo(row)
    centre = window.tree.visualRect(row).center()
    qtbot.mouseClick(window.tree.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    path = row.data(PATH_ROLE)
    assert window.document_tabs.current_path() == path, "one click opened it"
    name = os.path.basename(os.path.dirname(path))
    filtered(window, qtbot, name[:4])
    assert window.tree.currentIndex().data(PATH_ROLE) == path


@pytest.mark.parametrize("words", ["", "e"])  # the reviewer's tree was filtered
@pytest.mark.parametrize("change", ["description", "a new skill"])
def test_the_selected_skill_stays_selected_when_a_change_on_disk_refreshes_the_tree(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, change: str, words: str
) -> None:
    """A reviewer's day: an outside change refreshed the tree and the selected skill lost
    its highlight. Kept by its path, whether the rows stay (a description edited) or are
    built again (a skill added)."""
    for name in ("alpha-one", "beta-two", "gamma-three"):
        write(tmp_path, f".claude/skills/{name}/SKILL.md", skill_text(name=name))
    window = open_window(qtbot, settings, tmp_path, "claude-code")
    if words:
        filtered(window, qtbot, words)
    view, model = window.skill_tree.view, window.tree_model
    chosen = str(tmp_path / ".claude/skills/beta-two/SKILL.md")
    view.setCurrentIndex(model.index_of(chosen))
    assert window.skill_tree.current_path() == chosen
    if change == "description":
        Path(chosen).write_text(skill_text(name="beta-two", description="Changed outside."))
        changed = chosen
    else:
        changed = write(tmp_path, ".claude/skills/aaa-new/SKILL.md", skill_text(name="aaa-new"))
    with qtbot.waitSignal(window.refresh_finished, timeout=10_000):
        window.refresher.changed([changed])  # as the watcher says it (its timing: the OS's)
    assert len(skill_names(window)) == (4 if change == "a new skill" else 3)
    assert window.skill_tree.current_path() == chosen
    selected = view.selectionModel().selectedRows()
    assert [i.data(PATH_ROLE) for i in selected] == [chosen]
