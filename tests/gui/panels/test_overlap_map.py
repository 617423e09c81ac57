"""Tests of gui/panels/overlap_map.py (The overlap map: a whole project's competing
skills at once (issue 19, docs/commands.md))."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from skillstudio.core.ranking.overlap import overlaps
from skillstudio.gui.window.main_window import MainWindow

from ...helpers import skill_text, write
from ..parts import COLLECTION, COLLECTION_PAIR


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
