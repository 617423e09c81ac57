"""SkillTreeModel: projects' roots → skills → supporting files, over core registries."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from ..core.model import Root, Skill
from ..core.registry import Registry
from .icons import icon

Index = QModelIndex | QPersistentModelIndex

PATH_ROLE = Qt.ItemDataRole.UserRole + 1
KIND_ROLE = Qt.ItemDataRole.UserRole + 2


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
    children: list[_Node] = field(default_factory=list)
    loaded: bool = True  # supporting files are listed when a skill is first expanded


class SkillTreeModel(QAbstractItemModel):
    """A read-only tree; `set_registries` rebuilds it after a scan or refresh."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._top: list[_Node] = []

    # -- building -------------------------------------------------------------
    def set_registries(self, registries: list[Registry], bases: list[str]) -> None:
        self.beginResetModel()
        self._top = []
        multi = len(registries) > 1
        for registry, base in zip(registries, bases, strict=True):
            for root in reversed(registry.roots):  # highest precedence first
                project = os.path.basename(base)
                where = f"{project} · {root.label}" if multi else root.label
                label = f"{where}  ({root.precedence + 1})" if len(registry.roots) > 1 else where
                node = _Node(
                    "root",
                    label,
                    None,
                    len(self._top),
                    root.path,
                    root=root,
                    profile=registry.profile.name,
                )
                for skill in registry.skills:
                    if skill.root is not root:
                        continue
                    child = _Node(
                        "skill",
                        skill.name,
                        node,
                        len(node.children),
                        skill.path,
                        skill,
                        profile=registry.profile.name,
                        loaded=False,
                    )
                    node.children.append(child)
                self._top.append(node)
        self.endResetModel()

    def update_skill(self, skill: Skill) -> None:
        """A skill was re-validated (an edit on screen): new icon and tooltip, same row."""
        for root in self._top:
            for node in root.children:
                if node.path == skill.path:
                    node.skill = skill
                    for child in node.children:
                        child.skill = skill
                    index = self.createIndex(node.row, 0, node)
                    self.dataChanged.emit(index, index)
                    return

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
        files = node.skill.supporting_files()[:500]
        if not files:
            return
        self.beginInsertRows(parent, 0, len(files) - 1)
        node.children = [
            _Node("file", rel, node, row, os.path.join(folder, rel), node.skill, node.root)
            for row, rel in enumerate(files)
        ]
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
        if row >= len(children):
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
        return len(node.children)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 1

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:
        node = self._node(parent)
        if node is None:
            return bool(self._top)
        if node.kind == "skill" and not node.loaded:
            return True  # listed on first expansion
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
        if node.kind == "root":
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
        if "warning" in severities:
            return "warning"
        return "skill"

    def _tooltip(self, node: _Node) -> str:
        if node.kind == "root" and node.root is not None:
            return (
                f"{node.path}\n{node.profile} root '{node.root.label}', precedence "
                f"{node.root.precedence + 1} (higher wins)"
            )
        if node.kind == "file" or node.skill is None:
            return node.path
        skill = node.skill
        lines = [f"{skill.name} — {skill.status}", skill.path]
        if skill.status_reason:
            lines.append(skill.status_reason)
        if skill.winner:
            lines.append(f"shadowed by {skill.winner}")
        counts = {s: 0 for s in ("error", "warning")}
        for diag in skill.all_diagnostics:
            if diag.severity in counts:
                counts[diag.severity] += 1
        lines.append(f"{counts['error']} errors, {counts['warning']} warnings")
        return "\n".join(lines)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
