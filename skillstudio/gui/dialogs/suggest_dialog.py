"""Suggest Requests… (the tree's context menu of a skill): a model drafts requests for a
suite from the skill's name and description and its neighbours' (core/projects/suggest.py,
as `skillstudio suggest`); the drafts are listed with checkboxes, each leaking or
repeating one unchecked with the reason beside it, and Write Checked appends the
checked ones to the suite with the suite writer "Add as test case" uses.

What it will send and cost is shown before Send; the request goes off the GUI thread
(background.LatestJob) through core/live's one client. Keys come from the environment
or the keyring, never from this dialog.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...core.live.endpoints import EndpointError, endpoint_for
from ...core.live.planning import LiveError, Settings
from ...core.live.run import key_for
from ...core.model.skills import Skill
from ...core.model.text import counted
from ...core.projects.suggest import (
    KIND_WORDS,
    Ask,
    Draft,
    mark_drafts,
    plan_ask,
    read_drafts,
    send_ask,
)
from ...core.projects.suite_cases import SuiteError
from ...core.projects.suite_writing import ExpectKey, add_case
from ...core.ranking.leaks import LeakCheck
from ...core.ranking.likely_index import LikelyIndex
from ...core.scanning.registry import Registry
from ..infra.background import LatestJob
from ..infra.likely_jobs import LikelyIndexes
from ..infra.settings_store import Endpoint as Configured

INTRO = (
    "A model drafts requests for a suite from this skill's name and description and its "
    "closest neighbours' (never its body). Drafts that name the skill or lean on its "
    "rarest words test nothing: they come unchecked, with the reason."
)


class SuggestDialog(QDialog):
    def __init__(
        self,
        registry: Registry,
        skill: Skill,
        indexes: LikelyIndexes | None = None,
        endpoints: Iterable[Configured] = (),
        suite: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Suggest Requests for {skill.name}")
        self.registry, self.skill = registry, skill
        # the app's likely index of the project (built off the GUI thread: `ready` says
        # when); without the app's builder, one of its own
        self.indexes = indexes
        self._own_index = LikelyIndex(registry) if indexes is None else None
        if indexes is not None:
            indexes.ready.connect(self._on_index_ready)
        self.key: ExpectKey = "expect_model" if registry.profile.model_chooses else "expect"
        self.drafts: list[Draft] = []
        self.ask: Ask | None = None
        self.job = LatestJob(self)
        self.configured = {e.url: e for e in endpoints if e.url}

        intro = QLabel(INTRO)
        intro.setWordWrap(True)
        self.endpoint = QComboBox()
        self.endpoint.setEditable(True)
        self.endpoint.addItems([*self.configured, "ollama", "anthropic", "openai", "openrouter"])
        self.model = QLineEdit()
        self.model.setPlaceholderText("the model to ask")
        if self.configured:
            self.model.setText(next(iter(self.configured.values())).model)
        form = QFormLayout()
        form.addRow("Endpoint", self.endpoint)
        form.addRow("Model", self.model)
        self.cost = QLabel()
        self.cost.setWordWrap(True)
        self.send_button = QPushButton("Send")
        self.send_button.clicked.connect(self.send)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.list = QListWidget()
        self.suite = QLineEdit(suite)
        self.suite.setPlaceholderText("the suite file the checked drafts go to")
        self.write_button = QPushButton("Write Checked to Suite")
        self.write_button.setEnabled(False)
        self.write_button.clicked.connect(self.write_checked)
        close = QPushButton("Close")
        close.clicked.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(QLabel("Suite"))
        row.addWidget(self.suite, 1)
        row.addWidget(self.write_button)
        row.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.cost)
        layout.addWidget(self.send_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.status)
        layout.addWidget(self.list, 1)
        layout.addLayout(row)
        self.endpoint.currentTextChanged.connect(self._on_endpoint)
        self.model.textChanged.connect(lambda _text: self.estimate())
        self.resize(720, 520)
        self.estimate()

    def _index(self) -> LikelyIndex | None:
        if self.indexes is not None:
            return self.indexes.get(self.registry)
        return self._own_index

    def _on_index_ready(self, registry: object) -> None:
        if registry is self.registry:
            self.estimate()

    def _on_endpoint(self, text: str) -> None:
        found = self.configured.get(text)
        if found is not None and found.model:
            self.model.setText(found.model)
        self.estimate()

    def settings(self) -> Settings:
        """The endpoint and model chosen; LiveError saying what is missing."""
        given = self.endpoint.currentText().strip()
        found = self.configured.get(given)
        try:
            endpoint = endpoint_for(given, found.kind if found is not None else None)
        except EndpointError as exc:
            raise LiveError(str(exc)) from None
        if not self.model.text().strip():
            raise LiveError("Name the model to ask.")
        return Settings(endpoint, self.model.text().strip())

    def estimate(self) -> None:
        """What Send would send and cost, said before anything is sent."""
        try:
            settings = self.settings()
        except LiveError as exc:
            self.ask = None
            self.cost.setText(str(exc))
            self.send_button.setEnabled(False)
            return
        index = self._index()
        if index is None:
            self.ask = None
            self.cost.setText("Finding the skill's closest neighbours…")
            self.send_button.setEnabled(False)
            return
        self.ask = plan_ask(index, self.skill, settings)
        sent, answered = self.ask.tokens()
        near = ", ".join(s.name for s in self.ask.neighbours) or "none"
        self.cost.setText(
            f"Send sends 1 request to {settings.model} at {settings.endpoint.base_url}: about "
            f"{sent:,} input tokens, at most {answered:,} output tokens. Neighbours shown: "
            f"{near}."
        )
        self.send_button.setEnabled(not self.job.busy)

    def send(self) -> None:
        if self.ask is None:
            return
        ask, settings = self.ask, self.settings()
        try:
            key = key_for(settings)
        except LiveError as exc:
            self.status.setText(str(exc))
            return
        skill, near = self.skill.name, [s.name for s in ask.neighbours]
        existing = self._existing()
        skills = list(self.registry.active.values())  # what the worker reads

        def work() -> tuple[list[Draft], int]:
            text = send_ask(ask, settings, key)
            drafts, refused = read_drafts(text, skill, near)
            # the leak check's rarities, here: 250 ms on the GUI thread at 10,000 skills
            return mark_drafts(drafts, skill, LeakCheck(skills), existing), refused

        self.send_button.setEnabled(False)
        self.status.setText("Asking the model…")
        self.job.submit(work, self._landed)

    def _existing(self) -> list[str]:
        from ...core.projects.suites import load_suite

        path = self.suite.text().strip()
        if not path or not os.path.exists(path):
            return []
        try:
            return [case.query for case in load_suite(path).cases]
        except SuiteError:
            return []

    def _landed(self, result: tuple[list[Draft], int] | None, error: str | None) -> None:
        self.send_button.setEnabled(self.ask is not None)
        if result is None:
            self.status.setText(_plain(error or ""))
            return
        self.drafts, refused = result
        self.list.clear()
        for draft in self.drafts:
            text = f"[{KIND_WORDS[draft.kind]}] {draft.query} → {draft.expect or 'none'}"
            if draft.leak is not None:
                text += f"   LEAK: {draft.leak.reason}"
            if draft.duplicate:
                text += f"   REPEATS: {draft.duplicate}"
            item = QListWidgetItem(text)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if draft.kept else Qt.CheckState.Unchecked)
            self.list.addItem(item)
        leaking = sum(d.leak is not None for d in self.drafts)
        said = f"{counted(len(self.drafts), 'draft')}: {leaking} leaking"
        said += f", {refused} not read" if refused else ""
        self.status.setText(said + ". Check the ones to keep.")
        self.write_button.setEnabled(bool(self.drafts))

    def checked(self) -> list[Draft]:
        return [
            draft
            for number, draft in enumerate(self.drafts)
            if self.list.item(number).checkState() == Qt.CheckState.Checked
        ]

    def write_checked(self) -> int:
        """Append the checked drafts to the suite; the number written."""
        path = self.suite.text().strip()
        if not path:
            self.status.setText("Name the suite file the checked drafts go to.")
            return 0
        written = 0
        for draft in self.checked():
            try:
                add_case(path, draft.query, [draft.expect] if draft.expect else [], self.key)
            except SuiteError as exc:
                self.status.setText(str(exc))
                return written
            written += 1
        self.status.setText(f"{counted(written, 'case')} appended to {path} ({self.key}).")
        return written


def _plain(error: str) -> str:
    """The error of a failed request as the user reads it."""
    return error.split(": ", 1)[1] if error.startswith(("SuggestError: ", "LiveError: ")) else error
