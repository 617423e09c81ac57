"""Try a Request tells one story (issue 30's first-time review at 1024x768 and
1366x768): the headline, the row selected under it and the tier line name the same
skills; Add as test case proposes what is shown and warns about an invocation; the
"Why not" box and the ranking's context menu; the Ask a model tab says what it does;
marked words without their punctuation; tier 0 in words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.suites import load_suite
from skillstudio.core.ranking.estimate import LikelyCandidate
from skillstudio.gui.main_window import MainWindow
from skillstudio.gui.settings_store import Endpoint
from skillstudio.gui.welcome_page import TIERS
from skillstudio.gui.workbench.add_case import AddCaseDialog
from skillstudio.gui.workbench.explanation import marked_request
from skillstudio.gui.workbench.panel_parts import NamesModel
from skillstudio.gui.workbench.query_panel import QueryPanel
from skillstudio.gui.workbench.ranking_menu import EXPLAIN, OPEN, WHY_NOT
from skillstudio.gui.workbench.tier_view import SHORTEST, tier_title

from .test_likely_app import ask, write_collection
from .test_try_request_trust import opened

REQUESTS = [
    "review my database migration for locking problems",  # one likely
    "check my python code",  # none likely; a possible one closest
    "write pytest tests, review sql migrations, build docker images, notes",  # several
    "draft release notes from the merged pull requests",
    "what is the weather tomorrow",  # nothing shares a word
    "$sql-review look at this migration",  # invoked by name
]


@pytest.fixture
def app_window(qtbot: QtBot, settings: QSettings, tmp_path: Path) -> MainWindow:
    return opened(qtbot, settings, write_collection(tmp_path / "collection"))


def story(panel: QueryPanel) -> tuple[str, str | None, str, str]:
    """(the headline, the selected row's skill, its band or "selected", the tier line)."""
    index = panel.table.currentIndex()
    row = panel.model.rows[index.row()] if index.isValid() else None
    band = row.band if isinstance(row, LikelyCandidate) else "selected"
    return panel.summary.text(), row.name if row else None, band, panel.tier_used.text()


def test_the_headline_the_selected_row_and_the_tier_line_agree(
    app_window: MainWindow, qtbot: QtBot
) -> None:
    """The headline "No skill is likely" stood above a highlighted "possible" row, and "Likely: X"
    beside "tier 2 · Listing", as if X were not loaded."""
    panel = app_window.query_panel
    app_window.resize(1366, 768)
    app_window.focus_query_panel()
    seen = set()
    for request in REQUESTS:
        if request.startswith("$"):
            panel.query.setText(request)
            panel.update_now()
        else:
            ask(panel, qtbot, request)
        headline, name, band, tier = story(panel)
        likely = [c.name for c in panel.model.rows if getattr(c, "band", "") == "likely"]
        if headline.startswith("Likely: "):
            seen.add("likely")
            named = headline.removeprefix("Likely: ").split(" (")[0].split(", ")
            assert named == likely, request
            assert name == named[0] and band == "likely", request
            assert tier == f"Tier 2: listed; {', '.join(named)} would be loaded", request
            tip = panel.summary.toolTip()  # the tier line hides in a narrow panel
            assert f"the model would likely load {', '.join(named)}" in tip
        elif headline.startswith("No skill is likely"):
            seen.add("none")
            assert not likely, request
            if name is not None:  # the row selected is the one the headline names
                seen.add("closest")
                assert f"the closest, {name}, is" in headline, request
                assert (band == "possible") == ("only possible" in headline), request
            assert tier == "Tier 2: listed; no skill likely loaded", request
            assert "would" not in tier
        else:
            seen.add("invoked")
            assert headline == "sql-review is invoked by name.", request
            assert name == "sql-review" and band == "selected"
            assert tier == "Tier 3: sql-review loaded in full"
    assert seen == {"likely", "none", "closest", "invoked"}


def test_add_as_test_case_proposes_what_is_shown_and_warns_about_an_invocation(
    app_window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two skills shown likely it proposed the first only; a row the user chose
    was ignored; every case asked for the file again from the Suites panel's default;
    a "$name" request made a case as if it tested matching."""
    panel = app_window.query_panel
    app_window.focus_query_panel()
    ask(panel, qtbot, "write pytest tests, review sql migrations, build docker images, notes")
    assert panel.summary.text().startswith("Likely: docker-build, sql-review")
    asked: list[tuple[str, str]] = []
    other = Path(panel.project.base if panel.project else "") / "suites" / "mine.yaml"

    def answer(query: str, suites: list[str], default: str, proposed: str) -> tuple[str, str]:
        asked.append((default, proposed))
        return str(other), proposed

    panel.ask_case = answer  # type: ignore[method-assign]
    assert panel.add_test_case() == str(other)
    assert asked[-1][1] == "docker-build, sql-review"  # what the headline says
    assert asked[-1][0].endswith("agentskills.yaml")  # the first time: a new file
    assert load_suite(str(other)).cases[-1].expect == ["docker-build", "sql-review"]
    assert panel.summary.text().startswith("Likely: docker-build")  # the headline stays
    panel.table.selectRow(3)  # the user chooses a row: it is the one expected
    chosen = panel.model.rows[3].name
    panel.add_test_case()
    assert asked[-1] == (str(other), chosen)  # and the file chosen last time first
    # An invocation: the dialog says what such a case tests.
    panel.query.setText("$sql-review look at this migration")
    panel.update_now()
    seen: list[tuple[str, bool, str]] = []

    def shown(dialog: AddCaseDialog) -> int:
        seen.append((dialog.warning.text(), dialog.warning.isVisibleTo(dialog), dialog.answer()[1]))
        return 0  # cancelled

    monkeypatch.setattr(AddCaseDialog, "exec", shown)
    del panel.ask_case  # the real dialog again
    assert panel.add_test_case() is None
    warning, visible, proposed = seen[0]
    assert visible and "invokes sql-review by name" in warning and proposed == "sql-review"
    panel.query.setText("review my database migration for locking problems")
    panel.update_now()
    panel.add_test_case()
    assert seen[1][0] == "" and not seen[1][1]  # no invocation, no warning


def test_the_ranking_has_a_context_menu_and_why_not_says_what_to_do(
    app_window: MainWindow, qtbot: QtBot
) -> None:
    """The "Why not" box read "(the selected row)"; the ranking had no context menu."""
    panel = app_window.query_panel
    app_window.focus_query_panel()
    box = panel.why_box
    assert box.itemText(0) == NamesModel.FIRST == "pick a skill…"
    ask(panel, qtbot, "write pytest tests, review sql migrations, build docker images, notes")
    assert box.isEnabled() and box.count() == 7
    rows = [c.name for c in panel.model.rows]
    last = len(rows) - 1
    menu = panel.ranking_menu(last)
    assert menu is not None and panel.ranking_menu(len(rows)) is None
    texts = [a.text() for a in menu.actions()]
    assert texts == [OPEN, WHY_NOT, f"Add as test case expecting {rows[last]}…"]
    first = panel.ranking_menu(0)
    assert first is not None and first.actions()[1].text() == EXPLAIN  # a likely one
    panel.details.setCurrentIndex(2)
    menu.actions()[1].trigger()  # why not this one: explained
    assert panel.details.currentIndex() == 0 and box.currentData() == rows[last]
    assert rows[last] in panel.explanation.toPlainText()
    proposed: list[str] = []
    panel.ask_case = lambda q, s, d, p: proposed.append(p)  # type: ignore[method-assign,assignment]
    menu.actions()[2].trigger()
    assert proposed == [rows[last]]
    with qtbot.waitSignal(panel.open_requested) as opened_path:
        menu.actions()[0].trigger()
    assert opened_path.args[0].endswith(f"{rows[last]}/SKILL.md")
    assert any(p.endswith(f"{rows[last]}/SKILL.md") for p in app_window.documents)


def test_ask_a_model_says_what_it_does_and_how_to_set_up_an_endpoint(
    app_window: MainWindow, qtbot: QtBot
) -> None:
    """The tab showed "ollama", an empty box and "Ask a model": nothing said it calls a
    service, that it may cost, or that Settings holds the endpoints."""
    panel = app_window.query_panel
    live = panel.live
    app_window.focus_query_panel()
    assert "real model" in live.intro.text() and "charges" in live.intro.text()
    assert "tokens before Send" in live.intro.text()
    assert "Settings › Model endpoints" in live.status.text()  # none set up
    ask(panel, qtbot, "review my database migration for locking problems")
    panel.ask_a_model()
    assert "Name the model" in live.status.text() and "Edit › Settings" in live.status.text()
    # One set up in Settings: offered and chosen, its model filled in.
    app_window.app_settings.set_endpoints([Endpoint("http://localhost:9/v1", "openai", "m1")])
    panel.apply_settings(app_window.app_settings)
    assert live.endpoint.currentText() == "http://localhost:9/v1"
    assert live.model.text() == "m1"
    panel.ask_a_model()
    assert live.status.text().startswith("About to send")
    assert "Settings" not in live.status.text()


def test_marked_words_leave_their_punctuation_unmarked(
    app_window: MainWindow, qtbot: QtBot
) -> None:
    """ "pdf," was marked with its comma, in the description and in the request."""
    panel = app_window.query_panel
    app_window.focus_query_panel()
    request = "check locking,migrations for database correctness."
    ask(panel, qtbot, request)
    assert panel.model.rows[0].name == "sql-review"
    marked = re.findall(r'<span style="background:[^"]*">([^<]*)</span>', panel.explanation_html())
    assert "locking" in marked and "migrations" in marked and "correctness" in marked
    assert not [m for m in marked if re.search(r"[,.;:!?]", m)], marked
    # A word joined by a hyphen or a dot stays marked as one.
    pieces = marked_request("fix code-review now", "fix code review now", ["code", "review"])
    assert ("code-review", True) in pieces


def test_tier_zero_says_what_the_agent_gets(app_window: MainWindow) -> None:
    """ "0 · Nothing" (and "0 nothing" on the welcome page) read as "nothing to see"."""
    panel = app_window.query_panel
    assert tier_title(0) == "0 · Skills not shown"
    assert "nothing" not in tier_title(0, True, SHORTEST).lower()
    assert "<b>0</b> none of them (the agent is shown nothing of its skills)" in TIERS
    app_window.focus_query_panel()
    panel.query.setText("draft release notes")
    panel.update_now()
    tip = panel.tier_tabs.tabToolTip(0)
    assert tip.startswith("Tier 0 · Skills not shown\nThe agent is shown nothing of the skills")


def test_the_dock_grows_only_on_first_run_sizes(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """The first answer grows Try a Request's dock (a first-run quarter showed 2 rows);
    sizes restored from the last session are the user's and stay."""
    folder = write_collection(tmp_path / "collection")
    first = opened(qtbot, settings, folder)
    first.resize(1024, 768)
    first.size_docks()
    qtbot.wait(20)
    settings.setValue("state", first.saveState())  # docks as a quarter of the height
    first.close()
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.resize(1024, 768)
    win.restore_state()
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(folder))
    win.focus_query_panel()
    qtbot.wait(20)
    height = win.query_dock.height()
    assert height < 230  # the quarter, as restored
    ask(win.query_panel, qtbot, "review my database migration for locking problems")
    qtbot.wait(20)
    assert win.query_dock.height() == height


def test_a_why_not_pick_is_the_row_shown_and_goes_with_another_project(
    window: MainWindow, qtbot: QtBot
) -> None:
    """The first-day review: "Why not: release-notes" stayed picked after the request
    and the project changed, explaining it under another highlighted row. Now the
    picked skill is the highlighted row while it is in the answer, and another project
    starts on its own best row."""
    panel = window.query_panel
    window.resize(1366, 768)
    window.focus_query_panel()
    several = [n for n, r in enumerate(window.registries) if len(r.skills) > 2]
    assert len(several) >= 2
    panel.project_box.setCurrentIndex(several[0])
    panel.query.setText("review the code changes of this commit")
    panel.update_now()
    rows = [c.name for c in panel.model.rows]
    assert len(rows) >= 2
    panel.why_box.setCurrentIndex(panel.why_box.findData(rows[-1]))
    panel.query.setText("review the code changes of this commit please")
    panel.update_now()
    index = panel.table.currentIndex()
    assert panel.why_box.currentData() == rows[-1]
    assert index.isValid() and panel.model.rows[index.row()].name == rows[-1]
    panel.project_box.setCurrentIndex(several[1])
    panel.update_now()
    assert panel.why_box.currentIndex() == 0
    index = panel.table.currentIndex()
    if panel.model.rows:
        assert index.isValid() and index.row() == 0
