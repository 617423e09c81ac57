"""Tests of gui/models/problems_model.py (ProblemsModel: the diagnostics of the open
projects, one line each, identical messages across skills grouped under one expandable
row, filtered by severity and (optionally) to one skill)."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from skillstudio.core.model.diagnostics import Diagnostic
from skillstudio.gui.models.problems_model import PAGE, ProblemsModel
from skillstudio.gui.panels.problems_panel import ProblemsPanel


def test_problems_hands_the_view_its_rows_a_page_at_a_time(qtbot: QtBot) -> None:
    """A tree view lays out every top row it is given: 30,000 distinct problems took
    300 ms at the end of a scan. The view gets PAGE rows and asks for more as it
    scrolls (fetchMore); counts and 'shown' still cover every problem."""
    model = ProblemsModel()
    panel = ProblemsPanel(model)
    qtbot.addWidget(panel)
    panel.resize(600, 300)
    panel.show()
    diags = [
        Diagnostic("name-format", "error", f"Name {n} is bad.", f"/p/s{n:05}/SKILL.md", 1, 1)
        for n in range(PAGE * 2 + 10)
    ]
    model.set_sources([[d] for d in diags], "/p", ["/p"])  # one list a skill
    assert model.rowCount() <= 2 * PAGE < len(diags)  # (a view fills its height at once)
    assert model.canFetchMore(QModelIndex())
    assert model.counts()["error"] == len(diags) and len(model.shown()) == len(diags)
    view = panel.view
    for _ in range(3):  # the user scrolls to the end, a page at a time
        view.scrollToBottom()
        qtbot.waitUntil(lambda: True)
        QApplication.processEvents()
    qtbot.waitUntil(lambda: model.rowCount() == len(diags))
    assert not model.canFetchMore(QModelIndex())
    last = model.index(model.rowCount() - 1, 0)
    assert last.data() == f"Name {len(diags) - 1} is bad."
    model.set_sources([[d] for d in diags[:-1]] + [[]], "/p", ["/p"])  # one skill fixed
    assert model.rowCount() == len(diags) - 1  # updated in place: the rows stay loaded


def test_a_scans_problems_are_laid_out_one_page_at_first(qtbot: QtBot) -> None:
    """Issue 39, item 9: the list came in front of "No skills open yet" as a scan's
    problems landed, before it had laid out a row, and asked for the next page at
    once: the first layout measured two pages (at 10,000 skills 1,200 cells, 60 ms
    in one stall). One page now; the next when the user scrolls to the end."""
    model = ProblemsModel()
    panel = ProblemsPanel(model)
    qtbot.addWidget(panel)
    panel.resize(600, 300)
    panel.show()
    panel.set_skill_count(0)
    assert panel.stack.currentWidget() is panel.empty
    diags = [
        Diagnostic("name-format", "error", f"Name {n} is bad.", f"/p/s{n:05}/SKILL.md", 1, 1)
        for n in range(PAGE * 3)
    ]
    model.set_sources([[d] for d in diags], "/p", ["/p"])
    for _ in range(5):
        QApplication.processEvents()
    assert panel.stack.currentWidget() is panel.view and model.rowCount() == PAGE
    panel.view.scrollToBottom()
    qtbot.waitUntil(lambda: model.rowCount() == 2 * PAGE)


def test_a_note_on_a_project_reads_as_the_project_not_a_dot() -> None:
    """The listing's budget note stands on the project's folder when no skillstudio.yaml
    sets the budget (else on that file's line): Problems says the project's name, and
    the file and line for skillstudio.yaml; a skill's note stays project › skill › line."""
    model = ProblemsModel()
    folder = Diagnostic("listing-over-budget", "warning", "Over.", "/w/repo")
    config = Diagnostic("listing-over-budget", "warning", "Over.", "/w/repo/skillstudio.yaml", 2, 1)
    skill = Diagnostic("name-format", "error", "Bad.", "/w/repo/s/SKILL.md", 2, 1, "name", "s")
    model.set_sources([[folder, config, skill]], "/w/repo", ["/w/repo"])  # (opened: the project)
    assert model.where(folder) == "repo"
    assert model.where(config) == "repo › skillstudio.yaml › line 2"
    assert model.where(skill) == "repo › s › line 2"
