"""Editors for structured fields: lists, trigger groups, string maps, other keys.

Each one emits `edited` when the user changed its value (never when the form
shows a value) and answers `value()`; `set_value()` shows a value from the
document. Items are edited in place (F2, double click, or typing after Add).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLayout,
    QListWidget,
    QListWidgetItem,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

_EDITABLE = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEditable


def value_text(value: Any) -> str:
    """A value as a form shows it (YAML's plain spelling for scalars)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | dict):
        import yaml

        return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True).strip()
    return str(getattr(value, "isoformat", lambda: value)())


def _button(parent: QWidget, label: str, tip: str) -> QToolButton:
    button = QToolButton(parent)  # as wide as its word, so three lists fit side by side
    button.setText(label)
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    button.setToolTip(tip)
    button.setAccessibleName(tip)
    return button


class _Buttons(QWidget):
    """Add / Remove / Up / Down, labelled, in a row under a list or table; while the
    list is empty the row says so and is all the editor shows (one line, not a box)."""

    def __init__(self, parent: QWidget, what: str, reorder: bool = True) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        plural = what[:-1] + "ies" if what.endswith("y") else what + "s"
        self.empty = QLabel(f"No {plural} yet.", self)
        self.empty.setEnabled(False)  # muted
        self.add = _button(self, "Add", f"Add a {what}")
        self.remove = _button(self, "Remove", f"Remove the selected {what}")
        self.up = _button(self, "Up", f"Move the selected {what} up")
        self.down = _button(self, "Down", f"Move the selected {what} down")
        row.addWidget(self.empty)
        for button in (self.add, self.remove, self.up, self.down):
            row.addWidget(button)
        row.addStretch(1)
        self.reorder = reorder
        self.up.setVisible(reorder)
        self.down.setVisible(reorder)

    def show_count(self, count: int) -> None:
        self.empty.setVisible(count == 0)
        self.remove.setVisible(count > 0)
        self.up.setVisible(self.reorder and count > 1)
        self.down.setVisible(self.reorder and count > 1)


def _fit(view: QAbstractItemView, rows: int, row_height: int, extra: int = 0) -> None:
    """A list or table as tall as its rows (up to five), hidden when it has none."""
    view.setVisible(rows > 0)
    frame = 2 * view.frameWidth() if isinstance(view, QFrame) else 2
    view.setFixedHeight(min(max(rows, 1), 5) * row_height + frame + extra)


class ListEditor(QWidget):
    """A list of strings: add, remove, reorder, edit in place.

    Signals:
        edited(): the user changed the list.
    """

    edited = Signal()

    def __init__(self, what: str = "item", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.what = what
        self.list = QListWidget(self)
        self.list.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.list.setAlternatingRowColors(True)
        self.buttons = _Buttons(self, what)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(self.list)
        column.addWidget(self.buttons)
        self.buttons.add.clicked.connect(lambda: self.add_item())
        self.buttons.remove.clicked.connect(lambda: self.remove_current())
        self.buttons.up.clicked.connect(lambda: self.move_current(-1))
        self.buttons.down.clicked.connect(lambda: self.move_current(1))
        self.list.itemChanged.connect(self._on_item_changed)
        self.list.currentRowChanged.connect(self._update_buttons)
        self.setFocusProxy(self.list)
        self._update_buttons()

    def items(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def value(self) -> list[str] | None:
        items = [text.strip() for text in self.items() if text.strip()]
        return items or None

    def set_value(self, value: Any) -> None:
        items = (
            [value_text(v) for v in value]
            if isinstance(value, list)
            else ([] if value is None else [value_text(value)])
        )
        if items == self.items():
            return
        current = self.list.currentRow()
        self.list.blockSignals(True)
        self.list.clear()
        for text in items:
            self.list.addItem(self._item(text))
        self.list.blockSignals(False)
        self.list.setCurrentRow(min(current, len(items) - 1))
        self._update_buttons()

    def _item(self, text: str) -> QListWidgetItem:
        item = QListWidgetItem(text)
        item.setFlags(_EDITABLE)
        return item

    def add_item(self, text: str = "") -> None:
        """Append an item; an empty one opens for typing and counts once it has text."""
        item = self._item(text)
        self.list.blockSignals(True)
        self.list.addItem(item)
        self.list.blockSignals(False)
        self.list.setCurrentItem(item)
        self._update_buttons()  # shows the list if it was empty, before it opens for typing
        if text:
            self.edited.emit()
        else:
            self.list.editItem(item)

    def remove_current(self) -> None:
        row = self.list.currentRow()
        if row < 0:
            return
        self.list.takeItem(row)
        self.edited.emit()
        self._update_buttons()

    def move_current(self, step: int) -> None:
        row = self.list.currentRow()
        target = row + step
        if row < 0 or not 0 <= target < self.list.count():
            return
        self.list.blockSignals(True)
        item = self.list.takeItem(row)
        self.list.insertItem(target, item)
        self.list.blockSignals(False)
        self.list.setCurrentRow(target)
        self.edited.emit()

    def _on_item_changed(self, _item: QListWidgetItem) -> None:
        self.edited.emit()

    def _update_buttons(self, *_args: object) -> None:
        count = self.list.count()
        self.buttons.show_count(count)
        row_height = self.list.sizeHintForRow(0) if count else 0
        _fit(self.list, count, max(row_height, self.list.fontMetrics().height() + 2))
        row = self.list.currentRow()
        self.buttons.remove.setEnabled(row >= 0)
        self.buttons.up.setEnabled(row > 0)
        self.buttons.down.setEnabled(0 <= row < self.list.count() - 1)


class TriggersEditor(QWidget):
    """A mapping of named lists (toolsets `triggers`: keywords, verbs, patterns).

    Sub-keys the profile does not declare are kept as they are.

    Signals:
        edited(): the user changed one of the lists.
    """

    edited = Signal()

    def __init__(self, subkeys: tuple[str, ...], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.subkeys = subkeys
        self.lists: dict[str, ListEditor] = {}
        self._labels: list[QLabel] = []
        self._shown: dict[str, Any] = {}
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        # the widget's minimum is minimumSizeHint's, not the side-by-side grid's
        self.grid.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        for key in subkeys:
            self._labels.append(QLabel(key, self))
            editor = ListEditor(key.rstrip("s"), self)
            editor.setObjectName(f"sub-{key}")
            editor.edited.connect(self.edited)
            self.lists[key] = editor
        self.side_by_side = False
        self._arrange(True)

    def _arrange(self, side_by_side: bool) -> None:
        """The lists side by side, or one under the other where the three with their
        buttons do not fit (at 1024 they made the form scroll sideways, its counters cut)."""
        if side_by_side == self.side_by_side and self.grid.count():
            return
        self.side_by_side = side_by_side
        while self.grid.count():
            self.grid.takeAt(0)
        for index, (label, editor) in enumerate(
            zip(self._labels, self.lists.values(), strict=True)
        ):
            row, column = (0, index) if side_by_side else (2 * index, 0)
            self.grid.addWidget(label, row, column)
            self.grid.addWidget(editor, row + 1, column)
        for column in range(len(self._labels)):
            self.grid.setColumnStretch(column, 1 if side_by_side or column == 0 else 0)
        self.updateGeometry()

    def _side_by_side_width(self) -> int:
        spacing = max(self.grid.horizontalSpacing(), 0) * (len(self.lists) - 1)
        return sum(e.minimumSizeHint().width() for e in self.lists.values()) + spacing

    def minimumSizeHint(self) -> QSize:
        """As narrow as the widest list: the lists go under each other rather than
        widen the form."""
        hint = super().minimumSizeHint()
        narrow = max((e.minimumSizeHint().width() for e in self.lists.values()), default=0)
        return QSize(narrow, hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange(self.width() >= self._side_by_side_width())

    def set_value(self, value: Any) -> None:
        self._shown = dict(value) if isinstance(value, dict) else {}
        for key, editor in self.lists.items():
            editor.set_value(self._shown.get(key))

    def value(self) -> dict[str, Any] | None:
        out: dict[str, Any] = {}
        for key, sub in self._shown.items():  # keep the document's key order
            if key in self.lists:
                items = self.lists[key].value()
                if items is not None:
                    out[key] = items
            else:
                out[key] = sub
        for key, editor in self.lists.items():
            items = editor.value()
            if key not in out and items is not None:
                out[key] = items
        return out or None


class KeyValueEditor(QWidget):
    """Rows of key and value: a string map (`metadata`) or the keys no field declares.

    `parse` turns a typed value into the value to write (text stays text for a
    string map; YAML scalars and flow lists for other keys).

    Signals:
        edited(str): the key whose value the user changed, added or removed.
    """

    edited = Signal(str)

    def __init__(self, what: str, parse: Any = str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.parse = parse
        self.table = QTableWidget(0, 2, self)
        self.table.setHorizontalHeaderLabels(["Key", "Value"])
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.buttons = _Buttons(self, what, reorder=False)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(self.table)
        column.addWidget(self.buttons)
        self.buttons.add.clicked.connect(lambda: self.add_row())
        self.buttons.remove.clicked.connect(lambda: self.remove_current())
        self.table.itemChanged.connect(self._on_item_changed)
        self.setFocusProxy(self.table)
        self._keys: list[str] = []  # the key shown in each row, as the document has it
        self.table.model().rowsInserted.connect(self._fit)
        self.table.model().rowsRemoved.connect(self._fit)
        self._fit()

    def _fit(self, *_args: object) -> None:
        count = self.table.rowCount()
        self.buttons.show_count(count)
        header = self.table.horizontalHeader().sizeHint().height()
        _fit(self.table, count, self.table.verticalHeader().defaultSectionSize(), header)

    def set_value(self, value: Any) -> None:
        """Show a mapping; anything else (a broken value) shows as no rows."""
        rows = (
            [(str(k), value_text(v)) for k, v in value.items()] if isinstance(value, dict) else []
        )
        if rows == self.rows():
            return
        self.table.blockSignals(True)
        self.table.setRowCount(len(rows))
        for index, (key, text) in enumerate(rows):
            self.table.setItem(index, 0, QTableWidgetItem(key))
            self.table.setItem(index, 1, QTableWidgetItem(text))
        self.table.blockSignals(False)
        self._keys = [key for key, _ in rows]

    def rows(self) -> list[tuple[str, str]]:
        out = []
        for row in range(self.table.rowCount()):
            key, text = self.table.item(row, 0), self.table.item(row, 1)
            out.append((key.text() if key else "", text.text() if text else ""))
        return out

    def value(self) -> dict[str, Any] | None:
        out = {key.strip(): self.parse(text) for key, text in self.rows() if key.strip()}
        return out or None

    def entry_value(self, key: str) -> Any:
        """The value of the row named `key` (the last one), None when no row has that key."""
        found = [text for name, text in self.rows() if name.strip() == key]
        return self.parse(found[-1]) if found else None

    def add_row(self) -> None:
        row = self.table.rowCount()
        self.table.blockSignals(True)
        self.table.insertRow(row)
        self.table.setItem(row, 0, QTableWidgetItem(""))
        self.table.setItem(row, 1, QTableWidgetItem(""))
        self.table.blockSignals(False)
        self._keys.append("")
        self.table.setCurrentCell(row, 0)
        first = self.table.item(row, 0)
        if first is not None:
            self.table.editItem(first)

    def remove_current(self) -> None:
        row = self.table.currentRow()
        if row < 0:
            return
        key = self._keys.pop(row)
        self.table.removeRow(row)
        if key:
            self.edited.emit(key)

    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        row = item.row()
        key_item = self.table.item(row, 0)
        key = key_item.text().strip() if key_item else ""
        old = self._keys[row] if row < len(self._keys) else ""
        if row < len(self._keys):
            self._keys[row] = key
        if old and old != key:
            self.edited.emit(old)  # renamed: the old key goes
        if key:
            self.edited.emit(key)
