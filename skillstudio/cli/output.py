"""Formatting of command results: compiler-style text, JSON and SARIF 2.1.0."""

from __future__ import annotations

import datetime as _dt
import json
import os
from typing import Any

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


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=2)


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
