"""Reads a SKILL.md into frontmatter text, parsed mapping, body and positions.

Reading is the hot path of every scan, so the common case does as little as
possible: one read, one decode, one regex for the closing fence and one call
into libyaml.  Exact key positions come from a second, lazy pass (`compose`)
that only runs when something needs a line and column.
"""

from __future__ import annotations

import os
import re
import stat
from typing import Any

import yaml

from ..model.document import Document, Problem
from ..model.paths import FileRefused
from ..model.positions import FieldPos
from ..model.text import counted
from . import yaml_io
from .fastyaml import fast_load
from .safefs import OPEN_FLAGS, FileOutside, kind, opened_inside

_Loader: Any = yaml_io.LOADER  # the C loader (older imports); read through yaml_io

MAX_FILE_BYTES = 1024 * 1024
BOM = "\ufeff"

_TOP_KEY = re.compile(r"^([A-Za-z0-9_][^:\n]*?)[ \t]*:(?=[ \t]|\r?$)", re.M)
_FALLBACK_KEY = re.compile(r"^(name|description)[ \t]*:[ \t]*(.*?)[ \t]*\r?$", re.M)

_YAML_HINTS = (
    ("mapping values are not allowed", "a value that contains ': ' must be put in quotes"),
    ("cannot start any token", "use spaces, not tabs, and quote values starting with @ or `"),
    ("could not find expected ':'", "every line needs 'key: value'; quote long values"),
    ("found undefined alias", "define the anchor (&name) before using it (*name)"),
    ("did not find expected key", "check the indentation of this block"),
    ("found unexpected end of stream", "a quote or bracket is not closed"),
    ("found duplicate anchor", "give each anchor (&name) a different name"),
    ("could not determine a constructor", "remove the '!' tag; only plain YAML is read"),
)


def read_document(path: str, size_hint: int | None = None, root: str | None = None) -> Document:
    """Read and parse one file; every failure becomes a Problem, never an exception.

    `root`: the resolved folder the file must lie in (a skill's root). The file that
    was opened is checked (reading/safefs.py `opened_inside`), so a link to a file
    outside, swapped in since discovery, is not read."""
    doc = Document(path=path)
    try:
        size = size_hint if size_hint is not None else os.stat(path).st_size
        if size > MAX_FILE_BYTES:
            return too_large(doc, size)
        raw = read_bounded(path, size, root)
    except FileOutside as exc:
        doc.readable = False
        doc.problems.append(
            Problem(
                "symlink-skipped",
                f"{exc.reason[:1].upper()}{exc.reason[1:]}, the skill's root; it was not read.",
            )
        )
        return doc
    except OSError as exc:
        doc.readable = False
        doc.problems.append(
            Problem("unreadable", f"The file could not be read ({exc.strerror or exc}).")
        )
        return doc
    if len(raw) > MAX_FILE_BYTES:  # grew between stat and read
        return too_large(doc, None)
    parse_bytes(doc, raw)
    return doc


def too_large(doc: Document, size: int | None) -> Document:
    """`doc` not parsed, with the one `file-too-large` problem every reader gives (a
    file on disk, the editor's unsaved text); `size` in bytes, None when it is only
    known to be over the limit (a file that grew as it was read)."""
    what = human_size(size) if size is not None else f"over {human_size(MAX_FILE_BYTES)}"
    doc.readable = False
    doc.problems.append(
        Problem(
            "file-too-large",
            f"The file is {what}; files over {human_size(MAX_FILE_BYTES)} are not parsed. "
            "Move long material into files beside SKILL.md and link to them.",
        )
    )
    return doc


def parse_bounded(doc: Document, text: str) -> Document:
    """`parse_text` for text as bounded as a file: over MAX_FILE_BYTES in UTF-8 it is
    not parsed (the editor's unsaved text reads as the file saved with it would).
    Text of a quarter of the limit or less is not encoded to be measured."""
    size = (
        len(text) if len(text) * 4 <= MAX_FILE_BYTES else len(text.encode("utf-8", "surrogatepass"))
    )
    return too_large(doc, size) if size > MAX_FILE_BYTES else parse_text(doc, text)


def read_bounded(path: str, size: int, root: str | None = None) -> bytes:
    """The file's bytes, at most MAX_FILE_BYTES + 1; with `root` (a resolved folder),
    refused (FileOutside) unless the file opened lies inside it.

    os.read skips the buffered-reader objects open() builds (about 7 µs a file);
    it asks for the size we expect and reads on, bounded, when the file grew
    since it was measured.
    """
    fd = os.open(path, OPEN_FLAGS)  # O_NONBLOCK: a FIFO or device cannot block
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileRefused(path, f"it is {kind(mode)}, not a regular file")
        if root is not None:
            opened_inside(fd, path, root)
        chunks = [os.read(fd, size + 1)]
        total = len(chunks[0])
        while total > size and total <= MAX_FILE_BYTES:
            chunk = os.read(fd, MAX_FILE_BYTES + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        return b"".join(chunks) if len(chunks) > 1 else chunks[0]
    finally:
        os.close(fd)


def human_size(size: int) -> str:
    if size < 1024:
        return counted(size, "byte")
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size / (1024 * 1024):.1f} MB".replace(".0 MB", " MB")


_UTF_BOMS = (  # longest first: UTF-32's little-endian mark starts with UTF-16's
    (b"\xff\xfe\x00\x00", "UTF-32", "FF FE 00 00"),
    (b"\x00\x00\xfe\xff", "UTF-32", "00 00 FE FF"),
    (b"\xff\xfe", "UTF-16", "FF FE"),
    (b"\xfe\xff", "UTF-16", "FE FF"),
)


def _wide_encoding(raw: bytes) -> str | None:
    """What a UTF-16 or UTF-32 file is, in words ("UTF-16 (it starts with the byte-order
    mark FF FE)"), or None. Without a mark, text whose every other byte is NUL."""
    if raw[:1] not in (b"\xff", b"\xfe", b"\x00") and b"\x00" not in raw[:8192]:
        return None  # (the common case, at the cost of one scan for NUL)
    for mark, name, shown in _UTF_BOMS:
        if raw.startswith(mark):
            return f"{name} (it starts with the byte-order mark {shown})"
    head = raw[:512]
    if len(head) >= 8:
        even, odd = head[0::2], head[1::2]
        if odd.count(0) >= 0.9 * len(odd) and not even.count(0):
            return "UTF-16 (every other byte is 0, as in UTF-16 little-endian)"
        if even.count(0) >= 0.9 * len(even) and not odd.count(0):
            return "UTF-16 (every other byte is 0, as in UTF-16 big-endian)"
    return None


def parse_bytes(doc: Document, raw: bytes) -> Document:
    wide = _wide_encoding(raw)
    if wide is not None:
        doc.readable = False
        doc.problems.append(
            Problem("not-utf8", f"This file is {wide}; save it as UTF-8 (agents read UTF-8).")
        )
        return doc
    if b"\x00" in raw[:8192]:
        doc.readable = False
        doc.problems.append(
            Problem(
                "not-utf8",
                "This is a binary file, not text. A SKILL.md must be UTF-8 markdown.",
            )
        )
        return doc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        doc.readable = False
        doc.problems.append(
            Problem(
                "not-utf8",
                f"Byte 0x{raw[exc.start]:02x} is not UTF-8. Save the file as UTF-8 "
                "(it may be Latin-1 or Windows-1252 text).",
                line,
                column,
            )
        )
        return doc
    return parse_text(doc, text)


def parse_text(doc: Document, text: str) -> Document:
    """Split `text` (may start with a BOM) into frontmatter and body, and load the YAML."""
    doc.position_reader = compose_positions
    if text.startswith(BOM):
        doc.bom = True
        doc.encoding = "utf-8-sig"
        text = text[1:]
    doc.text = text
    if "\r" in text:
        crlf = text.count("\r\n")
        if crlf and crlf * 2 >= text.count("\n"):
            doc.newline = "\r\n"
    first_nl = text.find("\n")
    first_line = text if first_nl < 0 else text[:first_nl]
    if first_line.rstrip(" \t\r") != "---":
        cr_only = first_line.startswith("---\r")  # and more on the same "line"
        doc.problems.append(
            Problem(
                "frontmatter-missing",
                "This file uses old Mac line endings (CR only), so agents read it as one "
                "line with no frontmatter; save it with LF or CRLF line endings."
                if cr_only
                else "The file must start with a line '---', then the YAML fields "
                "(name, description, ...), then another '---' line.",
            )
        )
        doc.body_offset = 0
        doc.body_line = 1
        return doc
    doc.has_frontmatter = True
    start = len(text) if first_nl < 0 else first_nl + 1
    close = _closing_fence(text, start)
    if close is None:
        doc.fm_text = text[start:]
        doc.problems.append(
            Problem(
                "frontmatter-unclosed",
                "The frontmatter opened on line 1 is never closed: add a line '---' "
                "after the last field.",
            )
        )
        _fallback(doc)
        doc.body_offset = len(text)
        doc.body_line = text.count("\n") + 1
        return doc
    doc.closed = True
    close_start, end = close
    doc.fm_text = text[start:close_start]
    doc.fm_close_line = text.count("\n", 0, close_start) + 1
    if end < len(text) and text[end] == "\n":
        end += 1
    doc.body_offset = end
    doc.body_line = doc.fm_close_line + 1
    _load_yaml(doc)
    return doc


def _closing_fence(text: str, start: int) -> tuple[int, int] | None:
    """(start, end) of the first line from `start` on that is '---' plus blanks.

    A str.find loop: a MULTILINE regex anchored at '^' tries every character.
    """
    pos = start
    while True:
        if text.startswith("---", pos):
            line_end = text.find("\n", pos)
            stop = len(text) if line_end < 0 else line_end
            if not text[pos + 3 : stop].strip(" \t\r"):
                return pos, stop
        nxt = text.find("\n---", pos)
        if nxt < 0:
            return None
        pos = nxt + 1


def _load_yaml(doc: Document) -> None:
    fm = doc.fm_text
    fast = fast_load(fm, doc.fm_first_line)
    if fast is not None:
        doc.mapping, doc._raw_positions = fast
        return
    try:
        data = yaml_io.load(fm, yaml_io.FRONTMATTER)
    except yaml.MarkedYAMLError as exc:
        message, line, column = _yaml_error(exc, doc.fm_first_line, fm.count("\n"))
        doc.problems.append(Problem("yaml-invalid", message, line, column))
        _fallback(doc)
        return
    except yaml_io.YamlRefused as exc:
        line = doc.fm_first_line + exc.line - 1 if exc.line else 1
        doc.problems.append(
            Problem("yaml-invalid", f"The frontmatter {exc.message}.", line, exc.column or 1)
        )
        _fallback(doc)
        return
    except yaml.YAMLError as exc:
        doc.problems.append(
            Problem("yaml-invalid", f"The frontmatter could not be read as YAML: {exc}.")
        )
        _fallback(doc)
        return
    if data is None:
        data = {}
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else f"a single {type(data).__name__} value"
        doc.problems.append(
            Problem(
                "frontmatter-not-mapping",
                f"The frontmatter is {kind}; it must be 'key: value' lines "
                "such as 'name: my-skill'.",
                doc.fm_first_line,
                1,
            )
        )
        _fallback(doc)
        return
    mapping: dict[str, Any] = {}
    for key, value in data.items():
        if not isinstance(key, str):
            doc.problems.append(
                Problem(
                    "field-type",
                    f"The key {key!r} is read as {type(key).__name__}, not text; put it in quotes.",
                    doc.fm_first_line,
                    1,
                )
            )
            key = str(key)
        mapping[key] = value
    doc.mapping = mapping
    keys = _TOP_KEY.findall(fm)
    if len(keys) > len(mapping) or len(set(keys)) != len(keys):
        _, dups = compose_positions(fm, doc.fm_first_line)
        for key, line, column in dups:
            doc.problems.append(
                Problem(
                    "duplicate-key",
                    f"'{key}' is written twice; only the last value counts. Remove one of them.",
                    line,
                    column,
                    key,
                )
            )


def _yaml_error(exc: yaml.MarkedYAMLError, first_line: int, fm_lines: int) -> tuple[str, int, int]:
    """The message and the file line and column of a YAML error.

    libyaml marks where it gave up (problem mark) and where the construct it was
    reading began (context mark). When it gave up only at the end of the
    frontmatter (a quote or bracket never closed), the start is where the author
    must look; when the two differ, the message gives both.
    """
    problem = (exc.problem or exc.context or "invalid YAML").strip()
    hint = next((h for needle, h in _YAML_HINTS if needle in problem), "fix the YAML here")
    found, started = exc.problem_mark, exc.context_mark
    at_end = found is not None and (found.line >= fm_lines or "end of stream" in problem)
    primary = started if (started is not None and (found is None or at_end)) else found
    line = first_line + (primary.line if primary else 0)
    column = (primary.column + 1) if primary else 1
    where = ""
    if (
        found is not None
        and started is not None
        and exc.context
        and exc.problem
        and (found.line, found.column) != (started.line, started.column)
    ):
        where = (
            f" at line {first_line + found.line}, column {found.column + 1}, "
            f"{exc.context.strip()} that starts at line {first_line + started.line}, "
            f"column {started.column + 1}"
        )
    return f"The frontmatter is not valid YAML: {problem}{where} ({hint}).", line, column


def _fallback(doc: Document) -> None:
    doc.fallback, lines = extract_fallback(doc.fm_text)
    doc.fallback_pos = {key: (doc.fm_first_line + index, 1) for key, index in lines.items()}


def extract_fallback(fm_text: str) -> tuple[dict[str, str], dict[str, int]]:
    """Best-effort `name:` / `description:` lines when the YAML cannot be read.

    Returns the values and the 0-based line index of each key in `fm_text`.
    """
    found: dict[str, str] = {}
    where: dict[str, int] = {}
    lines = fm_text.splitlines()
    for match in _FALLBACK_KEY.finditer(fm_text):
        key, value = match.group(1), match.group(2)
        if key in found:
            continue
        index = fm_text.count("\n", 0, match.start())
        where[key] = index
        if value[:1] in ("|", ">"):
            block: list[str] = []
            for nxt in lines[index + 1 :]:
                if nxt.strip() and not nxt[:1].isspace():
                    break
                block.append(nxt.strip())
            joiner = "\n" if value[:1] == "|" else " "
            value = joiner.join(part for part in block if part or joiner == "\n").strip()
        elif len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        found[key] = value
    return found, where


def compose_positions(
    fm_text: str, first_line: int
) -> tuple[dict[str, FieldPos], list[tuple[str, int, int]]]:
    """Exact key/value/item positions by composing the YAML node tree."""
    try:
        root = yaml_io.compose(fm_text, yaml_io.FRONTMATTER)
    except (yaml.YAMLError, yaml_io.YamlRefused):
        return {}, []
    if not isinstance(root, yaml.MappingNode):
        return {}, []
    dups: list[tuple[str, int, int]] = []
    return _mapping_positions(root, first_line, dups, depth=0), dups


def _mapping_positions(
    node: yaml.MappingNode, first_line: int, dups: list[tuple[str, int, int]], depth: int
) -> dict[str, FieldPos]:
    out: dict[str, FieldPos] = {}
    for key_node, value_node in node.value:
        key = str(key_node.value) if isinstance(key_node, yaml.ScalarNode) else "?"
        km, vm, ve = key_node.start_mark, value_node.start_mark, value_node.end_mark
        pos = FieldPos(
            km.line + first_line,
            km.column + 1,
            vm.line + first_line,
            vm.column + 1,
            ve.line + first_line,
            ve.column + 1,
        )
        if isinstance(value_node, yaml.SequenceNode) and value_node.value:
            pos.items = [
                (item.start_mark.line + first_line, item.start_mark.column + 1)
                for item in value_node.value
            ]
        elif isinstance(value_node, yaml.MappingNode) and depth < 2:
            pos.children = _mapping_positions(value_node, first_line, [], depth + 1)
        if key in out and depth == 0:
            dups.append((key, pos.key_line, pos.key_column))
        out[key] = pos
    return out
