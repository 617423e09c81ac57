"""Round-trip frontmatter edits: change exactly what was edited, nothing else.

The changes are applied to the parsed mapping first (changes.py): that is the
intended mapping. The writer composes the frontmatter with libyaml to get the
exact span of every key, value and list item, then splices new text into those
spans (splices.py, one strategy per shape of edit): a single-line scalar keeps
its key, spacing, quoting style and trailing comment; a list item edit replaces
that item only; a new key goes where the profile's field order puts it, else
after the last key; a removed key takes only its own lines. Every result is
re-parsed and must equal the intended mapping, or nothing is returned.

Why not a round-trip YAML library: measured against these rules, ruamel.yaml
re-indents sequences, re-wraps long scalars and normalizes spacing after
colons on dump; splicing into libyaml's marks changes only the edited bytes.
"""

from __future__ import annotations

from typing import Any

from ..model.document import Document
from ..reading.frontmatter import BOM, parse_text
from ..reading.yaml_io import EditError, key_text, value_lines
from .changes import Change, apply_change
from .splices import Entry, replace_entry, top_entries


def apply_changes(
    doc: Document,
    changes: list[Change],
    body: str | None = None,
    order: list[str] | None = None,
) -> str:
    """The new file text (BOM included) for `doc` with `changes` and an optional new body.

    `order` is the profile's field order: a new key it declares goes before the
    first existing key it declares later (name before description, and so on);
    any other new key goes after the last key.
    """
    newline = doc.newline
    text = doc.text
    if not changes:
        new_text = text if body is None else text[: doc.body_offset] + body
        return (BOM if doc.bom else "") + new_text
    if doc.has_frontmatter and (not doc.closed or doc.mapping is None):
        raise EditError(
            "the frontmatter cannot be parsed, so its fields cannot be edited safely; fix the "
            "YAML in the file first (the body can still be edited)"
        )
    fm_text = doc.fm_text
    if any(ch in fm_text for ch in "\x85\u2028\u2029") or "\r" in fm_text.replace("\r\n", ""):
        # libyaml counts these as line breaks and str.split does not: the marks
        # would point at the wrong lines.
        raise EditError(
            "the frontmatter contains line separators other than LF or CRLF (U+0085, U+2028, "
            "U+2029 or a lone CR); edit the file's text instead"
        )
    intended: dict[str, Any] = dict(doc.mapping or {})
    for change in changes:
        apply_change(intended, change)
    # one whole-key change per top-level key touched, in the order keys were first touched
    changes = [
        Change("set", key, intended[key]) if key in intended else Change("unset", key)
        for key in dict.fromkeys(c.key for c in changes)
    ]
    fm = doc.fm_text
    lines = fm.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    raw_lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    entries = {e.key: e for e in top_entries(fm, raw_lines)} if doc.has_frontmatter else {}
    out = list(raw_lines)
    # Edits are applied bottom-up so earlier line numbers stay valid.
    plan: list[tuple[int, int, list[str]]] = []  # (first, last, replacement lines)
    appended: list[str] = []
    rank = {key: index for index, key in enumerate(order or [])}
    for change in changes:
        entry = entries.get(change.key)
        if change.kind == "unset":
            if entry is not None:
                plan.append((entry.first, entry.last, []))
            continue
        if entry is None:
            head = f"{key_text(change.key)}:"
            vals = value_lines(change.value, "  ", newline, {})
            new_lines = [head + vals[0], *vals[1:]]
            before = _natural_place(change.key, rank, entries)
            if before is None:
                appended += new_lines
            else:
                plan.append((before, before - 1, new_lines))  # an insertion
            continue
        replacement = replace_entry(entry, change.value, raw_lines, newline)
        if replacement is not None:
            plan.append((entry.first, entry.last, replacement))
    # bottom-up; at one line, the entry there is rewritten before text is inserted above it
    for first, last, replacement in sorted(plan, key=lambda p: (p[0], p[1]), reverse=True):
        out[first : last + 1] = replacement
    if appended:
        anchor = _insert_at(out)
        out[anchor:anchor] = appended
    new_fm = newline.join(out) + (newline if out else "")
    if doc.has_frontmatter:
        head_end = text.find("\n") + 1
        close_start = head_end + len(fm)
        new_text = text[:head_end] + new_fm + text[close_start:]
        body_offset = len(text[:head_end]) + len(new_fm) + (doc.body_offset - close_start)
    else:
        prefix = f"---{newline}{new_fm}---{newline}"
        new_text = prefix + text
        body_offset = len(prefix)
    if body is not None:
        new_text = new_text[:body_offset] + body
    check = parse_text(Document(path=doc.path), new_text)
    if check.mapping is None or check.mapping != intended:
        got = check.mapping
        raise EditError(
            "the edited frontmatter would not read back as intended"
            + (f" (read back: {got!r})" if got is not None else "")
            + "; nothing was written"
        )
    return (BOM if doc.bom else "") + new_text


def _natural_place(key: str, rank: dict[str, int], entries: dict[str, Entry]) -> int | None:
    """The line before which a declared key belongs, or None to append it."""
    if key not in rank:
        return None
    later = [e.first for k, e in entries.items() if rank.get(k, -1) > rank[key]]
    return min(later) if later else None


def _insert_at(lines: list[str]) -> int:
    """After the last line that holds a key or value (trailing comments stay last)."""
    index = len(lines)
    while index > 0 and (not lines[index - 1].strip() or lines[index - 1].lstrip().startswith("#")):
        index -= 1
    return index
