"""Issue 34 item 6: no text a skill, a suite or a configuration holds reaches the
terminal or a CI log as a control sequence, whichever command prints it. Every
command of skillstudio/cli/main.py is run, in text form, over a project whose skill
names, folders, descriptions, bodies and suite entries hold erase-line (ESC [2K),
OSC 8 (a hidden link), OSC 52 (a clipboard write), BEL, CR, U+202E and a zero-width
space; nothing but newlines and tabs of the control, bidi and invisible characters
may come out raw (cli/output.py escapes them: `\\x1b`, `\\u202e`). On main `skillstudio
test` printed a suite's expected names, per-skill rows and confusion rows raw (a fake
PASS written over an erased FAIL), and prompt, activate, `lint --profile all` and a
few error lines did too."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from skillstudio.cli.main import GROUPS
from skillstudio.core.checking.lookalike import ESCAPED

from .helpers import cli, write

OSC8 = "\x1b]8;;https://evil.example\x07here\x1b]8;;\x07"
OSC52 = "\x1b]52;c;eA==\x07"
EVIL = f"\x1b[2K{OSC8}{OSC52}\x07\r\u202e\u200b"
# the same in a YAML double-quoted scalar (a name or a description keeps its CR)
EVIL_YAML = "\\e[2K\\e]8;;https://evil.example\\ahere\\e]8;;\\a\\e]52;c;eA==\\a\\a\\r\\u202e\\u200b"
# a name short enough to load, without `/` (a path) or a CR (a name's is a space)
NAME = f"pdf-forms\x1b[2K{OSC52}\u202e\u200b"
NAME_YAML = "pdf-forms\\e[2K\\e]52;c;eA==\\a\\u202e\\u200b"
FOLDER = "x\x1b[2Ky\u202e"  # a folder name with an escape (no `/` in it)
# what may not reach a terminal: C0 controls but newline and tab, DEL, C1 controls,
# bidi and zero-width characters, line separators
RAW = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029" + "".join(map(chr, sorted(ESCAPED))) + "]"
)


def _skill(name: str | None, description: str) -> str:
    named = f'name: "{name}"\n' if name is not None else ""
    return f'---\n{named}description: "{description}"\n---\n\n# Use\n\nFill it{EVIL} then save.\n'


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A codex project (the model chooses: eval and the likely ranking have work)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "proj"
    skills = root / ".agents" / "skills"
    write(skills, "pdf-forms/SKILL.md", _skill(NAME_YAML, f"Fill PDF forms {EVIL_YAML}."), False)
    write(skills, f"{FOLDER}/SKILL.md", _skill(None, f"Extract PDF tables {EVIL_YAML}."), False)
    write(skills, "notes/SKILL.md", _skill("notes", f"Write release notes {EVIL_YAML}."), False)
    cases = [
        (f"fill the pdf form {EVIL_YAML}", f'"{NAME_YAML}"'),
        (f"${NAME_YAML} fill it", f'"{NAME_YAML}"'),
        ("$notes write the notes", f'"\\e[32mPASS{EVIL_YAML}"'),
        ("what is the weather", "none"),
    ]
    text = "cases:\n" + "".join(f'  - query: "{q}"\n    expect: {e}\n' for q, e in cases)
    text += f'  - query: "x{EVIL_YAML}"\n    expect_likely: ["\\e[1A{EVIL_YAML}"]\n'
    write(root, "suites/evil.yaml", text)
    write(root, "skillstudio.yaml", "profile: codex\nsuites: [suites/evil.yaml]\n")
    if shutil.which("git"):  # `diff` compares the commands' edits with this commit
        for words in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "evil"]):
            subprocess.run(
                ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@x", *words],
                check=True,
                capture_output=True,
            )
    return root


def commands(tmp_path: Path) -> list[list[str]]:
    """Every command, in its text form (JSON escapes on its own; `lsp` speaks JSON-RPC
    on stdio and `gui` opens the app)."""
    archive = str(tmp_path / "evil.skill")
    return [
        ["lint", "."],
        ["lint", ".", "-v"],
        ["lint", ".", "--profile", "all"],
        ["lint", ".", "--fix", "--dry-run"],
        ["list"],
        ["show", NAME],
        ["show", f"missing{EVIL}"],
        ["match", "fill the pdf form", "--explain"],
        ["match", f"${NAME} now"],
        ["match", "fill the pdf form", "--why", NAME],
        ["prompt"],
        ["prompt", "--query", "fill the pdf form"],
        ["activate", NAME],
        ["activate", f"missing{EVIL}"],
        ["headroom"],
        ["test"],
        ["test", "suites/evil.yaml", "--format", "junit"],
        ["test", "--leaks"],
        ["suggest", NAME, "--model", "m", "--endpoint", "http://127.0.0.1:9/v1"],  # no --yes
        ["eval", "--offline", "--model", "m"],
        ["eval", "--model", "m", "--endpoint", "http://127.0.0.1:9/v1"],  # the plan, no --yes
        ["eval", "--offline", "--model", "m", "--request", f"fill {EVIL}", "--expect", NAME],
        ["capture", "--compare", f"missing{EVIL}.json"],  # refused, naming it
        ["capture", "--agent", "codex", "--timeout", "0.1", "--save", str(tmp_path / "t.json")],
        ["overlap"],
        ["explain", "name-lookalike"],
        ["explain", f"code{EVIL}"],
        ["new", f"new{EVIL}"],
        ["set", "notes", f"description=Now {EVIL}"],
        ["pack", f".agents/skills/{FOLDER}", "-o", archive],  # refused: its name
        ["pack", ".agents/skills/notes", "-o", archive],
        ["unpack", archive, "--root", str(tmp_path / "unpacked")],
        ["set", NAME, "--unset", "metadata"],
        ["diff"],  # after the edits above: skills changed and added, cases run twice
        ["diff", "--format", "markdown"],
    ]


def test_every_command_is_walked() -> None:
    walked = {words[0] for words in commands(Path("."))}
    every = {name for group in GROUPS for name in group.COMMANDS}
    assert every - walked == {"lsp"}, "a new command gets a line in commands()"


def test_no_command_prints_a_raw_control_or_bidi_character(project: Path, tmp_path: Path) -> None:
    shown = 0
    for words in commands(tmp_path):
        run = cli(*words, cwd=project)
        assert run.code in (0, 1, 2, 3), (words, run.err)  # 3: eval inconclusive
        assert "internal error" not in run.err, (words, run.err)
        for stream, text in (("stdout", run.out), ("stderr", run.err)):
            found = RAW.search(text)
            assert found is None, (words, stream, repr(found.group()), text[:2000])
        shown += "\\x1b" in run.out + run.err or "\\u202e" in run.out + run.err
        if words[:2] == ["test", "suites/evil.yaml"]:  # JUnit XML: still valid
            names = [c.get("name") or "" for c in ET.fromstring(run.out).iter("testcase")]
            assert len(names) == 5 and "\\x1b" in names[0]
    assert shown >= 20, "the hostile text reached the output (escaped)"


def test_test_prints_expected_names_per_skill_and_confusion_rows_escaped(project: Path) -> None:
    run = cli("test", cwd=project)
    assert run.code == 1, run.err
    lines = run.out.splitlines()
    fake = next(line for line in lines if "PASS\\u202e" in line or "[32mPASS" in line)
    assert "expected: \\x1b[32mPASS\\x1b[2K\\x1b]8;;https://evil.example\\x07" in fake
    per_skill = next(i for i, line in enumerate(lines) if line.startswith("  per skill:"))
    confusion = lines.index("  confusion (expected -> got):")
    assert any("\\x1b[32mPASS" in line for line in lines[per_skill:confusion])
    assert any("\\x1b[32mPASS" in line for line in lines[confusion:])
    assert RAW.search(run.out) is None
