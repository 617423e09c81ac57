"""Where a diagnostic stands, in the editor's terms.

SkillStudio's lines and columns are 1-based and count characters (code points). The
Language Server Protocol counts from 0, and its columns are code units of the encoding
agreed at initialize: UTF-16 unless the client offers UTF-8 (or UTF-32). A diagnostic
carries one point; its range runs to the end of what stands there: the key when it
points at a key, the value when it points at a one-line value, else the rest of the
line (trailing spaces left out). Diagnostics of one code and field on one line (each
entry of an `allowed-tools` text) do not overlap: each ends where the next begins, so
the cursor on an entry finds that entry's diagnostic and its fix alone.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence

from lsprotocol import types

from ..core.model.diagnostics import Diagnostic
from ..core.model.positions import FieldPos

Units = Callable[[str], int]  # the code units a piece of text takes in the client's encoding


def utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def utf8_units(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def units_for(encoding: str | None) -> Units:
    """How to count a line's prefix for the position encoding agreed with the client."""
    if encoding == types.PositionEncodingKind.Utf8:
        return utf8_units
    if encoding == types.PositionEncodingKind.Utf32:
        return len
    return utf16_units


def characters(line: str, units: int, count: Units) -> int:
    """The character index in `line` of a client column (`units` code units in)."""
    if count is len:
        return min(units, len(line))
    used = 0
    for index, char in enumerate(line):
        if used >= units:
            return index
        used += count(char)
    return len(line)


def position(lines: Sequence[str], line: int, column: int, count: Units) -> types.Position:
    """An LSP position from a 0-based line and character index (clamped to the text)."""
    if not lines:
        return types.Position(line=0, character=0)
    line = max(0, min(line, len(lines) - 1))
    text = lines[line]
    return types.Position(line=line, character=count(text[: max(0, min(column, len(text)))]))


def diagnostic_span(
    diag: Diagnostic, lines: Sequence[str], positions: dict[str, FieldPos]
) -> tuple[int, int, int, int]:
    """(line, start, end line, end) of a diagnostic, 0-based, in characters."""
    if diag.line <= 0 or not lines:
        first = lines[0] if lines else ""
        return (0, 0, 0, len(first.rstrip()))
    line = min(diag.line, len(lines)) - 1
    start = max(diag.column - 1, 0)
    text = lines[line]
    pos = positions.get(diag.field) if diag.field else None
    if pos is not None:
        if (diag.line, diag.column) == (pos.key_line, pos.key_column):
            return (line, start, line, min(start + len(diag.field or ""), len(text)))
        if (diag.line, diag.column) == (pos.value_line, pos.value_column) and (
            pos.end_line == pos.value_line and pos.end_column > pos.value_column
        ):
            return (line, start, line, min(pos.end_column - 1, len(text)))
    end = len(text.rstrip())
    if end <= start:  # a point at the end of a line: the character before it
        return (line, max(0, min(start, len(text)) - 1), line, min(start, len(text)))
    return (line, start, line, end)


def diagnostic_range(
    diag: Diagnostic, lines: Sequence[str], positions: dict[str, FieldPos], count: Units
) -> types.Range:
    line, start, end_line, end = diagnostic_span(diag, lines, positions)
    return types.Range(
        start=position(lines, line, start, count), end=position(lines, end_line, end, count)
    )


def diagnostic_ranges(
    diags: Sequence[Diagnostic], lines: Sequence[str], positions: dict[str, FieldPos], count: Units
) -> list[types.Range]:
    """The range of each diagnostic (`diagnostic_span`), a one-line range cut where the
    next diagnostic of the same code and field on its line begins (the blanks and
    commas before that left out)."""
    spans = [diagnostic_span(d, lines, positions) for d in diags]
    starts: dict[tuple[str, str | None, int], list[int]] = {}
    for diag, (line, start, _end_line, _end) in zip(diags, spans, strict=True):
        starts.setdefault((diag.code, diag.field, line), []).append(start)
    for found in starts.values():
        found.sort()
    out: list[types.Range] = []
    for diag, (line, start, end_line, end) in zip(diags, spans, strict=True):
        if end_line == line:
            later = starts[(diag.code, diag.field, line)]
            index = bisect_right(later, start)
            if index < len(later) and later[index] < end:
                cut = lines[line][start : later[index]].rstrip(" \t,")
                end = start + max(len(cut), 1)
        out.append(
            types.Range(
                start=position(lines, line, start, count), end=position(lines, end_line, end, count)
            )
        )
    return out


def text_lines(text: str) -> list[str]:
    """The document's lines as LSP counts them (a line ends at \\n, \\r\\n or \\r),
    without their endings."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
