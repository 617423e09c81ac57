"""Issue 30 item 12: Problems' counts follow "Current skill only" (15 errors listed
while 3 were shown), a long message is readable at 1024 px (it was cut on one line,
the Where column a fixed 220 px), and one skill's rows stay together (by file, as
editors list them; they were by severity, skills mixed)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from skillstudio.core.model.diagnostics import Diagnostic
from skillstudio.gui.models.problems_model import ProblemsModel
from skillstudio.gui.panels.problems_panel import ProblemsPanel

BASE = "/tmp/work-9/skills"
LONG = (
    "Shadowed by 'hello-extended' in the project root (toolsets/.agent/skills/"
    "hello-extended/SKILL.md), which has higher precedence; rename one of them."
)


def diag(skill: str, code: str, severity: str, message: str, line: int) -> Diagnostic:
    path = f"{BASE}/proj/{skill}/SKILL.md"
    return Diagnostic(code, severity, message, path, line, 1, skill=skill)  # type: ignore[arg-type]


DIAGS = [
    diag("alpha", "name-format", "error", "Bad name.", 2),
    diag("alpha", "field-missing", "warning", "Add 'license'.", 3),
    diag("beta", "name-format", "error", "Bad name too.", 2),
    diag("beta", "field-type", "error", "Wrong type.", 4),
    diag("gamma", "shadowed", "info", LONG, 1),
]


def panel(qtbot: QtBot, width: int = 716) -> ProblemsPanel:
    model = ProblemsModel()
    widget = ProblemsPanel(model)
    qtbot.addWidget(widget)
    widget.resize(width, 300)
    widget.show()
    model.set_diagnostics(DIAGS, BASE, [f"{BASE}/proj"])
    widget.set_skill_count(3)
    return widget


def test_counts_follow_current_skill_only(qtbot: QtBot) -> None:
    widget = panel(qtbot)
    assert [b.text() for b in widget.toggles.values()] == ["3 errors", "1 warning", "1 info"]
    widget.set_current_path(DIAGS[0].path)
    widget.current_only.setChecked(True)
    assert [b.text() for b in widget.toggles.values()] == ["1 error", "1 warning", "0 info"]
    widget.set_current_path(DIAGS[2].path)
    assert [b.text() for b in widget.toggles.values()] == ["2 errors", "0 warnings", "0 info"]
    widget.current_only.setChecked(False)
    assert widget.toggles["error"].text() == "3 errors"


def test_one_skills_rows_stay_together(qtbot: QtBot) -> None:
    model = panel(qtbot).model
    skills = [model.index(r, 2).data().split(" › ")[1] for r in range(model.rowCount())]
    assert skills == ["alpha", "alpha", "beta", "beta", "gamma"], skills
    first_of_beta = [model.index(r, 1).data() for r in (2, 3)]
    assert first_of_beta == ["name-format", "field-type"], "errors first, by line, in a file"


def test_a_long_message_is_readable_at_1024(qtbot: QtBot) -> None:
    """At 1024 px the Problems list is about 716 px wide."""
    widget = panel(qtbot, 716)
    qtbot.wait(10)
    view, model = widget.view, widget.model
    row = next(r for r in range(model.rowCount()) if model.index(r, 1).data() == "shadowed")
    message = model.index(row, 0)
    metrics = view.fontMetrics()
    wanted = metrics.horizontalAdvance(LONG)
    column = view.header().sectionSize(0)
    assert wanted > column, "the case: longer than its column"
    rect = view.visualRect(message)
    lines = rect.height() // metrics.lineSpacing()
    assert lines * (column - 8) >= wanted, (lines, column, wanted)
    where = model.index(row, 2)
    assert view.header().sectionSize(2) >= metrics.horizontalAdvance(where.data()) + 8
    assert "gamma" in model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)


def test_current_skill_only_with_no_problems_says_so(qtbot: QtBot) -> None:
    """It said "No problems in 3 skills." with problems in the others."""
    widget = panel(qtbot)
    clean = f"{BASE}/proj/delta/SKILL.md"
    widget.set_current_path(clean)
    widget.current_only.setChecked(True)
    assert widget.stack.currentWidget() is widget.empty
    assert widget.empty.text() == "No problems in delta; 5 problems in other skills."
