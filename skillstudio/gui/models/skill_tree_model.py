"""SkillTreeModel: projects' roots → skills → supporting files, over core registries."""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from ...core.model.skills import Root, Skill, name_order, shown_name
from ...core.model.text import counted
from ...core.reading.skill_files import IGNORED_SUPPORT_NAMES, supporting_files
from ...core.scanning.registry import Registry
from ..infra.icons import LEGEND, icon

Index = QModelIndex | QPersistentModelIndex

PATH_ROLE = Qt.ItemDataRole.UserRole + 1
KIND_ROLE = Qt.ItemDataRole.UserRole + 2
EXACT_ARROWS_MAX = 500  # skills in a root up to which a skill without files has no arrow
ROOT_PAGE = 1000  # a root's skills handed to the view at a time (fetchMore)


@dataclass(eq=False)
class _Node:
    kind: str  # root | skill | file
    label: str
    parent: _Node | None
    row: int
    path: str = ""
    skill: Skill | None = None
    root: Root | None = None
    profile: str = ""
    # the profile's own rule that keeps a loaded skill out of its listing (a skill the
    # model never invokes by itself: Profile.listing_omission), on skill rows
    omits: Callable[[Skill], str | None] | None = None
    children: list[_Node] = field(default_factory=list)  # the rows shown
    loaded: bool = True  # supporting files are listed when a skill is first expanded
    has_files: bool | None = None  # whether the folder holds more than SKILL.md (looked once)
    every: list[_Node] = field(default_factory=list)  # a root's skills, filtered or not
    shown: int = 0  # a root's children handed to the view so far (ROOT_PAGE at a time)


TreeNodes = tuple[list[_Node], dict[str, _Node]]  # the roots, and each skill's node by path


def tree_nodes(registries: list[Registry], bases: list[str]) -> TreeNodes:
    """The tree's rows for these registries (no Qt: a worker thread may build them)."""
    roots: list[_Node] = []
    by_path: dict[str, _Node] = {}
    multi = len(registries) > 1
    for registry, base in zip(registries, bases, strict=True):
        by_root: dict[int, list[Skill]] = {}
        for skill in registry.skills:
            by_root.setdefault(id(skill.root), []).append(skill)
        for root in display_order(registry.roots):  # highest precedence first
            project = os.path.basename(base)
            own = root_name(root)
            where = f"{project} · {own}" if multi else own
            order = precedence_words(root, registry.roots) if registry.profile.shadows else ""
            label = f"{where} · {order}".rstrip(" ·")
            node = _Node("root", label, None, 0, root.path, root=root)
            node.profile = registry.profile.name
            for skill in by_root.get(id(root), []):
                name = shown_name(skill, skill.path)
                child = _Node("skill", name, node, 0, skill.path, skill, root)
                child.profile = registry.profile.name
                child.omits = registry.profile.listing_omission
                child.loaded = False
                node.every.append(child)
                by_path[skill.path] = child
            # listed by the name shown (the scan goes by folder), roots kept in precedence
            node.every.sort(key=lambda child: name_order(child.label))
            roots.append(node)
    return roots, by_path


def _stays_in_order(node: _Node, name: str) -> bool:
    """Whether a skill renamed `name` keeps its row: its neighbours in its root still
    sort before and after it."""
    every = node.parent.every if node.parent is not None else []
    place = next((number for number, other in enumerate(every) if other is node), -1)
    if place < 0:
        return False
    key = name_order(name)
    before = place == 0 or name_order(every[place - 1].label) <= key
    return before and (place == len(every) - 1 or key <= name_order(every[place + 1].label))


def root_name(root: Root) -> str:
    """A root's label in the tree, by one rule in every profile: its folder (from the
    folder opened, else from home, else whole), then the agent's word for it where it
    has one (".claude/skills · project"; the same folder under a profile that does not
    read it in place is ".claude/skills", where it was "project" under claude-code).
    A folder of skills opened as it is: its own name; a plugin: the plugin."""
    if root.label == "root":
        return os.path.basename(root.path) or root.path
    if ":" in root.label:  # plugin:NAME (its folder lies deep in the agent's cache)
        return root.label
    folder = _folder_shown(root)
    return folder if root.label in (folder, root.collection) else f"{folder} · {root.label}"


def _folder_shown(root: Root) -> str:
    """A root's folder from the folder opened, else as ~/…, else its whole path."""
    if root.base and os.path.commonpath([root.base, root.path]) == root.base:
        return os.path.relpath(root.path, root.base).replace(os.sep, "/")
    home = os.path.expanduser("~")
    if os.path.commonpath([home, root.path]) == home:
        return "~/" + os.path.relpath(root.path, home).replace(os.sep, "/")
    return root.path


def _group(root: Root) -> str:
    """Roots of one kind that do not shadow each other (plugins, a repository's
    collections): listed A to Z among themselves."""
    if ":" in root.label:
        return root.label.split(":", 1)[0] + ":"
    return "collection" if root.collection else ""


def display_order(roots: list[Root]) -> list[Root]:
    """Highest precedence first; a run of plugins or collections A to Z."""
    ordered, shown = list(reversed(roots)), []
    start = 0
    while start < len(ordered):
        key, end = _group(ordered[start]), start + 1
        while key and end < len(ordered) and _group(ordered[end]) == key:
            end += 1
        run = ordered[start:end]
        shown.extend(sorted(run, key=lambda r: r.label.lower()) if key else run)
        start = end
    return shown


def file_rows(parent: _Node, folder: str, files: list[str]) -> list[_Node]:
    """A skill's supporting files as rows: each sub-folder one closed row holding its
    files (a skill's 30 fonts are one "fonts/" row), then the files beside SKILL.md."""
    assert parent.skill is not None
    loose: list[str] = []
    groups: dict[str, list[str]] = {}
    for rel in files:
        head, sep, rest = rel.replace(os.sep, "/").partition("/")
        if sep:
            groups.setdefault(head, []).append(rest)
        else:
            loose.append(rel)
    rows: list[_Node] = []
    for name in sorted(groups, key=str.lower):
        sub = _Node("folder", f"{name}/", parent, len(rows), os.path.join(folder, name))
        sub.skill, sub.root = parent.skill, parent.root
        sub.children = [
            _Node("file", rel, sub, row, os.path.join(folder, name, rel), parent.skill, parent.root)
            for row, rel in enumerate(groups[name])
        ]
        rows.append(sub)
    for rel in loose:
        path = os.path.join(folder, rel)
        rows.append(_Node("file", rel, parent, len(rows), path, parent.skill, parent.root))
    return rows


class SkillTreeModel(QAbstractItemModel):
    """A read-only tree with its own filter (a proxy model costs too much at 10,000 rows).

    flags() is not overridden: the base class answers enabled + selectable without a
    call into Python, which a 10,000-row layout would make twice per row.

    `set_registries` rebuilds it after a scan; `sync` keeps the rows and swaps in
    re-read skills when only their contents changed; `set_filter` shows the
    skills whose name or folder contains the text.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._top: list[_Node] = []
        self._roots: list[_Node] = []
        self._by_path: dict[str, _Node] = {}
        self._filter = ""
        self._synced: object = None  # what sync() last showed: registries, versions, bases

    # -- building -------------------------------------------------------------
    def set_registries(
        self, registries: list[Registry], bases: list[str], nodes: TreeNodes | None = None
    ) -> None:
        """Rows for these registries; `nodes` when built already (tree_nodes, which the
        scan thread runs: 10,000 rows take 30-120 ms to build)."""
        self.beginResetModel()
        self._synced = None
        self._roots, self._by_path = nodes or tree_nodes(registries, bases)
        self._apply_filter()
        self.endResetModel()

    def sync(self, registries: list[Registry], bases: list[str]) -> bool:
        """Show re-read registries; True when the rows stayed and only data changed.
        Nothing to do for registries shown as they are (every change moves a
        registry's version): a refresh syncs the tree in a slice of its own, then
        updates the other views (4-8 ms fewer in that slice at 10,000 skills)."""
        synced = ([(weakref.ref(r), r.version) for r in registries], list(bases))
        if synced == self._synced:
            return True
        replaced = self._replaced(registries)
        if replaced is None:  # skills came, went or moved: the rows are built again
            self.set_registries(registries, bases)
            self._synced = synced
            return False
        for node, skill in replaced:
            node.skill = skill
            node.label = shown_name(skill, skill.path)
            for child in node.children:
                child.skill = skill
        self._rows_changed([node for node, _ in replaced])
        self._synced = synced
        return True

    def _replaced(self, registries: list[Registry]) -> list[tuple[_Node, Skill]] | None:
        """The rows whose skill was re-read, each with its new skill; None when the
        registries hold other skills, or in another order, than the rows, or a skill's
        name changed (its row moves: the rows are listed by name). One look-up a skill
        (one pass: three over the 10,000 paths took 15 ms)."""
        roots = [root for registry in registries for root in display_order(registry.roots)]
        if [id(root) for root in roots] != [id(node.root) for node in self._roots]:
            return None
        replaced: list[tuple[_Node, Skill]] = []
        count = 0
        for registry in registries:
            for skill in registry.skills:
                node = self._by_path.get(skill.path)
                if node is None or node.root is not skill.root:
                    return None
                count += 1
                if node.skill is not skill:  # else not re-read: its row stays as it is
                    name = shown_name(skill, skill.path)
                    if name != node.label and not _stays_in_order(node, name):
                        return None
                    replaced.append((node, skill))
        if count != len(self._by_path):
            return None
        return replaced

    def _rows_changed(self, nodes: list[_Node]) -> None:
        """dataChanged for these rows only, runs of neighbours as one range: a tree view
        asks hasChildren of every row in a range (10,000 calls, 50 ms, for one root)."""
        shown = sorted(
            (
                node
                for node in nodes
                if node.parent is not None
                and node.parent.row < len(self._top)
                and self._top[node.parent.row] is node.parent  # its root shown
                and node.row < self._count(node.parent)
                and node.parent.children[node.row] is node  # not filtered out
            ),
            key=lambda node: (node.parent.row if node.parent else 0, node.row),
        )
        run: list[_Node] = []
        for node in shown:
            if run and (node.parent is not run[-1].parent or node.row != run[-1].row + 1):
                self._emit_run(run)
                run = []
            run.append(node)
        if run:
            self._emit_run(run)

    def _emit_run(self, run: list[_Node]) -> None:
        first, last = run[0], run[-1]
        self.dataChanged.emit(
            self.createIndex(first.row, 0, first), self.createIndex(last.row, 0, last)
        )

    def set_filter(self, text: str) -> None:
        text = text.strip().lower()
        if text == self._filter:
            return
        self.beginResetModel()
        self._filter = text
        self._apply_filter()
        self.endResetModel()

    def _apply_filter(self) -> None:
        text = self._filter
        self._top = []
        for root in self._roots:
            if text:
                # a root with no skill found is left out, even one whose label has the
                # text ("codex" showed the codex roots empty under the filter)
                root.children = [c for c in root.every if _matches(c, text)]
                if not root.children:
                    root.shown = 0  # none handed to the view: a refresh's rows go by it
                    continue
            else:
                root.children = list(root.every)
            for row, child in enumerate(root.children):
                child.row = row
            root.shown = min(len(root.children), ROOT_PAGE)
            root.row = len(self._top)
            self._top.append(root)

    @property
    def filter_text(self) -> str:
        """The filter in use ("" for none), lower case."""
        return self._filter

    def index_of(self, path: str) -> QModelIndex:
        """The row of a skill (by its SKILL.md) or a root (by its folder), if shown."""
        node = self._by_path.get(path)
        if node is None:
            node = next((r for r in self._top if r.path == path), None)
        if node is None:
            return QModelIndex()
        siblings = node.parent.children if node.parent is not None else self._top
        if node.row >= len(siblings) or siblings[node.row] is not node:
            return QModelIndex()  # filtered out
        if node.parent is not None and node.row >= node.parent.shown:
            self._show_rows(node.parent, node.row + 1)  # (asked for: handed to the view)
        return self.createIndex(node.row, 0, node)

    def hidden_by_filter(self, path: str) -> bool:
        """Whether a skill (by its SKILL.md) is in the tree but the filter hides it."""
        return bool(self._filter) and path in self._by_path and not self.index_of(path).isValid()

    def skill_count(self, index: Index) -> int:
        """The skills a root shows (rowCount: those handed to the view so far)."""
        node = self._node(index)
        return len(node.children) if node is not None else 0

    def _show_rows(self, root: _Node, count: int) -> None:
        count = min(count, len(root.children))
        if count > root.shown:
            self.beginInsertRows(self.createIndex(root.row, 0, root), root.shown, count - 1)
            root.shown = count
            self.endInsertRows()

    def update_skill(self, skill: Skill) -> None:
        """A skill was re-validated (an edit on screen): new icon and tooltip, same row."""
        node = self._by_path.get(skill.path)
        if node is None:
            return
        node.skill = skill
        node.label = shown_name(skill, skill.path)
        for child in node.children:
            child.skill = skill
        index = self.index_of(skill.path)
        if index.isValid():
            self.dataChanged.emit(index, index)

    def more_skills(self, index: Index) -> bool:
        """Whether a root has skills not handed to the view yet (see show_more)."""
        node = self._node(index)
        return node is not None and node.kind == "root" and node.shown < len(node.children)

    def show_more(self, index: Index) -> None:
        """A root's next ROOT_PAGE skills, when the view has scrolled to the last it
        has. A tree view lays out every row it is given (a root of 10,000 took
        110-370 ms to open) and, offered fetchMore, asks for a page at each layout,
        so the window asks instead (MainWindow._show_more_skills)."""
        node = self._node(index)
        if node is not None and node.kind == "root":
            self._show_rows(node, node.shown + ROOT_PAGE)

    def canFetchMore(self, parent: Index) -> bool:
        node = self._node(parent)
        return node is not None and node.kind == "skill" and not node.loaded

    def fetchMore(self, parent: Index) -> None:
        """List a skill's supporting files when it is first expanded (not at scan time)."""
        node = self._node(parent)
        if node is None or node.loaded or node.skill is None:
            return
        node.loaded = True
        folder = node.skill.folder
        rows = file_rows(node, folder, supporting_files(node.skill)[:500])
        if not rows:
            return
        self.beginInsertRows(parent, 0, len(rows) - 1)
        node.children = rows
        self.endInsertRows()

    # -- QAbstractItemModel -----------------------------------------------------
    def _node(self, index: Index) -> _Node | None:
        if not index.isValid():
            return None
        node = index.internalPointer()
        return node if isinstance(node, _Node) else None

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:
        if column != 0 or row < 0:
            return QModelIndex()
        node = self._node(parent)
        children = self._top if node is None else node.children
        if row >= (len(children) if node is None else self._count(node)):
            return QModelIndex()
        return self.createIndex(row, 0, children[row])

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        node = self._node(index)
        if node is None or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.parent.row, 0, node.parent)

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        node = self._node(parent)
        if node is None:
            return len(self._top)
        return self._count(node)

    @staticmethod
    def _count(node: _Node) -> int:
        return node.shown if node.kind == "root" else len(node.children)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 1

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:
        node = self._node(parent)
        if node is None:
            return bool(self._top)
        if node.kind == "skill" and not node.loaded:
            if node.has_files is None:
                # A folder listing per skill: the first layout asks every row of an
                # open root (10,000 listings are 0.5 s), so a larger root keeps its
                # arrows and finds out on expansion.
                root = node.parent
                small = root is None or len(root.every) <= EXACT_ARROWS_MAX
                node.has_files = not small or (
                    node.skill is not None and has_supporting_files(node.skill)
                )
            return node.has_files  # listed on first expansion
        return bool(node.children)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        node = self._node(index)
        if node is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return node.label
        if role == PATH_ROLE:
            return node.path
        if role == KIND_ROLE:
            return node.kind
        if role == Qt.ItemDataRole.DecorationRole:
            return icon(self._icon_name(node))
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(node)
        if (
            role == Qt.ItemDataRole.ForegroundRole
            and node.skill is not None
            and node.kind == "skill"
        ) and node.skill.status in ("shadowed", "skipped", "disabled"):
            return QApplication.palette().color(
                QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text
            )
        return None

    def _icon_name(self, node: _Node) -> str:
        if node.kind in ("root", "folder"):
            return "root"
        if node.kind == "file":
            return "file"
        skill = node.skill
        assert skill is not None
        severities = {d.severity for d in skill.all_diagnostics}
        if "error" in severities:
            return "error"
        if skill.status != "active":
            return skill.status
        if _left_out(node, skill):
            return "disabled"
        if "warning" in severities:
            return "warning"
        return "skill"

    def _tooltip(self, node: _Node) -> str:
        if node.kind == "root" and node.root is not None:
            return (
                f"{node.path}\n{node.profile} root '{node.root.label}': of two skills with "
                f"one name, the one in the root listed higher wins.\n\n{legend()}"
            )
        if node.kind == "folder":
            return f"{node.path}\n{counted(len(node.children), 'file')}"
        if node.kind == "file" or node.skill is None:
            return node.path
        skill = node.skill
        lines = [f"{skill.name} — {LEGEND.get(self._icon_name(node), skill.status)}", skill.path]
        if skill.status_reason:
            lines.append(skill.status_reason)
        elif omitted := _left_out(node, skill):
            lines.append(f"not in {node.profile}'s listing: {omitted}")
        if skill.winner:
            lines.append(f"shadowed by {skill.winner}")
        counts = {s: 0 for s in ("error", "warning")}
        for diag in skill.all_diagnostics:
            if diag.severity in counts:
                counts[diag.severity] += 1
        lines.append(
            f"{counted(counts['error'], 'error')}, {counted(counts['warning'], 'warning')}"
        )
        return "\n".join([*lines, "", legend()])


def _left_out(node: _Node, skill: Skill) -> str | None:
    """Why the profile leaves this loaded skill out of its listing (the model never
    invokes it by itself: `disable-model-invocation: true` where the agent honours it),
    as tier 2, the likely ranking and headroom read it; None when it is listed."""
    if node.omits is None:
        return None
    try:
        return node.omits(skill)
    except Exception:  # an icon never fails on one skill's odd fields
        return None


def _matches(node: _Node, text: str) -> bool:
    """The filter finds a skill by its name, its folder's name or its description."""
    if text in node.label.lower() or text in os.path.basename(os.path.dirname(node.path)):
        return True
    return node.skill is not None and text in node.skill.description.lower()


def legend() -> str:
    return "Icons:\n" + "\n".join(f"  {name}: {text}" for name, text in LEGEND.items())


def precedence_words(root: Root, roots: list[Root]) -> str:
    """'wins over builtin' for a root above others; the lowest 'yields to user'. Only
    the roots of one agent's precedence order shadow each other: a collection of a
    repository (`Root.collection`) wins over nothing and yields to nothing
    (core/scanning/winners.py), so it gets no words and is none of the others'."""
    if root.collection:
        return ""
    chain = [r for r in roots if not r.collection]
    lower = [
        r.label
        for r in sorted(chain, key=lambda r: -r.precedence)
        if r.precedence < root.precedence
    ]
    if lower:
        return "wins over " + ", ".join(lower)
    higher = [
        r.label for r in sorted(chain, key=lambda r: r.precedence) if r.precedence > root.precedence
    ]
    return "yields to " + ", ".join(higher) if higher else ""


def has_supporting_files(skill: Skill) -> bool:
    """Whether the skill's folder holds anything beside SKILL.md (one folder listing)."""
    own = os.path.basename(skill.path)
    try:
        with os.scandir(skill.folder) as entries:
            return any(e.name != own and e.name not in IGNORED_SUPPORT_NAMES for e in entries)
    except OSError:
        return False
