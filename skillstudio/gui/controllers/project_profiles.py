"""The profile a project is read as, chosen per project (its context menu in the tree,
or the status-bar box, which follows the current project). Switching rescans that
project only and keeps the open tabs, their unsaved text included."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable

from PySide6.QtCore import QObject, QSize, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QMenu,
    QStyle,
    QStyleOptionComboBox,
    QWidget,
)

from ...core.editing.saving import SaveError
from ...core.profiles import PROFILE_NAMES
from ...core.projects.config import CONFIG_NAME
from ...core.projects.config_writer import (
    command_line_profile,
    named_profile,
    read_config_text,
    write_profile,
)
from ...core.projects.project import Project, UsageError, project_from_folder, projects_for_path
from ...core.ranking.match_index import MatchIndex
from ...core.reading.yaml_io import EditError
from ..dialogs.questions import Dialogs
from ..infra.one_line import one_line
from ..infra.profile_choices import fill_profile_box, profile_groups, profile_line
from ..models.app_context import AppContext
from .document_tabs import DocumentTabs
from .scan_controller import Rescanned, Scanning


class ProjectProfiles(QObject):
    """The status bar's profile box and project label, 'Read Project As' in a root's
    menu, and the switch itself.

    Signals:
    switched(): a project read as another profile is shown everywhere (its tabs
        opened again under the new rules).
    chosen(str, str): the user chose a profile for a project (its folder, the
        profile's name, "" for auto): the window remembers it for that folder.
    recorded(str): the profile chosen was written to the project's skillstudio.yaml
        (what to say in the status bar).
    """

    switched = Signal()
    chosen = Signal(str, str)
    recorded = Signal(str)

    def __init__(
        self,
        context: AppContext,
        scanning: Scanning,
        documents: DocumentTabs,
        dialogs: Dialogs,
        current_path: Callable[[], str],
        show_projects: Callable[[list[MatchIndex]], None],
        parent: QWidget,
    ) -> None:
        """`current_path()`: the path the user is at (the current tab's skill, else the
        tree's current row). `show_projects(indexes)`: the views and panels show the
        context's projects again (`indexes`: match indexes built for them already)."""
        super().__init__(parent)
        self.context = context
        self.scanning = scanning
        self.documents = documents
        self.dialogs = dialogs
        self.current_path = current_path
        self.show_projects = show_projects
        # the profile remembered for a folder ("" for none): a profile chosen but not
        # remembered for the folder is the Settings' default one
        self.remembered: Callable[[str], str] = lambda _base: ""
        self.project_label = QLabel(parent)
        self.profile_box = QComboBox(parent)
        self.profile_box.setToolTip(BOX_TIP)
        # as wide as the entry on screen ("Profile: auto → agentskills" was cut; as wide
        # as its widest entry, "… (seed/test system)", it squeezed the line beside it);
        # the list it opens as wide as its entries
        fill_profile_box(self.profile_box, AUTO, "Profile: {}")
        self._fit_box()
        self.profile_box.currentIndexChanged.connect(self._on_profile_chosen)
        scanning.rescanned.connect(self._on_rescanned)

    def _fit_box(self) -> None:
        box = self.profile_box
        option = QStyleOptionComboBox()
        box.initStyleOption(option)
        text = QSize(
            box.fontMetrics().horizontalAdvance(box.currentText()), box.fontMetrics().height()
        )
        size = box.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option, text, box)
        box.setFixedWidth(size.width() + 8)
        metrics = box.view().fontMetrics()
        widest = max(metrics.horizontalAdvance(box.itemText(n)) for n in range(box.count()))
        box.view().setMinimumWidth(widest + 32)  # the list shows every entry whole

    def current_project(self) -> int:
        """The project of the current tab, else of the tree's current row, else the first."""
        number = self.context.project_number(self.current_path())
        return number if number is not None else 0

    def sync_box(self, *_args: object) -> None:
        """The box and its label show the current project's profile."""
        if not self.context.projects:
            self.project_label.setText("")
            self.profile_box.blockSignals(True)
            self.profile_box.setItemText(0, auto_label(None))
            self.profile_box.setCurrentIndex(0)
            self.profile_box.blockSignals(False)
            self._fit_box()
            return
        project = self.context.projects[self.current_project()]
        chosen = project.profile.name if project.profile_reason == "--profile" else ""
        self.profile_box.blockSignals(True)
        self.profile_box.setItemText(0, auto_label(project))
        self.profile_box.setCurrentIndex(max(self.profile_box.findData(chosen), 0))
        self.profile_box.blockSignals(False)
        self._fit_box()
        self.project_label.setText(project_status(project, self.remembered(project.base)))
        self.project_label.setToolTip(
            f"{project.base}\nProfile {project.profile.name}: {project_reason(project)}"
        )

    def _on_profile_chosen(self, _index: int) -> None:
        if self.context.projects:
            self.set_project_profile(self.current_project(), self.profile_box.currentData() or None)
        else:
            self.sync_box()

    def fill_menu(self, menu: QMenu, root: str) -> None:
        """'Read Project As' in a root's context menu."""
        number = self.context.root_project_number(root)
        if number is None:
            return
        project = self.context.projects[number]
        sub = menu.addMenu(f"Read {os.path.basename(project.base)} As")
        sub.setToolTipsVisible(True)
        agents, seeds = profile_groups()
        for name in ("", *agents, *seeds):
            if name and name == (seeds or [""])[0]:
                sub.addSection("Seed/test systems (not agents)")
            action = sub.addAction(name or "auto (skillstudio.yaml or detection)")
            action.setToolTip(profile_line(name) if name else "")
            action.setCheckable(True)
            explicit = project.profile_reason == "--profile"
            action.setChecked(project.profile.name == name if explicit else not name)
            action.triggered.connect(
                lambda _c=False, n=number, p=name or None: self.set_project_profile(n, p)
            )

    def reread(self, number: int) -> bool:
        """Read project `number` again as it is read now (its skillstudio.yaml changed)."""
        old = self.context.projects[number]
        chosen = old.profile_reason == "--profile"
        return self.set_project_profile(number, old.profile.name if chosen else None, False)

    def set_project_profile(self, number: int, profile: str | None, remember: bool = True) -> bool:
        """Read project `number` as `profile` (None: auto); the scan runs in the background
        and `switched` is emitted when the views show it."""
        old = self.context.projects[number]
        try:
            project = reread_as(old, profile)
            registry = project.registry(track_files=True)
        except (UsageError, StopIteration) as exc:
            self.dialogs.warn(f"Not switched: {exc}")
            self.sync_box()
            return False
        except Exception as exc:  # a core bug on the folder's configuration
            self.dialogs.warn(f"Not switched: reading {old.base} failed: {one_line(exc)}")
            self.sync_box()
            return False
        if remember and profile is not None:
            self._tell_command_line(old, profile)
        self.scanning.rescan(old, project, registry)
        if remember:  # (auto is remembered too: the default profile then stays out)
            self.chosen.emit(old.base, profile or AUTO_CHOSEN)
        return True

    def _tell_command_line(self, old: Project, profile: str) -> None:
        """The user chose `profile` for `old`'s folder: when `skillstudio lint`, `test`
        and CI read the folder as another (its skillstudio.yaml's, or the detected one),
        say so, and offer to write `profile:` to skillstudio.yaml when it names none."""
        name = os.path.basename(old.base)
        try:
            cli = command_line_profile(old.base)
            if cli == profile:
                return
            if named_profile(read_config_text(old.base)[0]) is not None:
                self.dialogs.inform(
                    f"{name} is read as {profile} in this app only: its {CONFIG_NAME} "
                    f"names {cli}, so skillstudio lint, test and CI read it as {cli}, and "
                    f"the app too when the folder is opened again. Change 'profile:' in "
                    f"{CONFIG_NAME} to read it as {profile} everywhere."
                )
                return
            question = (
                f"{name} is read as {profile} in this app only: skillstudio lint, test and "
                f"CI read it as {cli} (detected from its folder layout).\n\nWrite "
                f"'profile: {profile}' to its {CONFIG_NAME} so that they read it as "
                f"{profile} too?"
            )
            if self.dialogs.ask_record_profile(question) and write_profile(old.base, profile):
                self.recorded.emit(f"profile: {profile} written to {CONFIG_NAME} of {name}")
        except (SaveError, EditError, OSError) as exc:
            self.dialogs.warn(f"{CONFIG_NAME} of {name} not written: {one_line(exc)}")

    def follow_default(self, before: str, after: str) -> int:
        """The default profile in Settings changed from `before` to `after` ("" = auto):
        each open project it applies to (no profile chosen for its folder, none in its
        skillstudio.yaml, no agent's marks) is read again at once; how many."""
        count = 0
        for number, project in enumerate(self.context.projects):
            if before == after or self.remembered(project.base):
                continue
            by_default = project.profile_reason == "--profile" and project.profile.name == before
            if by_default or (after and unmarked(project)):
                count += self.set_project_profile(number, after or None, remember=False)
        return count

    def _on_rescanned(self, rescanned: Rescanned) -> None:
        replaced = self.context.replace(rescanned.old, rescanned.project, rescanned.registry)
        if replaced is None:
            return  # another folder was opened meanwhile
        self.show_projects(rescanned.indexes)
        self.documents.reopen_tabs(replaced, rescanned.registry)
        self.sync_box()
        self.switched.emit()


def reread_as(old: Project, profile: str | None) -> Project:
    """`old` resolved again as `profile` (None: auto); UsageError when it cannot be."""
    if old.files:
        skill_md = next((path for paths in old.files.values() for path in paths), "")
        if skill_md:
            return projects_for_path(skill_md, profile)[0]
    return project_from_folder(old.base, profile)


AUTO_CHOSEN = "auto"  # remembered for a folder: auto chosen in the status bar's box


def unmarked(project: Project) -> bool:
    """Whether the project was read as the default for want of marks: no
    skillstudio.yaml names a profile and no agent's marks were found in its folder."""
    return project.profile_reason.startswith("default:")


def with_remembered(
    projects: list[Project], profile_of: Callable[[str], str], default: str = ""
) -> list[Project]:
    """Each project read as the profile remembered for its folder (`profile_of(base)`,
    "" for none, AUTO_CHOSEN for auto), else as `default` when it has no marks (no
    skillstudio.yaml naming a profile, no agent's marks found); a project that cannot
    be read so stays as it was. A project whose skillstudio.yaml names a profile is
    read as the file says, as `skillstudio test` and CI read it (issue 39)."""
    kept = []
    for project in projects:
        wanted = profile_of(project.base)
        if wanted == AUTO_CHOSEN or project.profile_reason == CONFIG_NAME:
            # auto chosen for the folder, or its file names the profile: as resolved
            kept.append(project)
            continue
        if not wanted and unmarked(project):  # the default: a fallback, never over marks
            wanted = default
        explicit = project.profile_reason == "--profile"
        if wanted in PROFILE_NAMES and (wanted != project.profile.name or not explicit):
            # (if it cannot be read so, detection or the configuration wins; the box says which)
            with contextlib.suppress(UsageError, OSError, StopIteration, IndexError):
                project = reread_as(project, wanted)
        kept.append(project)
    return kept


def project_reason(project: Project) -> str:
    """Why the project is read as its profile, in words."""
    reason = project.profile_reason
    if reason == "--profile":
        return "chosen in this window (Profile box or the project's Read As menu)"
    if reason == CONFIG_NAME:
        return f"set by its {CONFIG_NAME}"
    return f"detected ({reason})" if reason else "detected"


def how_chosen(project: Project, remembered: str = "") -> str:
    """How the project's profile was chosen, in a few plain words (`remembered`: the
    profile remembered for its folder, "" for none)."""
    reason = project.profile_reason
    if reason.startswith("--profile"):
        if remembered and remembered != project.profile.name:
            return "chosen"  # (a remembered one that could not be read so: another)
        if remembered:
            return "chosen for this folder" + _command_line_reads(project)
        return "the default profile in Settings (no agent's marks in the folder)"
    if reason == CONFIG_NAME:
        return f"set by its {CONFIG_NAME}"
    if reason.startswith("default"):  # (as `lint` says it: "default: no other … found")
        return "the default: no other profile's marks found in the folder"
    return "detected from its folder layout"


def _command_line_reads(project: Project) -> str:
    """A profile chosen in the app only: that `lint`, `test` and CI read another."""
    try:
        cli = command_line_profile(project.base)
    except OSError:
        return ""
    return "" if cli == project.profile.name else f"; the command line reads {cli}"


def project_status(project: Project, remembered: str = "") -> str:
    """The status bar's line: which project, read as which profile, and how it was
    chosen ("Project notes is read as agentskills: detected from its folder layout";
    it read "… read as agentskills (detected)", which a first-time user could not
    place)."""
    name = os.path.basename(project.base)
    return f"Project {name} is read as {project.profile.name}: {how_chosen(project, remembered)}"


AUTO = "Profile: auto"
BOX_TIP = (
    "The skill system (profile) the current project is read as. auto: the one its "
    f"{CONFIG_NAME} names, else the one detected from its folder layout. Choose another "
    "to read the project as that system: open tabs are kept, and the choice is kept for "
    f"this folder, auto included, unless its {CONFIG_NAME} names a profile: the folder "
    "then opens as the file says, as skillstudio test reads it (Edit › Settings › "
    "Default profile sets one for the folders with no marks)."
)


def auto_label(project: Project | None) -> str:
    """The box's auto entry: what auto reads the project as, when it is on auto."""
    if project is None or project.profile_reason.startswith("--profile"):
        return AUTO
    return f"{AUTO} → {project.profile.name}"
