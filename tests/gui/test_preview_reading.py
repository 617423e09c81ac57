"""The preview reads like a page (issue 18, item 13): margins, a readable line length,
the palette's colours; it still renders on the worker thread."""

from __future__ import annotations

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from skillstudio.gui.editor.preview import MARGIN, READABLE_CHARS, Preview, preview_css

LONG = "word " * 400


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
