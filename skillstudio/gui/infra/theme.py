"""Light and dark palettes that follow the system's colour scheme.

Qt reports the desktop's scheme through QStyleHints (GNOME, KDE, Windows,
macOS); the app uses the Fusion style with a palette built for that scheme
and rebuilds it when the desktop switches. Settings › Theme chooses light or dark
instead (set_preference, applied at once); with "As the desktop",
SKILLSTUDIO_THEME=light|dark still forces one (screenshots, desktops that report
nothing).
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPainter, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QProxyStyle,
    QStyle,
    QStyleOption,
    QStyleOptionComplex,
    QWidget,
)

_DARK = (
    (QPalette.ColorRole.Window, "#2b2b2b"),
    (QPalette.ColorRole.WindowText, "#e6e6e6"),
    (QPalette.ColorRole.Base, "#1e1e1e"),
    (QPalette.ColorRole.AlternateBase, "#2f2f2f"),
    (QPalette.ColorRole.ToolTipBase, "#3a3a3a"),
    (QPalette.ColorRole.ToolTipText, "#e6e6e6"),
    (QPalette.ColorRole.PlaceholderText, "#8a8a8a"),
    (QPalette.ColorRole.Text, "#e6e6e6"),
    (QPalette.ColorRole.Button, "#3a3a3a"),
    (QPalette.ColorRole.ButtonText, "#e6e6e6"),
    (QPalette.ColorRole.BrightText, "#ff6b6b"),
    (QPalette.ColorRole.Link, "#7fb2f0"),
    (QPalette.ColorRole.Highlight, "#3d6fb4"),
    (QPalette.ColorRole.HighlightedText, "#ffffff"),
)


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, colour in _DARK:
        palette.setColor(role, QColor(colour))
    for role in (
        QPalette.ColorRole.Text,
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.ButtonText,
    ):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7a7a"))
    return palette


def is_dark(palette: QPalette | None = None) -> bool:
    """Whether the palette in use has light text on a dark window."""
    palette = palette or QGuiApplication.palette()
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


_PREFERENCE = {"theme": "system"}  # Settings › Theme: "system", "light" or "dark"


def wanted_scheme(app: QGuiApplication) -> str:
    chosen = _PREFERENCE["theme"]
    if chosen in ("light", "dark"):
        return chosen
    forced = os.environ.get("SKILLSTUDIO_THEME", "").lower()
    if forced in ("light", "dark"):
        return forced
    return "dark" if app.styleHints().colorScheme() == Qt.ColorScheme.Dark else "light"


# The edge of fields, frames and check boxes in the dark palette: 3:1 against both the
# window and a field's base (WCAG's contrast for the boundary of a control).
DARK_EDGE = "#7a7a7a"
_EDGED = (
    QStyle.PrimitiveElement.PE_FrameLineEdit,
    QStyle.PrimitiveElement.PE_Frame,
    QStyle.PrimitiveElement.PE_IndicatorCheckBox,
)


class ReadableStyle(QProxyStyle):
    """Fusion, with edges that show in the dark palette.

    Fusion draws the edge of a line edit, a frame and a check box in the window colour
    darkened, which on a dark window is the colour of the field itself: the form's
    License box had no visible border, the Suites check boxes were dark squares on a
    dark window. In a dark palette this style draws those edges in DARK_EDGE (a focused
    control keeps Fusion's highlight)."""

    def __init__(self) -> None:
        super().__init__("Fusion")

    def drawPrimitive(
        self,
        element: QStyle.PrimitiveElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        super().drawPrimitive(element, option, painter, widget)
        if element in _EDGED:
            _edge(option, painter)

    def drawComplexControl(
        self,
        control: QStyle.ComplexControl,
        option: QStyleOptionComplex,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        super().drawComplexControl(control, option, painter, widget)
        if control == QStyle.ComplexControl.CC_SpinBox:  # the threshold, the budget
            _edge(option, painter)


def _edge(option: QStyleOption, painter: QPainter) -> None:
    """DARK_EDGE round a control of a dark palette that does not have the focus."""
    if option.state & QStyle.StateFlag.State_HasFocus or not is_dark(option.palette):
        return
    painter.save()
    painter.setPen(QColor(DARK_EDGE))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(option.rect.adjusted(0, 0, -1, -1))
    painter.restore()


def apply_scheme(app: QApplication, scheme: str) -> None:
    """The scheme on the whole app now, on what is already built too.

    A widget that named a colour when it was built (rich text, a style sheet) rebuilds
    it through on_theme_change; what Qt itself bakes in is redone here: the colour of a
    label's links is taken when its text is set (the form's "competes with" links kept
    the old theme's blue until restart), palette(...) in a style sheet when it is set."""
    app.setStyle(ReadableStyle())
    app.setPalette(dark_palette() if scheme == "dark" else app.style().standardPalette())
    for widget in app.allWidgets():
        sheet = widget.styleSheet()
        if "palette(" in sheet:
            widget.setStyleSheet("")
            widget.setStyleSheet(sheet)
        if isinstance(widget, QLabel) and "<a " in widget.text():
            text = widget.text()  # the same text again is no change to QLabel
            widget.clear()
            widget.setText(text)
    for rebuild in list(_REBUILDS):
        if shiboken6.isValid(rebuild) and shiboken6.isValid(rebuild.parent()):
            rebuild.check()


def set_preference(app: QApplication, theme: str) -> None:
    """Settings › Theme: "light", "dark" or "system" (the desktop's), applied now."""
    _PREFERENCE["theme"] = theme if theme in ("light", "dark") else "system"
    apply_scheme(app, wanted_scheme(app))


class _Rebuild(QObject):
    """Calls `rebuild` when the app's palette is another one (a child of the widget:
    it goes with it)."""

    def __init__(self, widget: QWidget, rebuild: Callable[[], None]) -> None:
        super().__init__(widget)
        self.rebuild = rebuild
        self.key = QGuiApplication.palette().cacheKey()
        _REBUILDS.add(self)

    def check(self) -> None:
        key = QGuiApplication.palette().cacheKey()
        if key != self.key:
            self.key = key
            self.rebuild()


# Told by apply_scheme itself, not by an event: a widget whose style sheet sets a colour
# holds a palette of its own, and the app's new palette sends it no event at all.
_REBUILDS: weakref.WeakSet[_Rebuild] = weakref.WeakSet()


def on_theme_change(widget: QWidget, rebuild: Callable[[], None]) -> None:
    """Call `rebuild` when the theme changes (Settings, the desktop's scheme), for a
    widget whose text or style sheet names colours of the theme it was built in; as
    long as the widget lives."""
    _Rebuild(widget, rebuild)


def follow_system_theme(app: QApplication) -> None:
    """Apply the desktop's scheme now and whenever it changes."""
    apply_scheme(app, wanted_scheme(app))
    app.styleHints().colorSchemeChanged.connect(
        lambda _scheme: apply_scheme(app, wanted_scheme(app))
    )


# Named colours for each scheme: (light, dark).
_NAMED = {
    "key": ("#1565c0", "#82b1ff"),
    "comment": ("#757575", "#9e9e9e"),
    "string": ("#2e7d32", "#a5d6a7"),
    "fence": ("#8e24aa", "#ce93d8"),
    "heading": ("#c62828", "#ff8a80"),
    "code": ("#6d4c41", "#d7b899"),
    "link": ("#00838f", "#80deea"),
    "emphasis": ("#37474f", "#eceff1"),
    "list_mark": ("#ef6c00", "#ffb74d"),
    "error_text": ("#c62828", "#ff8a80"),
    "muted": ("#757575", "#9e9e9e"),
    "warn_bg": ("#fff3cd", "#4d3d00"),
    "warn_fg": ("#5c4400", "#ffe8a3"),
    "error_bg": ("#fde7e9", "#5c1a20"),
    "error_fg": ("#5c0011", "#ffd6da"),
    "code_bg": ("#f3f3f3", "#2f2f2f"),
    "table_border": ("#999999", "#666666"),
    "threshold": ("#d32f2f", "#ff6b6b"),
    "match_bg": ("#fff176", "#8d6e00"),
    # likely-candidates bands (gui/panels/workbench/candidates.py): text on them is band_text
    "band_likely": ("#b9e4bc", "#1f5f26"),
    "band_possible": ("#fde9a9", "#5e4b0c"),
    "band_unlikely": ("#e4e4e4", "#3c3c3c"),
    "band_text": ("#1b1b1b", "#f2f2f2"),
    # the recovery diff: lines added and removed by the unsaved text
    "diff_add_bg": ("#dcf5dc", "#1e4620"),
    "diff_del_bg": ("#fbe0e0", "#5a1e22"),
}


def colour(name: str, dark: bool | None = None) -> str:
    """A named colour for the palette in use (or the scheme asked for)."""
    light_value, dark_value = _NAMED[name]
    return dark_value if (is_dark() if dark is None else dark) else light_value


def bar_style(kind: str) -> str:
    """Style sheet of a message bar: 'warn' or 'error'."""
    return f"background:{colour(kind + '_bg')};color:{colour(kind + '_fg')};padding:6px"
