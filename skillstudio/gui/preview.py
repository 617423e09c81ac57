"""Preview: the body rendered with markdown-it-py in a QTextBrowser; nothing remote."""

from __future__ import annotations

import html
import os
import re
from typing import Any

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QDesktopServices, QTextDocument
from PySide6.QtWidgets import QTextBrowser, QWidget

from .theme import colour, is_dark

_ALIGN = re.compile(r' style="text-align:(left|right|center)"')


HIGHLIGHT_MAX = 20_000  # longer code blocks are shown without colours


def highlight_code(code: str, lang: str, _attrs: object = None) -> str:
    """Inline-styled spans for a fenced block in a language Pygments knows, else ''.

    Pygments is used because a lexer per language is not code we should write; its
    HTML with inline styles is what QTextBrowser renders (it has no CSS classes).
    """
    if not lang or len(code) > HIGHLIGHT_MAX:
        return ""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        lexer = get_lexer_by_name(lang.split()[0].lower())
    except ClassNotFound:
        return ""
    style = "monokai" if is_dark() else "default"
    formatter = HtmlFormatter(nowrap=True, noclasses=True, style=style)
    return str(highlight(code, lexer, formatter))


def render_markdown(body: str) -> str:
    """HTML for QTextBrowser (tables, code, task lists as ☐/☑, footnotes)."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.footnote import footnote_plugin
    from mdit_py_plugins.tasklists import tasklists_plugin

    md = (
        MarkdownIt("commonmark", {"html": False, "highlight": highlight_code})
        .enable("table")
        .enable("strikethrough")
    )
    md.use(footnote_plugin).use(tasklists_plugin)
    out = md.render(body)
    # QTextBrowser drops cell borders for style="text-align:…"; it reads align="…".
    out = _ALIGN.sub(r' align="\1"', out)
    out = re.sub(r'<input class="task-list-item-checkbox" checked="checked"[^>]*>', "☑", out)
    out = re.sub(r'<input class="task-list-item-checkbox"[^>]*>', "☐", out)
    return (
        "<style>table{border-collapse:collapse} "
        f"td,th{{border:1px solid {colour('table_border')};padding:3px}} "
        f"pre{{background:{colour('code_bg')};padding:6px}}</style>" + out
    )


class Preview(QTextBrowser):
    """Links to files inside the skill folder are announced (the app opens them);
    web links open in the system browser; images load only from the skill folder.

    Signals:
        file_link_clicked(str): an absolute path inside the skill folder.
    """

    file_link_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._folder = ""
        self._base = ""
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._on_anchor_clicked)

    def show_body(self, body: str, folder: str, base: str | None = None) -> None:
        """Render `body`; links resolve against `base` (default: the skill folder) and
        must stay inside the skill `folder`."""
        self._folder = os.path.abspath(folder)
        self._base = os.path.abspath(base or folder)
        self.document().setBaseUrl(QUrl.fromLocalFile(self._base + os.sep))
        self.setHtml(render_markdown(body))

    def _inside(self, url: QUrl) -> str | None:
        if url.scheme() not in ("", "file"):
            return None
        path = os.path.normpath(url.toLocalFile() or os.path.join(self._base, url.path()))
        if path == self._folder or path.startswith(self._folder + os.sep):
            return path
        return None

    def loadResource(self, kind: int, name: QUrl | str) -> Any:
        url = name if isinstance(name, QUrl) else QUrl(name)
        if kind == QTextDocument.ResourceType.ImageResource.value and self._inside(url) is None:
            return None  # remote or outside the skill folder: never fetched
        if url.scheme() in ("http", "https", "ftp"):
            return None
        return super().loadResource(kind, name)

    def _on_anchor_clicked(self, url: QUrl) -> None:
        if not url.scheme() and not url.path() and url.hasFragment():
            self.scrollToAnchor(url.fragment())  # a footnote or a heading on this page
            return
        if url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)
            return
        path = self._inside(url)
        if path is not None:
            self.file_link_clicked.emit(path)
        else:
            self.setToolTip(
                html.escape(f"Not opened: {url.toString()} is outside the skill folder")
            )
