"""Problems: one-line rows, code and place in their own columns, severity toggles with
counts, "current skill only", identical messages across skills grouped."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from skillstudio.core.model.diagnostics import Diagnostic
from skillstudio.core.profiles import PROFILE_NAMES
from skillstudio.gui.infra.theme import apply_scheme
from skillstudio.gui.models.problems_model import DIAGNOSTIC_ROLE, ProblemsModel
from skillstudio.gui.panels.problems_panel import ProblemsPanel
from skillstudio.gui.window.main_window import MainWindow

BASE = "/tmp/work-123/skills"


def diag(skill: str, code: str, severity: str, message: str, line: int = 2) -> Diagnostic:
    path = f"{BASE}/proj/{skill}/SKILL.md"
    return Diagnostic(code, severity, message, path, line, 1, skill=skill)  # type: ignore[arg-type]


DIAGS = [
    diag("a", "field-missing", "warning", "Add a 'license' field."),
    diag("b", "field-missing", "warning", "Add a 'license' field."),
    diag("c", "field-missing", "warning", "Add a 'license' field."),
    diag("a", "name-format", "error", f"Bad name.\nSee {BASE}/proj/a/SKILL.md", 3),
    diag("b", "shadowed", "info", "Shadowed."),
]


def panel(qtbot: QtBot) -> ProblemsPanel:
    model = ProblemsModel()
    widget = ProblemsPanel(model)
    qtbot.addWidget(widget)
    model.set_diagnostics(DIAGS, BASE, [f"{BASE}/proj"])
    widget.set_skill_count(3)
    return widget


def test_problems_model_passes_qtmodeltester(qtbot: QtBot, qtmodeltester: object) -> None:
    qtmodeltester.check(panel(qtbot).model)  # type: ignore[attr-defined]


def test_rows_are_one_line_with_code_and_short_place(qtbot: QtBot) -> None:
    model = panel(qtbot).model
    assert model.rowCount() == 3  # error, the grouped warning, info
    error = [model.index(0, c).data() for c in range(3)]
    assert error == ["Bad name. See proj/a/SKILL.md", "name-format", "proj › a › line 3"]
    assert BASE not in " ".join(str(model.index(r, 0).data()) for r in range(3))


def test_identical_messages_are_grouped(qtbot: QtBot) -> None:
    model = panel(qtbot).model
    group = model.index(1, 0)
    assert model.index(1, 2).data() == "3 skills"
    assert group.data(DIAGNOSTIC_ROLE) is None
    assert model.rowCount(group) == 3
    children = [model.index(r, 2, group).data() for r in range(3)]
    assert children == ["proj › a › line 2", "proj › b › line 2", "proj › c › line 2"]
    assert model.index(2, 0, group).data(DIAGNOSTIC_ROLE) == DIAGS[2]


def test_severity_toggles_show_counts_and_filter(qtbot: QtBot) -> None:
    widget = panel(qtbot)
    texts = [b.text() for b in widget.toggles.values()]
    assert texts == ["1 error", "3 warnings", "1 info"]
    widget.toggles["warning"].setChecked(False)
    assert widget.toggles["warning"].font().strikeOut()
    assert not widget.toggles["error"].font().strikeOut()
    widget.toggles["info"].setChecked(False)
    assert [d.code for d in widget.model.shown()] == ["name-format"]
    widget.toggles["error"].setChecked(False)
    assert widget.stack.currentWidget() is widget.empty
    assert "5 problems hidden" in widget.empty.text()


def test_current_skill_only(qtbot: QtBot) -> None:
    widget = panel(qtbot)
    widget.set_current_path(DIAGS[1].path)  # skill b
    assert len(widget.model.shown()) == 5
    widget.current_only.setChecked(True)
    assert {d.skill for d in widget.model.shown()} == {"b"}
    widget.set_current_path(DIAGS[0].path)
    assert {d.skill for d in widget.model.shown()} == {"a"}


def test_empty_problems_says_how_many_skills(qtbot: QtBot) -> None:
    widget = panel(qtbot)
    widget.model.set_diagnostics([], BASE)
    assert widget.stack.currentWidget() is widget.empty
    assert widget.empty.text() == "No problems in 3 skills."


def test_the_code_column_is_as_wide_as_its_codes(qtbot: QtBot) -> None:
    """The Code column was a fixed 140 px holding "shadowed" while the Problem column
    cut its messages; it now fits the longest code shown and the rest goes to Problem."""
    widget = panel(qtbot)
    metrics = widget.view.fontMetrics()
    widest = max(metrics.horizontalAdvance(c) for c in ("field-missing", "name-format", "shadowed"))
    assert widget.view.header().sectionSize(1) == widest + 24
    widget.toggles["warning"].setChecked(False)
    widget.toggles["error"].setChecked(False)  # only "shadowed" left
    assert widget.view.header().sectionSize(1) == max(
        metrics.horizontalAdvance("shadowed") + 24, 70
    )


def mean_lightness(widget: QWidget) -> float:
    image = widget.grab().toImage()
    values = [
        image.pixelColor(x, y).lightness()
        for x in range(0, image.width(), 2)
        for y in range(0, image.height(), 2)
    ]
    return sum(values) / len(values)


def test_current_skill_only_shows_its_state_in_both_palettes(qtbot: QtBot) -> None:
    """Issue 18, item 3: on main the dark palette drew the check box as a dark square on
    the dark window (on and off differed by a 13 px check mark); the toggle now takes
    the selection colours when on, a clear difference in both palettes."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    try:
        for scheme in ("light", "dark"):
            apply_scheme(app, scheme)
            widget = panel(qtbot)
            widget.show()
            button = widget.current_only
            off = mean_lightness(button)
            button.setChecked(True)
            on = mean_lightness(button)
            assert abs(on - off) >= 25, (scheme, off, on)  # main: 2 (light), 1 (dark)
            assert button.isCheckable() and button.text() == "Current skill only"
    finally:
        apply_scheme(app, "light")


def test_current_skill_portability_is_shown(qtbot: QtBot, tmp_path: object) -> None:
    """Issue 17: the Problems panel says which profiles load the current skill."""
    import os

    from tests.helpers import skill_text, write

    path = write(
        str(tmp_path),
        "skills/review/SKILL.md",
        skill_text(name="review", description="Reviews code.", **{"argument-hint": "[f]"}),
    )
    widget = panel(qtbot)
    widget.set_current_path(path)
    qtbot.waitUntil(
        lambda: widget.where.text().startswith(
            "review's content, wherever it lies: accepted by claude-code, codex and the seed/test "
            "systems pegasus"
        )
    )
    assert "agentskills (unknown key `argument-hint`)" in widget.where.toolTip()
    widget.set_current_path("")
    assert widget.where.text() == ""
    assert os.path.isfile(path)


def test_the_loads_line_fits_at_1024_px(window: MainWindow, samples: Path, qtbot: QtBot) -> None:
    """Issue 18: at 1024x640 the "Loads in …" line was cut after a few profiles (the
    whole text only in its tooltip). It has a line of its own, wrapped to the panel's
    width, naming every profile; the reasons stay in the tooltip."""
    window.resize(1024, 640)
    window.problems_dock.raise_()
    window.open_skill(str(samples / "oasis" / "key_skills" / "commit" / "SKILL.md"))
    where = window.problems.where
    qtbot.waitUntil(lambda: "accepted by" in where.text())  # worked out off the GUI thread
    assert where.isVisible()
    rect = where.contentsRect()
    needed = where.fontMetrics().boundingRect(
        QRect(0, 0, rect.width(), 10_000), Qt.TextFlag.TextWordWrap, where.text()
    )
    assert needed.width() <= rect.width() and needed.height() <= rect.height() + 1
    for profile in PROFILE_NAMES:  # loads in some, rejected by the others: all named
        assert profile in where.text()
    assert "name format" in where.toolTip() and "name format" not in where.text()


def test_the_loads_line_says_not_read_for_a_command(tmp_path: Path) -> None:
    """Issue 27: a legacy command "loaded in pegasus, claude-code, codex"; only Claude Code
    reads command files, the others are "not read by", not "rejected by"."""
    from skillstudio.core.projects.portability import portability_of_file
    from skillstudio.gui.panels.problems_panel import loads_line

    path = tmp_path / ".claude/commands/review.md"
    path.parent.mkdir(parents=True)
    path.write_text("---\ndescription: Review the diff.\n---\n\nReview it.\n", encoding="utf-8")
    line = loads_line(portability_of_file(str(path)), "review")
    assert line.startswith(
        "review's content, wherever it lies: accepted by claude-code; not read by "
    )
    assert "codex" in line and "rejected by" not in line
