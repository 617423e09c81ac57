"""Fixes (issue 29): `lint --fix`, `--unsafe-fixes`, `--dry-run`, and the API the app and
the language server use (core/editing/fixes.py). Each fix changes only what it names
(byte for byte elsewhere), a second --fix changes nothing, nothing is written through a
link, and on the shared corpus the files change exactly by the edits reported."""

from __future__ import annotations

import ast
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import skillstudio
from skillstudio.core.checking import fix_plans
from skillstudio.core.editing.fixes import apply_fix, fixes_for, skill_check
from skillstudio.core.model.diagnostics import Diagnostic
from skillstudio.core.model.document import Document
from skillstudio.core.model.fixes import (
    FieldEdit,
    FixPlan,
    TextEdit,
    apply_edits,
    edit_between,
    line_column,
)
from skillstudio.core.model.skills import Root, Skill
from skillstudio.core.profiles import get_profile
from skillstudio.core.reading.frontmatter import parse_text
from tests.helpers import CORPUS, cli, write

HERE = Path(__file__).parent / "advice"

# code -> (--unsafe-fixes needed, text before, text after): the whole change a fix makes
FIXES = {
    "bool-as-string": (
        False,
        'disable-model-invocation: "true"  # only by /pdf-forms',
        "disable-model-invocation: true  # only by /pdf-forms",
    ),
    "bool-word": (
        False,
        "disable-model-invocation: yes  # typed as /pdf-forms only\nuser-invocable: On\n",
        "disable-model-invocation: true  # typed as /pdf-forms only\nuser-invocable: true\n",
    ),
    "path-backslash": (False, "scripts\\fill_form.py", "scripts/fill_form.py"),
    "paths-invalid": (False, '  - "forms\\\\*.pdf"', '  - "forms/*.pdf"'),
    "description-xml": (True, "Fills <b>PDF</b> form", "Fills PDF form"),
    "agent-without-fork": (True, "agent: Explore\n", "context: fork\nagent: Explore\n"),
    "tool-unknown": (True, "allowed-tools: Read grep", "allowed-tools: Read Grep"),
}


def _bad(code: str, tmp_path: Path) -> tuple[Path, str]:
    target = tmp_path / code
    shutil.copytree(HERE / code / "bad", target)
    profile = (HERE / code / "profile").read_text().strip()
    return target / "pdf-forms" / "SKILL.md", profile


def _fix(path: Path, profile: str, *extra: str) -> tuple[int, str, str]:
    run = cli("lint", str(path.parent), "--profile", profile, "--no-cache", *extra)
    return run.code, run.out, run.err


@pytest.mark.parametrize("code", sorted(FIXES))
def test_a_fix_changes_only_what_it_names_and_once(code: str, tmp_path: Path) -> None:
    unsafe, before, after = FIXES[code]
    path, profile = _bad(code, tmp_path)
    original = path.read_bytes()
    assert before.encode() in original
    flags = ("--fix", "--unsafe-fixes") if unsafe else ("--fix",)
    if unsafe:  # a safe --fix leaves an unsafe fix alone
        _fix(path, profile, "--fix")
        assert path.read_bytes() == original
    _, out, err = _fix(path, profile, *flags)
    assert f"fixed {code}" in err
    assert path.read_bytes() == original.replace(before.encode(), after.encode(), 1)
    left = [line for line in out.splitlines() if f" {code}: " in line]
    assert not [line for line in left if "Frobnicate" not in line]  # reported after the fix
    fixed = path.read_bytes()
    _, _, err = _fix(path, profile, *flags)
    assert path.read_bytes() == fixed and "0 problems fixed" in err


def test_fixes_keep_bom_crlf_and_comments(tmp_path: Path) -> None:
    text = (
        "\ufeff---\r\nname: pdf-forms   # the command\r\n"
        "description: Fills PDF forms. Use when asked to fill one.\r\n"
        "user-invocable: 'yes'\r\n---\r\n\r\nRun scripts\\a.py and scripts\\b.py.\r\n"
    )
    path = Path(write(tmp_path, "pdf-forms/SKILL.md", text.encode("utf-8")))
    _fix(path, "claude-code", "--fix")
    assert path.read_bytes() == text.replace("'yes'", "true").replace("\\", "/").encode("utf-8")


def test_dry_run_prints_a_diff_and_writes_nothing(tmp_path: Path) -> None:
    path, profile = _bad("bool-as-string", tmp_path)
    original = path.read_bytes()
    code, out, err = _fix(path, profile, "--dry-run")
    assert code == 1 and path.read_bytes() == original
    assert out.startswith(f"--- {path}\n+++ {path}\n")  # absolute: as it is, no a//
    assert '-disable-model-invocation: "true"' in out
    assert "+disable-model-invocation: true  # only by /pdf-forms" in out
    assert "would fix bool-as-string" in err
    path.write_bytes(original.replace(b'"true"', b"true"))
    assert _fix(path, profile, "--dry-run")[:2] == (0, "")


def test_a_fix_is_not_written_through_a_link(tmp_path: Path) -> None:
    path, profile = _bad("bool-as-string", tmp_path)
    real = path.parent / "real.md"
    path.rename(real)
    os.symlink("real.md", path)
    original = real.read_bytes()
    _, _, err = _fix(path, profile, "--fix")
    assert real.read_bytes() == original and os.path.islink(path)
    assert "not fixed" in err and "link" in err


def test_unsafe_fix_of_a_name_that_differs_from_its_folder(tmp_path: Path) -> None:
    path = Path(write(tmp_path, "pdf-forms/SKILL.md", "---\nname: pdf-form\ndescription: d\n---\n"))
    _code, _out, err = _fix(path, "agentskills", "--fix")
    assert b"name: pdf-form\n" in path.read_bytes()  # a rename is never a safe fix
    # ... and a plain --fix that fixed nothing says a fix is there (a reviewer read
    # "0 problems fixed" and found the rename only in the app)
    assert "0 problems fixed in 0 files" in err
    assert "1 more problem has a fix that renames or takes text out" in err
    assert "--unsafe-fixes" in err
    _code, _out, err = _fix(path, "agentskills", "--fix", "--unsafe-fixes")
    assert "more problem" not in err
    assert path.read_bytes() == b"---\nname: pdf-forms\ndescription: d\n---\n"
    assert not (tmp_path / "pdf-form").exists()  # one fix, not both: the folder stays


def test_fixes_for_unsaved_text_gives_edits_on_the_document() -> None:
    profile = get_profile("claude-code")
    text = '---\nname: é-x\ndescription: d\nbackground: "no"\n---\nbody\n'
    doc = parse_text(Document(path="/p/x/SKILL.md"), text)
    diagnostic = Diagnostic("bool-as-string", "warning", "m", doc.path, 4, 13, "background")
    [fix] = fixes_for(doc, diagnostic, profile)
    assert fix.safe and fix.edits == (TextEdit(41, 45, "false"),)
    assert apply_fix(doc, fix) == text.replace('"no"', "false")
    assert line_column(text, 41) == (3, 12)
    assert line_column("é😀x", 2, utf16=True) == (0, 3)
    assert fixes_for(doc, Diagnostic("name-vague", "info", "m", doc.path), profile) == []


def test_edit_helpers() -> None:
    assert edit_between("abcdef", "abXYef") == TextEdit(2, 4, "XY")
    assert edit_between("same", "same") is None
    assert apply_edits("abcdef", [TextEdit(4, 5, "E"), TextEdit(0, 1, "A")]) == "AbcdEf"
    with pytest.raises(ValueError):
        apply_edits("abc", [TextEdit(0, 2, ""), TextEdit(1, 3, "")])


def _tree(folder: Path) -> dict[str, bytes]:
    out = {}
    for dirpath, _, files in os.walk(folder):
        for name in files:
            full = os.path.join(dirpath, name)
            if not os.path.islink(full):
                out[os.path.relpath(full, folder)] = Path(full).read_bytes()
    return out


@pytest.mark.skipif(not os.path.isdir(CORPUS), reason="the shared corpus is not here")
@pytest.mark.parametrize("flags", [("--fix",), ("--fix", "--unsafe-fixes")])
def test_fix_on_the_corpus_changes_only_what_the_fixes_say(
    flags: tuple[str, ...], tmp_path: Path
) -> None:
    copy = tmp_path / "corpus"
    shutil.copytree(CORPUS, copy, symlinks=True)
    before = _tree(copy)
    run = cli("lint", str(copy), "--format", "json", "--no-cache", *flags)
    fixed = json.loads(run.out)["fixed"]
    after = _tree(copy)
    assert set(after) == set(before)  # nothing renamed, added or removed
    expected = dict(before)
    for entry in fixed:  # the edits, in order, on each file's text as it was then
        rel = os.path.relpath(entry["path"], copy)
        text = expected[rel].decode("utf-8")
        bom = text.startswith("\ufeff")
        edits = [TextEdit(e["start"], e["end"], e["text"]) for e in entry["edits"]]
        new = apply_edits(text[1:] if bom else text, edits)
        expected[rel] = (("\ufeff" if bom else "") + new).encode("utf-8")
    assert after == expected
    again = cli("lint", str(copy), "--format", "json", "--no-cache", *flags)
    assert json.loads(again.out)["fixed"] == [] and _tree(copy) == after


def test_saves_and_renames_refuse_links_and_taken_names(tmp_path: Path) -> None:
    from skillstudio.core.editing.fixes import rename_folder, save_fixed
    from skillstudio.core.editing.saving import SaveError

    skill = tmp_path / "skills" / "pdf"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("x")
    (tmp_path / "skills" / "taken").mkdir()
    os.symlink(skill, tmp_path / "skills" / "alias")
    with pytest.raises(SaveError, match="already exists"):
        rename_folder(str(skill), "taken")
    with pytest.raises(SaveError, match="link"):
        rename_folder(str(tmp_path / "skills" / "alias"), "other")
    with pytest.raises(SaveError, match="usable"):
        rename_folder(str(skill), "../escape")
    with pytest.raises(SaveError, match="outside"):
        save_fixed(str(skill / "SKILL.md"), None, "y", str(tmp_path / "skills" / "taken"))
    assert (skill / "SKILL.md").read_text() == "x"
    assert rename_folder(str(skill), "pdf-forms") == str(tmp_path / "skills" / "pdf-forms")


# -- issue 34: fixes never damage text -------------------------------------------------

DESCRIPTION = "description: Fills PDF forms. Use when asked to fill one.\n"


def _skill(base: Path, rel: str, name: str, extra: str = "", body: str = "Body.\n") -> Path:
    text = f"---\nname: {name}\n{DESCRIPTION}{extra}---\n{body}"
    return Path(write(base, rel, text, dedent=False))


@pytest.mark.parametrize(
    "entry", ["bash(grep -E a\\1b:*)", "bash(printf a\\tb\\n:*)", "bash(sed s/x/\\g<0>/:*)"]
)
def test_a_tool_entry_is_never_a_replacement_template(entry: str, tmp_path: Path) -> None:
    """A group reference in a tool entry made every fix of the repository end in an
    internal error; `\\t\\n` turned into a TAB and a line break (another permission)."""
    tool = _skill(tmp_path, "skills/greps/SKILL.md", "greps", f"allowed-tools: {entry}\n")
    other = _skill(tmp_path, "skills/forms/SKILL.md", "forms", 'user-invocable: "yes"\n')
    original = tool.read_bytes()
    for flags in (("--dry-run",), ("--dry-run", "--unsafe-fixes"), ("--fix",)):
        run = cli("lint", str(tmp_path), "--profile", "claude-code", "--no-cache", *flags)
        assert "internal error" not in run.err and run.code in (0, 1), run.err
    assert b"user-invocable: true\n" in other.read_bytes()  # the other skill was fixed
    assert tool.read_bytes() == original
    run = cli("lint", str(tmp_path), "--profile", "claude-code", "--no-cache", "--unsafe-fixes")
    assert "fixed tool-unknown" in run.err
    fixed = entry.replace("bash(", "Bash(", 1)
    assert tool.read_bytes() == original.replace(entry.encode(), fixed.encode())


def test_the_backslash_fix_leaves_markdown_escapes_and_paths_with_blanks(tmp_path: Path) -> None:
    """`config\\_loader.py` is Markdown for config_loader.py, and a name after the blank
    of `C:\\Program Files\\...` is part of that path: only the real path changes."""
    body = (
        "Edit config\\_loader.py and docs\\.hidden.md first.\n"
        "Install into C:\\Program Files\\Tool\\bin\\tool.exe or D:\\My Tools\\x\\y.dll.\n"
        "Then run `python scripts\\fill_form.py` (a code span keeps its backslashes).\n"
    )
    path = _skill(tmp_path, "pdf-forms/SKILL.md", "pdf-forms", body=body)
    original = path.read_bytes()
    run = cli("lint", str(path.parent), "--profile", "claude-code", "--no-cache", "--fix")
    assert "fixed path-backslash" in run.err
    assert path.read_bytes() == original.replace(b"scripts\\fill_form.py", b"scripts/fill_form.py")
    # the escapes alone: nothing to report, nothing to fix
    path.write_text(path.read_text().replace("`python scripts/fill_form.py`", "it"))
    kept = path.read_bytes()
    run = cli("lint", str(path.parent), "--profile", "claude-code", "--no-cache", "--fix")
    assert path.read_bytes() == kept and "path-backslash" not in run.out + run.err


def test_unsafe_fixes_never_rename_the_folder_lint_was_given(tmp_path: Path) -> None:
    """A one-skill repository with its SKILL.md at the top: `lint --unsafe-fixes .`
    renamed the repository's own folder (the shell then stood in a folder that was gone)."""
    repo = tmp_path / "My_Repo"
    path = _skill(repo, "SKILL.md", "pdf-tools")
    original = path.read_bytes()
    for where, arg in ((repo, "."), (tmp_path, "My_Repo"), (repo / "sub", str(repo))):
        where.mkdir(exist_ok=True)
        run = cli("lint", arg, "--unsafe-fixes", "--no-cache", cwd=where)
        assert repo.is_dir() and not (tmp_path / "pdf-tools").exists()
        assert path.read_bytes() == original
        assert "Rename the folder to 'pdf-tools': not done:" in run.err
        assert "rename it yourself" in run.err and "0 problems fixed" in run.err
    # a skill folder below the one given is still renamed
    nested = _skill(tmp_path / "repo", "skills/My_Skill/SKILL.md", "pdf-tools")
    run = cli("lint", str(tmp_path / "repo"), "--unsafe-fixes", "--no-cache", cwd=tmp_path)
    assert "fixed name-dir-mismatch" in run.err and not nested.exists()
    assert (tmp_path / "repo/skills/pdf-tools/SKILL.md").read_bytes() == original


@pytest.mark.parametrize(
    "tools",
    [
        "bash(git add:*) bash(git diff:*) bash(npm test:*)",
        '"bash(a\\\\tb:*), bash(c\\\\td:*), bash(e:*)"',  # escapes: not found as written
        "[bash(git add:*), read, grep]",
        "\n  - bash(git add:*)\n  - bash(git diff:*)\n  - bash(npm test:*)",
    ],
)
def test_one_run_of_unsafe_fixes_reaches_the_fixed_point(tools: str, tmp_path: Path) -> None:
    """Three lower-case entries needed three runs: each run fixed one."""
    path = _skill(tmp_path, "pdf/SKILL.md", "pdf", f"allowed-tools: {tools}\n")
    run = cli("lint", str(path.parent), "--profile", "claude-code", "--no-cache", "--unsafe-fixes")
    assert run.err.count("fixed tool-unknown") == 3, run.err
    fixed = path.read_bytes()
    assert b"bash(" not in fixed and b"read" not in fixed and b"grep" not in fixed
    again = cli(
        "lint", str(path.parent), "--profile", "claude-code", "--no-cache", "--unsafe-fixes"
    )
    assert "0 problems fixed" in again.err and path.read_bytes() == fixed
    assert "tool-unknown" not in again.out


@pytest.fixture
def bad_planner() -> Iterator[None]:
    """name-format fixed by plans that do not fix it: one breaks the YAML, one leaves
    the name as it was, one only adds a blank after it."""

    def plan(doc: Document, diag: Diagnostic) -> list[FixPlan]:
        start = doc.text.index("name: ") + len("name: ")
        end = doc.text.index("\n", start)
        return [
            FixPlan("Break the YAML", True, edits=(TextEdit(start, start, "[unclosed "),)),
            FixPlan("Say it twice", True, edits=(TextEdit(end, end, " "),)),
            FixPlan(
                "Change the description instead", True, fields=(FieldEdit("description", "x"),)
            ),
        ]

    saved = fix_plans.PLANNERS.get("name-format")
    fix_plans.register("name-format")(plan)
    yield
    if saved is None:
        fix_plans.PLANNERS.pop("name-format")
    else:
        fix_plans.PLANNERS["name-format"] = saved


def test_a_fix_whose_result_fails_its_check_is_dropped_with_a_note(
    tmp_path: Path, bad_planner: None
) -> None:
    path = _skill(tmp_path, "pdf/SKILL.md", "PDF")
    original = path.read_bytes()
    run = cli("lint", str(path.parent), "--profile", "agentskills", "--no-cache", "--fix")
    assert path.read_bytes() == original, "nothing written"
    assert "Break the YAML: not applied: the fixed text would not read" in run.err
    assert "Say it twice: not applied: the fixed text still has the problem it fixes" in run.err
    assert "Change the description instead: not applied:" in run.err
    assert "0 problems fixed" in run.err
    # the app and the editor get the same fixes: none of them is offered
    from skillstudio.core.editing.fixes import plan_fixes

    profile = get_profile("agentskills")
    text = original.decode()
    doc = parse_text(Document(path=str(path)), text)
    skill = Skill(path=str(path), root=Root(str(tmp_path), ""), doc=doc)
    check = skill_check(skill, profile)
    diagnostic = next(d for d in check(text)[1] if d.code == "name-format")
    assert fixes_for(doc, diagnostic, profile, check) == []
    fixes, notes = plan_fixes(doc, diagnostic, profile, check)
    assert fixes == [] and len(notes) == 3


def test_every_regex_replacement_is_a_literal_or_a_function() -> None:
    """By design: no text a user wrote is ever a `re.sub` replacement template. Every
    `.sub`/`.subn` call in skillstudio passes a string literal or a function."""
    root = Path(skillstudio.__file__).parent
    offenders = []
    for module in sorted(root.rglob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        functions = {
            n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in ("sub", "subn"):
                continue
            is_re = isinstance(node.func.value, ast.Name) and node.func.value.id in ("re", "regex")
            args = node.args[1:] if is_re else node.args
            repl = args[0] if args else None
            literal = isinstance(repl, ast.Constant) and isinstance(repl.value, str)
            function = isinstance(repl, ast.Lambda) or (
                isinstance(repl, ast.Name) and repl.id in functions
            )
            if not (literal or function):
                offenders.append(f"{module.relative_to(root)}:{node.lineno}")
    assert offenders == []
