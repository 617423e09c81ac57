"""`disable-model-invocation: true`, read the same way in every view (issue 43, item 1):
for each agent that honours the field (Claude Code; Cursor and GitHub Copilot, from
their docs: docs/agents.md, "Who honours disable-model-invocation") the skill is left
out of tier 2 and `prompt --tier 2`, never likely, and counted as not listed by
headroom, and refused to the model's call (not to the user's /name); for every agent
that does not read it, it is listed, may be likely and is delivered to the model.

`user-invocable: false`, the other column: where the agent honours it (Claude Code;
GitHub Copilot, from VS Code's own skills reference: docs/agents.md) the user's /name
is refused and the model still gets the skill (listed, delivered); elsewhere both load
it."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillstudio.core.delivery.headroom import listing_headroom
from skillstudio.core.delivery.tiers import render_listing
from skillstudio.core.profiles import get_profile
from skillstudio.core.profiles.agents import AGENTS
from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.likely_ranking import likely
from skillstudio.core.scanning.registry import Registry

from .helpers import cli, skill_text, write

# the agents whose own documentation says the field keeps a skill from the model
HONOURS = {"claude-code", "copilot", "cursor"}
# the agents whose own documentation says `user-invocable: false` hides the skill's /name
HONOURS_USER_INVOCABLE = {"claude-code", "copilot"}
AGENT_PROFILES = [a.key for a in AGENTS]
REQUEST = "write a storybook story for the button component"


def _registry(base: Path, profile: str) -> Registry:
    write(base, "skillstudio.yaml", f"profile: {profile}\nroots: [skills]\n")
    write(
        base,
        "skills/component-story/SKILL.md",
        skill_text(
            name="component-story",
            description="Writes a Storybook story for a UI component, one story per state.",
            **{"disable-model-invocation": True},
        ),
    )
    write(
        base,
        "skills/css-cleanup/SKILL.md",
        skill_text(name="css-cleanup", description="Removes unused CSS rules from a stylesheet."),
    )
    registry = project_from_folder(str(base)).registry()
    registry.scan()
    return registry


@pytest.mark.parametrize("profile", AGENT_PROFILES)
def test_each_agent_lists_and_ranks_the_skill_as_its_own_docs_say(
    tmp_path: Path, profile: str
) -> None:
    registry = _registry(tmp_path, profile)
    assert "component-story" in registry.active  # loaded either way: /component-story works
    listing = render_listing(registry, {})
    room = listing_headroom(registry, {})
    left_out = {o["skill"] for o in room.not_listed}
    likely_names = {c.skill.name for c in likely(registry, REQUEST).likely}
    prompt = cli("prompt", str(tmp_path), "--tier", "2", "--format", "json").json
    if profile in HONOURS:
        assert "component-story" not in listing.listed
        assert "component-story" not in listing.text
        assert "component-story" in left_out
        assert "component-story" not in likely_names
        assert "component-story" not in prompt["listed"]
        assert get_profile(profile).listing_omission(registry.active["component-story"])
    else:
        assert "component-story" in listing.listed
        assert "component-story" not in left_out
        assert "component-story" in likely_names
        assert "component-story" in prompt["listed"]
    assert "css-cleanup" in listing.listed
    # the user's /name loads it everywhere; the model's call only where it is not honoured
    by_model = cli("activate", "component-story", "--as", "model", "--project", str(tmp_path))
    by_user = cli("activate", "component-story", "--as", "user", "--project", str(tmp_path))
    assert by_user.code == 0 and "Instructions" in by_user.out, by_user.err
    assert (by_model.code != 0) is (profile in HONOURS), by_model.err
    if profile in HONOURS:
        assert "PERMISSION_DENIED" in by_model.err and "disable-model-invocation" in by_model.err


def test_the_honouring_agents_are_those_whose_rows_read_the_field() -> None:
    """The rule is one fact of each row (`reads`), not a list kept beside them."""
    reading = {a.key for a in AGENTS if a.reads and "disable-model-invocation" in a.reads}
    assert reading | {"claude-code"} == HONOURS


def _hidden_from_menu(base: Path, profile: str, **more: object) -> Registry:
    write(base, "skillstudio.yaml", f"profile: {profile}\nroots: [skills]\n")
    write(
        base,
        "skills/release-notes/SKILL.md",
        skill_text(
            name="release-notes",
            description="Drafts release notes from the merged pull requests since a tag.",
            **{"user-invocable": False, **more},
        ),
    )
    registry = project_from_folder(str(base)).registry()
    registry.scan()
    return registry


@pytest.mark.parametrize("profile", AGENT_PROFILES)
def test_each_agent_hides_the_slash_name_as_its_own_docs_say(tmp_path: Path, profile: str) -> None:
    registry = _hidden_from_menu(tmp_path, profile)
    listing = render_listing(registry, {})
    assert "release-notes" in listing.listed  # the model still sees it, everywhere
    assert get_profile(profile).listing_omission(registry.active["release-notes"]) is None
    by_model = cli("activate", "release-notes", "--as", "model", "--project", str(tmp_path))
    by_user = cli("activate", "release-notes", "--as", "user", "--project", str(tmp_path))
    assert by_model.code == 0 and "Instructions" in by_model.out, by_model.err
    assert (by_user.code != 0) is (profile in HONOURS_USER_INVOCABLE), by_user.err
    if profile in HONOURS_USER_INVOCABLE:
        assert "PERMISSION_DENIED" in by_user.err and "user-invocable: false" in by_user.err
        assert "/ menu" in by_user.err
    else:
        assert "Instructions" in by_user.out


def test_copilot_warns_when_nobody_can_invoke_the_skill(tmp_path: Path) -> None:
    """Both controls set: VS Code's table says "Slash command: No · Auto-loaded: No";
    the same warning as Claude Code's."""
    _hidden_from_menu(tmp_path, "copilot", **{"disable-model-invocation": True})
    report = cli("lint", str(tmp_path), "--format", "json").json
    found = [d for d in report["diagnostics"] if d["code"] == "invocation-disabled"]
    assert len(found) == 1 and "neither you nor GitHub Copilot" in found[0]["message"]
    _hidden_from_menu(tmp_path, "copilot")  # one control alone: no warning
    report = cli("lint", str(tmp_path), "--format", "json").json
    assert not [d for d in report["diagnostics"] if d["code"] == "invocation-disabled"]


def test_the_agents_hiding_the_slash_name_are_those_whose_rows_read_the_field() -> None:
    reading = {a.key for a in AGENTS if a.reads and "user-invocable" in a.reads}
    assert reading | {"claude-code"} == HONOURS_USER_INVOCABLE
