"""The match index (core/ranking/match_index.py): description keywords -> paths."""

from __future__ import annotations

import sys
from typing import Any

from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.match_index import MatchIndex, keyword_counts
from tests.helpers import skill_text, write


def test_keyword_paths_are_counted_kept_current_and_held_compactly(tmp_path: Any) -> None:
    """A set grown one path at a time kept 2.5-10 slots a path (12 MB for 190,000 paths
    at 10,000 synthetic skills); the paths are now a dict's keys (5 MB)."""
    for n in range(400):
        told = "Reviews release notes" + (" and deploys queues." if n % 2 else ".")
        write(tmp_path, f"s{n:03d}/SKILL.md", skill_text(name=f"s{n:03d}", description=told))
    registry = project_from_folder(str(tmp_path), "agentskills").registry()
    registry.scan()
    index = MatchIndex(registry)
    counts = keyword_counts(index, frozenset({"release", "deploys", "absent"}))
    assert len(counts) == 400 and sorted(set(counts.values())) == [1, 2]
    assert sum(counts.values()) == 600
    members = sum(len(paths) for paths in index.keywords.values())
    held = sum(sys.getsizeof(paths) for paths in index.keywords.values())
    assert members >= 400 * 3 and held / members < 45, f"{held / members:.0f} bytes a path"
    gone = next(s.path for s in registry.skills if s.name == "s001")  # one that deploys
    write(tmp_path, "s001/SKILL.md", skill_text(name="s001", description="Formats tables."))
    registry.reparse(gone, None)
    index.sync()
    counts = keyword_counts(index, frozenset({"release", "deploys"}))
    assert gone not in counts and len(counts) == 399 and sum(counts.values()) == 598


def test_a_skills_terms_hold_no_list_of_their_own(tmp_path: Any) -> None:
    """A skill's phrases and patterns are tuples (no patterns: the one empty tuple): a
    list of its own for each skill was 1 MB more at 10,000 skills."""
    for n in range(3):
        write(tmp_path, f"s{n}/SKILL.md", skill_text(name=f"s{n}", description="Plans releases."))
    registry = project_from_folder(str(tmp_path), "agentskills").registry()
    registry.scan()
    index = MatchIndex(registry)
    assert len(index.terms) == 3
    for terms in index.terms.values():
        assert type(terms.phrases) is tuple and len(terms.phrases) == 1
        assert type(terms.patterns) is tuple and not terms.patterns
    assert len(index.phrases) == 3  # each skill's name, indexed from its tuple
