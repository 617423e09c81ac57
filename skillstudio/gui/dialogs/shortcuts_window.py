"""Help › Keyboard Shortcuts: every shortcut of the window's actions, read from the
actions themselves (so the list never disagrees with the keys)."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QHeaderView,
    QMainWindow,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


def shortcut_rows(window: QMainWindow) -> list[tuple[str, str, str]]:
    """(menu, command, keys) for each action of the menu bar with a shortcut."""
    rows: list[tuple[str, str, str]] = []

    def walk(menu: QMenu, title: str) -> None:
        for action in menu.actions():
            sub = action.menu()
            if isinstance(sub, QMenu):
                walk(sub, f"{title} › {sub.title().replace('&', '')}")
                continue
            keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts()]
            keys = [k for k in keys if k]
            if keys and not action.isSeparator():
                text = action.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
                rows.append((title, text, ", ".join(dict.fromkeys(keys))))

    for action in window.menuBar().actions():
        menu = action.menu()
        if isinstance(menu, QMenu):
            walk(menu, menu.title().replace("&", ""))
    return rows


class ShortcutsWindow(QDialog):
    """The table of shortcuts, built again each time it is shown."""

    def __init__(self, window: QMainWindow, parent: QWidget | None = None) -> None:
        super().__init__(parent or window)
        self.setWindowTitle("SkillStudio — Keyboard Shortcuts")
        self.main_window = window
        self.table = QTableWidget(0, 3, self)
        self.table.setHorizontalHeaderLabels(["Menu", "Command", "Keys"])
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.table.setAlternatingRowColors(True)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        self.fill()
        self.resize(560, 520)

    def fill(self) -> None:
        rows = shortcut_rows(self.main_window)
        self.table.setRowCount(len(rows))
        for number, row in enumerate(rows):
            for column, text in enumerate(row):
                self.table.setItem(number, column, QTableWidgetItem(text))
        self.table.resizeColumnToContents(0)
        self.table.resizeColumnToContents(2)
