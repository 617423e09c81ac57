"""The window's centre (welcome page or editor tabs) and the dock wrapper, sized so the
editor gets most of the window on first run."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QFrame, QScrollArea, QStackedWidget, QWidget


class Centre(QStackedWidget):
    """Asks for the room of an editor (an empty tab widget asks for 4x3 px, and the
    main window's layout gives the difference to the docks)."""

    def sizeHint(self) -> QSize:
        return QSize(900, 600)


def scrolled(widget: QWidget) -> QScrollArea:
    """`widget` in a frameless scroll area: a dock may then be shorter than the panel's
    own minimum (the Try a Request panel needs ~280 px) and scrolls instead of taking
    the height from the editor."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(widget)
    return area
