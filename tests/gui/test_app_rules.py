"""Issue 30's advice rules in the app: Settings edits the project's skillstudio.yaml
`rules:` (never silently created), Problems applies them to the cross-skill findings
too, and `skillstudio lint` reads the same file, so both agree."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QComboBox
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.config_writer import with_rules
from skillstudio.gui.dialogs.settings_dialog import SettingsDialog, cell_text
from skillstudio.gui.window.main_window import MainWindow
from tests.helpers import lint_json, write

SKILL = "---\nname: pdf\ndescription: Fills PDF forms. Use when asked to fill a PDF form.\n---\n"


def project(tmp_path: Path) -> Path:
    """Two skills named alike: each has its own `name-dir-mismatch` error and a
    cross-skill `duplicate-name` warning."""
    base = tmp_path / "proj"
    write(base, "skills/a/SKILL.md", SKILL)
    write(base, "skills/b/SKILL.md", SKILL)
    return base


def opened(qtbot: QtBot, settings: QSettings, folder: Path) -> MainWindow:
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.resize(1200, 780)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(folder))
    return win


def set_rules(win: MainWindow, rules: dict[str, str]) -> None:
    def ask(dialog: SettingsDialog) -> bool:
        table = dialog.rules_table
        for row in range(table.rowCount()):
            box = table.cellWidget(row, 1)
            assert isinstance(box, QComboBox)
            box.setCurrentText(rules.get(cell_text(table, row, 0), "default"))
        return True

    win.dialogs.ask_settings = ask  # type: ignore[method-assign,assignment]


def shown(win: MainWindow) -> list[tuple[str, str]]:
    return sorted((d.code, d.severity) for d in win.problems_model.shown())


def lint_codes(folder: Path) -> list[tuple[str, str]]:
    data = lint_json(str(folder))
    return sorted((d["code"], d["severity"]) for d in data["diagnostics"])


def test_a_rule_set_in_settings_changes_problems_and_lint_alike(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    folder = project(tmp_path)
    win = opened(qtbot, settings, folder)
    before = shown(win)
    assert ("duplicate-name", "warning") in before and ("name-dir-mismatch", "error") in before
    asked: list[str] = []

    def ask_create(question: str) -> bool:
        asked.append(question)
        return True

    win.dialogs.ask_create_config = ask_create  # type: ignore[method-assign]
    set_rules(win, {"duplicate-name": "off", "name-dir-mismatch": "warning"})
    with qtbot.waitSignal(win.project_profiles.switched, timeout=10_000):
        win.menu_actions.settings_action.trigger()
    assert len(asked) == 1 and "skillstudio.yaml" in asked[0], "asked before creating it"
    config = (folder / "skillstudio.yaml").read_text()
    assert "duplicate-name: 'off'" in config and "name-dir-mismatch: warning" in config
    after = shown(win)
    assert not [c for c in after if c[0] == "duplicate-name"], "the cross-skill rows went"
    assert ("name-dir-mismatch", "warning") in after
    assert not [c for c in after if c[1] == "error"]
    assert lint_codes(folder) == after, "skillstudio lint reads the same rules"
    # and back: 'default' everywhere takes `rules:` out again
    set_rules(win, {})
    with qtbot.waitSignal(win.project_profiles.switched, timeout=10_000):
        win.menu_actions.settings_action.trigger()
    assert "rules" not in (folder / "skillstudio.yaml").read_text().replace("# rules:", "")
    assert shown(win) == before == lint_codes(folder)


def test_no_skillstudio_yaml_is_created_without_asking(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    folder = project(tmp_path)
    win = opened(qtbot, settings, folder)
    win.dialogs.ask_create_config = lambda question: False  # type: ignore[method-assign]
    set_rules(win, {"duplicate-name": "off"})
    win.menu_actions.settings_action.trigger()
    assert not (folder / "skillstudio.yaml").exists()
    assert "not created" in win.statusBar().currentMessage()
    assert ("duplicate-name", "warning") in shown(win)


def test_settings_rewrites_only_the_rules_it_changes() -> None:
    text = (
        "profile: claude-code   # ours\r\n"
        "rules:\r\n"
        "  not-a-code: off\r\n"
        "  duplicate-name: info  # quiet\r\n"
        "  name-format: error\r\n"
        "scan:\r\n"
        "  max_depth: 4\r\n"
    )
    new = with_rules(text, {"duplicate-name": "off", "link-broken": "warning"})
    assert new == (
        "profile: claude-code   # ours\r\n"
        "rules:\r\n"
        "  not-a-code: off\r\n"
        "  duplicate-name: 'off'  # quiet\r\n"
        "  link-broken: warning\r\n"
        "scan:\r\n"
        "  max_depth: 4\r\n"
    ), "the unknown entry is the user's; name-format went back to default"
    assert with_rules(new, {"duplicate-name": "off", "link-broken": "warning"}) == new
