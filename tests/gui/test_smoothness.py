"""Smoothness at scale (issue 18, item 15): work for what is not on screen waits."""

from __future__ import annotations

import itertools
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, QSettings
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from skillstudio.core.delivery import tiers as disclosure
from skillstudio.core.delivery.tiers import render_listing
from skillstudio.core.model.delivered import TierText
from skillstudio.core.model.diagnostics import Diagnostic
from skillstudio.core.model.skills import Skill
from skillstudio.core.projects.project import projects_for_path
from skillstudio.core.ranking.match_index import MatchIndex
from skillstudio.core.reading.skill_files import skill_body
from skillstudio.core.scanning.registry import Registry
from skillstudio.gui import (
    main_window,
    problems_model,
    scanner,
    skill_tree_model,
    skill_views,
    suite_runner,
)
from skillstudio.gui.main_window import MainWindow
from skillstudio.gui.problem_rows import ProblemRows
from skillstudio.gui.problems_model import PAGE, ProblemsModel
from skillstudio.gui.problems_panel import ProblemsPanel
from skillstudio.gui.skill_tree_model import PATH_ROLE, SkillTreeModel, TreeNodes
from skillstudio.gui.workbench import listing_writer
from skillstudio.gui.workbench.listing_writer import ListingWriter
from skillstudio.gui.workbench.panel_parts import NamesModel
from skillstudio.gui.workbench.tier_view import TierView

from ..benchmarks.synth import generate
from ..helpers import SAMPLES


def test_panels_behind_another_dock_tab_wait_until_their_tab_is_chosen(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    """Qt 6 leaves a dock behind another dock's tab visible (moved out of sight), so on
    main the Try a Request panel answered after every scan and every edit while the
    user looked at Problems (at 10,000 skills: the listing and a 10,000-name list,
    100-200 ms at the end of a scan)."""
    panel, runner = window.query_panel, window.suite_runner
    assert window.problems.isVisible()
    assert panel.isVisible()  # what Qt says of the panel behind the Problems tab
    assert panel.result is None  # the scan's end did not answer for it
    answers: list[str] = []

    def answer() -> None:
        answers.append("answered")
        panel.update_now()

    panel.catch_up.work = answer
    window.open_skill(str(samples / "oasis/key_skills/commit/SKILL.md"))
    panel.skills_changed()
    assert not panel.timer.isActive() and panel.catch_up.stale
    assert runner.run() is False  # the suite runner behind its tab waits too
    window.focus_query_panel()
    qtbot.waitUntil(lambda: panel.result is not None)
    assert answers == ["answered"]  # once, when its tab was chosen
    panel.skills_changed()  # on screen: answered after the usual pause
    assert panel.timer.isActive()
    window.problems_dock.raise_()
    qtbot.waitUntil(lambda: not panel.catch_up.on_screen())


def test_tree_sync_repaints_only_the_rows_that_changed(qapp: object) -> None:
    """After a refresh, dataChanged covers the re-read skills only: on main it covered
    every row of every root, and a tree view asks hasChildren of each row in a range
    (at 10,000 skills, 50-100 ms per file changed on disk)."""
    projects = projects_for_path(SAMPLES, None)
    registries = []
    for project in projects:
        registry = project.registry()
        registry.scan()
        registries.append(registry)
    bases = [p.base for p in projects]
    model = SkillTreeModel()
    model.set_registries(registries, bases)
    ranges: list[tuple[str, int, int]] = []
    model.dataChanged.connect(
        lambda first, last, *_: ranges.append((first.parent().data(), first.row(), last.row()))
    )
    registry = next(r for r in registries if r.profile.name == "oasis")
    path = next(s.path for s in registry.skills if s.name == "commit")
    with open(path, encoding="utf-8") as file:
        text = file.read()
    registry.reparse(path, text.replace("id: commit", "id: commit-helper"))
    assert model.sync(registries, bases)  # the rows stay; one changed
    row = model.index_of(path)
    assert [(r[1], r[2]) for r in ranges] == [(row.row(), row.row())]
    assert ranges[0][0] == row.parent().data()
    assert row.data() == "commit-helper"
    ranges.clear()
    assert model.sync(registries, bases)
    assert ranges == []  # nothing re-read, nothing repainted


def test_the_listing_is_written_when_its_tab_is_shown(window: MainWindow) -> None:
    """Tier 2 (the listing of every skill, 30-50 ms at 10,000) waits for its tab."""
    window.focus_query_panel()
    panel = window.query_panel
    panel.details.setCurrentIndex(0)  # the explanation in front
    panel.load_request("code review please")
    registry = panel.registry
    assert registry is not None
    assert panel.tiers[2].text == ""  # main: written on every answer
    assert not panel.tier_views[2].isVisible()
    panel.show_tier(2)
    expected = render_listing(registry, panel.options())
    assert expected.text
    assert panel.tiers[2].text == expected.text
    assert panel.tier_views[2].text.toPlainText() == expected.text
    assert panel.tiers[2].used == (panel.result is not None and panel.result.tier == 2)
    panel.load_request("code review please, find bugs")  # shown: written with the answer
    assert panel.tier_views[2].text.toPlainText() == expected.text


def test_why_not_lists_every_skill_and_keeps_the_choice(window: MainWindow) -> None:
    panel = window.query_panel
    window.focus_query_panel()
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


def test_the_tree_rows_are_built_by_the_scan_thread(
    qtbot: QtBot, settings: QSettings, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 10,000 skills building the rows took 30-120 ms at the end of the scan, on
    the GUI thread; the scan thread builds them now and the window only installs them."""
    threads: list[bool] = []
    real = skill_tree_model.tree_nodes

    def recording(registries: list[Registry], bases: list[str]) -> TreeNodes:
        if registries:  # (opening a folder first empties the tree)
            threads.append(threading.current_thread() is threading.main_thread())
        return real(registries, bases)

    monkeypatch.setattr(skill_tree_model, "tree_nodes", recording)
    monkeypatch.setattr(skill_views, "tree_nodes", recording)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(samples))
    assert threads == [False]  # once, off the GUI thread
    names = [win.tree_model.index(r, 0).data() for r in range(win.tree_model.rowCount())]
    assert "oasis · key_skills" in names
    assert win.tree_model.index_of(str(samples / "oasis/key_skills/commit/SKILL.md")).isValid()


def test_the_tree_shows_skills_before_their_gists_are_worked_out(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A gist (the body in brief, for the likely ranking) costs twice the rest of
    reading a skill: the tree no longer waits for them (at 10,000 skills where the
    model chooses: 8.6 s → 3.4-3.8 s); they are in before anything ranks."""
    generate(str(tmp_path / "many"), 60)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    at_tree: list[int] = []
    shown = threading.Event()
    real = scanner.fill_gists

    def after_the_tree(*args: Any) -> int:  # (the scan thread waits for the test's look)
        assert shown.wait(10), "the tree was not filled before the gists were asked for"
        return real(*args)

    def look() -> None:
        if win.tree_model.rowCount():
            at_tree.append(sum(bool(s.gist) for r in win.registries for s in r.skills))
            shown.set()

    monkeypatch.setattr(scanner, "fill_gists", after_the_tree)
    win.tree_model.modelReset.connect(look)
    with qtbot.waitSignal(win.scan_finished, timeout=20_000):
        assert win.open_path(str(tmp_path / "many"), "agentskills")
    assert at_tree == [0]  # shown without them
    direct = Registry(win.registries[0].profile, win.registries[0].roots)
    direct.scan()
    gists = {s.path: s.gist for s in direct.skills}
    assert sum(bool(g) for g in gists.values()) >= 50
    assert {s.path: s.gist for s in win.registries[0].skills} == gists


def test_problems_installs_the_scan_threads_rows_without_listing_them_again(
    qtbot: QtBot, settings: QSettings, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Listing every skill's diagnostics again and comparing them with the scan's rows
    took 25-45 ms of the GUI thread at the end of a 10,000-skill scan: the registries'
    versions say the rows are current. A registry changed meanwhile: listed again."""
    on_gui: list[bool] = []
    real = skill_views.problem_sources

    def recording(*args: Any) -> Any:
        if args[1]:  # (opening a folder first empties Problems)
            on_gui.append(threading.current_thread() is threading.main_thread())
        return real(*args)

    monkeypatch.setattr(skill_views, "problem_sources", recording)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(samples))
    assert on_gui == [False]  # once, in the scan thread
    rows = win.problems_model._state
    shown = len(win.problems_model.shown())
    assert shown > 0
    win.registries[0].version += 1  # (an edit between the scan and the rows' install)
    win.problems_model._state = ProblemRows([], "", [], set(), "")  # (another folder's)
    win.views.update_problems(rows)
    assert on_gui == [False, True]
    assert len(win.problems_model.shown()) == shown


def test_the_activation_list_is_filled_when_its_tab_is_shown(window: MainWindow) -> None:
    panel = window.query_panel
    activation = panel.activation
    assert activation.names.rowCount() == 0  # not at the end of the scan
    window.focus_query_panel()
    panel.details.setCurrentIndex(2)  # Activation
    registry = panel.registry
    assert registry is not None
    assert activation.names.stringList() == sorted(registry.active)


def _rows_of(rows: ProblemRows) -> list[list[tuple[str, ...]]]:
    return [[(d.code, d.message, d.path, str(d.line)) for d in group] for group in rows.rows]


def test_problem_rows_updated_in_place_equal_rows_built_again() -> None:
    """At 10,000 agentskills skills Problems holds 60,000 diagnostics: sorting and
    grouping them all took 100-480 ms per keystroke or file changed. Only the lists
    that changed are compared now and the rows updated in place; after each of many
    random changes they equal the rows built from scratch."""
    rng = random.Random(18)
    codes = ["unknown-field", "name-format", "field-missing"]

    def findings(skill: int) -> list[Diagnostic]:
        return [
            Diagnostic(
                rng.choice(codes),
                rng.choice(["error", "warning", "info"]),
                rng.choice(["Add a field.", "Rename it.", f"Skill {skill} only."]),
                f"/p/s{skill}/SKILL.md",
                rng.randint(1, 4),
                1,
                skill=f"s{skill}",
            )
            for _ in range(rng.randint(0, 3))
        ]

    sources = [findings(n) for n in range(40)]
    for severities, only in [({"error", "warning", "info"}, ""), ({"warning"}, "/p/s3/SKILL.md")]:
        rows = ProblemRows(sources, "/p", ["/p"], severities, only)
        for _ in range(60):
            sources = list(sources)
            for n in rng.sample(range(40), rng.randint(1, 3)):
                sources[n] = findings(n) if rng.random() < 0.8 else list(sources[n])
            changes = rows.changes(sources)
            assert changes is not None
            rows.update(*changes)
            fresh = ProblemRows(sources, "/p", ["/p"], severities, only)
            assert _rows_of(rows) == _rows_of(fresh)
            assert rows.counts == fresh.counts and rows.codes() == fresh.codes()
    assert rows.changes(sources) == ([], [])  # nothing changed: nothing to do
    assert rows.changes([*sources, []]) is None  # skills came: built again


def test_problems_are_sorted_and_grouped_by_the_scan_thread_and_kept_in_place(
    qtbot: QtBot, settings: QSettings, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first rows are built off the GUI thread; a keystroke re-reading one skill
    does not build them again (it compares that skill's lists only)."""
    built: list[bool] = []

    class Recording(ProblemRows):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            built.append(threading.current_thread() is threading.main_thread())
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(skill_views, "ProblemRows", Recording)
    monkeypatch.setattr(problems_model, "ProblemRows", Recording)
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    built.clear()  # (the empty window's rows)
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(samples))
    assert False in built and built[built.index(False) :] == [False]  # the last, off-thread
    shown = len(win.problems_model.shown())
    assert shown and win.problems_model.counts() == win.problems_model._state.counts
    built.clear()
    editor = win.open_skill(str(samples / "oasis/key_skills/commit/SKILL.md"))
    assert editor is not None
    text = editor.document.text()
    editor.document.text_document.setPlainText(text.replace("id: commit", "id: Commit_Bad"))
    editor.document.validate()
    assert any(d.skill == "Commit_Bad" for d in win.problems_model.shown())  # updated
    editor.document.text_document.setPlainText(text)
    editor.document.validate()
    assert len(win.problems_model.shown()) == shown
    assert built == []  # never built again on the GUI thread


def test_problems_hands_the_view_its_rows_a_page_at_a_time(qtbot: QtBot) -> None:
    """A tree view lays out every top row it is given: 30,000 distinct problems took
    300 ms at the end of a scan. The view gets PAGE rows and asks for more as it
    scrolls (fetchMore); counts and 'shown' still cover every problem."""
    model = ProblemsModel()
    panel = ProblemsPanel(model)
    qtbot.addWidget(panel)
    panel.resize(600, 300)
    panel.show()
    diags = [
        Diagnostic("name-format", "error", f"Name {n} is bad.", f"/p/s{n:05}/SKILL.md", 1, 1)
        for n in range(PAGE * 2 + 10)
    ]
    model.set_sources([[d] for d in diags], "/p", ["/p"])  # one list a skill
    assert model.rowCount() <= 2 * PAGE < len(diags)  # (a view fills its height at once)
    assert model.canFetchMore(QModelIndex())
    assert model.counts()["error"] == len(diags) and len(model.shown()) == len(diags)
    view = panel.view
    for _ in range(3):  # the user scrolls to the end, a page at a time
        view.scrollToBottom()
        qtbot.waitUntil(lambda: True)
        QApplication.processEvents()
    qtbot.waitUntil(lambda: model.rowCount() == len(diags))
    assert not model.canFetchMore(QModelIndex())
    last = model.index(model.rowCount() - 1, 0)
    assert last.data() == f"Name {len(diags) - 1} is bad."
    model.set_sources([[d] for d in diags[:-1]] + [[]], "/p", ["/p"])  # one skill fixed
    assert model.rowCount() == len(diags) - 1  # updated in place: the rows stay loaded


def test_the_listing_is_written_in_slices_of_a_bounded_count(
    tmp_path: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 10,000 skills writing the listing took 30-180 ms in one piece (and laying its
    text out 40-420 ms more) each time the Tiers tab's listing was opened or a skill
    changed under it. It is written LISTING_STEP skills a slice now (and its text is
    drawn a screen at a time, see test_line_view); the result is the same."""
    monkeypatch.setattr(disclosure, "LISTING_STEP", 20)  # (500 and 100,000: smaller here)
    step = disclosure.LISTING_STEP
    generate(str(tmp_path), step * 2 + 15)
    registry = projects_for_path(str(tmp_path), None)[0].registry()
    registry.scan()
    expected = render_listing(registry, {})
    assert len(expected.listed) > 2 * step
    disclosure._LISTINGS.clear()  # (written again, not taken from the cache)
    written: list[TierText] = []
    parent = QWidget()
    writer = ListingWriter(lambda _r, _v, tier: written.append(tier), lambda _t: None, parent)
    monkeypatch.setattr(listing_writer, "LISTING_SLICE_S", 0.0)  # one step a slice
    writer.start(registry, {})
    slices = 1
    while writer.job is not None:
        writer.run_slice(writer.job, 0.0)
        slices += 1
    assert slices == len(registry.active) // step + 1  # LISTING_STEP skills a slice
    assert [t.text for t in written] == [expected.text]
    view = TierView()
    qtbot.addWidget(view)
    view.show()
    view.show_tier(written[0])
    assert view.text.toPlainText() == expected.text


def test_a_refresh_lets_events_in_after_each_tab_it_reads_again(
    window: MainWindow, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each tab re-read after files changed updates Problems and the tree (10-30 ms
    at 10,000 skills); on main they and the views' update ran in one slice."""
    paths = [str(samples / f"oasis/key_skills/{n}/SKILL.md") for n in ("commit", "code-review")]
    events: list[str] = []
    for path in paths:
        editor = window.open_skill(path)
        assert editor is not None
        monkeypatch.setattr(editor.document, "on_disk_changed", lambda: events.append("tab"))
    monkeypatch.setattr(window.views, "refresh", lambda rebuild=True: events.append("views"))
    for _ in window.refresher.steps(paths):
        events.append("yield")
    assert events[events.index("views") - 1 :].count("tab") == 0  # after the tabs
    assert events.count("tab") == 2
    assert [events[n + 1] for n, e in enumerate(events) if e == "tab"] == ["yield", "yield"]


def test_the_tree_is_shown_before_the_match_indexes_are_built(
    qtbot: QtBot, settings: QSettings, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Target: the tree filled no later than `skillstudio lint` of the folder. Try a
    Request's match indexes (0.8 s at 10,000 skills) were built before the tree was
    shown; they are built after, from a copy of the active skills, and then kept
    current with the registry itself."""
    shown = threading.Event()
    seen: list[bool] = []
    real = scanner.MatchIndex

    def index_after_tree(registry: Registry) -> MatchIndex:
        seen.append(shown.wait(5))  # the GUI thread fills the tree meanwhile
        return real(registry)

    monkeypatch.setattr(scanner, "MatchIndex", index_after_tree)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()

    def filled() -> None:
        if win.tree_model.rowCount():
            shown.set()

    win.tree_model.modelReset.connect(filled)
    with qtbot.waitSignal(win.scan_finished, timeout=20_000):
        assert win.open_path(str(samples))
    assert seen and all(seen)
    panel_indexes = win.query_panel.indexes
    assert {id(r) for r in win.registries} == set(panel_indexes)
    assert all(panel_indexes[id(r)].registry is r for r in win.registries)


def test_a_suite_slice_starts_no_case_it_cannot_finish_in_time(
    window: MainWindow, samples: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A case takes 10-40 ms at 10,000 skills; on main a slice started another while
    under SLICE_MS, so a 15 ms slice held the event loop 30-80 ms. Cases of 10 ms:
    one a slice."""
    real = suite_runner.run_case

    def slow_case(*args: Any) -> Any:
        time.sleep(0.010)
        return real(*args)

    monkeypatch.setattr(suite_runner, "run_case", slow_case)
    suite = next(samples.glob("oasis/suites/*.yaml"))
    window.suites_dock.show()
    window.suites_dock.raise_()
    runner = window.suite_runner
    qtbot.waitUntil(runner.isVisible)
    assert runner.open_suite(str(suite))
    runner.step_timer.stop()  # the slices one by one
    counts = []
    while runner._steps is not None:
        before = len(runner._results)
        runner._step()
        counts.append(len(runner._results) - before)
    assert runner.report is not None and len(runner.report.results) == sum(counts) >= 3
    assert max(counts) == 1


def test_a_large_root_is_handed_to_the_tree_a_page_at_a_time(
    tmp_path: Path, qtbot: QtBot, settings: QSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tree view lays out every row of a root it opens: at 10,000 skills opening the
    root took 110-370 ms. The view gets ROOT_PAGE skills, the next page as the user
    scrolls to the last; a skill asked for by path (the current tab) is handed over."""
    monkeypatch.setattr(skill_tree_model, "ROOT_PAGE", 40)  # (1,000: pages of 40 here)
    page = skill_tree_model.ROOT_PAGE
    generate(str(tmp_path), page * 2 + 15)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.resize(900, 600)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=60_000):
        assert win.open_path(str(tmp_path))
    model, tree = win.tree_model, win.tree
    root = model.index(0, 0)
    assert model.skill_count(root) == page * 2 + 15
    assert model.rowCount(root) == page  # (expanded: under AUTO_EXPAND_MAX)
    assert tree.isExpanded(root) and not model.canFetchMore(root)
    for _ in range(3):  # the user scrolls to the end, twice
        tree.scrollToBottom()
        qtbot.wait(20)
    qtbot.waitUntil(lambda: model.rowCount(root) == page * 2 + 15)
    assert not model.more_skills(root)
    model.set_filter("x")
    model.set_filter("")  # rows handed over again from the first page
    assert model.rowCount(root) == page
    last = sorted(s.path for s in win.registries[0].skills if s.root.path == root.data(PATH_ROLE))
    index = model.index_of(last[-1])
    assert index.isValid() and index.row() == page * 2 + 14 and model.rowCount(root) > index.row()


def test_problem_rows_keep_their_rows_when_many_skills_are_re_read_unchanged() -> None:
    """A burst (a git checkout) re-reads 1,000 skills whose findings do not change:
    6,000 equal diagnostics at 10,000 agentskills skills. They are compared, not built
    again (which took 130-230 ms); a large real change is built again."""
    first = [
        [Diagnostic("name-format", "error", f"Bad {n}.", f"/p/{n}/SKILL.md", 1, 1)]
        for n in range(3000)
    ]
    rows = ProblemRows(first, "/p", ["/p"], {"error"}, "")
    again = [[Diagnostic(**{f: getattr(d, f) for f in d.__slots__}) for d in s] for s in first]
    assert again[0][0] is not first[0][0]
    assert rows.changes(again) == ([], [])
    fixed: list[list[Diagnostic]] = [[] for _ in first]
    assert rows.changes(fixed) is None  # 3,000 gone: built again


def test_worker_threads_hand_the_interpreter_lock_back_within_a_millisecond(
    window: MainWindow,
) -> None:
    """The scan, index and listing workers held the lock up to 5 ms (Python's default)
    each time the GUI thread asked for it; Qt calls into Python per row it lays out."""
    assert sys.getswitchinterval() == pytest.approx(main_window.SWITCH_INTERVAL_S)
    assert main_window.SWITCH_INTERVAL_S <= 0.001


def _slices_of_a_refresh(
    window: MainWindow, paths: list[str], monkeypatch: pytest.MonkeyPatch
) -> dict[str, set[int]]:
    """Run a refresh of `paths` slice by slice with an unbounded time budget (so that
    only the refresh's own pauses end a slice): which slices each piece ran in."""
    from skillstudio.gui import refresh

    monkeypatch.setattr(refresh, "REFRESH_SLICE_S", 1000.0)
    seen: dict[str, set[int]] = {}
    slice_number = [0]

    def noted(label: str, real: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            seen.setdefault(label, set()).add(slice_number[0])
            return real(*args, **kwargs)

        return run

    registry = window.workspace.registry_for(paths[0])
    assert registry is not None
    for name in ("_set", "_swap"):  # the install of the re-read skills
        monkeypatch.setattr(registry, name, noted("install", getattr(registry, name)))
    tree = window.tree_model  # its rows' update (a sync with nothing to do is not one)
    monkeypatch.setattr(tree, "_rows_changed", noted("tree", tree._rows_changed))
    monkeypatch.setattr(
        window.views, "update_problems", noted("problems", window.views.update_problems)
    )
    window.refresher.pending.update(paths)
    window.refresher.start()  # the first slice
    while window.refresher.job is not None:
        slice_number[0] += 1
        window.refresher.run_slice()
    return seen


def test_a_refresh_installs_updates_the_tree_and_problems_in_slices_of_their_own(
    window: MainWindow, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 10,000 skills the last slice of a 1,000-file burst held the event loop for
    80-105 ms on main: the registry's install (35 ms), the match index's sync (10),
    the tree's update (15) and Problems' (10) in one slice. Each gets its own."""
    window.watcher.stop()  # the slices one by one, from here
    paths = [str(samples / f"oasis/key_skills/{n}/SKILL.md") for n in ("commit", "code-review")]
    for path in paths:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("\nChanged outside.\n")
    seen = _slices_of_a_refresh(window, paths, monkeypatch)
    install, tree, problems = seen["install"], seen["tree"], seen["problems"]
    assert len(install) == len(tree) == len(problems) == 1
    assert min(install) < min(tree) < min(problems)
    registry = window.workspace.registry_for(paths[0])
    assert registry is not None
    assert all("Changed outside." in skill_body(registry.by_path[p]) for p in paths)


def test_refresh_slices_leave_timers_their_turn_between_them(
    window: MainWindow, samples: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """QTimer.singleShot(0) is a posted call: Qt ran two slices back to back before
    a timer (or the user's input) got its turn, so a 15 ms slice stalled 30 ms. The
    next slice is a zero timer's: each slice is followed by the other timers."""
    from PySide6.QtCore import QTimer

    from skillstudio.gui import refresh

    monkeypatch.setattr(refresh, "REFRESH_SLICE_S", 0.0)  # one file a slice
    window.watcher.stop()
    events: list[str] = []
    run_slice = window.refresher.run_slice

    def counted(seconds: float | None = None) -> None:
        events.append("slice")
        run_slice(seconds)

    monkeypatch.setattr(window.refresher, "run_slice", counted)
    beat = QTimer()
    beat.setInterval(0)
    beat.timeout.connect(lambda: events.append("beat"))
    paths = [str(p) for p in sorted(samples.rglob("SKILL.md"))[:8]]
    for path in paths:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("\nChanged outside.\n")
    beat.start()
    window.refresher.changed(paths)
    qtbot.waitUntil(lambda: window.refresher.job is None, timeout=10_000)
    beat.stop()
    slices = [n for n, e in enumerate(events) if e == "slice"]
    assert len(slices) >= len(paths)
    assert all(b - a > 1 for a, b in itertools.pairwise(slices)), events


def test_a_tree_shown_as_the_registries_are_is_not_walked_again(qapp: object) -> None:
    """A refresh syncs the tree in a slice of its own, then the views' update asks
    again: with no registry changed since, the 10,000 rows are not compared again."""
    project = projects_for_path(SAMPLES, None)[0]
    registry = project.registry()
    registry.scan()
    model = SkillTreeModel()
    model.set_registries([registry], [project.base])
    assert model.sync([registry], [project.base])

    class Unread(list[Any]):
        def __iter__(self) -> Any:
            raise AssertionError("the skills were walked again")

    shown = registry.skills
    registry.skills = Unread(shown)
    assert model.sync([registry], [project.base])  # nothing moved: nothing to do
    registry.skills = shown
    registry.reparse(shown[0].path)  # a change moves the version: synced again
    assert model.sync([registry], [project.base])
    assert model._by_path[shown[0].path].skill is registry.by_path[shown[0].path]


def test_a_suite_run_prepares_and_reports_in_slices_of_their_own(
    window: MainWindow, samples: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 10,000 skills the first slice of a run synced the match index, listed the
    skill names and ran a case (54 ms); the last ran cases and then sized the tables
    (27 ms, 16 of them measuring the stretched request and note columns)."""
    monkeypatch.setattr(suite_runner, "SLICE_MS", 100_000)  # only the run's pauses
    events: list[str] = []
    real_case, real_index = suite_runner.run_case, window.suite_runner.index_for

    def case(*args: Any) -> Any:
        events.append("case")
        return real_case(*args)

    def index(registry: Registry) -> MatchIndex:
        events.append("index")
        return real_index(registry)

    monkeypatch.setattr(suite_runner, "run_case", case)
    runner = window.suite_runner
    monkeypatch.setattr(runner, "index_for", index)
    measured: list[int] = []
    real_resize = runner.cases.resizeColumnToContents
    monkeypatch.setattr(runner.cases, "resizeColumnToContents", measured.append)
    monkeypatch.setattr(runner.cases, "resizeColumnsToContents", lambda: measured.extend(range(99)))
    suite = next(samples.glob("oasis/suites/*.yaml"))
    window.suites_dock.show()
    window.suites_dock.raise_()
    qtbot.waitUntil(runner.isVisible)
    assert runner.open_suite(str(suite))
    runner.step_timer.stop()  # the slices one by one
    slices = []
    while runner._steps is not None:
        events.clear()
        runner._step()
        slices.append((list(events), runner.report is not None))
    assert slices[0] == (["index"], False)  # the preparation alone
    assert slices[-1] == ([], True)  # the report alone
    report = runner.report
    assert report is not None
    assert sum(e.count("case") for e, _ in slices) == len(report.results) >= 3
    header = runner.cases.horizontalHeader()
    stretched = {
        c for c in range(header.count()) if header.sectionResizeMode(c) == header.ResizeMode.Stretch
    }
    assert stretched and measured and stretched.isdisjoint(measured)
    for column in measured:
        real_resize(column)


def test_a_tree_sync_reads_the_skills_in_one_pass(qapp: object) -> None:
    """A burst's tree update compared the rows with three passes over the 10,000
    skills (15-20 ms at 10,000, with the repaint after it 45 ms): one pass finds
    both whether the rows stay and which skills were re-read."""
    project = projects_for_path(SAMPLES, None)[0]
    registry = project.registry()
    registry.scan()
    model = SkillTreeModel()
    model.set_registries([registry], [project.base])
    passes = [0]

    class Counted(list[Any]):
        def __iter__(self) -> Any:
            passes[0] += 1
            return super().__iter__()

    changed = registry.skills[1].path
    registry.reparse(changed)
    registry.skills = Counted(registry.skills)
    changes: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda first, last: changes.append((first.row(), last.row())))
    assert model.sync([registry], [project.base])
    assert passes[0] == 1
    assert model._by_path[changed].skill is registry.by_path[changed]
    assert len(changes) == 1
    registry.skills = Counted(registry.skills[:-1])  # a skill gone: the rows built again
    registry.version += 1
    assert not model.sync([registry], [project.base])
    assert registry.skills[-1].path in model._by_path


def test_the_skills_read_again_are_freed_in_steps_after_the_views(
    window: MainWindow, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Freeing 1,000 re-read skills took 15-20 ms in the view that held them last
    (the tree's update, 45 ms with its repaint): the refresh holds them until every
    view is updated, then lets them go RELEASE_STEP at a time."""
    from skillstudio.gui import refresh

    monkeypatch.setattr(refresh, "RELEASE_STEP", 1)
    window.watcher.stop()
    names = ("commit", "code-review", "write-tests")
    paths = [str(samples / f"oasis/key_skills/{n}/SKILL.md") for n in names]
    registry = window.workspace.registry_for(paths[0])
    assert registry is not None
    old = [registry.by_path[p] for p in paths]
    for path in paths:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("\nChanged outside.\n")
    events: list[str] = []
    views = window.views.refresh

    def noted(rebuild: bool = True) -> None:
        views(rebuild)
        events.append("views")

    monkeypatch.setattr(window.views, "refresh", noted)
    held = []
    for _ in window.refresher.steps(paths):
        held.append(sum(sys.getrefcount(skill) for skill in old))
        events.append("step")
    after = events.index("views")
    assert all(registry.by_path[p] is not s for p, s in zip(paths, old, strict=True))
    # Still held by the refresh when the views were updated, then freed one a step.
    released = held[after - 1 :]
    assert len(released) >= len(old) + 1
    assert released[0] - released[-1] == len(old)
