"""Tests of gui/panels/overlap_map.py (The overlap map: a whole project's competing
skills at once (issue 19, docs/commands.md))."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QStackedWidget, QWidget
from pytestqt.qtbot import QtBot

from skillstudio.core.ranking.overlap import THRESHOLD, overlaps
from skillstudio.gui.window.main_window import MainWindow

from ...helpers import skill_text, write
from ..parts import COLLECTION, COLLECTION_PAIR, open_window


def test_overlap_map_lists_the_overlapping_pair_first_and_opens_it(
    app_window: MainWindow, collection: Path, qtbot: QtBot
) -> None:
    view = app_window.overlap_map
    assert not app_window.overlap_dock.isVisible()
    with qtbot.waitSignal(view.computed, timeout=10_000):
        app_window.menu_actions.overlap_action.trigger()  # View > Overlap Map
        app_window.overlap_dock.raise_()
    registry = view.registry
    assert registry is not None
    expected = overlaps(registry)
    assert [(p.a.name, p.b.name) for p in view.pairs] == [(p.a.name, p.b.name) for p in expected]
    model = view.pairs_model
    assert {model.index(0, 1).data(), model.index(0, 2).data()} == COLLECTION_PAIR
    assert model.index(0, 3).data() == f"{expected[0].score:.2f}"
    assert "pytest" in model.index(0, 4).data()
    # the matrix: both skills, the cell of the pair, in their cluster's colour
    matrix = view.matrix_model
    names = [name for _path, name in matrix.skills]
    assert set(names) >= COLLECTION_PAIR
    row, column = names.index("pytest-writer"), names.index("python-test-author")
    assert matrix.score(row, column) == pytest.approx(expected[0].score)
    assert matrix.index(row, column).data(Qt.ItemDataRole.BackgroundRole) is not None
    # a click on a name opens that skill
    table = view.pairs_view
    cell = model.index(0, 2)
    qtbot.mouseClick(
        table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(cell).center()
    )
    current = app_window.document_tabs.current_editor()
    assert current is not None
    assert current.document.path == model.path_at(0, 2)
    # and the map follows the skills: a third near-duplicate joins the cluster
    copy = collection / "skills/pytest-helper"
    copy.mkdir()
    (copy / "SKILL.md").write_text(
        "---\nname: pytest-helper\ndescription: "
        + COLLECTION["pytest-writer"]
        + "\n---\n\nSteps.\n",
        encoding="utf-8",
    )
    qtbot.waitUntil(
        lambda: any("pytest-helper" in (p.a.name, p.b.name) for p in view.pairs), timeout=10_000
    )


def test_the_overlap_maps_project_box_is_whole_at_1024(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    """It was cut to "anthropi▾" on a collection with a long name (the box kept the
    width of what it held when first shown)."""
    window.resize(1024, 640)
    window.overlap_dock.show()
    window.overlap_dock.raise_()
    box = window.overlap_map.project_box
    qtbot.waitUntil(lambda: box.count() > 0)
    qtbot.wait(20)
    folder = tmp_path / "anthropic-skills-collection"
    for name in ("pdf-filler", "pdf-reader"):
        write(folder, f"{name}/SKILL.md", skill_text(name=name, description=f"Use {name}."))
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        window.open_path(str(folder))
    qtbot.waitUntil(lambda: box.count() > 0)
    qtbot.wait(20)
    widest = max(box.fontMetrics().horizontalAdvance(box.itemText(n)) for n in range(box.count()))
    assert box.width() >= widest + 20, (box.width(), widest)


def shown_in_its_tab(note: QWidget) -> bool:
    stack = note.parentWidget()
    return isinstance(stack, QStackedWidget) and stack.currentWidget() is note


def test_no_pair_above_the_threshold_is_said_and_the_threshold_can_be_lowered(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """The Matrix tab was a blank box when no pair reached 0.30; the threshold is
    `skillstudio overlap --threshold`'s, for both tabs."""
    folder = tmp_path / "distinct"
    descriptions = {
        "pdf-filler": "Fills PDF forms from a table of values. Use for tax or visa forms.",
        "sql-review": "Reviews SQL migrations for locking risks and missing indexes.",
        "release-notes": "Drafts release notes from merged pull requests and commit messages.",
        "form-checker": "Checks filled forms for missing values before they are sent.",
    }
    for name, text in descriptions.items():
        write(folder, f"{name}/SKILL.md", skill_text(name=name, description=text))
    win = open_window(qtbot, settings, folder)
    view = win.overlap_map
    with qtbot.waitSignal(view.computed, timeout=10_000):
        win.menu_actions.overlap_action.trigger()
        win.overlap_dock.raise_()
    registry = view.registry
    assert registry is not None and overlaps(registry, THRESHOLD) == []
    assert view.threshold.value() == pytest.approx(THRESHOLD)
    view.views.setCurrentIndex(1)  # Matrix
    for note in view.notes:  # each tab says why it is empty, and what to do
        assert shown_in_its_tab(note)
        assert f"reaches a similarity of {THRESHOLD:.2f}" in note.text()
        assert "Lower the threshold" in note.text()
    qtbot.waitUntil(lambda: view.notes[1].isVisible(), timeout=2000)
    weaker = overlaps(registry, 0.05)
    assert weaker, "some pair of the four shares a few words"
    with qtbot.waitSignal(view.computed, timeout=10_000):
        view.threshold.setValue(0.05)
    assert [(p.a.name, p.b.name) for p in view.pairs] == [(p.a.name, p.b.name) for p in weaker]
    assert view.pairs_model.rowCount() == len(weaker) and view.matrix_model.rowCount() >= 2
    assert view.matrix_view.isVisible() and not any(shown_in_its_tab(n) for n in view.notes)
    assert "≥ 0.05" in view.status.text()
