"""Tests of gui/infra/elided_label.py's ElidedLines: a wrapped label shows the whole
lines its height holds, the words past them replaced by "…" and the whole text in its
tooltip; `text()` stays the whole."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from skillstudio.gui.infra.elided_label import ElidedLines

WHOLE = " ".join(f"word{n}" for n in range(60))


def test_the_lines_that_fit_then_an_ellipsis(qtbot: QtBot) -> None:
    line = ElidedLines()
    qtbot.addWidget(line)
    line.setText(WHOLE)
    spacing = line.fontMetrics().lineSpacing()
    line.resize(200, 2 * spacing + 2)
    line.show()
    qtbot.waitExposed(line)
    assert line.text() == WHOLE
    shown = line.shown()
    assert shown.endswith("…") and WHOLE.startswith(shown[:-1]) and len(shown) < len(WHOLE)
    assert shown[:-1].endswith(tuple(f"word{n}" for n in range(60)))  # after a whole word
    assert line.heightForWidth(line.width()) <= line.height()
    assert line.toolTip() == WHOLE
    assert line.minimumSizeHint().height() <= spacing + 1  # one line at least
    assert line.sizeHint().height() > line.height()  # it asks for the whole text's height
    line.resize(200, line.sizeHint().height())  # room for it all: whole, no tooltip
    qtbot.waitUntil(lambda: line.shown() == WHOLE)
    assert line.toolTip() == ""
    line.setText("short")
    assert line.shown() == "short" and line.text() == "short"
