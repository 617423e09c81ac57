"""Tests of gui/dialogs/help_window.py (Help › User Guide: the documentation in docs/
read in the app (the guide first; its links to the other pages and its pictures
followed inside the window), with a contents list beside it: the user's pages, and the
headings of the page shown. The developers' pages (the code's layout, the test
commands, the measurements) and sections (adding a profile) are not the user's: they
are left out here)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QImage, QTextDocument
from PySide6.QtWidgets import QTreeWidgetItem
from pytestqt.qtbot import QtBot

from skillstudio.gui.dialogs.help_window import GUIDE, HelpWindow, docs_folder
from skillstudio.gui.window.main_window import MainWindow

from ...helpers import REPO


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


def test_the_guide_has_margins_a_contents_list_and_no_developer_pages(qtbot: QtBot) -> None:
    """Issue 30 review: the text touched the window's edges, there was no contents
    list, and the README's set-up commands, the code's layout (development.md) and
    module paths were shown to users."""
    folder = docs_folder()
    assert folder is not None
    guide = HelpWindow(folder)
    qtbot.addWidget(guide)
    guide.resize(900, 600)
    guide.show()
    assert guide.browser.document().documentMargin() >= 16
    contents = guide.contents

    def top(number: int) -> QTreeWidgetItem:
        item = contents.topLevelItem(number)
        assert item is not None
        return item

    def under(item: QTreeWidgetItem, number: int) -> QTreeWidgetItem:
        child = item.child(number)
        assert child is not None
        return child

    pages = [top(n).text(0) for n in range(contents.topLevelItemCount())]
    assert pages[0] == "User guide" and "Command line" in pages and len(pages) >= 5, pages
    first = top(0)
    sections = [under(first, n).text(0) for n in range(first.childCount())]
    assert "The app" in sections and "In your editor" in sections, sections
    text = guide.browser.toPlainText()
    assert "core/" not in text and ".py" not in text, "no module paths in the user guide"
    last = under(first, sections.index("In your editor"))
    contents.itemClicked.emit(last, 0)
    assert guide.browser.verticalScrollBar().value() > 0, "a heading clicked is scrolled to"
    assert not guide.show_page("development.md") and not guide.show_page("performance.md")
    profiles = top(pages.index("Profiles"))
    contents.itemClicked.emit(profiles, 0)
    assert guide.browser.source().toLocalFile().endswith("profiles.md")
    text = guide.browser.toPlainText()
    assert "Adding a skill system" not in text and "compare_skills_ref" not in text
    assert "(`core/" not in text and "core/reading/inventory.py" not in text
    assert guide.show_page("../README.md")
    text = guide.browser.toPlainText()
    assert "scripts/dev.sh" not in text and "development.md" not in text
    assert "A short tour" in text


def test_a_page_is_read_only_from_docs_as_a_bounded_regular_file(
    qtbot: QtBot, tmp_path: object
) -> None:
    """The guide's own Markdown loader reads a page only inside docs/ (or the README
    beside it) and only a regular file: a FIFO there would have blocked the app."""
    from pathlib import Path

    from PySide6.QtGui import QTextDocument

    from skillstudio.gui.dialogs.help_window import GuideBrowser

    base = Path(str(tmp_path))
    docs = base / "docs"
    docs.mkdir()
    (docs / "page.md").write_text("# A page\n\nWords.\n", encoding="utf-8")
    (base / "README.md").write_text("# Readme\n", encoding="utf-8")
    (base / "secret.md").write_text("# Not a page\n", encoding="utf-8")
    os.mkfifo(docs / "pipe.md")
    browser = GuideBrowser(str(docs))
    qtbot.addWidget(browser)
    kind = QTextDocument.ResourceType.MarkdownResource.value

    def load(path: Path) -> object:
        return browser.loadResource(kind, QUrl.fromLocalFile(str(path)))

    assert "A page" in str(load(docs / "page.md"))
    assert "Readme" in str(load(base / "README.md"))
    assert load(base / "secret.md") == ""
    assert load(docs / "pipe.md") == ""  # returns at once: not a regular file


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


def test_ctrl_f_finds_words_in_the_page_next_previous_and_highlighted(qtbot: QtBot) -> None:
    """The guide had no search: Ctrl+F opens a find bar; every match is highlighted,
    Enter / Shift+Enter go to the next / previous one (wrapping round), the count says
    where; another page is searched for the same words; Esc closes the bar."""
    folder = docs_folder()
    assert folder is not None
    guide = HelpWindow(folder)
    qtbot.addWidget(guide)
    guide.show()
    qtbot.waitExposed(guide)
    guide.activateWindow()
    qtbot.waitUntil(guide.isActiveWindow)
    bar = guide.find_bar
    assert not bar.isVisible()
    guide.browser.setFocus()
    qtbot.keyClick(guide.browser, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(bar.isVisible)
    assert bar.query.hasFocus()
    qtbot.keyClicks(bar.query, "crash RECOVERY")  # case ignored
    page = guide.browser.toPlainText().lower()
    total = page.count("crash recovery")
    assert total >= 2 and len(bar.matches) == total
    assert len(guide.browser.extraSelections()) == total  # every match highlighted
    first = bar.current
    assert bar.count.text() == f"{first + 1} of {total}"
    assert guide.browser.textCursor().selectedText().lower() == "crash recovery"
    qtbot.keyClick(bar.query, Qt.Key.Key_Return)
    assert bar.current == (first + 1) % total
    assert guide.browser.textCursor().position() == bar.matches[bar.current].position()
    qtbot.keyClick(bar.query, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert bar.current == first
    for _ in range(total):
        bar.next_button.click()
    assert bar.current == first  # round the page and back
    qtbot.keyClicks(bar.query, "zzqx")
    assert bar.count.text() == "not found" and not guide.browser.extraSelections()
    bar.query.setText("profile")
    assert guide.show_page("profiles.md")
    assert len(bar.matches) == guide.browser.toPlainText().lower().count("profile") > 0
    qtbot.keyClick(bar.query, Qt.Key.Key_Escape)
    assert not bar.isVisible() and not guide.browser.extraSelections()


def test_the_guide_takes_a_new_theme_at_once(
    qtbot: QtBot, switch_theme: Callable[[str], None]
) -> None:
    """Its links kept the light theme's blue on the dark window: a page takes its links'
    colour (and its status icons) when it is laid out."""
    folder = docs_folder()
    assert folder is not None
    guide = HelpWindow(folder)
    qtbot.addWidget(guide)

    def link_colours() -> set[str]:
        found: set[str] = set()
        block = guide.browser.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                style = it.fragment().charFormat()
                if style.isAnchor() and style.anchorHref():
                    found.add(style.foreground().color().name())
                it += 1
            block = block.next()
        return found

    light = link_colours()
    assert light and "#7fb2f0" not in light
    where = guide.browser.verticalScrollBar()
    where.setValue(where.maximum() // 2)
    at = where.value()
    switch_theme("dark")
    assert link_colours() == {"#7fb2f0"}  # the dark palette's link colour
    assert guide.browser.verticalScrollBar().value() == at  # where the reader was
