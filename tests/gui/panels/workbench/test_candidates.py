"""Tests of gui/panels/workbench/candidates.py (The ranked candidates table of Try a
Request, and the line drawn at the threshold)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from skillstudio.core.ranking.estimate import LikelyCandidate
from skillstudio.core.ranking.likely_ranking import likely
from skillstudio.gui.infra.theme import colour
from skillstudio.gui.panels.workbench.query_panel import QueryPanel
from skillstudio.gui.window.main_window import MainWindow
from tests.helpers import CORPUS, cli

from ...parts import ask, open_window, panel_on, query_panel_on, write_collection


def score_cells(panel: QueryPanel) -> list[str]:
    model = panel.model
    return [model.data(model.index(row, 2)) for row in range(model.rowCount())]


# A small collection where the model chooses; two skills say nearly the same thing.
def test_bands_and_term_weights_for_a_profile_where_the_model_chooses(
    collection_panel: QueryPanel, qtbot: QtBot
) -> None:
    panel = collection_panel
    request = "review my database migration for locking problems"
    ask(panel, qtbot, request)
    registry = panel.registry
    assert registry is not None
    expected = likely(registry, request)
    model = panel.model
    assert [c.name for c in model.rows] == [c.name for c in expected.candidates]
    first = model.rows[0]
    assert isinstance(first, LikelyCandidate) and first.name == "sql-review"
    assert model.headerData(3, Qt.Orientation.Horizontal) == "Band"
    assert "estimate" in str(model.headerData(2, Qt.Orientation.Horizontal, 3)).lower()
    band = model.index(0, 3)
    assert first.band == "likely" and first.chance is not None
    assert band.data() == f"likely · {round(100 * first.chance)} %"  # what decides the band
    assert "The band reads this chance" in band.data(Qt.ItemDataRole.ToolTipRole)
    assert band.data(Qt.ItemDataRole.BackgroundRole) == QColor(colour("band_likely"))
    assert panel.summary.text().startswith("Likely: sql-review (an estimate")
    text = panel.explanation_html()
    assert "sql-review: likely" in text and "an estimate" in text
    assert "<th>term</th><th>field</th><th>weight</th>" in text
    top = first.reasons[0]
    assert top.term == "review"  # in the name and the description (and the body): all said
    assert "<code>review</code></td><td>name, description" in text
    assert f"{top.weight:.2f}" in text
    # a request no skill serves: no likely skill, said in the summary
    ask(panel, qtbot, "what is the weather in Lisbon tomorrow")
    assert all(c.band != "likely" for c in panel.model.rows if isinstance(c, LikelyCandidate))
    assert panel.summary.text().startswith("No skill is likely")
    # explicit invocation keeps its meaning: the invoked skill is selected, first
    panel.query.setText("/docker-build for the api image")
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.selected == ["docker-build"])
    assert panel.model.rows[0].name == "docker-build"


def test_heuristic_is_said_once_in_the_header_with_a_tooltip(
    query_panel: QueryPanel, qtbot: QtBot
) -> None:
    panel = panel_on(query_panel, "toolsets")
    panel.load_request("greet Bob and translate the greeting")
    panel = panel_on(query_panel, "agentskills")
    panel.load_request("review this SQL migration for locking problems")
    model = panel.model
    horizontal = Qt.Orientation.Horizontal
    assert model.rowCount() >= 1
    assert model.headerData(2, horizontal) == "Score (heuristic)"
    tip = model.headerData(2, horizontal, Qt.ItemDataRole.ToolTipRole)
    assert "not a prediction" in tip and tip.endswith("/name, $name or 'use <name> skill' selects.")
    assert all(cell.isdigit() for cell in score_cells(panel))  # no "(heuristic)" per cell
    title = panel.table.horizontalHeader().fontMetrics().horizontalAdvance("Score (heuristic)")
    assert panel.table.columnWidth(2) > title  # the header is not cut
    qtbot.wait(20)
    assert panel.table.horizontalScrollBar().maximum() == 0  # the Why column takes the rest
    panel_on(query_panel, "codex")  # a mention alone selects under codex: the tip says so
    panel.load_request("review this SQL migration for locking problems")
    tip = model.headerData(2, horizontal, Qt.ItemDataRole.ToolTipRole)
    assert tip.endswith("Only a $name or [$name](path) mention selects."), tip
    panel_on(query_panel, "oasis")
    panel.load_request("code review please")
    assert model.headerData(2, horizontal) == "Score"
    assert model.headerData(2, horizontal, Qt.ItemDataRole.ToolTipRole) is None


def test_the_why_column_has_room_and_groups_reasons(window: MainWindow, qtbot: QtBot) -> None:
    window.resize(1024, 640)
    window.focus_query_panel()
    panel = panel_on(window.query_panel, "oasis")
    panel.load_request("code review please, find bugs in my commit")
    qtbot.wait(50)
    model = panel.model
    why = model.data(model.index(0, 4))
    assert why == "trigger: code review, find bugs; name: Code Review"
    # The reason is readable: wide enough for a few words, and the row wraps to fit it.
    assert panel.table.columnWidth(4) >= 140  # main: 40 px ("keyw… 'issu…")
    # A short dock (issue 30; dragged so since issue 39 gave it most of the height):
    # one line a row, so that more rows show; the reasons whole in the tooltip (and
    # the explanation).
    window.resizeDocks([window.query_dock], [200], Qt.Orientation.Vertical)
    qtbot.waitUntil(lambda: not panel.table.wordWrap(), timeout=3000)
    metrics = panel.table.fontMetrics()
    assert panel.table.rowHeight(0) < 2 * metrics.height()
    assert "code review" in model.data(model.index(0, 4), Qt.ItemDataRole.ToolTipRole)
    # A tall one: the row wraps to fit its reason.
    window.resizeDocks([window.query_dock], [420], Qt.Orientation.Vertical)
    qtbot.waitUntil(lambda: panel.table.wordWrap(), timeout=3000)
    needed = metrics.boundingRect(
        0, 0, panel.table.columnWidth(4) - 8, 1000, int(Qt.TextFlag.TextWordWrap), why
    ).height()
    assert panel.table.rowHeight(0) >= needed


def test_projects_are_named_by_folder_and_the_threshold_line_is_labelled(
    query_panel: QueryPanel, qtbot: QtBot
) -> None:
    panel = query_panel
    labels = [panel.project_box.itemText(n) for n in range(panel.project_box.count())]
    assert "oasis" in labels and "oasis · oasis" not in labels
    assert all(" · " not in label for label in labels)  # each sample folder is its profile
    panel = panel_on(query_panel, "oasis")
    panel.load_request("code review of the tests")
    row = panel.model.threshold_row
    assert row > 0
    delegate = panel.table.itemDelegate()
    assert delegate.label() == "threshold 10"  # type: ignore[attr-defined]
    qtbot.wait(20)  # the row has a band for the labelled line above its text
    line_height = panel.table.fontMetrics().height()
    assert panel.table.rowHeight(row) >= line_height + delegate.BAND  # type: ignore[attr-defined]
    assert panel.table.rowHeight(row + 1) < line_height + delegate.BAND  # type: ignore[attr-defined]


def test_a_heuristic_ranking_says_it_is_an_estimate_without_pass_or_fail(
    query_panel: QueryPanel,
) -> None:
    """Where the model chooses, the summary says what the ranking is (not "No skill is
    selected") and no row says passed or failed (issue 18, item 2)."""
    panel = panel_on(query_panel, "agentskills")
    panel.load_request("review this SQL migration for locking problems")
    text = panel.summary.text()
    assert panel.result is not None and panel.result.heuristic
    assert text.startswith("Estimate: the model chooses;"), text
    assert "No skill is selected" not in text
    total = panel.result.total
    assert total >= 1 and f"{total} skill" in text
    model = panel.model
    assert all(model.data(model.index(row, 3)) == "" for row in range(model.rowCount()))
    assert panel.table.isColumnHidden(3)
    # An explicit invocation keeps the engine's sentence; rule-based profiles keep Passed.
    panel.load_request("/sql-review check this")
    assert panel.summary.text() == "sql-review is invoked by name."
    panel_on(query_panel, "oasis").load_request("code review please")
    assert not panel.table.isColumnHidden(3)
    assert model.data(model.index(0, 3)) == "yes"
    assert not panel.summary.text().startswith("Estimate")


def test_codexs_own_skills_are_ranked_marked_and_told_apart(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under codex, Try a Request ranks Codex's system skills as it ranks Claude Code's
    bundled ones, marked as `match` marks them ("(codex's own)"), and a row whose name
    a skill of the author's shares says which it is (its file, or built in)."""
    from tests.helpers import codex_machine, write

    codex_machine(tmp_path / "machine", monkeypatch)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    mine = write(
        repo,
        ".agents/skills/skill-creator/SKILL.md",
        "---\nname: skill-creator\ndescription: Create a new Codex skill. Use when asked to "
        "create a new skill.\n---\n\nDo it.\n",
    )
    panel = query_panel_on(qtbot, repo, "codex")
    ask(panel, qtbot, "generate a bitmap image of a cat")
    names = [panel.model.cell_text(r, 1, c) for r, c in enumerate(panel.model.rows)]
    assert names[0] == "imagegen (codex's own)"
    ask(panel, qtbot, "create a new skill for codex")
    rows = panel.model.rows
    shown = {panel.model.cell_text(r, 1, c): r for r, c in enumerate(rows)}
    assert {"skill-creator", "skill-creator (codex's own)"} <= set(shown)

    def tip(row: int) -> str:
        return str(panel.model.data(panel.model.index(row, 1), Qt.ItemDataRole.ToolTipRole))

    assert tip(shown["skill-creator"]).startswith(mine + "\n")
    assert tip(shown["skill-creator (codex's own)"]).startswith("codex's own, built in\n")
    other = next(r for r, c in enumerate(rows) if c.name != "skill-creator")
    assert tip(other).startswith("term '")  # a name no other row has: its words only


# -- the rows' scores are `skillstudio match`'s, whatever the panels opened, the theme
# and the profile (issue 39: the app showed 1.36 where match said 1.34, on the same files)
REQUESTS = (
    "test my react app login page with playwright",
    "build an MCP server for the GitHub API",
    "please look over my pull request",
    "review the sql migration",
)


def _cli(folder: Path, request: str, profile: str) -> dict[str, tuple[float, float]]:
    run = cli("match", request, "--profile", profile, "--format", "json", cwd=folder)
    assert run.code in (0, 1), run.err
    return {c["skill"]: (c["score"], c["strength"]) for c in run.json["likely"]}


def _app(window: MainWindow, qtbot: QtBot, request: str) -> dict[str, tuple[float, float]]:
    panel = window.query_panel
    window.query_dock.show()
    window.query_dock.raise_()  # (a hidden panel waits until shown)
    ask(panel, qtbot, "hello")  # (the same request again would not re-rank)
    ask(panel, qtbot, request)
    assert panel.likely is not None
    return {c.name: (round(c.score, 3), round(c.strength, 3)) for c in panel.likely.candidates}


def _agrees(window: MainWindow, qtbot: QtBot, folder: Path, profile: str) -> None:
    for request in REQUESTS:
        assert _app(window, qtbot, request) == _cli(folder, request, profile), request


def _made_and_deleted(window: MainWindow, qtbot: QtBot, folder: Path) -> None:
    """A skill made, ranked and deleted, and another's description edited for good
    (a few words: the average lengths move a little), each read again with F5."""
    existing = sorted(folder.rglob("SKILL.md"))[0]
    made = existing.parent.parent / "made-here" / "SKILL.md"
    made.parent.mkdir()
    made.write_text("---\nname: made-here\ndescription: Review a login page.\n---\n\n# Made\n")
    text = existing.read_text(encoding="utf-8")
    steps = (
        lambda: None,
        lambda: shutil.rmtree(made.parent),
        lambda: existing.write_text(text.replace("description: ", "description: sql api ", 1)),
    )
    for step in steps:
        step()
        window.reload()  # F5
        qtbot.wait(300)
        _app(window, qtbot, REQUESTS[0])


def _check(
    qtbot: QtBot, settings: QSettings, folder: Path, switch_theme: Callable[[str], None]
) -> None:
    window = open_window(qtbot, settings, folder, "agentskills")
    _agrees(window, qtbot, folder, "agentskills")
    _made_and_deleted(window, qtbot, folder)
    _agrees(window, qtbot, folder, "agentskills")
    window.menu_actions.overlap_action.trigger()  # View > Overlap Map
    qtbot.waitUntil(lambda: window.overlap_map.isVisible(), timeout=10_000)
    switch_theme("dark")
    _agrees(window, qtbot, folder, "agentskills")
    index = window.profile_box.findData("claude-code")
    with qtbot.waitSignal(window.scan_finished, timeout=20_000):
        window.profile_box.setCurrentIndex(index)
    _agrees(window, qtbot, folder, "claude-code")
    switch_theme("light")
    _agrees(window, qtbot, folder, "claude-code")


def test_try_a_request_scores_as_match_does(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, switch_theme: Callable[[str], None]
) -> None:
    _check(qtbot, settings, write_collection(tmp_path / "collection"), switch_theme)


def test_try_a_request_scores_as_match_does_on_the_corpus(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, switch_theme: Callable[[str], None]
) -> None:
    source = os.path.join(CORPUS, "anthropics-skills")
    if not os.path.isdir(source):
        pytest.skip("the shared corpus is not here")
    folder = tmp_path / "anthropics-skills"
    shutil.copytree(source, folder)
    _check(qtbot, settings, folder, switch_theme)


def test_the_band_tooltip_says_when_the_listing_explains_none_of_the_request() -> None:
    """A possible band beside a chance above the likely cut-off reads as a contradiction
    unless the tooltip says why: the skill's listing explains none of the request."""
    from skillstudio.core.model.document import Document
    from skillstudio.core.model.skills import Root, Skill
    from skillstudio.core.ranking.estimate import LIKELY_MODEL, Evidence
    from skillstudio.gui.panels.workbench.candidates import band_tip

    skill = Skill("s/SKILL.md", Root("s", "project"), Document("s/SKILL.md"), name="monorepo")

    def cand(shown: float) -> LikelyCandidate:
        evidence = Evidence(0.6, 1.2, shown, 1.0 - shown, False)
        return LikelyCandidate(skill, 1.0, 0.6, "possible", [], evidence, chance=0.71)

    bar = round(100 * LIKELY_MODEL.unlisted_p)
    assert "Its listing explains none of the request" in band_tip(cand(0.0))
    assert f"likely only from {bar} %" in band_tip(cand(0.0))
    assert "listing explains none" not in band_tip(cand(0.3))


def test_a_trigger_phrase_is_shown_as_such(qtbot: QtBot, tmp_path: Path) -> None:
    """A phrase of the skill's trigger clause the request says (issue 39, round 4) reads
    as one in Try a Request: its row's tip names the rule ("trigger 'a test failure'",
    not "term"), and the explanation's table says where it is from."""
    from tests.helpers import skill_text, write
    from tests.test_trigger_phrases import WORKFLOW

    for name, (description, body) in WORKFLOW.items():
        write(
            tmp_path,
            f"skills/{name}/SKILL.md",
            skill_text(name=name, description=description, _body=body),
        )
    panel = query_panel_on(qtbot, tmp_path / "skills", "agentskills")
    ask(panel, qtbot, "my tests started failing after the last merge, help me find out why")
    first = panel.model.rows[0]
    assert first.name == "root-cause-debugging"
    tip = str(panel.model.data(panel.model.index(0, 1), Qt.ItemDataRole.ToolTipRole))
    assert tip.splitlines()[0].startswith("trigger 'a test failure' ")
    assert (
        "<code>a test failure</code></td><td>trigger clause, as a phrase"
        in panel.explanation_html()
    )
