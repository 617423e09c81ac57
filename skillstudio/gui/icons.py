"""The one module that names icons: the app's own (package data) and Qt's standard set."""

from __future__ import annotations

from functools import cache
from importlib import resources

from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import QApplication, QStyle

_STANDARD = {
    "root": QStyle.StandardPixmap.SP_DirIcon,
    "skill": QStyle.StandardPixmap.SP_FileIcon,
    "file": QStyle.StandardPixmap.SP_FileLinkIcon,
    "error": QStyle.StandardPixmap.SP_MessageBoxCritical,
    "warning": QStyle.StandardPixmap.SP_MessageBoxWarning,
    "info": QStyle.StandardPixmap.SP_MessageBoxInformation,
    "shadowed": QStyle.StandardPixmap.SP_TitleBarShadeButton,
    "skipped": QStyle.StandardPixmap.SP_DialogCancelButton,
    "disabled": QStyle.StandardPixmap.SP_MediaPause,
}


def icon(name: str) -> QIcon:
    style = QApplication.style()
    return style.standardIcon(_STANDARD.get(name, QStyle.StandardPixmap.SP_FileIcon))


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
