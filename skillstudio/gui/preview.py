"""Preview: the body rendered with markdown-it-py in a QTextBrowser; nothing remote.

Rendering (markdown-it, Pygments) runs on a worker thread; the newest request of
each preview wins and older results are dropped. What reaches QTextBrowser is
bounded (its layout of a large table costs seconds on the GUI thread): past the
limits the preview shows a note and the text as plain text.
"""

from __future__ import annotations

import html
import os
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QImage, QPalette, QResizeEvent, QTextDocument
from PySide6.QtWidgets import QApplication, QTextBrowser, QWidget

from ..core.model.paths import is_inside
from ..core.model.text import counted
from ..core.reading.safefs import FileMissing, confine
from .images import ImageRefused, load_image
from .theme import colour, is_dark

_ALIGN = re.compile(r' style="text-align:(left|right|center)"')
_CELL = re.compile(r"<t[dh][ >]")
_IMG = re.compile(r'<img src="([^"]*)"')

HIGHLIGHT_MAX = 8_000  # per code block: longer blocks are shown without colours
HIGHLIGHT_TOTAL = 30_000  # characters coloured per render; the rest plain
HIGHLIGHT_BUDGET_S = 0.5  # time spent colouring per render; the rest plain
BODY_MAX = 300_000  # longer bodies are not rendered at all
CELLS_MAX = 1_000  # table cells QTextBrowser lays out in well under 0.2 s
HTML_MAX = 400_000  # characters of HTML handed to QTextBrowser
FALLBACK_MAX = 50_000  # characters of plain text shown past the limits


IMAGES_MAX = 100  # images decoded per render; later ones are shown blank
MARGIN = 18  # px round the text
READABLE_CHARS = 90  # the longest line, in average characters


def _blocked_image() -> QImage:
    """A small empty image shown in place of one that is not loaded."""
    image = QImage(16, 16, QImage.Format.Format_ARGB32)
    image.fill(0)
    return image


@dataclass
class _Budget:
    """What is left of the colouring allowance of one render."""

    chars: int = HIGHLIGHT_TOTAL
    deadline: float = field(default_factory=lambda: time.perf_counter() + HIGHLIGHT_BUDGET_S)


class _OverBudget(Exception):
    pass


def highlight_code(code: str, lang: str, budget: _Budget | None = None, dark: bool = False) -> str:
    """Inline-styled spans for a fenced block in a language Pygments knows, else ''
    (markdown-it then shows the block as escaped text).

    Pygments is used because a lexer per language is not code we should write; its
    HTML with inline styles is what QTextBrowser renders (it has no CSS classes).
    Some lexers are quadratic on hostile text: a block is coloured only while the
    render's budget of characters and time lasts, checked token by token.
    """
    budget = budget or _Budget()
    if not lang or len(code) > HIGHLIGHT_MAX or len(code) > budget.chars:
        return ""
    from pygments import format as pygments_format
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        lexer = get_lexer_by_name(lang.split()[0].lower())
    except ClassNotFound:
        return ""
    budget.chars -= len(code)

    def tokens() -> Iterator[tuple[Any, str]]:
        for token in lexer.get_tokens(code):
            if time.perf_counter() > budget.deadline:
                raise _OverBudget
            yield token

    formatter = HtmlFormatter(nowrap=True, noclasses=True, style="monokai" if dark else "default")
    try:
        return str(pygments_format(tokens(), formatter))
    except _OverBudget:
        budget.chars = 0  # out of time: every later block is plain too
        return ""


def render_markdown(body: str, dark: bool | None = None, css: str | None = None) -> str:
    """HTML for QTextBrowser (tables, code, task lists as ☐/☑, footnotes), or a note
    and the plain text when the result would be too large to lay out quickly.

    Safe on any thread when `dark` and `css` are given (the palette is read only
    when they are not).
    """
    dark = is_dark() if dark is None else dark
    css = preview_css() if css is None else css
    if len(body) > BODY_MAX:
        return _fallback(body, counted(len(body), "character"), css)
    from markdown_it import MarkdownIt
    from mdit_py_plugins.footnote import footnote_plugin
    from mdit_py_plugins.tasklists import tasklists_plugin

    budget = _Budget()
    md = (
        MarkdownIt(
            "commonmark",
            {"html": False, "highlight": lambda c, lang, _a: highlight_code(c, lang, budget, dark)},
        )
        .enable("table")
        .enable("strikethrough")
    )
    md.use(footnote_plugin).use(tasklists_plugin)
    out = md.render(body)
    cells = len(_CELL.findall(out))
    if cells > CELLS_MAX:
        return _fallback(body, f"{cells:,} table cells (the limit is {CELLS_MAX:,})", css)
    if len(out) > HTML_MAX:
        return _fallback(body, counted(len(out), "character") + " of HTML", css)
    # QTextBrowser drops cell borders for style="text-align:…"; it reads align="…".
    out = _ALIGN.sub(r' align="\1"', out)
    out = re.sub(r'<input class="task-list-item-checkbox" checked="checked"[^>]*>', "☑", out)
    out = re.sub(r'<input class="task-list-item-checkbox"[^>]*>', "☐", out)
    return css + out


def preview_css() -> str:
    """The preview's style sheet for the palette in use (read on the GUI thread):
    text in the palette's colours, airy lines, code and tables on the palette's tints."""
    palette = QApplication.palette()
    text = palette.color(QPalette.ColorRole.Text).name()
    link = palette.color(QPalette.ColorRole.Link).name()
    muted, code = colour("muted"), colour("code_bg")
    return (
        f"<style>body{{color:{text}}} p,li{{line-height:140%}} "
        f"a{{color:{link}}} h1,h2,h3,h4{{color:{text};margin-top:14px}} "
        f"blockquote{{color:{muted}}} code{{background:{code}}} "
        "table{border-collapse:collapse} "
        f"td,th{{border:1px solid {colour('table_border')};padding:4px}} "
        f"pre{{background:{code};padding:8px}}</style>"
    )


FALLBACK_NOTE = "Too large to preview formatted"


def _fallback(body: str, why: str, css: str) -> str:
    """A note saying why, then the text (its start, when long) as plain text."""
    shown = body[:FALLBACK_MAX]
    more = len(body) - len(shown)
    tail = f"\n… {counted(more, 'more character')}: see the Source view." if more else ""
    return (
        f"{css}<p><b>{FALLBACK_NOTE}:</b> {html.escape(why)}. "
        "Shown as plain text; edit it in the Source view.</p>"
        f"<pre>{html.escape(shown + tail)}</pre>"
    )


class _Renderer(QObject):
    """One worker thread for every preview. Each preview has one pending request:
    a newer one replaces it, so a burst of edits costs one render, not one per edit.
    The worker also reads and decodes the images the HTML shows (gui/images.py:
    confined, bounded, SVG without outside references): the GUI thread only looks
    them up, so a FIFO, /dev/stdin or a costly picture can never hold it.

    Signals:
        rendered(object, int, str, object): preview key, request number, HTML and
            its images (local path -> QImage) (GUI thread).
    """

    rendered = Signal(object, int, str, object)

    def __init__(self) -> None:
        super().__init__()
        self._wake = threading.Condition()
        self._pending: dict[int, tuple[int, str, bool, str, str, str]] = {}
        self._thread: threading.Thread | None = None

    def request(
        self, key: int, number: int, body: str, dark: bool, css: str, folder: str, base: str
    ) -> None:
        with self._wake:
            self._pending[key] = (number, body, dark, css, folder, base)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, daemon=True)
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._pending:
                    self._wake.wait()
                key, (number, body, dark, css, folder, base) = self._pending.popitem()
            images: dict[str, QImage] = {}
            try:
                out = render_markdown(body, dark, css)
                images = load_images(out, folder, base)
            except Exception as exc:  # a library bug on odd text must not end the worker
                out = _fallback(body, f"the renderer failed: {type(exc).__name__}: {exc}", css)
            self.rendered.emit(key, number, out, images)


def image_path(url: QUrl, folder: str) -> str | None:
    """The local file an image URL (resolved against the page) names, when it lies
    inside the skill folder as written; None for remote or outside ones."""
    if url.scheme() not in ("", "file") or not url.isLocalFile():
        return None
    path = os.path.normpath(url.toLocalFile())
    return path if is_inside(path, folder) else None


def load_images(out: str, folder: str, base: str) -> dict[str, QImage]:
    """The images of the rendered HTML `out`, by local path: at most IMAGES_MAX, each
    read confined to `folder` and decoded bounded (an image not shown is left out:
    the preview shows it blank)."""
    page = QUrl.fromLocalFile(base + os.sep)
    images: dict[str, QImage] = {}
    for src in dict.fromkeys(html.unescape(m.group(1)) for m in _IMG.finditer(out)):
        if len(images) >= IMAGES_MAX:
            break
        path = image_path(page.resolved(QUrl(src)), folder)
        if path is None or path in images:
            continue
        try:
            images[path] = load_image(path, folder)
        except (OSError, ImageRefused):
            continue
    return images


_renderer: _Renderer | None = None


def _the_renderer() -> _Renderer:
    global _renderer
    if _renderer is None:
        _renderer = _Renderer()
    return _renderer


_requests = 0  # numbers every render request of the process


class Preview(QTextBrowser):
    """Links to files inside the skill folder are announced (the app opens them);
    web links open in the system browser; images load only from the skill folder.

    Signals:
        file_link_clicked(str): an absolute path inside the skill folder.
        rendered(): the newest body asked for is shown.
    """

    file_link_clicked = Signal(str)
    rendered = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._folder = ""
        self._base = ""
        self._wanted = 0  # the number of the newest request; other results are stale
        self._images: dict[str, QImage] = {}  # the shown page's images, by local path
        self.setOpenLinks(False)
        # Margins round the text and a readable line length: lines wrap at about
        # READABLE_CHARS characters however wide the window (narrower when it is).
        self.document().setDocumentMargin(MARGIN)
        self.setLineWrapMode(QTextBrowser.LineWrapMode.FixedPixelWidth)
        self._fit_lines()
        self.anchorClicked.connect(self._on_anchor_clicked)
        _the_renderer().rendered.connect(self._on_rendered)

    def show_body(self, body: str, folder: str, base: str | None = None) -> None:
        """Render `body`; links resolve against `base` (default: the skill folder) and
        must stay inside the skill `folder`."""
        self._folder = os.path.abspath(folder)
        self._base = os.path.abspath(base or folder)
        self.document().setBaseUrl(QUrl.fromLocalFile(self._base + os.sep))
        global _requests
        _requests += 1
        self._wanted = _requests
        if self.document().isEmpty():
            self.setHtml("<p><i>Rendering…</i></p>")
        _the_renderer().request(
            id(self), self._wanted, body, is_dark(), preview_css(), self._folder, self._base
        )

    def line_width(self) -> int:
        """The width lines wrap at: READABLE_CHARS characters, or the view if narrower."""
        readable = self.fontMetrics().averageCharWidth() * READABLE_CHARS + 2 * MARGIN
        return max(min(self.viewport().width(), readable), 4 * MARGIN)

    def _fit_lines(self) -> None:
        width = self.line_width()
        if self.lineWrapColumnOrWidth() != width:
            self.setLineWrapColumnOrWidth(width)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_lines()

    @property
    def pending(self) -> bool:
        """A render was asked for and has not been shown yet."""
        return self._wanted != 0

    def _on_rendered(self, key: object, number: int, out: str, images: object) -> None:
        if key != id(self) or number != self._wanted:
            return  # another preview's, or older than the text now on screen
        self._wanted = 0
        self._images = images if isinstance(images, dict) else {}
        self.setHtml(out)
        self.rendered.emit()

    def _inside(self, url: QUrl) -> str | None:
        """The path a local link names when it lies inside the skill folder, written
        and resolved (a link inside that leads out is not inside), else None."""
        if url.scheme() not in ("", "file"):
            return None
        path = os.path.normpath(url.toLocalFile() or os.path.join(self._base, url.path()))
        if not is_inside(path, self._folder):
            return None
        try:
            confine(path, self._folder)
        except FileMissing:
            return path  # (opening it says it is missing)
        except OSError:
            return None
        return path

    def loadResource(self, kind: int, name: QUrl | str) -> Any:
        url = name if isinstance(name, QUrl) else QUrl(name)
        if kind == QTextDocument.ResourceType.ImageResource.value:
            # Never None for an image (Qt would then load the file itself) and never a
            # read here: the worker decoded the page's images (load_images).
            url = self.document().baseUrl().resolved(url)
            path = image_path(url, self._folder)
            image = self._images.get(path) if path is not None else None
            return image if image is not None else _blocked_image()
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
