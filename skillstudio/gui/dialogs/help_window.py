"""Help › User Guide: the documentation in docs/ read in the app (the guide first; its
links to the other pages and its pictures followed inside the window), with a
contents list beside it: the user's pages, and the headings of the page shown; Ctrl+F
finds words in the page (guide_find.py). The
developers' pages (the code's layout, the test commands, the measurements) and
sections (adding a profile) are not the user's: they are left out here."""

from __future__ import annotations

import os
import re
from typing import Any

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import (
    QAction,
    QDesktopServices,
    QImage,
    QKeySequence,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QDialog,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.reading.safefs import read_bytes
from ..infra.icons import STATUS, status_icon
from ..infra.theme import is_dark, on_theme_change
from .guide_find import GuideFind

GUIDE = "guide.md"
README = "README.md"  # the project's front page, beside docs/ in a source tree
_STATUS_ICON = re.compile(r"(?:^|/)data/icons/status-([a-z]+)\.svg$")
# The user's pages, in the contents list's order ("" is the README beside docs/).
PAGES = (
    (GUIDE, "User guide"),
    ("commands.md", "Command line"),
    ("profiles.md", "Profiles"),
    ("agents.md", "Other agents"),
    ("live.md", "Live model checks"),
    ("lsp.md", "In your editor"),
    ("", "About SkillStudio"),
)
DEVELOPER_PAGES = ("development.md", "performance.md")
DEVELOPER_SECTIONS = ("Adding a skill system", "Conformance with skills-ref")  # heading starts
DEV_SETUP = "scripts/dev.sh"
MARGIN = 24  # px round the page's text (it touched the window's edges)
# "(`core/reading/inventory.py`)": where in the code, a note for developers
_CODE_NOTE = re.compile(r" ?\([^()]*`(?:skillstudio/)?(?:core|gui|tests|scripts)/[^`]*`[^()]*\)")
_DEV_NOTE = re.compile(
    r" ?\([^()\[]*\[[^\]]*\]\([^)]*(?:" + "|".join(DEVELOPER_PAGES) + r")[^)]*\)[^()]*\)"
)
_DEV_LINK = re.compile(r"\[([^\]]*)\]\([^)]*(?:" + "|".join(DEVELOPER_PAGES) + r")[^)]*\)")


def _without_setup(text: str) -> str:
    """The README's set-up commands for developers (a code block running
    scripts/dev.sh) and the paragraph that explains them, left out."""
    blocks = re.split(r"(\n```[^\n]*\n.*?\n```[ \t]*\n)", text, flags=re.S)
    kept: list[str] = []
    after = False  # the text right after a dropped block: its first paragraph goes
    for block in blocks:
        if block.startswith("\n```") and DEV_SETUP in block:
            after = True
            kept.append("\n")
            continue
        if after:
            block = re.sub(r"^\s*\S.*?(?:\n[ \t]*\n|$)", "", block, count=1, flags=re.S)
            after = False
        kept.append(block)
    return "".join(kept)


def for_users(text: str) -> str:
    """A page's markdown without what only developers need: the sections named in
    DEVELOPER_SECTIONS, the README's set-up commands, table rows pointing at a
    developers' page, links to one (their words kept) and notes in brackets of where
    something is in the code."""
    kept: list[str] = []
    skipping = 0  # the level of the heading being left out (0: none)
    fence = False
    for line in _without_setup(text).split("\n"):
        if line.lstrip().startswith("```"):
            fence = not fence
        heading = re.match(r"(#{1,6}) +(.*?) *$", line) if not fence else None
        if heading:
            level = len(heading.group(1))
            if skipping and level > skipping:
                continue
            skipping = level if heading.group(2).startswith(DEVELOPER_SECTIONS) else 0
        if skipping:
            continue
        if line.lstrip().startswith("|") and _DEV_LINK.search(line):
            continue
        line = _DEV_NOTE.sub("", line)  # "(see [docs/performance.md](…))" goes whole
        kept.append(_CODE_NOTE.sub("", _DEV_LINK.sub(r"\1", line)))
    return "\n".join(kept)


class GuideBrowser(QTextBrowser):
    """A text browser whose pictures come only from the documentation folder, and
    whose status icons (templates with #ACCENT colours, unreadable as they are) are
    drawn for the palette as the tree draws them."""

    def __init__(self, folder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.folder = os.path.realpath(folder)

    def loadResource(self, kind: int, name: QUrl | str) -> Any:
        url = QUrl(name) if isinstance(name, str) else name
        if kind == QTextDocument.ResourceType.MarkdownResource.value and url.isLocalFile():
            # a page of docs/ or the README beside it, a regular file, at most 2 MB
            real = os.path.realpath(url.toLocalFile())
            readme = os.path.join(os.path.dirname(self.folder), "README.md")
            if os.path.dirname(real) != self.folder and real != readme:
                return ""
            try:
                page = read_bytes(real, None, 2_000_000, truncate=True)
            except OSError:
                return ""
            return for_users(page.decode("utf-8", "replace"))
        if kind != QTextDocument.ResourceType.ImageResource.value:
            return super().loadResource(kind, name)
        path = url.toLocalFile() if url.isLocalFile() else url.path()
        icon = _STATUS_ICON.search(path.replace(os.sep, "/"))
        if icon and icon.group(1) in STATUS:
            return status_icon(icon.group(1), is_dark()).pixmap(16).toImage()
        base = os.path.dirname(self.source().toLocalFile()) or self.folder
        real = os.path.realpath(os.path.join(base, path))
        if os.path.dirname(real) == self.folder and os.path.isfile(real):
            image = QImage(real)  # a picture of docs/ (screenshots), no wider than the page
            room = self.viewport().width() - 2 * MARGIN - 80  # inside the margins and indent
            if room > 200 and image.width() > room:
                image = image.scaledToWidth(room, Qt.TransformationMode.SmoothTransformation)
            return image
        return QImage()  # nothing outside the documentation is read


def docs_folder() -> str | None:
    """docs/ beside the package in a source tree, else the copy the wheel and the frozen
    bundle carry as skillstudio/docs; None when neither is there."""
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for candidate in (
        os.path.join(os.path.dirname(package), "docs"),
        os.path.join(package, "docs"),
    ):
        if os.path.isfile(os.path.join(candidate, GUIDE)):
            return candidate
    return None


class HelpWindow(QDialog):
    """The user guide (and the pages it links to) as formatted text. A link to a page
    of the documentation opens here; a web address opens in the desktop's browser;
    nothing is fetched by the window itself."""

    def __init__(self, folder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("SkillStudio — User Guide")
        self.folder = os.path.realpath(folder)
        self.browser = GuideBrowser(self.folder, self)
        self.browser.setOpenLinks(False)
        self.browser.setSearchPaths([self.folder])
        self.browser.anchorClicked.connect(self._on_link)
        self.contents = QTreeWidget(self)
        self.contents.setHeaderLabel("Contents")
        self.contents.itemClicked.connect(self._on_contents_clicked)
        self.contents.itemActivated.connect(self._on_contents_clicked)
        split = QSplitter(self)
        split.addWidget(self.contents)
        split.addWidget(self.browser)
        split.setStretchFactor(1, 1)
        split.setSizes([220, 700])
        self.find_bar = GuideFind(self.browser, self)
        self.browser.sourceChanged.connect(lambda _url: self.find_bar.page_changed())
        on_theme_change(self.browser, self._recolour)
        find = QAction("Find in Page", self)
        find.setShortcut(QKeySequence.StandardKey.Find)
        find.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        find.triggered.connect(lambda _checked=False: self.find_bar.open())
        self.addAction(find)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(split, 1)
        layout.addWidget(self.find_bar)
        self.resize(960, 700)
        self.show_page(GUIDE)

    def _recolour(self) -> None:
        """The page read again for a new theme (its links' colour and the status icons
        are taken when it is laid out), where it was, its matches found again."""
        bar = self.browser.verticalScrollBar()
        where = bar.value()
        self.browser.reload()
        self.find_bar.page_changed()
        bar.setValue(where)

    def _fill_contents(self) -> None:
        """Each page a row; under the page shown, its headings (clicked: scrolled to)."""
        self.contents.clear()
        shown = os.path.realpath(self.browser.source().toLocalFile())
        for name, title in PAGES:
            name = name or f"../{README}"
            path = os.path.realpath(os.path.join(self.folder, name))
            if not os.path.isfile(path):
                continue
            page = QTreeWidgetItem(self.contents, [title])
            page.setData(0, Qt.ItemDataRole.UserRole, name)
            if path != shown:
                continue
            self.contents.setCurrentItem(page)
            parents = {1: page}
            block = self.browser.document().begin()
            while block.isValid():
                level = block.blockFormat().headingLevel()
                if 2 <= level <= 3 and block.text().strip():
                    parent = parents.get(level - 1, page)
                    row = QTreeWidgetItem(parent, [block.text().strip()])
                    row.setData(0, Qt.ItemDataRole.UserRole + 1, block.blockNumber())
                    parents[level] = row
                block = block.next()
            page.setExpanded(True)
            for number in range(page.childCount()):
                child = page.child(number)
                if child is not None:
                    child.setExpanded(True)

    def _on_contents_clicked(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        number = item.data(0, Qt.ItemDataRole.UserRole + 1)
        if isinstance(number, int):
            self.scroll_to_block(number)
            return
        name = item.data(0, Qt.ItemDataRole.UserRole)
        if isinstance(name, str):
            self.show_page(name)

    def scroll_to_block(self, number: int) -> None:
        """The page scrolled so its block `number` (a heading) is at the top."""
        document = self.browser.document()
        block = document.findBlockByNumber(number)
        if not block.isValid():
            return
        self.browser.setTextCursor(QTextCursor(block))
        top = document.documentLayout().blockBoundingRect(block).top()
        self.browser.verticalScrollBar().setValue(int(top))

    def show_page(self, name: str, fragment: str = "") -> bool:
        """Show a page of the documentation folder, or the README beside it (False when
        it is neither)."""
        path = os.path.realpath(os.path.join(self.folder, name))
        readme = os.path.join(os.path.dirname(self.folder), README)
        inside = os.path.dirname(path) == self.folder and path.endswith(".md")
        if not inside and path != readme:
            return False
        if not os.path.isfile(path) or os.path.basename(path) in DEVELOPER_PAGES:
            return False  # a developers' page is read in the source tree, not here
        url = QUrl.fromLocalFile(path)
        if fragment:
            url.setFragment(fragment)
        self.browser.setSource(url, QTextDocument.ResourceType.MarkdownResource)
        self.browser.document().setDocumentMargin(MARGIN)
        self._fill_contents()
        return True

    def _on_link(self, url: QUrl) -> None:
        if url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)
            return
        if url.isRelative() or url.isLocalFile():
            target = url.toLocalFile() if url.isLocalFile() else url.path()
            base = os.path.dirname(self.browser.source().toLocalFile())
            name = os.path.relpath(os.path.normpath(os.path.join(base, target)), self.folder)
            if not url.path() and url.fragment():  # an anchor on this page
                self.browser.scrollToAnchor(url.fragment())
                return
            self.show_page(name, url.fragment())
