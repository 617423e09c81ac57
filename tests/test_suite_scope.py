"""core/projects/suite_scope.py: the app runs a suite against the open project it
resolves to without reading that project again (issue 39, item 9: the walk of every
folder below a project of 10,000 skills held the window 100-250 ms at each run)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.projects import project as project_module
from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.projects.suite_scope import suite_project
from skillstudio.core.projects.suites import load_suite

from .helpers import skill_text, write

SUITE = 'cases:\n  - query: "fill in a form"\n    expect: none\n'


def walks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The folders walked for skill roots from now on."""
    walked: list[str] = []
    real = project_module.search_roots

    def counted(folder: str, *args: Any) -> Any:
        walked.append(folder)
        return real(folder, *args)

    monkeypatch.setattr(project_module, "search_roots", counted)
    return walked


def a_project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    write(folder, "skillstudio.yaml", "profile: agentskills\nroots: [skills]\n")
    write(folder, "skills/pdf-forms/SKILL.md", skill_text(name="pdf-forms"))
    write(folder, "extra/notes/SKILL.md", skill_text(name="notes"))
    return folder


@pytest.mark.parametrize("inside", [True, False])
def test_a_suite_of_the_open_projects_folder_runs_against_it_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inside: bool
) -> None:
    """A suite in the project's folder (its skillstudio.yaml above the suite) or
    elsewhere (the app stands in the open project's folder, as `skillstudio test`
    run there): the open project itself, no walk of its folder."""
    folder = a_project(tmp_path)
    suite_path = (folder / "suites" if inside else tmp_path) / "suite.yaml"
    write(suite_path.parent, suite_path.name, SUITE)
    opened = project_from_folder(str(folder))
    walked = walks(monkeypatch)
    assert suite_project(load_suite(str(suite_path)), open_projects=[opened]) is opened
    assert walked == []
    # the command line, with no project open, reads it as before
    read = suite_project(load_suite(str(suite_path)), cwd=str(folder))
    assert read is not opened and [r.path for r in read.roots] == [r.path for r in opened.roots]
    assert walked == [str(folder)]


def test_a_changed_configuration_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """skillstudio.yaml edited since the project was opened (another root named, or
    another profile): the project is read again as `skillstudio test` would."""
    folder = a_project(tmp_path)
    write(tmp_path, "suite.yaml", SUITE)
    suite = load_suite(str(tmp_path / "suite.yaml"))
    opened = project_from_folder(str(folder))
    walked = walks(monkeypatch)
    write(folder, "skillstudio.yaml", "profile: agentskills\nroots: [skills, extra]\n")
    read = suite_project(suite, open_projects=[opened])
    assert read is not opened and len(read.roots) == 2 and walked == [str(folder)]
    write(folder, "skillstudio.yaml", "profile: claude-code\nroots: [skills]\n")
    read = suite_project(suite, open_projects=[opened])
    assert read is not opened and read.profile.name == "claude-code"
