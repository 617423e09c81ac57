"""A first-time review at 1024x768 and 1366x768 (issue 30): the bottom panels never
grow wider than their dock, the form's notes coloured by their own severity, the
limit help only about a length, root labels cut only when they do not fit, the view
kept across a profile change, Suites › Open… starting at the suite shown."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QLabel,
    QPlainTextEdit,
    QScrollArea,
    QStyleOptionViewItem,
    QWidget,
)
from pytestqt.qtbot import QtBot

from skillstudio.gui.editor.form_view import MARKS, SeverityNote
from skillstudio.gui.infra.theme import colour, set_preference
from skillstudio.gui.window.main_window import MainWindow

from .test_likely_app import ask
from .test_try_request_trust import opened

HEADLINE = (
    "No skill is likely for this request; the closest, review-kit:security-review, is "
    "only possible (an estimate)."
)


def within_dock(panel: QWidget) -> None:
    """The panel asks for no more width than its dock's area shows, nothing is behind a
    sideways scroll bar, and its right edge is on screen."""
    viewport = panel.parentWidget()
    assert viewport is not None
    area = viewport.parentWidget()
    assert isinstance(area, QScrollArea)
    room = area.viewport().width()
    assert panel.minimumSizeHint().width() <= room, (panel.minimumSizeHint(), room)
    assert area.horizontalScrollBar().maximum() == 0
    assert panel.width() <= room


def test_try_a_request_keeps_to_its_dock_with_a_long_headline(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """At 1024x768 the ranking's long skill names asked 501 px beside the details' 240:
    the panel was 35 px wider than its dock, "Add as test case…" cut off."""
    win = opened(qtbot, settings, samples)
    win.resize(1024, 768)
    win.size_docks()
    panel = win.query_panel
    win.focus_query_panel()
    names = [panel.project_box.itemText(i) for i in range(panel.project_box.count())]
    panel.project_box.setCurrentIndex(names.index("claude-code"))
    ask(panel, qtbot, "review my pull request")
    panel.summary.setText(HEADLINE)
    qtbot.wait(50)
    within_dock(panel)
    viewport = panel.parentWidget()
    assert viewport is not None
    button = panel.add_button
    right = button.mapTo(viewport, button.rect().topRight()).x()
    assert right < viewport.width()  # "Add as test case…" whole
    # A narrower dock: the panel follows (the details give up width).
    win.resizeDocks([win.tree_dock], [win.tree_dock.width() + 60], Qt.Orientation.Horizontal)
    qtbot.wait(50)
    within_dock(panel)


def test_suites_keep_to_their_dock_after_the_theme_changes(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """After Settings › Theme › Dark the suite box asked for its whole name as its
    minimum: "Re-run on cha…", "Failures…" and the Note column were cut at 1024x768."""
    suites = samples / "claude-code" / "suites"
    long_name = suites / "claude-code-regressions-of-the-review-kit-plugin.yaml"
    long_name.write_text((suites / "claude-code.yaml").read_text(encoding="utf-8"))
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    win = opened(qtbot, settings, samples)
    win.resize(1024, 768)
    win.size_docks()
    win.suites_dock.show()
    win.suites_dock.raise_()
    runner = win.suite_runner
    assert runner.open_suite(str(long_name))
    qtbot.waitUntil(lambda: runner.report is not None, timeout=10_000)
    try:
        set_preference(app, "dark")
        qtbot.wait(50)
        within_dock(runner)
        box = runner.suite_box
        assert box.toolTip() == str(long_name)  # the whole path, where the name is cut
    finally:
        set_preference(app, "light")


def _described(win: MainWindow, qtbot: QtBot, path: Path, text: str) -> SeverityNote:
    editor = win.open_skill(str(path))
    assert editor is not None
    item = editor.form.fields["description"]
    box = item.widget
    assert isinstance(box, QPlainTextEdit)
    box.setFocus()
    box.setPlainText(text)
    qtbot.waitUntil(lambda: item.note.isVisible() and "\n" in item.note.text(), timeout=5000)
    return item.note


@pytest.mark.parametrize(
    "rel",
    [
        "agentskills/.agents/skills/sql-review/SKILL.md",
        "codex/.agents/skills/release/changelog/SKILL.md",
    ],
)
def test_each_note_line_has_its_own_severitys_colour(
    window: MainWindow, samples: Path, qtbot: QtBot, rel: str
) -> None:
    """ "Says what … but not when to use it" (an info) was red beside the length error
    (orange under codex, beside its warning)."""
    long_text = "Reviews SQL queries and migrations for correctness and locking risks. " * 17
    note = _described(window, qtbot, samples / rel, long_text)
    severities = dict((line, severity) for severity, line in note.lines)
    assert "info" in severities.values() and set(severities.values()) - {"info"}
    shown = QLabel.text(note)  # the markup: one span a line
    for (severity, line), span in zip(note.lines, shown.split("<br>"), strict=True):
        name, mark = MARKS[severity]
        assert f"color:{colour(name)}" in span and mark in span, (severity, line, span)
    no_when = next(line for line, s in severities.items() if "not when" in line)
    assert severities[no_when] == "info"
    assert colour("key") != colour("error_text") != colour("list_mark")


def test_an_empty_description_is_not_told_about_its_length(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    """Under codex an empty description's note ended "Over 1,024 characters Codex shows
    the first 1,021 and '...'": about a length, of a field with none."""
    editor = window.open_skill(str(samples / "codex/.agents/skills/release/changelog/SKILL.md"))
    assert editor is not None
    item = editor.form.fields["description"]
    box = item.widget
    assert isinstance(box, QPlainTextEdit)
    box.setFocus()
    box.clear()
    qtbot.waitUntil(lambda: item.note.isVisible(), timeout=5000)
    note = item.note.text()
    assert "it is required" in note and "the model chooses skills by it" in note
    assert "1,021" not in note and "characters" not in note


def shown_root_labels(win: MainWindow) -> list[tuple[str, str]]:
    """(label, as drawn) of every root row of the tree."""
    view = win.tree
    model = view.model()
    pairs = []
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        option = QStyleOptionViewItem()
        view.initViewItemOption(option)
        option.rect = view.visualRect(index)
        view.itemDelegate().initStyleOption(option, index)  # type: ignore[attr-defined]
        shown = option.fontMetrics.elidedText(
            option.text, option.textElideMode, option.rect.width()
        )
        pairs.append((str(index.data()), shown))
    return pairs


def test_root_labels_are_whole_where_the_window_has_room(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """At 1366x768 the tree kept its 300 px beside 800 px of welcome page: "claude-code ·
    project · wins over co…". Its first width now fits its roots (leaving 940 px to the rest)."""
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(samples))
    qtbot.wait(50)
    shown = dict(shown_root_labels(win))
    assert shown["claude-code · project · wins over commands"].endswith("commands")
    for label, drawn in shown.items():  # the longest two lose their last words' end
        assert label.startswith(drawn.rstrip("…")) and len(drawn) >= len(label) - 12, drawn
    assert win.tree_dock.width() <= 1366 - 940
    # The user's own width stays: a narrower tree cuts them again, a new scan keeps it.
    win.resizeDocks([win.tree_dock], [250], Qt.Orientation.Horizontal)
    qtbot.wait(20)
    assert any(label != shown for label, shown in shown_root_labels(win))
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(samples))
    assert abs(win.tree_dock.width() - 250) <= 2


def test_a_profile_change_keeps_the_view_the_tab_was_on(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    """Reading the project as another profile reopened its tabs on the Form: the Source
    the user was reading went away under the pointer."""
    path = str(samples / "agentskills/.agents/skills/sql-review/SKILL.md")
    editor = window.open_skill(path)
    assert editor is not None
    names = [editor.views.tabText(n) for n in range(editor.views.count())]
    editor.views.setCurrentIndex(names.index("Source"))
    profiles = window.project_profiles
    number = next(n for n, p in enumerate(window.projects) if path.startswith(p.base + os.sep))
    with qtbot.waitSignal(profiles.switched, timeout=20_000):
        assert profiles.set_project_profile(number, "codex")
    reopened = window.documents[path]
    assert reopened is not editor  # read again, under the new rules
    assert reopened.views.tabText(reopened.views.currentIndex()) == "Source"


def test_suites_open_starts_at_the_suite_shown(
    window: MainWindow, samples: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With codex/suites/codex.yaml shown, Open… started in the first project's folder
    (skills/agentskills)."""
    asked: list[str] = []

    def ask(_parent: object, _title: str, start: str, *_a: object) -> tuple[str, str]:
        asked.append(start)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", ask)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", ask)
    runner = window.suite_runner
    runner.clear()
    runner.open_button.click()  # no suite: the project worked on (or the first)
    assert asked[-1] in {p.base for p in window.projects}
    suite = samples / "codex" / "suites" / "codex.yaml"
    assert runner.open_suite(str(suite))
    runner.open_button.click()
    assert os.path.realpath(asked[-1]) == os.path.realpath(suite.parent)
    runner.new_button.click()
    assert os.path.realpath(os.path.dirname(asked[-1])) == os.path.realpath(suite.parent)
