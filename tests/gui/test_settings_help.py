"""Issue 30, the app's shell: Settings (theme applied live, default and per-folder
profile kept, context window, model endpoints with keys in the keyring, advice rules),
Help (the guide's icons and README link, keyboard shortcuts from the actions, about),
Close Folder, tabs restored, the first window within its screen."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend
from PySide6.QtCore import QRect, QSettings, Qt, QUrl
from PySide6.QtGui import QImage, QKeySequence, QTextDocument
from PySide6.QtWidgets import QApplication, QLineEdit, QPlainTextEdit
from pytestqt.qtbot import QtBot

from skillstudio.gui.dialogs.help_window import HelpWindow, docs_folder
from skillstudio.gui.dialogs.settings_dialog import SettingsDialog, cell_text
from skillstudio.gui.dialogs.shortcuts_window import shortcut_rows
from skillstudio.gui.infra.settings_store import KEYRING_SERVICE, AppSettings, Endpoint
from skillstudio.gui.infra.theme import is_dark, set_preference
from skillstudio.gui.window.geometry import first_geometry
from skillstudio.gui.window.main_window import MainWindow


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


def opened(qtbot: QtBot, settings: QSettings, folder: Path) -> MainWindow:
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.resize(1200, 780)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(folder))
    return win


def answer_settings(window: MainWindow, change: object) -> None:
    """Edit › Settings answered: `change(dialog)` then OK."""

    def ask(dialog: SettingsDialog) -> bool:
        change(dialog)  # type: ignore[operator]
        return True

    window.dialogs.ask_settings = ask  # type: ignore[method-assign,assignment]


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


def test_a_chosen_profile_is_kept_per_folder_across_restarts(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """Item 3: switched to another profile, quit, started again: it was back to
    "(detected)"."""
    win = opened(qtbot, settings, samples)
    number = next(n for n, p in enumerate(win.projects) if p.profile.name == "agentskills")
    base = win.projects[number].base
    with qtbot.waitSignal(win.project_profiles.switched, timeout=10_000):
        assert win.project_profiles.set_project_profile(number, "claude-code")
    win.close()
    again = opened(qtbot, settings, samples)
    project = next(p for p in again.projects if p.base == base)
    assert project.profile.name == "claude-code"
    assert project.profile_reason == "--profile"
    others = [p for p in again.projects if p.base != base]
    assert all(p.profile_reason != "--profile" for p in others), "only that folder"


def test_default_profile_and_context_window_are_kept(window: MainWindow) -> None:
    """(The advice rules are the project's skillstudio.yaml's: tests/gui/test_app_rules.py.)"""

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
    assert next(iter(memory_keyring.store))[0] == KEYRING_SERVICE
    assert "sk-secret-123" not in Path(window.settings.fileName()).read_text()


# -- Help ------------------------------------------------------------------------------
def test_keyboard_shortcuts_are_read_from_the_actions(window: MainWindow) -> None:
    window.menu_actions.shortcuts_action.trigger()
    shown = window.dialogs.shortcuts
    assert shown is not None and shown.isVisible()
    table = [
        tuple(cell_text(shown.table, r, c) for c in range(3)) for r in range(shown.table.rowCount())
    ]
    native = QKeySequence.SequenceFormat.NativeText
    save = window.menu_actions.save_action.shortcut().toString(native)
    assert ("File", "Save", save) in table
    assert any(r[1] == "Try a Request" and "Ctrl+K" in r[2] for r in table)
    window.menu_actions.find_action.setShortcut(QKeySequence("Ctrl+Alt+J"))
    assert any(r[1] == "Find / Replace…" and r[2] == "Ctrl+Alt+J" for r in shortcut_rows(window))


def test_the_guides_icons_render_and_the_readme_link_opens(qtbot: QtBot) -> None:
    folder = docs_folder()
    assert folder is not None
    guide = HelpWindow(folder)
    qtbot.addWidget(guide)
    image = guide.browser.loadResource(
        QTextDocument.ResourceType.ImageResource.value,
        QUrl("../skillstudio/data/icons/status-error.svg"),
    )
    assert isinstance(image, QImage) and not image.isNull()
    colours = {image.pixel(x, y) for x in range(image.width()) for y in range(image.height())}
    assert len(colours) > 3, "drawn, not an empty square"
    outside = guide.browser.loadResource(
        QTextDocument.ResourceType.ImageResource.value, QUrl("../../../etc/hosts.png")
    )
    assert isinstance(outside, QImage) and outside.isNull()
    guide._on_link(QUrl("../README.md"))
    assert guide.browser.source().toLocalFile() == os.path.join(
        os.path.dirname(folder), "README.md"
    )
    guide._on_link(QUrl("docs/guide.md"))  # and back from the README
    assert guide.browser.source().toLocalFile() == os.path.join(folder, "guide.md")


# -- Close Folder, tabs kept ---------------------------------------------------------------
def test_close_folder_shows_the_welcome_page(window: MainWindow) -> None:
    path = next(p for r in window.registries for p in r.by_path)
    window.open_skill(path)
    assert window.menu_actions.close_folder_action.text().replace("&", "") == "Close Folder"
    window.menu_actions.close_folder_action.trigger()
    assert window.base == "" and not window.registries and not window.documents
    assert window.centre.currentWidget() is window.welcome
    assert window.tree_model.rowCount() == 0
    assert "No folder is open" in window.welcome.status.text()


def test_open_tabs_come_back_when_the_folder_is_opened_again(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    win = opened(qtbot, settings, samples)
    paths = sorted(p for r in win.registries for p in r.by_path)[:3]
    for path in paths:
        win.open_skill(path)
    win.open_skill(paths[1])  # the current one
    win.close()
    again = opened(qtbot, settings, samples)
    assert sorted(again.documents) == sorted(paths)
    assert again.document_tabs.current_path() == paths[1]
    again.close_folder()
    with qtbot.waitSignal(again.scan_finished, timeout=10_000):
        again.open_path(str(samples))
    assert sorted(again.documents) == sorted(paths), "Close Folder keeps them too"


# -- the first window and the source view -------------------------------------------------
@pytest.mark.parametrize("screen", [(1366, 768), (1024, 768), (1024, 600), (2560, 1440)])
def test_first_window_fits_the_screen(screen: tuple[int, int]) -> None:
    """Item 11: it was 1200x780 on every screen: taller than a 768-pixel laptop's."""
    available = QRect(0, 0, screen[0], screen[1] - 28)  # a panel takes some
    geometry = first_geometry(available)
    assert available.contains(geometry)
    assert geometry.height() + 40 <= available.height() or geometry.height() == 480
    assert geometry.width() <= available.width() - 40 or geometry.width() == 640
    assert geometry.width() >= min(1024, available.width()) - 60


def test_main_window_opens_within_its_screen(qtbot: QtBot, settings: QSettings) -> None:
    win = MainWindow(settings)
    qtbot.addWidget(win)
    screen = win.screen()
    assert screen is not None
    assert screen.availableGeometry().contains(win.geometry())


def test_source_can_wrap_long_lines(window: MainWindow) -> None:
    path = next(p for r in window.registries for p in r.by_path)
    editor = window.open_skill(path)
    assert editor is not None
    assert editor.source.lineWrapMode() == QPlainTextEdit.LineWrapMode.NoWrap
    window.menu_actions.wrap_action.setChecked(True)
    assert editor.source.lineWrapMode() == QPlainTextEdit.LineWrapMode.WidgetWidth
    assert window.settings.value("wrap_source", False, bool) is True
    window.menu_actions.wrap_action.setChecked(False)


# -- item 17: real agents, then the seed systems, each said what it is ---------------------
def test_profile_box_lists_agents_then_seed_systems_each_with_a_line(window: MainWindow) -> None:
    box = window.profile_box
    names = [box.itemData(n) for n in range(box.count())]
    seeds = ["oasis", "pegasus", "toolsets", "mvp", "workspace"]
    agents = ["agentskills", "claude-code", "codex"]
    assert names[0] == ""  # auto
    last_agent = max(names.index(a) for a in agents)
    first_seed = min(names.index(s) for s in seeds)
    assert last_agent < first_seed, names
    separator = next(n for n in range(box.count()) if box.itemText(n) == "" and n > 0)
    assert last_agent < separator < first_seed, "a line between the two groups"
    tip = box.itemData(names.index("oasis"), Qt.ItemDataRole.ToolTipRole)
    assert "seed/test system" in tip and "not an agent" in tip and "Oasis" in tip
    tip = box.itemData(names.index("codex"), Qt.ItemDataRole.ToolTipRole)
    assert "agent" in tip and "Codex" in tip


def test_the_guides_status_icons_are_in_the_page(qtbot: QtBot) -> None:
    """Qt's markdown reader drops an image without alt text: the legend's icon column
    was empty in Help › User Guide."""
    folder = docs_folder()
    assert folder is not None
    guide = HelpWindow(folder)
    qtbot.addWidget(guide)
    page = guide.browser.toHtml()
    for name in ("error", "warning", "shadowed", "skipped", "disabled", "skill"):
        assert f"status-{name}.svg" in page, name
