"""Discovery limits and safety, registry precedence, refresh, and cross-skill checks."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from skillstudio.core.model.scan import ScanLimits
from skillstudio.core.model.skills import Root
from skillstudio.core.profiles import get_profile
from skillstudio.core.reading.discovery import discover
from skillstudio.core.reading.skill_files import skill_body, supporting_files
from skillstudio.core.scanning.registry import STAT_STEP, Registry

from .helpers import codes, diag, lint_json, skill_text, write


def agent(tmp_path: Path, folder: str, **extra: object) -> str:
    return write(
        tmp_path,
        f"{folder}/SKILL.md",
        skill_text(name=folder.split("/")[-1], description="d", **extra),
    )


def test_symlink_loop_is_not_followed(tmp_path: Path) -> None:
    agent(tmp_path, "skills/a/sub")
    os.symlink(tmp_path / "skills/a", tmp_path / "skills/a/sub/loop")
    os.symlink(tmp_path / "skills", tmp_path / "skills/up")
    start = time.perf_counter()
    result = discover(str(tmp_path / "skills"), "recursive")
    assert time.perf_counter() - start < 2
    assert [f.path for f in result.files] == [str(tmp_path / "skills/a/sub/SKILL.md")]
    assert any(d.code == "symlink-skipped" for d in result.diagnostics)


def test_symlink_leaving_the_root_is_skipped(tmp_path: Path) -> None:
    agent(tmp_path, "outside/escape")
    os.makedirs(tmp_path / "skills")
    os.symlink(tmp_path / "outside/escape", tmp_path / "skills/escape")
    agent(tmp_path, "skills/inside")
    os.symlink(tmp_path / "skills/inside", tmp_path / "skills/alias")
    result = discover(str(tmp_path / "skills"), "children")
    names = sorted(os.path.basename(os.path.dirname(f.path)) for f in result.files)
    assert names == ["alias", "inside"]  # a link inside the root is fine
    skipped = [d for d in result.diagnostics if d.code == "symlink-skipped"]
    assert len(skipped) == 1 and skipped[0].path.endswith("escape")


def test_skill_md_linked_from_outside_is_not_read(tmp_path: Path) -> None:
    secret = write(tmp_path, "secret.md", "---\nname: s\n---\n")
    os.makedirs(tmp_path / "skills/x")
    os.symlink(secret, tmp_path / "skills/x/SKILL.md")
    result = discover(str(tmp_path / "skills"), "children")
    assert result.files == []
    assert result.diagnostics[0].code == "symlink-skipped"


def test_folder_of_20000_empty_subfolders_stops_at_the_limit(tmp_path: Path) -> None:
    base = tmp_path / "skills"
    base.mkdir()
    for index in range(20_000):
        (base / f"d{index:05d}").mkdir()
    agent(tmp_path, "skills/zz-last")
    start = time.perf_counter()
    data = lint_json("--root", str(base), "--profile", "agentskills")
    elapsed = time.perf_counter() - start
    assert elapsed < 10
    limit = diag(data, "scan-limit")
    assert "10,000 folders" in limit["message"]


def test_depth_limit_for_recursive_discovery(tmp_path: Path) -> None:
    deep = "skills/" + "/".join(f"l{i}" for i in range(12))
    write(tmp_path, f"{deep}/SKILL.md", skill_text(name="deep", description="d"))
    agent(tmp_path, "skills/shallow")
    result = discover(str(tmp_path / "skills"), "recursive", limits=ScanLimits(max_depth=8))
    assert [os.path.basename(os.path.dirname(f.path)) for f in result.files] == ["shallow"]
    assert any(d.code == "scan-limit" for d in result.diagnostics)


def test_hidden_folders_are_not_scanned_but_mentioned(tmp_path: Path) -> None:
    agent(tmp_path, "skills/.hidden")
    agent(tmp_path, "skills/visible")
    result = discover(str(tmp_path / "skills"), "children")
    assert [os.path.basename(os.path.dirname(f.path)) for f in result.files] == ["visible"]
    note = result.diagnostics[0]
    assert note.code == "scan-limit" and note.severity == "info" and ".hidden" in note.message


def test_discovery_order_is_sorted(tmp_path: Path) -> None:
    for name in ("b", "a", "c"):
        agent(tmp_path, f"skills/{name}")
    result = discover(str(tmp_path / "skills"), "children")
    assert [f.path for f in result.files] == sorted(f.path for f in result.files)


def registry(tmp_path: Path, profile: str = "agentskills") -> Registry:
    reg = Registry(get_profile(profile), [Root(str(tmp_path / "skills"), "skills", 0)])
    reg.scan()
    return reg


def test_refresh_rereads_only_changed_files(tmp_path: Path) -> None:
    for name in ("a", "b", "c"):
        agent(tmp_path, f"skills/{name}")
    reg = registry(tmp_path)
    before = {s.path: s for s in reg.skills}
    path_b = str(tmp_path / "skills/b/SKILL.md")
    write(tmp_path, "skills/b/SKILL.md", skill_text(name="b", description="changed text"))
    os.utime(path_b, ns=(time.time_ns(), time.time_ns() + 1_000_000_000))
    agent(tmp_path, "skills/d")
    os.remove(tmp_path / "skills/c/SKILL.md")
    result = reg.refresh()
    assert result.changed == [path_b]
    assert result.added == [str(tmp_path / "skills/d/SKILL.md")]
    assert result.removed == [str(tmp_path / "skills/c/SKILL.md")]
    after = {s.path: s for s in reg.skills}
    assert after[str(tmp_path / "skills/a/SKILL.md")] is before[str(tmp_path / "skills/a/SKILL.md")]
    assert after[path_b].description == "changed text"
    assert not reg.refresh()  # nothing changed since


def test_mvp_refresh_rule_misses_edits_below_the_root(tmp_path: Path) -> None:
    agent(tmp_path, "skills/a")
    reg = registry(tmp_path, "mvp")
    path = str(tmp_path / "skills/a/SKILL.md")
    root_mtime = os.stat(tmp_path / "skills").st_mtime_ns
    write(tmp_path, "skills/a/SKILL.md", skill_text(name="a", description="edited"))
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 1_000_000_000))
    assert os.stat(tmp_path / "skills").st_mtime_ns == root_mtime
    reg.refresh()
    notes = [d for d in reg.diagnostics if d.code == "refresh-missed"]
    assert len(notes) == 1 and notes[0].path == path


def test_reparse_validates_unsaved_text(tmp_path: Path) -> None:
    path = agent(tmp_path, "skills/a")
    reg = registry(tmp_path)
    skill = reg.reparse(path, "---\nname: a\n---\nbody\n")
    assert skill is not None
    assert "field-missing" in [d.code for d in skill.diagnostics]
    with open(path, encoding="utf-8") as fh:
        assert "description: d" in fh.read()  # the file itself is untouched


def test_body_is_loaded_lazily(tmp_path: Path) -> None:
    agent(tmp_path, "skills/a", _body="Remember me.\n")
    reg = registry(tmp_path)
    skill = reg.skills[0]
    assert skill.doc.text == ""  # not kept in memory after the scan
    assert skill_body(skill) == "\nRemember me.\n"


def test_links_missing_or_outside_the_skill(tmp_path: Path) -> None:
    body = (
        "See [ok](ref.md), [missing](nope.md), [out](../other/x.md), "
        "[web](https://example.com), [anchor](#top) and ![img](img/a.png).\n\n"
        "```\n[in code](ignored.md)\n```\n\n[ref]: refs/missing.md\n"
    )
    agent(tmp_path, "skills/a", _body=body)
    write(tmp_path, "skills/a/ref.md", "x")
    write(tmp_path, "skills/other/x.md", "x")
    data = lint_json("--root", str(tmp_path / "skills"), "--profile", "agentskills")
    links = [d for d in data["diagnostics"] if d["code"] == "link-broken"]
    messages = sorted(d["message"] for d in links)
    assert len(links) == 3, messages
    assert all("does not exist" in m for m in messages)
    assert all(d["severity"] == "warning" for d in links)
    # a file of the same root outside the skill exists: not broken, it needs the root
    (beside,) = [d for d in data["diagnostics"] if d["code"] == "link-sibling"]
    assert "'../other/x.md'" in beside["message"] and beside["severity"] == "warning"
    assert "copy the file" not in beside["message"]
    first = next(d for d in links if "nope.md" in d["message"])
    assert first["line"] == 6 and first["column"] == 19


def test_supporting_files_are_listed(tmp_path: Path) -> None:
    agent(tmp_path, "skills/a")
    write(tmp_path, "skills/a/references/r.md", "x")
    write(tmp_path, "skills/a/node_modules/junk.js", "x")
    reg = registry(tmp_path)
    assert supporting_files(reg.skills[0]) == [os.path.join("references", "r.md")]


def test_rest_of_tree_is_scanned_despite_bad_files(tmp_path: Path) -> None:
    write(tmp_path, "skills/bad/SKILL.md", b"\xff\xfe\x00garbage")
    agent(tmp_path, "skills/good")
    data = lint_json("--root", str(tmp_path / "skills"), "--profile", "agentskills")
    assert {s["name"]: s["status"] for s in data["skills"]} == {"bad": "skipped", "good": "active"}
    assert "not-utf8" in codes(data)


def test_discovery_order_is_path_order_not_name_order(tmp_path: Path) -> None:
    # 'a-b/SKILL.md' sorts before 'a/SKILL.md' as a path ('-' < '/'), after it as a name
    write(tmp_path, "skills/a/SKILL.md", skill_text(name="dup", description="from a"))
    write(tmp_path, "skills/a-b/SKILL.md", skill_text(name="dup", description="from a-b"))
    reg = Registry(get_profile("mvp"), [Root(str(tmp_path / "skills"), "skills", 0)])
    reg.scan()
    assert reg.active["dup"].description == "from a"  # last in sorted path order wins


def test_trigger_ambiguity_follows_refreshes(tmp_path: Path) -> None:
    def oasis(ident: str, triggers: list[str]) -> None:
        path = write(
            tmp_path,
            f"key_skills/{ident}/SKILL.md",
            skill_text(id=ident, name=ident, description="d", triggers=triggers, priority=1),
        )
        bump = time.time_ns() + len(triggers) * 10**9 + hash(tuple(triggers)) % 10**6
        os.utime(path, ns=(bump, bump))

    oasis("a", ["review this"])
    oasis("b", ["write tests"])
    reg = Registry(get_profile("oasis"), [Root(str(tmp_path / "key_skills"), "key_skills", 0)])
    reg.scan()

    def ambiguous() -> set[str]:
        return {d.skill or "" for d in reg.diagnostics if d.code == "trigger-ambiguous"}

    assert ambiguous() == set()
    oasis("b", ["write tests", "Review this!"])
    reg.refresh()
    assert ambiguous() == {"a", "b"}
    oasis("c", ["review this"])
    reg.refresh()
    assert ambiguous() == {"a", "b", "c"}
    os.remove(tmp_path / "key_skills/a/SKILL.md")
    oasis("b", ["write tests"])
    reg.refresh()
    assert ambiguous() == set()


def test_broken_link_in_a_fence_does_not_hide_the_same_link_outside(tmp_path: Path) -> None:
    body = "```\n[example](gone.md)\n```\n\nReal: [see](gone.md)\n~~~\nunclosed [x](also.md)\n"
    agent(tmp_path, "skills/a", _body=body)
    data = lint_json("--root", str(tmp_path / "skills"), "--profile", "agentskills")
    links = [d for d in data["diagnostics"] if d["code"] == "link-broken"]
    assert [(d["line"], d["column"]) for d in links] == [(10, 7)]


def oasis_text(ident: str, **fields: object) -> str:
    base: dict[str, object] = {
        "id": ident,
        "name": ident,
        "description": "d",
        "triggers": [f"go {ident}"],
        "priority": 1,
    }
    return skill_text(**(base | fields))


def write_oasis(tmp_path: Path, ident: str, **fields: object) -> str:
    """An oasis skill written with an mtime of its own (edits in one second differ)."""
    path = write(tmp_path, f"key_skills/{ident}/SKILL.md", oasis_text(ident, **fields))
    stamp_ns = time.time_ns() + 10**9 * (1 + len(str(fields)))
    os.utime(path, ns=(stamp_ns, stamp_ns))
    return path


def oasis_scanned(tmp_path: Path, *idents: str) -> tuple[Root, Registry]:
    for ident in idents:
        write_oasis(tmp_path, ident)
    root = Root(str(tmp_path / "key_skills"), "key_skills", 0)
    reg = Registry(get_profile("oasis"), [root])
    reg.scan()
    return root, reg


def test_refresh_matches_a_fresh_scan_after_each_kind_of_edit(tmp_path: Path) -> None:
    root, reg = oasis_scanned(tmp_path, "a", "b", "c")

    def oasis(ident: str, **fields: object) -> None:
        write_oasis(tmp_path, ident, **fields)

    def state(registry: Registry) -> list[tuple[object, ...]]:
        return [
            (s.path, s.name, s.status, s.description, tuple(s.diagnostics), tuple(s.cross))
            for s in registry.skills
        ]

    edits: list[dict[str, object]] = [
        {"description": "a new description"},  # the fast path
        {"triggers": ["go b"]},  # now shares a trigger with b
        {"id": "b"},  # now a duplicate id
        {"priority": "high"},  # now skipped
        {},
    ]
    for index, fields in enumerate(edits):
        oasis("a", **fields, _body=f"edit {index}\n")
        reg.refresh()
        fresh = Registry(get_profile("oasis"), [root])
        fresh.scan()
        assert state(reg) == state(fresh), fields
        assert {k: s.path for k, s in reg.active.items()} == {
            k: s.path for k, s in fresh.active.items()
        }


def test_hinted_refresh_reads_only_the_hinted_files_and_matches_a_fresh_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, reg = oasis_scanned(tmp_path, "a", "b", "c")

    def oasis(ident: str, **fields: object) -> str:
        return write_oasis(tmp_path, ident, **fields)

    walks: list[int] = []
    discover_all = reg._discover

    def counted() -> list[object]:
        walks.append(1)
        return discover_all()  # type: ignore[return-value]

    monkeypatch.setattr(reg, "_discover", counted)

    def same_as_fresh() -> None:
        fresh = Registry(get_profile("oasis"), [root])
        fresh.scan()
        assert [(s.path, s.status, s.description, s.diagnostics, s.cross) for s in reg.skills] == [
            (s.path, s.status, s.description, s.diagnostics, s.cross) for s in fresh.skills
        ]

    folder_a = str(tmp_path / "key_skills/a")
    for fields in ({"description": "new words"}, {"triggers": ["go b"]}, {"id": "b"}, {}):
        path = oasis("a", **fields)
        result = reg.refresh([path, folder_a, folder_a + "/notes.md"])
        assert result.changed == [path] and not walks, fields
        same_as_fresh()
    assert not reg.refresh([str(tmp_path / "key_skills/b/SKILL.md")])  # unchanged: nothing read

    # Each of these needs the walk: a new skill, a deleted one, a folder moved in.
    needs_walk: list[tuple[str, str]] = []
    needs_walk.append(("new", oasis("d")))
    os.remove(tmp_path / "key_skills/c/SKILL.md")
    needs_walk.append(("deleted", str(tmp_path / "key_skills/c/SKILL.md")))
    write(tmp_path, "elsewhere/e/SKILL.md", skill_text(id="e", name="e", description="d"))
    os.rename(tmp_path / "elsewhere/e", tmp_path / "key_skills/a/e")
    needs_walk.append(("moved in", str(tmp_path / "key_skills/a/e")))
    for why, path in needs_walk:
        walks.clear()
        reg.refresh([path])
        assert walks, why
        same_as_fresh()


def test_hinted_refresh_keeps_the_mvp_root_rule(tmp_path: Path) -> None:
    agent(tmp_path, "skills/a")
    reg = registry(tmp_path, "mvp")
    path = str(tmp_path / "skills/a/SKILL.md")
    write(tmp_path, "skills/a/SKILL.md", skill_text(name="a", description="edited"))
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 1_000_000_000))
    assert reg.refresh([path]).changed == [path]
    assert [d.path for d in reg.diagnostics if d.code == "refresh-missed"] == [path]


def test_refresh_in_steps_changes_the_registry_only_at_the_last_step(tmp_path: Path) -> None:
    for name in ("a", "b", "c", "d"):
        agent(tmp_path, f"skills/{name}")
    reg = registry(tmp_path)
    before = list(reg.skills)
    paths = [str(tmp_path / f"skills/{name}/SKILL.md") for name in ("a", "b", "c")]
    for path in paths:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("\nMore.\n")
        os.utime(path, ns=(time.time_ns(), time.time_ns() + 10**9))
    steps = reg.refresh_steps(paths)
    taken = 0
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result = done.value
            break
        taken += 1
        assert reg.skills == before  # nothing replaced until the end
    assert taken == 3  # one step per file read
    assert sorted(result.changed) == sorted(paths)
    assert [s.path for s in reg.skills] == [s.path for s in before]
    assert all(reg.by_path[p] is not old for p, old in zip(paths, before, strict=False))


def test_refresh_in_steps_says_when_the_install_comes_next(tmp_path: Path) -> None:
    """The install (35 ms at 10,000 skills) shared a slice with the last files read:
    the step before it yields True, so that an event loop lets events in first."""
    for name in ("a", "b", "c"):
        agent(tmp_path, f"skills/{name}")
    reg = registry(tmp_path)
    paths = [str(tmp_path / f"skills/{name}/SKILL.md") for name in ("a", "b")]
    for path in paths:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("\nMore.\n")
        os.utime(path, ns=(time.time_ns(), time.time_ns() + 10**9))
    before = list(reg.skills)
    values = []
    for value in reg.refresh_steps(paths):
        values.append(bool(value))
        assert reg.skills == before  # installed only after the True
    assert values == [False, True]
    assert reg.skills != before


def test_reparse_matches_a_fresh_scan_after_each_kind_of_edit(tmp_path: Path) -> None:
    root, reg = oasis_scanned(tmp_path, "a", "b", "c")
    text = oasis_text
    path = str(tmp_path / "key_skills/a/SKILL.md")
    edits: list[dict[str, object]] = [
        {"description": "typed words"},  # the in-place swap
        {"triggers": ["go b"]},  # shares a trigger with b: resolved again
        {"description": "more"},  # still shared: resolved again
        {"id": "b"},  # a duplicate id
        {},  # back to where it started
    ]
    for fields in edits:
        version = reg.version
        reg.reparse(path, text("a", **fields))
        assert reg.version > version
        write(tmp_path, "key_skills/a/SKILL.md", text("a", **fields))
        fresh = Registry(get_profile("oasis"), [root])
        fresh.scan()
        assert [
            (s.path, s.status, s.description, s.winner, s.diagnostics, s.cross) for s in reg.skills
        ] == [
            (s.path, s.status, s.description, s.winner, s.diagnostics, s.cross)
            for s in fresh.skills
        ], fields
        assert {k: s.path for k, s in reg.active.items()} == {
            k: s.path for k, s in fresh.active.items()
        }


def test_an_edit_put_in_between_the_steps_of_a_walk_stays_the_skill_listed(
    tmp_path: Path,
) -> None:
    """The app validates an open tab's text (Registry.reparse) between the steps of a
    refresh that walks the tree (a git checkout: many files, a folder of git's among
    them). The list of skills kept the one the walk had seen while `by_path` held the
    edit: the tab's next validation failed ('... is not in list') and the next full
    install went back to the old skill (issue 34, item 8)."""
    for name in ("a", "b", "c"):
        agent(tmp_path, f"skills/{name}")
    reg = registry(tmp_path)
    open_path, other = (str(tmp_path / f"skills/{name}/SKILL.md") for name in ("a", "b"))
    with open(other, "a", encoding="utf-8") as fh:
        fh.write("\nChanged by the checkout.\n")
    os.utime(other, ns=(time.time_ns(), time.time_ns() + 10**9))
    steps = reg.refresh_steps()  # no hint: the walk (a path outside every skill changed)
    next(steps)  # b read again; `a` was passed as it was
    typed = reg.reparse(open_path, skill_text(name="a", description="typed in the tab"))
    assert typed is not None
    for _ in steps:
        pass
    assert reg.by_path[open_path] is typed
    assert [s.path for s in reg.skills] == sorted(reg.by_path)
    assert all(reg.by_path[s.path] is s for s in reg.skills), "the list names by_path's skills"
    again = reg.reparse(open_path, skill_text(name="a", description="typed on"))
    assert again is not None and reg.by_path[open_path].description == "typed on"
    renamed = reg.reparse(other, skill_text(name="b2", description="d"))  # all resolved again
    assert renamed is not None and reg.by_path[other] is renamed
    assert reg.by_path[open_path].description == "typed on"


def test_a_hinted_refresh_looks_at_its_files_a_step_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39, item 9: a burst's hinted refresh looked at all its files (1,000 stat
    calls after a checkout) in one step, a stall of its own; now no step between
    yields looks at more than STAT_STEP files, and the result is the same."""
    count = STAT_STEP * 2 + 30
    for number in range(count):
        agent(tmp_path, f"skills/s{number:03}")
    reg = registry(tmp_path)
    paths = [str(tmp_path / f"skills/s{number:03}/SKILL.md") for number in range(count)]
    changed = paths[::50]
    for path in changed:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("\nMore.\n")
        os.utime(path, ns=(time.time_ns(), time.time_ns() + 10**9))
    looked = [0]
    real = os.lstat

    def counted(path: object, *args: object, **kwargs: object) -> os.stat_result:
        looked[0] += 1
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "lstat", counted)
    steps = reg.refresh_steps(paths)
    most = 0
    while True:
        looked[0] = 0
        try:
            next(steps)
        except StopIteration as done:
            result = done.value
            break
        finally:
            most = max(most, looked[0])
    assert 0 < most <= STAT_STEP
    assert sorted(result.changed) == sorted(changed)
