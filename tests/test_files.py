"""The one way untrusted files are opened and folders walked (core/reading/safefs.py), and the
toolset export scan that reads each referenced file once."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from skillstudio.cli.lint_cmd import misnamed_skill_files
from skillstudio.core.model.paths import FileRefused
from skillstudio.core.profiles.toolsets import exported_names
from skillstudio.core.reading.safefs import check_regular, read_bytes, remove_tree, walk, walk_plain


def test_read_bytes_refuses_what_is_not_a_confined_regular_file(tmp_path: Path) -> None:
    base = tmp_path / "skill"
    base.mkdir()
    (tmp_path / "secret.txt").write_text("outside")
    (base / "ok.txt").write_text("inside")
    os.mkfifo(base / "pipe")
    (base / "zero").symlink_to("/dev/zero")
    (base / "loop").symlink_to("loop")
    (base / "leak").symlink_to(tmp_path / "secret.txt")
    (base / "inner").symlink_to("ok.txt")
    (base / "folder").mkdir()
    assert read_bytes(str(base / "ok.txt"), str(base)) == b"inside"
    assert read_bytes(str(base / "inner"), str(base)) == b"inside"  # a link inside is fine
    reasons = {
        "pipe": "FIFO",
        "zero": "outside",
        "loop": "loops",
        "leak": "outside",
        "folder": "a folder",
        "missing": "does not exist",
    }
    for name, says in reasons.items():
        with pytest.raises(FileRefused, match=says):
            read_bytes(str(base / name), str(base))
    with pytest.raises(FileRefused, match="a device"):
        check_regular("/dev/zero")  # no base: still regular files only


def test_read_bytes_is_bounded(tmp_path: Path) -> None:
    big = tmp_path / "big"
    big.write_bytes(b"x" * 5000)
    with pytest.raises(FileRefused, match="at most 4,096"):
        read_bytes(str(big), limit=4096)
    assert read_bytes(str(big), limit=4096, truncate=True) == b"x" * 4096


def test_walk_and_remove_tree_go_deeper_than_the_recursion_limit(tmp_path: Path) -> None:
    nested = tmp_path / "top"
    nested.mkdir()
    (nested / "link").symlink_to(tmp_path)  # never followed
    deepest = nested
    for _ in range(1500):
        deepest = deepest / "d"
        deepest.mkdir()
    (deepest / "leaf.txt").write_text("leaf")
    seen = [(folder, sorted(e.name for e in files)) for folder, _subs, files in walk(str(nested))]
    assert len(seen) == 1501
    assert seen[0] == (str(nested), ["link"]) and seen[-1] == (str(deepest), ["leaf.txt"])
    remove_tree(str(nested))
    assert not nested.exists() and tmp_path.exists()


def test_walk_plain_skips_hidden_and_named_folders_and_stops_at_its_bounds(
    tmp_path: Path,
) -> None:
    for folder in ("a/b/c/d/e", ".git/x", "node_modules/y", "z"):
        (tmp_path / folder).mkdir(parents=True)
    skip = frozenset({"node_modules"})
    listed = [os.path.relpath(f, tmp_path) for f, _s, _f in walk_plain(str(tmp_path), 3, 99, skip)]
    assert listed == [".", "a", "a/b", "a/b/c", "z"]  # sorted, depth 3, .git and skip pruned
    assert len(list(walk_plain(str(tmp_path), 9, 2))) == 2


def test_misnamed_skill_files_are_regular_files_in_plain_folders(tmp_path: Path) -> None:
    for place in ("one/skill.md", "a/b/c/Skill.md", "a/b/c/d/skill.md", ".hidden/skill.md"):
        (tmp_path / place).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / place).write_text("---\nname: x\n---\n")
    (tmp_path / "one" / "SKILL.md").write_text("right name")
    (tmp_path / "two").mkdir()
    (tmp_path / "two" / "skill.MD").symlink_to(tmp_path / "one" / "skill.md")
    found = [os.path.relpath(p, tmp_path) for p in misnamed_skill_files(str(tmp_path))]
    assert found == ["a/b/c/Skill.md", "one/skill.md"]  # depth 4, hidden, link: not


def test_export_scan_finds_every_form_and_no_false_ones() -> None:
    source = (
        "reexport class NotThis {}\n"
        "export class A {}\n"
        "export default function B() {}\n"
        "export { C, D as E }\n"
        "exports.F = 1\n"
        "module.exports = { G, H }\n"
        "class I:\n"
        "    pass\n"
        "J = make()\n"
    )
    assert exported_names(source) >= set("ACDEFGHIJB")
    assert "NotThis" not in exported_names(source)
    assert exported_names("export {" * 1000) == {"export"}  # one pass, whatever the count


def test_a_save_never_waits_on_a_skill_md_swapped_for_a_fifo(tmp_path: Path) -> None:
    from skillstudio.core.editing.saving import SaveConflict, atomic_write, stamp

    path = tmp_path / "SKILL.md"
    path.write_text("---\nname: a\n---\n")
    before = stamp(str(path))
    path.unlink()
    os.mkfifo(path)  # another program put a FIFO in its place (open() blocked on main)
    signal.signal(signal.SIGALRM, lambda *_: pytest.fail("waited on the FIFO"))
    signal.alarm(10)
    try:
        assert stamp(str(path)) != before
        with pytest.raises(SaveConflict):
            atomic_write(str(path), b"mine", before)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)


def test_toolset_files_are_read_within_a_budget_per_skill(tmp_path: Path) -> None:
    from .helpers import lint_json

    folder = tmp_path / ".agent" / "skills" / "many"
    folder.mkdir(parents=True)
    refs = "".join(f"  - f{n}.js:C{n}\n" for n in range(12))
    (folder / "SKILL.md").write_text(
        f"---\nname: many\ndescription: Many files.\ntoolsets:\n{refs}---\nBody\n"
    )
    for n in range(12):  # 12 MB in all; 8 MB are read
        (folder / f"f{n}.js").write_text(f"export class C{n} {{}}\n" + "/" * (1024 * 1024))
    report = lint_json(str(tmp_path), "--profile", "toolsets")
    codes = [d["code"] for d in report["diagnostics"]]
    assert codes.count("scan-limit") == 4 and "toolset-missing" not in codes, codes
