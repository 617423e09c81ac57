"""The profiles as the app lists them: the real agents first, then the five seed
systems as a group of their own, each with one line saying what it is (its title)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from ...core.profiles import PROFILE_CLASSES, PROFILE_NAMES


def is_seed(name: str) -> bool:
    """A seed system of the project's specification, not an agent people install."""
    cls = PROFILE_CLASSES.get(name)
    return cls is not None and cls.source.startswith("seed")


def profile_groups() -> tuple[list[str], list[str]]:
    """(real agents, seed systems), each in the registry's order."""
    agents = [n for n in PROFILE_NAMES if not is_seed(n)]
    return agents, [n for n in PROFILE_NAMES if is_seed(n)]


def profile_line(name: str) -> str:
    """What the profile is, in one line (its own title)."""
    cls = PROFILE_CLASSES.get(name)
    if cls is None:
        return name
    kind = "seed/test system of the specification, not an agent" if is_seed(name) else "agent"
    return f"{cls.title} ({kind}; rules from {cls.source})"


def fill_profile_box(box: QComboBox, auto_label: str, label: str = "{}") -> None:
    """`box` lists auto (data ""), the agents, a separator and the seed systems (each
    shown as "oasis (seed/test system)"); each entry's tooltip says what it is. `label`
    formats the shown name."""
    box.clear()
    box.addItem(auto_label, "")  # never None data (see form_view)
    agents, seeds = profile_groups()
    for group_number, group in enumerate((agents, seeds)):
        if group_number and group:
            box.insertSeparator(box.count())
        for name in group:
            shown = f"{name} (seed/test system)" if group_number else name  # not an agent
            box.addItem(label.format(shown), name)
            box.setItemData(box.count() - 1, profile_line(name), Qt.ItemDataRole.ToolTipRole)
