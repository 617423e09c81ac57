"""Query suites: hand-made request cases that run offline, in CI (docs/commands.md).

Native YAML suites, skill-creator `eval_set.json` (`[{query, should_trigger}]`
for one skill) and Skill Lab `triggers.yaml` (`skill`, `test_cases` with
`prompt` and `expected: trigger | no_trigger`) all become `Case`s.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Literal

import yaml

from ..model.session import Session
from ..model.text import counted
from ..ranking.explanations import why_not
from ..ranking.matching import MatchIndex, MatchResult, match
from ..ranking.model_pick import LikelyIndex
from ..reading import yaml_io
from ..reading.frontmatter import read_document
from ..reading.safefs import read_bytes, read_file
from ..scanning.registry import Registry

# likely: an `expect_likely:` case, run against the likely-candidates ranking
# (core/ranking/model_pick.py): it passes when one of the expected skills ranks in the top
# three (the evaluation's top-3); `none` passes when no skill is in the likely band.
Mode = Literal["exact", "triggers", "not-triggers", "likely"]

# Bounds on what one suite may ask for: more cases or longer requests than these are
# refused with a message (the text itself is bounded by yaml_io.SUITE: 4 MB, and
# 8 MB after aliases are expanded).
MAX_CASES = 10_000
MAX_QUERY_CHARS = 10_000


class SuiteError(Exception):
    """A suite that cannot be read; the message says where and what to do."""


@dataclass(slots=True)
class Case:
    query: str
    expect: list[str]  # exact: the selected set; triggers/not-triggers: the one skill
    mode: Mode = "exact"
    tier: int | None = None
    line: int = 0
    label: str = ""
    note: str = ""  # what the suite's author wrote beside the case (its YAML comments)

    def expect_json(self) -> Any:
        if self.mode == "likely":
            return {"likely": self.expect or "none"}
        if self.mode == "exact":
            if not self.expect:
                return "none"
            return self.expect[0] if len(self.expect) == 1 else self.expect
        return {"skill": self.expect[0], "should_trigger": self.mode == "triggers"}

    def expect_text(self) -> str:
        """The expectation in words: `pdf-summary`, `none`, `should trigger pdf-summary`."""
        if self.mode == "exact":
            return ", ".join(self.expect) or "none"
        if self.mode == "likely":
            return "likely: " + (" or ".join(self.expect) or "none")
        verb = "should trigger" if self.mode == "triggers" else "should not trigger"
        return f"{verb} {self.expect[0]}"


@dataclass(slots=True)
class Suite:
    path: str
    cases: list[Case]
    profile: str | None = None
    roots: list[str] = field(default_factory=list)
    kind: str = "suite"  # suite | eval_set | skill_lab
    corpus: str | None = None  # an evaluation request set's folder of collections


@dataclass(slots=True)
class CaseResult:
    case: Case
    got: list[str]
    tier: int
    passed: bool
    why: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.case.query,
            "expect": self.case.expect_json(),
            "got": self.got,
            "tier": self.tier,
            "passed": self.passed,
            "why": self.why or None,
            "line": self.case.line or None,
        }


@dataclass(slots=True)
class SuiteReport:
    results: list[CaseResult]
    per_skill: dict[str, dict[str, float | None]]
    confusion: dict[str, dict[str, int]]

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def failed(self) -> int:
        return len(self.results) - self.passed

    def to_json(self) -> dict[str, Any]:
        return {
            "cases": [r.to_json() for r in self.results],
            "passed": self.passed,
            "failed": self.failed,
            "per_skill": self.per_skill,
            "confusion": self.confusion,
        }


def _expect_list(value: Any, where: str) -> list[str]:
    if value is None or (isinstance(value, str) and value.strip().lower() == "none"):
        return []
    if isinstance(value, str):
        return [value.strip()]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v.strip() for v in value]
    raise SuiteError(f"{where}: 'expect' must be a skill name, a list of names, or none.")


def load_suite(path: str, skill: str | None = None) -> Suite:
    """Read a suite in any of the three formats (chosen by content, not by name)."""
    data = _read(path)
    if isinstance(data, list | dict):
        cases = data if isinstance(data, list) else data.get("test_cases", data.get("cases"))
        if isinstance(cases, list) and len(cases) > MAX_CASES:
            raise SuiteError(
                f"{path}: {counted(len(cases), 'case')}; a suite holds at most {MAX_CASES:,}. "
                "Split it into several files."
            )
    if isinstance(data, list):
        return _eval_set(path, data, skill)
    if isinstance(data, dict) and "test_cases" in data:
        return _skill_lab(path, data, skill)
    if isinstance(data, dict) and "cases" in data:
        return _native(path, data)
    raise SuiteError(
        f"{path}: not a suite: expected 'cases:' (SkillStudio), 'test_cases:' (Skill Lab) "
        "or a JSON list of {query, should_trigger} (skill-creator)."
    )


def _read(path: str) -> Any:
    """The data of a suite file, within yaml_io's bounds; every failure is a SuiteError."""
    try:
        text = read_bytes(path, None, yaml_io.SUITE.size).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SuiteError(f"{path}: cannot be read ({exc})") from None
    try:
        if path.endswith(".json"):
            return yaml_io.load_json(text, yaml_io.SUITE)
        return yaml_io.load(text, yaml_io.SUITE)
    except json.JSONDecodeError as exc:
        raise SuiteError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else path
        raise SuiteError(f"{where}: not valid YAML: {exc.problem}") from None
    except yaml.YAMLError as exc:
        raise SuiteError(f"{path}: not valid YAML: {exc}") from None
    except yaml_io.YamlRefused as exc:
        where = f"{path}:{exc.line}:{exc.column}" if exc.line else path
        raise SuiteError(f"{where}: the suite {exc.message}") from None


def _query(text: str, where: str) -> str:
    if len(text) > MAX_QUERY_CHARS:
        raise SuiteError(
            f"{where}: the query is {counted(len(text), 'character')}; at most {MAX_QUERY_CHARS:,}."
        )
    return text


def case_text(query: str, expect: list[str], indent: str = "  ") -> str:
    """A native suite case as YAML lines (double-quoted query, expectation as written)."""
    from ..reading.yaml_io import double_quoted, scalar_text

    if not expect:
        wanted = "none"
    elif len(expect) == 1:
        wanted = scalar_text(expect[0])
    else:
        wanted = "[" + ", ".join(scalar_text(e, flow=True) for e in expect) + "]"
    return f"{indent}- query: {double_quoted(query)}\n{indent}  expect: {wanted}\n"


SUITE_TEMPLATE = """\
# A SkillStudio suite: each case is a request and the skill(s) it should select.
#   - query: "please review this diff"
#     expect: code-review      # a skill name, a list of names, or none
#     tier: 3                  # optional: the disclosure tier the profile should use
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


def add_case(path: str, query: str, expect: list[str]) -> Suite:
    """Append a case to a native suite file (created when missing); nothing else changes.

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
                f"{'a skill-creator eval set' if suite.kind == 'eval_set' else 'Skill Lab'}."
            )
        old_cases = suite.cases
        try:
            raw, st = read_file(path, None, yaml_io.SUITE.size)
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
    new_text = text + case_text(query, expect, indent).replace("\n", newline)
    try:
        data = yaml_io.load(new_text, yaml_io.SUITE)
        got = [(c.query, c.expect) for c in _native(path, data).cases]
    except (yaml.YAMLError, yaml_io.YamlRefused, SuiteError, AttributeError):
        got = []
    want = [(c.query, c.expect) for c in old_cases] + [(query, list(expect))]
    if got != want:
        raise SuiteError(
            f"{path}: the case could not be appended safely (the 'cases' list is not the "
            "last thing in the file); add it by hand"
        )
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    atomic_write(path, new_text.encode("utf-8"), stamp)
    return load_suite(path)


def _suite_lines(text_path: str) -> list[str]:
    try:
        text = read_bytes(text_path, None, yaml_io.SUITE.size).decode("utf-8", "replace")
    except OSError:
        return []
    # universal newlines, as a text-mode file reads them (not str.splitlines)
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _case_lines(text_path: str, lines: list[str] | None = None) -> list[int]:
    """Line of each '- query:' entry, for pointing at failing cases."""
    return [
        index
        for index, line in enumerate(_suite_lines(text_path) if lines is None else lines, 1)
        if line.lstrip().startswith(("- query:", "- prompt:", '{"query"'))
    ]


def comment_of(line: str) -> str:
    """The YAML comment on a line ("" for none): a '#' at its start or after a space,
    outside quotes ('' inside single quotes and \\" inside double ones are escapes)."""
    quote, index = "", 0
    while index < len(line):
        char = line[index]
        if quote == '"' and char == "\\":
            index += 1  # the escaped character
        elif quote == "'" and char == "'" and line[index + 1 : index + 2] == "'":
            index += 1  # '' is a quote inside single quotes
        elif quote and char == quote:
            quote = ""
        elif not quote and char in "'\"" and (index == 0 or line[index - 1] in " \t:[{,-"):
            quote = char
        elif not quote and char == "#" and (index == 0 or line[index - 1] in " \t"):
            return line[index + 1 :].strip()
        index += 1
    return ""


def case_notes(lines: list[str], starts: list[int]) -> list[str]:
    """Each case's note: the comments on its own lines (its first to the line before
    the next case; a whole-line comment only when indented under the case, so one
    above the next case is not taken for this one's)."""
    notes = []
    for number, start in enumerate(starts):
        end = starts[number + 1] - 1 if number + 1 < len(starts) else len(lines)
        dash = len(lines[start - 1]) - len(lines[start - 1].lstrip())
        found = []
        for line in lines[start - 1 : end]:
            text = line.lstrip()
            if text.startswith("#") and len(line) - len(text) <= dash:
                continue
            note = comment_of(line)
            if note:
                found.append(note)
        notes.append(" ".join(found))
    return notes


def _native(path: str, data: dict[str, Any]) -> Suite:
    cases_raw = data.get("cases")
    if not isinstance(cases_raw, list):
        raise SuiteError(f"{path}: 'cases' must be a list of {{query, expect}} entries.")
    text_lines = _suite_lines(path)
    lines = _case_lines(path, text_lines)
    notes = case_notes(text_lines, lines) if len(lines) == len(cases_raw) else []
    cases = []
    for index, raw in enumerate(cases_raw):
        where = f"{path}: case {index + 1}"
        if not isinstance(raw, dict) or not isinstance(raw.get("query"), str):
            raise SuiteError(f"{where}: each case needs 'query: <text>'.")
        likely = "expect_likely" in raw and "expect" not in raw
        if "expect" not in raw and not likely:
            raise SuiteError(
                f"{where}: add 'expect: <skill>' (or 'expect: none'), or 'expect_likely:'."
            )
        tier = raw.get("tier")
        if tier is not None and tier not in (0, 1, 2, 3):
            raise SuiteError(f"{where}: 'tier' must be 0, 1, 2 or 3.")
        cases.append(
            Case(
                _query(raw["query"], where),
                _expect_list(raw.get("expect_likely" if likely else "expect"), where),
                "likely" if likely else "exact",
                tier,
                lines[index] if index < len(lines) else 0,
                note=notes[index] if index < len(notes) else "",
            )
        )
    roots = data.get("roots") or []
    if isinstance(roots, str):
        roots = [roots]
    base = os.path.dirname(os.path.abspath(path))
    profile = data.get("profile")
    corpus = data.get("corpus")
    return Suite(
        path,
        cases,
        profile if isinstance(profile, str) else None,
        [os.path.normpath(os.path.join(base, str(r))) for r in roots],
        corpus=os.path.normpath(os.path.join(base, corpus)) if isinstance(corpus, str) else None,
    )


def skill_folder_of(path: str) -> str | None:
    """The skill folder an eval set or Skill Lab file sits in (up to two levels below
    its SKILL.md), or None."""
    folder = os.path.dirname(os.path.abspath(path))
    for _ in range(3):
        if os.path.isfile(os.path.join(folder, "SKILL.md")):
            return folder
        folder = os.path.dirname(folder)
    return None


def _skill_for(path: str, skill: str | None) -> str:
    if skill:
        return skill
    folder = skill_folder_of(path)
    if folder is not None:
        doc = read_document(os.path.join(folder, "SKILL.md"))
        name = (doc.mapping or doc.fallback or {}).get("name")
        return str(name) if name else os.path.basename(folder)
    raise SuiteError(
        f"{path}: an eval set names no skill; pass --skill NAME or keep it in the skill's folder."
    )


def _eval_set(path: str, data: list[Any], skill: str | None) -> Suite:
    name = _skill_for(path, skill)
    cases = []
    for index, raw in enumerate(data):
        if not isinstance(raw, dict) or not isinstance(raw.get("query"), str):
            raise SuiteError(f"{path}: item {index + 1} needs 'query' and 'should_trigger'.")
        should = bool(raw.get("should_trigger", True))
        query = _query(raw["query"], f"{path}: item {index + 1}")
        cases.append(Case(query, [name], "triggers" if should else "not-triggers"))
    return Suite(path, cases, kind="eval_set")


def _skill_lab(path: str, data: dict[str, Any], skill: str | None) -> Suite:
    default = skill or data.get("skill") or _skill_for(path, None)
    raw_cases = data.get("test_cases")
    if not isinstance(raw_cases, list):
        raise SuiteError(f"{path}: 'test_cases' must be a list.")
    cases = []
    for index, raw in enumerate(raw_cases):
        if not isinstance(raw, dict) or not isinstance(raw.get("prompt"), str):
            raise SuiteError(f"{path}: test case {index + 1} needs a 'prompt'.")
        should = str(raw.get("expected", "trigger")) != "no_trigger"
        name = str(raw.get("skill") or default)
        label = str(raw.get("id") or raw.get("name") or "")
        query = _query(raw["prompt"], f"{path}: test case {index + 1}")
        cases.append(Case(query, [name], "triggers" if should else "not-triggers", label=label))
    return Suite(path, cases, kind="skill_lab")


def run_case(
    case: Case,
    registry: Registry,
    options: dict[str, Any] | None = None,
    index: MatchIndex | None = None,
    known: set[str] | None = None,
    likely_index: LikelyIndex | None = None,
) -> CaseResult:
    """One case in a fresh session: what was selected and whether that was expected."""
    result = match(registry, case.query, index=index, session=Session(), options=options)
    got = list(result.selected)
    if known is None:
        known = {s.name for s in registry.skills}
    unknown = [name for name in case.expect if name not in known]
    why = ""
    if case.mode == "likely":
        ranked = (likely_index or LikelyIndex(registry)).rank(case.query, top=3)
        got = [c.name for c in ranked.candidates]
        if case.expect:
            passed = any(name in case.expect for name in got)
        else:
            passed = not ranked.likely
            if ranked.likely:
                why = f"{ranked.likely[0].name} is likely (an estimate)"
    elif case.mode == "exact":
        passed = sorted(got) == sorted(case.expect)
    elif case.mode == "triggers":
        passed = case.expect[0] in got
    else:
        passed = case.expect[0] not in got
    if not passed and not why and case.mode in ("exact", "triggers"):
        missing = [name for name in case.expect if name not in got]
        extra = [name for name in got if name not in case.expect]
        if missing and missing[0] in known:
            why = why_not(result, registry, missing[0])
        elif extra:
            why = _selected(result, extra) + (" too" if case.expect else "")
    elif not passed and not why and case.mode == "not-triggers":
        why = _selected(result, case.expect[:1])
    if case.tier is not None and result.tier != case.tier:
        passed = False
        why = f"tier {result.tier}, expected {case.tier}"
    if unknown:
        passed = False
        why = f"no skill named {', '.join(unknown)} in this registry"
    return CaseResult(case, got, result.tier, passed, why)


def _selected(result: MatchResult, names: list[str]) -> str:
    """ "a (score 32) was selected", for a failing case's note."""
    said = []
    for name in names:
        cand = result.candidate(name)
        said.append(f"{name} (score {cand.score})" if cand is not None else name)
    return f"{', '.join(said)} {'was' if len(said) == 1 else 'were'} selected"


def report_of(results: list[CaseResult]) -> SuiteReport:
    """Precision, recall and the confusion table over finished cases."""
    return SuiteReport(results, _per_skill(results), confusion(results))


def run_suite(
    suite: Suite,
    registry: Registry,
    options: dict[str, Any] | None = None,
    index: MatchIndex | None = None,
) -> SuiteReport:
    """Run every case against the registry; cases are independent sessions."""
    if index is None:
        index = MatchIndex(registry)
    known = {s.name for s in registry.skills}
    likely = LikelyIndex(registry) if any(c.mode == "likely" for c in suite.cases) else None
    return report_of([run_case(c, registry, options, index, known, likely) for c in suite.cases])


def _per_skill(results: list[CaseResult]) -> dict[str, dict[str, float | None]]:
    counts: dict[str, list[int]] = {}  # name -> [tp, fp, fn]
    for r in results:
        if r.case.mode == "likely":
            continue  # an estimate, not a selection: no precision or recall
        if r.case.mode == "exact":
            expected, got = set(r.case.expect), set(r.got)
            names = expected | got
        else:
            name = r.case.expect[0]
            expected = {name} if r.case.mode == "triggers" else set()
            got = {name} & set(r.got)
            names = {name}
        for name in names:
            tp_fp_fn = counts.setdefault(name, [0, 0, 0])
            if name in expected and name in got:
                tp_fp_fn[0] += 1
            elif name in got:
                tp_fp_fn[1] += 1
            elif name in expected:
                tp_fp_fn[2] += 1
    out: dict[str, dict[str, float | None]] = {}
    for name in sorted(counts):
        tp, fp, fn = counts[name]
        out[name] = {
            "precision": round(tp / (tp + fp), 3) if tp + fp else None,
            "recall": round(tp / (tp + fn), 3) if tp + fn else None,
            "tp": tp,
            "fp": fp,
            "fn": fn,
        }
    return out


def confusion_label(case: Case) -> str:
    """A case's row in the confusion table: the skill it expects, 'none', or 'not X'."""
    if case.mode in ("exact", "likely"):
        return case.expect[0] if case.expect else "none"
    return case.expect[0] if case.mode == "triggers" else f"not {case.expect[0]}"


def confusion(results: list[CaseResult]) -> dict[str, dict[str, int]]:
    """expected -> got -> count, with the first selected skill or 'none'."""
    table: dict[str, dict[str, int]] = {}
    for r in results:
        expected = confusion_label(r.case)
        got = r.got[0] if r.got else "none"
        row = table.setdefault(expected, {})
        row[got] = row.get(got, 0) + 1
    return table
