"""Tests of core/projects/config_writer.py's `profile:` (issue 39): the profile chosen in
the app is recorded in the skillstudio.yaml the app writes when detection gives another,
every other byte of the file kept; a file naming a profile is never changed, and the
words say when it differs from the app's choice."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillstudio.core.projects.config_writer import (
    list_suite,
    named_profile,
    profile_note,
    profile_to_record,
    recording_profile,
    with_profile,
    write_rules,
)
from skillstudio.core.reading.yaml_io import EditError

from .helpers import cli


def plain_folder(folder: Path) -> Path:
    """Skills under skills/ and no agent's marks: detected as agentskills."""
    for name, description in {
        "release-notes": "Write release notes from the commits of a release.",
        "sql-review": "Review SQL migrations for locking problems.",
    }.items():
        skill = folder / "skills" / name
        skill.mkdir(parents=True)
        (skill / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n")
    return folder


def test_the_profile_key_is_added_keeping_every_other_byte() -> None:
    text = "# mine\r\nsuites:\r\n  - a.yaml  # first\r\n"
    assert with_profile(text, "claude-code") == text + "profile: claude-code\r\n"
    bom = "\ufeffrules: {x: off}\n"
    assert with_profile(bom, "codex") == bom + "profile: codex\n"
    assert with_profile("", "codex") == "profile: codex\n"
    named = "profile: agentskills  # ours\nroots: [skills]\n"
    assert with_profile(named, "claude-code") == named  # the file's choice is kept
    with pytest.raises(EditError):
        with_profile("- a\n- b\n", "codex")
    assert named_profile(named) == "agentskills"
    assert named_profile("roots: [skills]\n") is None
    assert named_profile("a: [\n") is None  # not YAML: no profile to read


def test_only_a_chosen_profile_detection_does_not_give_is_recorded(tmp_path: Path) -> None:
    folder = str(plain_folder(tmp_path))
    assert profile_to_record(folder, "claude-code") == "claude-code"
    assert profile_to_record(folder, "agentskills") is None  # detection gives it
    assert profile_to_record(folder, None) is None  # read as the file says, or detected


def test_the_words_say_what_became_of_the_profile() -> None:
    assert profile_note(None, "claude-code", "claude-code") == (
        " and profile: claude-code, so `skillstudio test` and CI read it as the app does"
    )
    differs = profile_note("agentskills", "agentskills", "claude-code")
    assert "profile: agentskills differs from the app's choice (claude-code)" in differs
    assert profile_note("claude-code", "claude-code", "claude-code") == ""  # said already
    assert profile_note(None, None, None) == ""


def test_listing_a_suite_records_the_profile_and_test_reads_it_so(tmp_path: Path) -> None:
    """The issue's steps in core: a suite of a case Claude Code's own `review` passes,
    listed in a new skillstudio.yaml with the app's choice, passes `skillstudio test`."""
    folder = plain_folder(tmp_path)
    suite = folder / "suites" / "claude-code.yaml"
    suite.parent.mkdir()
    suite.write_text(
        "cases:\n  - query: please look over my pull request\n    expect_likely: review\n"
    )
    base = str(folder)
    changed, note = recording_profile(
        base, lambda p: list_suite(base, str(suite), p), "claude-code"
    )
    assert changed and note.startswith(" and profile: claude-code")
    config = (folder / "skillstudio.yaml").read_text()
    assert config.endswith("suites:\n  - suites/claude-code.yaml\nprofile: claude-code\n")
    run = cli("test", cwd=folder)
    assert run.code == 0, run.out
    assert "(claude-code; " in run.out and "1 passed, 0 failed" in run.out
    again = recording_profile(base, lambda p: list_suite(base, str(suite), p), "claude-code")
    assert again == (False, "")  # listed already: nothing written, nothing to say


def test_a_file_naming_another_profile_is_left_and_the_words_say_so(tmp_path: Path) -> None:
    folder = plain_folder(tmp_path)
    own = "profile: agentskills\nrules: {}\n"
    (folder / "skillstudio.yaml").write_text(own)
    base = str(folder)
    changed, note = recording_profile(
        base, lambda p: write_rules(base, {"duplicate-key": "warning"}, p), "claude-code"
    )
    assert changed and "differs from the app's choice (claude-code)" in note
    text = (folder / "skillstudio.yaml").read_text()
    assert text.startswith("profile: agentskills\n") and "claude-code" not in text
