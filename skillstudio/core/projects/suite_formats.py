"""Other tools' trigger tests read as suites (docs/commands.md): skill-creator's
`eval_set.json`, Skill Lab's `triggers.yaml`, waza's `trigger_tests.yaml` and skill-reach
query sets (JSON, YAML, JSON Lines or CSV).

All of it is untrusted input: the text is bounded (yaml_io.SUITE), so are the rows,
columns, names and requests, and a bad value is a SuiteError that says the file, line
and column, never a traceback.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import os
from collections.abc import Callable
from typing import Any

from ..reading import yaml_io
from ..reading.frontmatter import read_document
from .suite_cases import (
    Case,
    Located,
    Suite,
    SuiteError,
    check_count,
    checked,
    name_list,
    query_text,
)

# waza's `confidence`: how much a prompt counts in the per-skill statistics. waza itself
# knows high and medium; `low` (a prompt its author is unsure of) counts a quarter.
CONFIDENCE = {"high": 1.0, "medium": 0.5, "low": 0.25}
REACH_KINDS = ("implicit", "contextual", "neighbor_negative", "out_of_scope")
REACH_KEYS = {
    "id",
    "query_id",
    "text",
    "query",
    "kind",
    "expected_skill",
    "acceptable_skills",
    "notes",
}
MAX_COLUMNS = 64  # of a CSV row


def skill_folder_of(path: str) -> str | None:
    """The skill folder an eval set or Skill Lab file sits in (up to two levels below
    its SKILL.md), or None."""
    folder = os.path.dirname(os.path.abspath(path))
    for _ in range(3):
        if os.path.isfile(os.path.join(folder, "SKILL.md")):
            return folder
        folder = os.path.dirname(folder)
    return None


def skill_for(path: str, skill: str | None, what: str = "an eval set") -> str:
    if skill:
        return skill
    folder = skill_folder_of(path)
    if folder is not None:
        doc = read_document(os.path.join(folder, "SKILL.md"), root=os.path.realpath(folder))
        name = (doc.mapping or doc.fallback or {}).get("name")
        return str(name) if name else os.path.basename(folder)
    raise SuiteError(
        f"{path}: {what} names no skill; pass --skill NAME or keep it in the skill's folder."
    )


def eval_set(path: str, data: list[Any], skill: str | None, loc: Located) -> Suite:
    check_count(path, len(data))
    name = skill_for(path, skill)
    cases = []
    for index, raw in enumerate(data):
        if not isinstance(raw, dict) or not isinstance(raw.get("query"), str):
            raise SuiteError(
                f"{loc.at(index)}: item {index + 1} needs 'query' and 'should_trigger'."
            )
        should = bool(raw.get("should_trigger", True))
        query = checked(functools.partial(loc.at, index), "query", query_text, raw["query"])
        cases.append(Case(query, [name], "triggers" if should else "not-triggers"))
    return Suite(path, cases, kind="eval_set")


def skill_lab(path: str, data: dict[str, Any], skill: str | None, loc: Located) -> Suite:
    raw_cases = data.get("test_cases")
    if not isinstance(raw_cases, list):
        raise SuiteError(f"{loc.at('test_cases')}: 'test_cases' must be a list.")
    check_count(path, len(raw_cases))
    default = skill or data.get("skill") or skill_for(path, None)
    cases = []
    for index, raw in enumerate(raw_cases):
        if not isinstance(raw, dict) or not isinstance(raw.get("prompt"), str):
            raise SuiteError(
                f"{loc.at('test_cases', index)}: test case {index + 1} needs a 'prompt'."
            )
        should = str(raw.get("expected", "trigger")) != "no_trigger"
        name = str(raw.get("skill") or default)
        label = str(raw.get("id") or raw.get("name") or "")
        place = functools.partial(loc.at, "test_cases", index)
        query = checked(place, "prompt", query_text, raw["prompt"])
        cases.append(Case(query, [name], "triggers" if should else "not-triggers", label=label))
    return Suite(path, cases, kind="skill_lab")


# -------------------------------------------------------------------- waza


def waza(path: str, loc: Located, data: dict[str, Any], skill: str | None) -> Suite:
    """waza's `trigger_tests.yaml`: `skill:` and two lists of `{prompt, reason,
    confidence}`; the first should select the skill, the second should not."""
    named = data.get("skill")
    if named is not None and (not isinstance(named, str) or not named.strip()):
        raise SuiteError(f"{loc.at('skill')}: 'skill' must be the skill's name.")
    name = skill or (named.strip() if named else None)
    name = name or skill_for(path, None, "this trigger_tests.yaml (no 'skill:')")
    cases: list[Case] = []
    for key, should in (("should_trigger_prompts", True), ("should_not_trigger_prompts", False)):
        items = data.get(key)
        if items is None:
            continue
        if not isinstance(items, list):
            raise SuiteError(f"{loc.at(key)}: '{key}' must be a list of {{prompt, reason}}.")
        check_count(path, len(cases) + len(items))
        for index, raw in enumerate(items):
            prompt = raw.get("prompt") if isinstance(raw, dict) else None
            if not isinstance(prompt, str) or not prompt.strip():
                raise SuiteError(f"{loc.at(key, index)}: each entry needs 'prompt: <text>'.")
            confidence = raw.get("confidence")
            if confidence is None or confidence == "":
                confidence = "high"  # waza's default
            if not isinstance(confidence, str) or confidence.lower() not in CONFIDENCE:
                raise SuiteError(
                    f"{loc.at(key, index, 'confidence')}: 'confidence' is high, medium or "
                    f"low, not {str(confidence)[:40]!r}."
                )
            reason = raw.get("reason")
            if reason is not None and not isinstance(reason, str):
                raise SuiteError(f"{loc.at(key, index, 'reason')}: 'reason' must be text.")
            cases.append(
                Case(
                    query_text(prompt, loc.at(key, index, "prompt")),
                    [name],
                    "triggers" if should else "not-triggers",
                    line=loc.line(key, index),
                    weight=CONFIDENCE[confidence.lower()],
                )
            )
    if not cases:
        raise SuiteError(
            f"{path}: no prompts: add 'should_trigger_prompts:' or 'should_not_trigger_prompts:'."
        )
    return Suite(path, cases, kind="waza")


# -------------------------------------------------------------- skill-reach

# where(key) -> "path:line:column" of a row's value (or of the row, for None)
Where = Callable[[str | None], str]


def _reach_case(row: dict[str, Any], where: Where, line: int, number: int) -> Case:
    """One skill-reach query: `{id, text, kind, expected_skill, acceptable_skills}`."""
    key = "text" if "text" in row else "query"
    text = row.get(key)
    if not isinstance(text, str) or not text.strip():
        raise SuiteError(f"{where(key if key in row else None)}: each query needs 'text'.")
    ident = row.get("id", row.get("query_id"))
    if (ident is not None and not isinstance(ident, str | int)) or isinstance(ident, bool):
        raise SuiteError(f"{where('id')}: 'id' must be text.")
    label = str(ident).strip()[:200] if ident is not None else ""
    kind = row.get("kind")
    if kind == "":
        kind = None
    if kind is not None and kind not in REACH_KINDS:
        raise SuiteError(
            f"{where('kind')}: 'kind' is one of {', '.join(REACH_KINDS)}, not {str(kind)[:40]!r}."
        )
    expected = row.get("expected_skill")
    if isinstance(expected, str) and not expected.strip():
        expected = None
    if expected is not None and not isinstance(expected, str):
        raise SuiteError(f"{where('expected_skill')}: 'expected_skill' must be a skill name.")
    if (kind == "out_of_scope") != (expected is None) and kind is not None:
        said = "names no skill" if expected is None else f"names {expected[:80]!r}"
        raise SuiteError(
            f"{where('expected_skill' if 'expected_skill' in row else 'kind')}: "
            f"kind {kind} but 'expected_skill' {said}: an out_of_scope query names no "
            "skill, every other kind names one."
        )
    acceptable = row.get("acceptable_skills")
    if isinstance(acceptable, str):
        acceptable = [part for part in acceptable.split(",") if part.strip()]
    acceptable = checked(
        where, "acceptable_skills", name_list, acceptable, "acceptable_skills", False
    )
    if expected is not None:
        checked(where, "expected_skill", name_list, [expected], "expected_skill")
    return Case(
        checked(where, key, query_text, text),
        [expected.strip()] if expected else [],
        "reach",
        line=line,
        label=label or f"q-{number}",
        acceptable=acceptable,
        kind=kind or "",
    )


def _unique(cases: list[Case], where_of: Callable[[int], str]) -> None:
    """Ids are unique (skill-reach refuses a set that repeats one)."""
    seen: set[str] = set()
    for number, case in enumerate(cases):
        if case.label in seen:
            raise SuiteError(
                f"{where_of(number)}: the id {case.label!r} is used twice; ids are unique."
            )
        seen.add(case.label)


def reach_document(path: str, loc: Located, data: dict[str, Any]) -> Suite:
    """A skill-reach query set as JSON or YAML: `{catalog_id, queries: [...]}`."""
    queries = data.get("queries")
    if not isinstance(queries, list):
        raise SuiteError(f"{loc.at('queries')}: 'queries' must be a list of queries.")
    check_count(path, len(queries))
    lines = loc.item_lines("queries")
    cases: list[Case] = []
    for index, row in enumerate(queries):
        if not isinstance(row, dict):
            raise SuiteError(f"{loc.at('queries', index)}: each query is a mapping.")
        unknown = sorted(str(k) for k in row if k not in REACH_KEYS)
        if unknown:
            raise SuiteError(
                f"{loc.key_at('queries', index, unknown[0])}: unknown key {unknown[0][:40]!r}; a "
                f"query has {', '.join(sorted(REACH_KEYS - {'query_id', 'query'}))}."
            )

        def where(key: str | None, index: int = index) -> str:
            return loc.at("queries", index, key) if key else loc.at("queries", index)

        line = lines[index] if index < len(lines) else 0
        cases.append(_reach_case(row, where, line, index + 1))
    _unique(cases, lambda number: loc.at("queries", number))  # composed only if needed
    return Suite(path, cases, kind="skill_reach")


def reach_jsonl(path: str, text: str) -> Suite:
    """A skill-reach query set as JSON Lines: one query object a line."""
    cases: list[Case] = []
    wheres: list[str] = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            row = yaml_io.load_json(line, yaml_io.SUITE)
        except json.JSONDecodeError as exc:
            raise SuiteError(f"{path}:{number}:{exc.colno}: not valid JSON: {exc.msg}") from None
        except yaml_io.YamlRefused as exc:
            raise SuiteError(f"{path}:{number}:{exc.column or 1}: the line {exc.message}") from None
        if not isinstance(row, dict):
            raise SuiteError(f"{path}:{number}:1: each line is one query object {{text, ...}}.")
        check_count(path, len(cases) + 1)

        def where(key: str | None, number: int = number, line: str = line) -> str:
            column = line.find(json.dumps(key)) + 1 if key else 0
            return f"{path}:{number}:{max(column, 1)}"

        cases.append(_reach_case(row, where, number, len(cases) + 1))
        wheres.append(where(None))
    return _rows_suite(path, cases, wheres)


def _rows_suite(path: str, cases: list[Case], wheres: list[str]) -> Suite:
    """JSON Lines and CSV rows: `wheres` is each row's place."""
    if not cases:
        raise SuiteError(f"{path}: no queries in it.")
    _unique(cases, wheres.__getitem__)
    return Suite(path, cases, kind="skill_reach")


def _cell_starts(record: str) -> list[int]:
    """Where each cell of one CSV record starts (offsets into the record's text)."""
    starts, quoted = [0], False
    for at, char in enumerate(record):
        if char == '"':
            quoted = not quoted
        elif char == "," and not quoted:
            starts.append(at + 1)
    return starts


def reach_csv(path: str, text: str) -> Suite:
    """A skill-reach query set as CSV: a header row (`text` at least), one query a row."""
    lines = list(io.StringIO(text, newline=""))
    reader = csv.reader(iter(lines), strict=True)  # a stray quote is an error, not a guess
    header: list[str] | None = None
    cases: list[Case] = []
    wheres: list[str] = []
    end = 0
    while True:
        start = end + 1
        try:
            cells = next(reader, None)
        except csv.Error as exc:
            raise SuiteError(f"{path}:{reader.line_num}:1: not valid CSV: {exc}") from None
        if cells is None:
            break
        end = reader.line_num
        if not cells or not any(c.strip() for c in cells):
            continue
        if len(cells) > MAX_COLUMNS:
            raise SuiteError(f"{path}:{start}:1: {len(cells):,} columns; at most {MAX_COLUMNS}.")
        record = "".join(lines[start - 1 : end])
        offsets = _cell_starts(record)

        def at(
            column: int, start: int = start, record: str = record, offs: list[int] = offsets
        ) -> str:
            offset = offs[column] if column < len(offs) else 0
            before = record[:offset]
            line = start + before.count("\n") + before.count("\r") - before.count("\r\n")
            col = offset - max(before.rfind("\n"), before.rfind("\r")) if offset else 1
            return f"{path}:{line}:{max(col, 1)}"

        if header is None:
            header = [c.strip().removeprefix("\ufeff") for c in cells]
            if "text" not in header:
                raise SuiteError(
                    f"{path}:{start}:1: the first row names the columns and needs 'text' "
                    f"(it has {', '.join(repr(h[:40]) for h in header[:10])})."
                )
            continue
        check_count(path, len(cases) + 1)
        row = {name: cells[i] for i, name in enumerate(header) if i < len(cells)}
        row = {k: v for k, v in row.items() if k in REACH_KEYS - {"query_id", "query"}}
        columns = {name: i for i, name in enumerate(header)}

        def where(
            key: str | None, at: Callable[[int], str] = at, cols: dict[str, int] = columns
        ) -> str:
            return at(cols.get(key, 0) if key else 0)

        cases.append(_reach_case(row, where, start, len(cases) + 1))
        wheres.append(where(None))
    return _rows_suite(path, cases, wheres)
