"""Issue 39: the app and `skillstudio test` judged the same suite differently. A folder
detected as agentskills, read as claude-code (chosen in the status bar), Add as test
case…: the skillstudio.yaml the app writes now says `profile: claude-code`, so
`skillstudio test` passes the suite as F6 does; a file naming another profile is left
and the message says so; and a file's profile wins over the one remembered for the
folder when it is opened."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from skillstudio.gui.infra.settings_store import AppSettings
from skillstudio.gui.panels.workbench.add_case import AddCaseDialog
from skillstudio.gui.window.main_window import MainWindow

from ....helpers import cli
from ....test_config_profile import plain_folder
from ...parts import ask, open_window

REQUEST = "please look over my pull request"  # Claude Code's own `review` is likely


def accept_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    def accept(dialog: AddCaseDialog) -> QDialog.DialogCode:
        dialog.list_box.setChecked(True)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(AddCaseDialog, "exec", accept)


def choose_profile(window: MainWindow, qtbot: QtBot, name: str) -> None:
    """The status bar's box set to `name`, the project read so."""
    box = window.project_profiles.profile_box
    with qtbot.waitSignal(window.project_profiles.switched, timeout=20_000):
        box.setCurrentIndex(box.findData(name))
    assert window.context.projects[0].profile.name == name


def add_case_and_run(window: MainWindow, qtbot: QtBot) -> tuple[str, int, int]:
    """Try a Request › Add as test case…, then F6: (the message, passed, failed)."""
    window.query_dock.show()
    window.query_dock.raise_()
    panel = window.query_panel
    ask(panel, qtbot, REQUEST)
    with qtbot.waitSignal(panel.said) as said:
        assert panel.add_test_case() is not None
    runner = window.suite_runner
    window.run_suite()
    qtbot.waitUntil(lambda: runner.report is not None and len(runner.report.results) == 1)
    assert runner.report is not None
    return str(said.args[0]), runner.report.passed, runner.report.failed


def test_the_reviewers_steps_pass_skillstudio_test_as_f6_does(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = plain_folder(tmp_path / "notes")
    accept_listing(monkeypatch)
    window = open_window(qtbot, settings, folder)
    assert window.context.projects[0].profile.name == "agentskills"  # detected
    choose_profile(window, qtbot, "claude-code")
    message, passed, failed = add_case_and_run(window, qtbot)
    assert (passed, failed) == (1, 0)  # F6
    assert message.endswith(
        "listed in skillstudio.yaml and profile: claude-code, so `skillstudio test` "
        "and CI read it as the app does"
    )
    config = (folder / "skillstudio.yaml").read_text()
    assert "\nprofile: claude-code\n" in config
    run = cli("test", cwd=folder)
    assert run.code == 0, run.out
    assert "against . (claude-code; " in run.out and "1 passed, 0 failed" in run.out
    lint = cli("lint", cwd=folder)
    assert lint.code == 0, lint.out


def test_a_file_naming_another_profile_is_left_and_the_message_says_so(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = plain_folder(tmp_path / "notes")
    own = "profile: agentskills  # the team's choice\n"
    (folder / "skillstudio.yaml").write_text(own)
    accept_listing(monkeypatch)
    window = open_window(qtbot, settings, folder)
    choose_profile(window, qtbot, "claude-code")
    message, _passed, _failed = add_case_and_run(window, qtbot)
    assert "its profile: agentskills differs from the app's choice (claude-code)" in message
    assert (
        folder / "skillstudio.yaml"
    ).read_text() == own + "suites:\n  - suites/claude-code.yaml\n"


def test_the_status_bar_follows_the_profile_the_file_names(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """On main a profile remembered for the folder overrode its skillstudio.yaml: the
    app read it as one profile, `skillstudio test` as another."""
    folder = plain_folder(tmp_path / "notes")
    (folder / "skillstudio.yaml").write_text("profile: claude-code\n")
    AppSettings(settings).set_folder_profile(str(folder), "codex")
    window = open_window(qtbot, settings, folder)
    project = window.context.projects[0]
    assert project.profile.name == "claude-code"
    box = window.project_profiles.profile_box
    assert box.currentText() == "Profile: auto → claude-code"
    assert "set by its skillstudio.yaml" in window.project_profiles.project_label.text()


def test_settings_writing_the_rules_records_the_profile_too(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """Settings › Advice rules is the other place the app writes skillstudio.yaml."""
    from ...dialogs.test_settings_dialog import set_rules

    folder = plain_folder(tmp_path / "notes")
    window = open_window(qtbot, settings, folder)
    choose_profile(window, qtbot, "claude-code")
    window.dialogs.ask_create_config = lambda question: True  # type: ignore[method-assign]
    set_rules(window, {"duplicate-name": "off"})
    messages: list[str] = []
    window.statusBar().messageChanged.connect(messages.append)
    with qtbot.waitSignal(window.project_profiles.switched, timeout=20_000):
        window.menu_actions.settings_action.trigger()
    config = (folder / "skillstudio.yaml").read_text()
    assert "duplicate-name: 'off'" in config and "\nprofile: claude-code\n" in config
    message = next(m for m in messages if m.startswith("Settings saved"))
    assert message.startswith("Settings saved; advice rules written to skillstudio.yaml")
    assert "and profile: claude-code" in message
    lint = cli("lint", "--format", "json", cwd=folder)
    assert lint.json["profile"] == "claude-code", lint.out
