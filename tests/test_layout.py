"""Issue 16's layout rules: profiles own their behaviour, modules keep their privates.

- No code outside skillstudio/core/profiles/ compares against a profile's name
  (the registry of names in profiles/__init__.py aside): the engine asks the
  profile object, so a new skill system is one new module.
- No core module imports another module's `_private` names.
- docs/development.md's "Development" tree names every module of the package, with a line
  saying what it holds, and nothing that is gone.
"""

from __future__ import annotations

import ast
import pathlib
import re
from typing import get_args

import skillstudio
from skillstudio.core.live.templates import TemplateApi
from skillstudio.core.profiles import PROFILE_NAMES

PACKAGE = pathlib.Path(skillstudio.__file__).parent
README = PACKAGE.parent / "docs" / "development.md"
PROFILES = PACKAGE / "core" / "profiles"
# "gemini" is also the name of a wire format (core/live/templates.py): a switch on the
# request's API is none on the profile
NAMES = "|".join(n for n in PROFILE_NAMES if n not in get_args(TemplateApi))
# `== "oasis"`, `!= 'mvp'`, `in ("pegasus", …)`, `{"oasis": …}`, `case "toolsets":`
SWITCH = re.compile(
    rf"""(?:[=!]=\s*|\bin\s*[(\[{{][^)\]}}]*|case\s+)["']({NAMES})["']|["']({NAMES})["']\s*:"""
)


def _sources(folder: pathlib.Path) -> list[pathlib.Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_switch_on_a_profile_name_outside_the_profiles() -> None:
    found = []
    for path in _sources(PACKAGE):
        if PROFILES in path.parents:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if SWITCH.search(line):
                found.append(f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}")
    assert found == []


def test_the_switch_pattern_finds_what_it_should() -> None:
    hits = [
        'if profile == "oasis":',
        "elif name != 'mvp':",
        'if profile in ("oasis", "toolsets", "agentskills"):',
        '_OPTIONS = {"pegasus": 1}',
        '    case "workspace":',
    ]
    misses = ['profile = get_profile("oasis")', '"the oasis agent"', 'x == "oasis-like"']
    assert all(SWITCH.search(line) for line in hits)
    assert not any(SWITCH.search(line) for line in misses)


def _private(name: str) -> bool:
    """`_name` is private; a dunder (`__version__`, the package's version) is not."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_no_core_module_imports_another_modules_private_names() -> None:
    found = []
    for path in _sources(PACKAGE / "core"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                private = [a.name for a in node.names if _private(a.name)]
                if private:
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {private}")
    assert found == []


def readme_tree(text: str) -> dict[str, str]:
    """The Development section's tree: path below skillstudio/ -> its line's text.

    Two spaces of indent a level; a name ending in / is a folder."""
    section = text.split("\n## Development\n", 1)[1]
    block = section.split("```\n", 2)[1]
    entries: dict[str, str] = {}
    folders: list[str] = []
    for line in block.splitlines():
        depth = (len(line) - len(line.lstrip(" "))) // 2
        name, _, what = line.strip().partition(" ")
        folders = folders[:depth]
        path = "/".join([*folders, name.rstrip("/")])
        if name.endswith("/"):
            folders.append(name.rstrip("/"))
        entries[path] = what.strip()
    return entries


def test_the_readme_tree_names_every_module_and_says_what_it_holds() -> None:
    tree = readme_tree(README.read_text(encoding="utf-8"))
    modules = {"skillstudio/" + p.relative_to(PACKAGE).as_posix() for p in _sources(PACKAGE)}
    listed = {path for path in tree if path.startswith("skillstudio/") and path.endswith(".py")}
    assert sorted(modules - listed) == [], "add these modules to docs/development.md's tree"
    assert sorted(listed - modules) == [], "docs/development.md's tree names modules that are gone"
    assert [path for path, what in tree.items() if not what] == [], "one line each: what it holds"


def test_the_tree_reader_nests_by_indent() -> None:
    text = (
        "x\n## Development\n\n```\na/  top\n  b.py  one\n  c/  two\n    d.py  three\ne  four\n```\n"
    )
    assert readme_tree(text) == {
        "a": "top",
        "a/b.py": "one",
        "a/c": "two",
        "a/c/d.py": "three",
        "e": "four",
    }


def test_the_app_tests_are_named_by_the_module_they_test() -> None:
    """tests/gui mirrors skillstudio/gui (issue 35): tests/gui/<package>/test_<module>.py
    holds the tests of skillstudio/gui/<package>/<module>.py (test_init.py: the package's
    own __init__.py), so a test is found where its module is, and a file named after a
    review round has no place."""
    tests = PACKAGE.parent / "tests" / "gui"
    gui = PACKAGE / "gui"
    stray = []
    for path in sorted(tests.rglob("test_*.py")):
        rel = path.relative_to(tests)
        name = rel.name.removeprefix("test_")
        module = gui / rel.parent / ("__init__.py" if name == "init.py" else name)
        if not module.is_file():
            stray.append(rel.as_posix())
    assert stray == [], "name each test file after the module it tests"
