"""Problems' content line and the "Where it loads" tab answer two questions (issue 30's
first-time reviewer read them as one, contradicting itself): which profiles' rules
accept the skill's text wherever it lies, and which agents find it in its folder. Each
says which it answers, names the skill, and calls the five seed systems what they are."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtWidgets import QTableWidgetItem
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.portability import Verdict
from skillstudio.gui.editor.where_it_loads import WhereItLoads
from skillstudio.gui.infra.profile_choices import profile_groups
from skillstudio.gui.panels.problems_panel import loads_line
from skillstudio.gui.window.main_window import MainWindow

SEEDS = ("oasis", "pegasus", "toolsets", "mvp", "workspace")


def seeds_are_called_seeds(line: str) -> None:
    """Every seed system the line names stands in a group said to be seed/test systems."""
    for clause in re.split(r"; |\. ", line):
        for seed in SEEDS:
            if re.search(rf"\b{seed}\b", clause):
                before = clause[: re.search(rf"\b{seed}\b", clause).start()]  # type: ignore[union-attr]
                assert "seed/test system" in before, (seed, clause)


def test_a_claude_skill_accepted_by_agentskills_reads_without_contradiction(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    base = tmp_path / "project"
    folder = base / ".claude" / "skills" / "pdf-forms"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: pdf-forms\ndescription: Fill in PDF forms. Use for PDF form work.\n---\n\n"
        "# PDF forms\n\nSteps.\n",
        encoding="utf-8",
    )
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(base))
    editor = window.open_skill(str(folder / "SKILL.md"))
    assert editor is not None
    line = window.problems.where
    qtbot.waitUntil(lambda: "accepted by" in line.text(), timeout=10_000)
    text = line.text()
    # the question it answers: the content, wherever the file lies; the skill named
    assert text.startswith("pdf-forms's content, wherever it lies: accepted by agentskills")
    assert "codex" in text.split(";")[0]  # its rules take the text …
    assert "Loads in" not in text and "finds" not in text.split(".")[0]
    assert "Where it loads" in line.toolTip()  # … where the other question is answered
    seeds_are_called_seeds(text)
    assert "seed/test system" in line.toolTip()
    where = editor.findChild(WhereItLoads)
    assert where is not None
    editor.views.setCurrentWidget(where)
    qtbot.waitUntil(lambda: bool(where.reaches), timeout=10_000)
    summary = where.summary.text()
    assert "pdf-forms" in summary and ".claude/skills" in summary
    assert "where it lies" in summary and "Problems" in summary
    assert "accepted by" not in summary and "rejected by" not in summary
    cell = where.table.item
    rows = {(cell(r, 0) or QTableWidgetItem()).text(): (cell(r, 1) or QTableWidgetItem()).text()
            for r in range(where.table.rowCount())}  # fmt: skip
    assert rows["Codex CLI"].startswith("no")  # … not where Codex looks: both true at once
    assert rows["Claude Code"].startswith("yes")
    assert not any(seed in title.lower() for title in rows for seed in SEEDS), "agents only"


def test_the_line_groups_seed_systems_apart_from_agents() -> None:
    agents, seeds = profile_groups()
    assert set(seeds) == set(SEEDS) and "agentskills" in agents
    verdicts = [Verdict(n, n in ("agentskills", "pegasus", "mvp"), "active") for n in agents]
    verdicts += [Verdict(n, n in ("pegasus", "mvp"), "active") for n in seeds]
    line = loads_line(verdicts, "review")
    assert line.startswith(
        "review's content, wherever it lies: accepted by agentskills and the seed/test "
        "systems pegasus, mvp; rejected by claude-code, codex and the seed/test systems "
    )
    seeds_are_called_seeds(line)
