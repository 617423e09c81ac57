"""The fix of an unknown key a profile says to keep under 'metadata:' (`unknown-field`).

The key's lines (its value in any YAML form, the comment after it) are cut and put,
indented, inside `metadata:`: at the end of its block mapping when there is one, in
place of an empty `metadata:` / `metadata: {}`, or as a new `metadata:` where the key
stood. Every other byte stays. The fix is safe when the fixed text reads back to the
same values with the key moved, unsafe otherwise; `blocker` says why no fix is
offered (a `metadata` that is not a mapping, or that already has the key).
"""

from __future__ import annotations

from typing import Any

from ..model.diagnostics import Diagnostic
from ..model.document import Document
from ..model.fixes import FixPlan, TextEdit, apply_edits
from ..reading.frontmatter import parse_text
from .fix_plans import register

MOVE_HINT = "under 'metadata:'"  # the profiles whose message says so get the fix


def blocker(mapping: dict[str, Any], key: str) -> str | None:
    """Why `key` cannot be moved under `metadata` automatically, or None."""
    if "metadata" not in mapping or key == "metadata":
        return None
    meta = mapping["metadata"]
    if meta is not None and not isinstance(meta, dict):
        return "'metadata' is not a mapping here, so no fix moves it there"
    if isinstance(meta, dict) and key in meta:
        return f"'metadata' already has a '{key}', so no fix moves it there"
    return None


def _lines(doc: Document) -> list[str]:
    return doc.text.splitlines(keepends=True)


def _block(doc: Document, lines: list[str], key: str) -> tuple[int, int] | None:
    """The 0-based line range [first, last) of the top-level `key` and its value
    (the lines after it that are indented or blank, trailing blank lines left out)."""
    pos = doc.positions().get(key)
    if pos is None or pos.key_column != 1:
        return None
    first = pos.key_line - 1
    close = doc.fm_close_line - 1 if doc.fm_close_line else len(lines)
    # the value's last line (1-based): its end mark, or the line before when the mark
    # stands at the start of the next line (a block scalar or mapping ends there)
    through = pos.end_line if pos.end_column > 1 else pos.end_line - 1
    last = first + 1
    while last < close and (last < through or not lines[last].strip() or lines[last][0] in " \t"):
        last += 1
    while last > first + 1 and not lines[last - 1].strip():
        last -= 1
    return first, last


def _offset(lines: list[str], line: int) -> int:
    return sum(len(text) for text in lines[:line])


def _indent(text: str, pad: str) -> str:
    return "".join(pad + line if line.strip() else line for line in text.splitlines(True))


def _edits(doc: Document, key: str) -> list[TextEdit] | None:
    """The text edits that move `key` under `metadata`, or None when its form is not
    one this fix handles (a non-empty flow mapping, a key not at the margin)."""
    lines = _lines(doc)
    mapping = doc.mapping or {}
    moved = _block(doc, lines, key)
    if moved is None:
        return None
    start, end = _offset(lines, moved[0]), _offset(lines, moved[1])
    block = "".join(lines[moved[0] : moved[1]])
    if not block.endswith("\n"):
        block += doc.newline
    if "metadata" not in mapping:
        return [TextEdit(start, end, "metadata:" + doc.newline + _indent(block, "  "))]
    meta_lines = _block(doc, lines, "metadata")
    if meta_lines is None:
        return None
    meta = mapping["metadata"]
    if not meta:  # `metadata:`, `metadata: {}` (with any comment) become a block
        m_start, m_end = _offset(lines, meta_lines[0]), _offset(lines, meta_lines[1])
        head = lines[meta_lines[0]].rstrip("\r\n")
        mark = head.find("#")  # the value is empty, so a '#' starts its comment
        comment = head[len(head[:mark].rstrip()) :] if mark > 0 else ""
        new = f"metadata:{comment}{doc.newline}{_indent(block, '  ')}"
        return [TextEdit(m_start, m_end, new), TextEdit(start, end, "")]
    if meta_lines[1] - meta_lines[0] < 2:
        return None  # a flow mapping on the key's line: not rewritten
    children = lines[meta_lines[0] + 1 : meta_lines[1]]
    child = next(line for line in children if line.strip() and line.lstrip()[0] != "#")
    pad = child[: len(child) - len(child.lstrip(" "))] or "  "
    at = _offset(lines, meta_lines[1])
    return [TextEdit(at, at, _indent(block, pad)), TextEdit(start, end, "")]


@register("unknown-field")
def plan_move_to_metadata(doc: Document, diagnostic: Diagnostic) -> list[FixPlan]:
    """Move an unknown key under `metadata:` when the profile's message says to."""
    key = diagnostic.field
    mapping = doc.mapping
    if MOVE_HINT not in diagnostic.message or key is None or mapping is None:
        return []
    if key not in mapping or key == "metadata" or blocker(mapping, key) is not None:
        return []
    edits = _edits(doc, key)
    if edits is None:
        return []
    after = parse_text(Document(path=doc.path), apply_edits(doc.text, edits)).mapping
    if after is None:
        return []
    expected = {k: v for k, v in mapping.items() if k != key}
    expected["metadata"] = {**(mapping.get("metadata") or {}), key: mapping[key]}
    title = f"Move '{key}' under 'metadata:'"
    return [FixPlan(title, safe=after == expected, edits=tuple(edits), reads_as=after)]
