"""What a skill's activation returns (the exact content, or the error) for given arguments."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from ....core.delivery.activation import activate
from ....core.model.delivered import Activation
from ....core.model.matches import MatchResult
from ....core.model.session import Session
from ....core.scanning.registry import Registry
from ...infra.deferred_until_shown import CatchUp


class ActivationView(QWidget):
    """Pick a skill, type arguments: the exact content or payload the agent receives.

    Signals:
    inputs_changed(): the skill, the arguments or the invoker changed (the panel
        answers again, debounced).
    """

    inputs_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.skill = QComboBox(self)
        self.skill.setEditable(True)  # a name that does not exist shows the agent's error
        # The names in a list model set in one call, the box sized without measuring
        # them: 10,000 addItems and their widths were 30-100 ms at the end of a scan.
        self.names = QStringListModel(self)
        self.skill.setModel(self.names)
        self.skill.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.skill.setMinimumContentsLength(16)
        self.args = QLineEdit(self)
        self.args.setPlaceholderText("arguments")
        self.invoker = QComboBox(self)
        self.invoker.addItem("invoked by the model", "model")
        self.invoker.addItem("invoked by the user", "user")
        self.invocation = QLabel(self)
        self.invocation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.output = QPlainTextEdit(self)
        self.output.setReadOnly(True)
        self.output.setFont(QFont("DejaVu Sans Mono"))
        form = QFormLayout()
        form.addRow("Skill", self.skill)
        form.addRow("Arguments", self.args)
        form.addRow("Invoker", self.invoker)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.invocation)
        layout.addWidget(self.output, 1)
        self.skill.currentTextChanged.connect(lambda _t: self.inputs_changed.emit())
        self.args.textChanged.connect(lambda _t: self.inputs_changed.emit())
        self.invoker.currentIndexChanged.connect(lambda _i: self.inputs_changed.emit())
        self.activation: Activation | None = None
        self.followed = ""  # the name `follow` last showed
        self._pending: list[str] | None = None  # names for the list, when next shown
        self.catch_up = CatchUp(self, self._fill)

    def set_skills(self, names: list[str]) -> None:
        """The current project's skills; a name of another project is not kept. The
        list is filled when the tab is shown (at the end of a scan it is not)."""
        current = self.skill.currentText()
        self._pending = names
        self.skill.blockSignals(True)
        self.skill.setCurrentText(current if current in names else "")
        self.skill.blockSignals(False)
        self.catch_up.now()

    def _fill(self) -> None:
        if self._pending is None:
            return
        names, self._pending = self._pending, None
        current = self.skill.currentText()
        self.skill.blockSignals(True)
        self.names.setStringList(names)
        self.skill.setCurrentText(current)
        self.skill.blockSignals(False)

    def follow(self, name: str, result: MatchResult | None = None) -> bool:
        """Show the activation of `name` (the row chosen in the ranking); True if it changed.

        When the request invokes that skill by name ("/deploy staging"), the arguments
        and the invoker are the request's, so the activation is the one it triggers."""
        self.followed = name  # (a name typed in the box since is the user's)
        if self.skill.currentText() == name:
            return False
        widgets = (self.skill, self.args, self.invoker)
        for widget in widgets:
            widget.blockSignals(True)
        self.skill.setCurrentText(name)
        if result is not None and result.explicit == name:
            self.args.setText(result.explicit_args)
            user = result.query.lstrip().startswith("/")
            self.invoker.setCurrentIndex(self.invoker.findData("user" if user else "model"))
        for widget in widgets:
            widget.blockSignals(False)
        return True

    def follows(self) -> bool:
        """Whether the box shows what `follow` put there (or nothing), not a typed name."""
        return self.skill.currentText().strip() in ("", self.followed)

    def refresh(self, registry: Registry, options: dict[str, Any], session: Session) -> None:
        name = self.skill.currentText().strip()
        if not name:
            self.activation = None
            self.output.setPlainText("")
            self.invocation.setText("Type a request and choose a skill in the ranking.")
            return
        invoker = self.invoker.currentData()
        args = self.args.text()
        self.activation = act = activate(
            registry, name, args, invoker=invoker, session=session.copy(), options=options
        )
        self.invocation.setText(
            f"As a user invocation: {registry.profile.invocation_prefix}{name}"
            f"{(' ' + args) if args else ''}" + (f" · mode: {act.mode}" if act.ok else "")
        )
        if not act.ok:
            text = "The agent receives this error:\n\n" + json.dumps(act.error, indent=2)
        else:
            payload = {k: v for k, v in act.to_json().items() if k not in ("content", "notes")}
            extra = [k for k in payload if k not in ("profile", "skill", "mode")]
            text = act.content
            if extra:
                text += "\n\n--- payload ---\n" + json.dumps(
                    {k: payload[k] for k in extra}, indent=2, ensure_ascii=False
                )
            if act.notes:
                text += "\n\n--- notes ---\n" + "\n".join(act.notes)
        if self.output.toPlainText() != text:
            self.output.setPlainText(text)
