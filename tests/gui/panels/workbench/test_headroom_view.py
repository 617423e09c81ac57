"""Tests of gui/panels/workbench/headroom_view.py (Try a Request's "Headroom" tab: does
the project's whole set of skills fit its agent's listing budget at a context window
(core/delivery/headroom.py: what `skillstudio headroom` says), which skills fall to a
bare name or out of the listing, and what each description costs. Worked out off the
GUI thread on a snapshot of the skills (two listings: at the budget and unbounded),
when the tab is shown and the skills or the window changed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit, QTableWidget
from pytestqt.qtbot import QtBot

from skillstudio.core.delivery.headroom import listing_headroom
from skillstudio.gui.panels.workbench.headroom_view import HeadroomView
from skillstudio.gui.panels.workbench.query_panel import QueryPanel
from skillstudio.gui.window.main_window import MainWindow
from tests.helpers import cli, write

from ...parts import cell, panel_on


def column(table: QTableWidget, number: int) -> list[str]:
    texts = []
    for row in range(table.rowCount()):
        item = table.item(row, number)
        assert item is not None
        texts.append(item.text())
    return texts


def header(table: QTableWidget, number: int) -> str:
    item = table.horizontalHeaderItem(number)
    assert item is not None
    return item.text()


def shown(panel: QueryPanel, qtbot: QtBot) -> HeadroomView:
    view = panel.headroom
    view.room = None
    panel.details.setCurrentWidget(view)
    view.update_now()
    qtbot.waitUntil(lambda: view.room is not None, timeout=10_000)
    return view


def test_agentskills_says_it_has_no_budget_of_its_own(
    query_panel: QueryPanel, qtbot: QtBot
) -> None:
    panel = panel_on(query_panel, "agentskills")
    view = shown(panel, qtbot)
    room = view.room
    assert room is not None and room.budget is None and not room.counts_descriptions
    text = view.line.text()
    assert "agentskills has no listing budget of its own" in text
    assert "claude-code or codex" in text  # where a budget is to be seen
    registry = panel.registry
    assert registry is not None
    names = [n.split(" (")[0] for n in column(view.table, 0)]
    own = [f"{len(registry.active[n].description):,}" for n in names]
    assert column(view.table, 1) == own and all(t != "0" for t in own)
    assert set(column(view.table, 2)) == {"—"}, "no 0 for a count this listing does not make"


def test_the_form_and_headroom_counts_agree_and_say_what_they_count(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    base = tmp_path / "project"
    folder = base / ".claude" / "skills" / "long-one"
    folder.mkdir(parents=True)
    description = ("Fills in PDF forms and checks them. " * 40)[:1068]
    assert len(description) == 1068
    (folder / "SKILL.md").write_text(
        f"---\nname: long-one\ndescription: {description}\n---\n\n# Long one\n\nSteps.\n",
        encoding="utf-8",
    )
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(base))
    window.focus_query_panel()
    view = shown(window.query_panel, qtbot)
    room = view.room
    assert room is not None and room.profile == "claude-code" and room.counts_descriptions
    registry = window.query_panel.registry
    assert registry is not None
    assert room.costs == listing_headroom(registry, view.options()).costs
    assert column(view.table, 0) == ["long-one"]
    assert header(view.table, 1) == "Description" and column(view.table, 1) == ["1,068"]
    assert header(view.table, 2) == "In the listing" and column(view.table, 2) == ["1,070"]
    tip = view.table.horizontalHeaderItem(2).toolTip()  # type: ignore[union-attr]
    assert '": "' in tip and "form" in tip  # says why it differs from the form's count
    assert "Description: its own characters, as the form counts them" in view.line.text()
    # Read as agentskills (its 1,024-character limit): the form counts what the table does.
    with qtbot.waitSignal(window.project_profiles.switched, timeout=10_000):
        assert window.project_profiles.set_project_profile(0, "agentskills")
    editor = window.open_skill(str(folder / "SKILL.md"))
    assert editor is not None
    field = editor.form.fields["description"]
    assert isinstance(field.widget, QPlainTextEdit)
    qtbot.waitUntil(lambda: field.counter.text() == "1068/1024", timeout=5_000)
    window.focus_query_panel()
    view = shown(window.query_panel, qtbot)
    assert view.room is not None and view.room.profile == "agentskills"
    assert column(view.table, 1) == ["1,068"] and column(view.table, 2) == ["—"]


def test_headroom_shows_the_set_against_the_listing_budget(
    query_panel: QueryPanel, qtbot: QtBot
) -> None:
    panel = panel_on(query_panel, "claude-code")
    view = panel.headroom
    panel.details.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.room is not None, timeout=10_000)
    registry = panel.registry
    assert registry is not None
    expected = listing_headroom(registry, view.options())
    room = view.room
    assert room is not None
    assert (room.needed, room.budget, room.skills) == (
        expected.needed,
        expected.budget,
        expected.skills,
    )
    assert f"{room.needed:,} of {room.budget:,} characters" in view.line.text()
    # the Tiers meter counts the same entries against the same budget (TierText.
    # budget_counted): the line says what the budget is about
    assert "The budget counts the skills' entries, as the Tiers meter does." in (view.line.text())
    # the table lists the author's skills; Claude Code's own entries are named in the line
    own = set(expected.agent_skills)
    assert own and "simplify" in own
    assert view.table.rowCount() == len([c for c in expected.costs if c.skill not in own]) == 4
    assert not own & {cell(view.table, r, 0) for r in range(view.table.rowCount())}
    assert "The agent's own 10 entries (update-config, " in view.line.text()
    # A small context window: a budget the set does not fit; who falls out is named.
    assert not view.window_row.isVisibleTo(view)  # the panel's own window option counts
    panel.option.setValue(5_000)
    qtbot.waitUntil(
        lambda: view.room is not None and view.room.budget != room.budget, timeout=10_000
    )
    small = view.room
    assert small is not None and small.budget is not None and small.budget < room.needed
    assert "over" in view.line.text()
    marked = [cell(view.table, r, 0) for r in range(view.table.rowCount())]
    assert any("(name only or cut)" in t or "(left out)" in t for t in marked)


def pick(view: HeadroomView, name: str) -> None:
    """Choose `name` in the model chooser as a user does."""
    number = view.model_box.findData(name)
    assert number > 0, name
    view.model_box.setCurrentIndex(number)
    view.model_box.activated.emit(number)


def test_the_model_chooser_fills_the_panels_window(query_panel: QueryPanel, qtbot: QtBot) -> None:
    panel = panel_on(query_panel, "claude-code")
    view = panel.headroom
    panel.details.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.room is not None, timeout=10_000)
    assert not view.window_row.isVisibleTo(view) and view.model_box.isVisibleTo(view)
    assert view.model_box.currentIndex() == 0  # no model named yet
    before = view.room
    pick(view, "claude-opus-4-6")
    assert panel.option.value() == 1_000_000  # the panel's window box, which is the window
    qtbot.waitUntil(lambda: view.room is not None and view.room is not before, timeout=10_000)
    assert view.room is not None and view.room.budget == 40_000  # 1 % of 1M, in characters
    assert view.model_box.currentData() == "claude-opus-4-6"
    panel.option.setValue(123_000)  # a number typed: no model's window any more
    assert view.model_box.currentIndex() == 0


def test_the_model_chooser_fills_its_own_window_box_and_lists_the_users_rows(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    write(tmp_path, "skillstudio/models.yaml", "models:\n  my-local: 32768\n")
    view = HeadroomView()
    qtbot.addWidget(view)
    view.set_project(None, None)
    assert view.window_row.isVisibleTo(view)
    pick(view, "gpt-5.2-codex")
    assert view.tokens_box.value() == 272_000
    pick(view, "my-local")  # the user's row, from the file the command line reads
    assert view.tokens_box.value() == 32_768
    view.tokens_box.setValue(1000)
    assert view.model_box.currentIndex() == 0


def test_the_cli_headroom_counts_what_the_tab_counts(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    """A repository whose skills sit in `skills/<group>/<name>` (none where Codex or
    Claude Code would load them in place), read as each agent: `skillstudio headroom
    --profile P` counts the set the app's Headroom tab counts (the author's view, as
    `prompt --tier 2` lists it), and says in that agent's terms why it would not load
    them where they sit."""
    base = tmp_path / "repo"
    (base / ".git").mkdir(parents=True)
    for group, name in (("curated", "gh-fix-ci"), ("curated", "notes-sync"), ("system", "make")):
        write(
            base,
            f"skills/{group}/{name}/SKILL.md",
            f"---\nname: {name}\ndescription: Does {name} work. Use when asked to {name}.\n"
            f"---\n\n# {name}\n\nSteps.\n",
        )
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(base))
    for profile, title in (("codex", "Codex CLI"), ("claude-code", "Claude Code")):
        with qtbot.waitSignal(window.project_profiles.switched, timeout=10_000):
            assert window.project_profiles.set_project_profile(0, profile)
        window.focus_query_panel()
        view = shown(window.query_panel, qtbot)
        room = view.room
        assert room is not None and room.profile == profile and room.skills == 3
        done = cli("headroom", str(base), "--profile", profile, "--format", "json", cwd=base)
        assert done.code == 0, done.err
        (row,) = done.json["agents"]
        assert (row["skills"], row["needed"], row["used"], row["budget"]) == (
            room.skills,
            room.needed,
            room.used,
            room.budget,
        )
        assert row["listed"] == room.listed
        assert f"{room.needed:,} of 8,000 characters" in view.line.text()
        # where the agent would not load them in place, one line says so in its terms
        note = row["in_place"]
        assert note.startswith(f"3 SKILL.md files here are not loaded by {title} if it runs")
        assert "it reads ." in note and "gh-fix-ci, make, notes-sync" in note
        text = cli("headroom", str(base), "--profile", profile, cwd=base).out
        assert f"  in place: 3 SKILL.md files here are not loaded by {title}" in text
        assert "  3 skills: " in text


def test_a_skill_the_agent_does_not_list_is_named_in_the_line(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    """A third first-time reviewer read "5 skills take 3,464 of 8,000" over a table of 4
    (one skill has `disable-model-invocation: true`): the CLI said "not listed by the
    agent's own rules: 1", the tab nothing."""
    base = tmp_path / "repo"
    for name, extra in (("triage", ""), ("release-notes", "disable-model-invocation: true\n")):
        write(
            base,
            f".claude/skills/{name}/SKILL.md",
            f"---\nname: {name}\ndescription: Does {name} work. Use when asked to {name}.\n"
            f"{extra}---\n\n# {name}\n\nSteps.\n",
        )
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(base))
    window.focus_query_panel()
    view = shown(window.query_panel, qtbot)
    room = view.room
    assert room is not None and room.profile == "claude-code" and room.skills == 2
    assert "not listed by the agent's own rules (1): release-notes" in view.line.text()
    assert column(view.table, 0) == ["triage"]  # the project's listed skills: 1 row of 2
    done = cli("headroom", str(base), "--profile", "claude-code", cwd=base)
    assert "not listed by the agent's own rules: 1" in done.out


@pytest.mark.parametrize(("size", "dock"), [((1366, 768), 170), ((1024, 768), 345)])
def test_the_sentence_is_never_cut_in_a_short_dock(
    window: MainWindow, qtbot: QtBot, size: tuple[int, int], dock: int
) -> None:
    """A reviewer's 170 px dock at 1366x768: the details got 80 px of the 157 the page
    asks, and the sentence showed 11 px of its 56. Now the page keeps its height (the
    dock scrolls) and the sentence shows the whole lines its height holds, the words
    that do not fit replaced by "…" and the whole in its tooltip."""
    window.resize(*size)
    window.query_dock.show()
    window.query_dock.raise_()
    qtbot.waitUntil(window.query_panel.isVisible)
    window.resizeDocks([window.query_dock], [dock], Qt.Orientation.Vertical)
    view = shown(window.query_panel, qtbot)
    line = view.line
    qtbot.waitUntil(lambda: line.width() > 0 and line.heightForWidth(line.width()) <= line.height())
    qtbot.wait(100)  # (settled: still so)
    assert line.heightForWidth(line.width()) <= line.height()
    whole = line.text()
    assert "agentskills has no listing budget of its own" in whole
    if line.shown() != whole:  # cut after a word, the whole to read in the tooltip
        assert line.shown().endswith("…") and whole.startswith(line.shown()[:-1])
        assert line.toolTip() == whole
    details = window.query_panel.details
    assert details.height() >= view.minimumSizeHint().height()  # the page's own least
