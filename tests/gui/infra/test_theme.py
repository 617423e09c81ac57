"""Tests of gui/infra/theme.py (Light and dark palettes that follow the system's colour
scheme)."""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from skillstudio.gui.infra.theme import bar_style, colour, is_dark, on_theme_change
from skillstudio.gui.window.main_window import MainWindow

from ..parts import contrast, open_skill


# -- 5. the dark palette: the License border, the status icons -----------------------------------
def test_license_field_has_a_visible_border_in_the_dark_palette(
    window: MainWindow, samples: Path, dark: QApplication
) -> None:
    """On main the line edit's edge was the window colour darkened: #1f1f1f round a
    #1e1e1e box (1.0:1)."""
    editor = open_skill(window, samples, "agentskills/.agents/skills/sql-review/SKILL.md")
    editor.views.setCurrentIndex(0)
    field = editor.form.fields["license"].widget
    assert not field.hasFocus()
    image = field.grab().toImage()
    base = field.palette().color(QPalette.ColorRole.Base)
    window_colour = field.palette().color(QPalette.ColorRole.Window)
    y = image.height() // 2
    edge = max((image.pixelColor(x, y) for x in range(2)), key=lambda c: contrast(c, base))
    assert contrast(edge, base) >= 3 and contrast(edge, window_colour) >= 3


# -- a live theme switch: what was built in the old theme follows at once -------------------------
def test_on_theme_change_rebuilds_once_per_switch_and_never_for_its_own_style_sheet(
    qtbot: QtBot, switch_theme: Callable[[str], None]
) -> None:
    """A rebuild that sets a style sheet changes the widget's palette: that must not
    call it again (a loop), and a switch must call it once, after the palette is new,
    even for a widget whose style sheet sets a colour (Qt sends it no event)."""
    label = QLabel('<a href="x">a link</a> and a bar')
    qtbot.addWidget(label)
    seen: list[bool] = []

    def rebuild() -> None:
        seen.append(is_dark())
        label.setStyleSheet(bar_style("warn"))

    on_theme_change(label, rebuild)
    label.setStyleSheet(bar_style("warn"))  # a palette of its own: no event tells it
    label.show()
    gc.collect()  # nothing but the label keeps the rebuild
    switch_theme("dark")
    assert seen == [True]
    assert colour("warn_bg", dark=True) in label.styleSheet()
    switch_theme("light")
    assert seen == [True, False]
