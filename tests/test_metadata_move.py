"""Issue 39: an unknown key the profile says to keep under 'metadata:' (`version: 1.2.0`,
the commonest error in a real plugin repository) has a fix that moves it there, from
the same core plan for `lint --fix`, the language server's code action and the app."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillstudio.core.editing.fixes import apply_fix, plan_fixes, skill_check
from skillstudio.core.model.document import Document
from skillstudio.core.model.fixes import Fix
from skillstudio.core.model.skills import Root, Skill
from skillstudio.core.profiles import get_profile
from skillstudio.core.reading.frontmatter import parse_text
from tests.helpers import cli, write

HEAD = "---\nname: my-skill\ndescription: Does a thing. Use when asked to.\n"
TAIL = "license: MIT\n---\nBody.\n"

# the frontmatter lines between HEAD and TAIL, before and after the fix
SHAPES = {
    "scalar": ("version: 1.2.0\n", "metadata:\n  version: 1.2.0\n"),
    "quoted": ("version: '1.2.0'\n", "metadata:\n  version: '1.2.0'\n"),
    "comment": (
        "version: 1.2.0   # bumped by CI\n",
        "metadata:\n  version: 1.2.0   # bumped by CI\n",
    ),
    "block": (
        "version: |\n  one\n  two\n\n",
        "metadata:\n  version: |\n    one\n    two\n\n",
    ),
    "block-list": ("version:\n- a\n- b\n", "metadata:\n  version:\n  - a\n  - b\n"),
    "flow-list": ("version: [1, 2]\n", "metadata:\n  version: [1, 2]\n"),
    "flow-map": ("version: {major: 1}\n", "metadata:\n  version: {major: 1}\n"),
    "existing": (
        "metadata:\n    author: me   # the owner\n  # kept\nversion: 1.2.0\n",
        "metadata:\n    author: me   # the owner\n  # kept\n    version: 1.2.0\n",
    ),
    "existing-after": (
        "version: 1.2.0\nmetadata:\n  author: me\n",
        "metadata:\n  author: me\n  version: 1.2.0\n",
    ),
    "empty-flow": (
        "metadata: {}  # none yet\nversion: 1.2.0\n",
        "metadata:  # none yet\n  version: 1.2.0\n",
    ),
    "empty": ("version: 1.2.0\nmetadata:\n", "metadata:\n  version: 1.2.0\n"),
}


def _fixes(text: str) -> tuple[Document, list[Fix]]:
    """The fixes of the file's one unknown-field problem, each checked as lint checks it."""
    profile = get_profile("agentskills")
    path = "/p/skills/my-skill/SKILL.md"
    check = skill_check(
        Skill(path=path, root=Root("/p/skills", "skills"), doc=Document(path=path)), profile
    )
    doc, diagnostics = check(text)
    (diag,) = [d for d in diagnostics if d.code == "unknown-field"]
    fixes, notes = plan_fixes(doc, diag, profile, check)
    assert not notes
    return doc, fixes


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_key_moves_under_metadata_every_other_byte_kept(shape: str) -> None:
    before, after = SHAPES[shape]
    text = HEAD + before + TAIL
    doc, [fix] = _fixes(text)
    assert fix.safe and fix.title == "Move 'version' under 'metadata:'"
    new = apply_fix(doc, fix)
    assert new == HEAD + after + TAIL
    old_map = parse_text(Document(path="x"), text).mapping
    new_map = parse_text(Document(path="x"), new).mapping
    assert old_map is not None and new_map is not None
    assert new_map["metadata"]["version"] == old_map["version"]
    assert "version" not in new_map


def test_crlf_and_bom_are_kept() -> None:
    text = "\ufeff" + (HEAD + "version: 1.2.0  # ci\nmetadata:\n  a: b\n" + TAIL).replace(
        "\n", "\r\n"
    )
    doc, [fix] = _fixes(text)
    assert fix.safe
    new = apply_fix(doc, fix)
    assert new == "\ufeff" + (HEAD + "metadata:\n  a: b\n  version: 1.2.0  # ci\n" + TAIL).replace(
        "\n", "\r\n"
    )


@pytest.mark.parametrize(
    "meta, why",
    [
        ("metadata: just text\n", "'metadata' is not a mapping here"),
        ("metadata:\n  version: '2'\n", "'metadata' already has a 'version'"),
    ],
)
def test_no_fix_when_metadata_cannot_take_it_and_the_message_says_why(
    meta: str, why: str, tmp_path: Path
) -> None:
    text = HEAD + "version: 1.2.0\n" + meta + TAIL
    assert _fixes(text)[1] == []
    path = write(tmp_path, "skills/my-skill/SKILL.md", text)
    run = cli("lint", str(Path(path).parent), "--profile", "agentskills", "--no-cache")
    line = next(x for x in run.out.splitlines() if "unknown-field" in x)
    assert "move it under 'metadata:'" in line and why in line


def test_no_fix_where_the_profile_does_not_say_metadata() -> None:
    profile = get_profile("claude-code")
    cc = "/p/.claude/skills/my-skill/SKILL.md"
    skill = Skill(path=cc, root=Root("/p/.claude/skills", "s"), doc=Document(path=cc))
    doc, diagnostics = skill_check(skill, profile)(HEAD + "version: 1.2.0\n" + TAIL)
    found = [d for d in diagnostics if d.code == "unknown-field"]
    assert [d.field for d in found] == ["version"]
    for diag in found:
        assert "metadata" not in diag.message
        assert plan_fixes(doc, diag, profile) == ([], [])


def test_lint_fix_moves_it_and_a_second_run_finds_nothing(tmp_path: Path) -> None:
    text = HEAD + 'version: "1.2.0"  # release\nmetadata:\n  author: me\n' + TAIL
    path = Path(write(tmp_path, "skills/my-skill/SKILL.md", text))
    args = ("lint", str(path.parent), "--profile", "agentskills", "--no-cache")
    run = cli(*args)
    assert run.code == 1 and "unknown-field" in run.out
    run = cli(*args, "--fix")
    assert "fixed unknown-field: Move 'version' under 'metadata:'" in run.err
    assert (
        path.read_text()
        == HEAD + ('metadata:\n  author: me\n  version: "1.2.0"  # release\n') + TAIL
    )
    assert run.code == 0 and "unknown-field" not in run.out
    again = cli(*args, "--fix")
    assert "0 problems fixed" in again.err and path.read_text().count("version") == 1


def test_a_move_that_would_change_the_value_is_unsafe(tmp_path: Path) -> None:
    """A kept-newlines block scalar (`|+`) owns the blank line after it; moved to the end
    of `metadata:` it would lose it: the fix is offered as unsafe, never by --fix."""
    text = HEAD + "version: |+\n  1.2.0\n\nmetadata:\n  author: me\n" + TAIL
    doc, [fix] = _fixes(text)
    assert not fix.safe
    moved = parse_text(Document(path="x"), apply_fix(doc, fix)).mapping
    assert moved is not None and moved["metadata"]["version"] == "1.2.0\n"  # was "1.2.0\n\n"
    path = Path(write(tmp_path, "skills/my-skill/SKILL.md", text, dedent=False))
    args = ("lint", str(path.parent), "--profile", "agentskills", "--no-cache", "--fix")
    assert "0 problems fixed" in cli(*args).err and path.read_text() == text
    assert "fixed unknown-field" in cli(*args, "--unsafe-fixes").err
