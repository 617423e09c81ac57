"""The context menu of Try a Request's ranking: open the skill of a row, ask why it
was not picked, add the request as a test case expecting it."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QMenu, QWidget

OPEN = "Open skill"
WHY_NOT = "Why not this one?"
EXPLAIN = "Explain this one"
ADD = "Add as test case expecting {name}…"


def ranking_menu(
    name: str,
    path: str,
    picked: bool,
    open_skill: Callable[[str], None],
    why_not: Callable[[str], None],
    add_case: Callable[[str], object],
    parent: QWidget | None = None,
) -> QMenu:
    """The menu of the row of the skill `name` (its SKILL.md at `path`); `picked`: the
    answer selects it or shows it as likely (it is explained, not asked "why not")."""
    menu = QMenu(parent)
    menu.addAction(OPEN).triggered.connect(lambda: open_skill(path))
    menu.addAction(EXPLAIN if picked else WHY_NOT).triggered.connect(lambda: why_not(name))
    menu.addAction(ADD.format(name=name)).triggered.connect(lambda: add_case(name))
    return menu
