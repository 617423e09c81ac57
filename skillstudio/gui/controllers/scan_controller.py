"""Scans of the open folder off the GUI thread: the scan thread of a folder opened, and
of a project read as another profile; where their registries pass to the GUI thread."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QProgressBar, QStatusBar

from ...core.model.skills import Skill
from ...core.model.text import counted
from ...core.projects.project import Project
from ...core.ranking.match_index import MatchIndex
from ...core.scanning.registry import Registry
from ..infra.scan_thread import ScanDone, ScanRead, ScanThread
from ..models.app_context import AppContext


@dataclass(frozen=True)
class Landed:
    """`landed`'s payload: the scan's match indexes and what failed in it."""

    projects: list[Project]
    indexes: list[MatchIndex]
    errors: list[tuple[Registry, str]]


@dataclass(frozen=True)
class Rescanned:
    """`rescanned`'s payload: `old` read again as `project`, into `registry`."""

    old: Project
    project: Project
    registry: Registry
    indexes: list[MatchIndex]


class Scanning(QObject):
    """Runs the scan threads and takes their registries over on the GUI thread.

    Signals:
    read(object): a folder's scan read its registries (a ScanRead): they are in the
        context now, the GUI thread's (threads.py), for the views to show.
    landed(object): that scan is done (Landed): the skills' gists are set (by this,
        the GUI thread), the match indexes built; the panels get the projects.
    rescanned(object): a project read as another profile (Rescanned), gists set;
        not yet in the context.
    """

    read = Signal(object)
    landed = Signal(object)
    rescanned = Signal(object)

    def __init__(
        self,
        context: AppContext,
        progress: QProgressBar,
        status_bar: QStatusBar,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.context = context
        self.progress = progress
        self.status_bar = status_bar
        self.folder_scan: ScanThread | None = None  # the scan of the folder opened
        self.switch_scan: ScanThread | None = None  # a project read as another profile
        self.worker_chunks = 0  # of the last scan, read by reader processes (smoke test)

    @property
    def busy(self) -> bool:
        """A folder's scan runs (its registries are not all the GUI thread's yet)."""
        return self.folder_scan is not None

    def start(
        self,
        projects: list[Project],
        registries: list[Registry],
        prepare: Callable[[list[Registry]], object],
    ) -> None:
        """Scan the registries of `projects` (the context holds none meanwhile);
        `prepare` builds the views' rows on the scan thread."""
        thread = ScanThread(registries, self, prepare)
        thread.progressed.connect(self._on_progressed)
        thread.scanned.connect(lambda read, t=thread, p=projects: self._on_read(t, p, read))
        thread.done.connect(lambda done, t=thread, p=projects: self._on_done(t, p, done))
        self.folder_scan = thread
        self.progress.setRange(0, 0)
        self.progress.setVisible(True)
        self.status_bar.showMessage(f"Scanning {self.context.base}…")
        thread.start()

    def rescan(self, old: Project, project: Project, registry: Registry) -> None:
        """Scan `registry` (`old` read as `project`); a switch under way is cancelled."""
        if self.switch_scan is not None:
            self.switch_scan.cancel()
        thread = ScanThread([registry], self)
        thread.done.connect(
            lambda done, t=thread, o=old, p=project, r=registry: self._on_rescanned(
                t, o, p, r, done
            )
        )
        self.switch_scan = thread
        self.status_bar.showMessage(f"Reading {old.base} as {project.profile.name}…")
        thread.start()

    def cancel(self) -> None:
        """Stop the scans under way (another folder is opened, the window closes)."""
        if self.switch_scan is not None:  # a profile switch of the folder being left
            self.switch_scan.cancel()
            self.switch_scan.wait()
            self.switch_scan = None
        thread = self.folder_scan
        if thread is not None:
            self.folder_scan = None
            thread.cancel()
            thread.wait()
            self.progress.setVisible(False)

    def _on_progressed(self, done: int, total: int) -> None:
        if self.sender() is not self.folder_scan:
            return
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.progress.setFormat(f"{done:,} / {counted(total, 'skill')}")

    def _on_read(self, thread: ScanThread, projects: list[Project], read: ScanRead) -> None:
        """The hand-over: the registries enter the context."""
        if thread is not self.folder_scan:
            return  # a scan that was cancelled or replaced
        self.progress.setVisible(False)
        self.context.install(projects, read.registries)
        self.read.emit(read)

    def _on_done(self, thread: ScanThread, projects: list[Project], done: ScanDone) -> None:
        thread.wait()
        thread.deleteLater()
        if thread is not self.folder_scan:
            return  # a scan that was cancelled or replaced
        self.folder_scan = None
        self.progress.setVisible(False)
        self.worker_chunks = done.worker_chunks
        if not done.ok or self.context.projects is not projects:
            return  # cancelled
        QTimer.singleShot(0, lambda: self._land(projects, done))

    def _land(self, projects: list[Project], done: ScanDone) -> None:
        if self.context.projects is not projects or self.busy:
            return  # another folder was opened meanwhile
        set_gists(done.gists)
        self.landed.emit(Landed(projects, done.indexes, done.errors))

    def _on_rescanned(
        self, thread: ScanThread, old: Project, project: Project, registry: Registry, done: ScanDone
    ) -> None:
        thread.wait()
        thread.deleteLater()
        if thread is not self.switch_scan:
            return
        self.switch_scan = None
        if not done.ok or old not in self.context.projects:
            return  # cancelled, or another folder was opened meanwhile
        set_gists(done.gists)
        self.rescanned.emit(Rescanned(old, project, registry, done.indexes))


def set_gists(gists: list[tuple[Skill, str]]) -> None:
    """The gists a scan thread worked out, set on their skills here, on the GUI
    thread, before any likely index is built (0.1-0.2 ms at 10,000 skills)."""
    for skill, gist in gists:
        skill.gist = gist
