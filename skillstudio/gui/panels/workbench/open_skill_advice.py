"""Try a Request's advice about the skill in the current tab: the toggle "This request
is for the open skill" (off by default: a request is not assumed to be meant for the
skill being edited) and the advice itself (outranked_by.py words it), shown at the top
of the explanation: a line of its own above the ranking or the tabs pushed them down
(under the pointer) each time it came and went."""

from __future__ import annotations

import html

from PySide6.QtWidgets import QCheckBox, QWidget

from ....core.model.skills import Skill
from ....core.projects.project import Project
from ....core.ranking.estimate import LikelyResult
from ....core.ranking.explanations import skill_not_loaded
from ....core.ranking.likely_explanation import open_skill_words
from ....core.ranking.likely_index import LikelyIndex
from ....core.scanning.registry import Registry
from .outranked_by import SuiteRequests, instead_text

TOGGLE_TIP = (
    "On: say which skills would be picked instead of the skill in the current tab, and "
    "how to make its description win this request. Off: a request is not assumed to be "
    "meant for the skill being edited."
)


class OpenSkillAdvice:
    """The toggle (`for_open`, placed by the panel) and the advice (`text`, "" for
    none; `html()` for the explanation)."""

    def __init__(self, parent: QWidget) -> None:
        self.for_open = QCheckBox("This request is for the open skill", parent)
        self.for_open.setToolTip(TOGGLE_TIP)
        self.for_open.setVisible(False)
        self.text = ""
        self.edited: str | None = None  # the path of the skill being edited
        self.suite_requests = SuiteRequests()  # "would pick X instead", from the suites

    def set_edited(self, path: str | None) -> bool:
        """The skill in the current tab; True if it changed (the toggle goes off: the
        next skill's requests are not assumed either)."""
        if path == self.edited:
            return False
        self.edited = path
        self.for_open.setChecked(False)
        return True

    def edited_skill(self, registry: Registry | None) -> Skill | None:
        """The skill being edited, if it is in `registry` (the current project's)."""
        return registry.by_path.get(self.edited) if registry and self.edited else None

    def suite_lines(
        self, project: Project | None, registry: Registry | None, index: LikelyIndex | None
    ) -> list[tuple[str, str]]:
        """(request, the skill ranked first) for the project's suite requests that
        expect the edited skill but rank another first (see outranked_by.py)."""
        skill = self.edited_skill(registry)
        if skill is None or index is None or registry is None:
            return []
        if project is None or not project.profile.model_chooses:
            return []
        return self.suite_requests.instead(project, registry, index, skill)

    def show(
        self,
        project: Project | None,
        registry: Registry | None,
        index: LikelyIndex | None,
        likely: LikelyResult | None,
    ) -> None:
        """The toggle where the model chooses and a skill is open in this project; the
        advice about the request (`likely`: what the headline speaks of) only if the
        toggle is on, the suite requests' line whenever some pick another skill."""
        skill = self.edited_skill(registry)
        chooses = project is not None and project.profile.model_chooses
        self.for_open.setVisible(skill is not None and chooses)
        for_open = self.for_open.isChecked()
        lacks = ""
        if for_open and skill is not None and index is not None and likely is not None:
            lacks = open_skill_words(index, skill, likely.query)
        text = instead_text(
            skill.name if skill is not None else "",
            likely,
            for_open,
            self.suite_lines(project, registry, index),
            skill_not_loaded(registry, skill) if skill is not None and registry else None,
            lacks,
        )
        self.text = text

    def html(self) -> str:
        """The advice as the explanation's first paragraphs ("" for none)."""
        if not self.text:
            return ""
        lines = "".join(f"<p>{html.escape(line)}</p>" for line in self.text.splitlines())
        return f"{lines}<hr>"
