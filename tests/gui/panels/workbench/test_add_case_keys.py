"""Tests of "Add as test case" and one meaning per key (issue 37; PRODUCT.md section
7): the case is written under the key that matches what was shown (the likely skill
under a model-choice profile: `expect_likely`, never `expect: none`; `expect` where the
rules select or a skill is invoked by name), the message says where it went and that
the file was created, the suite is offered into skillstudio.yaml (a round-trip write:
every other byte kept) or else kept in the app's settings, and the Suites panel shows
it at once and again when the folder is opened anew."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.suites import load_suite
from skillstudio.gui.infra.settings_store import AppSettings
from skillstudio.gui.panels.workbench.add_case import AddCaseDialog
from skillstudio.gui.panels.workbench.query_panel import QueryPanel
from skillstudio.gui.window.main_window import MainWindow

from ...parts import ask, open_window, panel_on

CONFIG = "profile: agentskills\nroots: [skills]\n"  # parts.write_collection's


def answering(
    monkeypatch: pytest.MonkeyPatch, seen: list[AddCaseDialog], list_it: bool = True
) -> None:
    """The real dialog, accepted as it is (with the listing offer ticked or not)."""

    def accept(dialog: AddCaseDialog) -> QDialog.DialogCode:
        seen.append(dialog)
        dialog.list_box.setChecked(list_it)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(AddCaseDialog, "exec", accept)


def test_a_likely_skill_is_written_as_expect_likely_and_the_suite_listed(
    collection_panel: QueryPanel,
    collection: Path,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On main a model-choice project's case was written `expect:` (failing by
    construction) in a suites/<profile>.yaml created without a word."""
    panel = collection_panel
    seen: list[AddCaseDialog] = []
    answering(monkeypatch, seen)
    ask(panel, qtbot, "review my database migration for locking problems")
    assert panel.summary.text().startswith("Likely: sql-review")
    with qtbot.waitSignal(panel.said) as said:
        path = panel.add_test_case()
    dialog = seen[0]
    assert dialog.expect.text() == "sql-review"  # the likely skill, not none
    assert dialog.key_box.currentData() == "expect_likely"
    assert dialog.list_box.isVisibleTo(dialog)  # the new file is offered into the config
    suite = collection / "suites" / "agentskills.yaml"
    assert path == str(suite)
    assert "expect_likely: sql-review\n" in suite.read_text()
    case = load_suite(path).cases[-1]
    assert (case.mode, case.likely) == ("likely", ["sql-review"])
    query = "review my database migration for locking problems"
    assert said.args == [
        f"Added to suites/agentskills.yaml (created): {query} (expect_likely: sql-review); "
        "listed in skillstudio.yaml"
    ]
    config = (collection / "skillstudio.yaml").read_text()
    assert config == CONFIG + "suites:\n  - suites/agentskills.yaml\n"  # the rest kept


def test_an_invocation_and_a_rules_profile_are_written_as_expect(
    collection_panel: QueryPanel,
    query_panel: QueryPanel,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[AddCaseDialog] = []
    answering(monkeypatch, seen, list_it=False)
    panel = collection_panel
    panel.query.setText("$sql-review look at this migration")
    panel.update_now()
    path = panel.add_test_case()
    assert seen[-1].key_box.currentData() == "expect"  # the harness selects it by name
    assert path is not None and load_suite(path).cases[-1].expect == ["sql-review"]
    oasis = panel_on(query_panel, "oasis")  # its rules select: `expect`
    oasis.load_request("code review please")
    path = oasis.add_test_case()
    assert seen[-1].key_box.currentData() == "expect"
    assert not seen[-1].list_box.isVisibleTo(seen[-1])  # oasis.yaml is listed already
    assert path is not None and path.endswith("oasis.yaml")
    last = load_suite(path).cases[-1]
    assert (last.mode, last.expect) == ("exact", ["code-review"])


def test_the_suite_is_shown_at_once_and_remembered_on_reopen(
    app_window: MainWindow,
    collection: Path,
    settings: QSettings,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On main the new suite was neither shown in Suites nor offered on reopen."""
    window = app_window
    seen: list[AddCaseDialog] = []
    answering(monkeypatch, seen, list_it=False)  # declined: the app keeps it
    window.query_dock.show()
    window.query_dock.raise_()
    panel = window.query_panel
    ask(panel, qtbot, "review my database migration for locking problems")
    path = panel.add_test_case()
    suite = str(collection / "suites" / "agentskills.yaml")
    assert path == suite
    runner = window.suite_runner
    assert runner.suite_box.currentData() == suite  # shown at once, and run
    window.suites_dock.show()
    window.suites_dock.raise_()
    qtbot.waitUntil(lambda: runner.report is not None and len(runner.report.results) == 1)
    assert runner.report is not None and runner.report.failed == 0
    assert (collection / "skillstudio.yaml").read_text() == CONFIG  # not listed: untouched
    assert AppSettings(settings).kept_suites(str(collection)) == [suite]
    window.close()
    again = open_window(qtbot, settings, collection)
    offered = [
        again.suite_runner.suite_box.itemData(i)
        for i in range(again.suite_runner.suite_box.count())
    ]
    assert offered == [suite]


def test_a_listed_suite_comes_back_from_skillstudio_yaml(
    app_window: MainWindow,
    collection: Path,
    settings: QSettings,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[AddCaseDialog] = []
    answering(monkeypatch, seen, list_it=True)
    app_window.query_dock.show()
    app_window.query_dock.raise_()
    panel = app_window.query_panel
    ask(panel, qtbot, "review my database migration for locking problems")
    path = panel.add_test_case()
    assert path is not None
    assert AppSettings(settings).kept_suites(str(collection)) == []  # in the config instead
    app_window.close()
    fresh = QSettings(str(collection.parent / "other.ini"), QSettings.Format.IniFormat)
    again = open_window(qtbot, fresh, collection)  # no settings of this app: the file says
    box = again.suite_runner.suite_box
    assert [box.itemData(i) for i in range(box.count())] == [path]


def test_claude_codes_likely_pick_is_written_as_a_case_that_passes(
    query_panel: QueryPanel,
    samples: Path,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The issue's case: on a Claude Code project the case was pre-filled `none`
    under `expect:` though the likely skill was shown (Claude Code's own `review`)."""
    from ....helpers import cli

    seen: list[AddCaseDialog] = []
    answering(monkeypatch, seen, list_it=False)
    panel = panel_on(query_panel, "claude-code")
    ask(panel, qtbot, "please look over my pull request")
    likely = panel.likely
    assert likely is not None and likely.likely, "a skill is shown as likely"
    top = likely.likely[0].name
    path = panel.add_test_case()
    assert seen[-1].expect.text() == top and seen[-1].key_box.currentData() == "expect_likely"
    assert path is not None and f"expect_likely: {top}\n" in Path(path).read_text()
    run = cli("test", path, "--project", str(samples / "claude-code"))
    assert run.code == 0, run.out  # the case holds (an agent's own skill is no unknown name)
