"""An honest estimate (issue 28, PRODUCT.md section 5): bands from the request's best
score, exclusion clauses that are no evidence, body words weighing less than the
description's, `match` leading with the likely ranking, and no likely skill for a
request whose skill the collection lacks (issue 39)."""

from __future__ import annotations

import math
import os
from typing import Any

import pytest

from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.estimate import Evidence, Model, evidence_text
from skillstudio.core.ranking.exclusions import exclusion_clauses, without_exclusions
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.ranking.likely_ranking import rank_likely, request_information, unit
from skillstudio.core.scanning.registry import Registry
from tests.helpers import CORPUS, skill_text, write


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
        every = {c.name: c.band for c in rank_likely(index, query, top=30).candidates}
        assert len(every) >= 3, query
        for top in (1, 2, 3, 5):
            for cand in rank_likely(index, query, top=top).candidates:
                assert cand.band == every[cand.name], (query, top, cand.name)


EXCLUDING = {
    "code-writer": "Write and refactor code in small steps (for fixing bugs use debugging).",
    "debugging": "Find the cause of a failure and make the smallest change that cures it.",
    "release-notes": "Draft release notes from the commits of a branch.",
    "docker-build": "Build small container images with layer caching.",
}


def test_words_of_an_exclusion_clause_are_no_evidence_for_the_skill(tmp_path: Any) -> None:
    """Before, "fixing bugs" counted for code-writer, whose description sends bug
    fixes elsewhere: it was the first candidate (likely) for "Fix the bug in my code"."""
    index = LikelyIndex(collection(tmp_path, EXCLUDING))
    result = rank_likely(index, "Fix the bug in my code")
    writer = next(c for c in result.candidates if c.name == "code-writer")
    assert [r.term for r in writer.reasons] == ["code"]  # not "fix", not "bug"
    assert writer.band != "likely"
    ignored = {(i.skill, i.term) for i in result.ignored}
    assert ignored == {("code-writer", "fix"), ("code-writer", "bug")}
    assert all(i.clause == "for fixing bugs use debugging" for i in result.ignored)
    # a request with nothing but excluded words finds the skill not at all
    assert "code-writer" not in [c.name for c in rank_likely(index, "bugs to fix").candidates]


def test_match_says_which_words_an_exclusion_left_out(tmp_path: Any) -> None:
    from tests.helpers import cli

    collection(tmp_path, EXCLUDING)
    args = ("match", "Fix the bug in my code", "--root", "skills", "--profile", "agentskills")
    text = cli(*args, cwd=tmp_path).out
    assert "ignored: 'bug' not counted for code-writer: its description excludes it" in text
    data = cli(*args, "--format", "json", cwd=tmp_path).json
    assert {"skill": "code-writer", "term": "bug", "clause": "for fixing bugs use debugging"} in (
        data["likely_ignored"]
    )


@pytest.mark.parametrize(
    ("description", "left"),
    [
        ("Build React apps - not for simple one-file pages", "Build React apps - "),
        ("Review pull requests. Do not use for fixing bugs.", "Review pull requests. "),
        ("Deploy apps. USE FOR: deploy, ship. DO NOT USE FOR: billing reports.", "USE FOR"),
        ("Fill PDF forms. Don't use when the file is a Word document.", "Fill PDF forms. "),
        ("Write docs, but for REST references use api-docs instead.", "Write docs,"),
        ("Draw charts. For maps, use the `geo-maps` skill.", "Draw charts. "),
        ("Search code. Use symbol-index for lookups by name.", "Search code. "),
        ("Lint YAML, e.g. CI files. Never use it on secrets; it logs them.", "e.g. CI files."),
    ],
)
def test_exclusion_clauses_are_found_in_their_common_wordings(description: str, left: str) -> None:
    kept, clauses = without_exclusions(description, "this-skill")
    assert clauses and left in kept
    assert not any(word in kept for word in ("one-file", "bugs", "billing", "Word", "REST"))


@pytest.mark.parametrize(
    "description",
    [
        "Use this skill instead of grep for code search.",
        "Use when the user asks for a chart (use it for any table of numbers).",
        "For best results, use a high resolution image.",
        "Search code. Use this-skill for symbol lookups.",
        "Not only for Python: any language with a parser.",
    ],
)
def test_wordings_that_speak_for_the_skill_are_kept(description: str) -> None:
    assert exclusion_clauses(description, "this-skill") == []


PDF = {
    "file-conversion": "Convert files between formats: PDF to Word, HEIC to JPG, MP4 to MP3.",
    "skill-writing": "Write, edit and test agent skills before they are shared.",
    "spreadsheets": "Clean and chart spreadsheets of numbers.",
    "web-forms": "Check the accessibility of web pages with a screen reader.",
}
PDF_BODIES = {
    "file-conversion": "# Converting\n\nRun the converter on the PDF; a PDF keeps its pages.\n",
    "skill-writing": "# Examples\n\n"
    + "A skill that reads a PDF form: open the PDF, list each form field, save the PDF. "
    "Test it on a PDF with a long form and a form with none.\n" * 2,
}


def test_a_word_weighs_less_from_the_body_than_from_the_description(tmp_path: Any) -> None:
    """The model sees the description, not the body: a skill whose body says "pdf"
    many times ranked above the one whose description says "PDF" once."""
    index = LikelyIndex(collection(tmp_path, PDF, PDF_BODIES))
    ranked = rank_likely(index, "a PDF please").candidates
    assert [c.name for c in ranked] == ["file-conversion", "skill-writing"]
    writing = ranked[1]
    assert [r.term for r in writing.reasons] == ["pdf"] and writing.reasons[0].body
    assert not ranked[0].reasons[0].body  # "PDF" is in its description
    # the JSON of a reason says where it came from
    assert writing.reasons[0].to_json()["from"] == "body"
    assert "from" not in ranked[0].reasons[0].to_json()


def test_two_body_words_against_one_description_word_turn_on_the_one_mention_cap(
    tmp_path: Any,
) -> None:
    """ "fill in a PDF form": the skill whose body alone says pdf and form still comes
    first by default (each weighs at most one mention in a description); a cap of
    0.45 of one mention puts the skill whose description says PDF first (it cost 7
    points of top-1 on corpus_requests: docs/performance.md)."""
    registry = collection(tmp_path, PDF, PDF_BODIES)
    default = rank_likely(LikelyIndex(registry), "fill in a PDF form").candidates
    assert default[0].name == "skill-writing"
    assert all(r.body for r in default[0].reasons)
    strict = rank_likely(
        LikelyIndex(registry, Model(body_one=0.45)), "fill in a PDF form"
    ).candidates
    order = [c.name for c in strict]
    assert order.index("file-conversion") < order.index("skill-writing")


def test_match_leads_with_the_likely_ranking(tmp_path: Any) -> None:
    """Where the model chooses, `candidates` follow the likely ranking (PRODUCT.md
    section 8) and the text shows it first; the keyword list is `keywords`, after.
    Before, `candidates` were in word-count order (table-tools first here: two of
    the request's words against chart-maker's one) and the text listed them first."""
    from tests.helpers import cli

    collection(
        tmp_path,
        {
            "table-tools": "Sort, filter, merge and print tables of rows and columns.",
            "chart-maker": "Draw a chart.",
            "notes": "Keep notes.",
            "todo": "List tasks for the week.",
        },
    )
    query = "chart the rows and columns"
    args = ("match", query, "--root", "skills", "--profile", "agentskills")
    data = cli(*args, "--format", "json", cwd=tmp_path).json
    assert [c["skill"] for c in data["candidates"]] == ["chart-maker", "table-tools"]
    assert [c["skill"] for c in data["candidates"]] == [c["skill"] for c in data["likely"]]
    assert [c["skill"] for c in data["keywords"]] == ["table-tools", "chart-maker"]
    first = data["candidates"][0]
    assert first["band"] in ("likely", "possible") and first["passed"] is False
    assert {r["rule"] for r in first["reasons"]} == {"term"}
    assert {r["rule"] for r in data["keywords"][0]["reasons"]} == {"keyword"}
    text = cli(*args, cwd=tmp_path).out
    assert text.index("Likely candidates") < text.index("Keyword heuristic")
    shown = f"{first['band']} · {round(100 * first['chance'])} % chart-maker"  # (as the app)
    assert text.index(shown) < text.index("1. table-tools")


# One repository's skills (issue 39): a poster skill whose description names a file
# type and whose body uses everyday words; no skill makes forms or reads spreadsheets
POSTERS = {
    "poster-art": "Visual art posters in .png and .pdf.",
    "brand-colors": "Apply the company's brand colours and typography to slides and documents.",
    "gif-maker": "Make animated GIFs for chat apps, sized for emoji and messages.",
    "web-builder": "Build multi-page web artifacts with React, Tailwind and shadcn components.",
    "api-guide": "Call the model API with the SDK: messages, tools, streaming and batches.",
    "theme-kit": "Style slides and reports with ready-made themes of colours and fonts.",
    "test-webapp": "Test local web apps with Playwright: screenshots, logs and clicks.",
    "internal-comms": "Write status reports, newsletters and incident updates for the company.",
    "mcp-guide": "Build MCP servers that let a model reach outside services.",
    "skill-writer": "Create and improve skills, run evals and tune their descriptions.",
}
POSTER_BODIES = {
    "poster-art": "# Poster art\n\nMake a form out of shapes and colour first. Make every form "
    "deliberate: form and space carry the design.\nKeep text small. Make the final piece "
    "in one page.\n",
    "web-builder": "# Web\n\nMake a form with inputs and validation when the page needs one.\n",
    "theme-kit": "# Themes\n\nExport the themed report to pdf when asked.\n",
}


def test_one_shared_file_type_word_is_no_likely_skill(tmp_path: Any) -> None:
    """A request sharing only a file type with a skill's description ("pdf"), the rest
    of it in the skill's body in passing ("make", "form") or in no skill at all
    ("spreadsheet"), shows no likely skill: the model would most likely pick none.
    Before, poster-art was likely (chance 52 %: each of the request's words counted
    alike in the shares it explains, and no feature said that a word no skill has is
    part of the request)."""
    index = LikelyIndex(collection(tmp_path, POSTERS, POSTER_BODIES))
    index.sync()
    result = rank_likely(index, "make a pdf form from this spreadsheet")
    assert result.likely == []
    first = result.candidates[0]
    assert first.name == "poster-art" and first.band == "possible"
    assert first.chance is not None and first.chance < 0.4
    # a request for what the skill does keeps it likely, with the same file type
    asked = rank_likely(index, "design a poster and save it as a pdf")
    assert [c.name for c in asked.likely] == ["poster-art"]
    assert asked.candidates[0].chance is not None and asked.candidates[0].chance > 0.85


def test_shares_of_a_request_are_weighed_by_information(tmp_path: Any) -> None:
    """The shares a candidate explains weigh each of the request's words by its IDF in
    the collection (a word no skill has: as much as one a single skill has), and the
    share in words no skill has is its own evidence, said in the band's reason."""
    index = LikelyIndex(collection(tmp_path, POSTERS, POSTER_BODIES))
    index.sync()
    query = "make a pdf form from this spreadsheet"
    words = request_information(index, {"make": "make", "pdf": "pdf", "spreadsheet": "x"})
    assert words["spreadsheet"] == pytest.approx(unit(index))  # no skill has it
    assert words["make"] < words["pdf"] < words["spreadsheet"]  # 3, 2 and 0 skills
    evidence = rank_likely(index, query).candidates[0].evidence
    assert evidence is not None
    information = request_information(index, {w: w for w in ("make", "pdf", "form")})
    total = math.fsum(information.values()) + unit(index)  # spreadsheet's
    assert evidence.shown == pytest.approx(information["pdf"] / total)
    assert evidence.hidden == pytest.approx((information["make"] + information["form"]) / total)
    assert evidence.unknown == pytest.approx(unit(index) / total)
    assert Evidence.of(evidence.features()).unknown == pytest.approx(evidence.unknown)
    text = evidence_text(index.model, evidence)
    assert f"{round(100 * evidence.unknown)} % of the request is in words no skill here has" in text
    known = rank_likely(index, "design a poster as a pdf").candidates[0].evidence
    assert known is not None and known.unknown == 0.0
    assert "no skill here has" not in evidence_text(index.model, known)


@pytest.mark.skipif(not os.path.isdir(CORPUS), reason="shared corpus absent")
def test_the_reviewers_pdf_form_request_over_anthropics_skills() -> None:
    """Issue 39's reviewer: over anthropics-skills alone (no PDF skill), "make a pdf
    form from this spreadsheet" said "likely canvas-design 0.68 (pdf 0.86, form 0.37
    from the body, make 0.24 from the body)"; a model would most likely pick none.
    A poster request still gives canvas-design likely."""
    registry = project_from_folder(os.path.join(CORPUS, "anthropics-skills"), "agentskills")
    index = LikelyIndex(registry.registry())
    assert index.registry is not None
    index.registry.scan()
    index.sync()
    result = rank_likely(index, "make a pdf form from this spreadsheet")
    assert result.likely == []
    first = result.candidates[0]
    assert first.name == "canvas-design" and first.band != "likely"
    assert first.chance is not None and first.chance < 0.45
    poster = rank_likely(index, "design a poster for our hackathon and export it as a PDF")
    assert [c.name for c in poster.likely] == ["canvas-design"]
