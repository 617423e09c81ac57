"""Edit › Settings: appearance and budgets (the default model fills the context
window), the known models and their context windows (built-in rows read-only, the
user's rows editable, kept in models.yaml, which the command line reads: core's
model_windows.py), model endpoints (keys in the system keyring; "Test connection"
sends the chosen row one tiny request off the GUI thread: core/live/probe.py), and the advice
rules of the current project, kept in its skillstudio.yaml `rules:` (so `skillstudio
lint` and the language server read the same). Changes apply on OK (`edit_settings`:
the dialog asked; the theme shows at once when chosen, and Cancel takes it back)."""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial

from PySide6.QtCore import Qt
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
from ...core.live.endpoints import EndpointError, endpoint_for
from ...core.live.probe import ProbeResult, probe
from ...core.model.diagnostics import CODES
from ...core.model.rule_settings import FIXED
from ...core.model.text import counted
from ...core.projects.config import CONFIG_NAME, load_config
from ...core.projects.config_writer import recording_profile, write_rules
from ...core.projects.model_windows import ModelTable, load_models, save_user_models, typed_rows
from ...core.reading.yaml_io import EditError
from ..infra.background import LatestJob
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
        chosen: str | None = None,
    ) -> None:
        """`chosen`: the profile chosen in the app for the project in `folder` (None when
        it is read as its skillstudio.yaml says or as detected): recorded in the file
        when the rules are written to it and detection gives another."""
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.chosen = chosen
        self.profile_said = ""  # what writing the rules did to the file's profile
        self.store = store
        self.folder = folder
        self.ask_create = ask_create or (lambda _question: False)
        self.rules_written = False  # apply() changed the project's skillstudio.yaml
        self.models: ModelTable = load_models()
        self.probe_job = LatestJob(self)  # Test connection's one request
        self.pages = QTabWidget(self)
        self.pages.addTab(self._general_page(), "General")
        self.pages.addTab(self._models_page(), "Models")
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

    def restore_theme(self) -> None:
        """Cancelled: the theme saved in the settings again (as it was before)."""
        show_theme(self.store.theme())

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
        # the theme chosen shows at once, on the whole app; Cancel puts the saved one back
        self.theme_box.currentIndexChanged.connect(
            lambda _i: show_theme(self.theme_box.currentData())
        )
        self.rejected.connect(self.restore_theme)
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
        self.model_box = QComboBox(page)
        self.model_box.addItem("none (the number above)", "")
        for row in self.models.rows:
            self.model_box.addItem(f"{row.name} ({counted(row.context_tokens, 'token')})", row.name)
        chosen = self.model_box.findData(self.store.default_model())
        self.model_box.setCurrentIndex(max(chosen, 0))
        self.model_box.setToolTip("A known model (the Models tab): its window fills the box above")
        self.model_box.activated.connect(lambda _i: self._default_model_chosen())
        form.addRow("Default model:", self.model_box)
        return page

    def _default_model_chosen(self) -> None:
        row = self.models.get(self.model_box.currentData() or "")
        if row is not None:
            self.context_box.setValue(min(row.context_tokens, self.context_box.maximum()))

    def _models_page(self) -> QWidget:
        page = QWidget(self)
        layout = QVBoxLayout(page)
        intro = QLabel(
            "Each model's context window: listing budgets are a share of it. The built-in "
            "rows (with their sources, docs/agents.md) cannot be edited; your rows add a "
            f"model or replace one of the same name, kept in {self.models.path}, which "
            "skillstudio --model reads too.",
            page,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.models_table = QTableWidget(0, 3, page)
        self.models_table.setHorizontalHeaderLabels(["Model", "Context window (tokens)", "Source"])
        header = self.models_table.horizontalHeader()
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        for row in self.models.rows:
            self.add_model(row.name, row.context_tokens, row.source if row.builtin else "")
        layout.addWidget(self.models_table)
        buttons = QHBoxLayout()
        add = QPushButton("Add", page)
        add.clicked.connect(lambda: self.add_model("", 0, ""))
        self.remove_model_button = QPushButton("Remove", page)
        self.remove_model_button.clicked.connect(self.remove_model)
        buttons.addWidget(add)
        buttons.addWidget(self.remove_model_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.models_message = QLabel(
            "; ".join(d.message for d in self.models.diagnostics[:3]), page
        )
        self.models_message.setWordWrap(True)
        layout.addWidget(self.models_message)
        return page

    def add_model(self, name: str, tokens: int, source: str) -> int:
        """A row of the models table: `source` given for a built-in row (read-only)."""
        table = self.models_table
        number = table.rowCount()
        table.insertRow(number)
        cells = (name, f"{tokens:,}" if tokens else "", source or "yours (models.yaml)")
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if source or column == 2:  # built-in rows and the source column: read-only
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            if source:
                item.setToolTip(f"Built in: {source}")
            table.setItem(number, column, item)
        if not source:
            table.setCurrentCell(number, 0)
        return number

    def is_builtin_row(self, number: int) -> bool:
        item = self.models_table.item(number, 0)
        return item is not None and not bool(item.flags() & Qt.ItemFlag.ItemIsEditable)

    def remove_model(self) -> None:
        """Remove the current row when it is one of the user's."""
        number = self.models_table.currentRow()
        if number >= 0 and not self.is_builtin_row(number):
            self.models_table.removeRow(number)

    def user_models(self) -> list[tuple[str, str]]:
        """The user's rows as typed (name, window)."""
        table = self.models_table
        return [
            (cell_text(table, number, 0), cell_text(table, number, 1))
            for number in range(table.rowCount())
            if not self.is_builtin_row(number)
        ]

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
        self.test_button = QPushButton("Test connection", page)
        self.test_button.setToolTip(
            "Send the chosen row's endpoint one tiny request (a word, a few tokens back), "
            "with the key typed here or the stored one: which model answered, how fast"
        )
        self.test_button.clicked.connect(self.test_endpoint)
        row.addWidget(add)
        row.addWidget(remove)
        row.addWidget(self.test_button)
        row.addStretch(1)
        layout.addLayout(row)
        self.endpoint_message = QLabel("", page)
        self.endpoint_message.setWordWrap(True)
        self.endpoint_message.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.endpoint_message)
        return page

    def test_endpoint(self) -> None:
        """The chosen row (or the only one) sent one tiny request, off the GUI thread."""
        table = self.endpoint_table
        number = table.currentRow() if table.currentRow() >= 0 else 0
        if number >= table.rowCount():
            self.endpoint_message.setText("Add an endpoint to test.")
            return
        url, model = cell_text(table, number, 0), cell_text(table, number, 2)
        kind, typed = table.cellWidget(number, 1), table.cellWidget(number, 3)
        api = kind.currentText() if isinstance(kind, QComboBox) else None
        key = typed.text().strip() if isinstance(typed, QLineEdit) else ""
        try:
            endpoint = endpoint_for(url, api)
        except EndpointError as exc:
            self.endpoint_message.setText(str(exc))
            return
        if not model:
            self.endpoint_message.setText("Name the model to test.")
            return
        self.test_button.setEnabled(False)
        self.endpoint_message.setText(f"Testing {endpoint.base_url} ({model})…")

        def work() -> ProbeResult:
            return probe(endpoint, model, key=key or None)

        def landed(result: ProbeResult | None, error: str | None) -> None:
            self.test_button.setEnabled(True)
            said = result.message(model) if result is not None else f"Connection failed: {error}"
            self.endpoint_message.setText(said)

        self.probe_job.submit(work, landed)

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
        problems = [self.write_models()]
        self.store.set_default_model(self.model_box.currentData() or "")
        endpoints = self.endpoints()
        self.store.set_endpoints([endpoint for endpoint, _key in endpoints])
        problems += [store_key(e, key) for e, key in endpoints if key]
        problems.append(self.write_rules())
        return next((p for p in problems if p), "")

    def write_models(self) -> str:
        """The user's rows into models.yaml when they changed; a message when not written."""
        rows, problem = typed_rows(self.user_models())
        if problem is not None:
            return f"Models not saved: {problem}"
        before = [(row.name, row.context_tokens) for row in self.models.user]
        if rows == before:
            return ""
        try:
            save_user_models(rows, self.models.path)
        except (SaveError, ValueError, OSError) as exc:
            return f"Models not saved: {exc}"
        return ""

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
            write = partial(write_rules, self.folder, rules)
            self.rules_written, self.profile_said = recording_profile(
                self.folder, write, self.chosen
            )
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
    chosen: str | None = None,
) -> str:
    """Edit › Settings for the project in `folder`: the dialog (`ask(dialog)`: shown,
    True on OK), and on OK the theme applied at once and `rules_changed()` called when
    its skillstudio.yaml's advice rules were written; a message for the status bar ("" when
    cancelled). `chosen`: the profile chosen in the app for the project (SettingsDialog)."""
    dialog = SettingsDialog(store, folder, parent, ask_create, chosen)
    if not ask(dialog):
        dialog.restore_theme()
        return ""
    message = dialog.apply()
    if dialog.rules_written:
        rules_changed()
    show_theme(store.theme())
    if not message and dialog.rules_written:
        message = f"Settings saved; advice rules written to {CONFIG_NAME}{dialog.profile_said}"
    return message or "Settings saved"


def show_theme(theme: str) -> None:
    """The app in `theme` ("system", "light" or "dark") now."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        set_preference(app, theme)
