"""Fault isolation: an unexpected exception in one stage for one skill (reading,
validating, matching, rendering a tier, activating) becomes an `internal` diagnostic
on that skill, and every command still answers for the rest (docs/development.md).

Each test injects the fault by replacing the stage's function with one that raises
for the skill named `victim` and calls the real one for every other skill.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.delivery import activation
from skillstudio.core.delivery import tiers as disclosure
from skillstudio.core.profiles.toolsets import Toolsets
from skillstudio.core.scanning import parallel, registry

from .helpers import Run, cli, write

QUERY = "victim request and neighbour request"
BOOM = "injected fault for the test"


def toolsets_skill(name: str) -> str:
    return (
        f"---\nname: {name}\ndescription: The {name} skill.\n"
        f'triggers:\n  keywords: ["{name} request"]\n---\nThe {name} instructions.\n'
    )


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    for name in ("neighbour", "victim"):
        write(tmp_path, f".agent/skills/{name}/SKILL.md", toolsets_skill(name))
    write(
        tmp_path,
        "neighbour.suite.yaml",
        "profile: toolsets\nroots: [.agent/skills]\ncases:\n"
        '  - query: "neighbour request"\n    expect: neighbour\n',
    )
    return tmp_path


def is_victim(value: Any) -> bool:
    """Whether an argument names the victim skill (a path, a Skill, a name)."""
    text = getattr(value, "path", value)
    return isinstance(text, str) and ("victim" in text)


def failing(real: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if any(is_victim(a) for a in (*args, *kwargs.values())):
            raise RuntimeError(BOOM)
        return real(*args, **kwargs)

    return wrapper


# stage -> (module, function name); reading and validating happen in two modules: a
# scan or refresh reads through scanning/parallel.py, a re-parse of unsaved text in the registry
STAGES = {
    "reading": (parallel, "read_document"),
    "validating": (parallel, "validate_skill"),
    "matching": (Toolsets, "match_terms"),  # the profile's terms for the match index
    "rendering tier 2": (Toolsets, "listing_entry"),
    "rendering tier 3": (disclosure, "_instructions"),
    "activating": (activation, "_activate"),
}

COMMANDS: dict[str, tuple[str, ...]] = {
    "lint": ("lint", "--format", "json"),
    "match": ("match", QUERY, "--format", "json"),
    "prompt2": ("prompt", "--tier", "2", "--format", "json"),
    "prompt3": ("prompt", "--query", QUERY, "--format", "json"),
    "activate": ("activate", "victim", "--format", "json"),
    "activate-other": ("activate", "neighbour", "--format", "json"),
    "test": ("test", "neighbour.suite.yaml", "--format", "json"),
}

# where each stage's fault must show as an `internal` diagnostic on the victim
REPORTED_BY = {
    "reading": {"lint"},
    "validating": {"lint"},
    "matching": {"match", "prompt2", "prompt3"},  # prompt matches too
    "rendering tier 2": {"prompt2"},
    "rendering tier 3": {"prompt3"},
    "activating": {"activate"},
}


def internal_diagnostics(data: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for value in data.get("diagnostics", []) if isinstance(data, dict) else []:
        if value["code"] == "internal":
            found.append(value)
    if isinstance(data, dict) and isinstance(data.get("error"), dict):
        found += internal_diagnostics({"diagnostics": data.get("diagnostics", [])})
    return found


def run(command: str, project: Path) -> Run:
    args = COMMANDS[command]
    if command != "test":
        args = (*args, "--root", ".agent/skills", "--profile", "toolsets")
    return cli(*args, cwd=project)


def complete_for_the_rest(command: str, data: Any, stage: str) -> None:
    """The neighbour is fully there in every command's answer."""
    if command == "lint":
        assert {"name": "neighbour"}.items() <= next(
            s for s in data["skills"] if s["name"] == "neighbour"
        ).items()
        assert not [d for d in data["diagnostics"] if d["skill"] == "neighbour"]
    elif command == "match":
        assert "neighbour" in data["selected"]
    elif command == "prompt2":
        assert "neighbour" in data["listed"] and "- neighbour: The neighbour skill." in data["text"]
    elif command == "prompt3":
        assert data["listed"][:1] == ["neighbour"] or "neighbour" in data["listed"]
        assert "The neighbour instructions." in data["text"]
    elif command == "activate-other":
        assert data["content"].strip() == "The neighbour instructions."
    elif command == "test":
        assert (data["passed"], data["failed"]) == (1, 0)


@pytest.mark.parametrize("stage", list(STAGES))
def test_a_fault_in_one_stage_for_one_skill_is_reported_on_it_and_the_rest_goes_on(
    stage: str, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module, name = STAGES[stage]
    monkeypatch.setattr(module, name, failing(getattr(module, name)))
    if module is parallel:
        monkeypatch.setattr(registry, name, failing(getattr(registry, name)))
    for command in COMMANDS:
        done = run(command, project)
        assert done.code in (0, 1), (command, done.err)
        assert "internal error" not in done.err and "Traceback" not in done.err, done.err
        data = json.loads(done.out)
        complete_for_the_rest(command, data, stage)
        found = internal_diagnostics(data)
        if command in REPORTED_BY[stage]:
            assert found, (stage, command, data)
            assert all(d["skill"] == "victim" and d["severity"] == "error" for d in found)
            assert all("victim" in d["path"] for d in found)
            assert BOOM in found[0]["message"] and "report" in found[0]["message"]
        else:
            assert not found, (stage, command, found)
    if stage in ("reading", "validating"):
        assert run("lint", project).code == 1  # an internal error fails the check


def test_the_registry_keeps_every_other_skill_when_one_fails(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillstudio.core.projects.project import project_from_roots

    monkeypatch.setattr(parallel, "validate_skill", failing(parallel.validate_skill))
    monkeypatch.setattr(registry, "validate_skill", failing(registry.validate_skill))
    reg = project_from_roots([str(project / ".agent/skills")], "toolsets", str(project)).registry()
    reg.scan()  # never raises for one skill
    assert set(reg.active) == {"neighbour"}
    victim = next(s for s in reg.skills if "victim" in s.path)
    assert victim.status == "skipped" and [d.code for d in victim.diagnostics] == ["internal"]
    # a re-parse of unsaved text (the app, per keystroke) is guarded the same way
    again = reg.reparse(victim.path, toolsets_skill("victim"))
    assert again is not None and [d.code for d in again.diagnostics] == ["internal"]
    assert set(reg.active) == {"neighbour"}


def test_a_failed_skill_is_read_again_by_the_next_refresh(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillstudio.core.projects.project import project_from_roots

    lift = {"on": True}
    real = registry.validate_skill

    def flaky(skill: Any, profile: Any) -> None:
        if lift["on"] and "victim" in skill.path:
            raise RuntimeError(BOOM)
        real(skill, profile)

    monkeypatch.setattr(parallel, "validate_skill", flaky)  # (where a scan validates)
    reg = project_from_roots([str(project / ".agent/skills")], "toolsets", str(project)).registry()
    reg.scan()
    assert set(reg.active) == {"neighbour"}
    lift["on"] = False  # the fault has passed; the victim's file did not change
    neighbour = next(s.path for s in reg.skills if "neighbour" in s.path)
    reg.refresh([neighbour])  # a watcher's hint about another file
    assert set(reg.active) == {"neighbour", "victim"}
    assert not [d for d in reg.diagnostics if d.code == "internal"]
