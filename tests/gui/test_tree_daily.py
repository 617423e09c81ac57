"""Issue 30, the skills tree on a first day: the filter finds descriptions and says
when nothing matches (not "Reading the folder, or…"), no root called "root", plugins
A to Z, a skill's asset folder one closed row, the filter following the current tab,
one click opening a skill."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

from skillstudio.gui.models.skill_tree_model import KIND_ROLE, PATH_ROLE
from skillstudio.gui.window.main_window import MainWindow

from ..helpers import skill_text, write


def opened(qtbot: QtBot, settings: QSettings, folder: Path) -> MainWindow:
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.resize(1200, 780)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(folder))
    return win


def shown_skills(window: MainWindow) -> list[str]:
    model = window.tree_model
    return [
        model.index(r, 0, model.index(t, 0)).data(PATH_ROLE)
        for t in range(model.rowCount())
        for r in range(model.rowCount(model.index(t, 0)))
    ]


def filtered(window: MainWindow, qtbot: QtBot, text: str) -> None:
    window.filter_box.setText(text)
    qtbot.waitUntil(lambda: window.tree_model.filter_text == text.lower(), timeout=3000)


def test_filter_finds_descriptions_and_says_when_nothing_matches(
    window: MainWindow, qtbot: QtBot
) -> None:
    skill = next(s for r in window.registries for s in r.skills if "sql" in s.path)
    word = next(
        w.strip(".,;:()").lower()
        for w in skill.description.split()
        if len(w) > 5 and w.lower() not in skill.path.lower()
    )
    filtered(window, qtbot, word)
    assert skill.path in shown_skills(window), word
    filtered(window, qtbot, "zzqx-none")
    assert window.tree_model.rowCount() == 0
    text = window.tree.empty_text()
    assert text.startswith("No skill matches 'zzqx-none'"), text
    assert "Reading" not in text


def test_while_reading_the_tree_says_so(qtbot: QtBot, settings: QSettings, samples: Path) -> None:
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    win.open_path(str(samples))
    assert win.scanning and win.tree.empty_text() == "Reading the folder…"
    qtbot.waitUntil(lambda: not win.scanning, timeout=10_000)
    win.filter_box.setText("zzqx-none")
    qtbot.waitUntil(lambda: win.tree_model.rowCount() == 0, timeout=3000)
    assert win.tree.empty_text().startswith("No skill matches"), "read: not 'Reading'"


def test_a_plain_folder_root_is_named_after_the_folder(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    folder = tmp_path / "team-pdf"
    for name in ("pdf-filler", "pdf-reader"):
        write(folder, f"{name}/SKILL.md", skill_text(name=name, description=f"Use {name}."))
    win = opened(qtbot, settings, folder)
    labels = [win.tree_model.index(r, 0).data() for r in range(win.tree_model.rowCount())]
    assert labels and "root" not in labels[0].split(" · ")[0], labels
    assert labels[0].startswith("team-pdf"), labels


def test_plugins_are_listed_a_to_z(qtbot: QtBot, settings: QSettings, samples: Path) -> None:
    project = samples / "claude-code"
    shutil.copytree(project / "plugins" / "review-kit", project / "plugins" / "zeta-kit")
    manifest = project / "plugins" / "zeta-kit" / ".claude-plugin" / "plugin.json"
    manifest.write_text(json.dumps({"name": "zeta-kit", "description": "Z."}))
    market = project / ".claude-plugin" / "marketplace.json"
    data = json.loads(market.read_text())
    data["plugins"].append({"name": "zeta-kit", "source": "./plugins/zeta-kit"})
    market.write_text(json.dumps(data))
    win = opened(qtbot, settings, project)
    labels = [win.tree_model.index(r, 0).data() for r in range(win.tree_model.rowCount())]
    plugins = [label for label in labels if label.startswith("plugin:")]
    assert len(plugins) == 2, labels
    assert plugins == sorted(plugins), labels


def test_an_asset_folder_is_one_closed_row(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    folder = tmp_path / "skills"
    write(folder, "canvas/SKILL.md", skill_text(name="canvas", description="Draw posters."))
    for number in range(30):
        write(folder, f"canvas/fonts/Font-{number:02}-Regular.ttf", "x")
    write(folder, "canvas/LICENSE.txt", "x")
    win = opened(qtbot, settings, folder)
    model = win.tree_model
    root = model.index(0, 0)
    skill = model.index(0, 0, root)
    win.tree.expand(skill)
    qtbot.waitUntil(lambda: model.rowCount(skill) > 0, timeout=3000)
    rows = [
        (model.index(r, 0, skill).data(), model.index(r, 0, skill).data(KIND_ROLE))
        for r in range(model.rowCount(skill))
    ]
    assert rows == [("fonts/", "folder"), ("LICENSE.txt", "file")], rows
    fonts = model.index(0, 0, skill)
    assert not win.tree.isExpanded(fonts)
    assert model.rowCount(fonts) == 30
    assert model.index(0, 0, fonts).data() == "Font-00-Regular.ttf"


def test_one_click_opens_and_the_filter_follows_the_current_tab(
    window: MainWindow, qtbot: QtBot
) -> None:
    model = window.tree_model
    root = model.index(0, 0)
    row = model.index(0, 0, root)
    window.tree.scrollTo(row)
    centre = window.tree.visualRect(row).center()
    qtbot.mouseClick(window.tree.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    path = row.data(PATH_ROLE)
    assert window.document_tabs.current_path() == path, "one click opened it"
    name = os.path.basename(os.path.dirname(path))
    filtered(window, qtbot, name[:4])
    assert window.tree.currentIndex().data(PATH_ROLE) == path
