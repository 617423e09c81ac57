"""Shared triggers kept current by a refresh that keeps every name (core/scanning/
trigger_owners.py `swap`): the same findings as a fresh scan, without resolving all."""

from __future__ import annotations

import itertools
import os
import random
import time
from pathlib import Path

import pytest

from skillstudio.core.model.skills import Root
from skillstudio.core.profiles import get_profile
from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.scanning import registry as registry_module
from skillstudio.core.scanning.registry import Registry

from .helpers import skill_text, write

PHRASES = ["review this", "write tests", "fix the build", "plan a release", "explain it"]
STAMP = itertools.count(1)


def write_skill(tmp_path: Path, ident: str, triggers: list[str], body: str = "") -> str:
    text = skill_text(
        id=ident, name=ident, description="d", triggers=triggers, priority=1, _body=body or "x\n"
    )
    path = write(tmp_path, f"key_skills/{ident}/SKILL.md", text)
    stamp = time.time_ns() + next(STAMP) * 10**9  # (each write an mtime of its own)
    os.utime(path, ns=(stamp, stamp))
    return path


def scanned(tmp_path: Path) -> Registry:
    reg = Registry(get_profile("oasis"), [Root(str(tmp_path / "key_skills"), "key_skills", 0)])
    reg.scan()
    return reg


def state(reg: Registry) -> list[tuple[object, ...]]:
    return [(s.path, s.status, s.key, tuple(s.diagnostics), tuple(s.cross)) for s in reg.skills]


def ambiguous(reg: Registry) -> dict[str, list[str]]:
    return {
        s.name: sorted(d.message for d in s.cross if d.code == "trigger-ambiguous")
        for s in reg.skills
        if s.cross
    }


@pytest.mark.parametrize("hinted", [True, False])
def test_edits_that_keep_the_names_give_what_a_fresh_scan_gives(
    tmp_path: Path, hinted: bool
) -> None:
    rng = random.Random(39)
    idents = [f"s{n:02d}" for n in range(24)]
    for ident in idents:
        write_skill(tmp_path, ident, rng.sample(PHRASES, 2))
    write_skill(tmp_path, "twin", ["review this"])  # a duplicate id: a winner with a note
    write_skill(tmp_path, "zz-twin", ["write tests"])
    write(
        tmp_path,
        "key_skills/zz-twin/SKILL.md",
        skill_text(id="twin", name="twin", description="d", triggers=["write tests"], priority=1),
    )
    reg = scanned(tmp_path)
    for round_ in range(12):
        paths = [
            write_skill(tmp_path, ident, rng.sample(PHRASES, rng.randint(0, 3)), f"r{round_}\n")
            for ident in rng.sample(idents, rng.randint(1, 8))
        ]
        result = reg.refresh(paths if hinted else None)
        assert sorted(result.changed) == sorted(paths)
        fresh = scanned(tmp_path)
        assert state(reg) == state(fresh), round_
        assert {k: s.path for k, s in reg.active.items()} == {
            k: s.path for k, s in fresh.active.items()
        }
        assert all(reg.by_path[s.path] is s for s in reg.skills)


def test_an_edit_of_a_skill_sharing_a_trigger_resolves_only_its_phrases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = write_skill(tmp_path, "a", ["review this"])
    write_skill(tmp_path, "b", ["review this", "write tests"])
    write_skill(tmp_path, "c", ["plan a release"])
    reg = scanned(tmp_path)
    resolved: list[int] = []
    resolve = registry_module.resolve_winners

    def counted(*args: object) -> object:
        resolved.append(1)
        return resolve(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(registry_module, "resolve_winners", counted)
    b_skill = reg.get("b")
    c_skill = reg.get("c")
    assert b_skill is not None and c_skill is not None
    b_findings = b_skill.cross

    # a's body edited: it still shares "review this" with b, whose finding stays as it was
    version = reg.version
    reg.refresh([write_skill(tmp_path, "a", ["review this"], "edited\n")])
    assert not resolved
    assert reg.get("b") is b_skill and b_skill.cross is b_findings
    assert reg.changed_since(version) == {a}  # only a changed: an index syncs a alone
    assert ambiguous(reg) == ambiguous(scanned(tmp_path))
    assert set(ambiguous(reg)) == {"a", "b"}
    resolved.clear()  # (the fresh scan's)

    # a now shares "plan a release" with c and stops sharing with b: both kept skills'
    # findings change, each in a new list (the app compares them list by list)
    version = reg.version
    reg.refresh([write_skill(tmp_path, "a", ["plan a release"])])
    assert not resolved
    assert b_skill.cross is not b_findings and b_skill.cross == []
    assert [d.code for d in c_skill.cross] == ["trigger-ambiguous"]
    assert reg.changed_since(version) is None  # findings of other skills changed
    assert state(reg) == state(scanned(tmp_path))
    resolved.clear()

    # a renamed: who wins may change, so everything is resolved again
    write(tmp_path, "key_skills/a/SKILL.md", skill_text(id="a2", name="a2", description="d"))
    os.utime(a, ns=(time.time_ns() + 10**12, time.time_ns() + 10**12))
    reg.refresh([a])
    assert len(resolved) == 1
    assert state(reg) == state(scanned(tmp_path))


def test_with_rule_settings_an_edit_sharing_a_trigger_is_resolved_as_before(
    tmp_path: Path,
) -> None:
    write(
        tmp_path,
        "skillstudio.yaml",
        "profile: oasis\nroots: [key_skills]\nrules:\n  trigger-ambiguous: error\n",
    )
    a = write_skill(tmp_path, "a", ["review this"])
    write_skill(tmp_path, "b", ["review this"])
    reg = project_from_folder(str(tmp_path)).registry()
    reg.scan()
    reg.refresh([write_skill(tmp_path, "a", ["review this"], "edited\n")])
    fresh = project_from_folder(str(tmp_path)).registry()
    fresh.scan()
    assert state(reg) == state(fresh)
    assert {d.severity for s in reg.skills for d in s.cross} == {"error"}
    assert reg.by_path[a].cross
