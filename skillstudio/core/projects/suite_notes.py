"""A query suite's problems as diagnostics, for the editor (`skillstudio lsp`): the
file as typed, unsaved text included, read as `skillstudio test` reads it; a case that
names a skill the project lacks is flagged where it is written."""

from __future__ import annotations

import os
import re
from collections.abc import Collection

from ..model.diagnostics import Diagnostic
from ..model.paths import is_within
from ..reading import yaml_io
from ..reading.frontmatter import human_size
from .suite_cases import SuiteError
from .suites import suite_from_text

# files that are suites by their name (skill-creator, Skill Lab, waza)
SUITE_NAMES = frozenset({"eval_set.json", "triggers.yaml", "trigger_tests.yaml"})
SUITE_SUFFIXES = (".yaml", ".yml", ".json", ".jsonl", ".ndjson", ".csv")
SUITES_FOLDER = "suites"
_WHERE = re.compile(r"(\d+)(?::(\d+))?: ", re.ASCII)


def is_suite(path: str, base: str, listed: Collection[str]) -> bool:
    """A file the project lists under 'suites:', one named as a known suite format, or
    one in a `suites/` folder of the project."""
    if path in listed:
        return True
    name = os.path.basename(path).lower()
    if not is_within(path, base):
        return False
    if name in SUITE_NAMES:
        return True
    parent = os.path.basename(os.path.dirname(path))
    return parent == SUITES_FOLDER and name.endswith(SUITE_SUFFIXES)


def suite_diagnostics(path: str, text: str, names: Collection[str]) -> list[Diagnostic]:
    """The suite's read error (with its line and column), else a warning for each case
    naming a skill not in `names`."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > yaml_io.SUITE.size:
        message = (
            f"the suite is {human_size(size)}, over the {human_size(yaml_io.SUITE.size)} a "
            "suite may be: split it into several files"
        )
        return [Diagnostic("suite-invalid", "error", message, path)]
    try:
        suite = suite_from_text(path, text)
    except SuiteError as exc:
        message, line, column = str(exc), 0, 0
        if message.startswith(path + ":"):
            message = message[len(path) + 1 :].lstrip()
            where = _WHERE.match(message)
            if where:
                line, column = int(where[1]), int(where[2] or 1)
                message = message[where.end() :]
        return [Diagnostic("suite-invalid", "error", message, path, line, column)]
    out: list[Diagnostic] = []
    for case in suite.cases:
        named = [*case.expect, *case.expect_not, *(case.likely or []), *(case.model or [])]
        for name in dict.fromkeys(named):
            if name and name not in names:
                out.append(
                    Diagnostic(
                        "suite-unknown-skill",
                        "warning",
                        f"no skill named '{name}' in this project: the case can never pass "
                        "as written (a typo, or a renamed skill?)",
                        path,
                        case.line,
                        1,
                        skill=name,
                    )
                )
    return out
