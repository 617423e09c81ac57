"""A panel in a frameless scroll area, for a dock or a tab shorter than the panel."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QScrollArea, QWidget


def scrolled(widget: QWidget) -> QScrollArea:
    """`widget` in a frameless scroll area: a dock may then be shorter than the panel's
    own minimum (the Try a Request panel needs ~280 px) and scrolls instead of taking
    the height from the editor."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(widget)
    return area
