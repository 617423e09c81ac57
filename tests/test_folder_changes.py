"""A skill's files besides its SKILL.md (core/scanning/folder_changes.py): a file the body
names added or removed outside the app is seen by the watcher's refresh (that skill
alone read again), by a reload (F5, no hint) and by the CLI's warm cache, although the
SKILL.md did not change (a first-time reviewer's `scripts/fetch_comments.py`: Problems
kept `reference-missing` until a restart)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from skillstudio.core.model.skills import Root
from skillstudio.core.profiles import get_profile
from skillstudio.core.scanning import state_cache
from skillstudio.core.scanning.folder_changes import LookedPaths, owner, touched_skills
from skillstudio.core.scanning.registry import Registry

from .helpers import cli, skill_text, write

BODY = "# Comments\n\n- Run scripts/fetch_comments.py, which prints the review threads.\n"


def tree(base: Path) -> str:
    """Two skills; `comments` names a script it lacks. Returns its SKILL.md's path."""
    path = write(
        base,
        "skills/comments/SKILL.md",
        skill_text(name="comments", description="Address review comments.", _body=BODY),
    )
    write(base, "skills/other/SKILL.md", skill_text(name="other", description="Plan a trip."))
    return path


def registry(base: Path) -> Registry:
    reg = Registry(
        get_profile("agentskills"), [Root(str(base / "skills"), "skills", 0)], track_files=True
    )
    reg.scan()
    return reg


def missing(reg: Registry) -> list[str]:
    return [d.path for d in reg.diagnostics if d.code == "reference-missing"]


def test_a_file_added_in_a_new_folder_clears_the_warning_on_the_watchers_refresh(
    tmp_path: Path, reads: list[str]
) -> None:
    skill = tree(tmp_path)
    reg = registry(tmp_path)
    assert missing(reg) == [skill]
    reads.clear()
    script = write(tmp_path, "skills/comments/scripts/fetch_comments.py", "print(1)\n")
    folder = os.path.dirname(script)
    # the watcher's paths: the folder made, the file in it, the skill folder's entries
    result = reg.refresh([folder, script, os.path.dirname(folder)])
    assert missing(reg) == []
    assert result.changed == [skill]
    assert reads == [skill]  # that skill alone


def test_a_file_added_to_an_existing_folder_and_removed_again(
    tmp_path: Path, reads: list[str]
) -> None:
    skill = tree(tmp_path)
    os.makedirs(tmp_path / "skills/comments/scripts")
    reg = registry(tmp_path)
    assert missing(reg) == [skill]
    script = write(tmp_path, "skills/comments/scripts/fetch_comments.py", "print(1)\n")
    reads.clear()
    reg.refresh([script])  # a file event alone: no folder made, no walk
    assert missing(reg) == []
    assert reads == [skill]
    os.remove(script)
    reg.refresh([script])
    assert missing(reg) == [skill]


def test_a_folder_renamed_inside_a_skill_is_seen(tmp_path: Path) -> None:
    skill = tree(tmp_path)
    write(tmp_path, "skills/comments/tools/fetch_comments.py", "print(1)\n")
    reg = registry(tmp_path)
    assert missing(reg) == [skill]
    old, new = tmp_path / "skills/comments/tools", tmp_path / "skills/comments/scripts"
    os.rename(old, new)
    reg.refresh([str(old), str(new)])
    assert missing(reg) == []


def test_reload_without_a_hint_reads_again_the_skills_whose_files_changed(
    tmp_path: Path, reads: list[str]
) -> None:
    skill = tree(tmp_path)
    reg = registry(tmp_path)
    reads.clear()
    assert not reg.refresh()  # nothing changed: nothing read
    assert reads == []
    write(tmp_path, "skills/comments/scripts/fetch_comments.py", "print(1)\n")
    result = reg.refresh()  # F5: no watcher's hint
    assert missing(reg) == []
    assert result.changed == [skill]
    assert reads == [skill]
    shutil.rmtree(tmp_path / "skills/comments/scripts")
    reg.refresh()
    assert missing(reg) == [skill]


def test_a_registry_that_does_not_track_files_records_nothing(tmp_path: Path) -> None:
    tree(tmp_path)
    reg = Registry(get_profile("agentskills"), [Root(str(tmp_path / "skills"), "skills", 0)])
    reg.scan()
    assert reg.looked is None


def test_owner_is_the_innermost_known_skill_below_the_roots(tmp_path: Path) -> None:
    skill = tree(tmp_path)
    reg = registry(tmp_path)
    roots = {str(tmp_path / "skills")}
    deep = str(tmp_path / "skills/comments/a/b/c.md")
    found = owner(deep, reg.by_path, roots)
    assert found is not None and found.path == skill
    assert owner(str(tmp_path / "skills/loose.md"), reg.by_path, roots) is None
    folder = str(tmp_path / "skills/comments")
    assert touched_skills({folder, skill, deep}, reg.by_path, roots) == {skill}


def test_looked_paths_tell_a_change_and_forget_removed_skills(tmp_path: Path) -> None:
    target = tmp_path / "x.md"
    looked = LookedPaths()
    looked.note("a", [str(target)])
    looked.note("b", [])
    assert looked.changed(["a", "b", "never"]) == set()
    target.write_text("x")
    assert looked.changed(["a", "b"]) == {"a"}
    looked.keep_only(["b"])
    assert looked.changed(["a"]) == set()


# -- the CLI's warm cache ------------------------------------------------------------------


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of the test's own; files count as settled at once (RACY_NS 0)."""
    home = tmp_path / "xdg-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.setattr(state_cache, "RACY_NS", 0, raising=False)
    return home


def lint_codes(base: Path) -> list[str]:
    run = cli("lint", "skills", "--format", "json", cwd=base)
    assert run.code in (0, 1), run.err
    return [d["code"] for d in run.json["diagnostics"]]


def test_lint_warm_then_the_file_added_then_removed(
    tmp_path: Path, cache_home: Path, reads: list[str]
) -> None:
    tree(tmp_path)
    assert "reference-missing" in lint_codes(tmp_path)
    reads.clear()
    assert "reference-missing" in lint_codes(tmp_path)
    assert reads == []  # warm: served from the cache
    write(tmp_path, "skills/comments/scripts/fetch_comments.py", "print(1)\n")
    assert "reference-missing" not in lint_codes(tmp_path)
    os.remove(tmp_path / "skills/comments/scripts/fetch_comments.py")
    assert "reference-missing" in lint_codes(tmp_path)
