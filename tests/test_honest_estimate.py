"""An honest estimate (issue 28, PRODUCT.md section 5): bands from the request's best
score, exclusion clauses that are no evidence, body words weighing less than the
description's, and `match` leading with the likely ranking."""

from __future__ import annotations

from typing import Any

from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.model_pick import LikelyIndex
from skillstudio.core.scanning.registry import Registry
from tests.helpers import skill_text, write


def collection(
    tmp_path: Any, skills: dict[str, str], bodies: dict[str, str] | None = None
) -> Registry:
    bodies = bodies or {}
    for name, description in skills.items():
        fields: dict[str, Any] = {"name": name, "description": description}
        if name in bodies:
            fields["_body"] = bodies[name]
        write(tmp_path, f"skills/{name}/SKILL.md", skill_text(**fields))
    registry = project_from_folder(str(tmp_path / "skills"), "agentskills").registry()
    registry.scan()
    return registry


# Skills in slot (path) order: a faint match first, then the best, then one with
# half the best's words: the slot order of the top candidates is not their score order.
BANDED = {
    "a-diary": "Keep a diary of the day.",
    "b-audio-transcripts": "Audio transcripts with speaker labels, timestamps, subtitles, "
    "waveform views, diarization, karaoke lyrics and chapters.",
    "c-speaker-subtitles": "Speaker labels and subtitles with timestamps.",
    **{f"d-filler-{n}": f"Chore number {n} of the house." for n in range(12)},
}


def test_bands_are_the_same_whatever_number_of_candidates_is_asked_for(tmp_path: Any) -> None:
    """Before, each candidate was compared with the score of the first of the top
    candidates in slot order (`scores[best[0]]`), not the best score: asking for 30
    instead of 3 let a faint skill of an early slot set the bar, and bands moved."""
    index = LikelyIndex(collection(tmp_path, BANDED))
    for query in (
        "audio transcripts: speaker labels, timestamps, subtitles, waveform, diarization, "
        "karaoke lyrics, chapters; and my diary",
        "speaker subtitles with timestamps for the audio transcripts, then a diary",
    ):
        every = {c.name: c.band for c in index.rank(query, top=30).candidates}
        assert len(every) >= 3, query
        for top in (1, 2, 3, 5):
            for cand in index.rank(query, top=top).candidates:
                assert cand.band == every[cand.name], (query, top, cand.name)
