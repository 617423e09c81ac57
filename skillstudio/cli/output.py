"""Formatting of command results: compiler-style text, JSON and SARIF 2.1.0."""

from __future__ import annotations

import datetime as _dt
import json
import os
import re
from typing import Any, TextIO, cast

from .. import __version__
from ..core.checking.lookalike import ESCAPED
from ..core.model.diagnostics import CODES, Diagnostic


def rel(path: str, cwd: str) -> str:
    """A path as the user would type it: relative when it lies under the cwd."""
    if not path:
        return path
    try:
        relative = os.path.relpath(path, cwd)
    except ValueError:
        return path
    return path if relative.startswith("..") else relative


_CONTROL = {n: f"\\x{n:02x}" for n in (*range(32), *range(0x80, 0xA0))} | {
    10: "\\n",
    13: "\\r",
    9: "\\t",
    0x7F: "\\x7f",
    0x85: "\\x85",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}
# bidi controls (which reorder the terminal's line) and invisible characters, and
# lone surrogates (a file name that is not UTF-8), which a terminal cannot print
_CONTROL |= {n: f"\\u{n:04x}" for n in (*ESCAPED, *range(0xD800, 0xE000))}


def printable(text: str) -> str:
    """One line of text: control characters (a newline in a folder name), bidi controls
    and invisible characters (core/checking/lookalike.py) escaped."""
    return text.translate(_CONTROL)


def printable_lines(text: str) -> str:
    """`printable` for each line of a text of several lines."""
    return "\n".join(printable(line) for line in text.split("\n"))


_BLOCK = {n: shown for n, shown in _CONTROL.items() if n not in (9, 10, 13)}
_LONE_CR = re.compile("\r(?!\n)")


def _class(codes: list[int]) -> re.Pattern[str]:
    """A regular expression matching any of `codes` (as ranges: a fast scan)."""
    ranges: list[tuple[int, int]] = []
    for code in sorted(codes):
        if ranges and code == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    parts = (f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in ranges)
    return re.compile("[" + "".join(parts) + "]")


_UNSAFE = _class([*_BLOCK, 13])


def printable_block(text: str) -> str:
    """`printable` for a block of text shown as it is (a tier's text, a skill's body):
    newlines, tabs and CRLF line ends kept (they move no text already shown), a lone
    carriage return escaped (it would let the rest of a line overwrite its start)."""
    if _UNSAFE.search(text) is None:
        return text
    return _LONE_CR.sub("\\\\r", text).translate(_BLOCK)


class Escaping:
    """A command's stdout or stderr (main.main wraps both): whatever is written goes
    through `printable_block`, so no text a skill, a suite or a configuration holds can
    reach the terminal or a CI log as an escape sequence, whichever command writes it.
    Text already made `printable` passes unchanged; JSON passes unchanged (`dumps`
    writes those characters as \\u escapes)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(printable_block(text))

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return bool(getattr(self.stream, "isatty", lambda: False)())

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def escaping(stream: TextIO) -> TextIO:
    """`stream` behind `Escaping` (typed as the stream it stands for)."""
    return stream if isinstance(stream, Escaping) else cast("TextIO", Escaping(stream))


def diagnostic_line(diag: Diagnostic, cwd: str) -> str:
    """`file:line:col: severity code: message`, always on one line."""
    where = rel(diag.path, cwd)
    if diag.line:
        where += f":{diag.line}:{diag.column or 1}"
    return printable(f"{where}: {diag.severity} {diag.code}: {diag.message}")


def json_safe(value: Any, depth: int = 0) -> Any:
    """Frontmatter values as JSON (dates as ISO text, depth bounded)."""
    if depth > 32:
        return "…"
    if isinstance(value, dict):
        return {str(k): json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v, depth + 1) for v in value]
    if isinstance(value, _dt.date | _dt.datetime):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


# in JSON, the characters `printable` escapes that json.dumps leaves as they are
# (DEL, C1 controls, bidi and invisible characters, line separators, lone surrogates)
_JSON = _class([n for n in _CONTROL if n >= 0x7F])


def dumps(obj: Any) -> str:
    """JSON text with no raw control, bidi or invisible character (written as \\u
    escapes: the same JSON), so that it passes `Escaping` unchanged."""
    text = json.dumps(obj, ensure_ascii=False, indent=2)
    if _JSON.search(text) is None:
        return text
    return _JSON.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def sarif(diagnostics: list[Diagnostic], cwd: str) -> dict[str, Any]:
    used = sorted({d.code for d in diagnostics})
    level = {"error": "error", "warning": "warning", "info": "note"}
    results = []
    for diag in diagnostics:
        region: dict[str, int] = {}
        if diag.line:
            region = {"startLine": diag.line, "startColumn": diag.column or 1}
        location: dict[str, Any] = {"artifactLocation": {"uri": rel(diag.path, cwd)}}
        if region:
            location["region"] = region
        results.append(
            {
                "ruleId": diag.code,
                "level": level[diag.severity],
                "message": {"text": diag.message},
                "locations": [{"physicalLocation": location}],
            }
        )
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "SkillStudio",
                        "version": __version__,
                        "rules": [
                            {"id": code, "shortDescription": {"text": CODES.get(code, code)}}
                            for code in used
                        ],
                    }
                },
                "results": results,
            }
        ],
    }
