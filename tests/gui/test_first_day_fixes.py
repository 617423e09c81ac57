"""Issue 30's fresh-reviewer pass: what a first-time user found reading badly, each
checked where it shows (the Overlap Map behind another tab, the tree's filter and
root labels, restored tabs, the description's absence)."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QStyleOptionViewItem, QTabBar, QTreeView
from pytestqt.qtbot import QtBot

from skillstudio.gui.models.skill_tree_model import KIND_ROLE, PATH_ROLE
from skillstudio.gui.panels.root_label_delegate import RootLabelDelegate
from skillstudio.gui.window.main_window import MainWindow


def _front_tab(window: MainWindow, title: str) -> bool:
    """Whether a dock tab bar shows `title` as its current tab."""
    for bar in window.findChildren(QTabBar):
        for index in range(bar.count()):
            if bar.tabText(index) == title:
                return bar.currentIndex() == index
    return False


def test_the_overlap_map_opened_from_view_comes_to_the_front(
    window: MainWindow, qtbot: QtBot
) -> None:
    assert not window.overlap_dock.isVisible()
    window.menu_actions.overlap_action.trigger()  # View › Overlap Map
    qtbot.waitUntil(lambda: window.overlap_map.isVisible())
    assert _front_tab(window, "Overlap Map")
    window.problems_dock.raise_()
    qtbot.waitUntil(lambda: _front_tab(window, "Problems"))
    window.menu_actions.overlap_action.trigger()  # hidden…
    window.menu_actions.overlap_action.trigger()  # …and shown again: in front again
    qtbot.waitUntil(lambda: _front_tab(window, "Overlap Map"))


def test_the_filter_leaves_out_roots_with_no_skill_found(window: MainWindow, qtbot: QtBot) -> None:
    """ "user" is in five roots' labels ("pegasus · user · wins over builtin"…) and
    in the descriptions of four skills in three other roots: the five showed empty."""
    model = window.tree_model
    window.filter_box.setText("user")
    qtbot.waitUntil(lambda: model.filter_text == "user", timeout=3000)
    shown = {
        model.index(r, 0).data(): model.rowCount(model.index(r, 0)) for r in range(model.rowCount())
    }
    assert len(shown) == 3 and all(count > 0 for count in shown.values()), shown


def _emptied_description(window: MainWindow, qtbot: QtBot, path: Path) -> tuple[str, str]:
    editor = window.open_skill(str(path))
    assert editor is not None
    item = editor.form.fields["description"]
    box = item.widget
    assert isinstance(box, QPlainTextEdit)
    box.setFocus()
    box.clear()
    qtbot.waitUntil(lambda: item.note.isVisible())
    return item.note.text(), box.placeholderText()


def test_an_empty_description_says_what_the_agent_does_without_it(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    note, hint = _emptied_description(
        window, qtbot, samples / "claude-code/.claude/skills/commit-message/SKILL.md"
    )
    assert "Claude Code uses the body's first paragraph" in note
    assert hint == "If empty: the body's first paragraph"
    note, hint = _emptied_description(
        window, qtbot, samples / "agentskills/.agents/skills/release-notes/SKILL.md"
    )
    assert "does not load this skill while its description is empty: it is required" in note
    assert "add a line" not in note, "the source's wording, not the form's"
    assert hint == "Required"


def test_a_long_root_label_is_cut_in_the_middle_with_its_path_in_the_tooltip(
    qtbot: QtBot,
) -> None:
    """A repository's root is labelled by its path in it; cut at its end, three roots
    of one repository ("packages/web-frontend/tools/…") could not be told apart."""
    label = "monorepo · packages/web-frontend/tools/generators/.agents/skills"
    model = QStandardItemModel()
    item = QStandardItem(label)
    item.setData("root", KIND_ROLE)
    model.appendRow(item)
    view = QTreeView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.setItemDelegate(RootLabelDelegate(view))
    view.resize(220, 200)
    view.show()
    index = model.index(0, 0)
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.rect = view.visualRect(index)
    view.itemDelegate().initStyleOption(option, index)  # type: ignore[attr-defined]
    shown = option.fontMetrics.elidedText(option.text, option.textElideMode, option.rect.width())
    assert shown != label and shown.startswith("monorepo") and shown.endswith("skills"), shown


def test_a_root_row_tooltip_starts_with_its_full_path(window: MainWindow) -> None:
    model = window.tree_model
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        tip = index.data(Qt.ItemDataRole.ToolTipRole)
        assert tip.split("\n")[0] == index.data(PATH_ROLE) and os.path.isabs(tip.split("\n")[0])


def test_a_bad_name_is_quoted_once_in_problems_and_the_form(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    """ "'name' 'PDF_Tools' must be lowercase" quoted the key and the value alike;
    it reads "The name 'PDF_Tools' must be lowercase" (the form: "Must be …")."""
    editor = window.open_skill(str(samples / "agentskills/.agents/skills/release-notes/SKILL.md"))
    assert editor is not None
    item = editor.form.fields["name"]
    box = item.widget
    assert isinstance(box, QLineEdit)
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, "PDF_Tools")
    qtbot.waitUntil(lambda: item.note.isVisible())
    messages = [d.message for d in editor.document.diagnostics if d.field == "name"]
    assert messages and all("'name' '" not in m for m in messages), messages
    assert any(m.startswith("The name 'PDF_Tools' must") for m in messages), messages
    assert item.note.text().startswith("Must "), item.note.text()


def test_restored_tabs_open_on_the_view_each_was_left_on(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    def opened() -> MainWindow:
        win = MainWindow(settings)
        win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
        qtbot.addWidget(win)
        win.show()
        with qtbot.waitSignal(win.scan_finished, timeout=10_000):
            assert win.open_path(str(samples))
        return win

    def views(win: MainWindow, paths: list[str]) -> list[str]:
        return [
            win.documents[p].views.tabText(win.documents[p].views.currentIndex()) for p in paths
        ]

    win = opened()
    paths = sorted(p for r in win.registries for p in r.by_path)[:4]
    for path, view in zip(paths, ["Form", "Source", "Preview", "Source"], strict=True):
        editor = win.open_skill(path)
        assert editor is not None
        names = [editor.views.tabText(n) for n in range(editor.views.count())]
        editor.views.setCurrentIndex(names.index(view))
    win.open_skill(paths[1])
    win.close()
    again = opened()
    qtbot.waitUntil(lambda: all(p in again.documents for p in paths))
    assert views(again, paths) == ["Form", "Source", "Preview", "Source"]
    again.close()
    settings.remove("open_tab_views")  # kept by an older version: no views noted
    third = opened()
    qtbot.waitUntil(lambda: all(p in third.documents for p in paths))
    assert views(third, paths) == ["Form"] * 4
