"""How Ask a model asks (docs/live.md, "In the app"): the fields that make the Settings
`skillstudio eval` runs with, so the app asks exactly as eval asks through the same core
calls (core/live/planning.py plan, run.py execute): the endpoint and its API (every API kind core's
endpoints speak: endpoints.APIS, eval's `--api`), the model, "Request as" (the shipped
reconstruction of the profile's agent, or a template `eval --template NAME` finds:
templates.saved_templates, each shown with its label, captured agent and version or
reconstruction), the runs and the turns (eval's `--turns`, its default when unset).

The template chosen is remembered per project folder (AppSettings.request_as) once
the owner gives the settings (`keep_in`). The list is made again as it opens (a
template saved meanwhile shows) and the template read again at each Ask (the file
may have changed since); one that cannot be used is listed greyed out with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from ...core.live.endpoints import APIS, PRESETS, EndpointError, endpoint_for
from ...core.live.planning import LiveError, Settings
from ...core.live.questions import style_of
from ...core.live.replay import RECONSTRUCTION, agent_of
from ...core.live.templates import (
    Template,
    TemplateError,
    load_saved,
    named_path,
    saved_names,
)
from ...core.live.turns import DEFAULT_TURNS, MAX_TURNS
from ...core.profile import Profile
from ..infra.settings_store import AppSettings
from ..infra.settings_store import Endpoint as Configured

FROM_ENDPOINT = "as the endpoint speaks"  # the API item that leaves it to the endpoint
NO_TEMPLATE = ""  # Request as: nothing chosen yet (the default rule picks)


def reconstruction_text(profile: Profile | None) -> str:
    """The reconstruction's item: whose requests it rebuilds."""
    agent = agent_of(style_of(profile).key) if profile is not None else None
    return f"{RECONSTRUCTION} of {agent or 'the agent'} (built in)"


def template_text(name: str, found: Template | TemplateError) -> str:
    """A saved template's item: its NAME and label (kind, agent, version, API)."""
    if isinstance(found, TemplateError):
        return f"{name}: cannot be used"
    return f"{name}: {found.label}"


class FreshBox(QComboBox):
    """A combo box whose items are made again as it opens (`before_open`): a template
    saved since (`skillstudio capture --save` in a terminal) is offered at once."""

    def __init__(self, before_open: Callable[[], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.before_open = before_open

    def showPopup(self) -> None:  # Qt calls it as the list opens
        self.before_open()
        super().showPopup()


class AskingFields(QWidget):
    """The endpoint, API, model, Request as, runs and turns; `settings()` makes eval's
    Settings of them (LiveError: what is missing or wrong, said)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.configured: dict[str, tuple[str, str]] | None = None  # url -> (API, model)
        self.store: AppSettings | None = None
        self.folder = ""  # the project whose Request as is remembered
        self.profile: Profile | None = None
        # each saved template read: its path -> ((size, mtime), what reading it gave)
        self._read: dict[str, tuple[tuple[int, int], Template | TemplateError]] = {}
        self._api_from_settings = False  # the API shown is a Settings endpoint's

        self.endpoint = QComboBox()
        self.endpoint.setMinimumContentsLength(8)  # a long URL does not widen the tab
        self.endpoint.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.endpoint.setEditable(True)
        self.endpoint.addItems(list(PRESETS))
        self.endpoint.setCurrentText("ollama")
        self.endpoint.setToolTip(
            "A service (anthropic, openai, openrouter, ollama, llama.cpp, vllm, lmstudio) or "
            "a base URL such as http://localhost:11434/v1. Keys come from the environment "
            "or the system keyring (docs/live.md)."
        )
        self.api = QComboBox()
        self.api.addItems([FROM_ENDPOINT, *APIS])
        self.api.setToolTip(
            "The endpoint's API, as `skillstudio eval --api`: Anthropic Messages, "
            "OpenAI-compatible Chat Completions, the Responses API current Codex speaks "
            "(where the endpoint offers it). Settings › Model endpoints sets it for an "
            "endpoint listed there."
        )
        self.model = QLineEdit()
        self.model.setPlaceholderText("model, e.g. qwen2.5:7b")
        self.request_as = FreshBox(self.fill_templates)
        self.request_as.setMinimumContentsLength(8)
        self.request_as.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.request_as.setToolTip(
            "The request sent: the reconstruction of the agent's request shipped with "
            "SkillStudio, or a request captured from the agent itself (`skillstudio "
            "capture --save`), replayed with this project's listing, as `skillstudio "
            "eval --template NAME` does. Remembered for this project."
        )
        self.runs = QSpinBox()
        self.runs.setRange(1, 50)
        self.runs.setValue(3)
        self.runs.setPrefix("runs: ")
        self.turns = QSpinBox()
        self.turns.setRange(1, MAX_TURNS)
        self.turns.setValue(DEFAULT_TURNS)
        self.turns.setPrefix("turns: ")
        self.turns.setToolTip(
            "Exchanges a run may take, as `skillstudio eval --turns`: a call of another "
            "tool (a shell command, a file read) gets the stub result '(no output)' and "
            "the model is asked again; the first-turn and any-turn picks are told apart. "
            "Each turn is a call."
        )

        self.form = form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow("&Endpoint:", self.endpoint)
        form.addRow("A&PI:", self.api)
        form.addRow("&Model:", self.model)
        form.addRow("Request &as:", self.request_as)
        counts = QHBoxLayout()
        counts.addWidget(self.runs)
        counts.addWidget(self.turns)
        counts.addStretch(1)
        form.addRow(counts)

        self.endpoint.currentTextChanged.connect(self._on_endpoint)
        self.request_as.activated.connect(lambda _i: self._remember())
        self.fill_templates()

    # -- endpoints ---------------------------------------------------------------------
    def set_endpoints(self, endpoints: list[Configured]) -> None:
        """Settings › Model endpoints: offered first, the first one chosen."""
        self.configured = {e.url: (e.kind, e.model) for e in endpoints if e.url}
        for url in reversed(list(self.configured)):
            if self.endpoint.findText(url) < 0:
                self.endpoint.insertItem(0, url)
        if self.configured:
            url, (_kind, model) = next(iter(self.configured.items()))
            self.set_endpoint(url, model)

    def set_endpoint(self, endpoint: str, model: str = "", api: str = "") -> None:
        self.endpoint.setCurrentText(endpoint)
        if model:
            self.model.setText(model)
        if api:
            self.api.setCurrentText(api)

    def _on_endpoint(self, text: str) -> None:
        """A Settings endpoint brings its model and API; leaving it for another
        endpoint leaves the API to that one. An API the user chose for a typed URL
        stays while the URL is edited."""
        kind, model = (self.configured or {}).get(text, ("", ""))
        if model:
            self.model.setText(model)
        if kind in APIS:
            self.api.setCurrentText(kind)
        elif self._api_from_settings:
            self.api.setCurrentText(FROM_ENDPOINT)
        self._api_from_settings = kind in APIS

    @property
    def model_name(self) -> str:
        return self.model.text().strip()

    # -- Request as ----------------------------------------------------------------------
    def keep_in(self, store: AppSettings | None) -> None:
        """Remember Request as per project in `store` (None: not remembered)."""
        self.store = store
        self.fill_templates()

    def set_project(self, profile: Profile | None, folder: str) -> None:
        """The project asked about: its agent's reconstruction, its remembered choice."""
        if profile is self.profile and folder == self.folder:
            return
        self.profile, self.folder = profile, folder
        self.fill_templates(keep=False)

    def chosen_word(self) -> str:
        """What Request as names: "reconstruction" or a saved template's NAME."""
        word = self.request_as.currentData()
        return word if isinstance(word, str) else RECONSTRUCTION

    def fill_templates(self, keep: bool = True) -> None:
        """The reconstruction and the saved templates, the remembered (else, `keep`, the
        current, else the default) one chosen: the captured template saved under the
        agent's name when there is one (as eval's default), else the reconstruction."""
        current = self.request_as.currentData() if keep else None
        remembered = self.store.request_as(self.folder) if self.store and self.folder else ""
        agent = agent_of(style_of(self.profile).key) if self.profile is not None else None
        self.request_as.clear()
        self.request_as.addItem(reconstruction_text(self.profile), RECONSTRUCTION)
        self.request_as.setItemData(
            0,
            "The request SkillStudio rebuilds from the agent's docs and source (docs/agents.md)",
            Qt.ItemDataRole.ToolTipRole,
        )
        model = self.request_as.model()
        default = RECONSTRUCTION
        for name, found in self._saved():
            self.request_as.addItem(template_text(name, found), name)
            row = self.request_as.count() - 1
            tip = str(found) if isinstance(found, TemplateError) else named_path(name)
            self.request_as.setItemData(row, tip, Qt.ItemDataRole.ToolTipRole)
            if isinstance(found, TemplateError) and isinstance(model, QStandardItemModel):
                item = model.item(row)
                item.setEnabled(False)
            elif isinstance(found, Template) and found.kind == "captured" and name == agent:
                default = name
        for word in (remembered, current if isinstance(current, str) else "", default):
            at = self.request_as.findData(word) if word else -1
            if (
                at >= 0
                and self.request_as.model().flags(self.request_as.model().index(at, 0))
                & Qt.ItemFlag.ItemIsEnabled
            ):
                self.request_as.setCurrentIndex(at)
                break

    def _saved(self) -> list[tuple[str, Template | TemplateError]]:
        """The saved templates, each read once while its file stays the same (size and
        modification time): the list is made as it opens, on the GUI thread."""
        out: list[tuple[str, Template | TemplateError]] = []
        known: dict[str, tuple[tuple[int, int], Template | TemplateError]] = {}
        for name, path in saved_names():
            try:
                info = os.stat(path)
                stamp = (info.st_size, info.st_mtime_ns)
            except OSError:
                stamp = (-1, -1)
            kept = self._read.get(path)
            if kept is not None and kept[0] == stamp and stamp != (-1, -1):
                found = kept[1]
            else:
                try:
                    found = load_saved(path)
                except TemplateError as exc:
                    found = exc
            known[path] = (stamp, found)
            out.append((name, found))
        self._read = known  # the files listed now (a removed one is forgotten)
        return out

    def _remember(self) -> None:
        if self.store is not None and self.folder:
            self.store.set_request_as(self.folder, self.chosen_word())

    def template(self) -> Template | None:
        """The template chosen, read again now (None: the reconstruction)."""
        word = self.chosen_word()
        if word == RECONSTRUCTION:
            return None
        try:
            return load_saved(named_path(word))
        except TemplateError as exc:
            raise LiveError(str(exc)) from None

    # -- eval's settings -----------------------------------------------------------------
    def settings(self) -> Settings:
        given = self.endpoint.currentText().strip()
        chosen = self.api.currentText()
        api: str | None = chosen if chosen in APIS else None
        if api is None:
            api = (self.configured or {}).get(given, ("", ""))[0] or None
        try:
            endpoint = endpoint_for(given, api)
        except EndpointError as exc:
            raise LiveError(str(exc)) from None
        if not self.model_name:
            raise LiveError("Name the model to ask.")
        return Settings(
            endpoint,
            self.model_name,
            runs=self.runs.value(),
            template=self.template(),
            turns=self.turns.value(),
        )
