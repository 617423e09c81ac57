"""A combo box whose chosen entry, when longer than the box, is drawn elided in the
middle ("collection/suites/release-ch…-monorepo.yaml": the folder it starts with and
the end of the file's name stay readable). Qt's box cut the end, where a suite's name
is, at 1024 px."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import (
    QComboBox,
    QStyle,
    QStyleOptionComboBox,
    QStylePainter,
)


class ElidedCombo(QComboBox):
    """`shown()`: the chosen entry's text as drawn (the whole is its tooltip's to say:
    the Suites panel sets the box's to the suite's path)."""

    def _text_room(self) -> int:
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        field = self.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox,
            option,
            QStyle.SubControl.SC_ComboBoxEditField,
            self,
        )
        return max(field.width() - 4, 0)

    def shown(self) -> str:
        return self.fontMetrics().elidedText(
            self.currentText(), Qt.TextElideMode.ElideMiddle, self._text_room()
        )

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        option.currentText = self.shown()
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)
