"""The revision's answer to one request of a change report (issue 40): what the before
side of a comparison (change_sides.py keeps it) selects and ranks likely for the
request, with the explanation the command line gives for a ranking
(core/ranking/explanations.py, estimate.py). Only what the comparison read is used:
nothing is read again from git or the disk."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model.session import Session
from ..ranking.estimate import LikelyResult, likely_text
from ..ranking.explanations import summary
from ..ranking.likely_ranking import rank_likely
from ..ranking.matching import match
from .change_report import Side
from .open_project import OpenProject

LIKELY_SHOWN = 3  # the likely ranking's rows said


@dataclass(slots=True)
class BeforeRanking:
    """One request on the before side: its label (the revision, or the folder's name),
    the skills selected with their scores, the likely ranking (None where the rules
    choose), and the explanation in words."""

    label: str
    query: str
    selected: list[tuple[str, int]]
    likely: LikelyResult | None
    text: str

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "query": self.query,
            "selected": [{"skill": name, "score": score} for name, score in self.selected],
            "likely": self.likely.to_json() if self.likely is not None else None,
            "text": self.text,
        }


def before_project(side: Side, path: str, profile: str) -> OpenProject | None:
    """The before side's project at `path` (relative to its top, as the report gives
    it) under `profile`; None when the revision has no such project."""
    return next(
        (
            item
            for item in side.projects
            if side.rel(item.project.base) == path and item.project.profile.name == profile
        ),
        None,
    )


def rank_before(side: Side, path: str, profile: str, query: str) -> BeforeRanking | None:
    """The before side's answer to `query` in the project at `path` (report's key), as
    the comparison ranked its cases: its own options, a fresh session."""
    item = before_project(side, path, profile)
    if item is None:
        return None
    registry = item.registry
    result = match(
        registry,
        query,
        index=item.match_index(),
        session=Session(),
        options=dict(item.project.options),
    )
    scores = {c.name: c.score for c in result.candidates}
    selected = [(name, scores.get(name, 0)) for name in result.selected]
    likely = None
    if registry.profile.model_chooses and query.strip():
        index = item.likely_index()
        likely = rank_likely(index, query) if index is not None else None
    text = summary(result)
    if likely is not None:
        text += "\n" + likely_text(likely, limit=LIKELY_SHOWN)
    return BeforeRanking(side.label, query, selected, likely, text)
