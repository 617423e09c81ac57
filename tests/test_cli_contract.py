"""The CLI contract from a new user's side (issue 15): lint on nothing, suites run
where the user is, prompt and activate messages, exit codes, English and help."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .helpers import cli, skill_text, write


# -- lint on nothing -------------------------------------------------------------------
def test_lint_of_a_path_without_skills_fails(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    run = cli("lint", "empty", cwd=tmp_path)
    assert run.code == 1
    assert run.out.startswith("empty: error no-skills: No SKILL.md under empty")
    assert "0 skills (0 active)" in run.out and "1 error," in run.out
    data = cli("lint", "empty", "--format", "json", cwd=tmp_path).json
    assert [d["code"] for d in data["diagnostics"]] == ["no-skills"]
    assert cli("lint", "--root", "empty", cwd=tmp_path).code == 1
    # A path with skills next to an empty one: the empty one still fails the run.
    write(tmp_path, "good/a/SKILL.md", skill_text(name="a", description="Fine."))
    assert cli("lint", "good", cwd=tmp_path).code == 0
    both = cli("lint", "good", "empty", cwd=tmp_path)
    assert both.code == 1 and "1 skill (1 active)" in both.out


def test_lint_names_the_fix_for_a_lowercase_skill_md(tmp_path: Path) -> None:
    write(tmp_path, "low/foo/skill.md", skill_text(name="foo", description="Fine."))
    run = cli("lint", "low", cwd=tmp_path)
    assert run.code == 1
    assert "low/foo/skill.md: warning skill-file-name:" in run.out
    assert "rename it to SKILL.md" in run.out
    # Given the file itself, it is read, with the same warning.
    one = cli("lint", "low/foo/skill.md", cwd=tmp_path)
    assert one.code == 0 and "skill-file-name" in one.out and "1 skill (1 active)" in one.out


def test_lint_of_a_file_that_is_not_skill_md_says_so(tmp_path: Path) -> None:
    write(tmp_path, "notes/README.md", "# hello\n")
    run = cli("lint", "notes/README.md", cwd=tmp_path)
    assert run.code == 1
    assert "error skill-file-name: 'README.md' is not a skill file" in run.out
    assert "frontmatter-missing" not in run.out


# -- test: which project a suite runs against -------------------------------------------
def claude_project(tmp_path: Path) -> Path:
    """A home-made project: .claude/skills, a suite under suites/, an eval set in the skill."""
    write(
        tmp_path,
        ".claude/skills/pdf-summary/SKILL.md",
        skill_text(name="pdf-summary", description="Summarize PDF files into short notes."),
    )
    write(
        tmp_path,
        "suites/basic.yaml",
        'cases:\n  - query: "/pdf-summary report.pdf"\n    expect: pdf-summary\n'
        '  - query: "what is the weather"\n    expect: none\n',
    )
    write(
        tmp_path,
        ".claude/skills/pdf-summary/eval_set.json",
        '[{"query": "use pdf-summary skill on a.pdf", "should_trigger": true},'
        ' {"query": "what is the weather", "should_trigger": false}]',
    )
    return tmp_path


def test_a_suite_runs_against_the_current_folder(tmp_path: Path) -> None:
    project = claude_project(tmp_path)
    run = cli("test", "suites/basic.yaml", cwd=project)
    assert run.code == 0, run.out + run.err
    assert run.out.splitlines()[0] == (
        "suites/basic.yaml (2 cases) against . (claude-code; roots: .claude/skills)"
    )
    assert run.out.rstrip().endswith("2 passed, 0 failed")
    data = cli("test", "suites/basic.yaml", "--format", "json", cwd=project).json
    assert data["suites"][0]["project"] == str(project)
    assert data["suites"][0]["roots"] == [str(project / ".claude" / "skills")]


def test_an_eval_set_runs_against_its_skills_project(tmp_path: Path) -> None:
    project = claude_project(tmp_path / "proj")
    eval_set = ".claude/skills/pdf-summary/eval_set.json"
    for cwd, arg in ((project, eval_set), (tmp_path, f"proj/{eval_set}")):
        run = cli("test", arg, cwd=cwd)
        assert run.code == 0, run.out + run.err
        assert "2 passed, 0 failed" in run.out


def test_expectations_are_printed_as_text(tmp_path: Path) -> None:
    project = claude_project(tmp_path)
    write(
        project,
        ".claude/skills/pdf-summary/eval_set.json",
        '[{"query": "what is the weather", "should_trigger": true}]',
    )
    run = cli("test", ".claude/skills/pdf-summary/eval_set.json", cwd=project)
    assert run.code == 1
    assert "expected: should trigger pdf-summary" in run.out
    assert "{" not in run.out


# -- prompt and activate ---------------------------------------------------------------
def oasis_with_a_skipped_skill(tmp_path: Path) -> Path:
    write(tmp_path, "skills/bad/SKILL.md", "---\nname: bad\ndescription: x\n---\nBad.\n")
    write(
        tmp_path,
        "skills/good/SKILL.md",
        "---\nid: good\nname: good\ndescription: Good one.\ntriggers: [do good]\n"
        "priority: 1\n---\n\n\nDo good.\n",
    )
    return tmp_path


def test_prompt_says_which_skills_it_left_out_and_why(tmp_path: Path) -> None:
    base = oasis_with_a_skipped_skill(tmp_path)
    data = cli("prompt", "--profile", "oasis", "--format", "json", cwd=base).json
    assert data["listed"] == ["good"]
    assert data["omitted"] == [
        {"skill": "bad", "reason": "skipped: its 'id', 'triggers', 'priority' cannot be used"}
    ]
    text = cli("prompt", "--profile", "oasis", cwd=base)
    assert "[left out: bad: skipped: its 'id'" in text.err


def test_prompt_tier_3_needs_a_query(tmp_path: Path) -> None:
    base = oasis_with_a_skipped_skill(tmp_path)
    run = cli("prompt", "--profile", "oasis", "--tier", "3", cwd=base)
    assert run.code == 2 and run.out == ""
    assert "--query" in run.err


def test_tier_3_and_activation_deliver_the_same_text(tmp_path: Path) -> None:
    base = oasis_with_a_skipped_skill(tmp_path)
    tier3 = cli("prompt", "--profile", "oasis", "--query", "do good", "--format", "json", cwd=base)
    act = cli("activate", "good", "--profile", "oasis", "--format", "json", cwd=base)
    assert tier3.json["tier"] == 3
    assert tier3.json["text"] == act.json["content"] == "Do good.\n"


def test_activate_says_why_a_skipped_skill_is_not_found(tmp_path: Path) -> None:
    base = oasis_with_a_skipped_skill(tmp_path)
    run = cli("activate", "bad", "--profile", "oasis", cwd=base)
    assert run.code == 1
    lines = run.err.splitlines()
    assert lines[0] == "skillstudio: NOT_FOUND: No skill named 'bad'."  # the agent's answer
    assert lines[1].startswith("skillstudio: 'bad' is skipped, so the agent does not have it:")
    assert "'id', 'triggers', 'priority' cannot be used" in lines[1]
    error = cli("activate", "bad", "--profile", "oasis", "--format", "json", cwd=base).json
    assert error["error"]["code"] == "NOT_FOUND" and error["error"]["status"] == "skipped"


# -- exit codes ------------------------------------------------------------------------
def test_bad_usage_is_2_and_a_failed_check_is_1(tmp_path: Path) -> None:
    base = oasis_with_a_skipped_skill(tmp_path)
    bad_name = cli("new", "Bad_Name", "--profile", "oasis", cwd=base)
    assert bad_name.code == 2 and "not a valid skill name" in bad_name.err
    assert not (base / "skills" / "Bad_Name").exists()
    assert cli("match", "hi", "--why", "nonexistent", "--profile", "oasis", cwd=base).code == 1
    assert cli("match", "hi", "--why", "good", "--profile", "oasis", cwd=base).code == 0
    why = cli("match", "hi", "--why", "nope", "--profile", "oasis", "--format", "json", cwd=base)
    assert why.code == 1 and "nope" in why.json["why_not"]


# -- English ---------------------------------------------------------------------------
PLURALS = {
    "bytes", "cases", "characters", "colours", "entries", "errors", "files", "folders",
    "levels", "lines", "notes", "points", "projects", "roots", "skills", "tokens", "values",
    "warnings",
}  # fmt: skip


# Counts that the message is only written for when they are over a limit (so never 1).
OVER_A_LIMIT = {
    ("core/checking/field_checks.py", "len(value)"),
    ("core/checking/field_checks.py", "len(name)"),
    ("core/profiles/agentskills.py", "len(norm)"),
    ("core/profiles/agentskills.py", "lines"),
    ("core/profiles/agentskills.py", "tokens"),
    ("core/editing/archive.py", "len(files)"),
    ("core/editing/archive.py", "len(infos)"),
    ("gui/editor/file_view.py", "size"),
    (
        "gui/panels/workbench/tier_view.py",
        "tier.budget",
    ),  # `n / budget characters`: the budget is the count
    ("cli/engine_cmd.py", "budget"),
}


def counted_noun_templates() -> list[str]:
    """Message templates (f-strings) that put a plural noun after a number that may be
    1: `{n} skills` reads `1 skills`. Counts go through core.text.counted; a named limit
    (`{MAX_FILES} files`, `{self.limits.max_folders}`) is fine."""
    import ast
    import itertools
    import re

    from .helpers import REPO

    package = os.path.join(REPO, "skillstudio")
    bad: list[str] = []
    for folder, _dirs, files in os.walk(package):
        for name in sorted(f for f in files if f.endswith(".py")):
            path = os.path.join(folder, name)
            where = os.path.relpath(path, package)
            tree = ast.parse(Path(path).read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.JoinedStr):
                    continue
                for value, text in itertools.pairwise(node.values):
                    if not isinstance(value, ast.FormattedValue):
                        continue
                    word = re.match(r" (\w+)", str(getattr(text, "value", "")))
                    if not word or word.group(1) not in PLURALS:
                        continue
                    expr = ast.unparse(value.value)
                    last = expr.rsplit(".", 1)[-1]
                    if last.isupper() or last.startswith("max_") or (where, expr) in OVER_A_LIMIT:
                        continue
                    bad.append(f"{where}:{node.lineno}: {{{expr}}} {word.group(1)}")
    return bad


def test_every_counted_noun_goes_through_one_helper() -> None:
    assert counted_noun_templates() == []


def test_counted_reads_as_english() -> None:
    from skillstudio.core.model.text import counted

    assert [counted(n, "skill") for n in (0, 1, 2, 10000)] == [
        "0 skills", "1 skill", "2 skills", "10,000 skills"
    ]  # fmt: skip
    assert counted(1, "entry", "entries") == "1 entry" and counted(3, "entry", "entries") == (
        "3 entries"
    )


def test_messages_read_as_english(tmp_path: Path) -> None:
    write(tmp_path, "skills/one/SKILL.md", "---\nname: one\nid: one\npriority: 1\n"
          "description: One.\ntriggers: [one]\ncolour: red\n---\nOne.\n")  # fmt: skip
    run = cli("lint", "--profile", "oasis", "-v", cwd=tmp_path)
    assert "1 skill (1 active)" in run.out and "1 info" in run.out
    assert "'colour' is not a field of the oasis profile" in run.out
    write(tmp_path, "std/Bad/SKILL.md", "---\nname: Bad\n---\nx\n")
    std = cli("lint", "std", "--profile", "agentskills", cwd=tmp_path)
    assert "An agent that follows the Agent Skills standard would not load" in std.out
    assert "The agentskills agent" not in std.out
    show = cli("show", "one", "--profile", "oasis", cwd=tmp_path)
    assert "  root:  skills\n" in show.out
    listing = cli("list", "--profile", "oasis", cwd=tmp_path).out.splitlines()
    assert listing[0].split() == ["NAME", "STATUS", "ROOT", "PATH", "PROBLEMS"]
    assert listing[1].index("active") == listing[0].index("STATUS")
    assert listing[1].index("skills/one") == listing[0].index("PATH")


# -- help ------------------------------------------------------------------------------
def subparsers() -> dict[str, Any]:
    import argparse

    from skillstudio.cli.main import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_argument_has_help() -> None:
    missing = [
        f"{name} {action.dest}"
        for name, parser in subparsers().items()
        for action in parser._actions
        if not (action.help or "").strip()
    ]
    assert missing == []


def readme_commands() -> dict[str, str]:
    """docs/commands.md's command list: command -> its line (comment included)."""
    from .helpers import REPO

    text = Path(REPO, "docs", "commands.md").read_text(encoding="utf-8")
    block = text.split("## Command line\n\n```sh\n", 1)[1].split("```", 1)[0]
    lines: dict[str, str] = {}
    last = ""
    for line in block.splitlines():
        if line.startswith("skillstudio "):
            last = line.split()[1]
            lines[last] = line
        elif line.strip().startswith("#") and last:
            lines[last] += " " + line.strip().lstrip("# ")
    return lines


COMMON = {"-h", "--help", "--root", "--project", "--profile", "--format", "--no-cache"}


def test_readme_and_help_list_the_same_commands_and_options() -> None:
    import re

    readme, parsers = readme_commands(), subparsers()
    assert sorted(readme) == sorted(parsers)
    for name, line in readme.items():
        usage = line.split("#", 1)[0]
        written = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", usage))
        options = [a.option_strings for a in parsers[name]._actions if a.option_strings]
        known = {opt for strings in options for opt in strings}
        assert written <= known, (name, written - known)
        own = [strings for strings in options if not set(strings) & COMMON]
        assert all(set(strings) & written for strings in own), (name, own, written)


def test_lint_path_help_names_every_form_the_readme_lists() -> None:
    line = readme_commands()["lint"]
    forms = line.split("PATH =", 1)[1].replace(", or ", ", ").split(",")
    path = next(a for a in subparsers()["lint"]._actions if a.dest == "paths")
    for form in forms:
        assert form.strip().rstrip(".") in path.help, form


def test_show_takes_a_skill_folder_as_set_does(tmp_path: Path) -> None:
    write(tmp_path, "proj/.claude/skills/pdf/SKILL.md", skill_text(name="pdf", description="P."))
    for arg in (".claude/skills/pdf", ".claude/skills/pdf/SKILL.md", "pdf"):
        run = cli("show", arg, cwd=tmp_path / "proj")
        assert run.code == 0, (arg, run.err)
        assert run.out.startswith("pdf  [active]")


# -- eval: live checks (docs/live.md), against the loopback fake server -------------------
def test_eval_exit_codes_and_formats(tmp_path: Path, monkeypatch: Any) -> None:
    import xml.etree.ElementTree as ET

    from .live_fake import FakeModel

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    project = claude_project(tmp_path)
    write(
        project,
        "suites/live.yaml",
        'cases:\n  - query: "summarize report.pdf"\n    expect_model: pdf-summary\n',
    )
    base = ["--model", "m", "--runs", "3", "--yes"]
    with FakeModel([("tool", "Skill", {"skill": "pdf-summary"})]) as fake:
        good = cli("eval", "suites/live.yaml", "--endpoint", fake.url, *base, cwd=project)
        assert good.code == 0, good.out + good.err
        assert (
            "PASS  'summarize report.pdf' -> pdf-summary 3; expected pdf-summary: 3/3 of 3 runs"
            in good.out
        )
        assert good.out.rstrip().endswith("1 passed, 0 failed")
        assert "About to send 3 calls" in good.err
        # a request judged against another expectation fails: exit 1
        wrong = cli(
            "eval",
            "--request",
            "summarize report.pdf",
            "--expect",
            "none",
            "--endpoint",
            fake.url,
            *base,
            "--format",
            "json",
            cwd=project,
        )
        assert wrong.code == 1 and wrong.json["failed"] == 1
        report = wrong.json["reports"][0]
        assert report["model"] == "m" and report["date"] and "key" not in json.dumps(report)
        # without an expectation the picks are shown, not judged
        shown = cli(
            "eval", "--request", "summarize report.pdf", "--endpoint", fake.url, *base, cwd=project
        )
        assert shown.code == 0 and "----  'summarize report.pdf' -> pdf-summary 3" in shown.out
    # the server is gone: the cache replays, in JUnit XML too
    replay = cli(
        "eval",
        "suites/live.yaml",
        "--endpoint",
        fake.url,
        "--offline",
        *base,
        "--format",
        "junit",
        cwd=project,
    )
    assert replay.code == 0, replay.err
    suite = ET.fromstring(replay.out).find("testsuite")
    assert suite is not None and suite.get("tests") == "1" and suite.get("failures") == "0"
    missed = cli(
        "eval",
        "--request",
        "never asked",
        "--endpoint",
        fake.url,
        "--offline",
        "--model",
        "m",
        cwd=project,
    )
    # no answer: inconclusive, exit 3 (never a pass, never a smaller N)
    assert missed.code == 3 and "not in the cache (--offline)" in missed.out
    assert missed.out.rstrip().endswith("0 passed, 0 failed, 1 inconclusive")
    # bad usage: 2
    for words in (
        ["eval", "--request", "q", "--endpoint", "nowhere", "--model", "m", "--yes"],
        ["eval", "--request", "q", "--model", "m", "--runs", "0"],
        ["eval", "--request", "q", "--model", "m", "--pass-rate", "2"],
        ["eval", "--request", "q", "--model", "m", "--price", "cheap"],
        ["eval", "--expect", "pdf-summary", "--model", "m"],
        ["eval", "--request", "q", "--endpoint", "anthropic", "--model", "m", "--yes"],  # no key
        ["eval", "--request", "q", "--endpoint", fake.url, "--model", "m"],  # no terminal, no --yes
        ["eval", "--request", "q"],  # no model
    ):
        monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
        monkeypatch.setenv("SKILLSTUDIO_NO_KEYRING", "1")
        run = cli(*words, cwd=project)
        assert run.code == 2, (words, run.out, run.err)
        if "anthropic" in words:  # a missing key is said before any estimate or question
            assert "no key for anthropic: set ANTHROPIC_API_KEY" in run.err
            assert "About to send" not in run.err


def test_test_writes_junit_xml(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    project = claude_project(tmp_path)
    write(
        project,
        "suites/two.yaml",
        'cases:\n  - query: "/pdf-summary a.pdf"\n'
        '    expect: pdf-summary\n  - query: "what \\x01 is the weather"\n'
        "    expect: pdf-summary\n",
    )
    run = cli("test", "suites/two.yaml", "--format", "junit", cwd=project)
    assert run.code == 1
    root = ET.fromstring(run.out)
    assert (root.get("tests"), root.get("failures")) == ("2", "1")
    cases = root.findall("testsuite/testcase")
    assert [c.get("classname") for c in cases] == ["suites/two.yaml:2", "suites/two.yaml:4"]
    failure = cases[1].find("failure")
    assert failure is not None and "expected: pdf-summary" in (failure.get("message") or "")
    assert cases[1].get("name") == "what \\x01 is the weather"  # XML cannot hold \x01


def test_eval_does_not_ask_a_model_for_a_profile_whose_rules_pick(tmp_path: Path) -> None:
    write(tmp_path, "skills/a/SKILL.md", skill_text(name="a", description="Does a."))
    run = cli(
        "eval",
        "skills",
        "--profile",
        "oasis",
        "--request",
        "q",
        "--model",
        "m",
        "--offline",
        cwd=tmp_path,
    )
    assert run.code == 2
    assert "oasis picks skills by its own rules, not by a model: not asked" in run.err


def test_every_code_is_in_the_docs_table_and_explain_knows_it() -> None:
    from skillstudio.core.model.diagnostics import CODES

    from .helpers import REPO

    text = Path(REPO, "docs", "commands.md").read_text(encoding="utf-8")
    table = text.split("## Diagnostics", 1)[1]
    assert [code for code in CODES if f"`{code}`" not in table] == []
    listing = cli("explain")
    assert listing.code == 0
    assert [line.split()[0] for line in listing.out.splitlines()] == list(CODES)


def test_lint_fix_options_and_exit_codes(tmp_path: Path) -> None:
    text = '---\nname: pdf\ndescription: Fills PDFs. Use when asked.\nbackground: "no"\n---\nb\n'
    path = write(tmp_path, ".claude/skills/pdf/SKILL.md", text)
    dry = cli("lint", "--dry-run", cwd=tmp_path)
    assert dry.code == 1 and "+background: false" in dry.out
    assert Path(path).read_text() == text
    fixed = cli("lint", "--fix", "--format", "json", cwd=tmp_path)
    assert fixed.code == 0 and [f["code"] for f in fixed.json["fixed"]] == ["bool-as-string"]
    assert Path(path).read_text() == text.replace('"no"', "false")
    assert cli("lint", "--dry-run", cwd=tmp_path).code == 0


# -- lsp: stdout is the protocol's alone -------------------------------------------------
def test_lsp_speaks_only_the_protocol_on_stdout_and_exits_when_told(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from .helpers import REPO

    def frame(message: dict[str, Any]) -> bytes:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    write(tmp_path, "skills/a/SKILL.md", skill_text(name="a", description="A."))
    messages: list[dict[str, Any]] = [
        {
            "id": 1,
            "method": "initialize",
            "params": {"processId": None, "capabilities": {}, "rootUri": tmp_path.as_uri()},
        },
        {"method": "initialized", "params": {}},
        {"id": 2, "method": "shutdown", "params": None},
        {"method": "exit", "params": None},
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "skillstudio", "lsp", "--stdio"],
        input=b"".join(frame(m) for m in messages),
        capture_output=True,
        env={**os.environ, "PYTHONPATH": REPO},
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout
    answers = []
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        assert head.startswith(b"Content-Length: "), out[:80]
        size = int(head.split(b"\r\n")[0].split(b":")[1])
        answers.append(json.loads(rest[:size]))
        out = rest[size:]
    first = next(a for a in answers if a.get("id") == 1)["result"]
    assert first["serverInfo"]["name"] == "skillstudio"
    caps = first["capabilities"]
    assert caps["hoverProvider"] and caps["completionProvider"] and caps["codeActionProvider"]
    assert any(a.get("id") == 2 for a in answers)
    assert cli("lsp", "--profile", "nope").code == 2
