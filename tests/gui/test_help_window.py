"""Help › User Guide opens docs/guide.md in the app; its links to the other pages of
docs/ open there too, and nothing outside docs/ is shown."""

from __future__ import annotations

import os

from PySide6.QtCore import QUrl
from pytestqt.qtbot import QtBot

from skillstudio.gui.help_window import GUIDE, HelpWindow, docs_folder
from skillstudio.gui.main_window import MainWindow

from ..helpers import REPO


def test_help_opens_the_user_guide(window: MainWindow, qtbot: QtBot) -> None:
    folder = docs_folder()
    assert folder == os.path.join(REPO, "docs")
    window.menu_actions.guide_action.trigger()
    guide = window.dialogs.guide
    assert guide is not None and guide.isVisible()
    text = guide.browser.toPlainText()
    assert "Try a Request" in text and "Suites" in text
    assert guide.browser.source().toLocalFile() == os.path.join(folder, GUIDE)
    window.menu_actions.guide_action.trigger()  # once more: the same window, raised
    assert window.dialogs.guide is guide


def test_links_between_pages_open_in_the_window_and_stay_in_docs(qtbot: QtBot) -> None:
    folder = docs_folder()
    assert folder is not None
    guide = HelpWindow(folder)
    qtbot.addWidget(guide)
    guide._on_link(QUrl("commands.md#command-line"))
    assert guide.browser.source().toLocalFile() == os.path.join(folder, "commands.md")
    assert "skillstudio lint" in guide.browser.toPlainText()
    before = guide.browser.source()
    guide._on_link(QUrl("../pyproject.toml"))  # not a page of docs/: not shown
    guide._on_link(QUrl("../../../../etc/passwd"))
    assert guide.browser.source() == before
    assert not guide.show_page("../CHANGELOG.md") and not guide.show_page("../../README.md")
    assert guide.show_page("../README.md"), 'the front page its "Back to the README" links to'
