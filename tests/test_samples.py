"""The bundled sample skills: every profile covered, each lints clean under its own."""

from __future__ import annotations

import os

import pytest

from skillstudio.core.profiles import PROFILE_NAMES

from .helpers import SAMPLES, lint_json

SEED_SKILLS = {
    "oasis": {"code-review", "commit"},
    "pegasus": {"code-review", "commit", "project-conventions"},
    "toolsets": {"hello-extended"},
    "mvp": {"code-review"},
    "workspace": {"repo-survey", "safe-edit", "test-first-fix"},
    "agentskills": set(),
    "claude-code": {
        "commit-message",
        "release-notes",
        "standup",
        "review-kit:security-review",
        "review-kit:style-review",
    },
    "codex": {"api-review", "changelog", "deploy", "commit-message"},
    # the agents of core/profiles/agents.py (core/profiles/agent_profiles.py)
    "copilot": {"pr-summary", "test-failures"},
    "cursor": {"css-cleanup", "component-story"},
    "gemini": {"issue-labels", "flaky-test"},
    "opencode": {"git-release", "dep-audit"},
    "goose": {"shell-history", "env-check"},
    "amp": {"api-docs", "type-check"},
    "windsurf": {"log-search", "config-diff"},
    "kiro": {"spec-gaps", "task-split"},
    "junie": {"kotlin-test", "gradle-fix"},
    "letta": {"memory-notes", "meeting-summary"},
}


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_sample_lints_clean_under_its_profile(profile: str) -> None:
    folder = os.path.join(SAMPLES, profile)
    data = lint_json("--project", folder)
    assert data["profile"] == profile
    assert data["summary"]["errors"] == 0, data["diagnostics"]
    assert data["summary"]["warnings"] == 0, data["diagnostics"]
    infos = {d["code"] for d in data["diagnostics"]}
    assert infos <= {"shadowed"}  # the precedence demos, nothing else
    names = {s["name"] for s in data["skills"]}
    assert SEED_SKILLS[profile] <= names
    assert len(names) >= 2


def test_samples_cover_every_profile() -> None:
    data = lint_json(SAMPLES)
    assert sorted({p["profile"] for p in data["projects"]}) == sorted(PROFILE_NAMES)
    assert data["summary"]["errors"] == 0


def test_sample_statuses_show_each_kind() -> None:
    data = lint_json(SAMPLES)
    assert {s["status"] for s in data["skills"]} == {"active", "shadowed", "disabled"}
