"""Issue 25 item 5 in the app: a marketplace whose one entry holds a NUL or a lone
surrogate opens (it said "Not opened"), the valid plugin beside it is shown, and the
bad entry is one diagnostic."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from skillstudio.gui.window.main_window import MainWindow

from ..test_manifest_strings import make_case


@pytest.mark.parametrize("bad", ["nul", "surrogate"])
def test_the_app_opens_a_marketplace_with_a_bad_source(
    qtbot: QtBot, tmp_path: Path, bad: str
) -> None:
    repo, manifest, _field = make_case(tmp_path, "marketplace", "source", bad)
    window = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(repo))
    names = {skill.name for registry in window.registries for skill in registry.skills}
    assert "good:g" in names
    found = [
        d
        for project in window.projects
        for d in project.diagnostics
        if d.path == manifest and d.code == "field-invalid"
    ]
    assert len(found) == 1
