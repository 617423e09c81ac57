"""Try a Request reads at a glance (issue 18, items 4-8): the reasons have room,
"heuristic" is said once, the tiers are named, the request is shown as typed, the
activation follows the current project's ranking, projects are named by folder."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from pytestqt.qtbot import QtBot

from skillstudio.gui.main_window import MainWindow
from skillstudio.gui.workbench.query_panel import QueryPanel

from .test_workbench import panel_on


def plain(html_text: str) -> str:
    doc = QTextDocument()
    doc.setHtml(html_text)
    return doc.toPlainText()


def score_cells(panel: QueryPanel) -> list[str]:
    model = panel.model
    return [model.data(model.index(row, 2)) for row in range(model.rowCount())]


def test_heuristic_is_said_once_in_the_header_with_a_tooltip(
    window: MainWindow, qtbot: QtBot
) -> None:
    window.focus_query_panel()
    panel = panel_on(window, "toolsets")
    panel.load_request("greet Bob and translate the greeting")
    panel = panel_on(window, "agentskills")
    panel.load_request("review this SQL migration for locking problems")
    model = panel.model
    horizontal = Qt.Orientation.Horizontal
    assert model.rowCount() >= 1
    assert model.headerData(2, horizontal) == "Score (heuristic)"
    tip = model.headerData(2, horizontal, Qt.ItemDataRole.ToolTipRole)
    assert "not a prediction" in tip and "/name" in tip
    assert all(cell.isdigit() for cell in score_cells(panel))  # no "(heuristic)" per cell
    title = panel.table.horizontalHeader().fontMetrics().horizontalAdvance("Score (heuristic)")
    assert panel.table.columnWidth(2) > title  # the header is not cut
    qtbot.wait(20)
    assert panel.table.horizontalScrollBar().maximum() == 0  # the Why column takes the rest
    panel_on(window, "oasis")
    panel.load_request("code review please")
    assert model.headerData(2, horizontal) == "Score"
    assert model.headerData(2, horizontal, Qt.ItemDataRole.ToolTipRole) is None


def test_the_why_column_has_room_and_groups_reasons(window: MainWindow, qtbot: QtBot) -> None:
    window.resize(1024, 640)
    window.focus_query_panel()
    panel = panel_on(window, "oasis")
    panel.load_request("code review please, find bugs in my commit")
    qtbot.wait(50)
    model = panel.model
    why = model.data(model.index(0, 4))
    assert why == "trigger: code review, find bugs; name: Code Review"
    # The reason is readable: wide enough for a few words, and the row wraps to fit it.
    assert panel.table.columnWidth(4) >= 140  # main: 40 px ("keyw… 'issu…")
    # A short dock (issue 30): one line a row, so that more rows show; the reasons
    # whole in the tooltip (and the explanation).
    metrics = panel.table.fontMetrics()
    assert not panel.table.wordWrap()
    assert panel.table.rowHeight(0) < 2 * metrics.height()
    assert "code review" in model.data(model.index(0, 4), Qt.ItemDataRole.ToolTipRole)
    # A tall one: the row wraps to fit its reason.
    window.resizeDocks([window.query_dock], [420], Qt.Orientation.Vertical)
    qtbot.waitUntil(lambda: panel.table.wordWrap(), timeout=3000)
    needed = metrics.boundingRect(
        0, 0, panel.table.columnWidth(4) - 8, 1000, int(Qt.TextFlag.TextWordWrap), why
    ).height()
    assert panel.table.rowHeight(0) >= needed


def test_tiers_are_named_and_the_used_one_said_in_words(window: MainWindow) -> None:
    panel = panel_on(window, "oasis")
    panel.load_request("code review please, find bugs in my commit")
    # The full titles are the tabs' tooltips (the tabs say as much as their width allows).
    tips = [panel.tier_tabs.tabToolTip(n).split("\n")[0] for n in range(4)]
    assert tips == [
        "Tier 0 · Skills not shown",
        "Tier 1 · Breadcrumb",
        "Tier 2 · Listing",
        "Tier 3 · Full instructions — used for this request",
    ]
    titles = [panel.tier_tabs.tabText(n) for n in range(4)]
    assert [n for n in range(4) if "used" in titles[n]] == [3]
    assert "●" not in "".join(titles)
    assert panel.tier_used.text() == "Tier 3: code-review loaded in full"
    panel.load_request("what is the weather")
    assert panel.tier_tabs.tabToolTip(3).split("\n")[0] == "Tier 3 · Full instructions"
    assert "used" not in panel.tier_tabs.tabText(3)
    # An empty tier says what that means instead of showing a large empty box.
    panel.show_tier(0)
    nothing = panel.tier_views[0]
    assert not nothing.text.isVisible() and nothing.empty.isVisible()
    assert "as if the agent had no skills" in nothing.empty.text()
    panel.show_tier(3)
    instructions = panel.tier_views[3]
    assert "No skill is selected" in instructions.empty.text()
    assert not instructions.text.isVisible()


def test_budget_and_disable_model_invocation_are_separate_reasons(window: MainWindow) -> None:
    panel = panel_on(window, "pegasus")
    panel.option.setValue(1_300)  # tokens: a listing budget of 104 characters
    panel.load_request("deploy the release to staging")
    panel.show_tier(2)
    lines = panel.tier_views[2].omitted.text().splitlines()
    hidden = [line for line in lines if "disable-model-invocation" in line]
    budget = [line for line in lines if line.startswith("Left out by the budget")]
    assert len(hidden) == 1 and "deploy" in hidden[0]
    assert len(budget) == 1 and "deploy" not in budget[0]
    assert "disable-model-invocation" not in budget[0]


def test_explanation_shows_the_request_as_typed_with_one_list(window: MainWindow) -> None:
    panel = panel_on(window, "mvp")
    panel.load_request("/code-review src/app.py")
    text = plain(panel.explanation_html())
    assert "Request: /code-review src/app.py" in text
    assert ">code-review</span>" in panel.explanation_html()  # one mark for the name
    panel = panel_on(window, "oasis")
    panel.load_request("I want a Code Review, please!")
    html_text = panel.explanation_html()
    assert "Request: I want a Code Review, please!" in plain(html_text)
    assert ">Code Review</span>" in html_text
    cand = panel.result.candidate("code-review") if panel.result else None
    assert cand is not None
    for reason in cand.reasons:  # each point is listed once, not in a table and a list
        assert plain(html_text).count(f"+{reason.points} {reason.rule} {reason.term}") == 1
    assert html_text.count("<table") == 0


def test_why_not_on_the_winner_shows_its_block_once(window: MainWindow) -> None:
    panel = panel_on(window, "oasis")
    panel.load_request("code review please, find bugs in my commit")
    panel.why_box.setCurrentIndex(panel.why_box.findData("code-review"))
    text = plain(panel.explanation_html())
    assert text.count("code-review: 40 points, selected") == 1
    assert text.count("Request:") == 1
    panel.why_box.setCurrentIndex(panel.why_box.findData("commit"))
    text = plain(panel.explanation_html())
    assert "Why not commit?" in text and text.count("Request:") == 1
    assert "commit: 21 points" in text  # the skill asked about, explained once


def test_activation_follows_the_ranking_of_the_current_project(window: MainWindow) -> None:
    panel = panel_on(window, "agentskills")
    window.focus_query_panel()
    panel.load_request("write the release notes")
    assert panel.activation.skill.currentText() == panel.model.rows[0].name == "release-notes"
    panel_on(window, "workspace")
    panel.load_request("survey the repo layout")
    registry = panel.registry
    assert registry is not None
    name = panel.activation.skill.currentText()
    assert name == panel.model.rows[0].name and name in registry.active
    act = panel.activation.activation
    assert act is not None
    assert act.ok, act.error
    assert "NOT_FOUND" not in panel.activation.output.toPlainText()
    # Choosing another row shows that skill's activation.
    panel_on(window, "oasis")
    panel.load_request("code review please, find bugs in my commit")
    assert panel.activation.skill.currentText() == "code-review"
    panel.table.selectRow(1)
    assert panel.activation.skill.currentText() == "commit"
    act = panel.activation.activation
    assert act is not None and act.ok and act.skill == "commit"
    # A project without the request's skill never keeps a name it does not have.
    panel_on(window, "toolsets")
    registry = panel.registry
    assert registry is not None
    shown = panel.activation.skill.currentText()
    assert shown == "" or shown in registry.active


def test_projects_are_named_by_folder_and_the_threshold_line_is_labelled(
    window: MainWindow, qtbot: QtBot
) -> None:
    panel = window.query_panel
    labels = [panel.project_box.itemText(n) for n in range(panel.project_box.count())]
    assert "oasis" in labels and "oasis · oasis" not in labels
    assert all(" · " not in label for label in labels)  # each sample folder is its profile
    panel = panel_on(window, "oasis")
    window.focus_query_panel()
    panel.load_request("code review of the tests")
    row = panel.model.threshold_row
    assert row > 0
    delegate = panel.table.itemDelegate()
    assert delegate.label() == "threshold 10"  # type: ignore[attr-defined]
    qtbot.wait(20)  # the row has a band for the labelled line above its text
    line_height = panel.table.fontMetrics().height()
    assert panel.table.rowHeight(row) >= line_height + delegate.BAND  # type: ignore[attr-defined]
    assert panel.table.rowHeight(row + 1) < line_height + delegate.BAND  # type: ignore[attr-defined]


def test_activation_of_an_explicit_invocation_is_the_one_the_request_triggers(
    window: MainWindow,
) -> None:
    panel = panel_on(window, "pegasus")
    panel.load_request("/deploy staging")
    view = panel.activation
    assert view.skill.currentText() == "deploy"
    assert view.args.text() == "staging" and view.invoker.currentData() == "user"
    act = view.activation
    assert act is not None
    assert act.ok, act.error  # not the model's PERMISSION_DENIED: the user typed /deploy
    assert "As a user invocation: /deploy staging" in view.invocation.text()


def test_marked_request_keeps_any_typed_text() -> None:
    from skillstudio.core.model.text import normalize
    from skillstudio.gui.workbench.explanation import marked_request

    for query, terms in [
        ("/code-review src/app.py", ["code-review"]),
        ("İstanbul Iİ review", ["review"]),  # lowercase changes the length
        ("  ¿qué?  revisión_de código!! ", ["código"]),
        ("", ["x"]),
        ("---", []),
    ]:
        pieces = marked_request(query, normalize(query), terms)
        marked = [piece for piece, hit in pieces if hit]
        if "".join(piece for piece, _hit in pieces) == query:
            assert all(normalize(p) for p in marked)
        else:  # words that do not line up: the normalized words, still marked
            assert " ".join(p for p, _h in pieces).split() == normalize(query).split()
    pieces = marked_request("Please REVIEW it", "please review it", ["review"])
    assert pieces == [("Please ", False), ("REVIEW", True), (" it", False)]


def test_the_panel_stacks_when_narrow_so_why_and_tiers_stay_readable(
    window: MainWindow, qtbot: QtBot
) -> None:
    """Below 900 px of panel width the details go under the ranking (issue 18, item 1)
    when the dock is tall enough for both (issue 30: in a short dock, stacked, they
    showed 2 rows and 3 lines): at 1024x640 the Why column and the tier text get most
    of the width, not half."""
    panel = panel_on(window, "oasis")
    window.focus_query_panel()
    window.resizeDocks([window.query_dock], [420], Qt.Orientation.Vertical)
    panel.load_request("code review please, find bugs in my commit")
    panel.show_tier(2)
    tier_text = panel.tier_views[2].text
    sizes = {}
    for width, height in ((1024, 640), (1280, 800), (1024, 640)):
        window.resize(width, height)
        window.resizeDocks([window.query_dock], [420], Qt.Orientation.Vertical)
        qtbot.wait(50)
        stacked = panel.split.orientation() == Qt.Orientation.Vertical
        sizes[width] = (panel.width(), stacked, panel.table.columnWidth(4), tier_text.width())
        if width == 1024:
            assert panel.width() < 900 and stacked  # the switch is live, both ways
            # Ranking above details: both as wide as the panel (main: 144 and 279 px).
            assert panel.table.width() > panel.width() - 30
            assert panel.table.columnWidth(4) >= 300
            assert tier_text.width() >= 500
        else:
            assert panel.width() >= 900 and not stacked
            assert panel.table.columnWidth(4) >= 200
            assert tier_text.width() >= 400
    # The ranking keeps every row's reason in view: no horizontal scrolling in either.
    assert panel.table.horizontalScrollBar().maximum() == 0, sizes


def test_a_heuristic_ranking_says_it_is_an_estimate_without_pass_or_fail(
    window: MainWindow,
) -> None:
    """Where the model chooses, the summary says what the ranking is (not "No skill is
    selected") and no row says passed or failed (issue 18, item 2)."""
    panel = panel_on(window, "agentskills")
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
    panel_on(window, "oasis").load_request("code review please")
    assert not panel.table.isColumnHidden(3)
    assert model.data(model.index(0, 3)) == "yes"
    assert not panel.summary.text().startswith("Estimate")


def test_the_stacked_panel_fits_its_dock_without_scrolling(
    window: MainWindow, qtbot: QtBot
) -> None:
    """The wrapped summary asked for height-for-width, so the dock's scroll area gave
    the panel its whole preferred height (603 px in a 326 px dock) and the details
    were below the fold; both halves show now."""
    window.resize(1024, 640)
    window.focus_query_panel()
    window.resizeDocks([window.query_dock], [352], Qt.Orientation.Vertical)
    panel = panel_on(window, "oasis")
    panel.load_request("code review of the tests")
    qtbot.wait(50)
    area = panel.parentWidget()
    assert area is not None
    assert panel.height() <= area.height() + 1
    table, details = panel.split.sizes()
    assert table >= 100 and details >= 100
    # A tier is not squeezed below its header, meter and text (it scrolls).
    panel_on(window, "pegasus").load_request("deploy the release to staging")
    panel.show_tier(2)
    qtbot.wait(50)
    view = panel.tier_views[2]
    assert view.height() >= view.minimumSizeHint().height()  # never squeezed
