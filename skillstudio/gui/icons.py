"""The one module that names icons (Qt's standard set until our own artwork lands)."""

from __future__ import annotations

from PySide6.QtGui import QIcon
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
