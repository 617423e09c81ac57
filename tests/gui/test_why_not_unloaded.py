"""Try a Request where the model chooses: "Why not" a skill the agent does not load says
so first, and a skill ranked in spite of an error is marked with it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from skillstudio.gui.window.main_window import MainWindow

from .test_likely_app import ask
from .test_try_request_trust import opened

LONG = ("Reviews SQL queries and migrations for correctness and locking risks. " * 17).strip()
SKILLS = {
    "api-review": "''",
    "sql-review": LONG,
    "changelog": "Write the changelog of a pull request from its commits.",
}


@pytest.fixture
def window(qtbot: QtBot, settings: QSettings, tmp_path: Path) -> MainWindow:
    folder = tmp_path / "collection"
    folder.mkdir()
    (folder / "skillstudio.yaml").write_text("profile: agentskills\nroots: [skills]\n")
    for name, description in SKILLS.items():
        (folder / "skills" / name).mkdir(parents=True)
        (folder / "skills" / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nSteps.\n"
        )
    return opened(qtbot, settings, folder)


def test_why_not_a_skill_the_agent_does_not_load_says_so_before_any_word(
    window: MainWindow, qtbot: QtBot
) -> None:
    panel = window.query_panel
    window.focus_query_panel()
    ask(panel, qtbot, "review my pull request")
    assert "api-review" not in [row.name for row in panel.model.rows]
    panel.why_box.setCurrentIndex(panel.why_box.findData("api-review"))
    text = panel.explanation_html()
    assert "does not load api-review: its 'description' cannot be used" in text
    assert "empty" in text and "It is not ranked." in text
    assert "distinctive words" not in text and "Use the words" not in text


def test_a_skill_ranked_in_spite_of_an_error_is_marked_with_it(
    window: MainWindow, qtbot: QtBot
) -> None:
    panel = window.query_panel
    window.focus_query_panel()
    ask(panel, qtbot, "review sql migrations")
    names = [row.name for row in panel.model.rows]
    assert "sql-review" in names
    row = names.index("sql-review")
    cell = panel.model.index(row, 1)
    tip = panel.model.data(cell, Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("agentskills rejects sql-review: 'description' is 1189 characters")
    assert panel.model.data(cell, Qt.ItemDataRole.DecorationRole) is not None
    clean = panel.model.index(names.index("changelog"), 1) if "changelog" in names else None
    if clean is not None:
        assert panel.model.data(clean, Qt.ItemDataRole.DecorationRole) is None
    panel.table.setCurrentIndex(cell)
    assert "agentskills rejects sql-review" in panel.explanation_html()


def test_an_unsaved_edit_that_empties_the_open_skills_description_is_said_at_once(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    """The review's case: changelog's description emptied in the form (not saved), the
    request meant for it: the advice says the agent does not load it, not which words
    to use, and "Why not" says the same."""
    panel = window.query_panel
    editor = window.open_skill(str(tmp_path / "collection/skills/changelog/SKILL.md"))
    assert editor is not None
    field = editor.form.fields["description"].widget
    assert isinstance(field, QPlainTextEdit)
    field.setFocus()
    field.selectAll()
    qtbot.keyClick(field, Qt.Key.Key_Delete)
    window.focus_query_panel()
    panel.for_open.setChecked(True)
    ask(panel, qtbot, "write the changelog of my pull request")
    qtbot.waitUntil(lambda: "does not load changelog" in panel.advice.text, timeout=5000)
    assert "It is not ranked." in panel.advice.text
    assert "description needs" not in panel.advice.text
    assert "changelog" not in [row.name for row in panel.model.rows]
    panel.why_box.setCurrentIndex(panel.why_box.findData("changelog"))
    text = panel.explanation_html()
    assert "does not load changelog" in text and "Use the words" not in text


def test_the_marked_rows_name_is_not_cut_by_its_icon(window: MainWindow, qtbot: QtBot) -> None:
    panel = window.query_panel
    window.focus_query_panel()
    ask(panel, qtbot, "review sql migrations")
    names = [row.name for row in panel.model.rows]
    text = panel.table.fontMetrics().horizontalAdvance("sql-review")
    assert panel.table.columnWidth(1) >= text + 22 + 10  # the icon, the name, padding
    assert "sql-review" in names
