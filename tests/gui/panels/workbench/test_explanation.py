"""Tests of gui/panels/workbench/explanation.py (Try a Request's explanation: the chosen
skill's points under the request as typed)."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtGui import QTextDocument
from pytestqt.qtbot import QtBot

from skillstudio.core.model.text import normalize
from skillstudio.core.ranking.matching import match
from skillstudio.gui.editor.competes_line import CompetesLine
from skillstudio.gui.panels.workbench.explanation import intent_wordings, marked_request, typed
from skillstudio.gui.panels.workbench.query_panel import QueryPanel
from skillstudio.gui.window.main_window import MainWindow
from tests import hostile

from ...parts import ask, open_window, panel_on, write_collection


def plain(html_text: str) -> str:
    doc = QTextDocument()
    doc.setHtml(html_text)
    return doc.toPlainText()


def test_markup_in_a_description_is_shown_as_text(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    folder = write_collection(tmp_path / "marked")
    for name in ("html-markup", "html-markup-copy"):
        target = folder / "skills" / name / "SKILL.md"
        target.parent.mkdir()
        target.write_text(hostile.skill(name, hostile.HTML_DESCRIPTION), encoding="utf-8")
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(folder))
    panel = win.query_panel
    win.focus_query_panel()
    ask(panel, qtbot, "review my pull request for bugs")
    index = next(i for i, c in enumerate(panel.model.rows) if c.name == "html-markup")
    panel.table.selectRow(index)
    text = panel.explanation_html()
    assert "&lt;script&gt;" in text and "<script" not in text and "<img" not in text
    assert "href='https://example.com" not in text
    editor = win.open_skill(str(folder / "skills/html-markup/SKILL.md"))
    assert editor is not None
    line = editor.form.findChild(CompetesLine, "competes-with")
    assert line is not None
    qtbot.waitUntil(lambda: "html-markup-copy" in line.text(), timeout=10_000)
    assert "<script" not in line.text() and "example.com" not in line.text()
    with qtbot.waitSignal(win.overlap_map.computed, timeout=10_000):
        win.menu_actions.overlap_action.trigger()
    pairs = win.overlap_map.pairs_model
    assert {pairs.index(0, 1).data(), pairs.index(0, 2).data()} == {
        "html-markup",
        "html-markup-copy",
    }


def test_marked_words_leave_their_punctuation_unmarked(
    collection_panel: QueryPanel, qtbot: QtBot
) -> None:
    """ "pdf," was marked with its comma, in the description and in the request."""
    panel = collection_panel
    request = "check locking,migrations for database correctness."
    ask(panel, qtbot, request)
    assert panel.model.rows[0].name == "sql-review"
    marked = re.findall(r'<span style="background:[^"]*">([^<]*)</span>', panel.explanation_html())
    assert "locking" in marked and "migrations" in marked and "correctness" in marked
    assert not [m for m in marked if re.search(r"[,.;:!?]", m)], marked
    # A word joined by a hyphen or a dot stays marked as one.
    pieces = marked_request("fix code-review now", "fix code review now", ["code", "review"])
    assert ("code-review", True) in pieces


def test_explanation_marks_words_and_threshold_line(query_panel: QueryPanel, qtbot: QtBot) -> None:
    panel = panel_on(query_panel, "oasis")
    panel.load_request("code review please, find bugs in my commit")
    assert panel.summary.text().startswith("code-review wins by")
    text = panel.explanation_html()
    assert "code-review: 40 points, selected" in text
    assert ">find bugs</span>" in text  # matched words are marked (a phrase as one)
    assert ">please</span>" not in text
    panel.load_request("tests")  # one keyword: below the threshold of 10
    assert panel.summary.text().startswith("No skill passes the threshold of 10")
    panel.option.setValue(1)  # the threshold is adjustable: now one keyword is enough
    panel.update_now()
    registry = panel.registry
    assert registry is not None and panel.result is not None
    assert panel.result.threshold == 1
    assert panel.result.selected == match(registry, "tests", options={"threshold": 1}).selected
    assert panel.result.selected
    panel.option.setValue(10)
    panel.load_request("code review of the tests")
    scores = [c.score for c in panel.model.rows]
    assert scores[0] >= 10 and min(scores) < 10
    assert panel.model.threshold_row == next(i for i, s in enumerate(scores) if s < 10)


def test_why_not_explains_a_skill_that_lost(query_panel: QueryPanel, qtbot: QtBot) -> None:
    panel = panel_on(query_panel, "oasis")
    panel.load_request("code review please, find bugs in my commit")
    panel.why_box.setCurrentIndex(panel.why_box.findData("commit"))
    assert "Why not commit?" in panel.explanation_html()
    assert "code-review scored 40 and wins" in panel.explanation_html()


def test_explanation_shows_the_request_as_typed_with_one_list(query_panel: QueryPanel) -> None:
    panel = panel_on(query_panel, "mvp")
    panel.load_request("/code-review src/app.py")
    text = plain(panel.explanation_html())
    assert "Request: /code-review src/app.py" in text
    assert ">code-review</span>" in panel.explanation_html()  # one mark for the name
    panel = panel_on(query_panel, "oasis")
    panel.load_request("I want a Code Review, please!")
    html_text = panel.explanation_html()
    assert "Request: I want a Code Review, please!" in plain(html_text)
    assert ">Code Review</span>" in html_text
    cand = panel.result.candidate("code-review") if panel.result else None
    assert cand is not None
    for reason in cand.reasons:  # each point is listed once, not in a table and a list
        assert plain(html_text).count(f"+{reason.points} {reason.rule} {reason.term}") == 1
    assert html_text.count("<table") == 0


def test_why_not_on_the_winner_shows_its_block_once(query_panel: QueryPanel) -> None:
    panel = panel_on(query_panel, "oasis")
    panel.load_request("code review please, find bugs in my commit")
    panel.why_box.setCurrentIndex(panel.why_box.findData("code-review"))
    text = plain(panel.explanation_html())
    assert text.count("code-review: 40 points, selected") == 1
    assert text.count("Request:") == 1
    panel.why_box.setCurrentIndex(panel.why_box.findData("commit"))
    text = plain(panel.explanation_html())
    assert "Why not commit?" in text and text.count("Request:") == 1
    assert "commit: 21 points" in text  # the skill asked about, explained once


def test_marked_request_keeps_any_typed_text() -> None:
    from skillstudio.core.model.text import normalize
    from skillstudio.gui.panels.workbench.explanation import marked_request

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


def test_a_name_only_candidate_says_what_the_model_sees(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """Try a Request on a Claude Code set over its listing budget (issue 36): the skill
    whose description is dropped ranks by its name, its explanation says so and greys
    the description the model does not see (none of its words marked)."""
    from tests.test_listing_estimate import TRIAGE, triage_set

    win = open_window(qtbot, settings, triage_set(tmp_path / "over"))
    panel = win.query_panel
    win.focus_query_panel()
    ask(panel, qtbot, "triage the incoming frontend issues by severity")
    qtbot.waitUntil(lambda: any(c.name == TRIAGE for c in panel.model.rows), timeout=10_000)
    row = next(i for i, c in enumerate(panel.model.rows) if c.name == TRIAGE)
    panel.table.selectRow(row)
    text = panel.explanation_html()
    shown = plain(text)
    assert "Listing: only its name is in the claude-code listing" in shown
    assert "Why " in shown and "chance about" in shown
    description = text[text.index("<b>Description:</b>") :]
    assert "severity" in description and "match_bg" not in description
    assert "background" not in description  # no word of the unseen description marked


def test_match_why_says_what_the_apps_why_not_says(
    collection_panel: QueryPanel, qtbot: QtBot, tmp_path: Path
) -> None:
    """`match --why NAME` where the model chooses shows what Try a Request's "Why not"
    shows for that skill (one core function, core/ranking/likely_explanation.py): its
    rank and band, the chance its band reads and its words' weights (a first-time
    reviewer got only "selects only on explicit invocation" from the command line)."""
    from tests.helpers import cli

    panel = collection_panel
    request = "review the python tests for the database migrations"
    ask(panel, qtbot, request)
    likely = panel.likely
    assert likely is not None and len(likely.candidates) >= 2
    name = likely.candidates[1].name  # not the first: the app says who is ahead
    panel.why_box.setCurrentIndex(panel.why_box.findData(name))
    shown = plain(panel.explanation_html())
    base = Path(panel.context.projects[0].base)
    done = cli("match", request, "--why", name, cwd=base)
    assert done.code == 0, done.err
    text = done.out[done.out.index(f"why not {name}: ") :]
    lead = text.splitlines()[0].removeprefix(f"why not {name}: ")
    assert lead.startswith("It ranks 2, ") and lead in shown.replace("\n", " ")
    chance = re.search(r"chance about \d+ %", shown)
    assert chance is not None and chance.group() in text
    cand = likely.candidates[1]
    assert cand.reasons
    for reason in cand.reasons:  # the app's term table, row by row
        row = re.search(rf"^  {re.escape(reason.term)} +(.+?) +{reason.weight:.2f}$", text, re.M)
        assert row is not None, (reason.term, text)
        assert f"{reason.term}\n{row.group(1)}\n{reason.weight:.2f}" in shown
    data = cli("match", request, "--why", name, "--format", "json", cwd=base).json
    assert data["why_not"][name] == lead
    assert [t["term"] for t in data["why_not_likely"][name]["terms"]] == [
        r.term for r in cand.reasons
    ]


def test_an_abbreviation_read_as_its_words_is_marked_as_typed(
    collection_panel: QueryPanel, qtbot: QtBot
) -> None:
    """'PRs' counts as 'pull requests' (issue 43): the reasons say 'pull (prs)', and
    the request marks the word typed, not nothing."""
    assert typed("pull (prs)") == "prs" and typed("release") == "release"
    # an intent word the request said in other words (request_intents.py): its wording
    assert typed("bug (from 'crashes')") == "crashes"
    assert typed("bug (from 'doesn t work', '500')") == "doesn t work"
    assert intent_wordings("bug (from 'doesn t work', '500')") == ["doesn t work", "500"]
    assert intent_wordings("pull (prs)") == []
    panel = collection_panel
    ask(panel, qtbot, "draft release notes from the merged PRs")
    assert panel.likely is not None
    top = panel.likely.candidates[0]
    assert top.name == "release-notes"
    assert "pull (prs)" in {r.term for r in top.reasons}
    panel.table.selectRow(0)
    text = panel.explanation_html()
    assert ">merged PRs</span>" in text  # (adjacent marked words: one mark)


def test_a_wording_with_an_apostrophe_is_shown_as_typed_and_still_marked() -> None:
    """A reason shows "doesn't work" as typed (it showed 'doesn t work'); the wording is
    still found in the request to be marked."""
    term = "bug (from \"doesn't work\", 'no idea why')"
    assert intent_wordings(term) == ["doesn t work", "no idea why"]
    query = "the form doesn't work, no idea why"
    pieces = marked_request(query, normalize(query), intent_wordings(term))
    assert [piece for piece, hit in pieces if hit] == ["doesn't work", "no idea why"]
