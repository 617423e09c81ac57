"""Tests of gui/panels/workbench/query_panel.py (Try a Request: ranking, explanation,
tiers, activation, session. Everything shown is the engine's own answer
(core.matching, core.disclosure, core.activation) for the registry as it is on screen,
unsaved edits included (re-run on every re-validation))."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QPlainTextEdit, QScrollArea
from pytestqt.qtbot import QtBot

from skillstudio.core.delivery.tiers import render_tiers
from skillstudio.core.model.session import Session
from skillstudio.core.model.skills import Skill
from skillstudio.core.projects.open_project import OpenProject
from skillstudio.core.ranking.estimate import LikelyCandidate
from skillstudio.core.ranking.likely_ranking import likely
from skillstudio.core.ranking.matching import match
from skillstudio.gui.editor.field_widgets import ListEditor
from skillstudio.gui.infra.theme import colour
from skillstudio.gui.panels.workbench import query_panel as workbench_module
from skillstudio.gui.panels.workbench.panel_parts import NamesModel, summary_text
from skillstudio.gui.panels.workbench.query_panel import QueryPanel
from skillstudio.gui.window.main_window import MainWindow

from ...parts import (
    WIDE_DOCK,
    ask,
    in_sight,
    open_window,
    panel_on,
    query_panel_on,
    three_skills,
    whole_rows,
)


def fail_match(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("injected failure in match")


STORY_REQUESTS = [
    "review my database migration for locking problems",  # one likely
    "tidy the docker notes",  # none likely; a possible one closest (two tie)
    "write pytest tests, review sql migrations, build docker images, notes",  # several
    "draft release notes from the merged pull requests",
    "what is the weather tomorrow",  # nothing shares a word
    "$sql-review look at this migration",  # invoked by name
]


def story(panel: QueryPanel) -> tuple[str, str | None, str, str]:
    """(the headline, the selected row's skill, its band or "selected", the tier line)."""
    index = panel.table.currentIndex()
    row = panel.model.rows[index.row()] if index.isValid() else None
    band = row.band if isinstance(row, LikelyCandidate) else "selected"
    return panel.summary.text(), row.name if row else None, band, panel.tier_used.text()


LONG = ("Reviews SQL queries and migrations for correctness and locking risks. " * 17).strip()


SKILLS = {
    "api-review": "''",
    "sql-review": LONG,
    "changelog": "Write the changelog of a pull request from its commits.",
}


def unloaded_folder(tmp_path: Path) -> Path:
    """A collection where the agent does not load api-review (an empty description)
    and ranks sql-review in spite of an error (a description past its limit)."""
    folder = tmp_path / "collection"
    folder.mkdir()
    (folder / "skillstudio.yaml").write_text("profile: agentskills\nroots: [skills]\n")
    for name, description in SKILLS.items():
        (folder / "skills" / name).mkdir(parents=True)
        (folder / "skills" / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nSteps.\n"
        )
    return folder


@pytest.fixture
def unloaded_panel(qtbot: QtBot, tmp_path: Path) -> QueryPanel:
    return query_panel_on(qtbot, unloaded_folder(tmp_path))


REQUESTS = {  # one request per sample profile
    "agentskills": "review this SQL migration for locking problems",
    "codex": "$api-review the new orders endpoint",
    "mvp": "/code-review src/app.py",
    "oasis": "code review please, find bugs in my commit",
    "pegasus": "/deploy staging",
    "toolsets": "greet Bob and translate the greeting",
    "workspace": "survey the repo layout",
}


def test_tier_previews_and_activation_with_a_shell_line(
    query_panel: QueryPanel, qtbot: QtBot, samples: Path
) -> None:
    panel = panel_on(query_panel, "claude-code")
    request = "/commit-message T-12"
    qtbot.keyClicks(panel.query, request)
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.query == request)
    registry = panel.registry
    assert registry is not None and panel.result is not None
    assert panel.result.selected == ["commit-message"]
    expected = match(registry, request, session=Session(), options=panel.options())
    tiers = render_tiers(registry, expected, panel.options(), Session())
    for view, tier in zip(panel.tier_views, tiers, strict=True):
        panel.show_tier(tier.tier)
        assert view.text.toPlainText() == tier.text
    assert "- review-kit:security-review: " in tiers[2].text
    folder = samples / "claude-code/.claude/skills/commit-message"
    assert tiers[3].text.startswith(f"Base directory for this skill: {folder}\n\n")

    panel.activation.skill.setCurrentText("commit-message")
    panel.activation.args.setText("T-12")
    panel.update_now()
    act = panel.activation.activation
    assert act is not None and act.ok
    shown = panel.activation.output.toPlainText()
    assert shown.startswith(f"Base directory for this skill: {folder}\n\n")
    assert "Staged changes: !`git diff --staged --stat`" in shown  # shown, not run
    payload = shown.split("--- payload ---\n", 1)[1].split("\n\n--- notes ---", 1)[0]
    assert json.loads(payload)["shell"] == [
        {
            "line": 10,
            "command": "git diff --staged --stat",
            "kind": "inline",
            "note": "runs before the model sees this",
        }
    ]
    notes = shown.split("--- notes ---\n", 1)[1]
    assert "line 10: `git diff --staged --stat` runs before the model sees this" in notes


def test_tiers_and_activation_follow_the_codex_rules(query_panel: QueryPanel, qtbot: QtBot) -> None:
    panel = panel_on(query_panel, "codex")
    panel.load_request("$deploy v2.4.0 to staging")
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.selected == ["deploy"])
    listing = panel.tier_views[2]
    panel.show_tier(2)
    text = listing.text.toPlainText()
    assert text.startswith("<skills_instructions>\n## Skills\n")
    assert "- api-review: Reviews HTTP API changes" in text
    assert "- deploy:" not in text  # agents/openai.yaml keeps it out of the listing
    panel.show_tier(3)
    assert panel.tier_views[3].text.toPlainText().startswith("<skill>\n<name>deploy</name>\n")
    panel.activation.skill.setCurrentText("deploy")
    panel.update_now()
    act = panel.activation.activation
    assert act is not None and act.ok and act.mode == "user_message"
    assert panel.activation.output.toPlainText().startswith("<skill>\n<name>deploy</name>")
    assert panel.activation.invocation.text().startswith("As a user invocation: $deploy")


def test_why_not_says_where_a_skill_ranks_among_the_likely_candidates(
    collection_panel: QueryPanel, qtbot: QtBot
) -> None:
    panel = collection_panel
    ask(panel, qtbot, "review my database migration for locking problems")
    panel.why_box.setCurrentIndex(panel.why_box.findData("release-notes"))
    text = panel.explanation_html()
    assert "Why not release-notes?" in text and "None of the request's distinctive" in text
    ask(panel, qtbot, "write pytest tests for python functions")
    second = panel.model.rows[1].name
    panel.why_box.setCurrentIndex(panel.why_box.findData(second))
    text = panel.explanation_html()
    first = panel.model.rows[0].name
    assert f"Why not {second}?</b> It ranks 2," in text
    assert f"{first} ranks first" in text
    assert "<th>term</th><th>field</th><th>weight</th>" in text  # its own words' weights


def test_a_failing_match_in_try_a_request_is_shown_and_the_next_one_works(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    three_skills(tmp_path / "skills")
    panel = query_panel_on(qtbot, tmp_path / "skills")
    original = workbench_module.match
    monkeypatch.setattr(workbench_module, "match", fail_match)
    panel.load_request("the beta skill")  # no exception out of the panel
    assert panel.summary.text().startswith("Matching failed: RuntimeError")
    assert panel.model.rowCount() == 0
    monkeypatch.setattr(workbench_module, "match", original)
    panel.load_request("the beta skill")
    assert panel.result is not None and panel.model.rowCount() > 0


def test_why_not_lists_every_skill_and_keeps_the_choice(query_panel: QueryPanel) -> None:
    panel = query_panel
    panel.load_request("code review please")
    registry = panel.registry
    assert registry is not None
    box = panel.why_box
    names = [box.itemText(n) for n in range(1, box.count())]
    assert box.itemText(0) == NamesModel.FIRST and box.itemData(0) == ""
    assert names == sorted({s.name for s in registry.skills})
    box.setCurrentIndex(box.findData(names[-1]))
    registry.version += 1  # the skills changed: the list is filled again
    registry.skills = list(registry.skills)
    panel.load_request("code review")
    assert box.currentData() == names[-1]
    # an edit that keeps every name leaves the list as it is (sorting 10,000 names per
    # keystroke took 10-20 ms); a rename fills it again
    skill = next(s for s in registry.skills if s.name == names[-1])
    with open(skill.path, encoding="utf-8") as fh:
        text = fh.read()
    registry.reparse(skill.path, text + "\nMore.\n")
    walks: list[int] = []

    class Walked(list[Skill]):
        def __iter__(self) -> Any:
            walks.append(1)
            return super().__iter__()

    registry.skills = Walked(registry.skills)
    panel.load_request("code review again")
    assert walks == []
    registry.reparse(skill.path, text.replace(f"name: {names[-1]}", "name: zz-renamed", 1))
    panel.load_request("code review once more")
    assert box.itemText(box.count() - 1) == "zz-renamed"


def test_the_headline_the_selected_row_and_the_tier_line_agree(
    qtbot: QtBot, collection: Path
) -> None:
    """The headline "No skill is likely" stood above a highlighted "possible" row, and "Likely: X"
    beside "tier 2 · Listing", as if X were not loaded."""
    panel = query_panel_on(qtbot, collection, size=WIDE_DOCK)
    seen = set()
    for request in STORY_REQUESTS:
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


def test_a_why_not_pick_is_the_row_shown_and_goes_with_another_project(
    qtbot: QtBot, samples: Path
) -> None:
    """The first-day review: "Why not: release-notes" stayed picked after the request
    and the project changed, explaining it under another highlighted row. Now the
    picked skill is the highlighted row while it is in the answer, and another project
    starts on its own best row."""
    panel = query_panel_on(qtbot, samples, size=WIDE_DOCK)
    several = [n for n, r in enumerate(panel.context.registries) if len(r.skills) > 2]
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


def test_the_explanation_follows_the_best_row_or_the_one_chosen(
    collection_panel: QueryPanel, qtbot: QtBot
) -> None:
    """After a new request the selection stayed on the previous skill (explained as
    "unlikely" under "Likely: …") and the table kept its scroll position."""
    panel = collection_panel
    ask(panel, qtbot, "check my python code")
    assert [c.name for c in panel.model.rows[:2]] == ["python-test-author", "pytest-writer"]
    panel.table.selectRow(1)  # the user chooses pytest-writer
    assert "pytest-writer" in panel.explanation_html()
    panel.skills_changed()  # a live re-rank of the same request keeps the user's row
    qtbot.waitUntil(lambda: not panel.timer.isActive(), timeout=5000)
    panel.update_now()
    assert panel.table.currentIndex().row() == 1
    # A new request: its best row, explained; the table at its top.
    panel.table.setMaximumHeight(50)  # too short for every row: it scrolls
    qtbot.waitUntil(lambda: panel.table.verticalScrollBar().maximum() > 0, timeout=3000)
    bar = panel.table.verticalScrollBar()
    bar.setValue(bar.maximum())
    ask(panel, qtbot, "review the tests")
    rows = [c.name for c in panel.model.rows]
    assert rows[0] == "sql-review" and "pytest-writer" in rows
    assert panel.table.currentIndex().row() == 0
    html = panel.explanation_html()
    band = getattr(panel.model.rows[0], "band", "")  # (likely: 0.51, a third ahead)
    assert f"sql-review: {band}" in html and "pytest-writer" not in html
    assert bar.value() == 0


def test_why_not_a_skill_the_agent_does_not_load_says_so_before_any_word(
    unloaded_panel: QueryPanel, qtbot: QtBot
) -> None:
    panel = unloaded_panel
    ask(panel, qtbot, "review my pull request")
    assert "api-review" not in [row.name for row in panel.model.rows]
    panel.why_box.setCurrentIndex(panel.why_box.findData("api-review"))
    text = panel.explanation_html()
    assert "does not load api-review: its 'description' cannot be used" in text
    assert "empty" in text and "It is not ranked." in text
    assert "distinctive words" not in text and "Use the words" not in text


def test_a_skill_ranked_in_spite_of_an_error_is_marked_with_it(
    unloaded_panel: QueryPanel, qtbot: QtBot
) -> None:
    panel = unloaded_panel
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
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """The review's case: changelog's description emptied in the form (not saved), the
    request meant for it: the advice says the agent does not load it, not which words
    to use, and "Why not" says the same. (The window: the open tab's edit reaches the
    panel through it.)"""
    unloaded_window = open_window(qtbot, settings, unloaded_folder(tmp_path))
    panel = unloaded_window.query_panel
    editor = unloaded_window.open_skill(str(tmp_path / "collection/skills/changelog/SKILL.md"))
    assert editor is not None
    field = editor.form.fields["description"].widget
    assert isinstance(field, QPlainTextEdit)
    field.setFocus()
    field.selectAll()
    qtbot.keyClick(field, Qt.Key.Key_Delete)
    unloaded_window.focus_query_panel()
    panel.for_open.setChecked(True)
    ask(panel, qtbot, "write the changelog of my pull request")
    qtbot.waitUntil(lambda: "does not load changelog" in panel.advice.text, timeout=5000)
    assert "It is not ranked." in panel.advice.text
    assert "description needs" not in panel.advice.text
    assert "changelog" not in [row.name for row in panel.model.rows]
    panel.why_box.setCurrentIndex(panel.why_box.findData("changelog"))
    text = panel.explanation_html()
    assert "does not load changelog" in text and "Use the words" not in text


def test_the_marked_rows_name_is_not_cut_by_its_icon(
    unloaded_panel: QueryPanel, qtbot: QtBot
) -> None:
    panel = unloaded_panel
    ask(panel, qtbot, "review sql migrations")
    names = [row.name for row in panel.model.rows]
    text = panel.table.fontMetrics().horizontalAdvance("sql-review")
    assert panel.table.columnWidth(1) >= text + 22 + 10  # the icon, the name, padding
    assert "sql-review" in names


@pytest.mark.parametrize("profile", sorted(REQUESTS))
def test_panel_matches_the_engine_on_every_profile(
    query_panel: QueryPanel, qtbot: QtBot, profile: str
) -> None:
    panel = panel_on(query_panel, profile)
    qtbot.keyClicks(panel.query, REQUESTS[profile])
    registry = panel.registry
    assert registry is not None
    expected = match(registry, REQUESTS[profile], session=Session(), options=panel.options())
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.query == REQUESTS[profile])
    assert panel.result is not None
    assert panel.result.selected == expected.selected
    if registry.profile.model_chooses:
        # the likely candidates, once their index (built off the GUI thread) lands,
        # a skill invoked by name first
        # (as `match` ranks: the open project's index, at the panel's window)
        assert panel.project is not None
        opened = OpenProject(panel.project, registry)
        opened.use_window(panel.options().get("context_tokens"))
        ranked = likely(registry, REQUESTS[profile], opened.likely_index())
        qtbot.waitUntil(lambda: panel.model.likely is not None)
        names = expected.selected + [
            c.name for c in ranked.candidates if c.name not in expected.selected
        ]
        assert [c.name for c in panel.model.rows] == names[:30]
        assert panel.model.headerData(3, Qt.Orientation.Horizontal) == "Band"
        if expected.selected:
            assert panel.summary.text() == summary_text(expected)
    else:
        assert [c.name for c in panel.model.rows] == [c.name for c in expected.candidates][:30]
        assert [c.score for c in panel.model.rows] == [c.score for c in expected.candidates][:30]
        assert panel.summary.text() == summary_text(expected)
    tiers = render_tiers(registry, expected, panel.options(), Session())
    for view, tier in zip(panel.tier_views, tiers, strict=True):
        panel.show_tier(tier.tier)  # a tier's text is laid out when its tab shows
        assert view.text.toPlainText() == tier.text
    used = [n for n, t in enumerate(tiers) if t.used]
    marked = [n for n in range(4) if "used" in panel.tier_tabs.tabText(n)]
    assert marked == used


def test_editing_a_trigger_reranks_without_saving(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    panel = panel_on(window.query_panel, "oasis")
    window.focus_query_panel()
    panel.load_request("tidy up my history")
    assert panel.result is not None and panel.result.selected == []
    editor = window.open_skill(str(samples / "oasis/key_skills/commit/SKILL.md"))
    assert editor is not None
    triggers = editor.form.fields["triggers"].widget
    assert isinstance(triggers, ListEditor)
    triggers.add_item("tidy up my history")
    qtbot.waitUntil(
        lambda: panel.result is not None and panel.result.selected == ["commit"], timeout=3000
    )
    assert editor.document.modified, "nothing was saved"


def test_a_hidden_panel_waits_and_catches_up_when_shown(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    panel = panel_on(window.query_panel, "oasis")
    window.focus_query_panel()
    panel.load_request("tidy up my history")
    window.query_dock.hide()
    editor = window.open_skill(str(samples / "oasis/key_skills/commit/SKILL.md"))
    assert editor is not None
    triggers = editor.form.fields["triggers"].widget
    assert isinstance(triggers, ListEditor)
    triggers.add_item("tidy up my history")
    qtbot.wait(400)  # validation ran; the hidden panel did not answer
    assert panel.result is not None and panel.result.selected == []
    window.focus_query_panel()
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.selected == ["commit"])


def test_the_estimate_reads_the_listing_at_the_panels_window(qtbot: QtBot, tmp_path: Path) -> None:
    """Issue 36: on a Claude Code set over its budget, the skill whose description the
    listing drops is no candidate for that description's words; at a window where the
    listing holds it whole (the panel's context-window box), it is the likely one."""
    from tests.test_listing_estimate import REQUEST, TRIAGE, triage_set

    panel = query_panel_on(qtbot, triage_set(tmp_path / "over"), "claude-code")
    ask(panel, qtbot, REQUEST)
    assert panel.likely is not None
    assert TRIAGE not in [c.name for c in panel.likely.candidates]
    panel.option.setValue(1_000_000)  # the window box: the listing now fits
    panel.update_now()
    qtbot.waitUntil(lambda: panel.likely is not None and bool(panel.likely.candidates))
    first = panel.likely.candidates[0]
    assert first.name == TRIAGE and first.band == "likely"


def test_the_request_box_says_what_enter_does_under_each_profile(
    query_panel: QueryPanel, qtbot: QtBot
) -> None:
    """Under Claude Code the box said "Enter: send it in the session", where the
    session changes nothing: each profile's box says what Enter does there."""
    for name in ("claude-code", "codex", "toolsets", "workspace"):
        panel = panel_on(query_panel, name)
        hint = panel.query.placeholderText()
        profile = panel.context.project.profile if panel.context.project else None
        assert profile is not None and profile.name == name
        assert ("session" in hint) == profile.uses_session, (name, hint)
        before = len(panel.session.history)
        qtbot.keyClicks(panel.query, "review my code")
        qtbot.keyClick(panel.query, Qt.Key.Key_Return)
        if profile.uses_session:
            assert len(panel.session.history) == before + 1  # Enter sent it in the session
        panel.query.clear()


def test_the_explanation_takes_a_new_theme_at_once(
    collection_panel: QueryPanel, qtbot: QtBot, switch_theme: Callable[[str], None]
) -> None:
    """The words it marks kept the light theme's yellow on the dark box until the
    next request."""
    panel = collection_panel
    ask(panel, qtbot, "write pytest unit tests for my python functions")
    qtbot.waitUntil(lambda: "<span" in panel.explanation_html(), timeout=5000)
    light, dark = colour("match_bg", dark=False), colour("match_bg", dark=True)
    assert light in panel.explanation.toHtml()
    switch_theme("dark")
    shown = panel.explanation.toHtml()
    assert dark in shown and light not in shown


def test_the_tier_used_is_in_sight_at_1024_below_the_summary(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """At 1024x768 the panel is narrow: the tier line ("Tier 2: listed; …") was hidden
    there (said in Tiers only); it goes on a line of its own below the summary, the
    ranking keeping its four rows. Wide (1366), it is beside the summary."""
    win = open_window(qtbot, settings, samples, size=(1024, 768))
    assert win.open_skill(
        str(samples / "claude-code/plugins/review-kit/skills/security-review/SKILL.md")
    )
    win.focus_query_panel()
    panel = win.query_panel
    qtbot.waitUntil(lambda: win.query_dock.height() >= 0.6 * 768, timeout=2000)
    panel.load_request("code review please, find bugs in my commit")
    panel.update_now()
    # (the likely index is built off the GUI thread, beside the form's overlap index)
    qtbot.waitUntil(lambda: panel.model.rowCount() >= 5, timeout=10_000)
    qtbot.wait(50)
    line = panel.tier_used
    assert line.text().startswith("Tier ")
    holder = panel.parentWidget()
    assert holder is not None
    area = holder.parentWidget()  # the dock's scroll area
    assert isinstance(area, QScrollArea)
    assert in_sight(line, area)
    assert line.y() >= panel.summary.y() + panel.summary.height()  # below, not over it
    assert line.width() >= line.fontMetrics().horizontalAdvance(line.text())  # whole
    assert whole_rows(panel.table) >= 4
    win.resize(1366, 768)
    qtbot.waitUntil(lambda: panel.width() >= 900)
    qtbot.wait(20)
    assert in_sight(line, area) and line.y() < panel.summary.y() + panel.summary.height()
    assert line.width() >= line.fontMetrics().horizontalAdvance(line.text())  # whole
