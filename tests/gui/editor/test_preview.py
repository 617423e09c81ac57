"""Tests of gui/editor/preview.py (Preview: the body rendered with markdown-it-py in a
QTextBrowser; nothing remote)."""

from __future__ import annotations

import base64
import errno
import os
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSettings, QUrl
from PySide6.QtGui import QColor, QImage, QPalette, QTextDocument
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from skillstudio.gui.editor.file_view import FileView
from skillstudio.gui.editor.preview import (
    FALLBACK_NOTE,
    MARGIN,
    READABLE_CHARS,
    Preview,
    preview_css,
    render_markdown,
)

from ...hostile import big_table, make_blocks
from ..parts import (
    STALL_MAX_S,
    image_at,
    longest_stall,
    open_window,
    svg,
    write_skill,
)

LONG = "word " * 400


def idle(preview: Preview) -> Callable[[], bool]:
    return lambda: not preview.pending


IMAGE = QTextDocument.ResourceType.ImageResource.value


def png(colour: str, size: int = 8) -> bytes:
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(QColor(colour))
    array = QByteArray()
    buffer = QBuffer(array)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # (the stub says bytes; 6.12 takes str)
    return bytes(array.data())


def colours(image: QImage) -> set[str]:
    return {
        image.pixelColor(x, y).name()
        for x in range(0, image.width(), max(1, image.width() // 8))
        for y in range(0, image.height(), max(1, image.height() // 8))
        if image.pixelColor(x, y).alpha() > 200
    }


class FifoWatch(threading.Thread):
    """Notes whether anything opens `fifo` for reading: a writer's non-blocking open
    succeeds only then (ENXIO otherwise). A reader found is given bytes and an end of
    file, so that a test on main fails instead of hanging."""

    def __init__(self, fifo: Path) -> None:
        super().__init__(daemon=True)
        self.fifo = fifo
        self.opened = False
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                assert exc.errno == errno.ENXIO
                time.sleep(0.005)
                continue
            self.opened = True
            try:
                os.write(fd, b"not an image")
            finally:
                os.close(fd)


def test_preview_renders_safely() -> None:
    html = render_markdown(
        "# Title\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n- [ ] todo\n- [x] done\n\n![x](https://example.com/x.png)"
    )
    assert "<h1>Title</h1>" in html and "☐" in html and "☑" in html
    assert 'align="left"' in html and "text-align" not in html


def test_preview_highlights_code_in_known_languages(qapp: object) -> None:
    html = render_markdown("```python\ndef f():\n    return 1\n```\n\n```made-up\n<x>\n```\n")
    assert '<span style="color' in html and ">def</span>" in html
    assert "&lt;x&gt;" in html  # an unknown language is escaped text, as before
    big = "```python\n" + "x = 1\n" * 5000 + "```\n"
    assert "<span" not in render_markdown(big)  # too long to colour: shown plain


def test_lines_stop_at_a_readable_length_inside_margins(qtbot: QtBot, tmp_path: object) -> None:
    preview = Preview()
    qtbot.addWidget(preview)
    preview.resize(1600, 600)
    preview.show()
    with qtbot.waitSignal(preview.rendered, timeout=5000):
        preview.show_body(LONG, str(tmp_path))
    assert preview.document().documentMargin() >= 12
    readable = preview.fontMetrics().averageCharWidth() * READABLE_CHARS + 2 * MARGIN
    assert preview.viewport().width() > readable
    assert preview.document().textWidth() <= readable  # not the full 1,600 px
    preview.resize(400, 600)  # narrower than a readable line: the view's width
    qtbot.wait(20)
    assert preview.document().textWidth() <= preview.viewport().width()
    assert preview.horizontalScrollBar().maximum() == 0


def test_the_preview_takes_the_palette_colours(qtbot: QtBot) -> None:
    palette = QApplication.palette()
    css = preview_css()
    assert palette.color(QPalette.ColorRole.Text).name() in css
    assert palette.color(QPalette.ColorRole.Link).name() in css


def test_costly_previews_never_stall_the_window(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    root = tmp_path / "skills"
    table = write_skill(root, "big-table", big_table(200_000))
    code = write_skill(root, "make-blocks", make_blocks())
    coloured = write_skill(root, "make-coloured", make_blocks(size=7_800))  # under the block limit
    win = open_window(qtbot, settings, root)
    for path, expected in ((table, FALLBACK_NOTE), (code, "a/a/a/"), (coloured, "a/a/a/")):
        editor = win.open_skill(str(path))
        assert editor is not None
        preview = editor.preview
        qtbot.wait(1000)  # the source view's highlighter has its own first pass
        views = editor.views
        stall = longest_stall(qtbot, partial(views.setCurrentWidget, preview), idle(preview))
        print(f"{path.parent.name}: longest stall {stall * 1000:.0f} ms")
        assert expected in preview.toPlainText()
        assert stall < STALL_MAX_S, f"{path.parent.name}: the window froze for {stall:.2f} s"


def test_the_newest_preview_request_wins(qtbot: QtBot, tmp_path: Path) -> None:
    preview = Preview()
    qtbot.addWidget(preview)
    preview.show_body(big_table(100_000), str(tmp_path))  # slow: still rendering ...
    preview.show_body("# Second\n\nThe newest text.", str(tmp_path))  # ... when this comes
    with qtbot.waitSignal(preview.rendered, timeout=20_000):
        pass
    assert "The newest text." in preview.toPlainText()
    qtbot.wait(2000)  # the first result, if it arrives now, is dropped
    assert "The newest text." in preview.toPlainText() and not preview.pending


def test_svg_images_reach_nothing_outside_their_own_bytes(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """On main QtSvg opened every `<image href>` on the GUI thread: a FIFO beside the
    skill (the window froze until something wrote to it), an image anywhere on disk,
    an image in the skill folder. Now only inline raster data is drawn."""
    outside = tmp_path / "elsewhere" / "red.png"
    outside.parent.mkdir()
    outside.write_bytes(png("#ff0000"))
    inline = "data:image/png;base64," + base64.b64encode(png("#ff0000")).decode()
    files = {
        "fifo.svg": svg(image_at("pipe")),
        "outside.svg": svg(image_at(str(outside))),
        "file-url.svg": svg(image_at(outside.as_uri())),
        "inside.svg": svg(image_at("red.png")),
        "use-file.svg": svg('<use xlink:href="red.svg#x"/>'),
        "css.svg": svg(f"<style>@import url({outside.as_uri()});</style>"),
        "inline.svg": svg(image_at(inline)),
    }
    body = "".join(f"![{name}]({name})\n\n" for name in files)
    skill = write_skill(tmp_path / "skills", "pictures", body)
    folder = skill.parent
    for name, text in files.items():
        (folder / name).write_text(text)
    (folder / "red.png").write_bytes(png("#ff0000"))
    (folder / "red.svg").write_text(svg('<rect id="x" width="40" height="20" fill="#ff0000"/>'))
    os.mkfifo(folder / "pipe")
    watch = FifoWatch(folder / "pipe")
    watch.start()
    try:
        win = open_window(qtbot, settings, tmp_path / "skills")
        editor = win.open_skill(str(skill))
        assert editor is not None
        preview = editor.preview
        editor.views.setCurrentWidget(preview)
        qtbot.waitUntil(lambda: not preview.pending, timeout=20_000)
        qtbot.wait(200)
        assert not watch.opened, "the FIFO was opened"
        drawn = {
            name: colours(preview.loadResource(IMAGE, QUrl.fromLocalFile(str(folder / name))))
            for name in files
        }
    finally:
        watch.stop.set()
        watch.join()
    print(drawn)
    assert drawn["inline.svg"] == {"#0000ff", "#ff0000"}  # inline raster data is drawn
    for name in files:
        if name != "inline.svg":
            assert drawn[name] == {"#0000ff"}, f"{name}: drawn, without what it names"


def test_a_link_that_leads_out_through_a_symbolic_link_is_not_opened(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """On main `[notes](refs/notes.md)`, refs/notes.md a link to a file outside (here a
    stand-in for /etc/passwd), opened that file in a tab when clicked."""
    secret = tmp_path / "private" / "passwd"
    secret.parent.mkdir()
    secret.write_text("root:x:0:0:SECRET-LINE\n")
    skill = write_skill(
        tmp_path / "skills", "notes", "See [notes](refs/notes.md), [ok](refs/ok.md).\n"
    )
    refs = skill.parent / "refs"
    refs.mkdir()
    (refs / "notes.md").symlink_to(secret)
    (refs / "ok.md").write_text("# Fine\n")
    win = open_window(qtbot, settings, tmp_path / "skills")
    editor = win.open_skill(str(skill))
    assert editor is not None
    editor.views.setCurrentWidget(editor.preview)
    qtbot.waitUntil(lambda: "notes" in editor.preview.toPlainText(), timeout=20_000)
    editor.preview.anchorClicked.emit(QUrl("refs/notes.md"))  # the click in the preview
    assert str(refs / "notes.md") not in win.file_views
    assert win.document_tabs.open_file(str(refs / "notes.md")) is None  # a row of the tree, say
    assert "outside" in win.statusBar().currentMessage()
    assert not any(
        "SECRET" in view.viewer.toPlainText()  # type: ignore[attr-defined]
        for view in win.file_views.values()
    )
    view = FileView(str(refs / "notes.md"), str(skill.parent))  # the view reads confined too
    qtbot.addWidget(view)
    qtbot.waitUntil(lambda: not isinstance(view.viewer, Preview) or not view.viewer.pending)
    assert "SECRET" not in view.viewer.toPlainText()  # type: ignore[attr-defined]
    editor.preview.anchorClicked.emit(QUrl("refs/ok.md"))  # one that stays inside opens
    assert str(refs / "ok.md") in win.file_views
