"""A skill system added by one module, in the app: the toy profile of
tests/test_toy_profile.py (registered at run time, named nowhere in the project) gets
its own form fields, and Try a Request answers by its rules."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from skillstudio.core.ranking.matching import match
from skillstudio.gui.window.main_window import MainWindow

from ..test_toy_profile import toy_project  # noqa: F401 - the fixture, registered here


def test_the_app_reads_edits_and_answers_with_a_profile_it_never_names(
    qtbot: QtBot,
    settings: QSettings,
    toy_project: Path,  # noqa: F811
) -> None:
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(toy_project))
    registry = win.registries[0]
    assert registry.profile.name == "toy"
    assert sorted(registry.active) == ["kite", "yoyo"]

    # the form is built from the toy's own declared fields
    editor = win.open_skill(str(toy_project / "toys" / "kite" / "SKILL.md"))
    assert editor is not None
    assert {"name", "description", "cues"} <= set(editor.form.fields)
    assert editor.form.fields["cues"].widget.isVisibleTo(editor.form)

    # Try a Request: the toy's rules select (a cue scores 10, 10 selects)
    panel = win.query_panel
    win.menu_actions.query_action.trigger()
    request = "let us fly a kite today"
    qtbot.keyClicks(panel.query, request)
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.query == request)
    assert panel.result is not None
    expected = match(registry, request, options=panel.options())
    assert panel.result.selected == expected.selected == ["kite"]
    assert "kite" in panel.summary.text()
