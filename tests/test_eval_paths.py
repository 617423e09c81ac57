"""Issue 34 item 7: `eval` refuses a path or a suite that does not exist (exit 2, the
message naming it) before any estimate, question or call, as every other command
does. On main `eval skills/pdf-tools --request Q` (the docs' own example, with a
typo or in the wrong folder) asked about the default skills instead: "About to send
N calls", and with --yes it sent them. A folder with no skill to ask about is refused
the same way (the red team's round: `eval empty --yes` sent 3 calls with an empty
listing and exited 0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import cli, skill_text, write
from .live_fake import FakeModel


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "proj"
    write(
        root,
        ".claude/skills/pdf-summary/SKILL.md",
        skill_text(name="pdf-summary", description="Summarize PDF files."),
    )
    write(
        root,
        "suites/basic.yaml",
        'cases:\n  - query: "summarize a.pdf"\n    expect_model: pdf-summary\n',
    )
    return root


@pytest.mark.parametrize(
    ("words", "named"),
    [
        (["skills/pdf-tools", "--request", "fill the form"], "skills/pdf-tools"),
        (["pdf-tools/SKILL.md", "--request", "fill the form"], "pdf-tools/SKILL.md"),
        (["suites/basic.yaml", "--request", "fill the form"], "suites/basic.yaml"),
        (["suites/typo.yaml"], "suites/typo.yaml"),
        (["suites/basic.yaml", "suites/typo.yaml"], "suites/typo.yaml"),
        (["--root", "skils", "--request", "fill the form"], "skils"),
        (["--project", "elsewhere", "--request", "fill the form"], "elsewhere"),
        (["--root", "skils", "suites/basic.yaml"], "skils"),
    ],
)
def test_eval_refuses_a_path_that_is_not_there_before_asking(
    project: Path, words: list[str], named: str
) -> None:
    with FakeModel([("tool", "Skill", {"skill": "pdf-summary"})]) as fake:
        run = cli("eval", *words, "--endpoint", fake.url, "--model", "m", "--yes", cwd=project)
        assert run.code == 2, (words, run.out, run.err)
        assert named in run.err and "About to send" not in run.err, run.err
        assert fake.received == [], "nothing is sent"
    offline = cli("eval", *words, "--offline", "--model", "m", cwd=project)
    assert offline.code == 2 and named in offline.err


def test_eval_still_asks_about_a_path_that_is_there(project: Path) -> None:
    with FakeModel([("tool", "Skill", {"skill": "pdf-summary"})]) as fake:
        words = [".claude/skills", "--request", "summarize a.pdf", "--runs", "1", "--yes"]
        run = cli("eval", *words, "--endpoint", fake.url, "--model", "m", cwd=project)
        assert run.code == 0, run.err
        assert "About to send 1 call" in run.err and len(fake.received) == 1


def test_eval_refuses_a_folder_with_no_skill_to_ask_about(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No SKILL.md under the PATH (lint's no-skills), or none the agent lists to its
    model: exit 2 before any estimate, question or call."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "empty").mkdir()
    hidden = skill_text(name="pdf", description="Fill PDF forms.")
    hidden = hidden.replace("---\n", "---\ndisable-model-invocation: true\n", 1)
    write(tmp_path, "proj/.claude/skills/pdf/SKILL.md", hidden)
    with FakeModel([("tool", "Skill", {"skill": "pdf"})]) as fake:
        ask = ["eval", "--request", "fill a pdf", "--endpoint", fake.url, "--model", "m", "--yes"]
        runs = [
            cli(*ask, "empty", cwd=tmp_path),
            cli(*ask, cwd=tmp_path / "empty"),
            cli(*ask, "proj", "--profile", "claude-code", cwd=tmp_path),
        ]
    assert fake.received == []
    assert [r.code for r in runs] == [2, 2, 2]
    assert all("About to send" not in r.err for r in runs)
    assert "empty: no skill to ask about (no SKILL.md was found); nothing was asked" in runs[0].err
    assert ".: no skill to ask about (no SKILL.md was found)" in runs[1].err
    assert "proj: no skill to ask about (claude-code lists none of its 1 skill" in runs[2].err
