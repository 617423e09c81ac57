"""Ask a model (docs/live.md): the request of Try a Request put to a real model the way
the project's agent asks it, N runs, the model's picks beside the offline estimate.

A thin adapter over core/live: the plan (the listing, the calls and tokens it will
spend) is made on the GUI thread when the user asks, shown, and sent only when the
user says so (nothing is spent unasked; runs the cache answers cost nothing and go at
once); the runs go off the GUI thread (background.LatestJob), the progress bar follows
them (each run's progress a queued signal's payload), Cancel stops them. Keys come
from the environment or the keyring, never from this panel. Below the picks, the
request (collapsed: its size and sha256, opening to its body) and each run's answer
(live_exchange.py); a new request clears them, and a check still running for the old
one is cancelled and never shown. "Test connection" sends one tiny request
(core/live/probe.py) off the GUI thread and says what answered and how fast.

How it asks (endpoint, API, model, Request as, runs, turns) is live_asking.py's: the
Settings `skillstudio eval` runs with. With K turns the picks say how many came at the
first turn; the record below shows every turn's request and answer.

Not wired into the window here: the owner calls `set_request(registry, query, options,
index, folder)` when the request or the skills change, `set_endpoints(...)` with the
endpoints of Settings › Model endpoints (with none, the tab says how to add one), and
`keep_in(store)` so Request as is remembered per project.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.live.cache import AnswerCache
from ...core.live.planning import LiveError, Plan, Settings, plan
from ...core.live.probe import ProbeResult, probe
from ...core.live.run import LiveReport, execute
from ...core.live.stats import LiveCase
from ...core.live.transcript import later_turns_shown, request_shown
from ...core.live.turns import first_turn, turn_rates
from ...core.model.text import counted
from ...core.ranking.likely_index import LikelyIndex
from ...core.scanning.registry import Registry
from ..infra.background import LatestJob
from ..infra.settings_store import AppSettings
from ..infra.settings_store import Endpoint as Configured
from .live_asking import AskingFields
from .live_exchange import ExchangeView

# What the tab does, in plain words, above its controls (a first-time reviewer read
# "Ask a model" and a box saying "ollama" without knowing what would happen).
INTRO = (
    "Asks a real model which skill it picks for this request, as the agent would. Each "
    "run is one call; a paid service charges for it. You see the calls and tokens "
    "before Send."
)
NO_ENDPOINT = (
    "No model endpoint is set up. Add one in Edit › Settings › Model endpoints (its "
    "URL, API, model and key), or type a service here (ollama, anthropic, openai, …) "
    "and a model."
)


class LivePanel(QWidget):
    """Signals:
    finished(object): the LiveReport of a finished (or cancelled) check.
    """

    finished = Signal(object)

    def __init__(self, parent: QWidget | None = None, cache: AnswerCache | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("live-panel")
        self.cache = cache or AnswerCache()
        self.registry: Registry | None = None
        self.query = ""
        self.options: dict[str, Any] = {}
        self.index: LikelyIndex | None = None
        self.planned: Plan | None = None
        self.cancel: threading.Event | None = None
        self.job = LatestJob(self)  # the runs of one check
        self.probe_job = LatestJob(self)  # a connection test
        self.report: LiveReport | None = None
        self._sent_for = ""  # the request (`query`) of the check sent last

        self.intro = QLabel(INTRO)
        self.intro.setWordWrap(True)
        self.fields = AskingFields(self)  # endpoint, API, model, Request as, runs, turns
        self.endpoint, self.model = self.fields.endpoint, self.fields.model
        self.runs, self.turns = self.fields.runs, self.fields.turns
        self.ask_button = QPushButton("Ask…")
        self.ask_button.setToolTip(
            "Put this request to the model the way the agent asks it (its listing and "
            "tool, no skill body) and show which skill it picks. You are told what it "
            "will spend before anything is sent."
        )
        self.send_button = QPushButton("Send")
        self.send_button.setToolTip("Send the calls counted above (a paid service charges)")
        self.cancel_button = QPushButton("Cancel")
        self.test_button = QPushButton("Test connection")
        self.test_button.setToolTip(
            "Send one tiny request (a word, a few tokens back) to this endpoint and model: "
            "says which model answered and how fast, or the error"
        )
        self.bar = QProgressBar()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["Skill", "Picked in", "Estimate"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.hide()  # until there are picks to show
        self.exchange = ExchangeView(self)  # the request sent, each run's answer

        # One field a row: beside the ranking at 1024x768 the tab is 280 px wide (the
        # four in one row scrolled sideways). The buttons above the fields, under what
        # Send spends: below them, Send was out of sight at 1024x768 until scrolled to.
        asking = QHBoxLayout()
        asking.addWidget(self.ask_button)
        asking.addWidget(self.test_button)
        asking.addStretch(1)
        controls = QHBoxLayout()
        controls.addWidget(self.bar, 1)
        controls.addWidget(self.send_button)
        controls.addWidget(self.cancel_button)
        self.box = layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.intro)
        layout.addWidget(self.status)  # in sight: no endpoint set up, what Send spends
        layout.addLayout(asking)
        layout.addLayout(controls)
        layout.addWidget(self.fields)
        layout.addWidget(self.table)  # as high as its rows: the answers take the rest
        layout.addWidget(self.exchange, 1)

        self.ask_button.clicked.connect(self.ask)
        self.send_button.clicked.connect(self.send)
        self.cancel_button.clicked.connect(self.stop)
        self.test_button.clicked.connect(self.test_connection)
        self.endpoint.currentTextChanged.connect(lambda _text: self._hint())
        self.model.textChanged.connect(lambda _text: self._hint())
        self._hinting = True  # the status shows the setup hint (not a plan or an answer)
        self._hint()

    # -- what the owner sets ---------------------------------------------------------
    def set_request(
        self,
        registry: Registry | None,
        query: str,
        options: dict[str, Any] | None = None,
        index: LikelyIndex | None = None,
        folder: str = "",
    ) -> None:
        """The request and the skills it is asked against (Try a Request's), `folder`
        the project's (its Request as is remembered there). Another request text (or
        another project's skills) clears what was shown for the old one, and drops its
        check: one still running is cancelled and its answer never lands."""
        self.fields.set_project(registry.profile if registry is not None else None, folder)
        changed = query != self.query or registry is not self.registry
        self.registry, self.query, self.options, self.index = registry, query, options or {}, index
        if changed:
            if self.cancel is not None:
                self.cancel.set()
                self.job.drop()
                self.cancel = None
            self.report = None
            self.table.setRowCount(0)
            self.table.hide()
            self.exchange.clear()
            self.bar.setValue(0)
        if self.cancel is None:  # a new request drops a plan not yet sent
            self.planned = None
            self.send_button.setEnabled(False)
        if changed:
            self._idle("")
            self._hinting = True
            self._hint()

    def set_endpoints(self, endpoints: Iterable[Configured]) -> None:
        """The endpoints of Settings › Model endpoints: offered first, the first one
        chosen; with none, the tab says how to add one."""
        self.fields.set_endpoints(list(endpoints))
        idle = self.cancel is None and self.planned is None and self.report is None
        self._hinting = self._hinting or idle
        self._hint()  # Settings' change said at once

    def keep_in(self, store: AppSettings | None) -> None:
        """Remember Request as per project in the app's settings."""
        self.fields.keep_in(store)

    def _unset(self) -> bool:
        """No endpoint is set up: none in Settings, and no model typed here."""
        configured = self.fields.configured
        return configured is not None and not configured and not self.model_name

    @property
    def model_name(self) -> str:
        return self.fields.model_name

    def _hint(self) -> None:
        """The status, while it shows no plan, answer or test: what to set up, or
        what Ask… will ask."""
        if not self._hinting:
            return
        endpoint = self.endpoint.currentText().strip()
        if self._unset():
            text = NO_ENDPOINT
        elif not endpoint or not self.model_name:
            text = "Choose an endpoint and a model, then Ask…."
        else:
            text = f"Ask… puts the request to {self.model_name} at {endpoint}."
        self.status.setText(text)

    def set_endpoint(self, endpoint: str, model: str = "", api: str = "") -> None:
        """The endpoint (a preset name or a base URL), model and API, from Settings."""
        self.fields.set_endpoint(endpoint, model, api)

    # -- asking --------------------------------------------------------------------------
    def _settings(self) -> Settings:
        return self.fields.settings()

    def _cases(self) -> list[LiveCase] | str:
        """What is asked: the request on screen, with no expectation (or what is
        missing, said)."""
        if self.registry is None or not self.query.strip():
            return "Type a request first."
        return [LiveCase(self.query, [], judged=False)]

    def ask(self) -> None:
        """Plan the check and say what it will spend; runs all in the cache go at once."""
        cases = self._cases()
        if isinstance(cases, str) or self.registry is None:
            self._idle(cases if isinstance(cases, str) else "Type a request first.")
            return
        profile = self.registry.profile
        if not profile.model_chooses:
            self._idle(f"{profile.name} picks skills by its own rules, not by a model.")
            return
        try:
            self.planned = plan(
                self.registry, cases, self._settings(), self.options, self.cache, index=self.index
            )
        except LiveError as exc:
            self._idle(f"{exc} {NO_ENDPOINT}" if self._unset() else str(exc))
            return
        self._show_request(self.planned, sent=False)
        calls = self.planned.calls
        if not calls:
            self.send()
            return
        sent, answered = self.planned.tokens()
        self._idle(
            f"About to send {counted(calls, 'call')} to {self.planned.settings.endpoint.base_url}"
            f" (model {self.planned.settings.model}): about {counted(sent, 'token')} in and "
            f"{answered:,} out. Send?"
        )
        self.send_button.setEnabled(True)

    def send(self) -> None:
        """Run the planned check off the GUI thread."""
        checked = self.planned
        if checked is None or self.cancel is not None:
            return
        self.cancel = threading.Event()
        self._sent_for = self.query
        cancel, cache = self.cancel, self.cache
        total = len(checked.items) * checked.settings.runs
        self.bar.setRange(0, total)
        self.bar.setValue(0)
        self.ask_button.setEnabled(False)
        self.send_button.setEnabled(False)
        self.test_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.status.setText("Asking…")

        def runs(report: Callable[[object], None]) -> LiveReport:
            # on the runs' threads: each step crosses as a payload (done, total, message)
            return execute(checked, cache, cancel, lambda *step: report(step))

        self.job.submit(runs, self._landed, self._progressed)

    def stop(self) -> None:
        if self.cancel is not None:
            self.cancel.set()
            self.status.setText("Cancelling…")

    def _progressed(self, step: tuple[int, int, str]) -> None:
        done, total, message = step
        self.bar.setRange(0, max(total, 1))
        # the runs report from several threads: a step may arrive after a later one
        self.bar.setValue(max(done, self.bar.value()))
        if message and self.cancel is not None and not self.cancel.is_set():
            self.status.setText(f"{self.bar.value()} of {total}: {message}")

    def _landed(self, report: LiveReport | None, error: str | None) -> None:
        self.cancel = None
        self.planned = None
        if report is None:
            self._idle(error or "The check failed.")
            return
        if self._sent_for != self.query:
            self._idle("")  # the request changed meanwhile: its answer is not this one's
            self._hint()
            return
        self.report = report
        self._show(report)
        self._show_exchange(report)
        self._idle(self._summary(report))
        self.finished.emit(report)

    def _show_exchange(self, report: LiveReport) -> None:
        answers = report.results[0].answers if report.results else []
        self._show_request(report.plan, sent=True, later=later_turns_shown(answers))
        self.exchange.show_answers(answers)

    def _show_request(self, checked: Plan, sent: bool, later: str = "") -> None:
        if not checked.items:
            self.exchange.show_request(None, sent)
            return
        item = checked.items[0]
        if item.harness is not None:
            self.exchange.show_request(None, sent, harness=item.harness)
            return
        url = checked.settings.endpoint.url_for(checked.settings.model)
        shown = request_shown(url, item.content, item.request_sha256)
        self.exchange.show_request(shown, sent, later=later)

    # -- the connection test ------------------------------------------------------------
    def test_connection(self) -> None:
        """One tiny request to the endpoint and model on screen, off the GUI thread
        (not while a check runs: its progress owns the status)."""
        if self.cancel is not None:
            return
        try:
            settings = self._settings()
        except LiveError as exc:
            self._idle(f"{exc} {NO_ENDPOINT}" if self._unset() else str(exc))
            return
        self.test_button.setEnabled(False)
        self._hinting = False
        self.status.setText(f"Testing {settings.endpoint.base_url} ({settings.model})…")
        endpoint, model = settings.endpoint, settings.model

        def work() -> ProbeResult:
            return probe(endpoint, model)

        def landed(result: ProbeResult | None, error: str | None) -> None:
            self.test_button.setEnabled(self.cancel is None)
            if self.cancel is not None:
                return  # a check started meanwhile: its progress owns the status
            self.status.setText(
                result.message(model) if result is not None else f"Connection failed: {error}"
            )

        self.probe_job.submit(work, landed)

    def _idle(self, text: str) -> None:
        self._hinting = False
        self.status.setText(text)
        self.ask_button.setEnabled(True)
        self.test_button.setEnabled(not self.probe_job.busy)
        self.send_button.setEnabled(self.planned is not None and self.cancel is None)
        self.cancel_button.setEnabled(False)

    # -- the answer -------------------------------------------------------------------
    def _show(self, report: LiveReport) -> None:
        result = report.results[0]
        picks = result.picks()
        estimate = result.estimate
        turns = report.plan.settings.turns
        self.table.setRowCount(0)
        for name, count in picks.most_common():
            band = "" if estimate is None or name in ("none", "error") else estimate.band(name)
            if estimate is not None and name == estimate.top:
                band += " (its first)"
            picked = f"{count} of {len(result.answers)}"
            if turns > 1 and name not in ("none", "error"):
                first = sum(first_turn(a) == name for a in result.valid)
                picked += f" ({first} at turn 1)"
            row = self.table.rowCount()
            self.table.insertRow(row)
            for column, text in enumerate((name, picked, band)):
                self.table.setItem(row, column, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        rows = sum(self.table.rowHeight(r) for r in range(self.table.rowCount()))
        frame = 2 * self.table.frameWidth()
        self.table.setFixedHeight(self.table.horizontalHeader().height() + rows + frame)
        self.table.show()

    def _summary(self, report: LiveReport) -> str:
        result = report.results[0]
        settings = report.plan.settings
        valid = result.valid
        errors = sorted({a.error for a in result.answers if a.error})
        parts = [f"{settings.model}, {report.date}:"]
        if valid and all(a.harness for a in result.answers):
            parts.append(
                f"the agent's harness invokes {valid[0].pick} itself (the request names it): "
                "no model was asked."
            )
        elif valid:
            top, count = result.picks().most_common(1)[0]
            what = "no skill" if top == "none" else top
            parts.append(f"the model picked {what} in {count} of {len(result.answers)} runs.")
            worded = sum(a.pick is None and bool(a.text) for a in valid)
            if worded:
                parts.append(
                    f"In {worded} of the {len(result.answers)} runs it answered in words, "
                    "calling no skill (see Answers)."
                )
        if settings.turns > 1 and valid:
            rates = turn_rates(result)
            first, anywhere = rates["first_turn"]["hits"], rates["any_turn"]["hits"]
            parts.append(
                f"A skill was picked at the first turn in {first} of {len(valid)} answered "
                f"runs, at any of {settings.turns} turns in {anywhere}."
            )
        if result.estimate is not None:
            parts.append(f"The estimate's likely first: {result.estimate.top or 'none'}.")
        parts.append(f"Asked as: {report.plan.template}.")
        cached = sum(a.cached for a in result.answers)
        if cached:
            parts.append(f"{cached} from the cache.")
        if errors:
            parts.append("Without an answer: " + "; ".join(errors))
        if report.cancelled:
            parts.append("Cancelled.")
        return " ".join(parts)
