"""What the GUI tests build: the parts a controller, panel or editor is given without a
main window (a context read from a folder, answers to the dialogs, a tab widget and a
status bar), and, for the tests of what the window itself does, a whole window."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QModelIndex, QPoint, QSettings, QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QLineEdit,
    QMainWindow,
    QScrollArea,
    QStatusBar,
    QTabBar,
    QTableWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from pytestqt.qtbot import QtBot

from skillstudio.core.editing import recovery
from skillstudio.core.projects.project import resolve_projects
from skillstudio.gui.controllers.archives import Archives
from skillstudio.gui.controllers.document_tabs import DocumentTabs
from skillstudio.gui.controllers.recovery_keeper import RecoveryKeeper
from skillstudio.gui.controllers.skill_actions import SkillActions
from skillstudio.gui.controllers.skill_views import SkillViews
from skillstudio.gui.controllers.tree_controller import SkillTree
from skillstudio.gui.dialogs.questions import Dialogs
from skillstudio.gui.editor.skill_editor import SkillEditor
from skillstudio.gui.models.app_context import AppContext
from skillstudio.gui.models.problems_model import ProblemsModel
from skillstudio.gui.models.skill_tree_model import KIND_ROLE, PATH_ROLE, SkillTreeModel
from skillstudio.gui.panels.problems_panel import ProblemsPanel
from skillstudio.gui.panels.scrolled import scrolled
from skillstudio.gui.panels.skill_tree_view import SkillTreeView
from skillstudio.gui.panels.suite_runner import SuiteRunner
from skillstudio.gui.panels.workbench.query_panel import QueryPanel
from skillstudio.gui.window.main_window import MainWindow

from ..benchmarks.synth import generate

WINDOW_SIZE = (1200, 780)  # the size most window tests were written at

# A small collection where the model chooses; two skills say nearly the same thing.
COLLECTION = {
    "pytest-writer": "Writes pytest unit tests for Python functions, with fixtures and "
    "parametrized cases. Use when asked to add or write tests for Python code.",
    "python-test-author": "Writes unit tests for Python functions with pytest, fixtures "
    "and parametrized cases. Use when asked to write tests for Python code.",
    "sql-review": "Reviews SQL queries and migrations for correctness, index use and "
    "locking risks. Use when a change touches database migrations.",
    "release-notes": "Drafts release notes and a changelog from merged pull requests and "
    "commit messages, grouped by feature and fix.",
    "docker-build": "Builds and slims Docker images with multi-stage Dockerfiles, layer "
    "caching and base image choice.",
    "terraform-plan": "Reads a Terraform plan and explains which cloud resources change, "
    "which are replaced and what could break.",
}


STALL_MAX_S = 0.25  # the longest the event loop may go without a timer tick (before: 8 s, 48 s)


class Answers(Dialogs):
    """Dialogs that answer from queues and note what was asked or said."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.interactive = False
        self.asked: list[str] = []
        self.said: list[str] = []
        self.save_answers: list[str] = []
        self.texts: list[str | None] = []
        self.revert = True
        self.record_profile = False  # the answer to "write profile: to skillstudio.yaml?"

    def ask_save(self, names: str) -> str:
        self.asked.append(f"save {names}")
        return self.save_answers.pop(0)

    def ask_revert(self, name: str) -> bool:
        self.asked.append(f"revert {name}")
        return self.revert

    def ask_text(self, title: str, label: str, text: str = "") -> str | None:
        self.asked.append(title)
        return self.texts.pop(0)

    def ask_new_skill(self, dialog: QDialog) -> bool:
        """The next text typed into New Skill's dialog; OK pressed if it is enabled."""
        self.asked.append(dialog.windowTitle())
        text = self.texts.pop(0)
        if text is None:
            return False
        dialog.name_box.setText(text)  # type: ignore[attr-defined]
        ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)  # type: ignore[attr-defined]
        return bool(ok.isEnabled())

    def ask_record_profile(self, question: str) -> bool:
        self.asked.append(question)
        return self.record_profile

    def ask_restore(self, found: recovery.Recovery) -> str:
        self.asked.append(f"restore {found.source}")
        return "restore"

    def warn(self, message: str) -> None:
        self.said.append(message)

    def warning(self, message: str) -> None:
        self.said.append(message)

    def inform(self, message: str) -> None:
        self.said.append(message)


def context_of(folder: Path, profile: str | None = None) -> AppContext:
    """The folder's projects, scanned here (as a scan thread would have)."""
    projects = resolve_projects([str(folder)], [], None, profile, os.getcwd())
    registries = [project.registry() for project in projects]
    for registry in registries:
        registry.scan()
    context = AppContext()
    context.open(str(folder))
    context.install(projects, registries)
    return context


class Shell:
    """A bare window holding what the controllers are given: tabs, a status bar,
    the dialogs' answers and the likely indexes."""

    def __init__(self, qtbot: QtBot) -> None:
        self.window = QMainWindow()
        qtbot.addWidget(self.window)
        self.tabs = QTabWidget(self.window)
        self.window.setCentralWidget(self.tabs)
        self.status: QStatusBar = self.window.statusBar()
        self.dialogs = Answers(self.window)

    def documents(
        self, context: AppContext, recovery: RecoveryKeeper | None = None
    ) -> DocumentTabs:
        return DocumentTabs(self.tabs, context, self.dialogs, self.status, recovery, self.window)


# -- the parts, without a window ---------------------------------------------------------
CENTRE_SIZE = (900, 540)  # about the editor's room in a window of WINDOW_SIZE
DOCK_SIZE = (900, 300)  # about a bottom dock's room in such a window, made taller
WIDE_DOCK = (1066, 300)  # the same in a window 1366 px wide
TREE_SIZE = (300, 560)  # about the tree dock's room in such a window


class OpensSkills(Protocol):
    def open_skill(self, path: str, line: int = 0, column: int = 1) -> SkillEditor | None: ...


class Editors:
    """Skill tabs without a main window: a DocumentTabs over `folder`'s context in a
    shown bare window about the size of the window's centre (with a RecoveryKeeper
    writing to `recovery_folder`, when given)."""

    def __init__(
        self,
        qtbot: QtBot,
        folder: Path,
        profile: str | None = None,
        size: tuple[int, int] = CENTRE_SIZE,
        recovery_folder: str | None = None,
    ) -> None:
        self.shell = Shell(qtbot)
        self.context = context_of(folder, profile)
        window = self.shell.window
        self.recovery = RecoveryKeeper(recovery_folder, window) if recovery_folder else None
        self.documents = self.shell.documents(self.context, self.recovery)
        self.tabs = self.shell.tabs
        self.dialogs = self.shell.dialogs
        self.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
        self.shell.window.resize(*size)
        self.shell.window.show()

    def open_skill(self, path: str, line: int = 0, column: int = 1) -> SkillEditor | None:
        return self.documents.open_skill(path, line, column)


def open_skill(editors: OpensSkills, samples: Path, rel: str) -> SkillEditor:
    """The tab of the skill at `rel` under the samples, opened (by a window or Editors)."""
    editor = editors.open_skill(str(samples / rel))
    assert editor is not None
    return editor


class TreeParts:
    """The skill tree without a window: its view, model, filter box and controller over
    `folder`'s context, filled by the views as after a scan, shown about the size of
    the window's tree dock (the names are the window's, for the helpers both serve)."""

    def __init__(self, qtbot: QtBot, folder: Path, size: tuple[int, int] = TREE_SIZE) -> None:
        self.shell = Shell(qtbot)
        self.context = context_of(folder)
        self.base = self.context.base
        self.registries = self.context.registries
        side = QWidget()
        self.filter_box = QLineEdit(side)
        self.tree = SkillTreeView(lambda: self.context.base, side)
        layout = QVBoxLayout(side)
        layout.addWidget(self.filter_box)
        layout.addWidget(self.tree)
        self.shell.window.setCentralWidget(side)
        self.tree_model = SkillTreeModel(side)
        self.skill_tree = SkillTree(self.tree, self.tree_model, self.filter_box, side)
        problems = ProblemsModel(side)
        self.views = SkillViews(
            self.context,
            self.skill_tree,
            problems,
            ProblemsPanel(problems, side),
            self.shell.status,
        )
        self.views.refresh()
        self.shell.window.resize(*size)
        self.shell.window.show()


def query_panel_on(
    qtbot: QtBot, folder: Path, profile: str | None = None, size: tuple[int, int] = DOCK_SIZE
) -> QueryPanel:
    """Try a Request over `folder`'s projects (a context of its own, its first project
    current), in its scroll area as in its dock, shown."""
    context = context_of(folder, profile)
    panel = QueryPanel(context)
    area = scrolled(panel)
    panel.area = area  # type: ignore[attr-defined]  # (qtbot holds it weakly)
    qtbot.addWidget(area)
    area.resize(*size)
    area.show()
    context.announce()
    return panel


def suite_runner_on(qtbot: QtBot, folder: Path, size: tuple[int, int] = DOCK_SIZE) -> SuiteRunner:
    """The suite runner over `folder`'s projects (a context of its own: its match
    indexes; the project worked on, its first), in its scroll area, shown."""
    context = context_of(folder)
    runner = SuiteRunner(context)
    area = scrolled(runner)
    runner.area = area  # type: ignore[attr-defined]  # (qtbot holds it weakly)
    qtbot.addWidget(area)
    area.resize(*size)
    area.show()
    context.announce()
    return runner


def ran_suite(runner: SuiteRunner, suite: Path) -> SuiteRunner:
    """`runner` having run `suite` to its end."""
    assert runner.open_suite(str(suite))
    runner.run_to_end()
    assert runner.report is not None
    return runner


def panel_on(panel: QueryPanel, profile: str) -> QueryPanel:
    """`panel` (Try a Request) on the project of `profile`."""
    for number, project in enumerate(panel.context.projects):
        if project.profile.name == profile:
            panel.context.choose(number)
            return panel
    raise AssertionError(f"no {profile} project in the samples")


def write_collection(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "skillstudio.yaml").write_text(
        "profile: agentskills\nroots: [skills]\n", encoding="utf-8"
    )
    for name, description in COLLECTION.items():
        skill = folder / "skills" / name
        skill.mkdir(parents=True)
        (skill / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nSteps.\n"
        )
    return folder


def write_skill(root: Path, name: str, body: str) -> Path:
    path = root / name / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(f"---\nname: {name}\ndescription: A costly preview.\n---\n{body}")
    return path


def three_skills(root: Path) -> dict[str, Path]:
    return {
        name: write_skill(root, name, f"The {name} skill.\n") for name in ("alpha", "beta", "gamma")
    }


# -- helpers of what is shown ---------------------------------------------------------
def whole_rows(view: QAbstractItemView) -> int:
    """How many rows the view shows whole (not cut at its bottom edge)."""
    seen: set[tuple[int, int]] = set()
    height = view.viewport().height()
    for y in range(0, height, 4):
        index = view.indexAt(QPoint(4, y))
        if not index.isValid():
            continue
        rect = view.visualRect(index)
        if rect.top() >= 0 and rect.bottom() <= height:
            seen.add((rect.top(), rect.bottom()))
    return len(seen)


def tabs_whole(bar: QTabBar) -> list[str]:
    """The labels of the shown tabs drawn cut (elided, or beyond the bar's edge)."""
    cut = []
    metrics = bar.fontMetrics()
    for number in range(bar.count()):
        if not bar.isTabVisible(number):
            continue
        rect, text = bar.tabRect(number), bar.tabText(number).replace("&", "")
        if (
            rect.right() > bar.width()
            or rect.left() < 0
            or rect.width() < metrics.horizontalAdvance(text)
        ):
            cut.append(text)
    return cut


def in_sight(widget: QWidget, area: QScrollArea) -> bool:
    """`widget` is shown whole within the scroll area's viewport as it is scrolled."""
    viewport = area.viewport()
    top_left = widget.mapTo(viewport, QPoint(0, 0))
    return (
        widget.isVisible()
        and top_left.y() >= 0
        and top_left.y() + widget.height() <= viewport.height()
        and top_left.x() >= 0
        and top_left.x() + widget.width() <= viewport.width()
    )


def ask(panel: QueryPanel, qtbot: QtBot, request: str) -> None:
    """Type a request and wait for the likely candidates (their index lands off-thread)."""
    panel.query.setText(request)
    qtbot.waitUntil(
        lambda: panel.likely is not None and panel.likely.query == request, timeout=10_000
    )


def longest_stall(qtbot: QtBot, action: Callable[[], object], done: Callable[[], bool]) -> float:
    """Run `action`, then the event loop until `done`; the longest gap between ticks
    of a 10 ms timer meanwhile (the action itself counts)."""
    ticks = [time.perf_counter()]
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()
    action()
    qtbot.waitUntil(done, timeout=60_000)
    ticks.append(time.perf_counter())
    timer.stop()
    return max(b - a for a, b in pairwise(ticks))


def all_rows(model: object, parent: QModelIndex = QModelIndex()) -> list[QModelIndex]:
    out = []
    for row in range(model.rowCount(parent)):  # type: ignore[attr-defined]
        index = model.index(row, 0, parent)  # type: ignore[attr-defined]
        out.append(index)
        out += all_rows(model, index)
    return out


def luminance(colour: QColor) -> float:
    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(colour.red())
        + 0.7152 * channel(colour.green())
        + 0.0722 * channel(colour.blue())
    )


def contrast(a: QColor, b: QColor) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# -- a whole window ------------------------------------------------------------------
def open_window(
    qtbot: QtBot,
    settings: QSettings,
    folder: Path,
    profile: str | None = None,
    size: tuple[int, int] | None = None,
) -> MainWindow:
    """A shown window (of `size`, else its first size) that has opened `folder`."""
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    if size is not None:
        win.resize(*size)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=20_000):
        assert win.open_path(str(folder), profile)
    return win


def runner_on(window: MainWindow, suite: Path, qtbot: QtBot) -> SuiteRunner:
    """The window's suite runner, shown, having run `suite` to its end."""
    window.suites_dock.show()
    window.suites_dock.raise_()
    runner = window.suite_runner
    qtbot.waitUntil(runner.isVisible)
    assert runner.open_suite(str(suite))
    runner.run_to_end()
    assert runner.report is not None
    return runner


# -- moved from the files of their first tests ----------------------------------------
def open_and_wait(
    qtbot: QtBot, window: MainWindow, folder: str, profile: str | None = None
) -> None:
    with qtbot.waitSignal(window.scan_finished, timeout=30_000):
        assert window.open_path(folder, profile)


def big_folder_and_window(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, count: int
) -> tuple[Path, MainWindow]:
    """`count` synthetic skills and a shown window that has opened nothing yet."""
    folder = tmp_path / "many"
    generate(str(folder), count)
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    return folder, window


COLLECTION_PAIR = {"pytest-writer", "python-test-author"}


def skill_names(window: MainWindow | TreeParts) -> list[str]:
    return [i.data() for i in all_rows(window.tree_model) if i.data(KIND_ROLE) == "skill"]


def open_first(window: MainWindow, name: str) -> SkillEditor:
    index = next(
        i for i in all_rows(window.tree_model) if i.data(KIND_ROLE) == "skill" and i.data() == name
    )
    window.tree.activated.emit(index)
    editor = window.tabs.currentWidget()
    assert isinstance(editor, SkillEditor)
    assert editor.document.path == index.data(PATH_ROLE)
    return editor


def fresh_window(qtbot: QtBot, settings: QSettings, width: int, height: int) -> MainWindow:
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.resize(width, height)
    win.show()
    qtbot.waitExposed(win)
    return win


def actions_for(shell: Shell, folder: Path) -> tuple[SkillActions, list[str], list[str]]:
    """The actions over `folder`, with the reloads and the folders asked to open noted."""
    context = context_of(folder)
    documents = shell.documents(context)
    reloads: list[str] = []
    opened: list[str] = []

    def reload() -> None:
        reloads.append("reload")
        for registry in context.registries:
            registry.refresh()

    def open_folder(root: str, skill_md: str) -> bool:
        opened.append(skill_md)
        return True

    archives = Archives(shell.dialogs, shell.status, open_folder, lambda: str(folder))
    actions = SkillActions(context, documents, archives, shell.dialogs, reload)
    return actions, reloads, opened


SEEDS = ("oasis", "pegasus", "toolsets", "mvp", "workspace")


def seeds_are_called_seeds(line: str) -> None:
    """Every seed system the line names stands in a group said to be seed/test systems."""
    for clause in re.split(r"; |\. ", line):
        for seed in SEEDS:
            if re.search(rf"\b{seed}\b", clause):
                before = clause[: re.search(rf"\b{seed}\b", clause).start()]  # type: ignore[union-attr]
                assert "seed/test system" in before, (seed, clause)


def svg(*inner: str) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="40" height="20"><rect width="20" height="20" fill="#0000ff"/>'
        + "".join(inner)
        + "</svg>"
    )


def image_at(href: str) -> str:
    return f'<image x="20" width="20" height="20" xlink:href="{href}"/>'


def skill_path(samples: Path, name: str) -> Path:
    return next(samples.rglob(f"{name}/SKILL.md"))


def open_tab(window: MainWindow, path: Path) -> SkillEditor:
    editor = window.open_skill(str(path))
    assert editor is not None
    return editor


def cell(table: QTableWidget, row: int, column: int) -> str:
    item = table.item(row, column)
    assert item is not None
    return item.text()


def within_dock(panel: QWidget) -> None:
    """The panel asks for no more width than its dock's area shows, nothing is behind a
    sideways scroll bar, and its right edge is on screen."""
    viewport = panel.parentWidget()
    assert viewport is not None
    area = viewport.parentWidget()
    assert isinstance(area, QScrollArea)
    room = area.viewport().width()
    assert panel.minimumSizeHint().width() <= room, (panel.minimumSizeHint(), room)
    assert area.horizontalScrollBar().maximum() == 0
    assert panel.width() <= room


def kept(folder: Path, skill: Path) -> str | None:
    found = recovery.read(recovery.file_for(str(folder), str(skill)))
    return found.text if found is not None else None
