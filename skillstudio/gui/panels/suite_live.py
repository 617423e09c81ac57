"""Suites › Ask a model (docs/live.md, "In the app"): the suite shown put to a real
model the way the agent asks it, as `skillstudio eval` does: each case's verdict by the
model's picks (pass, fail or inconclusive: core/live/stats.py's rule), and the offline
estimate's agreement with the model: top-1 (the estimate's likely first against each
run's pick) and per band (of the runs where a band held a skill, how often the model
picked one of its skills; `none`: the runs picking no skill).

The check itself (the endpoint, the plan and what it spends, Send, progress, Cancel,
Test connection) is LivePanel's; this widget asks a suite's cases instead of one
request, and shows a case a row and the bands. The owner calls `set_suite(...)` when
the suite or its skills change (another suite drops a check still running).
"""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtWidgets import QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QWidget

from ...core.live.cache import AnswerCache
from ...core.live.planning import Plan
from ...core.live.run import LiveReport
from ...core.live.stats import BANDS, NONE, LiveCase, agreement
from ...core.live.turns import turn_rates
from ...core.model.text import counted
from ...core.projects.eval_cases import eval_cases
from ...core.ranking.likely_index import LikelyIndex
from ...core.scanning.registry import Registry
from .live_panel import LivePanel
from .scrolled import scrolled
from .suite_runner import SuiteRunner

SUITE_INTRO = (
    "Asks a real model each request of this suite, as the agent would (as skillstudio "
    "eval does), and judges the cases by its picks; then says how well the estimate's "
    "bands agreed with it. Each run is one call; a paid service charges for it. You "
    "see the calls and tokens before Send."
)
CASE_COLUMNS = ("Request", "Expected", "Model's picks", "Verdict", "Turn 1 / any turn")
TURNS_COLUMN = 4  # shown with more than one turn: the hits at the first turn and at any
BAND_COLUMNS = ("Estimate's band", "Runs", "Picked one of its skills", "Rate (95 % CI)")
BAND_CAPTION = (
    "Agreement with the estimate, per band: of the runs where a band held a skill, how "
    "many picked one of its skills (none: runs picking no skill)."
)


def rate_text(rate: float | None, interval: list[float] | None) -> str:
    if rate is None:
        return "-"
    ci = f" ({interval[0] * 100:.0f}-{interval[1] * 100:.0f} %)" if interval else ""
    return f"{rate * 100:.0f} %{ci}"


def _item(text: str, tip: str = "") -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    if tip:
        item.setToolTip(tip)
    return item


class SuiteLivePanel(LivePanel):
    """LivePanel over a suite's cases: a row a case, the bands' agreement below."""

    def __init__(self, parent: QWidget | None = None, cache: AnswerCache | None = None) -> None:
        super().__init__(parent, cache)
        self.setObjectName("suite-live-panel")
        self.cases: list[LiveCase] = []
        self.intro.setText(SUITE_INTRO)
        self.ask_button.setToolTip(
            "Put the suite's requests to the model the way the agent asks them and judge "
            "each case by its picks. You are told what it will spend before anything is sent."
        )
        self.table.setColumnCount(len(CASE_COLUMNS))
        self.table.setHorizontalHeaderLabels(list(CASE_COLUMNS))
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.bands_caption = QLabel(BAND_CAPTION, self)
        self.bands_caption.setWordWrap(True)
        self.top1 = QLabel(self)
        self.top1.setWordWrap(True)
        self.bands = QTableWidget(0, len(BAND_COLUMNS), self)
        self.bands.setObjectName("suite-live-bands")
        self.bands.setHorizontalHeaderLabels(list(BAND_COLUMNS))
        self.bands.verticalHeader().setVisible(False)
        self.bands.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        box = self.box
        at = box.indexOf(self.exchange)
        for number, widget in enumerate((self.top1, self.bands_caption, self.bands)):
            box.insertWidget(at + number, widget)
            widget.hide()
        self.exchange.hide()  # one request's record: Try a Request's Ask a model has it
        box.setStretch(box.indexOf(self.table), 1)
        box.setStretch(box.indexOf(self.exchange), 0)

    def set_suite(
        self,
        registry: Registry | None,
        name: str,
        cases: list[LiveCase],
        options: dict[str, Any] | None = None,
        index: LikelyIndex | None = None,
        folder: str = "",
    ) -> None:
        """The suite shown (`name`, its path) and the skills it runs against (`folder`:
        the project's); another suite, or other requests, clear what was shown."""
        self.cases = cases
        key = "\n".join([name, *(case.query for case in cases)])
        if key != self.query:
            for widget in (self.top1, self.bands_caption, self.bands):
                widget.hide()
        self.set_request(registry, key, options, index, folder)

    def _cases(self) -> list[LiveCase] | str:
        if self.registry is None or not self.cases:
            return "Open a suite with cases first."
        return list(self.cases)

    def _show_request(self, checked: Plan, sent: bool, later: str = "") -> None:
        return  # the requests are many: `skillstudio eval --show-request` prints them

    def _show_exchange(self, report: LiveReport) -> None:
        return

    def _show(self, report: LiveReport) -> None:
        rule = report.plan.settings.rule
        self.table.setRowCount(0)
        for result in report.results:
            verdict = result.verdict(rule)
            picks = ", ".join(
                f"{name} {count}/{len(result.answers)}"
                for name, count in result.picks().most_common()
            )
            row = self.table.rowCount()
            self.table.insertRow(row)
            rates = turn_rates(result)
            first, anywhere = rates["first_turn"], rates["any_turn"]
            cells = (
                _item(result.case.query, result.case.query),
                _item(result.case.label()),
                _item(picks),
                _item(verdict.state, verdict.why),
                _item(
                    f"{first['hits']}/{first['answered']} · {anywhere['hits']}/"
                    f"{anywhere['answered']}",
                    "Answered runs meeting the expectation with the pick of the first "
                    "turn, and with the pick of any turn (the verdict's)",
                ),
            )
            for column, item in enumerate(cells):
                self.table.setItem(row, column, item)
        self.table.setColumnHidden(TURNS_COLUMN, report.plan.settings.turns <= 1)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setMinimumHeight(0)
        self.table.setMaximumHeight(16_777_215)  # LivePanel fits one request's rows
        self.table.show()
        self._show_bands(report)

    def _show_bands(self, report: LiveReport) -> None:
        data = agreement(report.results)
        top = data["top1"]
        self.top1.setText(
            f"The estimate's likely first was the model's pick in {top['agree']} of "
            f"{counted(top['runs'], 'answered run')}: "
            f"{rate_text(top['rate'], top['interval'])}."
            if top["runs"]
            else "No run was answered against an estimate: no agreement to show."
        )
        self.bands.setRowCount(0)
        for band in (*BANDS, NONE):
            values = data["bands"][band]
            row = self.bands.rowCount()
            self.bands.insertRow(row)
            cells = (
                band,
                f"{values['runs']:,}",
                f"{values['picked']:,}",
                rate_text(values["rate"], values["interval"]),
            )
            for column, text in enumerate(cells):
                self.bands.setItem(row, column, _item(text))
        self.bands.resizeColumnsToContents()
        rows = sum(self.bands.rowHeight(r) for r in range(self.bands.rowCount()))
        height = self.bands.horizontalHeader().height() + rows + 2 * self.bands.frameWidth()
        self.bands.setFixedHeight(height)
        for widget in (self.top1, self.bands_caption, self.bands):
            widget.show()

    def _summary(self, report: LiveReport) -> str:
        settings = report.plan.settings
        passed, failed, inconclusive = report.counts()
        parts = [
            f"{settings.model}, {report.date}: {passed} passed, {failed} failed, "
            f"{inconclusive} inconclusive of {counted(len(report.results), 'case')} "
            f"({counted(settings.runs, 'run')} each"
            + (f", up to {settings.turns} turns a run" if settings.turns > 1 else "")
            + f"), asked as: {report.plan.template}."
        ]
        answers = [a for r in report.results for a in r.answers]
        cached = sum(a.cached for a in answers)
        if cached:
            parts.append(f"{cached} runs from the cache.")
        errors = sorted({a.error for a in answers if a.error})
        if errors:
            parts.append("Without an answer: " + "; ".join(errors[:3]))
        if report.cancelled:
            parts.append("Cancelled.")
        return " ".join(parts)


ASK_TAB_TIP = (
    "Put the suite's requests to a real model the way the agent asks them: each case "
    "judged by the model's picks, and the estimate's agreement with the model per band"
)


def attach(runner: SuiteRunner) -> SuiteLivePanel:
    """A SuiteLivePanel as the runner's "Ask a model" tab, following the suite shown:
    another suite chosen drops what was shown (and a check still running); each
    finished offline run hands it the suite's cases and the skills they ran against."""
    panel = SuiteLivePanel(runner)
    runner.tabs.setTabToolTip(runner.tabs.addTab(scrolled(panel), "Ask a model"), ASK_TAB_TIP)

    def follow() -> None:
        suite, project, registry = runner.suite, runner.project, runner.registry
        if suite is None or project is None or registry is None:
            panel.set_suite(None, "", [])
            return
        name = os.path.basename(suite.path)
        opened = runner.context.open_project_of(registry)
        index = opened.likely_index() if opened is not None else None
        judged = eval_cases(suite.cases, registry, project.options, name).judged
        panel.set_suite(registry, suite.path, judged, project.options, index, project.base)

    runner.finished.connect(follow)
    runner.suite_box.currentIndexChanged.connect(lambda _i: panel.set_suite(None, "", []))
    return panel
