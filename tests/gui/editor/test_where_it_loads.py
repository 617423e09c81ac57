"""Tests of gui/editor/where_it_loads.py (A skill's "Where it loads" tab: for each agent
that reads the Agent Skills standard (core/profiles/agents.py), whether it finds the
skill where it sits, from which folder and scope, under which name, which of its
fields it ignores and which of its limits the skill breaks
(core/projects/agent_reach.py: what `show`'s `where:` says), for the text on screen.
Worked out off the GUI thread, when the tab is shown and the text changed (a few
`stat` calls per agent; nothing is opened))."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QTableWidgetItem
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.agent_reach import agent_reach
from skillstudio.gui.editor.where_it_loads import WhereItLoads, reach_cells
from skillstudio.gui.window.main_window import MainWindow

from ...helpers import cli, write
from ..parts import SEEDS, Editors, cell, open_window, seeds_are_called_seeds


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


def test_a_skill_says_where_each_agent_finds_it(editors: Editors, qtbot: QtBot) -> None:
    path = next(
        p
        for r in editors.context.registries
        for p in r.by_path
        if r.profile.name == "claude-code" and p.endswith("commit-message/SKILL.md")
    )
    editor = editors.open_skill(path)
    assert editor is not None
    where = editor.findChild(WhereItLoads)
    assert where is not None
    titles = [editor.views.tabText(i) for i in range(editor.views.count())]
    assert titles == ["Form", "Source", "Preview", "Where it loads"]
    editor.views.setCurrentWidget(where)
    qtbot.waitUntil(lambda: bool(where.reaches), timeout=10_000)
    skill = editor.document.registry.by_path[path]
    expected = agent_reach(skill, where.base)
    rows = [
        [cell(where.table, row, c) for c in range(where.table.columnCount())]
        for row in range(where.table.rowCount())
    ]
    assert rows == [reach_cells(r) for r in expected]
    claude = next(row for row in rows if row[0] == "Claude Code")
    assert claude[1].startswith("yes") and ".claude/skills" in claude[2]
    assert claude[3] == "commit-message"
    assert any(row[1].startswith("no") for row in rows)  # some agent looks elsewhere
    assert "Found where it lies by" in where.summary.text()


def _plugin_layouts(tmp_path: Path) -> list[tuple[Path, Path]]:
    """(repository, SKILL.md) of a one-plugin repository, a marketplace of one plugin
    and a marketplace whose plugin is the repository itself."""
    front = "---\nname: {}\ndescription: Compose React parts. Use when building UIs.\n---\n\nDo.\n"
    made = []
    one = tmp_path / "one"
    write(one, ".claude-plugin/plugin.json", '{"name": "vercel"}\n')
    made.append(
        (one, Path(write(one, "skills/patterns/SKILL.md", front.format("vercel-patterns"))))
    )
    market = tmp_path / "market"
    entry = '{"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "vercel", "source": "%s"}]}'
    write(market, ".claude-plugin/marketplace.json", entry % "./plugins/vercel")
    write(market, "plugins/vercel/.claude-plugin/plugin.json", '{"name": "vercel"}\n')
    skill = write(market, "plugins/vercel/skills/patterns/SKILL.md", front.format("patterns"))
    made.append((market, Path(skill)))
    itself = tmp_path / "itself"
    write(itself, ".claude-plugin/marketplace.json", entry % "./")
    made.append(
        (itself, Path(write(itself, "skills/patterns/SKILL.md", front.format("v-patterns"))))
    )
    return made


def test_the_names_each_agent_finds_a_skill_by_are_shows_in_every_layout(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """Where it loads said Codex finds a plugin's skill under another name than
    `show` did: the tab's rows are `show --format json`'s agents, name for name."""
    for repo, path in _plugin_layouts(tmp_path):
        editors = Editors(qtbot, repo)
        editor = editors.open_skill(str(path))
        assert editor is not None
        where = editor.findChild(WhereItLoads)
        assert where is not None
        editor.views.setCurrentWidget(where)
        qtbot.waitUntil(lambda w=where: bool(w.reaches), timeout=10_000)  # type: ignore[misc]
        name = editors.context.registries[0].by_path[str(path)].name
        run = cli("show", name, "--format", "json", cwd=repo)
        assert run.code == 0, run.err
        shown = {a["agent"]: (a["found"], a["name"]) for a in json.loads(run.out)["agents"]}
        table = {
            where.reaches[r].agent: (
                cell(where.table, r, 1).startswith("yes"),
                cell(where.table, r, 3) or None,
            )
            for r in range(where.table.rowCount())
        }
        assert table == shown, repo.name


def test_a_short_tab_shows_the_summary_s_first_line_whole(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """At 1024x768 with the tab chosen, then Try a Request given its height back (its
    tab, Ctrl+K), the summary's four lines were squeezed into two, cut at their top and
    bottom: a short tab shows its first line whole (the rest in the tooltip), and the
    whole paragraph again with the room."""
    win = open_window(qtbot, settings, samples / "claude-code", size=(1024, 768))
    paths = sorted(p for r in win.context.registries for p in r.by_path)
    editor = win.open_skill(paths[0])
    assert editor is not None
    tab = editor.findChild(WhereItLoads)
    assert tab is not None
    editor.views.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.table.rowCount() >= 10, timeout=5000)
    summary = tab.summary

    def whole() -> bool:
        return summary.height() >= summary.heightForWidth(summary.width())

    qtbot.waitUntil(lambda: whole() and "Which agents" in summary.text(), timeout=2000)
    win.menu_actions.query_action.trigger()  # Ctrl+K: Try a Request's room again
    qtbot.waitUntil(lambda: win.query_dock.height() >= 0.6 * 768, timeout=2000)
    qtbot.wait(50)
    assert whole(), (summary.height(), summary.heightForWidth(summary.width()))
    assert summary.text().startswith("Found where it lies by")
    assert "Which agents" in summary.toolTip()
    win.back_to_editor()
    qtbot.waitUntil(lambda: "Which agents" in summary.text(), timeout=2000)
    assert whole()
