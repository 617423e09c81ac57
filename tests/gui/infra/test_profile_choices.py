"""Tests of gui/infra/profile_choices.py (The profiles as the app lists them: the real
agents first, then the five seed systems as a group of their own, each with one line
saying what it is (its title))."""

from __future__ import annotations

from PySide6.QtCore import Qt

from skillstudio.gui.window.main_window import MainWindow


# -- item 17: real agents, then the seed systems, each said what it is ---------------------
def test_profile_box_lists_agents_then_seed_systems_each_with_a_line(window: MainWindow) -> None:
    box = window.profile_box
    names = [box.itemData(n) for n in range(box.count())]
    seeds = ["oasis", "pegasus", "toolsets", "mvp", "workspace"]
    agents = ["agentskills", "claude-code", "codex"]
    assert names[0] == ""  # auto
    last_agent = max(names.index(a) for a in agents)
    first_seed = min(names.index(s) for s in seeds)
    assert last_agent < first_seed, names
    separator = next(n for n in range(box.count()) if box.itemText(n) == "" and n > 0)
    assert last_agent < separator < first_seed, "a line between the two groups"
    tip = box.itemData(names.index("oasis"), Qt.ItemDataRole.ToolTipRole)
    assert "seed/test system" in tip and "not an agent" in tip and "Oasis" in tip
    tip = box.itemData(names.index("codex"), Qt.ItemDataRole.ToolTipRole)
    assert "agent" in tip and "Codex" in tip


def test_the_profile_boxes_call_the_seed_systems_what_they_are(window: MainWindow) -> None:
    box = window.profile_box
    texts = {box.itemData(n): box.itemText(n) for n in range(box.count()) if box.itemData(n)}
    for seed in ("oasis", "pegasus", "toolsets", "mvp", "workspace"):
        assert texts[seed] == f"Profile: {seed} (seed/test system)"
    for agent in ("agentskills", "claude-code", "codex"):
        assert texts[agent] == f"Profile: {agent}"
