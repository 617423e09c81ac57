"""The Changes panel: File › Compare With… (a branch, a tag, a revision, or a folder)
against the folder open, the report `skillstudio diff` gives (core/projects/
change_sides.py), worked out off the GUI thread, both sides read as the profile the app
reads the folder as (the one chosen in the status bar; the report made again after a
switch). Double-clicking a request (a suite case, a description's request) opens Try a
Request on it: the working tree's answer there, the revision's in a "Before (REV)"
strip above it (before_strip.py)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.projects.change_sides import Comparison, Reading, compare_folder, compare_revisions
from ...core.projects.git_tree import GitError, branches, repository_top
from ...core.projects.project import Project
from ..infra.background import LatestJob
from .before_strip import BeforeStrip, place
from .workbench.query_panel import QueryPanel

FOLDER = "A folder…"
START = "File › Compare With… compares the folder with a revision."
QUERY = Qt.ItemDataRole.UserRole  # a request row's request
PROJECT = Qt.ItemDataRole.UserRole + 1  # its project: (path, profile) as the report says


def ask_target(parent: QWidget, base: str) -> tuple[str, bool] | None:
    """(a revision, False) or (a folder, True) to compare the folder open with; None
    when the user cancels. The branches and tags are offered; any revision may be typed."""
    try:
        offered = ["HEAD", *branches(repository_top(base))]
    except GitError:
        offered = []
    chosen, ok = QInputDialog.getItem(
        parent,
        "Compare With",
        "A branch, tag or revision (HEAD~1, a commit), or a folder:",
        [*dict.fromkeys(offered), FOLDER],
        0,
        True,
    )
    if not ok or not chosen.strip():
        return None
    if chosen == FOLDER:
        folder = QFileDialog.getExistingDirectory(parent, "Compare With a Folder", base)
        return (folder, True) if folder else None
    return chosen.strip(), False


def profile_in_force(projects: list[Project]) -> str | None:
    """The profile a comparison reads the folder as: the one the user chose for every
    open project (the status bar's box, Read As), else None: each project as detected
    or as its skillstudio.yaml says, as the app reads it then."""
    chosen = {project.chosen_profile for project in projects}
    return chosen.pop() if len(chosen) == 1 else None


def _pick(side: dict[str, Any] | None) -> str:
    if side is None:
        return "—"
    text = side["likely"] or "none likely"
    if side["selected"]:
        text = f"{', '.join(side['selected'])} selected; {text}"
    if side.get("model"):
        text += f"; the model: {side['model']['pick'] or 'no skill'}"
    return text + ("" if side["passed"] else " (fails)")


def project_line(project: dict[str, Any], repository: str) -> str:
    """A project's line: its folder as the report names it, relative to the repository,
    the repository's own folder by its name ("skills/"), never "." (the samples, a
    folder whose projects all start at its top)."""
    path = project["path"]
    if path == ".":
        path = f"{os.path.basename(os.path.normpath(repository))}/" if repository else "the folder"
    return f"{path} (read as {project['profile']})"


class ChangePanel(QWidget):
    """The report of one comparison, as a tree: skills, listings, requests, diagnostics."""

    request_chosen = Signal(str)  # a request row double-clicked

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.status = QLabel(START, self)
        self.status.setWordWrap(True)
        self.tree = QTreeWidget(self)
        self.tree.setHeaderLabels(["", "before", "after"])
        self.tree.itemDoubleClicked.connect(self._chosen)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addWidget(self.tree)
        self.job = LatestJob(self)
        self.comparison: Comparison | None = None
        self.dock: QDockWidget | None = None  # where `attach` put it
        self.base: Callable[[], str] = lambda: ""  # the folder open
        self.profile: Callable[[], str | None] = lambda: None  # profile_in_force's
        self.asked: tuple[str, bool, str, str | None] | None = None  # compare's, and the profile
        self.before: BeforeStrip | None = None  # Try a Request's strip, where `attach` put it

    def compare_with(self) -> None:
        """File › Compare With…: the folder open against a revision or a folder."""
        base = self.base()
        target = ask_target(self, base) if base else None
        if target is not None and self.dock is not None:
            self.dock.show()
            self.dock.raise_()
            self.compare(target[0], target[1], base)

    def compare(self, target: str, folder: bool, base: str) -> None:
        """The folder open (`base`) compared with `target`, off the GUI thread (no scan
        forks there: one process reads)."""
        profile = self.profile()
        self.asked = (target, folder, base, profile)
        reading = Reading(base, workers=1, profile=profile)
        self.status.setText(f"Comparing with {target}…")
        self.tree.clear()
        self.comparison = None
        self.closed()

        def work() -> Comparison:
            if folder:
                return compare_folder(target, reading)
            return compare_revisions([target], reading)

        self.job.submit(work, self._landed)

    def profile_switched(self) -> None:
        """A project of the folder is read as another profile: the report shown (or
        being made) is made again as the folder is read now."""
        asked = self.asked
        if asked is None or self.dock is None or self.dock.isHidden():
            return
        target, folder, base, profile = asked
        if base == self.base() and profile != self.profile():
            self.compare(target, folder, base)

    def _landed(self, result: Comparison | None, error: str | None) -> None:
        if result is None:
            self.status.setText(f"Not compared: {error}")
            return
        self.comparison = result
        self.show_report(result.to_json())

    def show_report(self, data: dict[str, Any]) -> None:
        summary = data["summary"]
        profiles = ", ".join(dict.fromkeys(project["profile"] for project in data["projects"]))
        self.status.setText(
            f"{data['before']} → {data['after']}"
            + (f", read as {profiles}" if profiles else "")
            + f": {summary['regressions']} regressions, "
            f"{summary['fixed']} fixed, {summary['changed']} changed; diagnostics "
            f"{summary['new_diagnostics']} new, {summary['resolved_diagnostics']} resolved"
        )
        self.tree.clear()
        for project in data["projects"]:
            top = QTreeWidgetItem(self.tree, [project_line(project, data.get("repository", ""))])
            top.setExpanded(True)
            for key, names in project["skills"].items():
                for name in names:
                    shown = f"{name['from']} → {name['to']}" if key == "renamed" else name
                    QTreeWidgetItem(top, [f"{key}: {shown}"])
            for listing in project["listings"]:
                row = QTreeWidgetItem(
                    top,
                    [
                        f"{listing['title']} listing",
                        f"{listing['before']['needed']:,} of {listing['before']['budget']}",
                        f"{listing['after']['needed']:,} of {listing['after']['budget']}",
                    ],
                )
                for key in ("name_only", "out", "restored"):
                    for name in listing[key]:
                        QTreeWidgetItem(row, [f"{key.replace('_', ' ')}: {name}"])
            for case in project["cases"]:
                row = QTreeWidgetItem(
                    top,
                    [
                        f"{case['status']}: {case['query']}",
                        _pick(case["before"]),
                        _pick(case["after"]),
                    ],
                )
                row.setData(0, QUERY, case["query"])
                row.setData(0, PROJECT, (project["path"], project["profile"]))
                row.setToolTip(0, "Double-click: Try a Request on it")
            for label in ("new", "resolved"):
                for diag in project["diagnostics"][label]:
                    QTreeWidgetItem(
                        top, [f"{label} {diag['code']}: {diag['path']}", "", diag["message"]]
                    )
        self.tree.resizeColumnToContents(0)

    def _chosen(self, item: QTreeWidgetItem, _column: int) -> None:
        query = item.data(0, QUERY)
        if isinstance(query, str):
            self.request_chosen.emit(query)  # Try a Request shows it: the working tree's
            side = self.comparison.before if self.comparison is not None else None
            if self.before is not None and side is not None:
                path, profile = item.data(0, PROJECT)
                self.before.show_for(side, path, profile, query)

    def clear(self) -> None:
        """Another folder is opened (or none): the report of the folder left goes, with
        Try a Request's before side and the comparison a profile switch would make again
        (it named the folder left, and its requests were that folder's)."""
        self.job.drop()
        self.asked, self.comparison = None, None
        self.tree.clear()
        self.status.setText(START)
        self.closed()

    def closed(self) -> None:
        """The comparison went (its dock closed, or another asked): no before side."""
        if self.before is not None:
            self.before.clear()


def attach(
    window: QMainWindow,
    base: Callable[[], str],
    try_request: Callable[[str], object],
    projects: Callable[[], list[Project]],
    beside: QDockWidget,
) -> ChangePanel:
    """The Changes panel in a dock of `window`'s bottom area, a tab beside `beside`
    (beside the tree it opened narrow, its report unreadable), hidden until File ›
    Compare With… (`compare_with`) is chosen; `base()`: the folder open, `projects()`
    its projects as the app reads them. A changed case double-clicked goes to
    `try_request`, and the revision's answer to the strip put in the window's Try a
    Request (its QueryPanel)."""
    panel = ChangePanel(window)
    panel.dock = QDockWidget("Changes", window)
    panel.dock.setObjectName("change-dock")
    panel.dock.toggleViewAction().setText("C&hanges")  # View › Changes (Alt+V, H)
    panel.dock.setWidget(panel)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, panel.dock)
    window.tabifyDockWidget(beside, panel.dock)
    panel.dock.hide()
    panel.base = base
    panel.profile = lambda: profile_in_force(projects())
    panel.request_chosen.connect(try_request)
    query_panel = window.findChild(QueryPanel)
    if query_panel is not None:
        panel.before = place(query_panel, query_panel.query)
    dock = panel.dock

    def hidden(_shown: bool) -> None:
        if dock.isHidden():  # closed (not a minimized window)
            panel.asked = None  # nothing to make again after a profile switch
            panel.closed()

    dock.visibilityChanged.connect(hidden)
    return panel
