"""The window's centre (welcome page or editor tabs), sized so the editor gets most of the
window on first run (the docks' scroll wrapper is panels/scrolled.py)."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QStackedWidget


class Centre(QStackedWidget):
    """Asks for the room of an editor (an empty tab widget asks for 4x3 px, and the
    main window's layout gives the difference to the docks)."""

    def sizeHint(self) -> QSize:
        return QSize(900, 600)
