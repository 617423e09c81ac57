"""Diagnostics (core/model/diagnostics.py): a message many skills get is held once."""

from __future__ import annotations

from typing import Any

from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.scanning.skill_state import skill_from_state, skill_state
from tests.helpers import skill_text, write


def test_a_message_many_skills_get_is_one_string(tmp_path: Any) -> None:
    """At 10,000 skills, 68,000 messages held 38,000 copies of 4 texts (8 MB)."""
    for name in ("alpha", "beta"):
        text = skill_text(name=name, description="Reviews release notes.", priority="high")
        write(tmp_path, f"{name}/SKILL.md", text)
    registry = project_from_folder(str(tmp_path), "agentskills").registry()
    registry.scan()
    found = [
        [d for d in skill.diagnostics if d.code == "unknown-field"] for skill in registry.skills
    ]
    assert [len(f) for f in found] == [1, 1]
    first, second = found[0][0], found[1][0]
    assert first.message == second.message and first.message is second.message
    # a skill read by a worker process comes back as its state: the same string again
    back = skill_from_state(skill_state(registry.skills[1]), registry.skills[1].root)
    [again] = [d for d in back.diagnostics if d.code == "unknown-field"]
    assert again.message is first.message
