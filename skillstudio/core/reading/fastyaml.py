"""A strict fast path for the YAML that nearly every SKILL.md frontmatter is.

It accepts only top-level `key: scalar` lines and block lists of scalars,
resolves scalars with PyYAML's own implicit-resolver table, and returns None
(meaning "ask libyaml") for anything else: flow collections, block scalars,
anchors, tags, multi-line plain scalars, escapes, comments after values,
typed values other than plain decimal integers, duplicate keys.

Why: libyaml's Python-level constructor costs ~80 µs for a typical
frontmatter, four times what reading the file costs; this costs a fraction,
and it records exact key, value and item positions on the way.
A differential test (hypothesis) checks it agrees with `yaml.load` on every
input it accepts.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from ..model.document import RawPos
from .yaml_io import FRONTMATTER, MAX_INT_CHARS, PLAIN_START_BAD, resolved_tag

_KEY_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?$")
_ITEM_LINE = re.compile(r"( *)- +(.*)$")
_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)$")
# Characters that make libyaml treat a line specially or reject the text.
_UNSAFE_TEXT = re.compile(
    "[\t\r\x85\u2028\u2029\ufeff\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]"
)
_INT_TAG = "tag:yaml.org,2002:int"


class _Bail(Exception):
    pass


_PLAIN_KEYS: dict[str, bool] = {}


def _plain_key(key: str) -> bool:
    """Whether libyaml reads this key as text (keys repeat across files: cached)."""
    known = _PLAIN_KEYS.get(key)
    if known is None:
        known = resolved_tag(key) is None
        if len(_PLAIN_KEYS) < 4096:
            _PLAIN_KEYS[key] = known
    return known


def _scalar(raw: str) -> Any:
    """One scalar as written after `key: ` or `- ` (already stripped of the newline)."""
    text = raw.rstrip(" ")
    if not text:
        raise _Bail
    first = text[0]
    if first == "'":
        if len(text) < 2 or text[-1] != "'":
            raise _Bail
        inner = text[1:-1]
        if "'" in inner.replace("''", ""):
            raise _Bail
        return inner.replace("''", "'")
    if first == '"':
        if len(text) < 2 or text[-1] != '"':
            raise _Bail
        inner = text[1:-1]
        if "\\" in inner or '"' in inner:
            raise _Bail
        return inner
    if first in PLAIN_START_BAD or ": " in text or " #" in text or text.endswith(":"):
        raise _Bail
    tag = resolved_tag(text)
    if tag is None:
        return text
    if tag == _INT_TAG and len(text) <= MAX_INT_CHARS and _INT.match(text):
        return int(text)
    raise _Bail


# Positions are plain tuples (key line, key column, value line, value column,
# end line, end column, item positions); FieldPos objects are built on demand.


def fast_load(text: str, first_line: int) -> tuple[dict[str, Any], dict[str, RawPos]] | None:
    """(mapping, raw positions) for simple frontmatter, or None to use the full YAML loader."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    if _UNSAFE_TEXT.search(text):
        return None
    try:
        return _parse(text, first_line)
    except _Bail:
        return None


def _parse(text: str, first_line: int) -> tuple[dict[str, Any], dict[str, RawPos]]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    mapping: dict[str, Any] = {}
    positions: dict[str, RawPos] = {}
    index = 0
    count = len(lines)
    while index < count:
        line = lines[index]
        stripped = line.lstrip(" ")
        if not stripped or stripped[0] == "#":
            if stripped and line[0] == " ":
                raise _Bail  # an indented comment may sit inside a construct
            index += 1
            continue
        if line[0] == " ":
            raise _Bail
        match = _KEY_LINE.match(line)
        if match is None:
            raise _Bail
        # one string a key name for every file (interned: 50,000 keys of 10,000 skills
        # were as many strings, 3 MB, and an unknown key's note holds it too)
        key, raw = sys.intern(match.group(1)), match.group(2)
        if key in mapping or len(key) > 128 or not _plain_key(key):
            raise _Bail
        if len(mapping) >= FRONTMATTER.keys:
            raise _Bail  # the bounded loader says how many keys are too many
        file_line = first_line + index
        if raw is not None and raw.strip(" "):
            value_col = match.start(2) + 1
            mapping[key] = _scalar(raw)
            positions[key] = (
                file_line,
                1,
                file_line,
                value_col,
                file_line,
                len(line.rstrip(" ")) + 1,
                [],
            )
            index += 1
            continue
        # A key with nothing after it: a block list follows, or the value is null.
        items: list[Any] = []
        item_pos: list[tuple[int, int]] = []
        indent: int | None = None
        nxt = index + 1
        while nxt < count:
            candidate = lines[nxt]
            bare = candidate.lstrip(" ")
            if not bare:
                nxt += 1
                continue
            if bare[0] == "#":
                raise _Bail
            item = _ITEM_LINE.match(candidate)
            if item is None:
                if candidate[0] == " ":
                    raise _Bail  # a nested mapping or a continuation line
                break
            width = len(item.group(1))
            if indent is None:
                indent = width
            elif width != indent:
                raise _Bail
            if len(items) >= FRONTMATTER.items:
                raise _Bail  # the bounded loader says how many items are too many
            items.append(_scalar(item.group(2)))
            item_pos.append((first_line + nxt, item.start(2) + 1))
            nxt += 1
        if items:
            last_line = item_pos[-1][0]
            mapping[key] = items
            positions[key] = (
                file_line,
                1,
                item_pos[0][0],
                (indent or 0) + 1,
                last_line,
                len(lines[last_line - first_line].rstrip(" ")) + 1,
                item_pos,
            )
        else:
            if nxt > index + 1 and nxt < count:
                raise _Bail  # blank lines then a key: let libyaml decide
            mapping[key] = None
            positions[key] = (file_line, 1, file_line, len(line) + 1, file_line, len(line) + 1, [])
        index = nxt
    return mapping, positions
