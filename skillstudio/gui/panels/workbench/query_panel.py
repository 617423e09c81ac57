"""Try a Request: ranking, explanation, tiers, activation, session. Everything shown is
the engine's own answer (core/ranking, core/delivery) for the registry as it is on
screen, unsaved edits included (re-run on every re-validation)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QPoint,
    Qt,
    Signal,
)
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QGridLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ....core.delivery.activation import activate
from ....core.delivery.tiers import render_tiers
from ....core.model.delivered import TierText
from ....core.model.matches import MatchResult
from ....core.model.session import Session
from ....core.projects.project import Project
from ....core.ranking.estimate import LikelyCandidate, LikelyResult
from ....core.ranking.likely_ranking import rank_likely
from ....core.ranking.matching import match
from ....core.scanning.registry import Registry
from ...infra.deferred_until_shown import CatchUp
from ...infra.one_line import one_line
from ...infra.settings_store import AppSettings
from ...infra.theme import on_theme_change
from ...models.app_context import AppContext
from .add_case import (
    AddCaseDialog,
    CaseAnswer,
    CaseQuestion,
    add_to_suite,
    case_warning,
    is_own,
)
from .candidates import CandidatesModel, ThresholdDelegate, fit_rows
from .detail_tabs import DetailTabs
from .explanation import explanation_html, likely_row_html, why_not_likely
from .listing_writer import ListingWriter
from .open_skill_advice import OpenSkillAdvice
from .panel_layout import SplitFit
from .panel_parts import (
    FixedLine,
    SpillingRow,
    likely_summary,
    project_label,
    request_hint,
    tier_line,
)
from .ranking_menu import ranking_menu

QUERY_DELAY_MS = 60
QUERY_MIN = 300  # px the request keeps beside the option and the button, else they go below


class QueryPanel(QWidget):
    """Signals:
    case_added(str): a case was appended to the suite file at this path.
    said(str): a passing message for the status bar ("Added to …"): the headline stays.
    open_requested(str): open this SKILL.md (the ranking's context menu).
    """

    case_added = Signal(str)
    said = Signal(str)
    open_requested = Signal(str)

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        """A view of `context`: its current project answers; the project box sets it."""
        super().__init__(parent)
        self.context = context
        self.result: MatchResult | None = None
        self.likely: LikelyResult | None = None  # where the model chooses, once indexed
        context.likely_indexes.ready.connect(self._on_index_ready)  # built off the GUI thread
        self.tiers: list[TierText] = []
        self.last_update_ms = 0.0
        self._updating = False  # update_now refreshes the activation itself
        self._answered: tuple[int, str] | None = None  # (registry, request) shown
        self._chosen: str | None = None  # the row the user chose, kept while it is shown
        self.current_suite: Callable[[], str | None] = lambda: None  # the Suites panel's
        self.last_suite: str | None = None  # the file the last case went to
        self.remember_suite: Callable[[str, str], object] = lambda _base, _path: None
        self.catch_up = CatchUp(self, self.update_now, QUERY_DELAY_MS, stale=True)

        self.project_box = QComboBox(self)
        self.project_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.project_box.setToolTip("The project (one agent's skills) that answers")
        self.project_box.currentIndexChanged.connect(context.choose)
        context.projects_changed.connect(self._on_projects_changed)
        context.current_changed.connect(self._on_project_changed)
        self.query = QLineEdit(self)
        self.query.setPlaceholderText(request_hint(None))
        self.query.setClearButtonEnabled(True)
        self.timer = self.catch_up.timer  # typing here: answered after a pause
        self.query.textChanged.connect(self.timer.start)
        self.query.returnPressed.connect(self.send)
        self.option_label = QLabel(self)
        self.option = QSpinBox(self)
        self.option_defaults: dict[str, int] = {}  # Settings › Context window, when set
        self.option.setMaximum(10_000_000)
        self.option.valueChanged.connect(self.timer.start)
        self.option.valueChanged.connect(lambda _v: self._headroom_follows())
        self.add_button = QPushButton("Add as test case…", self)
        self.add_button.clicked.connect(lambda: self.add_test_case())  # not `checked`
        self.project_title = QLabel("&Project:", self)
        self.project_title.setBuddy(self.project_box)
        fixed = [self.project_title, self.project_box]
        spill = [self.option_label, self.option, self.add_button]
        self.top_row = SpillingRow(fixed, self.query, spill, QUERY_MIN)
        self.summary = FixedLine(self)
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.summary.font()
        font.setBold(True)
        self.summary.setFont(font)
        # "requests that would pick X instead" of the skill being edited: about the
        # request typed only when the user says it is meant for that skill.
        self.advice = OpenSkillAdvice(self)
        self.for_open = self.advice.for_open
        self.for_open.toggled.connect(lambda _on: self._show_instead())

        self.tier_used = QLabel(self)
        self.tier_used.setMinimumWidth(1)  # never widens the panel: cut (Tiers says it whole)
        self._tier_beside: bool | None = None

        self.model = CandidatesModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setItemDelegate(ThresholdDelegate(self.model, self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        # The Why column wraps: a row is as tall as its reasons (fit_rows, 30 rows at most).
        self.table.setWordWrap(True)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header = self.table.horizontalHeader()
        header.sectionResized.connect(self._on_column_resized)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        for column in (0, 1, 2, 3):  # sized by fit_rows, from the texts shown
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
        self.table.selectionModel().currentRowChanged.connect(self._on_row_changed)
        self.table.clicked.connect(self._on_row_clicked)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._ranking_menu)

        self.details = details = DetailTabs(self)
        self.explanation, self.why_box = details.explanation, details.why_box
        self.why_names, self.tier_tabs = details.why_names, details.tier_tabs
        self.tier_views, self.activation = details.tier_views, details.activation
        self.session_view, self.headroom = details.session_view, details.headroom
        self.live, self.live_page = details.live, details.live_page
        # a model picked in Headroom fills the panel's window box where that is the window
        self.headroom.model_chosen.connect(self.option.setValue)
        self.why_box.currentIndexChanged.connect(lambda _i: self._show_explanation())
        on_theme_change(self.explanation, self._show_explanation)  # its marks and links
        # The listing (tier 2) is written when its tab is shown, in slices (30-180 ms
        # at 10,000 skills).
        self.listing = ListingWriter(self._listing_written, self.tier_views[2].empty.setText, self)
        self.listing_catch_up = CatchUp(self.tier_views[2], self.listing.write_wanted)
        self.activation.inputs_changed.connect(self.timer.start)
        self.session_view.reset_button.clicked.connect(self.reset_session)

        # Side by side when the panel is wide or short; stacked (ranking above
        # details) when narrow and tall, so both keep a readable width (resizeEvent
        # switches it live: panel_layout.py).
        self.split = split = QSplitter(Qt.Orientation.Horizontal, self)
        split.setChildrenCollapsible(False)
        split.addWidget(self.table)
        split.addWidget(self.details)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(self.top_row.first)
        layout.addLayout(self.top_row.second)
        self.outcome = QGridLayout()  # the summary, the open skill's box, the tier used
        self.outcome.addWidget(self.summary, 0, 0)
        self.outcome.addWidget(self.for_open, 0, 1)
        self.outcome.setColumnStretch(0, 1)
        layout.addLayout(self.outcome)
        self.fit = SplitFit(split, self.table, self.model, self.details, self.place_tier)
        self.fit.roomy = [self.headroom, self.live_page, details.tier_tabs]
        layout.addWidget(split, 1)
        self.setFocusProxy(self.query)

    def place_tier(self, beside: bool) -> None:
        """The tier used ("Tier 2: listed; …") beside the summary (`beside`), else on a
        line of its own below it, as wide as the panel."""
        if beside == self._tier_beside:
            return
        self._tier_beside = beside
        self.outcome.removeWidget(self.tier_used)
        if beside:
            self.outcome.addWidget(self.tier_used, 0, 2)
        else:
            self.outcome.addWidget(self.tier_used, 1, 0, 1, 3)
        self.tier_used.show()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        area = self.parentWidget()  # the dock's scroll area, when in one
        self.fit.fit(self.width(), area.height() if area is not None else self.height())
        self.top_row.fit(self.width())
        self.fit.bound_to(self)  # never wider than the dock

    # -- projects --------------------------------------------------------------------
    def _on_projects_changed(self) -> None:
        """The context's projects are others: the box lists them (the current one
        follows, with `current_changed`)."""
        self.project_box.blockSignals(True)
        self.project_box.clear()
        for number, project in enumerate(self.context.projects):
            self.project_box.addItem(project_label(project), project.base)
            self.project_box.setItemData(
                number,
                f"{project.base}\nprofile: {project.profile.name}",
                Qt.ItemDataRole.ToolTipRole,
            )
        self.project_box.blockSignals(False)

    @property
    def registry(self) -> Registry | None:
        return self.context.registry

    @property
    def project(self) -> Project | None:
        return self.context.project

    @property
    def session(self) -> Session:
        registry = self.registry
        return self.context.session(registry) if registry is not None else Session()

    def options(self) -> dict[str, Any]:
        project = self.project
        options = dict(project.options) if project is not None else {}
        spec = project.profile.panel_option if project is not None else None
        if spec is not None:
            options[spec.key] = self.option.value()
        return options

    def apply_settings(self, store: AppSettings) -> None:
        """Settings' context window (the option's default), models and endpoints."""
        tokens = store.context_tokens()
        self.option_defaults = {"context_tokens": tokens} if tokens else {}
        self.headroom.fill_models()  # (Settings may have changed the user's models)
        self.live.set_endpoints(store.endpoints())
        self.live.keep_in(store)  # Request as, remembered per project

    def _on_project_changed(self, current: object = None) -> None:
        """The context's current project changed: the box shows it, the panel answers for it."""
        opened = self.context.open_projects
        number = opened.index(current) if current in opened else -1  # (by identity)
        self.project_box.blockSignals(True)
        self.project_box.setCurrentIndex(number)
        self.project_box.blockSignals(False)
        project = self.project
        self.query.setPlaceholderText(request_hint(project.profile if project else None))
        spec = project.profile.panel_option if project is not None else None
        self.option.blockSignals(True)
        if spec is not None and project is not None:
            self.option_label.setText(spec.label)
            self.option.setMaximum(spec.maximum)
            default = self.option_defaults.get(spec.key) or spec.default
            self.option.setValue(int(project.options.get(spec.key, default)))
        self.option.blockSignals(False)
        self.option_label.setVisible(spec is not None)
        self.option.setVisible(spec is not None)
        self.top_row.fit(self.width())
        self.fit.bound_to(self)  # never wider than the dock
        self.details.setTabVisible(3, project is not None and project.profile.uses_session)
        registry = self.registry
        self.activation.set_skills(sorted(registry.active) if registry is not None else [])
        self._headroom_follows()
        self.catch_up.now()

    def _headroom_follows(self) -> None:
        """Headroom at the panel's context window where that is the panel's option."""
        project = self.project
        self.query.setPlaceholderText(request_hint(project.profile if project else None))
        spec = project.profile.panel_option if project is not None else None
        mirrored = spec is not None and spec.key == "context_tokens"
        self.headroom.set_project(project, self.registry, self.option.value() if mirrored else None)

    # -- answering ---------------------------------------------------------------------
    def skills_changed(self) -> None:
        """A skill changed (an edit on screen, a save, a file outside): answer again.

        A hidden panel only notes it and answers when shown: at 10,000 skills an
        answer takes about 75 ms, which typing elsewhere should not pay for."""
        self.catch_up.soon()
        self.headroom.changed()

    def show_tier(self, number: int) -> None:
        """Bring a tier's tab to the front."""
        self.details.setCurrentWidget(self.tier_tabs)
        self.tier_tabs.setCurrentIndex(number)

    def load_request(self, text: str) -> None:
        self.query.setText(text)
        self.query.home(False)  # a long request shows its start, not its last words
        self.update_now()

    def update_now(self) -> None:
        self.timer.stop()
        self.catch_up.stale = False
        started = time.perf_counter()
        registry = self.registry
        if registry is None:
            self.model.set_result(None)
            self.summary.setText("Open a folder of skills to try requests.")
            return
        query = self.query.text()
        options = self.options()
        preview = self.session.copy()
        try:
            index = self.context.match_index(registry)
            self.result = match(registry, query, index=index, session=preview, options=options)
            self.likely = self._likely(registry, query)
            self.tiers = render_tiers(registry, self.result, options, preview, listing=False)
            self.listing.want(registry, options)
        except Exception as exc:  # a core bug on some skill: say so; the next edit tries again
            self.context.forget_match(registry)  # rebuilt from scratch next time
            self.result, self.tiers, self.likely = None, [], None
            self.model.set_result(None)
            self.summary.setText(f"Matching failed: {one_line(exc)}")
            return
        previous = self._current_name()
        new_request = self._answered != (id(registry), query)
        other_project = self._answered is None or self._answered[0] != id(registry)
        self._answered = (id(registry), query)
        if new_request:  # a new answer opens on its best row (a "Why not" name stays
            self._chosen = None  # while the request is edited, not for another project)
        if other_project:
            self.details.reset_why()
        self._updating = True  # the model's reset moves the current row: not the user
        try:
            self.model.set_result(self.result, self.likely)
        finally:
            self._updating = False
        # No pass or fail per row for the word count where the model chooses: the
        # column goes (with the likely candidates it is the Band column).
        self.table.setColumnHidden(3, self.result.heuristic and self.likely is None)
        fit_rows(self.table, self.model)
        self.fit.bound_to(self)  # fit_rows sets the ranking's minimum width anew
        self.summary.setText(self._summary_text(registry, query))
        self._show_instead(explain=False)  # explained below
        used = next((t.tier for t in self.tiers if t.used), 0)
        line, tip = tier_line(used, self.result, self._likely_shown())
        self.tier_used.setText(line if query.strip() else "")
        self.tier_used.setToolTip(tip + "\nSee Tiers for the exact text.")
        self.summary.setToolTip(tip if query.strip() else "")
        self.details.fill_why(self.registry)
        # on screen: at once if unchanged, else the old text until done; else when shown
        self.listing_catch_up.now()
        for number, (view, tier) in enumerate(zip(self.tier_views, self.tiers, strict=True)):
            if number != 2 or self.listing.job is None:
                view.show_tier(tier)
        self.tier_tabs.set_used(next((t.tier for t in self.tiers if t.used), None))
        # The best row, or the one the user chose while it is still in the answer.
        # A skill picked in "Why not" is the row shown: row and explanation agree.
        wanted = self.why_box.currentData() or self._chosen
        row = next((i for i, c in enumerate(self.model.rows) if c.name == wanted), -1)
        if row < 0:  # the first the headline names: "Likely: X" over a selected X
            likely = self._likely_shown()
            named = [c.name for c in likely.likely] if likely is not None else []
            row = next((i for i, c in enumerate(self.model.rows) if c.name in named), 0)
        self._updating = True
        try:
            if self.model.rows:
                self.table.selectRow(row)
            if new_request:
                self.table.scrollToTop()
        finally:
            self._updating = False
        self._show_explanation()
        name = self._current_name()
        if name is None and self.activation.follows():  # nothing ranked: the open skill's
            edited = self.advice.edited_skill(registry)  # (an old answer's row was kept)
            self.activation.follow(edited.name if edited is not None else "", self.result)
        elif name and (name != previous or not self.activation.skill.currentText().strip()):
            self.activation.follow(name, self.result)  # a new top row; a typed name stays
        self.activation.refresh(registry, options, preview)
        self.session_view.show_session(self.session)
        peeked = self.context.likely_indexes.peek(registry)
        folder = self.project.base if self.project is not None else ""
        self.live.set_request(registry, query, options, peeked, folder)
        self.last_update_ms = (time.perf_counter() - started) * 1000

    def _listing_written(self, registry: Registry, version: int, tier: TierText) -> None:
        if registry is not self.registry or registry.version != version:
            return  # the skills changed meanwhile: their answer writes it again
        if self.result is None or len(self.tiers) != 4:
            return
        tier.used = self.result.tier == 2
        self.tiers[2] = tier
        self.tier_views[2].show_tier(tier)

    def _likely(self, registry: Registry, query: str) -> LikelyResult | None:
        """The likely candidates where the model chooses (None until the index,
        built in the background, has landed)."""
        project = self.project
        if project is None or not project.profile.model_chooses or not query.strip():
            return None
        # the estimate reads the listing at the panel's window, as its tier 2 is written
        spec, home = project.profile.panel_option, self.context.open_project_of(registry)
        if home is not None and spec is not None and spec.key == "context_tokens":
            home.use_window(self.option.value() or None)
        index = self.context.likely_indexes.get(registry)
        return rank_likely(index, query) if index is not None else None

    def _on_index_ready(self, registry: object) -> None:
        if registry is self.registry:
            self.catch_up.soon()

    def _summary_text(self, registry: Registry, query: str) -> str:
        if not query.strip() or self.result is None:
            return "Type a request."
        project = self.project
        chooses = project is not None and project.profile.model_chooses
        waiting = chooses and self.context.likely_indexes.peek(registry) is None
        return likely_summary(self.result, self.likely, waiting)

    def set_edited(self, path: str | None) -> None:
        """The skill being edited: Try a Request can say which skills would be picked
        instead of it (open_skill_advice.py)."""
        if self.advice.set_edited(path):  # (with no request, the Activation tab shows it)
            self._show_instead() if self.query.text().strip() else self.catch_up.soon()

    def _likely_shown(self) -> LikelyResult | None:
        """The likely candidates the headline speaks of (none when a skill is invoked)."""
        result = self.result
        if result is None or result.selected or not self.query.text().strip():
            return None
        return self.likely

    def suite_requests_instead(self) -> list[tuple[str, str]]:
        registry = self.registry
        index = self.context.likely_indexes.peek(registry) if registry is not None else None
        return self.advice.suite_lines(self.project, registry, index)

    def _show_instead(self, explain: bool = True) -> None:
        """The advice about the open skill (it opens the explanation: shown again if
        it changed, unless the caller explains next)."""
        registry = self.registry
        index = self.context.likely_indexes.peek(registry) if registry is not None else None
        shown = self.advice.text
        self.advice.show(self.project, registry, index, self._likely_shown())
        if explain and self.advice.text != shown:
            self._show_explanation()

    def _current_name(self) -> str | None:
        index = self.table.currentIndex()
        if index.isValid() and index.row() < len(self.model.rows):
            return self.model.rows[index.row()].name
        return None

    def _on_column_resized(self, column: int, _old: int, _new: int) -> None:
        if column == len(self.model.COLUMNS) - 1:  # the Why column wraps anew
            fit_rows(self.table, self.model)
            self.fit.bound_to(self)

    def _on_row_changed(self, *_args: object) -> None:
        """The chosen row is explained, and its activation shown (never a skill of
        another project: the rows are the current project's)."""
        if self._updating:
            return  # update_now explains and follows once it is done
        self._show_explanation()
        name = self._current_name()
        self._chosen = name  # kept while a live re-rank still shows it
        registry = self.registry
        if name and registry is not None and self.activation.follow(name, self.result):
            self.activation.refresh(registry, self.options(), self.session.copy())

    def _on_row_clicked(self, *_args: object) -> None:
        if self.why_box.currentIndex() > 0:  # a click on a row asks about that row
            self.why_box.setCurrentIndex(0)

    def _show_explanation(self, *_args: object) -> None:
        self.explanation.setHtml(self.advice.html() + self.explanation_html())

    def explanation_html(self) -> str:
        """The chosen skill's points, or the skill picked in "Why not" (see explanation)."""
        result, registry = self.result, self.registry
        if result is None or registry is None:
            return ""
        index = self.table.currentIndex()
        picked = self.why_box.currentData()
        if not picked and index.isValid() and index.row() < len(self.model.rows):
            row = self.model.rows[index.row()]
            if isinstance(row, LikelyCandidate):
                likely_index = self.context.likely_indexes.peek(registry)
                return likely_row_html(result, row, likely_index, index.row() == 0)
        likely = self.likely
        if picked and likely is not None and picked not in result.selected:
            return why_not_likely(
                result, likely, picked, self.context.likely_indexes.peek(registry), registry
            )
        return explanation_html(result, registry, self._current_name(), self.why_box.currentData())

    # -- session -----------------------------------------------------------------------------
    def send(self) -> None:
        """Enter: the request happens in the session (consent given, recent use recorded)."""
        registry = self.registry
        if registry is None or not self.query.text().strip():
            return
        self.update_now()
        assert self.result is not None
        session = self.session
        options = self.options()
        for name in self.result.selected:
            activate(registry, name, self.result.explicit_args, session=session, options=options)
        picked = ", ".join(self.result.selected) or "none"
        session.history.append(f"{self.query.text()}  →  {picked}")
        self.update_now()

    def reset_session(self) -> None:
        self.session.reset()
        self.update_now()

    def ask_a_model(self) -> None:
        """The Ask a model tab, its plan for the request made (nothing is sent unasked)."""
        self.details.setCurrentWidget(self.live_page)
        self.live.ask()

    def ask_case(self, question: CaseQuestion) -> CaseAnswer | None:
        """The dialog's answer (the suite file, the skills, their key, whether to list
        the file), or None when cancelled (tests replace this method)."""
        warning = case_warning(question, self.result, self._likely_shown())
        dialog = AddCaseDialog(question, warning, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.answer()

    def add_test_case(self, expect: str | None = None) -> str | None:
        """Ask which suite file (the last one chosen first) and which skills (`expect`,
        else the row chosen, else what the headline says), append the case, say so in
        the status bar (the headline stays the answer's); the file's path, if added. A
        file skillstudio.yaml does not list is remembered for the project (`remember_suite`)."""
        project, query = self.project, self.query.text().strip()
        if project is None or self.result is None or not query:
            return None
        shown = (self.result, self._likely_shown(), self.current_suite())
        chosen = expect or self._chosen
        added, message = add_to_suite(
            project, query, *shown, self.ask_case, chosen, self.last_suite
        )
        if message:
            self.said.emit(message)
        if added is None:
            return None
        if not added.listed and is_own(project, added.path):  # another folder's: not kept
            self.remember_suite(project.base, added.path)
        self.last_suite = added.path
        self.case_added.emit(added.path)
        return added.path

    def _ranking_menu(self, pos: QPoint) -> None:
        row = self.table.indexAt(pos).row()
        menu = self.ranking_menu(row)
        if menu is not None:
            menu.exec(self.table.viewport().mapToGlobal(pos))

    def ranking_menu(self, row: int) -> QMenu | None:
        """The context menu of a ranking row (ranking_menu.py), None off the rows."""
        if self.result is None or not 0 <= row < len(self.model.rows):
            return None
        skill = self.model.rows[row].skill
        likely = self._likely_shown()
        picked = skill.name in self.result.selected or (
            likely is not None and skill.name in {c.name for c in likely.likely}
        )
        return ranking_menu(
            skill.name,
            skill.path,
            picked,
            self.open_requested.emit,
            self.details.explain,
            self.add_test_case,
            self,
        )
