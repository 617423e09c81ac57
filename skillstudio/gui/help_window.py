"""Help › User Guide: the documentation in docs/ read in the app (the guide first; its
links to the other pages and its pictures followed inside the window)."""

from __future__ import annotations

import os
import re
from typing import Any

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QImage, QTextDocument
from PySide6.QtWidgets import QDialog, QTextBrowser, QVBoxLayout, QWidget

from .icons import STATUS, dark_palette, status_icon

GUIDE = "guide.md"
README = "README.md"  # the project's front page, beside docs/ in a source tree
_STATUS_ICON = re.compile(r"(?:^|/)data/icons/status-([a-z]+)\.svg$")


class GuideBrowser(QTextBrowser):
    """A text browser whose pictures come only from the documentation folder, and
    whose status icons (templates with #ACCENT colours, unreadable as they are) are
    drawn for the palette as the tree draws them."""

    def __init__(self, folder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.folder = folder

    def loadResource(self, kind: int, name: QUrl | str) -> Any:
        if kind != QTextDocument.ResourceType.ImageResource.value:
            return super().loadResource(kind, name)
        url = QUrl(name) if isinstance(name, str) else name
        path = url.toLocalFile() if url.isLocalFile() else url.path()
        icon = _STATUS_ICON.search(path.replace(os.sep, "/"))
        if icon and icon.group(1) in STATUS:
            return status_icon(icon.group(1), dark_palette()).pixmap(16).toImage()
        base = os.path.dirname(self.source().toLocalFile()) or self.folder
        real = os.path.realpath(os.path.join(base, path))
        if os.path.dirname(real) == self.folder and os.path.isfile(real):
            image = QImage(real)  # a picture of docs/ (screenshots), no wider than the page
            room = self.viewport().width() - 60
            if room > 200 and image.width() > room:
                image = image.scaledToWidth(room, Qt.TransformationMode.SmoothTransformation)
            return image
        return QImage()  # nothing outside the documentation is read


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
        self.browser = GuideBrowser(self.folder, self)
        self.browser.setOpenLinks(False)
        self.browser.setSearchPaths([self.folder])
        self.browser.anchorClicked.connect(self._on_link)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.browser)
        self.resize(900, 700)
        self.show_page(GUIDE)

    def show_page(self, name: str, fragment: str = "") -> bool:
        """Show a page of the documentation folder, or the README beside it (False when
        it is neither)."""
        path = os.path.realpath(os.path.join(self.folder, name))
        readme = os.path.join(os.path.dirname(self.folder), README)
        inside = os.path.dirname(path) == self.folder and path.endswith(".md")
        if not inside and path != readme:
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
