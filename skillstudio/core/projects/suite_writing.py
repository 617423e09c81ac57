"""Writing native suites: a new empty suite, and a case appended to one (Try a Request's
"Add as test case", the Suites panel's "New suite"). Nothing else in the file changes,
and the new text must read back as the old cases plus the new one."""

from __future__ import annotations

import os
import re
from typing import Literal

import yaml

from ..reading import yaml_io
from ..reading.safefs import read_file
from .suite_cases import Case, Suite, SuiteError
from .suites import FOREIGN, load_suite, native_suite

# the key a case's expectation is written under (PRODUCT.md section 7, "One meaning
# per key"): `expect` what the profile's own rules select, `expect_likely` the offline
# estimate's top pick, `expect_model` the model's pick when asked as the agent asks
ExpectKey = Literal["expect", "expect_likely", "expect_model"]


def case_text(query: str, expect: list[str], indent: str = "  ", key: ExpectKey = "expect") -> str:
    """A native suite case as YAML lines (double-quoted query, expectation as written)."""
    if not expect:
        wanted = "none"
    elif len(expect) == 1:
        wanted = yaml_io.scalar_text(expect[0])
    else:
        wanted = "[" + ", ".join(yaml_io.scalar_text(e, flow=True) for e in expect) + "]"
    return f"{indent}- query: {yaml_io.double_quoted(query)}\n{indent}  {key}: {wanted}\n"


SUITE_TEMPLATE = """\
# A SkillStudio suite: each case is a request and the skill(s) it should select.
#   - query: "please review this diff"
#     expect: code-review      # what the profile's own rules select: a name, a list, or none
#     tier: 3                  # optional: the disclosure tier the profile should use
#   - query: "look over my pull request"
#     expect_likely: code-review   # the offline estimate's top pick (skillstudio test)
#     expect_model: code-review    # the model's pick, as the agent asks (skillstudio eval)
cases: []
"""


def create_suite(path: str) -> Suite:
    """Write an empty native suite; an existing file is never replaced."""
    from ..editing.saving import atomic_write

    if os.path.exists(path):
        raise SuiteError(f"{path}: already exists; open it instead")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    atomic_write(path, SUITE_TEMPLATE.encode("utf-8"), None)
    return load_suite(path)


def _key_of(case: Case) -> tuple[str, list[str]]:
    """What a read-back check compares of a case: its mode's key and names."""
    return case.mode, list(case.expect)


def add_case(path: str, query: str, expect: list[str], key: ExpectKey = "expect") -> Suite:
    """Append a case to a native suite file (created when missing); nothing else changes.
    `key` is the expectation's key (`expect`, `expect_likely`, `expect_model`).

    The new text must read back as the old cases plus this one, or nothing is written.
    """
    from ..editing.saving import Stamp, atomic_write

    old_cases: list[Case] = []
    stamp: Stamp | None = None
    if os.path.exists(path):
        suite = load_suite(path)
        if suite.kind != "suite":
            raise SuiteError(
                f"{path}: cases are added to SkillStudio suites only; this file is "
                f"{FOREIGN.get(suite.kind, suite.kind)}."
            )
        old_cases = suite.cases
        try:
            raw, st = read_file(path, suite.home, yaml_io.SUITE.size)
            text = raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise SuiteError(f"{path}: cannot be read ({exc})") from None
        stamp = Stamp.of_bytes(raw, st.st_mtime_ns)
    else:
        text = "cases:\n"
    newline = "\r\n" if "\r\n" in text else "\n"
    indent = "  "
    for line in text.splitlines():
        stripped = line.lstrip()
        if stripped.startswith("- query:"):
            indent = line[: len(line) - len(stripped)]
    if text and not text.endswith(("\n", "\r")):
        text += newline
    text = re.sub(r"^cases:[ \t]*\[[ \t]*\][ \t]*$", "cases:", text, count=1, flags=re.M)
    new_text = text + case_text(query, expect, indent, key).replace("\n", newline)
    mode = {"expect": "exact", "expect_likely": "likely", "expect_model": "model"}[key]
    try:
        data = yaml_io.load(new_text, yaml_io.SUITE)
        got = [(c.query, _key_of(c)) for c in native_suite(path, data).cases]
    except (yaml.YAMLError, yaml_io.YamlRefused, SuiteError, AttributeError):
        got = []
    want = [(c.query, _key_of(c)) for c in old_cases] + [(query, (mode, list(expect)))]
    if got != want:
        raise SuiteError(
            f"{path}: the case could not be appended safely (the 'cases' list is not the "
            "last thing in the file); add it by hand"
        )
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    atomic_write(path, new_text.encode("utf-8"), stamp)
    return load_suite(path)
