"""The suite runner: a suite's cases run against the skills on screen, as they change.

Cases run a few at a time between events (suite_slices.py), so a suite of hundreds of
cases over 10,000 skills never freezes typing, and a run that an edit makes stale is
simply restarted.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    Qt,
    Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...core.model.text import counted
from ...core.projects.open_project import OpenProject
from ...core.projects.project import Project, UsageError
from ...core.projects.suite_cases import Suite, SuiteError
from ...core.projects.suite_home import suite_home
from ...core.projects.suite_leaks import expected_skills, suite_leaks
from ...core.projects.suite_scope import suite_project
from ...core.projects.suite_writing import create_suite
from ...core.projects.suites import (
    CaseResult,
    SuiteReport,
    load_suite,
    report_of,
)
from ...core.ranking.leaks import Leak, LeakCheck
from ...core.scanning.registry import Registry
from ..infra.background import LatestJob
from ..infra.column_fit import RoomFor
from ..infra.deferred_until_shown import CatchUp
from ..infra.elided_combo import ElidedCombo
from ..infra.theme import bar_style, colour, on_theme_change
from ..models.app_context import AppContext
from ..models.suite_models import CasesModel, ConfusionModel, SkillsModel
from .suite_offers import NEW_SUITE, followed_suite, new_suite_start, offered_suites
from .suite_slices import CaseSlices
from .workbench.panel_parts import FixedLine

RERUN_DELAY_MS = 400  # after the last change, before an automatic re-run
KINDS = {
    "suite": "SkillStudio suite",
    "eval_set": "skill-creator eval set",
    "skill_lab": "Skill Lab triggers",
    "waza": "waza trigger tests",
    "skill_reach": "skill-reach query set",
}


def _table(model: QAbstractTableModel, parent: QWidget) -> QTableView:
    view = QTableView(parent)
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    # Sized once a run has finished (_set_report): ResizeToContents measured every
    # row again after each slice of a run, 50-120 ms at 10,000 skills.
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    view.verticalHeader().hide()
    return view


TABS = (  # the result tabs: plain titles, the statistics' names in the tooltips
    ("Cases", "Each request of the suite, what it expected and which skill it got"),
    (
        "Per skill: hits and misses",
        "For each skill: how often it was picked when expected (hits), picked when "
        "another was expected (wrong picks) and not picked when expected (misses); "
        "precision is the share of its picks that were right, recall the share of its "
        "expected cases it was picked for",
    ),
    (
        "Which skill won instead",
        "Expected skill (rows) against the skill picked first (columns): the counts off "
        "the matching pairs are the cases another skill won. Double-click a count to list "
        "those cases",
    ),
)
CONFUSION_CAPTION = (
    "Rows: the skill a case expected. Columns: the skill picked first. A count off the "
    "matching pair is cases another skill won; double-click it to list them."
)
NO_SUITE = (
    "No suite open. A suite lists requests and the skill each should (or should not) "
    "pick; it runs again on every change, and in CI with `skillstudio test`. Start one "
    "with New…, or type a request in Try a Request and press “Add as test case…”. "
    "Open… also reads a skill-creator eval_set.json, a Skill Lab triggers.yaml, a waza "
    "trigger_tests.yaml or a skill-reach query set (JSON, YAML, JSONL or CSV)."
)


class SuiteRunner(QWidget):
    """Signals:
    request_chosen(str): a case's request, to try in the Try a Request panel.
    finished(): a run completed (the report is in `report`).
    """

    request_chosen = Signal(str)
    finished = Signal()

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        """Over `context`: its open projects' suites are offered, its match indexes
        answer, and its current project is the one of suites that neither name roots
        nor sit in a project (the suite shown follows it: `follow`)."""
        super().__init__(parent)
        self.context = context
        context.projects_changed.connect(self._on_projects_changed)
        context.current_changed.connect(self._follow)
        self.projects: list[Project] = []
        self.registries: list[Registry] = []
        self.suite: Suite | None = None
        self.project: Project | None = None
        self.registry: Registry | None = None
        self.report: SuiteReport | None = None
        self.last_run_ms = 0.0
        self._skills: dict[str, str] = {}  # suite path -> the skill an eval set is about
        self._own: dict[str, tuple[Project, Registry]] = {}  # suites outside the open projects
        self.slices = CaseSlices(
            context, self._on_slice, self._on_done, lambda why: self._show_message(why, True), self
        )
        self.leak_job = LatestJob(self)  # the leaking cases, as `test --leaks` finds them
        self._leaks_of: tuple[Registry, object, int] | None = None  # what they were found for
        self.leaks: dict[int, Leak] | None = None  # by case number; None: not known yet
        self._message = (NO_SUITE, False, False)  # the summary's text and tone
        self.catch_up = CatchUp(self, self.run, RERUN_DELAY_MS)
        # the suites a project keeps in the app's settings (a case added to a file its
        # skillstudio.yaml does not list), by the project's folder
        self.kept_suites: Callable[[str], list[str]] = lambda _base: []
        self.unsaved: Callable[[Registry | None], int] = lambda _r: 0  # its tabs with edits

        self.suite_box = ElidedCombo(self)
        # Its share of the row, the name elided (the whole path in the tooltip): sized to
        # its contents, after a theme change its minimum was the whole name, and the
        # panel grew wider than its dock at 1024 px ("Re-run on cha…" cut off).
        self.suite_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.suite_box.setMinimumContentsLength(12)
        self.suite_box.setToolTip("The suite to run")
        self.suite_box.currentIndexChanged.connect(self._on_suite_chosen)

        self.open_button = QPushButton("Open…", self)
        self.open_button.setToolTip(
            "Open a SkillStudio suite, a skill-creator eval_set.json, a Skill Lab triggers.yaml, "
            "a waza trigger_tests.yaml or a skill-reach query set (.json, .yaml, .jsonl, .csv)"
        )
        self.open_button.clicked.connect(self._on_open)
        self.new_button = QPushButton("New…", self)
        self.new_button.clicked.connect(self._on_new)
        self.run_button = QPushButton("Run", self)
        self.run_button.setToolTip("Run the suite again (F6)")
        self.run_button.clicked.connect(lambda: self.run(rescan=True))
        self.auto_box = QCheckBox("Re-run on changes", self)
        self.auto_box.setChecked(True)
        self.auto_box.setToolTip("Run again whenever a skill changes, saved or not")
        self.failures_box = QCheckBox("Failures only", self)
        self.failures_box.setToolTip("Show only the cases that failed")
        self.failures_box.toggled.connect(lambda _on: self._set_filter(None))
        top = QHBoxLayout()
        top.addWidget(QLabel("Suite:", self))
        top.addWidget(self.suite_box, 1)
        for widget in (self.open_button, self.new_button, self.run_button, self.auto_box):
            top.addWidget(widget)
        self.summary = FixedLine(self)  # wrapped, without height-for-width: no scroll
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        on_theme_change(self.summary, lambda: self._show_message(*self._message))
        self.filter_note = QLabel(self)
        self.filter_note.setVisible(False)
        self.filter_note.linkActivated.connect(lambda _link: self._set_filter(None))

        self.cases_model = CasesModel(self)
        self.cases = _table(self.cases_model, self)
        # The request keeps 40 % of the width, the others (the note's full text in its
        # tooltip) share the rest: no column off the right edge behind a scroll bar.
        self.request_room = RoomFor(self.cases, 1, 0.4)
        # A Note column with nothing in it (every case passed, none commented) goes.
        for change in (self.cases_model.modelReset, self.cases_model.dataChanged):
            change.connect(
                lambda *_a: self.cases.setColumnHidden(5, not self.cases_model.has_notes())
            )
        self.cases.doubleClicked.connect(self._on_case_activated)
        self.skills_model = SkillsModel(self)
        self.skills = _table(self.skills_model, self)
        self.confusion_model = ConfusionModel(self)
        self.confusion = _table(self.confusion_model, self)
        self.confusion.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.confusion.verticalHeader().show()
        self.confusion.doubleClicked.connect(self._on_confusion_activated)
        # The table has no corner to say what its rows and columns are: a line above does.
        self.confusion_page = QWidget(self)
        page = QVBoxLayout(self.confusion_page)
        page.setContentsMargins(0, 4, 0, 0)
        self.confusion_caption = QLabel(CONFUSION_CAPTION, self.confusion_page)
        self.confusion_caption.setWordWrap(True)
        page.addWidget(self.confusion_caption)
        page.addWidget(self.confusion, 1)
        self.tabs = QTabWidget(self)
        pages = (self.cases, self.skills, self.confusion_page)
        for view, (title, tip) in zip(pages, TABS, strict=True):
            self.tabs.setTabToolTip(self.tabs.addTab(view, title), tip)
        # A filter of the cases, beside their tabs (the row above keeps room for the
        # suite's name at 1024 px).
        self.tabs.setCornerWidget(self.failures_box, Qt.Corner.TopRightCorner)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(self.filter_note)
        layout.addWidget(self.tabs, 1)

        self.rerun_timer = self.catch_up.timer  # a pause in the changes, then run again
        self._show_message(NO_SUITE)

    # -- suites ----------------------------------------------------------------------
    def clear(self) -> None:
        """No suite: another folder is opened (its suites come with its projects)."""
        self._stop()
        self.rerun_timer.stop()
        self.suite_box.blockSignals(True)
        self.suite_box.clear()
        self.suite_box.blockSignals(False)
        self.suite = self.project = self.registry = None
        self._own.clear()
        self._skills.clear()
        self.leak_job.drop()
        self._leaks_of, self.leaks = None, None
        self.cases_model.set_cases([])
        self._set_report(None)
        self._set_filter(None)
        self._show_message(NO_SUITE)

    def shown_suite(self) -> str | None:
        """The SkillStudio suite shown (where a new case goes by default), if any."""
        suite = self.suite
        return suite.path if suite is not None and suite.kind == "suite" else None

    def _on_projects_changed(self) -> None:
        """The context's open projects; the suites their skillstudio.yaml lists (and those
        the app keeps for them) are offered (suite_offers.py).
        Projects of other folders (another folder opened, or none): the suites shown
        go, those of the new projects come."""
        projects, registries = self.context.projects, self.context.registries
        bases = {p.base for p in projects}
        if not bases & {p.base for p in self.projects}:
            self.clear()
        self.projects, self.registries = projects, registries
        self._own.clear()
        known = [self.suite_box.itemData(i) for i in range(self.suite_box.count())]
        self.suite_box.blockSignals(True)
        for path in offered_suites(projects, self.kept_suites):
            if path not in known:
                self._add_item(path)
        self.suite_box.blockSignals(False)
        if self.suite_box.count():
            self.run(rescan=True)

    def _follow(self, current: OpenProject | None) -> None:
        """The user works on `current` now (the context's): when the suite shown is another
        open project's, this project's first suite is shown instead (run when the
        panel is on screen); a suite opened by hand, or a project without suites, stays."""
        base = current.project.base if current is not None else None
        wanted = followed_suite(self.projects, base, self.suite_box.currentData())
        number = self.suite_box.findData(wanted) if wanted is not None else -1
        if number < 0:
            return
        self.suite_box.blockSignals(True)
        self.suite_box.setCurrentIndex(number)
        self.suite_box.blockSignals(False)
        self._stop()  # the other suite's results go now, not when this one runs
        self.suite = None
        self.cases_model.set_cases([])
        self._set_report(None)
        self._show_message(f"{self.suite_box.currentText()}: runs when this panel is shown.")
        self.run(rescan=True)

    def _add_item(self, path: str) -> int:
        label = os.path.relpath(path, os.path.dirname(os.path.dirname(os.path.dirname(path))))
        self.suite_box.addItem(label, path)
        number = self.suite_box.count() - 1
        self.suite_box.setItemData(number, path, Qt.ItemDataRole.ToolTipRole)
        return number

    def open_suite(self, path: str) -> bool:
        """Add a suite file (any of the three formats) and run it."""
        path = os.path.abspath(path)
        self.suite_box.blockSignals(True)
        number = self.suite_box.findData(path)
        if number < 0:
            number = self._add_item(path)
        self.suite_box.setCurrentIndex(number)
        self.suite_box.blockSignals(False)
        self._on_suite_chosen(number)
        return self.suite is not None and self.suite.path == path

    def _on_suite_chosen(self, number: int) -> None:
        path = self.suite_box.itemData(number)
        self.suite_box.setToolTip(path if isinstance(path, str) else "The suite to run")
        if isinstance(path, str) and path:
            self.suite = None
            self.run(rescan=True, path=path, force=True)

    def _load(self, path: str) -> Suite | None:
        try:
            configs = [p.config for p in self.projects if p.config is not None]
            home = suite_home(path, [p.base for p in self.projects], configs)
            return load_suite(path, self._skills.get(path), home)
        except SuiteError as exc:
            if "names no skill" in str(exc) and path not in self._skills:
                skill = self.ask_skill(path, sorted({n for r in self.registries for n in r.active}))
                if skill:
                    self._skills[path] = skill
                    return self._load(path)
            self._show_message(str(exc), error=True)
            return None

    def ask_skill(self, path: str, names: list[str]) -> str | None:
        """The skill an eval set is about, when nothing around it says (tests replace this)."""
        name, ok = QInputDialog.getItem(
            self,
            "Import eval set",
            f"{os.path.basename(path)} names no skill. Which skill are its cases about?",
            names,
            0,
            True,
        )
        return name.strip() if ok and name.strip() else None

    def start_folder(self) -> str:
        """Where Open… and New… start: the shown suite's folder (it started in the first
        project's while a codex suite was shown), else the project worked on."""
        shown = self.suite_box.currentData()
        if isinstance(shown, str) and os.path.isdir(os.path.dirname(shown)):
            return os.path.dirname(shown)
        current = self.context.registry
        pairs = zip(self.projects, self.registries, strict=False)
        bases = [project.base for project, registry in pairs if registry is current]
        return (bases or [p.base for p in self.projects] or [os.getcwd()])[0]

    def ask_open_path(self) -> str | None:
        path, _filter = QFileDialog.getOpenFileName(
            self,
            "Open Suite",
            self.start_folder(),
            "Suites (*.yaml *.yml *.json *.jsonl *.ndjson *.csv);;All files (*)",
        )
        return path or None

    def ask_new_path(self) -> str | None:
        start = os.path.join(self.start_folder(), NEW_SUITE)  # by the suite shown
        if self.suite_box.currentData() is None:  # a project's: in its suites folder
            start = new_suite_start(self.start_folder())
        path, _filter = QFileDialog.getSaveFileName(
            self,
            "New Suite",
            start,
            "SkillStudio suites (*.yaml *.yml)",
        )
        return path or None

    def _on_open(self) -> None:
        path = self.ask_open_path()
        if path:
            self.open_suite(path)

    def _on_new(self) -> None:
        path = self.ask_new_path()
        if not path:
            return
        try:
            create_suite(path)
        except (SuiteError, OSError) as exc:
            self._show_message(f"Not created: {exc}", error=True)
            return
        self.open_suite(path)

    def suite_changed(self, path: str) -> None:
        """A suite file was written (a case was added): it is shown (added to the list
        when new) and run at once."""
        if self.suite is not None and os.path.abspath(path) == os.path.abspath(self.suite.path):
            self.run()
        else:
            self.open_suite(path)

    # -- which skills answer -----------------------------------------------------------
    def _resolve(self, suite: Suite, rescan: bool) -> tuple[Project, Registry]:
        """The project `skillstudio test` would run the suite against (core's
        suite_project, standing in the open project that lists it or the current one):
        an open project is used as it is on screen; another one is scanned here and
        kept until the next Run."""
        pairs = list(zip(self.projects, self.registries, strict=False))
        current = self.context.registry
        pairs.sort(key=lambda pair: pair[1] is not current)  # the current project first
        wanted = suite_project(suite, open_projects=[project for project, _ in pairs])
        for project, registry in pairs:
            if project is wanted:
                return project, registry
        path = os.path.abspath(suite.path)
        own = self._own.get(path)
        if own is None or rescan:
            registry = wanted.registry()
            registry.scan()
            own = self._own[path] = (wanted, registry)
        return own

    # -- running -----------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.slices.running

    def skills_changed(self) -> None:
        """A skill changed on screen or on disk: run again after a pause in the changes."""
        if self.suite_box.count() == 0 or not self.auto_box.isChecked():
            return
        self.catch_up.soon()

    def run(self, rescan: bool = False, path: str | None = None, force: bool = False) -> bool:
        """(Re)start a run: the suite file is read again, its cases run a slice at a time.

        A hidden runner only notes that it is stale and runs when shown (`force`
        runs anyway): at 10,000 skills a case costs about 70 ms."""
        self.rerun_timer.stop()
        if not (self.catch_up.on_screen() or force):
            self.catch_up.stale = True
            return False
        self.catch_up.stale = False
        current = self.suite_box.currentData()
        path = path or (current if isinstance(current, str) and current else None)
        if path is None:
            return False
        suite = self._load(path)
        if suite is None:
            self._stop()
            self.cases_model.set_cases([])
            self._set_report(None)
            return False
        try:
            self.project, self.registry = self._resolve(suite, rescan)
        except (UsageError, OSError) as exc:
            self._show_message(f"{path}: no skills to run against ({exc})", error=True)
            return False
        self.suite = suite
        if [c.query for c in self.cases_model.cases] != [c.query for c in suite.cases]:
            self.cases_model.set_cases(suite.cases)
        self._show_message(f"Running {counted(len(suite.cases), 'case')}…")
        self.slices.start(suite, self.project, self.registry)
        return True

    def _check_leaks(self, suite: Suite, registry: Registry) -> None:
        """The cases whose request leaks a skill they expect (it names the skill, or
        leans on its rarest words: core/projects/suite_leaks.py), as `skillstudio test
        --leaks` finds them over the project the suite runs against. Asked once a run is
        done (never beside its slices), worked out off the GUI thread (a quarter of a
        second at 10,000 skills) only when the cases or the skills changed; the marks
        shown stay until the new ones land, unless the cases changed."""
        cases = (suite.path, tuple((c.query, tuple(expected_skills(c))) for c in suite.cases))
        if self._leaks_of is None or self._leaks_of[1] != cases:
            self.leaks = None  # other cases: their marks went with them
            self.cases_model.set_leaks({})
        elif self._leaks_of == (registry, cases, registry.version):
            return
        self._leaks_of = (registry, cases, registry.version)
        skills = list(registry.active.values())  # what the worker reads

        def work() -> dict[int, Leak]:
            numbers = {id(case): number for number, case in enumerate(suite.cases)}
            return {numbers[id(f.case)]: f.leak for f in suite_leaks(suite, LeakCheck(skills))}

        self.leak_job.submit(work, self._on_leaks)

    def _on_leaks(self, leaks: dict[int, Leak] | None, _error: str | None) -> None:
        if leaks is None:  # a core bug: the cases are shown unmarked, the run goes on
            return
        self.leaks = leaks
        self.cases_model.set_leaks(leaks)
        if self.report is not None and not self.running:
            self._show_report(self.report)

    def _on_slice(self, first: int, results: list[CaseResult]) -> None:
        self.cases_model.set_results(first, results)

    def _on_done(self, results: list[CaseResult], ms: float) -> Iterator[None]:
        """A run's end in steps, a slice each (suite_slices.py): the report and its
        verdict, then each table's columns sized to their contents."""
        self.last_run_ms = ms
        if self.suite is not None and self.registry is not None:
            self._check_leaks(self.suite, self.registry)
        report = report_of(results)
        self._set_report(report)
        self._show_report(report)
        for view in (self.cases, self.skills, self.confusion) if self.suite else ():
            yield
            header = view.horizontalHeader()
            for column in range(header.count()):
                # A stretched column takes what is left whatever its text (measuring
                # the cases' requests and notes took 10-15 ms of the 16 at 40 cases).
                if header.sectionResizeMode(column) != QHeaderView.ResizeMode.Stretch:
                    view.resizeColumnToContents(column)
            if view is self.cases:
                self.request_room.fit()  # (the request keeps its share once sized)
        self.finished.emit()

    def run_to_end(self) -> SuiteReport | None:
        """Finish the current run now (tests, and the smoke test)."""
        self.slices.run_to_end()
        return self.report

    def _stop(self) -> None:
        self.slices.stop()

    def _set_report(self, report: SuiteReport | None) -> None:
        self.report = report
        self.skills_model.set_report(report)
        self.confusion_model.set_report(report)
        if report is not None and self.suite is not None:
            self.cases_model.refilter()

    def _show_report(self, report: SuiteReport) -> None:
        """The run's verdict, with the leaking cases once they are known."""
        if self.suite is None:
            return
        project = self.project
        against = (
            f"{os.path.basename(project.base)} ({project.profile.name} profile)"
            if project is not None
            else "?"
        )
        kind = KINDS.get(self.suite.kind, self.suite.kind)
        verdict = f"{report.passed} passed, {report.failed} failed"
        unsaved = self.unsaved(self.registry)  # read as on screen: `skillstudio test` may differ
        verdict += f" with {counted(unsaved, 'unsaved skill')}" if unsaved else ""
        if report.model_only:
            verdict += f", {report.model_only} for eval (expect_model)"
        leaking = (
            f" · ⚠ {counted(len(self.leaks), 'leaking case')}: they measure less than they "
            "seem (the tooltips say why)"
            if self.leaks
            else ""
        )
        self._show_message(
            f"{verdict} · {counted(len(report.results), 'case')} · {kind} · on {against} · "
            f"{self.last_run_ms:.0f} ms{leaking}",
            error=report.failed > 0,
            ok=report.failed == 0,
        )

    def _show_message(self, text: str, error: bool = False, ok: bool = False) -> None:
        self._message = (text, error, ok)
        self.summary.setText(text)
        if error:
            self.summary.setStyleSheet(bar_style("error"))
        elif ok:
            self.summary.setStyleSheet(f"color:{colour('string')};font-weight:bold;padding:6px")
        else:
            self.summary.setStyleSheet("padding:6px")

    # -- browsing the results ------------------------------------------------------------
    def _set_filter(self, pair: tuple[str, str] | None) -> None:
        self.cases_model.set_filter(self.failures_box.isChecked(), pair)
        if pair is None:
            self.filter_note.setVisible(False)
        else:
            self.filter_note.setText(
                f"Showing the cases that expected <b>{pair[0]}</b> and got <b>{pair[1]}</b>. "
                '<a href="all">Show all</a>'
            )
            self.filter_note.setVisible(True)

    def _on_confusion_activated(self, index: QModelIndex) -> None:
        if index.isValid():
            self._set_filter(self.confusion_model.pair(index))
            self.tabs.setCurrentWidget(self.cases)

    def _on_case_activated(self, index: QModelIndex) -> None:
        case = self.cases_model.case_at(index.row())
        if case is not None:
            self.request_chosen.emit(case.query)
