"""Agreement with agnix (agent-sh/agnix), the peer linter, on its skill rules.

tests/data/agnix_cases holds one small skill per condition of agnix's skill fixtures and
rule examples, written here (docs/profiles.md, "Agreement with agnix", says where each
comes from). manifest.yaml gives, per case, agnix's verdict, the profile that plays its
rule target, every diagnostic SkillStudio gives and whether the two agree. Each case is
linted and its findings checked against the manifest; the agreement rate is printed and
may not fall below FLOOR.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from .helpers import cli

DATA = Path(__file__).parent / "data" / "agnix_cases"
CASES: list[dict[str, Any]] = yaml.safe_load((DATA / "manifest.yaml").read_text("utf-8"))["cases"]
FLOOR = 38  # cases that agree (of 43) on 2026-12-03; raise it when more agree
AGNIX_RANK = {"HIGH": 3, "MEDIUM": 2, "LOW": 1}
OUR_RANK = {"error": 3, "warning": 2, "info": 1}


def findings(case: dict[str, Any]) -> list[tuple[str, str]]:
    run = cli(
        "lint", "--format", "json", "--no-cache", "--profile", case["profile"],
        str(DATA / case["case"]),
    )  # fmt: skip
    assert run.code in (0, 1), run.err
    return [(d["code"], d["severity"]) for d in run.json["diagnostics"]]


def agrees(case: dict[str, Any], found: list[tuple[str, str]]) -> bool:
    """We flag what agnix flags, at most one severity step apart; or, where agnix
    passes the skill, we give no error and no warning."""
    rule = case["agnix"]["rule"]
    if rule is None:
        return all(severity == "info" for _, severity in found)
    expected = {code for code, _ in case["expect"]}
    rank = AGNIX_RANK[case["agnix"]["severity"]]
    return any(code in expected and abs(OUR_RANK[severity] - rank) <= 1 for code, severity in found)


@pytest.mark.parametrize("case", CASES, ids=[c["case"].split("/")[0] for c in CASES])
def test_each_case_gives_the_findings_the_manifest_records(case: dict[str, Any]) -> None:
    found = findings(case)
    assert sorted(found) == sorted(tuple(pair) for pair in case["expect"])
    verdict = "agree" if agrees(case, found) else "differ"
    assert verdict == case["verdict"], case["case"]
    if verdict == "differ":
        assert case.get("reason"), f"{case['case']}: a disagreement needs its reason"


def test_agreement_with_agnix_does_not_fall_below_the_floor() -> None:
    agreed = [case["case"] for case in CASES if agrees(case, findings(case))]
    print(f"agreement with agnix: {len(agreed)} of {len(CASES)} cases")
    assert len(agreed) >= FLOOR, sorted(set(c["case"] for c in CASES) - set(agreed))


def test_every_case_folder_is_in_the_manifest() -> None:
    folders = {f"{d.name}/{s.name}" for d in DATA.iterdir() if d.is_dir() for s in d.iterdir()}
    assert folders == {case["case"] for case in CASES}


@pytest.mark.parametrize("agent", ["Explore", "general-purpose", "code-reviewer", "docs:writer"])
def test_an_agent_that_can_name_a_subagent_is_not_reported(agent: str, tmp_path: Path) -> None:
    folder = tmp_path / "batch-resize"
    folder.mkdir()
    source = (DATA / "agent-invalid" / "batch-resize" / "SKILL.md").read_text("utf-8")
    (folder / "SKILL.md").write_text(source.replace("Photo Worker!", agent), "utf-8")
    run = cli("lint", "--format", "json", "--no-cache", "--profile", "claude-code", str(folder))
    assert [d["code"] for d in run.json["diagnostics"]] == []
