"""Issue 34 item 7: `eval` refuses a path or a suite that does not exist (exit 2, the
message naming it) before any estimate, question or call, as every other command
does. On main `eval skills/pdf-tools --request Q` (the docs' own example, with a
typo or in the wrong folder) asked about the default skills instead: "About to send
N calls", and with --yes it sent them."""

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
        root, "suites/basic.yaml", 'cases:\n  - query: "summarize a.pdf"\n    expect: pdf-summary\n'
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
