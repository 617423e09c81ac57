"""`match --explain` where the model chooses (core/ranking/likely_explanation.py
`ranking_explained`): a reviewer found its text explained mostly the keyword heuristic,
with no chance (only the JSON had "chance"), while the app leads with "likely · 72 %"
and "Why likely". The text now leads with the estimate as the app's Explanation gives it
(band · chance, why that band, the first one's words), the keyword heuristic after it,
marked secondary; the JSON keys stay as they were."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import cli, skill_text, write
from tests.test_likely import REVIEW, collection

QUERY = "review this pull request for security issues"
ARGS = ("match", QUERY, "--root", "skills", "--profile", "agentskills")


def test_explain_leads_with_the_band_its_chance_and_why(tmp_path: Path) -> None:
    collection(tmp_path, REVIEW)
    data = cli(*ARGS, "--explain", "--format", "json", cwd=tmp_path).json
    top = data["likely"][0]
    assert top["skill"] == "code-review" and top["band"] == "likely"
    percent = round(100 * top["chance"])
    lines = cli(*ARGS, "--explain", cwd=tmp_path).out.splitlines()
    heading = lines.index(
        "Why each is ranked so (an estimate, as Try a Request's Explanation says it):"
    )
    keywords = next(i for i, line in enumerate(lines) if line.startswith("Keyword heuristic"))
    assert lines[heading - 1].startswith("  likely") and heading < keywords
    assert keywords == next(i for i, line in enumerate(lines) if "points:" in line) - 2
    assert lines[heading + 1].startswith(f"  code-review: likely · {percent} % (an estimate, ")
    assert lines[heading + 2].startswith(f"    why likely: chance about {percent} %; ")
    assert lines[heading + 3].split() == ["term", "field", "weight"]
    assert "secondary" in lines[keywords]
    explained = lines[heading:keywords]
    assert sum("Estimated from the skills' own words" in line for line in explained) == 1


def test_explain_keeps_the_json_and_plain_match_its_text(tmp_path: Path) -> None:
    collection(tmp_path, REVIEW)
    plain = cli(*ARGS, "--format", "json", cwd=tmp_path).json
    explained = cli(*ARGS, "--explain", "--format", "json", cwd=tmp_path).json
    assert explained.keys() == plain.keys()
    assert [c.keys() for c in explained["likely"]] == [c.keys() for c in plain["likely"]]
    assert "Why each is ranked so" not in cli(*ARGS, cwd=tmp_path).out


def test_where_triggers_choose_explain_has_no_estimate(tmp_path: Path) -> None:
    for name, description in REVIEW.items():
        write(
            tmp_path,
            f"skills/{name}/SKILL.md",
            skill_text(name=name, description=description, triggers=[name]),
        )
    args = ("match", "code-review please", "--root", "skills", "--profile", "oasis")
    run = cli(*args, "--explain", cwd=tmp_path)
    assert run.out.startswith("selected: ") and "Why each is ranked so" not in run.out
