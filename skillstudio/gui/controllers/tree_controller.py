"""What the skill tree does: its rows over the registries, roots opened by themselves
up to a size, large roots paged in as they scroll into view, the filter box, and the
row of the current tab."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QObject, QTimer, Signal
from PySide6.QtWidgets import QLineEdit

from ...core.scanning.registry import Registry
from ..models.skill_tree_model import KIND_ROLE, PATH_ROLE, SkillTreeModel, TreeNodes
from ..panels.skill_tree_view import SkillTreeView

FILTER_DELAY_MS = 120
AUTO_EXPAND_MAX = 2000


class SkillTree(QObject):
    """The tree's behaviour over `view`, `model` and `filter_box`.

    Signals:
    skill_activated(str): a skill's row was activated, or Enter pressed in the filter
        box with skills shown (the first one's SKILL.md path).
    file_activated(str): a row of a file of a skill was activated.
    """

    skill_activated = Signal(str)
    file_activated = Signal(str)

    def __init__(
        self,
        view: SkillTreeView,
        model: SkillTreeModel,
        filter_box: QLineEdit,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.view = view
        self.model = model
        self.filter_box = filter_box
        self.filter_timer = QTimer(self)
        self.filter_timer.setSingleShot(True)
        self.filter_timer.setInterval(FILTER_DELAY_MS)
        self.filter_timer.timeout.connect(self._on_filter_timer)
        filter_box.textChanged.connect(self.filter_timer.start)
        filter_box.textChanged.connect(self._forget_note)
        self.placeholder = filter_box.placeholderText()  # said again once it is typed in
        filter_box.returnPressed.connect(self._on_filter_entered)
        view.setModel(model)
        self.followed = ""  # the current tab's skill, shown again after the filter changes
        # One click opens a skill or a file (the welcome page says "pick a skill");
        # Enter and double-click too.
        view.clicked.connect(self._on_activated)
        view.activated.connect(self._on_activated)
        view.verticalScrollBar().valueChanged.connect(self._on_view_moved)
        view.verticalScrollBar().rangeChanged.connect(self._on_view_moved)
        view.expanded.connect(self._on_view_moved)

    def show(
        self, registries: list[Registry], bases: list[str], nodes: TreeNodes | None = None
    ) -> None:
        """Rows built again (`nodes`: built already, off the GUI thread)."""
        self.model.set_registries(registries, bases, nodes)
        self.expand_roots()

    def sync(self, registries: list[Registry], bases: list[str]) -> None:
        """The tree after a refresh: its rows kept if they can (nothing to do when it
        shows the registries as they are); the selected row selected again by its path
        where the rows were built again and it is still there."""
        kept = self.current_path()
        if not self.model.sync(registries, bases):
            self.expand_roots()  # skills came or went: the rows were rebuilt
            row = self.model.index_of(kept) if kept else QModelIndex()
            if row.isValid() and self.view.currentIndex() != row:
                self.view.setCurrentIndex(row)

    def expand_roots(self) -> None:
        """Roots open by themselves up to AUTO_EXPAND_MAX skills; a larger one (its
        first layout stalls for a quarter of a second at 10,000) opens when asked."""
        for row in range(self.model.rowCount()):
            root = self.model.index(row, 0)
            if self.model.skill_count(root) <= AUTO_EXPAND_MAX:
                self.view.expand(root)

    def select(self, path: str) -> None:
        """The row of `path` (the current tab's skill) made current and scrolled to."""
        self.followed = path
        row = self.model.index_of(path) if path else QModelIndex()
        if row.isValid() and self.view.currentIndex() != row:
            self.view.setCurrentIndex(row)
            self.view.scrollTo(row)

    def reveal(self, path: str) -> str:
        """A skill just made shown and selected even where the filter hid it (a new
        skill did not appear while the tree was filtered): the filter is cleared, and
        what was done said, in the empty filter box until it is typed in, and returned
        ("" when the row showed already)."""
        if not self.model.hidden_by_filter(path):
            self.select(path)
            return ""
        words = self.filter_box.text().strip()
        self.filter_box.clear()
        self.filter_timer.stop()
        self.followed = path
        self._on_filter_timer()  # at once, the new skill's row selected
        said = f"Filter \u201c{words}\u201d cleared to show the new skill."
        self.filter_box.setPlaceholderText(said)
        return said

    def _forget_note(self, _text: str) -> None:
        self.filter_box.setPlaceholderText(self.placeholder)

    def current_path(self) -> str:
        """The path of the tree's current row ("" for none)."""
        return self.view.currentIndex().data(PATH_ROLE) or ""

    def _on_view_moved(self, *_args: object) -> None:
        """A large root's next page of skills once its last row shown comes into view."""
        model, bottom = self.model, self.view.viewport().height()
        for row in range(model.rowCount()):
            root = model.index(row, 0)
            if not self.view.isExpanded(root) or not model.more_skills(root):
                continue
            last = model.index(model.rowCount(root) - 1, 0, root)
            if self.view.visualRect(last).top() <= bottom:
                model.show_more(root)  # (the view's range changes: asked again)

    def _on_filter_timer(self) -> None:
        self.model.set_filter(self.filter_box.text())
        self.expand_roots()
        self.view.viewport().update()  # its empty text may change
        self.select(self.followed)  # the current tab's row, when the filter shows it

    def _on_filter_entered(self) -> None:
        """Enter in the filter box opens the first skill shown (Ctrl+P, type, Enter)."""
        self.filter_timer.stop()
        self._on_filter_timer()
        for row in range(self.model.rowCount()):
            root = self.model.index(row, 0)
            if self.model.rowCount(root):
                first = self.model.index(0, 0, root)
                self.view.setCurrentIndex(first)
                self.skill_activated.emit(first.data(PATH_ROLE))
                return

    def _on_activated(self, index: QModelIndex) -> None:
        kind = index.data(KIND_ROLE)
        path = index.data(PATH_ROLE)
        if kind == "skill" and path:
            self.skill_activated.emit(path)
        elif kind == "file" and path:
            self.file_activated.emit(path)
