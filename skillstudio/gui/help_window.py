"""Help › User Guide: the documentation in docs/ read in the app (the guide first; its
links to the other pages and its pictures followed inside the window)."""

from __future__ import annotations

import os

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QTextDocument
from PySide6.QtWidgets import QDialog, QTextBrowser, QVBoxLayout, QWidget

GUIDE = "guide.md"


def docs_folder() -> str | None:
    """docs/ beside the package in a source tree, else the copy the wheel and the frozen
    bundle carry as skillstudio/docs; None when neither is there."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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
        self.browser = QTextBrowser(self)
        self.browser.setOpenLinks(False)
        self.browser.setSearchPaths([self.folder])
        self.browser.anchorClicked.connect(self._on_link)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.browser)
        self.resize(900, 700)
        self.show_page(GUIDE)

    def show_page(self, name: str, fragment: str = "") -> bool:
        """Show a page of the documentation folder (False when it is not one)."""
        path = os.path.realpath(os.path.join(self.folder, name))
        if os.path.dirname(path) != self.folder or not path.endswith(".md"):
            return False
        if not os.path.isfile(path):
            return False
        url = QUrl.fromLocalFile(path)
        if fragment:
            url.setFragment(fragment)
        self.browser.setSource(url, QTextDocument.ResourceType.MarkdownResource)
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
