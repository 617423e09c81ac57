"""Try a Request's "Add as test case…": which suite file the case goes in (the file
chosen last time, else the one the Suites panel shows, else the project's first suite,
or a new file the user names), and the expected skills, pre-filled from what the panel
shows (the row the user chose, else the skill invoked, else the skills shown as likely,
else none). A request that invokes a skill by name is warned about: such a case tests
the invocation, not whether the skill's description gets it picked; so is a skill
proposed that ties (the same score) with another of another band.

The case is written under the key that means what was shown (PRODUCT.md section 7,
"One meaning per key"): where the profile's rules select (oasis, toolsets) or the
request invokes a skill by name, `expect`; where the model chooses, the likely skill
shown is the offline estimate's pick: `expect_likely`. The dialog shows the key (the
user may choose `expect_model`: the model's pick, judged by `skillstudio eval`) and
offers to list a suite the project's skillstudio.yaml does not list yet; the message
says where the case went and whether the file was created.

Every file offered is the project's own (suite_offers.py): a file of another folder
(the last one a case went to, the one the Suites panel showed) is not proposed; one
the user names there by hand is said to lie outside the project, and the listing
offer is disabled with the reason (skillstudio.yaml lists only its folder's suites)."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QWidget,
)

from ....core.editing.saving import SaveError
from ....core.model.matches import MatchResult
from ....core.model.paths import is_within
from ....core.projects.config import CONFIG_NAME
from ....core.projects.config_writer import list_suite, recording_profile
from ....core.projects.project import Project
from ....core.projects.suite_cases import SuiteError
from ....core.projects.suite_writing import ExpectKey, add_case
from ....core.ranking.estimate import LikelyCandidate, LikelyResult
from ....core.reading.yaml_io import EditError
from ...infra.theme import bar_style, on_theme_change
from ..suite_offers import new_suite_start, own_suites

TIES_NAMED = 3  # skills a tie note names at most
SUITES_LISTED = 50  # files of a project's suites/ folder offered (a folder of thousands: cut)
NEW_FILE = "New suite file…"
KEYS: dict[ExpectKey, str] = {
    "expect": "expect: what the profile's own rules select",
    "expect_likely": "expect_likely: the offline estimate's top pick",
    "expect_model": "expect_model: the model's pick (judged by skillstudio eval)",
}
LIST_IT = "List it in {config} (suites:), so skillstudio test runs it"
LIST_TIP = (
    f"Add the suite file to 'suites:' in the project's {CONFIG_NAME} (every other "
    "line of it kept); unchecked, this app remembers the suite for the project"
)
OUTSIDE = (
    "{path} is outside this project ({base}): its {config} lists only suites in its "
    "folder, and this app will not propose the file again for the project."
)


def is_own(project: Project, path: str) -> bool:
    """Whether the suite file at `path` lies in the project's folder."""
    return is_within(os.path.abspath(path), os.path.abspath(project.base))


def expect_key(project: Project, result: MatchResult) -> ExpectKey:
    """The key that means what the panel shows: where the model chooses and no skill is
    invoked by name, the likely skill is the estimate's pick (`expect_likely`);
    otherwise what the rules select (`expect`)."""
    if project.profile.model_chooses and not result.explicit:
        return "expect_likely"
    return "expect"


def is_listed(project: Project, path: str) -> bool:
    """Whether the project's skillstudio.yaml lists the suite at `path`."""
    listed = project.config.suites if project.config is not None else []
    return os.path.abspath(path) in {os.path.abspath(p) for p in listed}


@dataclass(frozen=True, slots=True)
class CaseQuestion:
    """What the dialog asks about: the request, the suite files offered and the default,
    the expectation proposed and its key, and the project (which suites it lists)."""

    query: str
    suites: list[str]
    default: str
    proposed: str
    key: ExpectKey
    project: Project


@dataclass(frozen=True, slots=True)
class CaseAnswer:
    """The suite file, the expected skills as typed (comma-separated or 'none'), the key
    they go under, and whether to list the file in skillstudio.yaml."""

    path: str
    typed: str
    key: ExpectKey = "expect"
    list_it: bool = False


@dataclass(frozen=True, slots=True)
class Added:
    """A case appended: the suite file, whether it was created, whether the project's
    skillstudio.yaml lists it (now), and the message to show."""

    path: str
    created: bool
    listed: bool
    message: str


def suite_choices(
    project: Project, shown: str | None, last: str | None = None
) -> tuple[list[str], str]:
    """(the suite files offered, the default): the project's listed suites and the
    YAML files of its suites/ folder, and the file a case was last added to (`last`);
    the default is `last`, else the suite the Suites panel shows (`shown`) when it is
    one of them, else the first listed, else a new suites/<profile>.yaml. `last` and
    `shown` count only when they lie in the project's folder (another folder's are
    stale: the user opened this one since)."""
    was = own_suites(project.base, [last] if last else [])  # [] or [the file]
    seen = own_suites(project.base, [shown] if shown else [])
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
    if was and was[0] not in paths and os.path.isfile(was[0]):
        paths.append(was[0])  # a new file named the last time
    if was and was[0] in paths:
        return paths, was[0]
    fresh = os.path.abspath(os.path.join(folder, f"{project.profile.name}.yaml"))
    if seen and seen[0] in paths:
        return paths, seen[0]
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


def estimate_warning(question: CaseQuestion, likely: LikelyResult | None) -> str:
    """A warning when an `expect_likely` case would fail as soon as it is saved: the
    skill proposed (a row the user chose) is not the estimate's top pick, the first
    skill in the likely band, which is what `skillstudio test` judges."""
    if question.key != "expect_likely" or likely is None or question.proposed == "none":
        return ""
    names = [n.strip() for n in question.proposed.split(",")]
    first = likely.likely[0] if likely.likely else None
    if first is not None and first.name in names:
        return ""
    found = next((c for c in likely.candidates if c.name == names[0]), None)
    band = f"{found.band}{_chance(found)}" if found is not None else "unlikely"
    pick = f"the estimate's top pick is {first.name}{_chance(first)}" if first else ""
    same = (  # the Estimate column shows the same figure: what sets them apart
        " (the same estimate, but the band reads the chance)"
        if first is not None
        and found is not None
        and f"{first.strength:.2f}" == f"{found.strength:.2f}"
        else ""
    )
    return (
        f"{names[0]} is {band} for this request and {pick or 'no skill is likely'}{same}: "
        "saved as expect_likely, this case fails until the description (or the request) "
        "makes it the top pick."
    )


def _chance(cand: LikelyCandidate) -> str:
    """' (chance 62 %)', or '' where the band is not calibrated."""
    return "" if cand.chance is None else f" (chance {round(100 * cand.chance)} %)"


def tie_warning(question: CaseQuestion, likely: LikelyResult | None) -> str:
    """A note when the skill proposed scores exactly what another candidate of another
    band scores: the request's words do not tell them apart (only what the band reads
    does: how much of a description the request says), so the proposal says which it
    is and why, and names the other, rather than silently taking one."""
    if likely is None or question.proposed == "none":
        return ""
    name = question.proposed.split(",")[0].strip()
    mine = next((c for c in likely.candidates if c.name == name), None)
    if mine is None:
        return ""
    tied = [
        c
        for c in likely.candidates
        if c is not mine and c.band != mine.band and math.isclose(c.score, mine.score)
    ]
    if not tied:
        return ""
    others = ", ".join(f"{c.name} ({c.band})" for c in tied[:TIES_NAMED])
    return (
        f"{name} ({mine.band}) ties with {others}: the same score for this request; "
        f"{name} is proposed as the {mine.band} one. Choose the other's row to expect "
        "it instead, or make the descriptions say what sets them apart."
    )


def case_warning(
    question: CaseQuestion, result: MatchResult | None, likely: LikelyResult | None
) -> str:
    """What the dialog warns about: an invocation, a case the estimate would fail, a tie."""
    warnings = [invocation_warning(result) if result is not None else ""]
    warnings += [estimate_warning(question, likely), tie_warning(question, likely)]
    return " ".join(filter(None, warnings))


Ask = Callable[[CaseQuestion], "CaseAnswer | None"]


def add_to_suite(
    project: Project,
    query: str,
    result: MatchResult,
    likely: LikelyResult | None,
    shown_suite: str | None,
    ask: Ask,
    chosen: str | None = None,
    last: str | None = None,
) -> tuple[Added | None, str]:
    """Ask where and what (`ask(question)`), append the case under the key chosen, list
    the file in skillstudio.yaml when asked: (what was added or None, what to say: ""
    when cancelled). `chosen`: the row the user chose; `last`: the file a case was last
    added to."""
    suites, default = suite_choices(project, shown_suite, last)
    proposed = proposed_expectation(result, likely, chosen)
    key = expect_key(project, result)
    answer = ask(CaseQuestion(query, suites, default, proposed, key, project))
    if answer is None or not answer.path:
        return None, ""
    path = os.path.abspath(answer.path)
    expect = [p.strip() for p in answer.typed.split(",") if p.strip()]
    if expect == ["none"]:
        expect = []
    created = not os.path.exists(path)
    try:
        add_case(path, query, expect, answer.key)
    except (SuiteError, OSError) as exc:
        return None, f"Not added: {exc}"
    where = os.path.relpath(path, project.base) if is_own(project, path) else path
    said = ", ".join(expect) or "none"
    message = f"Added to {where}{' (created)' if created else ''}: {query} ({answer.key}: {said})"
    listed = is_listed(project, path)
    if not is_own(project, path):
        message += f"; outside this project: not listed in {CONFIG_NAME}"
    elif answer.list_it and not listed:
        try:
            message += "; listed in " + list_recording_profile(project, path)
            listed = True
        except (SaveError, EditError, OSError) as exc:
            message += f"; not listed in {CONFIG_NAME}: {exc}"
    return Added(path, created, listed, message), message


def list_recording_profile(project: Project, path: str) -> str:
    """List the suite `path` in the project's skillstudio.yaml, with `profile:` when the
    app reads the project as a profile chosen in it that detection does not give (the
    file naming none): what was written, in words. SaveError/EditError say why not."""
    write = partial(list_suite, project.base, path)
    _changed, note = recording_profile(project.base, write, project.chosen_profile)
    return CONFIG_NAME + note


class AddCaseDialog(QDialog):
    """The request, a suite file (a choice, or a new file) and the expected skills."""

    def __init__(
        self, question: CaseQuestion, warning: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add as test case")
        self.setMinimumWidth(480)  # the request and the suite's path read whole
        self.project = question.project
        self.base = question.project.base
        self.suite_box = QComboBox(self)
        self.suite_box.addItem(NEW_FILE, "")  # last: the suites go before it
        for path in question.suites:
            self._add(path)
        self.suite_box.setCurrentIndex(max(self.suite_box.findData(question.default), 0))
        self.suite_box.activated.connect(self._on_chosen)
        self.suite_box.currentIndexChanged.connect(lambda _n: self._show_listing())
        self.expect = QLineEdit(question.proposed, self)
        self.expect.setToolTip("The skills this request should pick, comma-separated, or none")
        self.key_box = QComboBox(self)
        for key, text in KEYS.items():
            self.key_box.addItem(text, key)
        self.key_box.setCurrentIndex(self.key_box.findData(question.key))
        self.key_box.setToolTip(
            "What the case checks: skillstudio test judges expect and expect_likely, "
            "skillstudio eval judges expect_model (else expect_likely)"
        )
        self.list_box = QCheckBox(LIST_IT.format(config=CONFIG_NAME), self)
        self.list_box.setChecked(True)
        request = QLabel(question.query, self)
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
        on_theme_change(self.warning, lambda: self.warning.setStyleSheet(bar_style("warn")))
        self.warning.setVisible(bool(warning))
        form.addRow(self.warning)
        form.addRow("Suite &file:", self.suite_box)
        self.outside = QLabel(self)  # a file of another folder, named by hand
        self.outside.setWordWrap(True)
        self.outside.setStyleSheet(bar_style("warn"))
        on_theme_change(self.outside, lambda: self.outside.setStyleSheet(bar_style("warn")))
        form.addRow(self.outside)
        self._ticked = True  # the listing offer as the user left it, while disabled
        form.addRow("&Expected skills:", self.expect)
        form.addRow("&Written as:", self.key_box)
        form.addRow(self.list_box)
        form.addRow(buttons)
        self._show_listing()

    def _show_listing(self) -> None:
        """The listing offer shows for a file the project's skillstudio.yaml lacks; for a
        file outside the project it is disabled, and the line above says why."""
        path = str(self.suite_box.currentData() or "")
        own = not path or is_own(self.project, path)
        self.list_box.setVisible(bool(path) and not is_listed(self.project, path))
        if own and not self.list_box.isEnabled():
            self.list_box.setChecked(self._ticked)
        elif not own and self.list_box.isEnabled():
            self._ticked = self.list_box.isChecked()
            self.list_box.setChecked(False)
        self.list_box.setEnabled(own)
        why = OUTSIDE.format(path=path, base=self.base, config=CONFIG_NAME)
        self.outside.setText("" if own else why)
        self.list_box.setToolTip(LIST_TIP if own else why)
        self.outside.setVisible(not own)

    def _add(self, path: str) -> int:
        label = os.path.relpath(path, self.base) if is_own(self.project, path) else path
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
            new_suite_start(self.base),
            "SkillStudio suites (*.yaml *.yml)",
        )
        if path:
            self.suite_box.setCurrentIndex(self._add(os.path.abspath(path)))
        else:
            self.suite_box.setCurrentIndex(0)

    def answer(self) -> CaseAnswer:
        """The suite file, the expected skills as typed, their key, and whether to list
        the file in skillstudio.yaml (offered only when it is not listed)."""
        path = str(self.suite_box.currentData() or "")
        offered = not self.list_box.isHidden() and self.list_box.isEnabled()
        list_it = bool(path) and offered and self.list_box.isChecked()
        return CaseAnswer(path, self.expect.text(), self.key_box.currentData(), list_it)
