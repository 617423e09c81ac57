"""Editing that never loses a byte: round-trip writes, atomic saves, operations, archives."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from skillstudio.core.editing.archive import ArchiveError, pack, unpack
from skillstudio.core.editing.changes import Change
from skillstudio.core.editing.round_trip import apply_changes
from skillstudio.core.editing.saving import SaveConflict, SaveError, atomic_write, stamp
from skillstudio.core.editing.skill_ops import (
    OperationError,
    delete_to_trash,
    duplicate_skill,
    new_skill,
    rename_skill,
)
from skillstudio.core.editing.values import parse_yaml_value
from skillstudio.core.model.document import Document
from skillstudio.core.model.fields import TEMPLATE_STEPS
from skillstudio.core.profiles import PROFILE_NAMES, get_profile
from skillstudio.core.reading.frontmatter import parse_text, read_document
from skillstudio.core.reading.yaml_io import EditError

from .helpers import CORPUS, REPO, SAMPLES, cli, lint_json, skill_files, write

SOURCE = textwrap.dedent(
    """\
    ---
    # leading comment
    name: demo   # the id
    description: 'It''s a demo: with a colon'
    triggers:
      - one
      - "two"
    flow: [a, b]
    block: |
      line one
      line two

    # trailing comment
    ---
    # Body

    Text stays.
    """
)


def doc_of(text: str) -> Document:
    return parse_text(Document(path="x/SKILL.md"), text)


def edit(text: str, *changes: Change, body: str | None = None) -> str:
    return apply_changes(doc_of(text), list(changes), body)


def changed_lines(old: str, new: str) -> list[tuple[str, str]]:
    a, b = old.splitlines(), new.splitlines()
    return [(x, y) for x, y in zip(a, b, strict=False) if x != y]


def test_noop_is_byte_identical() -> None:
    assert edit(SOURCE) == SOURCE
    assert edit(SOURCE, Change("set", "name", "demo")) == SOURCE


def test_scalar_keeps_quoting_comment_and_spacing() -> None:
    out = edit(SOURCE, Change("set", "name", "other"))
    assert changed_lines(SOURCE, out) == [("name: demo   # the id", "name: other   # the id")]
    out = edit(SOURCE, Change("set", "description", "plain words"))
    assert "description: 'plain words'" in out  # single-quoted stays single-quoted


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("needs: quoting", "'needs: quoting'"),
        ("*star", "'*star'"),
        ("#hash", "'#hash'"),
        ("yes", "'yes'"),
        ("1.0", "'1.0'"),
        ("it's", "it's"),
        ("plain text", "plain text"),
    ],
)
def test_changed_plain_scalar_is_quoted_only_when_needed(value: str, written: str) -> None:
    text = "---\nname: demo\n---\n"
    out = edit(text, Change("set", "name", value))
    assert out == f"---\nname: {written}\n---\n"
    assert doc_of(out).mapping == {"name": value}


def test_list_item_change_touches_only_that_line() -> None:
    out = edit(SOURCE, Change("set", "triggers", ["one", "deux"]))
    assert changed_lines(SOURCE, out) == [('  - "two"', '  - "deux"')]


def test_list_append_and_shrink() -> None:
    out = edit(SOURCE, Change("set", "triggers", ["one", "two", "three"]))
    assert '  - "two"\n  - three\nflow:' in out
    shrunk = edit(SOURCE, Change("set", "triggers", ["one"]))
    assert doc_of(shrunk).mapping["triggers"] == ["one"]  # type: ignore[index]
    assert "# leading comment" in shrunk and "flow: [a, b]" in shrunk


def test_removing_list_items_drops_only_their_lines() -> None:
    text = "---\nkeys:\n  - a   # first\n  - 'b'\n  - c  # third\n# end\n---\n"
    out = edit(text, Change("set", "keys", ["a", "c"]))
    assert out == "---\nkeys:\n  - a   # first\n  - c  # third\n# end\n---\n"
    reordered = edit(text, Change("set", "keys", ["c", "a"]))
    assert doc_of(reordered).mapping == {"keys": ["c", "a"]}


NESTED = textwrap.dedent(
    """\
    ---
    name: x
    triggers:
      # words people type
      keywords:
        - 'deploy'   # main one
        - ship
      verbs: [push]
      patterns:
        - "^go"
    default_enabled: true
    ---
    """
)


def test_nested_mapping_edits_touch_only_the_changed_key() -> None:
    value = {"keywords": ["deploy", "ship"], "verbs": ["push", "send"], "patterns": ["^go"]}
    out = edit(NESTED, Change("set", "triggers", value))
    assert changed_lines(NESTED, out) == [("  verbs: [push]", "  verbs: [push, send]")]
    value = {"keywords": ["deploy", "ship", "release"], "verbs": ["push"], "patterns": ["^go"]}
    out = edit(NESTED, Change("set", "triggers", value))
    assert "    - ship\n    - 'release'\n  verbs: [push]\n" in out
    assert "# words people type" in out and "# main one" in out


def test_nested_mapping_keys_removed_added_and_reordered() -> None:
    out = edit(NESTED, Change("set", "triggers", {"keywords": ["deploy", "ship"]}))
    assert doc_of(out).mapping["triggers"] == {"keywords": ["deploy", "ship"]}  # type: ignore[index]
    assert "# main one" in out and "verbs" not in out and "default_enabled: true" in out
    value = {"keywords": ["deploy", "ship"], "verbs": ["push"], "patterns": ["^go"], "x": ["y"]}
    out = edit(NESTED, Change("set", "triggers", value))
    assert '    - "^go"\n  x:\n    - y\ndefault_enabled' in out
    swapped = {"verbs": ["push"], "keywords": ["a"]}
    out = edit(NESTED, Change("set", "triggers", swapped))  # rewritten whole, still exact
    assert doc_of(out).mapping["triggers"] == swapped  # type: ignore[index]


def test_flow_list_append_keeps_the_quoting() -> None:
    text = '---\nkeys: ["a", "b"]  # note\n---\n'
    out = edit(text, Change("set", "keys", ["a", "b", "c d"]))
    assert out == '---\nkeys: ["a", "b", "c d"]  # note\n---\n'


def test_flow_list_stays_flow() -> None:
    out = edit(SOURCE, Change("set", "flow", ["a", "b", "c d"]))
    assert "flow: [a, b, c d]" in out


def test_block_scalar_edit_keeps_neighbours() -> None:
    out = edit(SOURCE, Change("set", "block", "new one\nnew two\n"))
    assert "block: |\n  new one\n  new two\n\n# trailing comment\n" in out
    assert doc_of(out).mapping["block"] == "new one\nnew two\n"  # type: ignore[index]


def test_new_key_goes_after_the_last_key_before_trailing_comments() -> None:
    out = edit(SOURCE, Change("set", "license", "MIT"))
    assert "  line two\nlicense: MIT\n\n# trailing comment\n---" in out


def test_unset_removes_only_its_lines() -> None:
    out = edit(SOURCE, Change("unset", "triggers"))
    assert "triggers" not in out and "  - one" not in out
    assert out.replace("", "").count("\n") == SOURCE.count("\n") - 3


def test_crlf_and_bom_are_kept(tmp_path: Path) -> None:
    raw = "\ufeff---\r\nname: a\r\ndescription: b\r\n---\r\nBody\r\n".encode()
    path = write(tmp_path, "SKILL.md", raw)
    out = apply_changes(read_document(path), [Change("set", "description", "c")])
    assert (
        out.encode("utf-8") == "\ufeff---\r\nname: a\r\ndescription: c\r\n---\r\nBody\r\n".encode()
    )


def test_body_edit_with_broken_frontmatter_leaves_it_alone() -> None:
    broken = "---\nname: [oops\n---\nold body\n"
    assert edit(broken, body="new body\n") == "---\nname: [oops\n---\nnew body\n"
    with pytest.raises(EditError, match="cannot be parsed"):
        edit(broken, Change("set", "name", "x"))


def test_file_without_frontmatter_gets_one() -> None:
    out = edit("# Just a body\n", Change("set", "name", "x"))
    assert out == "---\nname: x\n---\n# Just a body\n"


def test_nested_mapping_and_multiline_values_read_back() -> None:
    text = "---\nname: x\n---\n"
    value = {"keywords": ["hello", "hi there"], "patterns": ["greet\\s+\\w+"]}
    out = edit(text, Change("set", "triggers", value), Change("set", "notes", "a\nb"))
    assert doc_of(out).mapping == {"name": "x", "triggers": value, "notes": "a\nb"}


def test_values_typed_for_undeclared_keys_parse_as_yaml_scalars() -> None:
    assert parse_yaml_value("80") == 80
    assert parse_yaml_value("[a, b]") == ["a", "b"]
    assert parse_yaml_value("true") is True
    assert parse_yaml_value("a: b") == "a: b"
    assert parse_yaml_value("Fix #123 and more") == "Fix #123 and more"  # not a comment


# -- proof over real files ------------------------------------------------------


def test_every_known_skill_round_trips() -> None:
    files = skill_files(SAMPLES, CORPUS)
    assert len(files) >= 20
    new = "A new description: with a colon, 'quotes' and #hash"
    for path in files:
        with open(path, "rb") as fh:
            raw = fh.read()
        doc = read_document(path)
        assert apply_changes(doc, []).encode("utf-8") == raw, path
        assert doc.mapping is not None, path
        out = apply_changes(doc, [Change("set", "description", new)])
        before = raw.decode("utf-8-sig").splitlines()
        after = out.lstrip("\ufeff").splitlines()
        pos = doc.positions()["description"]
        keep_head = before[: pos.key_line - 1]
        assert after[: len(keep_head)] == keep_head, path
        tail = before[pos.end_line :]
        assert after[len(after) - len(tail) :] == tail or not tail, path
        assert parse_text(Document(path=path), out.lstrip("\ufeff")).mapping["description"] == new  # type: ignore[index]


# -- property: any edit sequence re-parses to the intended mapping ------------------

keys = st.sampled_from(["name", "description", "triggers", "priority", "license", "meta", "x-y"])
scalars = st.one_of(
    st.text(max_size=30),
    st.integers(-1000, 1000),
    st.booleans(),
    st.sampled_from(["yes", "a: b", "#c", "1.0", "it's", "---", " lead", "trail "]),
)
values = st.one_of(scalars, st.lists(st.text(max_size=15), max_size=4))


@st.composite
def documents(draw: st.DrawFn) -> str:
    mapping = draw(st.dictionaries(keys, values, max_size=5))
    front = yaml.safe_dump(mapping, sort_keys=False, allow_unicode=True) if mapping else ""
    if draw(st.booleans()):
        front = "# comment at the top\n" + front
    return f"---\n{front}---\nBody text.\n"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    documents(), st.lists(st.tuples(st.sampled_from(["set", "unset"]), keys, values), max_size=4)
)
def test_any_edit_sequence_reads_back_and_keeps_untouched_lines(
    text: str, edits: list[tuple[str, str, Any]]
) -> None:
    assume(not any(ch in text for ch in "\x85\u2028\u2029\r"))  # refused: tested below
    doc = doc_of(text)
    changes = [
        Change("set" if kind == "set" else "unset", key, value) for kind, key, value in edits
    ]
    intended = dict(doc.mapping or {})
    for change in changes:
        if change.kind == "set":
            intended[change.key] = change.value
        else:
            intended.pop(change.key, None)
    out = apply_changes(doc, changes)
    assert doc_of(out).mapping == intended
    touched = {c.key for c in changes}
    for key, pos in doc.positions().items():
        if key in touched:
            continue
        # libyaml's end mark of a block value is column 0 of the next key's line
        last = pos.end_line if pos.end_column > 1 else pos.end_line - 1
        old_lines = text.splitlines()[pos.key_line - 1 : last]
        for line in old_lines:
            if line.strip():
                assert line in out.splitlines(), (line, out)
    assert out.endswith("---\nBody text.\n")


# -- saving -----------------------------------------------------------------------


def test_atomic_write_keeps_permissions_and_detects_conflicts(tmp_path: Path) -> None:
    path = write(tmp_path, "SKILL.md", "old\n")
    os.chmod(path, 0o640)
    seen = stamp(path)
    new_stamp = atomic_write(path, b"new\n", seen)
    assert Path(path).read_bytes() == b"new\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    Path(path).write_bytes(b"changed outside\n")
    with pytest.raises(SaveConflict):
        atomic_write(path, b"mine\n", new_stamp)
    assert Path(path).read_bytes() == b"changed outside\n"
    assert [p.name for p in tmp_path.iterdir()] == ["SKILL.md"]


def test_failed_save_leaves_old_file_and_no_temp(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root can write into read-only folders")
    folder = tmp_path / "ro"
    path = write(folder, "SKILL.md", "old\n")
    os.chmod(folder, 0o555)
    try:
        with pytest.raises(SaveError, match="not writable"):
            atomic_write(path, b"new\n", stamp(path))
        assert Path(path).read_bytes() == b"old\n"
        assert [p.name for p in folder.iterdir()] == ["SKILL.md"]
    finally:
        os.chmod(folder, 0o755)


def test_failed_replace_removes_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "SKILL.md", "old\n")

    def refuse(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(SaveError, match="disk is full"):
        atomic_write(path, b"new\n", stamp(path))
    assert Path(path).read_bytes() == b"old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["SKILL.md"]


WRITER = r"""
import sys
from skillstudio.core.editing.saving import atomic_write
path = sys.argv[1]
i = 0
while True:
    i += 1
    payload = (f"version {i}\n" * (2000 + i % 700)).encode()
    atomic_write(path, payload, check=False)
"""


def test_killed_writer_leaves_old_or_new_never_partial(tmp_path: Path) -> None:
    path = str(tmp_path / "SKILL.md")
    Path(path).write_bytes(b"version 0\n")
    for _ in range(15):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, path], cwd=REPO)
        time.sleep(0.05 + (_ % 5) * 0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        data = Path(path).read_bytes().decode()
        lines = data.splitlines()
        assert lines and len(set(lines)) == 1, "mixed or partial content"
        assert data.endswith("\n")
    atomic_write(path, b"final\n", check=False)  # cleans up after the killed writers
    assert [p.name for p in tmp_path.iterdir()] == ["SKILL.md"]


# -- operations -------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_new_skill_is_valid_under_its_profile(tmp_path: Path, profile: str) -> None:
    """Valid as created; the placeholder description and the template's steps in the
    body are its two warnings until replaced (the body's passed lint: a reviewer's find,
    issue 39), each on its own line."""
    path = new_skill(get_profile(profile), str(tmp_path), "fresh-skill")
    data = lint_json("--root", str(tmp_path), "--profile", profile)
    assert data["summary"]["errors"] == 0, data
    warnings = [d for d in data["diagnostics"] if d["severity"] == "warning"]
    assert [(d["code"], d["field"]) for d in warnings] == [
        ("description-placeholder", "description"),
        ("body-placeholder", None),
    ]
    lines = Path(path).read_text().splitlines()
    body = warnings[1]
    assert lines[body["line"] - 1] == "1. Say what the agent should do first."
    assert body["column"] == 1 and "(and 2 more lines)" in body["message"]
    assert "replace the template's instructions with your own" in body["message"]
    assert data["skills"][0]["path"] == path and data["skills"][0]["status"] == "active"
    run = cli("set", path, "description=Summarises PDF files. Use for reports.", cwd=tmp_path)
    assert run.code == 0, run.err
    text = Path(path).read_text()
    # one step left as the template wrote it (indented): still reported, on its line
    edited = text.replace("1. Say what the agent should do first.", "1. Read the PDF.")
    edited = edited.replace("3. Say what a good result looks like.", "3. Print a summary.")
    edited = edited.replace("2. Then the next", "  2. Then the next")
    Path(path).write_text(edited)
    data = lint_json("--root", str(tmp_path), "--profile", profile)
    [left] = [d for d in data["diagnostics"] if d["severity"] == "warning"]
    assert left["code"] == "body-placeholder" and "more" not in left["message"]
    step = edited.splitlines()[left["line"] - 1]
    assert step[left["column"] - 1 :] == TEMPLATE_STEPS[1]
    Path(path).write_text(edited.replace("2. Then the next step", "2. Fill the form"))
    data = lint_json("--root", str(tmp_path), "--profile", profile)
    assert data["summary"]["errors"] == 0 and data["summary"]["warnings"] == 0, data
    with pytest.raises(OperationError, match="already exists"):
        new_skill(get_profile(profile), str(tmp_path), "fresh-skill")


def test_rename_and_duplicate_keep_name_and_folder_together(tmp_path: Path) -> None:
    profile = get_profile("agentskills")
    path = new_skill(profile, str(tmp_path), "first")
    moved = rename_skill(profile, os.path.dirname(path), "second")
    assert read_document(os.path.join(moved, "SKILL.md")).mapping["name"] == "second"  # type: ignore[index]
    copy = duplicate_skill(profile, moved, "third")
    assert read_document(os.path.join(copy, "SKILL.md")).mapping["name"] == "third"  # type: ignore[index]
    with pytest.raises(OperationError):
        rename_skill(profile, moved, "third")
    assert lint_json("--root", str(tmp_path), "--profile", "agentskills")["summary"]["errors"] == 0


def test_delete_goes_to_the_trash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = new_skill(get_profile("mvp"), str(tmp_path / "skills"), "gone")
    trashed = delete_to_trash(os.path.dirname(path))
    assert not os.path.exists(os.path.dirname(path))
    assert os.path.isfile(os.path.join(trashed, "SKILL.md"))
    info = (tmp_path / "data/Trash/info/gone.trashinfo").read_text()
    assert info.startswith("[Trash Info]\nPath=") and "DeletionDate=" in info


# -- archives -----------------------------------------------------------------------


def test_pack_excludes_junk_and_unpack_round_trips(tmp_path: Path) -> None:
    folder = tmp_path / "src" / "demo"
    write(folder, "SKILL.md", "---\nname: demo\ndescription: d\n---\nbody\n")
    write(folder, "references/r.md", "ref")
    for junk in ("__pycache__/x.pyc", "node_modules/m.js", ".DS_Store", "evals/e.json", "a.pyc"):
        write(folder, junk, "junk")
    archive = pack(str(folder), str(tmp_path / "demo.skill"))
    names = sorted(zipfile.ZipFile(archive).namelist())
    assert names == ["demo/SKILL.md", "demo/references/r.md"]
    target = unpack(archive, str(tmp_path / "out"))
    assert (Path(target) / "references/r.md").read_text() == "ref"
    with pytest.raises(ArchiveError, match="already exists"):
        unpack(archive, str(tmp_path / "out"))


def _zip(path: Path, entries: dict[str, bytes], links: tuple[str, ...] = ()) -> str:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
        for name in links:
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, "/etc/passwd")
    return str(path)


@pytest.mark.parametrize(
    ("entries", "links", "message"),
    [
        ({"/abs/SKILL.md": b"x"}, (), "absolute path"),
        ({"x/SKILL.md": b"x", "x/../../evil": b"x"}, (), "'..'"),
        ({"x/SKILL.md": b"x"}, ("x/link",), "symbolic link"),
        ({"a/SKILL.md": b"x", "b/SKILL.md": b"x"}, (), "exactly one top-level folder"),
        ({"x/readme.md": b"x"}, (), "no x/SKILL.md"),
        ({f"x/f{i}.md": b"" for i in range(1001)}, (), "at most 1000"),
    ],
)
def test_unpack_refusals(
    tmp_path: Path, entries: dict[str, bytes], links: tuple[str, ...], message: str
) -> None:
    archive = _zip(tmp_path / "bad.skill", entries, links)
    with pytest.raises(ArchiveError, match=message.replace("(", r"\(")):
        unpack(archive, str(tmp_path / "out"))
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_unpack_refuses_zip_bombs(tmp_path: Path) -> None:
    archive = tmp_path / "bomb.skill"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("x/SKILL.md", b"---\nname: x\n---\n")
        zf.writestr("x/big.bin", b"\0" * (101 * 1024 * 1024))
    with pytest.raises(ArchiveError, match="100 MB"):
        unpack(str(archive), str(tmp_path / "out"))


# -- CLI ------------------------------------------------------------------------------


def test_cli_set_new_pack_unpack(tmp_path: Path) -> None:
    write(tmp_path, "skillstudio.yaml", "profile: agentskills\nroots: [skills]\n")
    assert cli("new", "tool-a", cwd=tmp_path).code == 0
    run = cli("set", "tool-a", "description=Does: things", "license=MIT", cwd=tmp_path)
    assert run.code == 0, run.err
    text = (tmp_path / "skills/tool-a/SKILL.md").read_text()
    assert "description: 'Does: things'" in text and "license: MIT" in text
    bad = cli("set", "tool-a", "nonsense", cwd=tmp_path)
    assert bad.code == 2
    assert cli("pack", "skills/tool-a", "-o", "t.skill", cwd=tmp_path).code == 0
    assert cli("unpack", "t.skill", "--root", "other", cwd=tmp_path).code == 0
    assert cli("unpack", "t.skill", "--root", "other", cwd=tmp_path).code == 1
    assert lint_json(str(tmp_path / "other"), "--profile", "agentskills")["summary"]["errors"] == 0


def test_required_keys_go_to_their_natural_place() -> None:
    text = "---\nname: x\nlicense: MIT\n---\nbody\n"
    order = [spec.key for spec in get_profile("agentskills").fields]
    out = edit_ordered(text, order, Change("set", "description", "Does things."))
    assert out == "---\nname: x\ndescription: Does things.\nlicense: MIT\n---\nbody\n"
    first = edit_ordered("---\ndescription: d\n---\n", order, Change("set", "name", "x"))
    assert first == "---\nname: x\ndescription: d\n---\n"
    both = edit_ordered(
        "---\nlicense: MIT\n---\n",
        order,
        Change("set", "name", "x"),
        Change("set", "license", "BSD"),
    )
    assert both == "---\nname: x\nlicense: BSD\n---\n"


def edit_ordered(text: str, order: list[str], *changes: Change) -> str:
    return apply_changes(doc_of(text), list(changes), order=order)


def test_unicode_line_separators_are_refused_not_mangled() -> None:
    text = "---\nname:\n- '\x85  '\ndescription: ''\n---\nBody\n"
    with pytest.raises(EditError, match="line separators"):
        edit(text, Change("set", "description", "x"))
    assert edit(text, body="New\n").endswith("---\nNew\n")


def test_lists_of_lists_are_rewritten_not_raised() -> None:
    """Found by tests/test_fuzz.py: a block list whose first item is itself a list."""
    text = "---\narguments:\n- []\ndescription: []\nname: []\n---\n"
    out = edit(text, Change("set", "arguments", []))
    assert doc_of(out).mapping == {"arguments": [], "description": [], "name": []}
    out = edit(text, Change("set", "arguments", [[], "x"]))
    assert doc_of(out).mapping == {"arguments": [[], "x"], "description": [], "name": []}


# -- issue 15: values are text by the field's declared type; dotted keys --------------


def mapping_of(text: str) -> dict[str, Any]:
    mapping = doc_of(text).mapping
    assert mapping is not None, text
    return mapping


def set_run(tmp_path: Path, profile: str, text: str, *args: str) -> tuple[int, str, str]:
    path = write(tmp_path, "skills/demo/SKILL.md", text)
    run = cli("set", "demo", "--profile", profile, *args, cwd=tmp_path)
    return run.code, Path(path).read_text(encoding="utf-8"), run.err


def test_set_writes_values_as_text_unless_the_field_is_typed(tmp_path: Path) -> None:
    start = "---\nname: demo\ndescription: Old.\n---\nBody\n"
    code, text, _ = set_run(tmp_path, "agentskills", start, "description=Fix #123 and more")
    assert code == 0 and mapping_of(text) == {
        "name": "demo",
        "description": "Fix #123 and more",
    }
    code, text, _ = set_run(tmp_path, "agentskills", start, "description=yes", "license=1.10")
    assert code == 0
    assert mapping_of(text) == {"name": "demo", "description": "yes", "license": "1.10"}
    assert "description: 'yes'\n" in text
    # typed fields are parsed for their type, or refused with a message saying how
    pegasus = "---\nname: demo\ndescription: D.\n---\nBody\n"
    code, text, _ = set_run(tmp_path, "pegasus", pegasus, "user-invocable=false")
    assert code == 0 and mapping_of(text)["user-invocable"] is False
    code, text, err = set_run(tmp_path, "pegasus", pegasus, "user-invocable=maybe")
    assert code == 1 and "true or false" in err and text == pegasus
    code, text, _ = set_run(tmp_path, "pegasus", pegasus, "--string", "user-invocable=maybe")
    assert code == 0 and mapping_of(text)["user-invocable"] == "maybe"
    oasis = "---\nid: demo\nname: Demo\ndescription: D.\ntriggers: [a]\npriority: 5\n---\nB\n"
    code, text, _ = set_run(tmp_path, "oasis", oasis, "priority=70", "triggers=['fix #1', yes]")
    assert code == 0
    assert mapping_of(text)["priority"] == 70
    assert mapping_of(text)["triggers"] == ["fix #1", "yes"]  # items stay text
    code, text, err = set_run(tmp_path, "oasis", oasis, "priority=high")
    assert code == 1 and "whole number" in err and text == oasis
    for bad in ("review code", "[fix #1, yes]", "[[a]]"):  # never cut at ' #' silently
        code, text, err = set_run(tmp_path, "oasis", oasis, f"triggers={bad}")
        assert code == 1 and "is a list" in err and text == oasis


def test_set_dotted_key_edits_one_entry_of_a_mapping(tmp_path: Path) -> None:
    start = (
        "---\nname: demo\ndescription: D.\nmetadata:\n  # who wrote it\n  author: me\n"
        '  version: "1.0"  # bump on release\n---\nBody\n'
    )
    code, text, _ = set_run(tmp_path, "agentskills", start, "metadata.version=1.3", "metadata.x=y")
    assert code == 0
    assert text == start.replace('"1.0"', '"1.3"').replace("release\n", "release\n  x: y\n"), text
    assert "metadata.version" not in mapping_of(text)
    code, text, _ = set_run(tmp_path, "agentskills", start, "--unset", "metadata.author")
    assert code == 0 and text == start.replace("  author: me\n", "")
    # a mapping is never silently replaced by text
    code, text, err = set_run(tmp_path, "agentskills", start, 'metadata={version: "1.3"}')
    assert code == 1 and "metadata.KEY=VALUE" in err and text == start
    code, text, _ = set_run(tmp_path, "agentskills", start, "--yaml", 'metadata={version: "2"}')
    assert code == 0 and mapping_of(text)["metadata"] == {"version": "2"}
    # a new mapping is created; a key spelt with dots at the top level stays editable
    code, text, _ = set_run(tmp_path, "agentskills", "---\nname: demo\n---\n", "metadata.v=1")
    assert code == 0 and mapping_of(text) == {"name": "demo", "metadata": {"v": "1"}}
    code, text, _ = set_run(
        tmp_path, "agentskills", "---\nname: demo\nmetadata.v: 1\n---\n", "--unset", "metadata.v"
    )
    assert code == 0 and mapping_of(text) == {"name": "demo"}
    code, text, err = set_run(tmp_path, "agentskills", "---\nmetadata: x\n---\n", "metadata.v=1")
    assert code == 1 and "not a mapping" in err


def test_nested_changes_keep_the_rest_and_drop_emptied_mappings() -> None:
    text = "---\nname: x\nmetadata:\n  a: '1'\n  b: 2\n---\n"
    out = edit(text, Change("set", "metadata", "3", path=("a",)))
    assert out == "---\nname: x\nmetadata:\n  a: '3'\n  b: 2\n---\n"
    out = edit(
        text,
        Change("unset", "metadata", path=("a",)),
        Change("unset", "metadata", path=("b",)),
    )
    assert out == "---\nname: x\n---\n"
    deep = edit(text, Change("set", "metadata", "v", path=("c", "d")))
    assert mapping_of(deep)["metadata"] == {"a": "1", "b": 2, "c": {"d": "v"}}
    assert edit(text, Change("unset", "metadata", path=("zz",))) == text
