"""Tests of gui/dialogs/settings_dialog.py (Edit › Settings: appearance and budgets,
model endpoints (keys in the system keyring), and the advice rules of the current
project, kept in its skillstudio.yaml `rules:` (so `skillstudio lint` and the language
server read the same). Changes apply on OK (`edit_settings`: the dialog asked, and the
theme applied at once))."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit
from pytestqt.qtbot import QtBot

from skillstudio.core.live.endpoints import KEYRING_SERVICE as LIVE_KEYRING_SERVICE
from skillstudio.core.live.endpoints import api_key, endpoint_for
from skillstudio.core.projects.config_writer import with_rules
from skillstudio.gui.dialogs.settings_dialog import SettingsDialog, cell_text
from skillstudio.gui.infra.settings_store import (
    AppSettings,
    Endpoint,
    old_keyring_entry,
    read_key,
)
from skillstudio.gui.infra.theme import is_dark, set_preference
from skillstudio.gui.window.main_window import MainWindow
from tests.helpers import lint_json, write

from ...live_fake import FakeModel
from ..parts import WINDOW_SIZE, open_window

SKILL = "---\nname: pdf\ndescription: Fills PDF forms. Use when asked to fill a PDF form.\n---\n"


def project(tmp_path: Path) -> Path:
    """Two skills named alike: each has its own `name-dir-mismatch` error and a
    cross-skill `duplicate-name` warning."""
    base = tmp_path / "proj"
    write(base, "skills/a/SKILL.md", SKILL)
    write(base, "skills/b/SKILL.md", SKILL)
    return base


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


class MemoryKeyring(KeyringBackend):
    priority = 1

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.store.pop((service, username), None)


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    before = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(before)


def answer_settings(window: MainWindow, change: object) -> None:
    """Edit › Settings answered: `change(dialog)` then OK."""

    def ask(dialog: SettingsDialog) -> bool:
        change(dialog)  # type: ignore[operator]
        return True

    window.dialogs.ask_settings = ask  # type: ignore[method-assign,assignment]


def test_a_rule_set_in_settings_changes_problems_and_lint_alike(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    folder = project(tmp_path)
    win = open_window(qtbot, settings, folder, size=WINDOW_SIZE)
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
    win = open_window(qtbot, settings, folder, size=WINDOW_SIZE)
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


# -- Settings ---------------------------------------------------------------------------
def test_settings_has_ctrl_comma_and_switches_the_theme_live(
    window: MainWindow, qapp: QApplication
) -> None:
    """Dark was only reachable through SKILLSTUDIO_THEME before the app started."""
    action = window.menu_actions.settings_action
    assert QKeySequence("Ctrl+,") in action.shortcuts()
    assert action.text().replace("&", "") == "Settings…"
    assert not is_dark()
    answer_settings(window, lambda d: d.theme_box.setCurrentIndex(d.theme_box.findData("dark")))
    try:
        action.trigger()
        assert is_dark(), "applied at once, no restart"
        button = window.problems.current_only  # its style sheet names palette colours
        image = button.grab().toImage()
        assert image.pixelColor(image.width() // 2, 3).lightness() < 128, "redrawn dark"
        assert AppSettings(window.settings).theme() == "dark"
        answer_settings(
            window, lambda d: d.theme_box.setCurrentIndex(d.theme_box.findData("light"))
        )
        action.trigger()
        assert not is_dark()
    finally:
        set_preference(qapp, "system")


def test_default_profile_and_context_window_are_kept(window: MainWindow) -> None:
    """(The advice rules are the project's skillstudio.yaml's: the first tests here.)"""

    def change(dialog: SettingsDialog) -> None:
        dialog.profile_box.setCurrentIndex(dialog.profile_box.findData("codex"))
        dialog.context_box.setValue(400_000)

    answer_settings(window, change)
    window.menu_actions.settings_action.trigger()
    store = AppSettings(window.settings)
    assert store.default_profile() == "codex"
    assert store.context_tokens() == 400_000
    assert window.query_panel.option_defaults == {"context_tokens": 400_000}


def test_endpoint_keys_go_to_the_keyring_never_the_settings_file(
    window: MainWindow, memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    def change(dialog: SettingsDialog) -> None:
        row = dialog.add_endpoint(Endpoint("https://api.example.test", "openai", "m-1"), False)
        key = dialog.endpoint_table.cellWidget(row, 3)
        assert isinstance(key, QLineEdit) and key.echoMode() == QLineEdit.EchoMode.Password
        key.setText("sk-secret-123")

    answer_settings(window, change)
    window.menu_actions.settings_action.trigger()
    window.settings.sync()
    store = AppSettings(window.settings)
    assert store.endpoints() == [Endpoint("https://api.example.test", "openai", "m-1")]
    assert list(memory_keyring.store.values()) == ["sk-secret-123"]
    # the entry the live checks read: the key typed here is the key Ask a model sends
    assert next(iter(memory_keyring.store)) == (LIVE_KEYRING_SERVICE, "api.example.test")
    assert api_key(endpoint_for("https://api.example.test", "openai"), {}) == "sk-secret-123"
    assert "sk-secret-123" not in Path(window.settings.fileName()).read_text()


def test_a_key_under_the_old_entry_moves_to_the_live_entry_once(
    settings: QSettings, memory_keyring: MemoryKeyring, qtbot: QtBot
) -> None:
    """Earlier versions kept a key typed in Settings under (KEYRING_SERVICE, "kind url"),
    which nothing read; opening Settings moves it to the entry eval reads, once."""
    remote = Endpoint("https://api.example.test", "openai", "m-1")
    local = Endpoint("http://127.0.0.1:11434/v1", "openai", "llama")
    memory_keyring.store[old_keyring_entry(remote)] = "sk-old-1"
    memory_keyring.store[old_keyring_entry(local)] = "local-key"
    live = (LIVE_KEYRING_SERVICE, "api.example.test")
    AppSettings(settings).set_endpoints([remote, local])
    assert api_key(endpoint_for("https://api.example.test", "openai"), {}) is None  # before
    dialog = SettingsDialog(AppSettings(settings), "")
    qtbot.addWidget(dialog)
    assert memory_keyring.store == {live: "sk-old-1", old_keyring_entry(local): "local-key"}
    assert api_key(endpoint_for("https://api.example.test", "openai"), {}) == "sk-old-1"
    # a local server's key stays where it is (no live entry for it); a second read
    # finds the new entry and leaves the store as it is
    assert read_key(local) == "local-key" and read_key(remote) == "sk-old-1"
    assert memory_keyring.store == {live: "sk-old-1", old_keyring_entry(local): "local-key"}


def test_a_key_under_the_live_entry_wins_over_an_old_one(memory_keyring: MemoryKeyring) -> None:
    remote = Endpoint("https://api.example.test", "openai", "m-1")
    live = (LIVE_KEYRING_SERVICE, "api.example.test")
    memory_keyring.store[old_keyring_entry(remote)] = "sk-old"
    memory_keyring.store[live] = "sk-new"
    assert read_key(remote) == "sk-new"
    assert memory_keyring.store == {live: "sk-new", old_keyring_entry(remote): "sk-old"}


# -- Models: the table of context windows the command line reads too ---------------------
def model_rows(dialog: SettingsDialog) -> dict[str, tuple[str, bool]]:
    """name -> (window as shown, editable)."""
    table = dialog.models_table
    rows = {}
    for number in range(table.rowCount()):
        item = table.item(number, 0)
        assert item is not None
        editable = bool(item.flags() & Qt.ItemFlag.ItemIsEditable)
        rows[item.text()] = (cell_text(table, number, 1), editable)
    return rows


def test_models_builtin_read_only_user_rows_added_edited_removed_and_saved(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillstudio.core.projects.model_windows import load_models

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    write(
        tmp_path / "config", "skillstudio/models.yaml", "models:\n  old-local: 4096\n  gone: 10\n"
    )
    dialog = SettingsDialog(AppSettings(settings), "")
    qtbot.addWidget(dialog)
    rows = model_rows(dialog)
    assert rows["claude-opus-4-6"] == ("1,000,000", False)  # built in: read-only
    assert rows["gpt-5.2-codex"] == ("272,000", False)
    assert rows["old-local"] == ("4,096", True) and rows["gone"] == ("10", True)
    table = dialog.models_table
    # Remove does nothing on a built-in row, removes a user's row
    builtin = next(n for n in range(table.rowCount()) if cell_text(table, n, 0) == "gpt-5.2")
    table.setCurrentCell(builtin, 0)
    dialog.remove_model_button.click()
    assert "gpt-5.2" in model_rows(dialog)
    gone = next(n for n in range(table.rowCount()) if cell_text(table, n, 0) == "gone")
    table.setCurrentCell(gone, 0)
    dialog.remove_model_button.click()
    assert "gone" not in model_rows(dialog)
    # edit one, add one (replacing a built-in row of the same name)
    old = next(n for n in range(table.rowCount()) if cell_text(table, n, 0) == "old-local")
    table.item(old, 1).setText("8,192")  # type: ignore[union-attr]
    number = dialog.add_model("", 0, "")
    table.item(number, 0).setText("claude-opus-4-6")  # type: ignore[union-attr]
    table.item(number, 1).setText("200000")  # type: ignore[union-attr]
    assert dialog.apply() == ""
    saved = load_models()  # what `skillstudio --model` reads
    assert [(r.name, r.context_tokens) for r in saved.user] == [
        ("old-local", 8192),
        ("claude-opus-4-6", 200_000),
    ]
    assert saved.get("claude-opus-4-6").context_tokens == 200_000  # type: ignore[union-attr]


def test_a_bad_model_row_is_not_saved_and_says_why(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    dialog = SettingsDialog(AppSettings(settings), "")
    qtbot.addWidget(dialog)
    number = dialog.add_model("", 0, "")
    dialog.models_table.item(number, 0).setText("mine")  # type: ignore[union-attr]
    dialog.models_table.item(number, 1).setText("lots")  # type: ignore[union-attr]
    message = dialog.apply()
    assert message.startswith("Models not saved: 'mine'") and "whole number" in message
    assert not (tmp_path / "config" / "skillstudio" / "models.yaml").exists()


def test_the_default_model_fills_the_context_window(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    store = AppSettings(settings)
    dialog = SettingsDialog(store, "")
    qtbot.addWidget(dialog)
    box = dialog.model_box
    number = box.findData("gemini-2.5-pro")
    box.setCurrentIndex(number)
    box.activated.emit(number)
    assert dialog.context_box.value() == 1_048_576
    dialog.apply()
    assert store.default_model() == "gemini-2.5-pro" and store.context_tokens() == 1_048_576
    again = SettingsDialog(store, "")
    qtbot.addWidget(again)
    assert again.model_box.currentData() == "gemini-2.5-pro"


# -- Model endpoints › Test connection (issue 37) ----------------------------------------
def test_test_connection_says_what_answered_or_why_not(qtbot: QtBot, settings: QSettings) -> None:
    dialog = SettingsDialog(AppSettings(settings), "")
    qtbot.addWidget(dialog)
    message = dialog.endpoint_message
    qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    assert message.text() == "Add an endpoint to test."
    served = {"model": "served-7b", "choices": [{"message": {"content": "pong"}}]}
    with FakeModel([("raw", json.dumps(served).encode())]) as fake:
        dialog.add_endpoint(Endpoint("https://elsewhere.test/v1", "openai", "x"), False)
        row = dialog.add_endpoint(Endpoint(fake.url, "openai", "m-7b"), False)
        dialog.endpoint_table.setCurrentCell(row, 0)
        qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
        assert not dialog.test_button.isEnabled()  # the request is off the GUI thread
        qtbot.waitUntil(dialog.test_button.isEnabled, timeout=10_000)
        sent = json.loads(fake.received[0][2])
    assert len(fake.received) == 1 and sent["model"] == "m-7b"
    assert message.text().startswith("Connection OK: served-7b answered in ")
    with FakeModel([("error", 401, "invalid x-api-key")]) as fake:
        dialog.add_endpoint(Endpoint(fake.url, "anthropic", "claude-x"), False)
        dialog.endpoint_table.setCurrentCell(2, 0)
        dialog.test_endpoint()
        qtbot.waitUntil(dialog.test_button.isEnabled, timeout=10_000)
        assert fake.received[0][0].endswith("/messages")
    assert message.text() == "Connection failed: HTTP 401: invalid x-api-key"
    dialog.add_endpoint(Endpoint("ftp://nowhere", "openai", "m"), False)
    dialog.endpoint_table.setCurrentCell(3, 0)
    dialog.test_endpoint()
    assert "neither a base URL" in message.text() and dialog.test_button.isEnabled()


def test_a_gemini_endpoint_is_offered_kept_and_keyed_as_eval_keys_it(
    window: MainWindow, memory_keyring: MemoryKeyring
) -> None:
    """On main the API list held anthropic and openai only, and a saved endpoint of
    another API was dropped when the settings were read back."""
    url = "https://generativelanguage.googleapis.com/v1beta"

    def change(dialog: SettingsDialog) -> None:
        row = dialog.add_endpoint(Endpoint(url, "gemini", "gemini-2.5-flash"), False)
        kind = dialog.endpoint_table.cellWidget(row, 1)
        assert isinstance(kind, QComboBox)
        assert [kind.itemText(i) for i in range(kind.count())] == [
            "anthropic",
            "openai",
            "responses",
            "gemini",
        ]
        key = dialog.endpoint_table.cellWidget(row, 3)
        assert isinstance(key, QLineEdit)
        key.setText("AIza-secret-456")

    answer_settings(window, change)
    window.menu_actions.settings_action.trigger()
    window.settings.sync()
    assert AppSettings(window.settings).endpoints() == [Endpoint(url, "gemini", "gemini-2.5-flash")]
    assert api_key(endpoint_for(url, "gemini"), {}) == "AIza-secret-456"


def test_the_theme_shows_when_chosen_and_cancel_takes_it_back(
    window: MainWindow, qapp: QApplication
) -> None:
    """The guide says at once, but the theme changed on OK only: it shows the moment
    it is chosen in the box, before OK; Cancel puts the saved theme back."""
    seen: list[bool] = []

    def choose_dark_then(answer: bool) -> object:
        def ask(dialog: SettingsDialog) -> bool:
            dialog.theme_box.setCurrentIndex(dialog.theme_box.findData("dark"))
            seen.append(is_dark())  # with the dialog still open
            return answer

        return ask

    try:
        assert not is_dark()
        window.dialogs.ask_settings = choose_dark_then(False)  # type: ignore[method-assign,assignment]
        window.menu_actions.settings_action.trigger()
        assert seen == [True], "dark as soon as chosen"
        assert not is_dark(), "Cancel: the saved theme again"
        assert AppSettings(window.settings).theme() != "dark"
        dialog = SettingsDialog(AppSettings(window.settings), "", window)
        dialog.theme_box.setCurrentIndex(dialog.theme_box.findData("dark"))
        assert is_dark()
        dialog.reject()  # Cancel, Esc or the close button
        assert not is_dark()
        window.dialogs.ask_settings = choose_dark_then(True)  # type: ignore[method-assign,assignment]
        window.menu_actions.settings_action.trigger()
        assert is_dark() and AppSettings(window.settings).theme() == "dark"
    finally:
        set_preference(qapp, "system")
        AppSettings(window.settings).set_theme("system")
