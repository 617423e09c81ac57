"""A skill system added by one module: docs/profiles.md's "Adding a skill system", run.

The profile below is defined here and registered at run time; nothing else in
the project knows it. lint, list, match, prompt and activate then follow its
rules through the profile-agnostic engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from skillstudio.core.model.fields import FieldSpec
from skillstudio.core.model.profile_requests import ActivationRequest
from skillstudio.core.profile import Checker, PanelOption, Profile, RootSpec
from skillstudio.core.profiles import get_profile, register_profile, unregister_profile

from .helpers import cli, write

if TYPE_CHECKING:
    from skillstudio.core.model.delivered import Activation
    from skillstudio.core.model.matches import MatchResult, Terms
    from skillstudio.core.model.profile_requests import MatchRequest
    from skillstudio.core.model.skills import Skill


class Toy(Profile):
    """toys/<name>/SKILL.md; `cues` phrases score 10 each, 10 selects; a plain listing."""

    name = "toy"
    title = "Toy (toys/)"
    source = "tests/test_toy_profile.py"
    roots = (RootSpec("toys", "toys"),)
    marker_dirs = ("toys",)
    panel_option = PanelOption("threshold", "Threshold", 10, 100)
    listing_frame = ("Toys:\n", "\n(end)")
    listing_frame_lines = False
    fields = (
        FieldSpec("name", "string", "Name", "The toy's name.", required=True),
        FieldSpec("description", "text", "Description", "What it does.", required=True),
        FieldSpec("cues", "list", "Cues", "Phrases that pick it (+10 each)."),
    )

    def check(self, c: Checker) -> None:
        if not c.skill.raw.get("cues"):
            c.emit(
                "field-missing",
                "A toy without cues is never picked.",
                field="name",
                severity="warning",
            )

    def match_terms(self, skill: Skill) -> Terms:
        from skillstudio.core.model.matches import Terms, description_keywords, words_of

        cues = [c for c in skill.raw.get("cues") or [] if isinstance(c, str)]
        phrases = tuple((words_of(cue), "trigger", cue, 10) for cue in cues if words_of(cue))
        return Terms(phrases, description_keywords(skill.description), (), words_of(skill.name))

    def rank(self, request: MatchRequest) -> MatchResult:
        from skillstudio.core.ranking.rankers import rank_scored

        return rank_scored(request)

    def listing_entry(self, skill: Skill) -> str:
        return f"* {skill.name} -- {skill.description}"

    def deliver(self, request: ActivationRequest, skill: Skill, body: str) -> Activation:
        result = request.result
        result.content = f"TOY {skill.name} ({request.args or 'no args'}):\n{body}"
        result.mode = "tool_result"
        result.payload = {"toy": skill.name}
        return result


@pytest.fixture
def toy_project(tmp_path: Path) -> Iterator[Path]:
    register_profile(Toy)
    write(tmp_path, "skillstudio.yaml", "profile: toy\n")
    write(
        tmp_path,
        "toys/kite/SKILL.md",
        """
        ---
        name: kite
        description: Flies a kite on windy days.
        cues: [fly a kite, windy]
        ---

        Hold the string.
        """,
    )
    write(
        tmp_path,
        "toys/yoyo/SKILL.md",
        """
        ---
        name: yoyo
        description: Spins a yoyo.
        ---

        Spin it.
        """,
    )
    try:
        yield tmp_path
    finally:
        unregister_profile("toy")


def test_a_toy_profile_lints_matches_prompts_and_activates(toy_project: Path) -> None:
    scope = ["--project", str(toy_project)]
    lint = cli("lint", *scope, "--format", "json")
    assert lint.code == 0, lint.err
    data: dict[str, Any] = lint.json
    assert data["profile"] == "toy"
    assert [(d["code"], d["message"]) for d in data["diagnostics"]] == [
        ("field-missing", "A toy without cues is never picked.")
    ]

    match = cli("match", "can you fly a kite when it is windy", *scope, "--format", "json").json
    assert match["selected"] == ["kite"]
    assert match["threshold"] == 10
    reasons = [(r["rule"], r["term"]) for r in match["candidates"][0]["reasons"]]
    assert reasons[:2] == [("trigger", "fly a kite"), ("trigger", "windy")]
    assert cli("match", "spin something", *scope, "--format", "json").json["selected"] == []

    listing = cli("prompt", "--tier", "2", *scope)
    assert (
        listing.out
        == "Toys:\n* kite -- Flies a kite on windy days.\n* yoyo -- Spins a yoyo.\n(end)\n"
    )
    tier3 = cli("prompt", "--query", "fly a kite", *scope, "--format", "json").json
    assert tier3["tier"] == 3 and tier3["text"] == "Hold the string.\n"

    activation = cli("activate", "kite", "north hill", *scope, "--format", "json").json
    assert activation["content"] == "TOY kite (north hill):\nHold the string.\n"
    assert activation["mode"] == "tool_result" and activation["toy"] == "kite"  # the payload
    missing = cli("activate", "drum", *scope, "--format", "json")
    assert missing.code == 1 and missing.json["error"]["code"] == "NOT_FOUND"


def test_the_toy_profile_is_gone_after_unregistering(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "toys/kite/SKILL.md", "---\nname: kite\ndescription: d\n---\nx\n")
    run = cli("lint", str(tmp_path / "toys"), "--profile", "toy")
    assert run.code == 2 and "invalid choice: 'toy'" in capsys.readouterr().err
    with pytest.raises(KeyError):
        get_profile("toy")
