"""What the cache of what was read rests on (core/scanning/state_cache.py): every path a
skill's checks look at is named to it (core/reading/looked.py), and a state goes to
JSON and back unchanged, on every sample project and the shared corpus under every
profile."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.profiles import PROFILE_NAMES
from skillstudio.core.projects.project import resolve_projects
from skillstudio.core.scanning import parallel
from skillstudio.core.scanning.skill_state import (
    from_json,
    skill_from_state,
    skill_state,
    to_json,
    well_formed,
)

from .helpers import CORPUS, SAMPLES, skill_text, write

TRACED = ("stat", "lstat", "open", "scandir", "listdir", "access", "readlink")
# What a check may look at that no skill holds: the opened file's own name (/proc), and
# modules Python imports on first use.
NOT_SKILLS = (
    "/proc/",
    sys.prefix,
    sys.base_prefix,
    os.path.dirname(os.path.dirname(os.path.abspath(parallel.__file__))),
)


def trees(extra: Path) -> list[str]:
    found = [os.path.join(SAMPLES, name) for name in sorted(os.listdir(SAMPLES))]
    found = [path for path in found if os.path.isdir(path)]
    return [*found, *([CORPUS] if os.path.isdir(CORPUS) else []), str(extra)]


def every_kind_of_look(base: Path) -> Path:
    """A tree whose checks look at the disk in every way the profiles do: links (one
    missing, one through a linked folder), a plugin with its manifest and a
    ${CLAUDE_PLUGIN_ROOT} link, agents/openai.yaml, codex's plugin manifest, toolset
    files, bundled markdown in references/."""
    body = (
        "# Body\n\n[a](references/a.md) [gone](references/gone.md) [via](linked/b.md)\n"
        "[root](${CLAUDE_PLUGIN_ROOT}/README.md) [dir](${CLAUDE_SKILL_DIR}/references/a.md)\n"
    )
    write(base, "kit/.claude-plugin/plugin.json", '{"name": "kit"}')
    write(base, "kit/.codex-plugin/plugin.json", '{"name": "kit"}')
    write(base, "kit/README.md", "# Kit\n")
    write(base, "kit/skills/one/SKILL.md", skill_text(name="one", description="One.", _body=body))
    write(base, "kit/skills/one/references/a.md", "# A\n\nwords\n")
    write(base, "kit/skills/one/notes.md", "# Notes\n")
    write(base, "kit/skills/one/agents/openai.yaml", "policy:\n  allow_implicit_invocation: no\n")
    write(base, "kit/skills/target/b.md", "# B\n")
    os.symlink("../target", base / "kit" / "skills" / "one" / "linked")
    toolset = skill_text(
        id="two", name="two", description="Two.", keywords=["two"], toolsets=["tools/x:X"]
    )
    write(base, "kit/skills/two/SKILL.md", toolset)
    write(base, "kit/skills/two/tools/x.py", "class X:\n    pass\n")
    return base


def scans(extra: Path) -> Iterator[tuple[str, Any]]:
    """Every sample project and the tree above under every profile; the corpus under
    the profiles it is detected as."""
    for where in trees(extra):
        for profile in PROFILE_NAMES if where != CORPUS else [None]:
            for project in resolve_projects([where], [], None, profile, os.getcwd()):
                yield project.profile.name, project


def ancestors(path: str) -> set[str]:
    out = set()
    while True:
        out.add(path)
        parent = os.path.dirname(path)
        if parent == path:
            return out
        path = parent


@pytest.fixture
def traced(monkeypatch: pytest.MonkeyPatch) -> list[set[str]]:
    """The paths each skill's build (read, checks, gist) gave to the file system."""
    calls: list[set[str]] = []

    def wrap(name: str) -> None:
        real: Callable[..., Any] = getattr(os, name)

        def call(path: Any, *args: Any, **kwargs: Any) -> Any:
            if calls and isinstance(path, str):
                calls[-1].add(os.path.normpath(path))
            return real(path, *args, **kwargs)

        monkeypatch.setattr(os, name, call)

    for name in TRACED:
        wrap(name)
    build = parallel.build_skill

    def building(*args: Any, **kwargs: Any) -> Any:
        calls.append(set())
        return build(*args, **kwargs)

    monkeypatch.setattr(parallel, "build_skill", building)
    return calls


def test_every_path_a_check_looks_at_is_named(tmp_path: Path, traced: list[set[str]]) -> None:
    unnamed: list[tuple[str, str, str]] = []
    every_kind_of_look(tmp_path)
    count = 0
    for profile, project in scans(tmp_path):
        registry = project.registry()
        for root, item in registry._discover():
            looked: list[list[str]] = []
            skill = parallel.load_skill(root, item, registry.profile, False, True, None, looked)
            touched = traced.pop()
            named = {os.path.normpath(p) for p in looked[0]}
            allowed = set().union(*(ancestors(p) for p in [skill.path, *named]))
            own = (p for p in touched if not p.startswith(NOT_SKILLS))
            unnamed += [(profile, skill.path, p) for p in own if p not in allowed]
            count += 1
    assert count > 200
    assert unnamed == []


def test_a_state_goes_to_json_and_back_unchanged(tmp_path: Path) -> None:
    every_kind_of_look(tmp_path)
    count = 0
    for _, project in scans(tmp_path):
        registry = project.registry()
        registry.scan()
        for skill in registry.skills:
            state = skill_state(skill)  # (after the cross-skill checks: a key may be qualified)
            data = to_json(state)
            assert data is not None, skill.path
            read = json.loads(json.dumps(data))
            assert well_formed(read), skill.path  # (no state of ours is refused)
            back = skill_from_state(from_json(read), skill.root)
            again = skill_state(back)
            assert again[:11] == state[:11] and again[12:] == state[12:]
            assert again[11][:16] == state[11][:16] and again[11][17] == state[11][17]
            # (asked for, the positions are kept as FieldPos only: after the state)
            assert back.doc.positions() == skill.doc.positions()
            count += 1
    assert count > 200


def test_what_json_cannot_hold_is_not_cached() -> None:
    from skillstudio.core.scanning.skill_state import exact

    assert exact({"a": [1, 2.5, None, True, "x", {"b": []}]})
    for value in ({1: "int key"}, ("tuple",), {"a": float("nan")}, {"d": {1, 2}}, b"bytes"):
        assert not exact(value), value
    deep: Any = []
    for _ in range(100):
        deep = [deep]
    assert not exact(deep)
