"""Tests of gui/panels/root_label_delegate.py (RootLabelDelegate: a root's row in the
tree keeps the words that tell it apart)."""

from __future__ import annotations

from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
)
from pytestqt.qtbot import QtBot

from skillstudio.gui.models.skill_tree_model import KIND_ROLE
from skillstudio.gui.panels.root_label_delegate import RootLabelDelegate, fitted_root_label
from skillstudio.gui.window.main_window import MainWindow


# -- the tree: a root keeps the words that tell it apart ------------------------------------
def shown_text(window: MainWindow, row: int) -> str:
    tree = window.tree
    index = tree.model().index(row, 0)
    option = QStyleOptionViewItem()
    tree.initViewItemOption(option)
    option.rect = tree.visualRect(index)
    delegate = tree.itemDelegateForIndex(index)
    assert isinstance(delegate, QStyledItemDelegate)
    delegate.initStyleOption(option, index)
    rect = tree.style().subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, tree)
    # what the style draws: the text elided to the text's rectangle, as the row asks
    return tree.fontMetrics().elidedText(option.text, option.textElideMode, rect.width() - 6)


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


def test_tree_roots_keep_their_names_when_cut(window: MainWindow, qtbot: QtBot) -> None:
    """On main the tree elided in the middle, which cut the root's own name out of
    "claude-code · plugin:review-kit · wins over project, commands" ("pl…roject,
    commands"): the three claude-code roots could not be told apart."""
    window.resize(1280, 800)
    qtbot.wait(20)
    model = window.tree.model()
    seen = {}
    for row in range(model.rowCount()):
        label = model.index(row, 0).data()
        project, root = label.split(" · ")[:2]
        text = shown_text(window, row)
        width = window.tree.visualRect(model.index(row, 0)).width()
        assert text.startswith(f"{project} · {root}"), (label, text)
        assert window.tree.fontMetrics().horizontalAdvance(text) <= width
        seen[label] = text
    assert window.tree.empty_text() == ""  # rows: nothing said over them
    cut = [label for label, text in seen.items() if text != label]
    assert any(label.startswith("claude-code · plugin:review-kit") for label in cut)


def test_fitted_root_label_shortens_the_precedence_words_first() -> None:
    def measure(text: str) -> int:
        return 7 * len(text)

    label = "toolsets · project · wins over user, bundled"
    assert fitted_root_label(label, 1000, measure) == label
    short = fitted_root_label(label, 7 * 32, measure)
    assert short.startswith("toolsets · project · wins") and short.endswith("…")
    assert measure(short) <= 7 * 32
    assert fitted_root_label(label, 7 * 22, measure) == "toolsets · project"
    assert fitted_root_label("codex · repository", 10, measure) == "codex · repository"


def test_precedence_words_are_cut_after_a_whole_word() -> None:
    """At 1024x768 the tree showed "claude-code · project · wins over co…"."""

    def measure(text: str) -> int:
        return 7 * len(text)

    label = "claude-code · project · wins over commands"
    short = fitted_root_label(label, 7 * 37, measure)
    assert short == "claude-code · project · wins over…", short
