"""Tests of gui/panels/suite_offers.py (which suites belong to the open project: the
ones Try a Request's "Add as test case…" proposes and the Suites panel lists, where a
new suite file starts): a first-time reviewer (issue 39, round 3) opened folder A,
added cases, opened folder B and "Add as test case" proposed A's suite, wrote B's case
into it (B's skillstudio.yaml left untouched though "List it" was ticked), and the
Suites panel kept showing A's suite."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDialog, QFileDialog
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.suites import load_suite
from skillstudio.gui.infra.settings_store import AppSettings
from skillstudio.gui.panels.suite_offers import new_suite_start, own_suites
from skillstudio.gui.panels.workbench.add_case import (
    AddCaseDialog,
    CaseAnswer,
    CaseQuestion,
)
from skillstudio.gui.window.main_window import MainWindow

from ..parts import ask, open_window, write_collection

REQUEST = "review my database migration for locking problems"


def offered(box: object) -> list[str]:
    return [box.itemData(i) for i in range(box.count())]  # type: ignore[attr-defined]


def accepting(monkeypatch: pytest.MonkeyPatch, seen: list[AddCaseDialog], list_it: bool) -> None:
    """The real dialog, accepted as shown (the listing offer ticked or not)."""

    def accept(dialog: AddCaseDialog) -> QDialog.DialogCode:
        seen.append(dialog)
        if dialog.list_box.isEnabled():
            dialog.list_box.setChecked(list_it)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(AddCaseDialog, "exec", accept)


def add_case(window: MainWindow, qtbot: QtBot) -> str | None:
    window.query_dock.show()
    window.query_dock.raise_()
    ask(window.query_panel, qtbot, REQUEST)
    return window.query_panel.add_test_case()


def open_other(window: MainWindow, qtbot: QtBot, folder: Path) -> None:
    with qtbot.waitSignal(window.scan_finished, timeout=20_000):
        assert window.open_path(str(folder))


@pytest.mark.parametrize("list_it", [True, False])
def test_add_as_test_case_proposes_the_open_folders_suites_only(
    qtbot: QtBot,
    settings: QSettings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    list_it: bool,
) -> None:
    """On main the second folder's case went into the first folder's suite."""
    first, second = write_collection(tmp_path / "a"), write_collection(tmp_path / "b")
    seen: list[AddCaseDialog] = []
    accepting(monkeypatch, seen, list_it)
    window = open_window(qtbot, settings, first)
    theirs = add_case(window, qtbot)
    assert theirs == str(first / "suites" / "agentskills.yaml")
    assert window.suite_runner.suite_box.currentData() == theirs
    open_other(window, qtbot, second)
    assert offered(window.suite_runner.suite_box) == []  # A's suite went with A
    mine = add_case(window, qtbot)
    dialog = seen[-1]
    assert mine == str(second / "suites" / "agentskills.yaml")  # the default: B's new file
    assert all(str(p).startswith(str(second)) for p in offered(dialog.suite_box) if p)
    assert len(load_suite(theirs).cases) == 1  # A's suite untouched
    assert load_suite(mine).cases[-1].query == REQUEST
    config = (second / "skillstudio.yaml").read_text(encoding="utf-8")
    assert ("suites/agentskills.yaml" in config) == list_it  # ticked: listed in B's
    kept = AppSettings(settings).kept_suites(str(second))
    assert kept == ([] if list_it else [mine])
    assert offered(window.suite_runner.suite_box) == [mine]  # Suites lists B's only
    # Back in A: its own suite, not B's
    open_other(window, qtbot, first)
    assert add_case(window, qtbot) == theirs
    assert all(str(p).startswith(str(first)) for p in offered(seen[-1].suite_box) if p)


def test_a_suite_outside_the_project_is_said_and_not_listed_silently(
    qtbot: QtBot,
    settings: QSettings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Picked by hand with "New suite file…", a file of another folder: the dialog says
    it lies outside the project and why it cannot be listed (the box disabled, not a
    tick ignored); the app does not remember it for the project either."""
    first, second = write_collection(tmp_path / "a"), write_collection(tmp_path / "b")
    elsewhere = str(first / "suites" / "by-hand.yaml")
    starts: list[str] = []

    def save_as(_parent: object, _title: str, start: str, _filter: str) -> tuple[str, str]:
        starts.append(start)
        return elsewhere, ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    window = open_window(qtbot, settings, second)
    window.query_dock.show()
    window.query_dock.raise_()
    ask(window.query_panel, qtbot, REQUEST)
    panel = window.query_panel
    dialogs: list[AddCaseDialog] = []

    def asking(question: CaseQuestion) -> CaseAnswer:
        dialog = AddCaseDialog(question)
        dialogs.append(dialog)
        new = dialog.suite_box.findData("")
        dialog.suite_box.setCurrentIndex(new)
        dialog.suite_box.activated.emit(new)  # "New suite file…" chosen
        return dialog.answer()

    panel.ask_case = asking  # type: ignore[method-assign]
    with qtbot.waitSignal(panel.said) as said:
        assert panel.add_test_case() == elsewhere
    message = str(said.args[0])
    dialog = dialogs[0]
    assert starts == [str(second / "new-suite.yaml")]  # B has no suites/ yet: B itself
    assert dialog.suite_box.currentData() == elsewhere
    assert not dialog.list_box.isEnabled() and not dialog.list_box.isChecked()
    assert dialog.list_box.toolTip() == dialog.outside.text()  # the reason, on the box too
    assert "outside" in dialog.outside.text() and str(second) in dialog.outside.text()
    assert not dialog.outside.isHidden()
    assert "outside this project: not listed in skillstudio.yaml" in message
    assert AppSettings(settings).kept_suites(str(second)) == []  # not offered again
    assert "by-hand" not in (second / "skillstudio.yaml").read_text(encoding="utf-8")
    assert load_suite(elsewhere).cases[-1].query == REQUEST  # written where the user said
    # Back to a file of the project: the offer is back, as the user left it
    dialog.suite_box.setCurrentIndex(0)
    assert dialog.list_box.isEnabled() and dialog.list_box.isChecked()
    assert dialog.outside.isHidden()


def test_suites_of_another_folder_kept_by_an_older_app_are_not_offered(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An older version kept the other folder's suite for B (its listing failed):
    Suites offered it in B on every opening; New… started where Qt's dialog was last."""
    first, second = write_collection(tmp_path / "a"), write_collection(tmp_path / "b")
    (first / "suites").mkdir()
    theirs = first / "suites" / "agentskills.yaml"
    theirs.write_text("cases: []\n", encoding="utf-8")
    (second / "suites").mkdir()
    mine = second / "suites" / "mine.yaml"
    mine.write_text("cases: []\n", encoding="utf-8")
    store = AppSettings(settings)
    store.keep_suite(str(second), str(theirs))
    store.keep_suite(str(second), str(mine))
    window = open_window(qtbot, settings, second)
    runner = window.suite_runner
    assert offered(runner.suite_box) == [str(mine)]
    starts: list[str] = []

    def save_as(_parent: object, _title: str, start: str, _filter: str) -> tuple[str, str]:
        starts.append(start)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    runner.clear()  # no suite shown: a new one goes in the project's suites/ folder
    assert runner.ask_new_path() is None
    assert starts == [str(second / "suites" / "new-suite.yaml")]


def test_own_suites_and_where_a_new_one_starts(tmp_path: Path) -> None:
    """Files of another folder (kept by an older version of the app) are dropped; a new
    suite starts in the project's suites/ folder, or the project's own folder when
    there is none yet (a missing folder made Qt's dialog start where it was last)."""
    base = tmp_path / "project"
    (base / "suites").mkdir(parents=True)
    inside = str(base / "suites" / "a.yaml")
    outside = str(tmp_path / "other" / "suites" / "a.yaml")
    sibling = str(tmp_path / "project-2" / "suites" / "a.yaml")
    assert own_suites(str(base), [inside, outside, sibling]) == [inside]
    assert new_suite_start(str(base)) == str(base / "suites" / "new-suite.yaml")
    bare = tmp_path / "bare"
    bare.mkdir()
    assert new_suite_start(str(bare)) == str(bare / "new-suite.yaml")
