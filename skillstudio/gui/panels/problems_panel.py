"""ProblemsPanel: the Problems dock's content: severity toggles with counts, "current
skill only", the grouped one-line list, and a sentence when there is nothing to show."""

from __future__ import annotations

import os
from functools import partial

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QStackedWidget,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from ...core.model.diagnostics import Diagnostic
from ...core.model.skills import Skill
from ...core.model.text import counted
from ...core.projects.portability import (
    NOT_READ,
    Verdict,
    portability,
    portability_of_file,
    summary,
)
from ..infra.background import LatestJob
from ..infra.elided_label import ElidedLabel
from ..infra.profile_choices import is_seed, profile_groups
from ..models.problem_rows import SEVERITIES
from ..models.problems_model import DIAGNOSTIC_ROLE, ProblemsModel

PLURAL = {"info": "info"}  # "2 info", not "2 infos"
CODE_MIN_PX = 70  # the Code column fits its longest code within these bounds
CODE_MAX_PX = 200
WHERE_SHARE = 0.34  # the Where column fits its text up to this share of the list's width
WHERE_MIN_PX = 110
# Off: a framed button in the window's colours; on: the selection colours (the same
# contrast as a selected row, in both palettes).
CURRENT_ONLY_STYLE = (
    "QToolButton#current-only{border:1px solid palette(mid);border-radius:3px;"
    "padding:2px 8px;background:palette(button);color:palette(button-text)}"
    "QToolButton#current-only:checked{background:palette(highlight);"
    "color:palette(highlighted-text);border-color:palette(highlight)}"
)


class WrappingDelegate(QStyledItemDelegate):
    """Rows as tall as their message wrapped to the Problem column's width (the
    default delegate measures a row as one line whatever the column's width)."""

    def __init__(self, view: QTreeView) -> None:
        super().__init__(view)
        self.view = view

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        size = super().sizeHint(option, index)
        if index.column() != 0:
            return size
        depth = 1 if index.parent().isValid() else 0
        room = self.view.header().sectionSize(0) - self.view.indentation() * (depth + 1) - 28
        text = str(index.data() or "")
        if room <= 40 or option.fontMetrics.horizontalAdvance(text) <= room:
            return size
        flags = int(Qt.TextFlag.TextWordWrap)
        bound = option.fontMetrics.boundingRect(QRect(0, 0, room, 100_000), flags, text)
        return QSize(size.width(), max(size.height(), bound.height() + 4))


SEEDS = "the seed/test system"  # the five systems of the specification, not agents
CONTENT = "content, wherever it lies: "  # what the line answers (Where it loads: the folder)
WHERE_TAB = "Which agents find it in the folder where it lies: its Where it loads tab."


def named(profiles: list[str]) -> str:
    """'agentskills, codex and the seed/test systems oasis, mvp': real agents by name,
    the seed systems said to be what they are."""
    agents = [p for p in profiles if not is_seed(p)]
    seeds = [p for p in profiles if is_seed(p)]
    parts = [", ".join(agents)] if agents else []
    if seeds:
        parts.append(f"{SEEDS}{'s' if len(seeds) > 1 else ''} {', '.join(seeds)}")
    return " and ".join(parts)


def loads_line(verdicts: list[Verdict], skill: str = "") -> str:
    """The line "review's content, wherever it lies: accepted by agentskills and the seed/test
    system pegasus; rejected by codex (hover for why)": which profiles' rules take the
    text, not which agents' folders hold the file (the Where it loads tab answers that,
    as the tooltip says: the two never read as one answer)."""
    loads = [v.profile for v in verdicts if v.loads]
    rejected = [v.profile for v in verdicts if not v.loads and v.status != NOT_READ]
    unread = [v.profile for v in verdicts if v.status == NOT_READ]  # a command file
    owner = f"{skill}'s " if skill else "Its "
    text = owner + CONTENT + (f"accepted by {named(loads)}" if loads else "accepted by no profile")
    if rejected:
        text += f"; rejected by {named(rejected)} (hover for why)"
    if unread:
        text += f"; not read by {named(unread)} (commands)"
    return text


def skill_name(path: str) -> str:
    """The skill's name as its folder says (a command: its file's name)."""
    if os.path.basename(path) == "SKILL.md":
        return os.path.basename(os.path.dirname(path))
    return os.path.splitext(os.path.basename(path))[0]


class ProblemsPanel(QWidget):
    """Signals:
    problem_activated(Diagnostic): a problem was double-clicked (or Enter).
    """

    problem_activated = Signal(object)

    def __init__(self, model: ProblemsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.skill_count = 0
        self.toggles: dict[str, QToolButton] = {}
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 2, 4, 2)
        for severity in SEVERITIES:
            button = QToolButton(self)
            button.setCheckable(True)
            button.setChecked(True)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setToolTip(f"Show or hide {severity} rows")
            button.toggled.connect(self._on_filter)
            self.toggles[severity] = button
            bar.addWidget(button)
        # A toggle like the severities, its state drawn in the palette's own colours:
        # Fusion's check box is a dark square on a dark window in the dark palette.
        self.current_only = QToolButton(self)
        self.current_only.setText("Current skill only")
        self.current_only.setObjectName("current-only")
        self.current_only.setCheckable(True)
        self.current_only.setToolTip("Only the problems of the skill in the current tab")
        self.current_only.setStyleSheet(CURRENT_ONLY_STYLE)
        self.current_only.toggled.connect(self._on_filter)
        bar.addWidget(self.current_only)
        bar.addStretch(1)
        # Portability of the current skill: which profiles' rules take its text (issue 17),
        # on a line of its own under the toggles: one line, elided, the whole line and
        # the reasons in its tooltip (wrapped, it took three lines of a 1024 px panel).
        self.where = ElidedLabel(self)
        self.where.setContentsMargins(6, 0, 6, 2)
        self.where.setVisible(False)
        self.view = QTreeView(self)
        self.view.setModel(model)
        # A long message wraps in its column (at 1024 px one line held half of it);
        # rows come PAGE at a time, so their heights are measured for a page at most.
        self.view.setUniformRowHeights(False)
        self.view.setRootIsDecorated(True)
        self.view.setWordWrap(True)
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.view.setItemDelegate(WrappingDelegate(self.view))
        header = self.view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.resizeSection(1, CODE_MIN_PX)
        header.resizeSection(2, 220)
        header.sectionResized.connect(self._on_section_resized)
        self.view.activated.connect(self._on_activated)
        self.view.doubleClicked.connect(self._on_activated)
        self.empty = QLabel(self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.view)
        self.stack.addWidget(self.empty)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(bar)
        layout.addWidget(self.where)
        layout.addWidget(self.stack, 1)
        model.modelReset.connect(self._update)
        self._current = ""
        self._where_for = ""  # the path the "content …" line is (being) worked out for
        self._where_name = ""  # the skill it names
        self.where_job = LatestJob(self)  # the newest text wins; one job at a time
        self._update()

    def _fit_code_column(self) -> None:
        """The Code column as wide as its longest code (the Problem column gets the rest)."""
        metrics = self.view.fontMetrics()
        widest = max((metrics.horizontalAdvance(code) for code in self.model.codes()), default=0)
        self.view.header().resizeSection(1, min(max(widest + 24, CODE_MIN_PX), CODE_MAX_PX))

    def _fit_where_column(self) -> None:
        """The Where column as wide as its longest text of the first rows, within
        WHERE_MIN_PX and WHERE_SHARE of the list (the Problem column gets the rest)."""
        metrics, model = self.view.fontMetrics(), self.model
        texts = [str(model.index(r, 2).data() or "") for r in range(min(model.rowCount(), 200))]
        widest = max((metrics.horizontalAdvance(t) for t in texts), default=0) + 24
        room = int(self.view.viewport().width() * WHERE_SHARE)
        self.view.header().resizeSection(2, max(min(widest, room), WHERE_MIN_PX))

    def _on_section_resized(self, section: int, _old: int, _new: int) -> None:
        # The list got wider or narrower: rows wrap anew. Not while rows wait to be
        # handed to the view: a layout at the bottom asks for the next page, and a
        # large list would be given whole (PAGE rows at a time is the point).
        if section == 0 and not self.model.canFetchMore(QModelIndex()):
            self.view.scheduleDelayedItemsLayout()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_where_column()

    def set_current_path(self, path: str, skill: Skill | None = None) -> None:
        """The SKILL.md of the current tab ("" for none), for "current skill only";
        `skill`: as on screen (unsaved text included), when the registry has it."""
        self._current = path
        self._show_where(path, skill)
        if self.current_only.isChecked():
            self._on_filter()

    def skill_checked(self, skill: Skill) -> None:
        """The current skill was validated again (an edit, a save): its line follows
        the text on screen, as the error count beside it does."""
        if skill.path == self._current:
            self._show_where(skill.path, skill)

    def _show_where(self, path: str, skill: Skill | None = None) -> None:
        """The line for `path`, worked out off the GUI thread: it validates the skill
        (as on screen, else the file as saved) under every profile (8 validations; with
        a body of 100,000 links that was 31 s on the GUI thread in issue 25). The
        newest one asked wins; one job runs at a time (a keystroke each would fill the
        thread pool on such a skill), the newest waiting for it."""
        self.where.setVisible(bool(path))
        self._where_for = path
        self._where_name = skill.name if skill is not None and skill.name else skill_name(path)
        if not path:
            self.where_job.drop()
            self.where.clear()
            self.where.setToolTip("")
            return
        work = (
            partial(portability, skill) if skill is not None else partial(portability_of_file, path)
        )
        self.where_job.submit(work, self._on_where)

    def _on_where(self, verdicts: list[Verdict] | None, error: str | None) -> None:
        if verdicts is None:
            self.where.setText(f"Which profiles' rules accept its content is not known: {error}")
            return
        line = loads_line(verdicts, self._where_name)
        self.where.setText(line)
        text = summary(verdicts)
        text = text[:1].upper() + text[1:]
        agents, seeds = profile_groups()
        self.where.setToolTip(
            line
            + "\n\nWhich profiles' rules accept this skill's text as it is on screen (wherever "
            f"the file lies), and what the others reject; {', '.join(agents)} are agents, "
            f"{', '.join(seeds)} the specification's seed/test systems.\n"
            + WHERE_TAB
            + "\n\n"
            + text.replace("; ", ";\n")
        )

    def set_skill_count(self, count: int) -> None:
        self.skill_count = count
        self._update()

    def _on_filter(self) -> None:
        severities = {s for s, button in self.toggles.items() if button.isChecked()}
        self.model.set_filter(severities, self._current if self.current_only.isChecked() else "")
        self._update()  # the toggles' look, even when the rows did not change

    def _update(self) -> None:
        counts, everywhere = self.model.counts(), self.model.all_counts()
        for severity, button in self.toggles.items():
            # the project's count, as `lint -v` gives it; "current skill only": its share
            text = counted(everywhere.get(severity, 0), severity, PLURAL.get(severity))
            if self.model.only_path:
                text = f"{counts[severity]} of {text}"
            button.setText(text)
            font = button.font()
            font.setStrikeOut(not button.isChecked())  # hidden rows read as crossed out
            button.setFont(font)
        total = sum(counts.values())
        if self.model.rowCount():
            self._fit_code_column()
            self._fit_where_column()
            self.stack.setCurrentWidget(self.view)
            return
        others = sum(everywhere.values()) - total
        if not total and self.model.only_path:
            name = os.path.basename(os.path.dirname(self.model.only_path))
            elsewhere = f"; {counted(others, 'problem')} in other skills" if others else ""
            self.empty.setText(f"No problems in {name}{elsewhere}.")
        elif not total and not self.skill_count:
            self.empty.setText("No skills open yet.")
        elif not total:
            self.empty.setText(f"No problems in {counted(self.skill_count, 'skill')}.")
        else:
            self.empty.setText(f"No problems shown: {counted(total, 'problem')} hidden by filters.")
        self.stack.setCurrentWidget(self.empty)

    def _on_activated(self, index: QModelIndex) -> None:
        diag = index.siblingAtColumn(0).data(DIAGNOSTIC_ROLE)
        if isinstance(diag, Diagnostic):
            self.problem_activated.emit(diag)
        elif self.model.rowCount(index.siblingAtColumn(0)):
            self.view.setExpanded(index.siblingAtColumn(0), True)
