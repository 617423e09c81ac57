"""Tests of gui/infra/icons.py (The one module that names icons: the app's own (package
data: the app icon and the status icons, drawn for the light or the dark palette) and
Qt's standard set)."""

from __future__ import annotations

from collections import Counter

from PySide6.QtGui import QColor, QIcon, QImage, QPalette
from PySide6.QtWidgets import (
    QApplication,
)

from skillstudio.gui.infra import theme
from skillstudio.gui.infra.icons import (
    ICON_SIZES,
    STATUS,
    app_icon,
    icon,
    status_icon,
)
from skillstudio.gui.window.main_window import MainWindow

from ..parts import contrast


def main_colour(image: QImage) -> QColor:
    opaque = Counter(
        image.pixelColor(x, y).rgb()
        for x in range(image.width())
        for y in range(image.height())
        if image.pixelColor(x, y).alpha() > 220
    )
    return QColor.fromRgb(opaque.most_common(1)[0][0])


def test_the_window_carries_the_app_icon_at_every_size(window: MainWindow) -> None:
    sizes = sorted(s.width() for s in window.windowIcon().availableSizes())
    assert sizes == sorted(ICON_SIZES)
    image = app_icon().pixmap(16, 16).toImage()
    corner, middle = image.pixelColor(0, 0), image.pixelColor(8, 8)
    assert corner.alpha() < 128 and middle.alpha() == 255, "rounded corners, opaque middle"


def test_status_icons_read_on_both_palettes_and_on_the_selection(qapp: QApplication) -> None:
    """Each icon's main colour has 3:1 against the view and the window of its palette
    (on main the light warning had 2.3:1); on a selected row an accent keeps its colour
    (on main the style's tint dulled it)."""
    light = qapp.style().standardPalette()
    for is_dark, palette in ((False, light), (True, theme.dark_palette())):
        for name in STATUS:
            icon = status_icon(name, is_dark)
            colour = main_colour(icon.pixmap(32).toImage())
            for role in (QPalette.ColorRole.Base, QPalette.ColorRole.Window):
                assert contrast(colour, palette.color(role)) >= 3, (name, is_dark, role)
        error = status_icon("error", is_dark)
        selected = error.pixmap(32, QIcon.Mode.Selected).toImage()
        assert main_colour(selected) == main_colour(error.pixmap(32).toImage())


def test_status_icons_are_ours_and_drawn_for_the_palette(qapp: QApplication) -> None:
    for name in STATUS:
        light, dark = status_icon(name, False), status_icon(name, True)
        assert not light.isNull()
        assert light.pixmap(16).toImage() != dark.pixmap(16).toImage()
    assert icon("shadowed").cacheKey() == status_icon("shadowed", theme.is_dark()).cacheKey()
