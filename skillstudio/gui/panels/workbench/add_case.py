"""Try a Request's "Add as test case…": which suite file the case goes in (the file
chosen last time, else the one the Suites panel shows, else the project's first suite,
or a new file the user names), and the expected skills, pre-filled from what the panel
shows (the row the user chose, else the skill invoked, else the skills shown as likely,
else none). A request that invokes a skill by name is warned about: such a case tests
the invocation, not whether the skill's description gets it picked."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QWidget,
)

from ....core.model.matches import MatchResult
from ....core.projects.project import Project
from ....core.projects.suite_cases import SuiteError
from ....core.projects.suite_writing import add_case
from ....core.ranking.estimate import LikelyResult
from ...infra.theme import bar_style

SUITES_LISTED = 50  # files of a project's suites/ folder offered (a folder of thousands: cut)
NEW_FILE = "New suite file…"


def suite_choices(
    project: Project, shown: str | None, last: str | None = None
) -> tuple[list[str], str]:
    """(the suite files offered, the default): the project's listed suites and the
    YAML files of its suites/ folder, and the file a case was last added to (`last`);
    the default is `last`, else the suite the Suites panel shows (`shown`) when it is
    one of them, else the first listed, else a new suites/<profile>.yaml."""
    paths: list[str] = []
    if project.config is not None:
        paths += [os.path.abspath(p) for p in project.config.suites]
    folder = os.path.join(project.base, "suites")
    try:
        names = sorted(os.listdir(folder))[: SUITES_LISTED * 4]
    except OSError:
        names = []
    for name in names:
        path = os.path.abspath(os.path.join(folder, name))
        if name.endswith((".yaml", ".yml")) and os.path.isfile(path) and path not in paths:
            paths.append(path)
    paths = paths[:SUITES_LISTED]
    if last is not None and os.path.abspath(last) not in paths and os.path.isfile(last):
        paths.append(os.path.abspath(last))  # a new file named the last time
    if last is not None and os.path.abspath(last) in paths:
        return paths, os.path.abspath(last)
    fresh = os.path.abspath(os.path.join(folder, f"{project.profile.name}.yaml"))
    if shown is not None and os.path.abspath(shown) in paths:
        return paths, os.path.abspath(shown)
    if paths:
        return paths, paths[0]
    return [fresh], fresh


def proposed_expectation(
    result: MatchResult, likely: LikelyResult | None, chosen: str | None = None
) -> str:
    """What the panel shows as the answer: the row the user chose (`chosen`), else the
    skills selected (an invocation, or by rule), else the skills shown as likely, else
    "none"."""
    if chosen:
        return chosen
    if result.selected:
        return ", ".join(result.selected)
    if likely is not None and likely.likely:
        return ", ".join(c.name for c in likely.likely)
    return "none"


def invocation_warning(result: MatchResult) -> str:
    """A warning when the request names a skill itself ($name, /name, "use … skill")."""
    name = result.explicit
    if not name:
        return ""
    return (
        f"This request invokes {name} by name, so the agent loads it whatever the "
        "descriptions say: as a test case it checks the invocation, not that "
        f"{name} is picked for the words of the request. Leave out the skill's name "
        "to test matching."
    )


Ask = Callable[[str, list[str], str, str], "tuple[str, str] | None"]


def add_to_suite(
    project: Project,
    query: str,
    result: MatchResult,
    likely: LikelyResult | None,
    shown_suite: str | None,
    ask: Ask,
    chosen: str | None = None,
    last: str | None = None,
) -> tuple[str | None, str]:
    """Ask where and what (`ask(query, suites, default, proposed)`), append the case:
    (the suite file written or None, what to say: "" when cancelled). `chosen`: the
    row the user chose; `last`: the file a case was last added to."""
    suites, default = suite_choices(project, shown_suite, last)
    answer = ask(query, suites, default, proposed_expectation(result, likely, chosen))
    if answer is None or not answer[0]:
        return None, ""
    path, typed = answer
    expect = [p.strip() for p in typed.split(",") if p.strip()]
    if expect == ["none"]:
        expect = []
    try:
        add_case(path, query, expect)
    except (SuiteError, OSError) as exc:
        return None, f"Not added: {exc}"
    return path, f"Added to {os.path.relpath(path, project.base)}: {query}"


class AddCaseDialog(QDialog):
    """The request, a suite file (a choice, or a new file) and the expected skills."""

    def __init__(
        self,
        query: str,
        suites: list[str],
        default: str,
        proposed: str,
        base: str,
        warning: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add as test case")
        self.setMinimumWidth(480)  # the request and the suite's path read whole
        self.base = base
        self.suite_box = QComboBox(self)
        self.suite_box.addItem(NEW_FILE, "")  # last: the suites go before it
        for path in suites:
            self._add(path)
        self.suite_box.setCurrentIndex(max(self.suite_box.findData(default), 0))
        self.suite_box.activated.connect(self._on_chosen)
        self.expect = QLineEdit(proposed, self)
        self.expect.setToolTip("The skills this request should pick, comma-separated, or none")
        request = QLabel(query, self)
        request.setWordWrap(True)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow("Request:", request)
        self.warning = QLabel(warning, self)
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet(bar_style("warn"))
        self.warning.setVisible(bool(warning))
        form.addRow(self.warning)
        form.addRow("Suite &file:", self.suite_box)
        form.addRow("&Expected skills:", self.expect)
        form.addRow(buttons)

    def _add(self, path: str) -> int:
        label = os.path.relpath(path, self.base) if path.startswith(self.base) else path
        self.suite_box.insertItem(self.suite_box.count() - 1, label, path)
        number = self.suite_box.findData(path)
        self.suite_box.setItemData(number, path, 3)  # its tooltip: the whole path
        return number

    def _on_chosen(self, number: int) -> None:
        if self.suite_box.itemData(number):
            return
        path, _filter = QFileDialog.getSaveFileName(
            self,
            "New suite file",
            os.path.join(self.base, "suites", "new-suite.yaml"),
            "SkillStudio suites (*.yaml *.yml)",
        )
        if path:
            self.suite_box.setCurrentIndex(self._add(os.path.abspath(path)))
        else:
            self.suite_box.setCurrentIndex(0)

    def answer(self) -> tuple[str, str]:
        """(the suite file, the expected skills as typed)."""
        return str(self.suite_box.currentData() or ""), self.expect.text()
