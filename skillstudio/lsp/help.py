"""What the editor is told about the text under the cursor: a frontmatter key's help and
limits for the file's profile, a diagnostic code's meaning, and the field names and
values to complete. Plain functions of the document's lines and a profile (the profiles
declare their fields once: core/model/fields.py)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.model.diagnostics import CODES, Diagnostic
from ..core.model.explanations import ADVICE, EXPLANATIONS
from ..core.model.fields import FieldSpec
from ..core.profile import Profile

KEY_LINE = re.compile(r"([^\s:#'\"\-][^:#]*?)[ \t]*:(?=\s|$)")
ITEM_LINE = re.compile(r"[ \t]+-[ \t]*")
LIST_KINDS = ("list", "text_or_list", "csv", "spaced")
SEPARATORS = " ,\t["


@dataclass(frozen=True, slots=True)
class Frontmatter:
    """Which 0-based lines hold the frontmatter (`first` to `end`, `end` excluded)."""

    first: int
    end: int

    def holds(self, line: int) -> bool:
        return self.first <= line < self.end


def frontmatter(lines: Sequence[str]) -> Frontmatter | None:
    """The frontmatter's lines: after a first line `---`, up to the next `---` (or the
    end of an unclosed one, as the author is still typing it)."""
    if not lines or lines[0].lstrip("\ufeff").rstrip(" \t\r") != "---":
        return None
    for index in range(1, len(lines)):
        if lines[index].rstrip(" \t\r") == "---":
            return Frontmatter(1, index)
    return Frontmatter(1, len(lines))


def key_at(line: str) -> tuple[str, int, int] | None:
    """The top-level key a line starts with: (key, start, end) in characters."""
    found = KEY_LINE.match(line)
    if found is None:
        return None
    return found.group(1), found.start(1), found.end(1)


def present_keys(lines: Sequence[str], fm: Frontmatter) -> set[str]:
    keys = set()
    for index in range(fm.first, fm.end):
        found = key_at(lines[index])
        if found is not None:
            keys.add(found[0])
    return keys


def parent_key(lines: Sequence[str], fm: Frontmatter, line: int) -> str | None:
    """The top-level key an indented line (a list item) belongs to."""
    for index in range(line - 1, fm.first - 1, -1):
        text = lines[index]
        if text[:1] not in (" ", "\t", "") and key_at(text) is not None:
            return key_at(text)[0]  # type: ignore[index]
        if text[:1] not in (" ", "\t", ""):
            return None
    return None


# -- hover ------------------------------------------------------------------------------
def field_help(spec: FieldSpec, profile: Profile) -> str:
    """A field's help for the file's profile, in Markdown: label, kind, limits, values."""
    head = f"**{spec.label}** (`{spec.key}`) — {profile.title}"
    parts = [head, "", spec.describe()]
    if spec.suggestions:
        parts += ["", "Known values: " + ", ".join(f"`{v}`" for v in spec.suggestions)]
    return "\n".join(parts)


def unknown_field_help(key: str, profile: Profile) -> str:
    known = ", ".join(f"`{spec.key}`" for spec in profile.fields)
    return f"`{key}` is not a field of {profile.title}.\n\nIts fields: {known}."


def explanation(code: str) -> str:
    """What a diagnostic code means, why it matters and how to fix it (the table that
    `skillstudio explain CODE` reads), else its line in the table of codes."""
    summary = CODES.get(code, "")
    text = EXPLANATIONS.get(code)
    if summary:
        summary = f"{summary[:1].upper()}{summary[1:]}."
    if text is None:
        return summary
    advice = ADVICE.get(code)
    source = f"\n\n_Source: {advice.source}._" if advice is not None else ""
    return f"{summary}\n\n{text}{source}" if summary else text + source


def diagnostic_help(diag: Diagnostic) -> str:
    text = f"**{diag.code}** ({diag.severity})"
    meaning = explanation(diag.code)
    return f"{text}: {meaning}" if meaning else text


def key_hover(lines: Sequence[str], line: int, column: int, profile: Profile) -> str | None:
    """The help of the frontmatter key under the cursor (0-based line, character)."""
    fm = frontmatter(lines)
    if fm is None or not fm.holds(line):
        return None
    found = key_at(lines[line])
    if found is None or not found[1] <= column <= found[2]:
        return None
    spec = profile.field(found[0])
    return field_help(spec, profile) if spec is not None else unknown_field_help(found[0], profile)


def name_line(lines: Sequence[str], line: int, key: str = "name") -> bool:
    """Whether the cursor's line is the frontmatter line of `key` (the skill's name)."""
    fm = frontmatter(lines)
    if fm is None or not fm.holds(line):
        return False
    found = key_at(lines[line])
    return found is not None and found[0] == key


# -- completion -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Offer:
    """One completion: the text shown and inserted, what it is, its help."""

    label: str
    insert: str
    detail: str
    help: str
    is_field: bool


def values_of(spec: FieldSpec) -> tuple[str, ...]:
    if spec.kind == "bool":
        return ("true", "false")
    return spec.choices + tuple(v for v in spec.suggestions if v not in spec.choices)


def completions(lines: Sequence[str], line: int, column: int, profile: Profile) -> list[Offer]:
    """Field names at the start of a frontmatter line (those not written yet), a
    field's values after its colon or in its list."""
    fm = frontmatter(lines)
    if fm is None or not fm.holds(line) or line >= len(lines):
        return []
    text = lines[line]
    before = text[:column]
    if before and ":" not in before and before[:1] not in (" ", "\t", "-"):
        before_key = before
    elif not before:
        before_key = ""
    else:
        before_key = None
    if before_key is not None:
        taken = present_keys(lines, fm)
        own = key_at(text)
        if own is not None:
            taken.discard(own[0])
        return [
            Offer(spec.key, f"{spec.key}: ", spec.label, field_help(spec, profile), True)
            for spec in profile.fields
            if spec.key not in taken and spec.key.startswith(before_key)
        ]
    found = key_at(text)
    spec: FieldSpec | None
    if found is not None and column > found[2]:
        spec = profile.field(found[0])
        value = before[found[2] + 1 :]
        if spec is not None and spec.kind in LIST_KINDS:
            value = re.split(r"[ ,\t\[]", value)[-1]
        elif value.strip(" \t") != value.lstrip(" \t") or value.strip().count(" "):
            return []  # past the value's first word
    elif ITEM_LINE.match(before) and (key := parent_key(lines, fm, line)) is not None:
        spec = profile.field(key)
        value = before[ITEM_LINE.match(before).end() :]  # type: ignore[union-attr]
    else:
        return []
    if spec is None:
        return []
    typed = value.strip()
    return [
        Offer(v, v, spec.label, spec.describe(), False)
        for v in values_of(spec)
        if v.lower().startswith(typed.lower())
    ]
