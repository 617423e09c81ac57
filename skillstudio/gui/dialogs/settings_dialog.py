"""Edit › Settings: appearance and budgets, model endpoints (keys in the system
keyring), and the advice rules of the current project, kept in its skillstudio.yaml
`rules:` (so `skillstudio lint` and the language server read the same). Changes apply
on OK (`edit_settings`: the dialog asked, and the theme applied at once)."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...core.editing.saving import SaveError
from ...core.model.diagnostics import CODES
from ...core.model.rule_settings import FIXED
from ...core.projects.config import CONFIG_NAME, load_config
from ...core.projects.config_writer import write_rules
from ...core.reading.yaml_io import EditError
from ..infra.profile_choices import fill_profile_box
from ..infra.settings_store import API_KINDS, THEMES, AppSettings, Endpoint, read_key, store_key
from ..infra.theme import set_preference

RULE_CHOICES = ("default", "error", "warning", "info", "off")


class SettingsDialog(QDialog):
    """The settings, read from `store` (and the advice rules from `folder`'s
    skillstudio.yaml) when built and written back by `apply()`. `ask_create(question)`
    is asked before a skillstudio.yaml is created; True to create it."""

    def __init__(
        self,
        store: AppSettings,
        folder: str,
        parent: QWidget | None = None,
        ask_create: Callable[[str], bool] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.store = store
        self.folder = folder
        self.ask_create = ask_create or (lambda _question: False)
        self.rules_written = False  # apply() changed the project's skillstudio.yaml
        self.pages = QTabWidget(self)
        self.pages.addTab(self._general_page(), "General")
        self.pages.addTab(self._endpoints_page(), "Model endpoints")
        self.pages.addTab(self._rules_page(), "Advice rules")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages)
        layout.addWidget(buttons)
        self.resize(620, 460)

    # -- pages --------------------------------------------------------------------------
    def _general_page(self) -> QWidget:
        page = QWidget(self)
        form = QFormLayout(page)
        self.theme_box = QComboBox(page)
        for theme in THEMES:
            self.theme_box.addItem(
                {"system": "As the desktop", "light": "Light", "dark": "Dark"}[theme], theme
            )
        self.theme_box.setCurrentIndex(max(self.theme_box.findData(self.store.theme()), 0))
        form.addRow("Theme:", self.theme_box)
        self.profile_box = QComboBox(page)
        fill_profile_box(self.profile_box, "auto (skillstudio.yaml, else detection)")
        found = self.profile_box.findData(self.store.default_profile())
        self.profile_box.setCurrentIndex(max(found, 0))
        form.addRow("Default profile:", self.profile_box)
        note = QLabel(
            "A profile chosen for a folder (status bar, or a project's Read As menu) is "
            "remembered for that folder and used again when it is opened.",
            page,
        )
        note.setWordWrap(True)
        form.addRow("", note)
        self.context_box = QSpinBox(page)
        self.context_box.setRange(0, 100_000_000)
        self.context_box.setSingleStep(1000)
        self.context_box.setGroupSeparatorShown(True)
        self.context_box.setSpecialValueText("the agent's default")
        self.context_box.setValue(self.store.context_tokens())
        self.context_box.setToolTip(
            "Tokens; listing budgets that are a share of the context window use it "
            "(the project's skillstudio.yaml context_tokens wins)."
        )
        form.addRow("Context window:", self.context_box)
        return page

    def _endpoints_page(self) -> QWidget:
        page = QWidget(self)
        layout = QVBoxLayout(page)
        intro = QLabel(
            "Endpoints the live checks may call. The key is kept in the system keyring, "
            "never in the settings file; leave it empty to keep the stored one.",
            page,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.endpoint_table = QTableWidget(0, 4, page)
        self.endpoint_table.setHorizontalHeaderLabels(["URL", "API", "Model", "Key"])
        header = self.endpoint_table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for endpoint in self.store.endpoints():
            self.add_endpoint(endpoint, bool(read_key(endpoint)))
        layout.addWidget(self.endpoint_table)
        row = QHBoxLayout()
        add = QPushButton("Add", page)
        add.clicked.connect(lambda: self.add_endpoint(Endpoint("", "anthropic", ""), False))
        remove = QPushButton("Remove", page)
        remove.clicked.connect(
            lambda: self.endpoint_table.removeRow(self.endpoint_table.currentRow())
        )
        row.addWidget(add)
        row.addWidget(remove)
        row.addStretch(1)
        layout.addLayout(row)
        self.endpoint_message = QLabel("", page)
        layout.addWidget(self.endpoint_message)
        return page

    def add_endpoint(self, endpoint: Endpoint, has_key: bool) -> int:
        table = self.endpoint_table
        row = table.rowCount()
        table.insertRow(row)
        table.setItem(row, 0, QTableWidgetItem(endpoint.url))
        kind = QComboBox(table)
        kind.addItems(list(API_KINDS))
        kind.setCurrentText(endpoint.kind)
        table.setCellWidget(row, 1, kind)
        table.setItem(row, 2, QTableWidgetItem(endpoint.model))
        key = QLineEdit(table)
        key.setEchoMode(QLineEdit.EchoMode.Password)
        key.setPlaceholderText("stored" if has_key else "none")
        table.setCellWidget(row, 3, key)
        return row

    def _rules_page(self) -> QWidget:
        page = QWidget(self)
        layout = QVBoxLayout(page)
        config = load_config(self.folder) if self.folder else None
        self.rules_before: dict[str, str] = dict(config.options.get("rules", {})) if config else {}
        if not self.folder:
            where = "No folder is open: the advice rules are a project's."
        else:
            kept = os.path.join(self.folder, CONFIG_NAME)
            state = "" if config is not None else " (it has none yet: OK asks to create it)"
            where = (
                f"Severity of each code for the project {self.folder}, kept under "
                f"'rules:' in {kept}{state}. skillstudio lint and the language server read "
                "the same file; 'default' leaves the profile's own severity."
            )
        intro = QLabel(where, page)
        intro.setWordWrap(True)
        layout.addWidget(intro)
        codes = sorted(code for code in CODES if code not in FIXED)
        self.rules_table = QTableWidget(len(codes), 2, page)
        self.rules_table.setHorizontalHeaderLabels(["Code", "Severity"])
        self.rules_table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for row, code in enumerate(codes):
            item = QTableWidgetItem(code)
            item.setToolTip(CODES[code])
            self.rules_table.setItem(row, 0, item)
            box = QComboBox(self.rules_table)
            box.addItems(list(RULE_CHOICES))
            box.setCurrentText(self.rules_before.get(code, "default"))
            self.rules_table.setCellWidget(row, 1, box)
        self.rules_table.setEnabled(bool(self.folder))
        layout.addWidget(self.rules_table)
        return page

    # -- writing back ---------------------------------------------------------------------
    def endpoints(self) -> list[tuple[Endpoint, str]]:
        """The table's endpoints (rows without a URL left out) with the key typed."""
        found = []
        table = self.endpoint_table
        for row in range(table.rowCount()):
            url, model = cell_text(table, row, 0), cell_text(table, row, 2)
            kind = table.cellWidget(row, 1)
            key = table.cellWidget(row, 3)
            if url and isinstance(kind, QComboBox) and isinstance(key, QLineEdit):
                found.append((Endpoint(url, kind.currentText(), model), key.text()))
        return found

    def rules(self) -> dict[str, str]:
        chosen = {}
        for row in range(self.rules_table.rowCount()):
            box = self.rules_table.cellWidget(row, 1)
            if isinstance(box, QComboBox) and box.currentText() != "default":
                chosen[cell_text(self.rules_table, row, 0)] = box.currentText()
        return chosen

    def apply(self) -> str:
        """Write the dialog's values to the store; a message when a key was not stored."""
        self.store.set_theme(self.theme_box.currentData())
        self.store.set_default_profile(self.profile_box.currentData() or "")
        self.store.set_context_tokens(self.context_box.value())
        endpoints = self.endpoints()
        self.store.set_endpoints([endpoint for endpoint, _key in endpoints])
        problems = [store_key(e, key) for e, key in endpoints if key]
        problems.append(self.write_rules())
        return next((p for p in problems if p), "")

    def write_rules(self) -> str:
        """The rules table into the project's skillstudio.yaml (only the entries that
        changed); a message when it was not written."""
        rules = self.rules()
        if not self.folder or rules == self.rules_before:
            return ""
        path = os.path.join(self.folder, CONFIG_NAME)
        if not os.path.lexists(path) and not self.ask_create(
            f"The advice rules are kept in the project's {CONFIG_NAME}, which it does not "
            f"have. Create {path}?\n\nskillstudio lint and the language server read it too."
        ):
            return f"Advice rules not changed: {CONFIG_NAME} was not created"
        try:
            self.rules_written = write_rules(self.folder, rules)
        except (SaveError, EditError, OSError) as exc:
            return f"Advice rules not changed: {exc}"
        return ""


def cell_text(table: QTableWidget, row: int, column: int) -> str:
    item = table.item(row, column)
    return item.text().strip() if item is not None else ""


def edit_settings(
    store: AppSettings,
    folder: str,
    parent: QWidget,
    ask: Callable[[SettingsDialog], bool],
    ask_create: Callable[[str], bool],
    rules_changed: Callable[[], object],
) -> str:
    """Edit › Settings for the project in `folder`: the dialog (`ask(dialog)`: shown,
    True on OK), and on OK the theme applied at once and `rules_changed()` called when
    its skillstudio.yaml's advice rules were written; a message for the status bar ("" when
    cancelled)."""
    dialog = SettingsDialog(store, folder, parent, ask_create)
    if not ask(dialog):
        return ""
    message = dialog.apply()
    if dialog.rules_written:
        rules_changed()
    app = QApplication.instance()
    if isinstance(app, QApplication):
        set_preference(app, store.theme())
    return message or "Settings saved"
