"""File › New Skill (and the tree's Rename… and Duplicate…): says which folder the
skill goes in, and turns what is typed into a valid name as it is typed ("PDF Filler!"
-> pdf-filler), keeping the typed words as the heading; nothing typed is lost to a
refusal (Rename asked in a plain text box, then closed on a bad name with the text gone).
New Skill offers only folders an agent loads (core's `new_skill_places`), each with the
agent that loads it; several: a choice, the first chosen (File › New Skill: the open
skill's folder, said)."""

from __future__ import annotations

import os

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from ...core.editing.skill_ops import SLUG, NewSkillPlace, heading_of, suggest_name
from ..infra.places import home_relative

_TITLES = {"new": "New skill", "rename": "Rename skill", "duplicate": "Duplicate skill"}


class NewSkillDialog(QDialog):
    """The name typed, the folder and heading it gives; OK only for a usable name.

    `action`: "new", "rename" or "duplicate"; the last two name a copy or the new
    name of the skill folder `current` (a folder name in `root`). `places`: where a new
    skill may go (the first is `root`), each with the agent that loads it; `beside`: the
    place of the open skill, said so."""

    def __init__(
        self,
        root: str,
        parent: QWidget | None = None,
        action: str = "new",
        current: str = "",
        places: list[NewSkillPlace] | None = None,
        beside: str = "",
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(_TITLES[action])
        self.root = root
        self.action = action
        self.current = current
        self.places = places or []
        self.where = QLabel(self._where_text(root), self)
        self.where.setToolTip(root)
        self.choice = QComboBox(self)  # shown when there are several places
        for place in self.places:
            mark = ", beside the open skill" if place.folder == beside else ""
            self.choice.addItem(f"{home_relative(place.folder)}  ({place.loaded_by}{mark})")
            self.choice.setItemData(self.choice.count() - 1, place.folder)
        self.choice.setVisible(len(self.places) > 1)
        self.where.setVisible(len(self.places) <= 1)
        self.choice.currentIndexChanged.connect(self._choose)
        self.name_box = QLineEdit(self)
        self.name_box.setPlaceholderText("e.g. PDF form filler")
        self.result_label = QLabel(self)
        self.result_label.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText({"new": "Create", "rename": "Rename", "duplicate": "Duplicate"}[action])
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        where = QVBoxLayout()
        where.addWidget(self.where)
        where.addWidget(self.choice)
        form.addRow("Folder:", where)
        form.addRow("Name or title:" if action == "new" else "New name:", self.name_box)
        form.addRow("", self.result_label)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self.name_box.textChanged.connect(self._update)
        if action != "new":
            self.name_box.setText(current + ("-copy" if action == "duplicate" else ""))
            self.name_box.selectAll()
        self._update()
        # the name first: a reviewer typed "PR Triage" into the folder box it opened on
        # (the combo's keyboard search changed the folder; the name stayed empty)
        self.setTabOrder(self.name_box, self.choice)
        self.name_box.setFocus()
        self.resize(520, self.sizeHint().height())

    def _where_text(self, folder: str) -> str:
        place = next((p for p in self.places if p.folder == folder), None)
        loaded = f" (loaded by {place.loaded_by})" if place is not None else ""
        return f"In <b>{home_relative(folder)}</b>{loaded}"

    def _choose(self, index: int) -> None:
        if 0 <= index < len(self.places):
            self.root = self.places[index].folder
            self.where.setText(self._where_text(self.root))
            self.where.setToolTip(self.root)
            self._update()

    @property
    def place(self) -> NewSkillPlace | None:
        """The place chosen (None when the dialog was given none)."""
        return next((p for p in self.places if p.folder == self.root), None)

    @property
    def name(self) -> str:
        """The skill's name (its folder's) from what is typed."""
        return suggest_name(self.name_box.text())

    @property
    def title(self) -> str:
        return heading_of(self.name, self.name_box.text())

    def problem(self) -> str:
        """Why OK is off ("" when it is on)."""
        name = self.name
        if not name:
            return "Type a name: letters or digits (it becomes lowercase-with-hyphens)."
        if not SLUG.fullmatch(name):
            return f"{name!r} is not a usable name."
        if self.action == "rename" and name == self.current:
            return "That is its name now: type another."
        if os.path.exists(os.path.join(self.root, name)):
            return f"{name}/ exists already in this folder: choose another name."
        return ""

    def _update(self) -> None:
        problem = self.problem()
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(not problem)
        if problem:
            self.result_label.setText(problem)
            return
        typed = self.name_box.text().strip()
        change = "" if typed == self.name else f" (from “{typed}”)"
        if self.action == "new":
            outcome = f"Creates <b>{self.name}/SKILL.md</b>{change}, headed “{self.title}”."
        elif self.action == "rename":
            outcome = f"Renames {self.current}/ to <b>{self.name}/</b>{change} and sets its name."
        else:
            outcome = f"Copies {self.current}/ to <b>{self.name}/</b>{change} and sets its name."
        self.result_label.setText(outcome)
