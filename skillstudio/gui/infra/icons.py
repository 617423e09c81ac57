"""The one module that names icons: the app's own (package data: the app icon and the
status icons, drawn for the light or the dark palette) and Qt's standard set."""

from __future__ import annotations

from functools import cache
from importlib import resources

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QIcon, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication, QStyle

from .theme import is_dark

_STANDARD = {
    "root": QStyle.StandardPixmap.SP_DirIcon,
    "folder": QStyle.StandardPixmap.SP_DirIcon,
    "skill": QStyle.StandardPixmap.SP_FileIcon,
    "file": QStyle.StandardPixmap.SP_FileIcon,
}
# Our status icons (status-NAME.svg): #ACCENT and #NEUTRAL become (light, dark) colours.
STATUS = ("error", "warning", "info", "shadowed", "skipped", "disabled", "skill")
_ACCENT = {
    "error": ("#c62828", "#ef5350"),
    "warning": ("#b86e00", "#ffca28"),  # light: 3:1 on white (main's #e09c00: 2.3)
    "info": ("#1565c0", "#64b5f6"),
}
_NEUTRAL = ("#5f6368", "#c4c7c5")
_ON_SELECTION = "#ffffff"  # the neutral shapes on a selected row (HighlightedText)
# What each status icon means, for the tree's tooltips and docs/guide.md.
LEGEND = {
    "error": "has errors: the agent may not load it as written",
    "warning": "has warnings",
    "shadowed": "shadowed: a skill with the same name in a higher-precedence root wins",
    "skipped": "skipped: the agent would not load it",
    "disabled": "disabled: the model never invokes it by itself",
    "skill": "active, no problems",
}


def icon(name: str) -> QIcon:
    if name in STATUS:
        return status_icon(name, is_dark())
    style = QApplication.style()
    return style.standardIcon(_STANDARD.get(name, QStyle.StandardPixmap.SP_FileIcon))


@cache
def status_icon(name: str, dark: bool) -> QIcon:
    """A status icon drawn for the palette (16 and 32 px, for high-DPI screens).

    On a selected row it keeps its colours (neutral shapes turn white) instead of the
    style's tint, which dulled the red of an error on the selection's blue."""
    svg = (resources.files("skillstudio.data.icons") / f"status-{name}.svg").read_text()
    result = QIcon()
    for mode, neutral in (
        (QIcon.Mode.Normal, _NEUTRAL[dark]),
        (QIcon.Mode.Selected, _ON_SELECTION),
    ):
        accent = _ACCENT[name][dark] if name in _ACCENT else neutral
        text = svg.replace("#ACCENT", accent)
        renderer = QSvgRenderer(QByteArray(text.replace("#NEUTRAL", neutral).encode()))
        for size in (16, 32):
            pixmap = QPixmap(size, size)
            pixmap.fill(Qt.GlobalColor.transparent)
            painter = QPainter(pixmap)
            renderer.render(painter)
            painter.end()
            result.addPixmap(pixmap, mode)
    return result


ICON_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)


@cache
def app_icon() -> QIcon:
    """SkillStudio's icon at every rendered size (packaging/render_icons.py makes them)."""
    result = QIcon()
    folder = resources.files("skillstudio.data.icons")
    for size in ICON_SIZES:
        data = (folder / f"{size}.png").read_bytes()
        pixmap = QPixmap()
        if pixmap.loadFromData(data, "PNG"):
            result.addPixmap(pixmap)
    return result
