"""Tests of gui/panels/problems_panel.py (ProblemsPanel: the Problems dock's content:
severity toggles with counts, "current skill only", the grouped one-line list, and a
sentence when there is nothing to show)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QScrollArea, QWidget
from pytestqt.qtbot import QtBot

from skillstudio.core.model.diagnostics import Diagnostic
from skillstudio.core.profiles import PROFILE_NAMES
from skillstudio.core.projects.portability import Verdict
from skillstudio.gui.infra.profile_choices import profile_groups
from skillstudio.gui.infra.theme import apply_scheme
from skillstudio.gui.models.problems_model import DIAGNOSTIC_ROLE, ProblemsModel
from skillstudio.gui.panels.problems_panel import ProblemsPanel, loads_line
from skillstudio.gui.window.main_window import MainWindow

from ..parts import SEEDS, seeds_are_called_seeds

DAILY_BASE = "/tmp/work-9/skills"


LONG = (
    "Shadowed by 'hello-extended' in the project root (toolsets/.agent/skills/"
    "hello-extended/SKILL.md), which has higher precedence; rename one of them."
)


def daily_diag(skill: str, code: str, severity: str, message: str, line: int) -> Diagnostic:
    path = f"{DAILY_BASE}/proj/{skill}/SKILL.md"
    return Diagnostic(code, severity, message, path, line, 1, skill=skill)  # type: ignore[arg-type]


DAILY_DIAGS = [
    daily_diag("alpha", "name-format", "error", "Bad name.", 2),
    daily_diag("alpha", "field-missing", "warning", "Add 'license'.", 3),
    daily_diag("beta", "name-format", "error", "Bad name too.", 2),
    daily_diag("beta", "field-type", "error", "Wrong type.", 4),
    daily_diag("gamma", "shadowed", "info", LONG, 1),
]


def daily_panel(qtbot: QtBot, width: int = 716) -> ProblemsPanel:
    model = ProblemsModel()
    widget = ProblemsPanel(model)
    qtbot.addWidget(widget)
    widget.resize(width, 300)
    widget.show()
    model.set_diagnostics(DAILY_DIAGS, DAILY_BASE, [f"{DAILY_BASE}/proj"])
    widget.set_skill_count(3)
    return widget


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


def mean_lightness(widget: QWidget) -> float:
    image = widget.grab().toImage()
    values = [
        image.pixelColor(x, y).lightness()
        for x in range(0, image.width(), 2)
        for y in range(0, image.height(), 2)
    ]
    return sum(values) / len(values)


def test_counts_follow_current_skill_only(qtbot: QtBot) -> None:
    """The project's counts (`lint -v`'s) stay in sight: current skill only shows its share."""
    widget = daily_panel(qtbot)
    assert [b.text() for b in widget.toggles.values()] == ["3 errors", "1 warning", "1 info"]
    widget.set_current_path(DAILY_DIAGS[0].path)
    widget.current_only.setChecked(True)
    texts = [b.text() for b in widget.toggles.values()]
    assert texts == ["1 of 3 errors", "1 of 1 warning", "0 of 1 info"]
    widget.set_current_path(DAILY_DIAGS[2].path)
    texts = [b.text() for b in widget.toggles.values()]
    assert texts == ["2 of 3 errors", "0 of 1 warning", "0 of 1 info"]
    widget.current_only.setChecked(False)
    assert widget.toggles["error"].text() == "3 errors"


def test_one_skills_rows_stay_together(qtbot: QtBot) -> None:
    model = daily_panel(qtbot).model
    skills = [model.index(r, 2).data().split(" › ")[1] for r in range(model.rowCount())]
    assert skills == ["alpha", "alpha", "beta", "beta", "gamma"], skills
    first_of_beta = [model.index(r, 1).data() for r in (2, 3)]
    assert first_of_beta == ["name-format", "field-type"], "errors first, by line, in a file"


def test_a_long_message_is_readable_at_1024(qtbot: QtBot) -> None:
    """At 1024 px the Problems list is about 716 px wide."""
    widget = daily_panel(qtbot, 716)
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
    widget = daily_panel(qtbot)
    clean = f"{DAILY_BASE}/proj/delta/SKILL.md"
    widget.set_current_path(clean)
    widget.current_only.setChecked(True)
    assert widget.stack.currentWidget() is widget.empty
    assert widget.empty.text() == "No problems in delta; 5 problems in other skills."


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
        lambda: (
            widget.where.text().startswith(
                "review's content, wherever it lies: accepted by claude-code, codex, copilot, "
                "cursor"
            )
            and "and the seed/test systems pegasus" in widget.where.text()
        )
    )
    assert "agentskills (unknown key `argument-hint`)" in widget.where.toolTip()
    widget.set_current_path("")
    assert widget.where.text() == ""
    assert os.path.isfile(path)


def test_the_loads_line_is_one_line_over_rows_at_1024_px(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    """At 1024x768 a reviewer's Problems showed one row under a three-line "…'s content,
    wherever it lies: accepted by …" sentence and two nested scroll bars. The sentence
    is one line, elided, the whole of it in its tooltip; the list scrolls itself (no
    scroll area around it) and shows several rows."""
    window.resize(1024, 768)
    window.problems_dock.raise_()
    window.open_skill(str(samples / "oasis" / "key_skills" / "commit" / "SKILL.md"))
    where = window.problems.where
    qtbot.waitUntil(lambda: "accepted by" in where.text())  # worked out off the GUI thread
    qtbot.wait(50)
    assert where.isVisible()
    assert where.height() <= where.fontMetrics().height() * 2  # one line
    assert where.shown().endswith("…") and len(where.shown()) < len(where.text())
    assert where.toolTip().startswith(where.text())  # every profile named there
    for profile in PROFILE_NAMES:
        assert profile in where.toolTip()
    assert "name format" in where.toolTip() and "name format" not in where.text()
    assert window.problems_dock.widget() is window.problems  # no scroll area around it
    assert not window.problems_dock.findChildren(QScrollArea)
    view = window.problems.view
    assert window.problems.model.rowCount() >= 1
    first = view.visualRect(window.problems.model.index(0, 0))
    assert view.viewport().height() >= 3 * first.height(), "three rows at least"


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


def test_loads_in_follows_the_text_on_screen(window: MainWindow, qtbot: QtBot) -> None:
    """The line was worked out from the saved file: it said "Loads in … agentskills"
    above errors on screen, and "rejected by agentskills (description too long)" above
    "0 errors" until the tab changed."""
    path = next(
        p for r in window.context.registries for p in r.by_path if p.endswith("sql-review/SKILL.md")
    )
    editor = window.open_skill(path)
    assert editor is not None
    where = window.problems.where
    qtbot.waitUntil(lambda: "accepted by" in where.text(), timeout=10_000)
    assert "agentskills" in where.text().split(";")[0]
    field = editor.form.fields["description"].widget
    assert isinstance(field, QPlainTextEdit)
    original = field.toPlainText()
    field.setPlainText("x " * 700)  # 1,400 characters: over the standard's 1,024
    qtbot.waitUntil(
        lambda: "agentskills" in where.text().partition("rejected by")[2], timeout=10_000
    )
    assert "description too long" in where.toolTip()
    assert editor.document.modified  # unsaved text
    assert editor.document.save()  # saved as it is: still rejected
    qtbot.wait(100)
    assert "agentskills" in where.text().partition("rejected by")[2]
    field.setPlainText(original)
    qtbot.waitUntil(
        lambda: "agentskills" in where.text().split(";")[0] and "accepted by" in where.text(),
        timeout=10_000,
    )
    assert editor.document.save()
    qtbot.wait(100)
    assert "agentskills" in where.text().split(";")[0]


def test_loads_in_runs_one_job_at_a_time_the_newest_last(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each edit asks for the line again; on a skill that takes seconds to validate
    (issue 25's 100,000 links) a job per keystroke would fill the thread pool."""
    import threading
    import time

    from skillstudio.gui.panels import problems_panel

    running, most, calls = [0], [0], [0]
    lock = threading.Lock()
    real = problems_panel.portability

    def slow(skill: object) -> object:
        with lock:
            running[0] += 1
            calls[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(1.0)
        with lock:
            running[0] -= 1
        return real(skill)  # type: ignore[arg-type]

    monkeypatch.setattr(problems_panel, "portability", slow)
    path = next(
        p for r in window.context.registries for p in r.by_path if p.endswith("sql-review/SKILL.md")
    )
    editor = window.open_skill(path)
    assert editor is not None
    where = window.problems.where
    field = editor.form.fields["description"].widget
    assert isinstance(field, QPlainTextEdit)
    for n in range(6):
        field.setPlainText("x " * (600 + n * 20))  # each over the standard's 1,024
        qtbot.wait(350)
    qtbot.waitUntil(
        lambda: "agentskills" in where.text().partition("rejected by")[2], timeout=10_000
    )
    qtbot.waitUntil(lambda: running[0] == 0, timeout=10_000)
    qtbot.wait(300)  # nothing left waiting
    assert most[0] == 1
    assert calls[0] < 6  # the edits made meanwhile were worked out once, the newest


def test_the_line_groups_seed_systems_apart_from_agents() -> None:
    agents, seeds = profile_groups()
    assert set(seeds) == set(SEEDS) and "agentskills" in agents
    verdicts = [Verdict(n, n in ("agentskills", "pegasus", "mvp"), "active") for n in agents]
    verdicts += [Verdict(n, n in ("pegasus", "mvp"), "active") for n in seeds]
    line = loads_line(verdicts, "review")
    assert line.startswith(
        "review's content, wherever it lies: accepted by agentskills and the seed/test "
        f"systems pegasus, mvp; rejected by {', '.join(agents[1:])} and the seed/test systems "
    )
    seeds_are_called_seeds(line)
