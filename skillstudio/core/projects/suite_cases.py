"""What every suite format becomes (`Case`, `Suite`), the bounds a suite file is read
within, and where a value sits in its file (for a diagnostic's line and column)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

import yaml

from ..model.text import counted
from ..reading import yaml_io
from ..reading.safefs import read_bytes

# exact: the selected set; triggers / not-triggers: one skill is (not) selected;
# likely: an `expect_likely:` case, run against the likely-candidates ranking
# (core/ranking/likely_ranking.py): it passes when one of the expected skills ranks in the top
# three (the evaluation's top-3); `none` passes when no skill is in the likely band;
# not-likely: only `expect_not:` (no skill named may be likely, or in the top N);
# reach: a skill-reach query: the first selected skill that is not one of its
# acceptable (neutral) skills is the expected one, or none is selected;
# model: only `expect_model:` (the model's pick when asked as the agent asks): `eval`
# judges it, `test` does not (PRODUCT.md section 7, "One meaning per key").
Mode = Literal["exact", "triggers", "not-triggers", "likely", "not-likely", "reach", "model"]

# Bounds on what one suite may ask for: more cases or longer requests than these are
# refused with a message (the text itself is bounded by yaml_io.SUITE: 4 MB, and
# 8 MB after aliases are expanded).
MAX_CASES = 10_000
MAX_QUERY_CHARS = 10_000
MAX_NAMES = 100  # skill names in one case's list (expect, expect_not, acceptable_skills)
MAX_NAME_CHARS = 200


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
    weight: float = 1.0  # its share in the per-skill statistics (waza's confidence)
    expect_not: list[str] = field(default_factory=list)  # none of these may be likely
    not_in_top: int | None = None  # ... nor, when given, among the first N ranked
    acceptable: list[str] = field(default_factory=list)  # reach: neutral when selected
    note: str = ""  # what the suite's author wrote beside the case (its YAML comments)
    kind: str = ""  # reach: implicit, contextual, neighbor_negative, out_of_scope
    # the names of `expect_likely:` and `expect_model:` when the case gives them (None:
    # not given; []: none), whatever its mode: `eval` judges expect_model, else
    # expect_likely (core/projects/eval_cases.py)
    likely: list[str] | None = None
    model: list[str] | None = None

    def expect_json(self) -> Any:
        if self.mode == "likely":
            return {"likely": self.expect or "none"}
        if self.mode == "model":
            return {"model": self.expect or "none"}
        if self.mode == "not-likely":
            return None
        if self.mode == "reach":
            return {"skill": self.expect[0] if self.expect else None, "kind": self.kind or None}
        if self.mode == "exact":
            if not self.expect:
                return "none"
            return self.expect[0] if len(self.expect) == 1 else self.expect
        return {"skill": self.expect[0], "should_trigger": self.mode == "triggers"}

    def ranks(self) -> bool:
        """Whether judging it ranks the likely candidates (the offline estimate)."""
        return (
            self.mode in ("likely", "not-likely")
            or bool(self.expect_not)
            or (self.likely is not None)
        )

    def negative_text(self) -> str:
        """`expect_not` in words: `not likely: a, b` or `not in the top 3: a`."""
        if not self.expect_not:
            return ""
        names = ", ".join(self.expect_not)
        if self.not_in_top:
            return f"not in the top {self.not_in_top}: {names}"
        return f"not likely: {names}"

    def expect_text(self) -> str:
        """The expectation in words: `pdf-summary`, `none`, `should trigger pdf-summary`."""
        if self.mode == "not-likely":
            return self.negative_text()
        if self.mode in ("exact", "reach"):
            said = ", ".join(self.expect) or "none"
        elif self.mode == "likely":
            said = "likely: " + (" or ".join(self.expect) or "none")
        elif self.mode == "model":
            said = "model: " + (" or ".join(self.expect) or "none")
        else:
            verb = "should trigger" if self.mode == "triggers" else "should not trigger"
            said = f"{verb} {self.expect[0]}"
        if self.acceptable:
            said += f" (neutral: {', '.join(self.acceptable)})"
        if self.expect_not:
            said += "; " + self.negative_text()
        return said


@dataclass(slots=True)
class Suite:
    path: str
    cases: list[Case]
    profile: str | None = None
    roots: list[str] = field(default_factory=list)
    kind: str = "suite"  # suite | eval_set | skill_lab | waza | skill_reach
    corpus: str | None = None  # an evaluation request set's folder of collections
    home: str = ""  # the folder it, its roots and its corpus must lie in (suite_home.py)
    # where its keys are written (`roots:`, `corpus:`), for a refusal's place
    located: Located | None = field(default=None, repr=False, compare=False)

    def place(self, *keys: str | int) -> str:
        """`path:line:column` of a key of the suite (the path alone when unknown)."""
        return self.located.at(*keys) if self.located is not None else self.path


def read_text(path: str, home: str) -> str:
    """A suite file's text, read only when it resolves inside `home` and is a regular
    file (safefs: opened non-blocking, checked again after the open), within yaml_io's
    bounds; every failure is a SuiteError that says why, never what the file holds."""
    try:
        raw = read_bytes(path, home, yaml_io.SUITE.size)
    except OSError as exc:
        raise SuiteError(f"{path}: cannot be read ({exc})") from None
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SuiteError(
            f"{path}:{line}:{column}: byte 0x{raw[exc.start]:02x} is not UTF-8; save the "
            "suite as UTF-8"
        ) from None


def parse(path: str, text: str, as_json: bool) -> tuple[Any, Located]:
    """The data of a suite's text (JSON or YAML), within bounds, and where its values
    sit; failures are SuiteErrors that say the line and column."""
    try:
        if as_json:
            return yaml_io.load_json(text, yaml_io.SUITE), Located(path, text)
        data, node = yaml_io.load_with_nodes(text, yaml_io.SUITE)
        return data, Located(path, text, node, composed=True)
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


def query_text(text: str, where: str) -> str:
    if len(text) > MAX_QUERY_CHARS:
        raise SuiteError(
            f"{where}: the query is {counted(len(text), 'character')}; at most {MAX_QUERY_CHARS:,}."
        )
    return text


def check_count(path: str, count: int) -> None:
    if count > MAX_CASES:
        raise SuiteError(
            f"{path}: {counted(count, 'case')}; a suite holds at most {MAX_CASES:,}. "
            "Split it into several files."
        )


T = TypeVar("T")


def checked(
    where: Callable[[str], str], key: str, check: Callable[..., T], value: Any, *rest: Any
) -> T:
    """`check(value, place, *rest)`, with the place of `key` (a line and column, which
    may mean composing the text) worked out only when the check fails."""
    try:
        return check(value, "\0", *rest)
    except SuiteError as exc:
        raise SuiteError(str(exc).replace("\0", where(key), 1)) from None


class Located:
    """Where a value of a YAML or JSON suite sits: `at("queries", 3, "kind")` is
    "path:line:column". The text is composed again only when a diagnostic needs it
    (JSON is read as YAML for this; a text that will not compose gives the path alone)."""

    def __init__(self, path: str, text: str, root: Any = None, composed: bool = False) -> None:
        self.path = path
        self.text = text
        self._root: Any = root
        self._tried = composed

    def _node(self) -> Any:
        if not self._tried:
            self._tried = True
            try:
                self._root = yaml_io.compose(self.text, yaml_io.SUITE)
            except (yaml.YAMLError, yaml_io.YamlRefused):
                self._root = None
        return self._root

    def line(self, *keys: str | int) -> int:
        node = self._find(keys)
        return node.start_mark.line + 1 if node is not None else 0

    def _find(self, keys: tuple[str | int, ...], key_node: bool = False) -> Any:
        node = self._node()
        found = node
        for number, key in enumerate(keys):
            if node is None:
                break
            nxt = None
            if isinstance(node, yaml.SequenceNode) and isinstance(key, int):
                nxt = node.value[key] if 0 <= key < len(node.value) else None
            elif isinstance(node, yaml.MappingNode):
                last = key_node and number == len(keys) - 1
                nxt = next((k if last else v for k, v in node.value if k.value == key), None)
            if nxt is None:
                break  # the nearest node that exists
            node = found = nxt
        return found

    def key_at(self, *keys: str | int) -> str:
        """Where the last key itself is written (an unknown key)."""
        return self._mark(self._find(keys, key_node=True))

    def at(self, *keys: str | int) -> str:
        return self._mark(self._find(keys))

    def _mark(self, node: Any) -> str:
        if node is None:
            return self.path
        mark = node.start_mark
        return f"{self.path}:{mark.line + 1}:{mark.column + 1}"

    def item_lines(self, key: str) -> list[int]:
        """The line of each item of the top-level list `key`: from the node tree of a
        YAML text; a JSON text is scanned item by item instead (composing it as YAML
        costs more than reading it)."""
        if not self._tried:
            lines = _json_item_lines(self.text, key)
            if lines is not None:
                return lines
        node = self._find((key,))
        if not isinstance(node, yaml.SequenceNode):
            return []
        return [item.start_mark.line + 1 for item in node.value]


_BLANK = re.compile(r"[ \t\n\r]*")


def _skip(text: str, at: int) -> int:
    """Past the blanks at `at`."""
    found = _BLANK.match(text, at)
    return found.end() if found else at


def _json_item_lines(text: str, key: str) -> list[int] | None:
    """The line of each item of a JSON object's list `key`, by decoding the text one
    value at a time (the text is known to be valid JSON within bounds); None when the
    shape is not that."""
    decode = json.JSONDecoder().raw_decode
    try:
        at = _skip(text, 0)
        if text[at : at + 1] != "{":
            return None
        at = _skip(text, at + 1)
        while text[at : at + 1] == '"':
            name, at = decode(text, at)
            at = _skip(text, _skip(text, at) + 1)  # past the ':'
            if name == key and text[at : at + 1] == "[":
                lines: list[int] = []
                line, counted_to = 1, 0
                at = _skip(text, at + 1)
                while text[at : at + 1] not in ("]", ""):
                    line += text.count("\n", counted_to, at)
                    counted_to = at
                    lines.append(line)
                    _item, at = decode(text, at)
                    at = _skip(text, at)
                    if text[at : at + 1] == ",":
                        at = _skip(text, at + 1)
                return lines
            _value, at = decode(text, at)
            at = _skip(text, at)
            if text[at : at + 1] == ",":
                at = _skip(text, at + 1)
    except (ValueError, RecursionError):
        return None
    return None


def name_list(value: Any, where: str, what: str, allow_text: bool = True) -> list[str]:
    """A list of skill names (or one name when `allow_text`), each bounded."""
    if value is None:
        return []
    if isinstance(value, str) and allow_text:
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SuiteError(f"{where}: '{what}' must be a list of skill names.")
    if len(value) > MAX_NAMES:
        raise SuiteError(
            f"{where}: '{what}' names {counted(len(value), 'skill')}; at most {MAX_NAMES}."
        )
    names = [v.strip() for v in value if v.strip()]
    if any(len(n) > MAX_NAME_CHARS for n in names):
        raise SuiteError(f"{where}: a name in '{what}' is over {MAX_NAME_CHARS} characters.")
    return names


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
