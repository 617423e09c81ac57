"""WelcomePage: what the centre shows while no tab is open, so the window explains itself."""

from __future__ import annotations

import html
import os

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ..infra.places import editable_samples, home_relative, samples_folder
from ..infra.profile_choices import profile_groups

SHORTCUTS = (
    ("Ctrl+P", "find a skill by name"),
    ("Ctrl+K", "try a request: which skill would the agent pick, and what it would see"),
    ("F6", "run the open suite of test requests"),
)
OPENS = (  # what Open Folder, Open Project and Open the Samples each open
    "A folder with skills in it: the skill system it is read as (its profile) is "
    "detected from its layout, or taken from its skillstudio.yaml if it has one.",
    "A skillstudio.yaml file: the project it describes, read with the profile, skill "
    "folders and test suites written there.",
    "The bundled examples: a small project for each profile SkillStudio knows (the "
    f"agents {', '.join(profile_groups()[0])} and the {len(profile_groups()[1])} "
    "seed/test systems).",
)
TIERS = (
    "What an agent sees of its skills, in four tiers: <b>0</b> none of them (the "
    "agent is shown nothing of its skills) · <b>1</b> a "
    "breadcrumb (a one-line hint that skills exist) · <b>2</b> the listing (each skill's "
    "name and description) · <b>3</b> the full instructions of the skills it picks.<br>"
    "Try a Request shows the exact text of each tier and marks the one the agent would use."
)


class WelcomePage(QWidget):
    """Signals:
    open_folder_requested(): the user asked for the Open Folder dialog.
    open_project_requested(): the user asked for the Open Project dialog.
    folder_chosen(str): a recent folder or the samples were clicked.
    """

    open_folder_requested = Signal()
    open_project_requested = Signal()
    folder_chosen = Signal(str)

    def __init__(self, samples: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.samples = samples
        self._recent: list[str] = []
        body = QWidget(self)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(40, 20, 40, 16)  # whole at 1024x640, under the dock
        layout.setSpacing(8)
        title = QLabel("<h2>SkillStudio</h2>", body)
        self.status = QLabel(body)  # what is open, or that nothing is
        self.status.setWordWrap(True)
        buttons = QGridLayout()  # each way in, with a line saying what it opens
        buttons.setHorizontalSpacing(12)
        buttons.setVerticalSpacing(4)
        self.open_folder = QPushButton("Open Folder…", body)
        self.open_folder.clicked.connect(self.open_folder_requested)
        self.open_project = QPushButton("Open Project…", body)
        self.open_project.clicked.connect(self.open_project_requested)
        self.open_samples = QPushButton("Open the Samples", body)
        self.open_samples.clicked.connect(self._choose_samples)
        self.open_samples.setVisible(os.path.isdir(samples))
        self.explained: dict[QPushButton, QLabel] = {}
        for row, (button, what) in enumerate(
            zip((self.open_folder, self.open_project, self.open_samples), OPENS, strict=True)
        ):
            line = QLabel(what, body)
            line.setWordWrap(True)
            line.setVisible(not button.isHidden())
            button.setToolTip(samples if button is self.open_samples else what)
            buttons.addWidget(button, row, 0)
            buttons.addWidget(line, row, 1)
            self.explained[button] = line
        buttons.setColumnStretch(1, 1)
        self.recent = QLabel(body)
        self.recent.setTextFormat(Qt.TextFormat.RichText)
        self.recent.linkActivated.connect(self._on_link)
        tiers = QLabel(TIERS, body)
        tiers.setWordWrap(True)
        rows = "".join(
            f"<tr><td><b>{key}</b>&nbsp;&nbsp;</td><td>{html.escape(what)}</td></tr>"
            for key, what in SHORTCUTS
        )
        shortcuts = QLabel(f"<table>{rows}</table>", body)
        for widget in (title, self.status):
            layout.addWidget(widget)
        layout.addLayout(buttons)
        layout.addWidget(self.recent)
        layout.addWidget(QLabel("<b>The four tiers</b>", body))
        layout.addWidget(tiers)
        layout.addWidget(QLabel("<b>Shortcuts</b>", body))
        layout.addWidget(shortcuts)
        layout.addStretch(1)
        body.setMaximumWidth(760)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(body)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        self.set_state("", [])

    def _choose_samples(self) -> None:
        """The samples; when the app is installed, the user's copy of them (places.py)."""
        bundled = self.samples == samples_folder()
        self.folder_chosen.emit(editable_samples()[0] if bundled else self.samples)

    def set_state(self, folder: str, recent: list[str]) -> None:
        """`folder`: the open folder ("" for none); `recent`: recent folders, newest first."""
        if folder:
            text = (
                f"Open: <b>{html.escape(home_relative(folder))}</b>. Click a skill in the "
                "tree on the left to open it in a tab, or start below."
            )
        else:
            text = "No folder is open. Open a folder of skills, a project, or the samples."
        self.status.setText(text)
        self._recent = [p for p in recent if os.path.isdir(p)]
        links = "".join(
            f'<li><a href="{number}">{html.escape(home_relative(path))}</a></li>'
            for number, path in enumerate(self._recent)
        )
        self.recent.setText(f"<b>Recent folders</b><ul>{links}</ul>" if links else "")
        self.recent.setToolTip("\n".join(self._recent))  # in full
        self.recent.setVisible(bool(links))

    def _on_link(self, link: str) -> None:
        if link.isdigit() and int(link) < len(self._recent):
            self.folder_chosen.emit(self._recent[int(link)])
